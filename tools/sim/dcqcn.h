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
#include <stdint.h>

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
	DCQCN_NR_PARAMS
};

struct dcqcn_params {
	uint32_t v[DCQCN_NR_PARAMS];
};

struct dcqcn_param_desc {
	const char *name;	/* the mlx5 sysfs name */
	const char *unit;
	uint32_t min, max, def;
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
	uint32_t t_stage, b_stage;	/* timer and byte counter stages */
	uint64_t bytes;		/* sent since the byte counter last fired */
	uint64_t last_cut_ps;
	uint64_t next_alpha_ps, next_timer_ps, next_cut_ps;
};

void dcqcn_init(struct dcqcn_qp *q, double line_bps);
void dcqcn_cnp(struct dcqcn_qp *q, const struct dcqcn_params *p,
	       double line_bps, uint64_t now_ps);
void dcqcn_sent(struct dcqcn_qp *q, const struct dcqcn_params *p,
		double line_bps, uint32_t bytes);
/* Handle every timer of @q due at or before @now_ps. */
void dcqcn_timer(struct dcqcn_qp *q, const struct dcqcn_params *p,
		 double line_bps, uint64_t now_ps);
uint64_t dcqcn_next_timer_ps(const struct dcqcn_qp *q);

#endif /* RCC_SIM_DCQCN_H */
