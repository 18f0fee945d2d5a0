/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - the rate loop run by hand over a list of timed events, as
 * tools/rdma-cc-replay does, to check the module's timer-driven runs.
 */
#ifndef RDMA_CC_KUNIT_REPLAY_H
#define RDMA_CC_KUNIT_REPLAY_H

#include "fake_driver.h"

struct replay_event {
	u64 t_ns;
	u32 npkts;		/* 0: a CNP; else packets sent */
};

struct replay_result {
	unsigned int nr_changes;	/* rate changes a driver is told */
	struct fake_rate changes[FAKE_RATE_LOG];
	u64 runs;
	u64 actions[RCC_NR_ACTIONS];
	u64 floor_hits;
	u64 episodes;
	u64 last_run_ns;
	bool congested;		/* at @until_ns */
};

void replay(const struct rcc_params *p, u64 line_rate_bps,
	    const struct replay_event *ev, unsigned int nr_ev, u64 until_ns,
	    struct replay_result *out);

#endif /* RDMA_CC_KUNIT_REPLAY_H */
