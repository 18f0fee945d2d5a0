/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - the tunable parameters of the rate loop: one table of names,
 * units, ranges and defaults, shared by the module's sysfs files, the replay
 * tool's options and the simulator, so that all of them validate alike.
 */
#ifndef RDMA_CC_PARAMS_H
#define RDMA_CC_PARAMS_H

#include "portable.h"

enum rcc_param {
	RCC_DATA_RATE_MBPS,
	RCC_CONTROL_INTERVAL_NS,
	RCC_CONGESTION_PROBABILITY_WEIGHT,
	RCC_INITIAL_CONGESTION_ESTIMATE,
	RCC_FAST_RECOVERY_ATTEMPT,
	RCC_NUM_CONTROL_LOOPS_PER_INCREASE,
	RCC_INITIAL_TARGET_RATE_PERCENT,
	RCC_NUMBER_ACTIVE_INCREASE_STEPS,
	RCC_MINIMUM_RATE_PERCENT,
	RCC_LINE_RATE_MARGIN_MBPS,
	RCC_NR_PARAMS
};

/* One set of parameters, each in the unit its sysfs file uses. */
struct rcc_params {
	u32 data_rate_mbps;		/* 0 = the device's link speed */
	u32 control_interval_ns;
	u32 congestion_probability_weight;	/* 1/1024 */
	u32 initial_congestion_estimate;	/* 1/1024 */
	u32 fast_recovery_attempt;
	u32 num_control_loops_per_increase;
	u32 initial_target_rate_percent;
	u32 number_active_increase_steps;
	u32 minimum_rate_percent;
	u32 line_rate_margin_mbps;
};

struct rcc_param_desc {
	const char *name;	/* sysfs attribute and replay option name */
	const char *unit;
	const char *help;
	u32 min;
	u32 max;
	u32 def;
	size_t offset;		/* of the field in struct rcc_params */
};

extern const struct rcc_param_desc rcc_param_descs[RCC_NR_PARAMS];

void rcc_params_default(struct rcc_params *p);
u32 rcc_param_get(const struct rcc_params *p, enum rcc_param id);
/* @val must already be valid for @id (see rcc_param_parse). */
void rcc_param_set(struct rcc_params *p, enum rcc_param id, u32 val);
bool rcc_param_in_range(enum rcc_param id, u32 val);

/*
 * Parse @buf as plain decimal digits, optionally followed by one newline (as
 * "echo" writes), nothing else: no sign, no spaces, no "0x".  Returns 0 and
 * sets *@val, or -EINVAL when malformed or above U32_MAX; *@val is left alone
 * on error.
 */
int rcc_parse_u32(const char *buf, u32 *val);

/*
 * Parse @buf as a value for parameter @id (rcc_parse_u32, then the range
 * check).  Returns 0 and sets *@val, or -EINVAL for anything malformed or
 * out of range, as a sysfs store must; *@val is left alone on error.
 */
int rcc_param_parse(enum rcc_param id, const char *buf, u32 *val);

/* Index of the parameter named @name (the sysfs name), or -EINVAL. */
int rcc_param_lookup(const char *name);

#endif /* RDMA_CC_PARAMS_H */
