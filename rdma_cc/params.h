/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - the tunable parameters of the rate loop: one list of names,
 * units, ranges and defaults (param_list.h), from which the enum, struct
 * rcc_params, the table rcc_param_descs, the module parameters and the
 * replay tool's and simulator's options are made, so that all of them
 * validate alike.
 */
#ifndef RDMA_CC_PARAMS_H
#define RDMA_CC_PARAMS_H

#include "portable.h"

/* RCC_<ID> for each parameter of param_list.h, in its order */
enum rcc_param {
#define RCC_PARAM(id, name, unit, min, max, def, help) RCC_##id,
#include "param_list.h"
#undef RCC_PARAM
	RCC_NR_PARAMS
};

/* One set of parameters, each in the unit param_list.h gives it. */
struct rcc_params {
#define RCC_PARAM(id, name, unit, min, max, def, help) u32 name;
#include "param_list.h"
#undef RCC_PARAM
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
 * @base with the values @own[id] for every id set in @mask on top (a device's
 * own values over the global ones, a QP's over its device's).  @own must be
 * valid values.
 */
void rcc_params_overlay(struct rcc_params *out, const struct rcc_params *base,
			unsigned long mask, const u32 *own);

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
