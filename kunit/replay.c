// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - see replay.h.  The order of events and runs is the core's
 * (rcc_event(), rcc_advance()); this file only records what the runs did.
 */
#include <linux/string.h>

#include "replay.h"

struct replay_ctx {
	struct replay_result *out;
	u64 told;
};

static void replay_run(void *ctx, const struct rcc_report *rep)
{
	struct replay_ctx *c = ctx;
	struct replay_result *out = c->out;
	u64 rate = rep->congested ? rep->current_bps : 0;

	out->runs++;
	if (rep->run == 0)
		out->episodes++;
	if (rep->action < RCC_NR_ACTIONS)
		out->actions[rep->action]++;
	if (rep->floor_hit)
		out->floor_hits++;
	out->last_run_ns = rep->t_ns;
	if (rate != c->told && out->nr_changes < FAKE_RATE_LOG) {
		out->changes[out->nr_changes].t_ns = rep->t_ns;
		out->changes[out->nr_changes].bps = rate;
		out->nr_changes++;
	}
	c->told = rate;
}

void replay(const struct rcc_params *p, u64 line_rate_bps,
	    const struct replay_event *ev, unsigned int nr_ev, u64 until_ns,
	    struct replay_result *out)
{
	struct rcc_qp qp;
	struct replay_ctx c = { .out = out };
	unsigned int i;

	memset(out, 0, sizeof(*out));
	rcc_qp_init(&qp, line_rate_bps);
	for (i = 0; i < nr_ev; i++) {
		struct rcc_event e = {
			.t_ns = ev[i].t_ns,
			.npkts = ev[i].npkts,
			.kind = ev[i].npkts ? RCC_EV_TX : RCC_EV_CNP,
		};

		rcc_event(&qp, p, line_rate_bps, &e, replay_run, &c);
	}
	rcc_advance(&qp, p, line_rate_bps, until_ns, replay_run, &c);
	out->congested = qp.congested;
}
