// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - see replay.h.  Events at or before a run's time are applied
 * before that run, as the spec says.
 */
#include <linux/string.h>

#include "replay.h"

static void replay_run(struct rcc_qp *qp, const struct rcc_params *p,
		       u64 line_rate, u64 *told, struct replay_result *out)
{
	struct rcc_report rep;
	u64 rate;

	rcc_run(qp, p, line_rate, &rep);
	out->runs++;
	if (rep.action < RCC_NR_ACTIONS)
		out->actions[rep.action]++;
	if (rep.floor_hit)
		out->floor_hits++;
	out->last_run_ns = rep.t_ns;
	rate = qp->congested ? qp->current_bps : 0;
	if (rate != *told && out->nr_changes < FAKE_RATE_LOG) {
		out->changes[out->nr_changes].t_ns = rep.t_ns;
		out->changes[out->nr_changes].bps = rate;
		out->nr_changes++;
	}
	*told = rate;
}

void replay(const struct rcc_params *p, u64 line_rate_bps,
	    const struct replay_event *ev, unsigned int nr_ev, u64 until_ns,
	    struct replay_result *out)
{
	struct rcc_qp qp;
	unsigned int i;
	u64 told = 0;

	memset(out, 0, sizeof(*out));
	rcc_qp_init(&qp, line_rate_bps);
	for (i = 0; i < nr_ev; i++) {
		while (qp.congested && qp.next_run_ns < ev[i].t_ns)
			replay_run(&qp, p, line_rate_bps, &told, out);
		if (ev[i].npkts) {
			rcc_tx(&qp, ev[i].npkts);
		} else if (rcc_cnp(&qp, p, line_rate_bps, ev[i].t_ns)) {
			out->episodes++;
			replay_run(&qp, p, line_rate_bps, &told, out);
		}
	}
	while (qp.congested && qp.next_run_ns <= until_ns)
		replay_run(&qp, p, line_rate_bps, &told, out);
	out->congested = qp.congested;
}
