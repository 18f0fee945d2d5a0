/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcqcn.h - DCQCN's reaction point (Zhu et al., "Congestion Control for
 * Large-Scale RDMA Deployments", SIGCOMM 2015), as a comparison for the
 * simulator.  Parameter names and units are those of mlx5's
 * /sys/class/net/<dev>/ecn/roce_rp/ files; the defaults are the ones a
 * ConnectX-5 reports (see Documentation/simulation.rst).
 */
#ifndef RCC_SIM_DCQCN_H
#define RCC_SIM_DCQCN_H

#include <stdbool.h>
#include "portable.h"

enum dcqcn_param {
	DCQCN_TIME_RESET,
	DCQCN_BYTE_RESET,
	DCQCN_THRESHOLD,
	DCQCN_AI_RATE,
	DCQCN_HAI_RATE,
	DCQCN_GD,
	DCQCN_MIN_DEC_FAC,
	DCQCN_MIN_RATE,
	DCQCN_RATE_ON_FIRST_CNP,
	DCQCN_TCP_G,
	DCQCN_TCP_RTT,
	DCQCN_MONITOR_PERIOD,
	DCQCN_INITIAL_ALPHA,
	DCQCN_CLAMP_TGT,
	DCQCN_CLAMP_TGT_AFTER_TIME_INC,
	DCQCN_NR_PARAMS
};

struct dcqcn_params {
	u32 v[DCQCN_NR_PARAMS];
};

struct dcqcn_param_desc {
	const char *name;	/* the mlx5 sysfs name */
	const char *unit;
	u32 min, max, def;
};

extern const struct dcqcn_param_desc dcqcn_param_descs[DCQCN_NR_PARAMS];

void dcqcn_params_default(struct dcqcn_params *p);
int dcqcn_param_lookup(const char *name);

/* The state of one QP's rate limiter. */
struct dcqcn_qp {
	double rc, rt;		/* current and target rate, bit/s */
	double alpha;		/* 0 .. 1 */
	bool limited;		/* a rate limiter is allocated */
	bool cnp_in_period;	/* a CNP came in this alpha period */
	bool cut_pending;	/* a CNP awaits the next allowed cut */
	bool time_inc;		/* the timer raised the rate since the cut */
	u32 t_stage, b_stage;	/* timer and byte counter stages */
	u64 bytes;		/* sent since the byte counter last fired */
	u64 last_cut_ps;
	u64 next_alpha_ps, next_timer_ps, next_cut_ps;
};

void dcqcn_init(struct dcqcn_qp *q, double line_bps);
void dcqcn_cnp(struct dcqcn_qp *q, const struct dcqcn_params *p,
	       double line_bps, u64 now_ps);
void dcqcn_sent(struct dcqcn_qp *q, const struct dcqcn_params *p,
		double line_bps, u32 bytes);
/* Handle every timer of @q due at or before @now_ps. */
void dcqcn_timer(struct dcqcn_qp *q, const struct dcqcn_params *p,
		 double line_bps, u64 now_ps);
u64 dcqcn_next_timer_ps(const struct dcqcn_qp *q);

#endif /* RCC_SIM_DCQCN_H */
