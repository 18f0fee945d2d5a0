// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - the rate loop's parameters: the table of param_list.h's names,
 * units, ranges and defaults, and the one strict parser every interface
 * uses.
 */
#include "params.h"

const struct rcc_param_desc rcc_param_descs[RCC_NR_PARAMS] = {
#define RCC_PARAM(id, name_, unit_, min_, max_, def_, help_)		\
	[RCC_##id] = { .name = #name_, .unit = unit_, .min = min_,	\
		       .max = max_, .def = def_, .help = help_,		\
		       .offset = offsetof(struct rcc_params, name_) },
#include "param_list.h"
#undef RCC_PARAM
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

void rcc_params_overlay(struct rcc_params *out, const struct rcc_params *base,
			unsigned long mask, const u32 *own)
{
	int id;

	*out = *base;
	for (id = 0; id < RCC_NR_PARAMS; id++)
		if (mask & BIT(id))
			rcc_param_set(out, id, own[id]);
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
