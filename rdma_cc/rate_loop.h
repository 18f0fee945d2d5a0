/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rate_loop.h - one queue pair's rate controller, as pure C.
 *
 * No floating point, no allocation, no locking, no timers: the caller owns a
 * struct rcc_qp, feeds it events with rcc_event() (which first makes every
 * run due before the event) and makes the runs due at a time with
 * rcc_advance() when qp->next_run_ns comes.  Every user (the module, KUnit,
 * the replay tool, the simulator, the fuzzer) drives the loop through these
 * two, so the order of events and runs is decided in one place.  The same file is compiled into
 * rdma_cc.ko, KUnit, tools/rdma-cc-replay and tools/rdma-cc-sim.
 * See rate_loop.c for the algorithm and Documentation/algorithm.rst for
 * the exact behaviour.
 */
#ifndef RDMA_CC_RATE_LOOP_H
#define RDMA_CC_RATE_LOOP_H

#include "portable.h"
#include "params.h"

/* The congestion estimate a is fixed point: RCC_EST_ONE is 1.0. */
#define RCC_EST_SHIFT	31
#define RCC_EST_ONE	((u32)BIT(RCC_EST_SHIFT))

/* An estimate in millionths, rounded to nearest: how every tool prints it. */
static inline u64 rcc_estimate_micro(u32 est)
{
	return ((u64)est * 1000000 + RCC_EST_ONE / 2) >> RCC_EST_SHIFT;
}

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
	u64 next_run_ns;	/* when run j is due (valid while congested) */
	/*
	 * j: index of the next run in the episode.  Only its parity and
	 * whether it is 0 matter, so it is 32 bits (a QP costs 8 bytes less)
	 * and, after 2^32 runs of one episode, goes on at 2, never 0.
	 */
	u32 run;
	u32 estimate;		/* a, in 1/RCC_EST_ONE */
	u32 cnp;		/* CNPs received in the current interval */
	/*
	 * h and k are narrow so that the state is 56 bytes (a QP's struct
	 * rcc_flow then 240: 17 to a page, not 16): h never passes N + 1,
	 * at most 1001, and k stays within -1..F, F at most 64 (rate_loop.c:
	 * an additive cut, the one decrease, comes only with k >= F).
	 */
	u16 cnp_halves;		/* h: increase halves that saw CNPs */
	s8 recovery;		/* k */
	bool congested;
};

/* What one run did, for the replay tool, tracepoints and counters. */
struct rcc_report {
	u64 t_ns;		/* the run's scheduled time */
	u64 run;		/* j: 0 is the run that starts the episode */
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

enum rcc_event_kind {
	RCC_EV_CNP,		/* one CNP arrived */
	RCC_EV_TX,		/* npkts packets were sent */
};

struct rcc_event {
	u64 t_ns;
	u64 npkts;		/* RCC_EV_TX only */
	enum rcc_event_kind kind;
};

/* Told of every run rcc_event() and rcc_advance() make, in order. */
typedef void (*rcc_run_fn)(void *ctx, const struct rcc_report *rep);

/*
 * Apply @ev: first every run due strictly before @ev->t_ns (an event at a
 * run's time comes before that run), then the event.  Packets count only
 * while congested.  A CNP to a QP that is not congested starts an episode
 * at @ev->t_ns and makes run 0 at once.  @fn (may be NULL) sees each run.
 * Returns true when the event started an episode.
 */
bool rcc_event(struct rcc_qp *qp, const struct rcc_params *p,
	       u64 line_rate_bps, const struct rcc_event *ev,
	       rcc_run_fn fn, void *ctx);

/*
 * Make every run due at or before @t_ns, in order, each with the counts it
 * would have seen (a late timer, the end of a trace).  Returns the runs made.
 */
unsigned int rcc_advance(struct rcc_qp *qp, const struct rcc_params *p,
			 u64 line_rate_bps, u64 t_ns, rcc_run_fn fn, void *ctx);

/*
 * One run of the loop: run j, due at qp->next_run_ns.  Only for tests of a
 * single rule; everything else goes through rcc_event()/rcc_advance().
 * Fills @rep if non-NULL, advances qp->next_run_ns and returns true while
 * the QP stays congested.  Must only be called while qp->congested.
 */
bool rcc_run(struct rcc_qp *qp, const struct rcc_params *p,
	     u64 line_rate_bps, struct rcc_report *rep);

const char *rcc_action_name(enum rcc_action action);
const char *rcc_half_name(enum rcc_half half);

#endif /* RDMA_CC_RATE_LOOP_H */
