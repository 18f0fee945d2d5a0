/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rate_loop.h - one queue pair's rate controller, as pure C.
 *
 * No floating point, no allocation, no locking, no timers: the caller owns a
 * struct rcc_qp, feeds it events (rcc_cnp(), rcc_tx()) and runs the loop
 * (rcc_run()) when qp->next_run_ns comes.  The same file is compiled into
 * rdma_cc.ko, KUnit, tools/rdma-cc-replay and tools/rdma-cc-sim.
 * See rate_loop.c for the algorithm and ../shared spec for the contract.
 */
#ifndef RDMA_CC_RATE_LOOP_H
#define RDMA_CC_RATE_LOOP_H

#include "portable.h"
#include "params.h"

/* The congestion estimate a is fixed point: RCC_EST_ONE is 1.0. */
#define RCC_EST_SHIFT	31
#define RCC_EST_ONE	((u32)BIT(RCC_EST_SHIFT))

#define RCC_BPS_PER_MBPS	1000000ULL

enum rcc_half {
	RCC_HALF_REDUCE,
	RCC_HALF_INCREASE,
};

enum rcc_action {
	RCC_ACT_NONE,
	RCC_ACT_FR_CUT,		/* fast recovery cut: rc *= 1 - a/2 */
	RCC_ACT_AI_CUT,		/* additive cut: rt -= step, rc halfway */
	RCC_ACT_FR_INC,		/* fast recovery increase: rc halfway */
	RCC_ACT_AI_INC,		/* additive increase: rt += step, rc halfway */
	RCC_NR_ACTIONS
};

/* The state of one QP (the spec's "State of one QP"). */
struct rcc_qp {
	u64 current_bps;	/* rc */
	u64 target_bps;		/* rt */
	u64 step_bps;		/* additive step, fixed for the episode */
	u64 pkts;		/* packets sent in the current interval */
	u64 run;		/* j: index of the next run in the episode */
	u64 next_run_ns;	/* when run j is due (valid while congested) */
	u64 interval_start_ns;	/* time of the latest reduction half */
	u32 estimate;		/* a, in 1/RCC_EST_ONE */
	u32 cnp;		/* CNPs received in the current interval */
	u32 cnp_halves;		/* h: increase halves that saw CNPs */
	s32 recovery;		/* k */
	bool congested;
};

/* What one run did, for the replay tool, tracepoints and counters. */
struct rcc_report {
	u64 t_ns;		/* the run's scheduled time */
	u64 pkts;		/* counts this run used, before clearing */
	u64 current_bps;	/* rc, rt, k after the run */
	u64 target_bps;
	u32 cnp;
	u32 estimate;		/* a after this run's update */
	s32 recovery;
	u8 half;		/* enum rcc_half */
	u8 action;		/* enum rcc_action */
	bool floor_hit;		/* a cut was raised to the floor */
	bool congested;		/* false when this run ended the episode */
};

/* R in bit/s: data_rate_mbps if set, else the device's link speed. */
u64 rcc_line_rate_bps(const struct rcc_params *p, u64 device_bps);

/* A QP at attach: not congested, at line rate. */
void rcc_qp_init(struct rcc_qp *qp, u64 line_rate_bps);

/*
 * A CNP arrived at @now_ns.  Returns true when it started an episode: the
 * caller must then call rcc_run() at once (run 0 is due at @now_ns).
 */
bool rcc_cnp(struct rcc_qp *qp, const struct rcc_params *p,
	     u64 line_rate_bps, u64 now_ns);

/* @npkts packets were sent; counted only while congested. */
void rcc_tx(struct rcc_qp *qp, u64 npkts);

/*
 * Run the loop once: run j, due at qp->next_run_ns (the caller applies every
 * event at or before that time first).  Fills @rep if non-NULL, advances
 * qp->next_run_ns and returns true while the QP stays congested.  Must only
 * be called while qp->congested.
 */
bool rcc_run(struct rcc_qp *qp, const struct rcc_params *p,
	     u64 line_rate_bps, struct rcc_report *rep);

const char *rcc_action_name(enum rcc_action action);
const char *rcc_half_name(enum rcc_half half);

#endif /* RDMA_CC_RATE_LOOP_H */
