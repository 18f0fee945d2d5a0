// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - the rate loop's parameters: names, units, ranges, defaults,
 * and the one strict parser every interface uses.
 */
#include "params.h"

#define PARAM(id_, field_, unit_, min_, max_, def_, help_)		\
	[id_] = { .name = #field_, .unit = unit_, .min = min_,		\
		  .max = max_, .def = def_, .help = help_,		\
		  .offset = offsetof(struct rcc_params, field_) }

/*
 * congestion_probability_weight's default is the one the simulator's sweep
 * chose (Documentation/simulation.rst).
 */
const struct rcc_param_desc rcc_param_descs[RCC_NR_PARAMS] = {
	PARAM(RCC_DATA_RATE_MBPS, data_rate_mbps, "Mbit/s", 0, 10000000, 0,
	      "line rate R; 0 = the device's own link speed"),
	PARAM(RCC_CONTROL_INTERVAL_NS, control_interval_ns, "ns",
	      2000, 100000000, 45000,
	      "control interval T; the loop runs every T/2"),
	PARAM(RCC_CONGESTION_PROBABILITY_WEIGHT, congestion_probability_weight,
	      "1/1024", 1, 1024, 4,
	      "weight w of each run's marking fraction in the estimate"),
	PARAM(RCC_INITIAL_CONGESTION_ESTIMATE, initial_congestion_estimate,
	      "1/1024", 0, 1024, 1024,
	      "estimate a at the start of an episode"),
	PARAM(RCC_FAST_RECOVERY_ATTEMPT, fast_recovery_attempt, "count",
	      0, 64, 5, "fast recovery increases F before additive increase"),
	PARAM(RCC_NUM_CONTROL_LOOPS_PER_INCREASE,
	      num_control_loops_per_increase, "count", 0, 1000, 5,
	      "under CNPs, increase on every (N+1)-th increase half"),
	PARAM(RCC_INITIAL_TARGET_RATE_PERCENT, initial_target_rate_percent,
	      "percent", 0, 100, 90,
	      "P: additive step = R * (100 - P)% / S"),
	PARAM(RCC_NUMBER_ACTIVE_INCREASE_STEPS, number_active_increase_steps,
	      "count", 1, 1000, 10, "S: additive steps from P% back to R"),
	PARAM(RCC_MINIMUM_RATE_PERCENT, minimum_rate_percent, "percent",
	      1, 100, 10, "floor M: the rate never goes below M% of R"),
	PARAM(RCC_LINE_RATE_MARGIN_MBPS, line_rate_margin_mbps, "Mbit/s",
	      0, 10000000, 100,
	      "the episode ends when the rate is within E of R"),
};

static u32 *param_slot(struct rcc_params *p, enum rcc_param id)
{
	return (u32 *)((char *)p + rcc_param_descs[id].offset);
}

u32 rcc_param_get(const struct rcc_params *p, enum rcc_param id)
{
	return *param_slot((struct rcc_params *)p, id);
}

void rcc_param_set(struct rcc_params *p, enum rcc_param id, u32 val)
{
	*param_slot(p, id) = val;
}

void rcc_params_default(struct rcc_params *p)
{
	int id;

	for (id = 0; id < RCC_NR_PARAMS; id++)
		rcc_param_set(p, id, rcc_param_descs[id].def);
}

bool rcc_param_in_range(enum rcc_param id, u32 val)
{
	return val >= rcc_param_descs[id].min &&
	       val <= rcc_param_descs[id].max;
}

int rcc_parse_u32(const char *buf, u32 *val)
{
	const char *s = buf;
	u64 v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (u64)(*s - '0');
		if (v > 0xffffffffULL)
			return -EINVAL;
	}
	if (*s == '\n')
		s++;
	if (*s != '\0')
		return -EINVAL;
	*val = (u32)v;
	return 0;
}

int rcc_param_parse(enum rcc_param id, const char *buf, u32 *val)
{
	u32 v;

	if (rcc_parse_u32(buf, &v) || !rcc_param_in_range(id, v))
		return -EINVAL;
	*val = v;
	return 0;
}

int rcc_param_lookup(const char *name)
{
	int id;

	for (id = 0; id < RCC_NR_PARAMS; id++)
		if (!strcmp(rcc_param_descs[id].name, name))
			return id;
	return -EINVAL;
}
