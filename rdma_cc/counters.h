/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - what rdma_cc counts per QP and per device.
 */
#ifndef RDMA_CC_COUNTERS_H
#define RDMA_CC_COUNTERS_H

#include <linux/types.h>

#include "rate_loop.h"

/**
 * struct rcc_counters - events and outcomes since attach
 * @cnps: CNPs received
 * @pkts: data packets reported sent (all, congested or not)
 * @episodes: congestion episodes started
 * @episodes_ended: episodes that ended by recovering to line rate
 * @runs: runs of the loop
 * @actions: runs by what they did, indexed by enum rcc_action
 *	(RCC_ACT_NONE: the rate was left alone)
 * @floor_hits: cuts that were raised to the minimum rate
 * @late_runs: runs made later than one half interval after their time
 * @congested_ns: time spent inside episodes (ended episodes; the running
 *	one is added by whoever reads the counters)
 */
struct rcc_counters {
	u64 cnps;
	u64 pkts;
	u64 episodes;
	u64 episodes_ended;
	u64 runs;
	u64 actions[RCC_NR_ACTIONS];
	u64 floor_hits;
	u64 late_runs;
	u64 congested_ns;
};

static inline void rcc_counters_add(struct rcc_counters *sum,
				    const struct rcc_counters *c)
{
	int i;

	sum->cnps += c->cnps;
	sum->pkts += c->pkts;
	sum->episodes += c->episodes;
	sum->episodes_ended += c->episodes_ended;
	sum->runs += c->runs;
	for (i = 0; i < RCC_NR_ACTIONS; i++)
		sum->actions[i] += c->actions[i];
	sum->floor_hits += c->floor_hits;
	sum->late_runs += c->late_runs;
	sum->congested_ns += c->congested_ns;
}

/**
 * struct rcc_flow_counters - the counters a QP stores (in struct rcc_flow):
 * struct rcc_counters less what is derived or kept elsewhere, so that a QP
 * costs less memory (every field here is needed; see rcc_flow_state()):
 *  - pkts: struct rcc_flow.pkts, an atomic counted without the QP's lock;
 *  - runs: the sum of @actions (every run has one action, "none" included);
 *  - episodes: @episodes_ended, plus one while the QP is in an episode (an
 *    attached QP's episodes end only by recovering; the one a detach cuts
 *    short is added when the QP's counters are retired);
 *  - late_runs: the device's (struct rcc_dev.late_runs): a run late by
 *    half an interval says that the CPU's timers were late, not the QP.
 * @cnps, @episodes_ended, @actions, @floor_hits, @congested_ns: as in
 * struct rcc_counters.
 */
struct rcc_flow_counters {
	u64 cnps;
	u64 episodes_ended;
	u64 actions[RCC_NR_ACTIONS];
	u64 floor_hits;
	u64 congested_ns;
};

#endif /* RDMA_CC_COUNTERS_H */
