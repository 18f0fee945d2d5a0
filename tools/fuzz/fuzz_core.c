// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_core.c - libFuzzer harness for the rate-control core.
 *
 * The input's first bytes choose a parameter set (every parameter mapped
 * into its valid range), the rest is a stream of events (CNP, packets sent,
 * time passing) driven through rcc_event() exactly as the replay tool
 * drives it.  After every run the invariants must hold:
 *	floor <= rc <= R; floor <= rt <= R while congested; rc = R outside
 *	episodes; 0 <= a <= 1; -1 <= k <= F; runs on the t0 + j*T/2 grid.
 * A broken invariant aborts, which libFuzzer reports with the input.
 *
 *	make -C tools/fuzz && tools/fuzz/fuzz_core -max_total_time=60
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rate_loop.h"

struct input {
	const unsigned char *p;
	size_t left;
};

static u32 take(struct input *in, unsigned int bytes)
{
	u32 v = 0;

	while (bytes--) {
		v <<= 8;
		if (in->left) {
			v |= *in->p++;
			in->left--;
		}
	}
	return v;
}

static void fail(const char *what, const struct rcc_qp *qp)
{
	fprintf(stderr, "invariant broken: %s (rc=%llu rt=%llu a=%u k=%d run=%llu)\n",
		what, (unsigned long long)qp->current_bps,
		(unsigned long long)qp->target_bps, qp->estimate,
		qp->recovery, (unsigned long long)qp->run);
	abort();
}

static void check_invariants(const struct rcc_qp *qp,
			     const struct rcc_params *p, u64 rate,
			     const struct rcc_report *rep, u64 t0)
{
	u64 floor = rate * p->minimum_rate_percent / 100;
	u64 j = rep->run;

	if (qp->current_bps < floor || qp->current_bps > rate)
		fail("floor <= rc <= R", qp);
	if (qp->congested &&
	    (qp->target_bps < floor || qp->target_bps > rate))
		fail("floor <= rt <= R while congested", qp);
	if (!qp->congested && qp->current_bps != rate)
		fail("rc = R outside episodes", qp);
	if (qp->estimate > RCC_EST_ONE)
		fail("a <= 1", qp);
	if (qp->recovery < -1 || qp->recovery > (s32)p->fast_recovery_attempt)
		fail("-1 <= k <= F", qp);
	if (rep->t_ns != t0 + j * p->control_interval_ns / 2)
		fail("run j at t0 + floor(j*T/2)", qp);
	if (rep->half != (j & 1 ? RCC_HALF_INCREASE : RCC_HALF_REDUCE))
		fail("halves alternate", qp);
}

static void pick_params(struct input *in, struct rcc_params *p)
{
	int id;

	for (id = 0; id < RCC_NR_PARAMS; id++) {
		const struct rcc_param_desc *d = &rcc_param_descs[id];
		u32 lo = id == RCC_DATA_RATE_MBPS ? 1 : d->min;
		u32 span = d->max - lo + 1;
		u32 v = take(in, 4);

		/* favour the bounds, where the edge cases live */
		if ((v & 7) == 0)
			v = lo;
		else if ((v & 7) == 1)
			v = d->max;
		else
			v = lo + (v >> 3) % span;
		rcc_param_set(p, id, v);
	}
}

struct fuzz_ctx {
	const struct rcc_qp *qp;
	const struct rcc_params *p;
	u64 rate;
	u64 t0;
	u64 runs;
};

static void check_run(void *ctx, const struct rcc_report *rep)
{
	struct fuzz_ctx *c = ctx;

	if (rep->run == 0) {
		c->t0 = rep->t_ns;
		if (rep->action != RCC_ACT_FR_CUT)
			fail("an episode starts with fr_cut", c->qp);
	}
	check_invariants(c->qp, c->p, c->rate, rep, c->t0);
	c->runs++;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct input in = { data, size };
	struct rcc_params p;
	struct rcc_qp qp;
	struct fuzz_ctx c = { .qp = &qp, .p = &p };
	u64 t = 0;

	pick_params(&in, &p);
	c.rate = rcc_line_rate_bps(&p, 0);
	rcc_qp_init(&qp, c.rate);
	while (in.left && c.runs < 100000) {
		u32 op = take(&in, 1);
		u32 arg = take(&in, 2);
		struct rcc_event ev = { 0 };

		/* time moves first; events at a run's time precede the run */
		switch (op & 3) {
		case 0:
			t += arg;
			break;
		case 1:
			t += (u64)arg * (p.control_interval_ns / 64 + 1);
			break;
		default:
			break;
		}
		ev.t_ns = t;
		if (op & 4) {
			ev.kind = RCC_EV_CNP;
		} else {
			ev.kind = RCC_EV_TX;
			ev.npkts = op & 8 ? arg : (u64)arg << 20;
		}
		rcc_event(&qp, &p, c.rate, &ev, check_run, &c);
	}
	return 0;
}
