/* SPDX-License-Identifier: GPL-2.0 */
/*
 * param_list.h - the one list of the rate loop's parameters.  Each line is
 *
 *	RCC_PARAM(ID, name, unit, min, max, default, help)
 *
 * ID names enum rcc_param's RCC_<ID>, name is the field of struct
 * rcc_params, the sysfs file, the module parameter and the replay's and
 * simulator's --name option; min, max and default are plain decimal (the
 * module parameter's description, "help (unit, range min..max)", is made
 * of their text).  Included, with RCC_PARAM defined, by params.h (the enum
 * and the struct), params.c (rcc_param_descs) and sysfs.c (the module
 * parameters); tools/scripts/gen-abi.py reads it for the ABI files.
 *
 * congestion_probability_weight's default is the one the simulator's sweep
 * chose (Documentation/simulation.rst).
 */
RCC_PARAM(DATA_RATE_MBPS, data_rate_mbps, "Mbit/s", 0, 10000000, 0,
	  "line rate R; 0 = the device's own link speed")
RCC_PARAM(CONTROL_INTERVAL_NS, control_interval_ns, "ns", 2000, 100000000,
	  45000, "control interval T; the loop runs every T/2")
RCC_PARAM(CONGESTION_PROBABILITY_WEIGHT, congestion_probability_weight,
	  "1/1024", 1, 1024, 4,
	  "weight w of each run's marking fraction in the estimate")
RCC_PARAM(INITIAL_CONGESTION_ESTIMATE, initial_congestion_estimate,
	  "1/1024", 0, 1024, 1024, "estimate a at the start of an episode")
RCC_PARAM(FAST_RECOVERY_ATTEMPT, fast_recovery_attempt, "count", 0, 64, 5,
	  "fast recovery increases F before additive increase")
RCC_PARAM(NUM_CONTROL_LOOPS_PER_INCREASE, num_control_loops_per_increase,
	  "count", 0, 1000, 5,
	  "under CNPs, increase on every (N+1)-th increase half")
RCC_PARAM(INITIAL_TARGET_RATE_PERCENT, initial_target_rate_percent,
	  "percent", 0, 100, 90, "P: additive step = R * (100 - P)% / S")
RCC_PARAM(NUMBER_ACTIVE_INCREASE_STEPS, number_active_increase_steps,
	  "count", 1, 1000, 10, "S: additive steps from P% back to R")
RCC_PARAM(MINIMUM_RATE_PERCENT, minimum_rate_percent, "percent", 1, 100, 10,
	  "floor M: the rate never goes below M% of R")
RCC_PARAM(LINE_RATE_MARGIN_MBPS, line_rate_margin_mbps, "Mbit/s", 0,
	  10000000, 100, "the episode ends when the rate is within E of R")
