// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_core.c - libFuzzer harness for the rate-control core.
 *
 * The input's first bytes choose a parameter set (every parameter mapped
 * into its valid range), the rest is a stream of events (CNP, packets sent,
 * time passing) driven through rcc_event() exactly as the replay tool
 * drives it.  After every run the invariants must hold:
 *	floor <= rc <= R; floor <= rt <= R while congested; rc = R outside
 *	episodes; 0 <= a <= 1; min(0, F - 1) <= k <= F; runs on the
 *	t0 + floor(j*T/2) grid.
 * And every episode ends within the contract's bound after its last CNP:
 * at most F + 1 fast recovery increases, ceil((R - floor) / step) additive
 * increases (none when step = 0) and 45 more, i.e. by the n-th increase
 * half after the CNP's own interval, n = F + 1 + ceil((R - floor) / step)
 * + 45.  Checked on every run (the increases of calm runs since the last
 * run that saw a CNP), at every event (an episode whose last CNP is older
 * than (n + 1) T has ended) and after the stream (a calm stretch of
 * (n + 1) T ends it).
 * A broken invariant aborts, which libFuzzer reports with the input.
 *
 *	make fuzz	(11,000,000 inputs; tools/check/15-fuzz.sh runs 60,000)
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
	/* k starts at 0; only an additive cut (k >= F) lowers it */
	if (qp->recovery < (p->fast_recovery_attempt ? 0 : -1) ||
	    qp->recovery > (s32)p->fast_recovery_attempt)
		fail("min(0, F - 1) <= k <= F", qp);
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
	u64 last_cnp_ns;	/* the episode's last CNP */
	u64 fr_incs, incs;	/* increases since then */
};

/*
 * The contract's bound: the most increases an episode makes after its last
 * CNP before R - rc <= E, with the episode's step.
 */
static u64 max_increases(const struct rcc_qp *qp, const struct rcc_params *p,
			 u64 rate)
{
	u64 floor = rate * p->minimum_rate_percent / 100;
	u64 n = (u64)p->fast_recovery_attempt + 1 + 45;

	if (qp->step_bps)
		n += (rate - floor + qp->step_bps - 1) / qp->step_bps;
	return n;
}

/*
 * When the episode must have ended: the last runs that see its last CNP
 * come by t + T (an increase half, then the reduction half), then an
 * increase half every T, the first by t + 3T/2.
 */
static u64 calm_deadline(const struct fuzz_ctx *c)
{
	return c->last_cnp_ns + (max_increases(c->qp, c->p, c->rate) + 1) *
				(u64)c->p->control_interval_ns;
}

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
	/* the increases of the calm runs after the last CNP's interval */
	if (rep->cnp) {
		c->fr_incs = 0;
		c->incs = 0;
	} else if (rep->action == RCC_ACT_FR_INC) {
		c->fr_incs++;
		c->incs++;
	} else if (rep->action == RCC_ACT_AI_INC) {
		c->incs++;
	}
	if (c->fr_incs > (u64)c->p->fast_recovery_attempt + 1)
		fail("at most F + 1 fast recovery increases after the last CNP",
		     c->qp);
	if (c->incs > max_increases(c->qp, c->p, c->rate))
		fail("the episode ends within the bound after its last CNP",
		     c->qp);
}

/* At @t_ns: an episode whose last CNP is old enough has ended. */
static void check_calm(const struct fuzz_ctx *c, u64 t_ns)
{
	if (c->qp->congested && t_ns > calm_deadline(c))
		fail("the episode ends within the bound after its last CNP",
		     c->qp);
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
		/* the runs before the event see the CNPs before it */
		rcc_advance(&qp, &p, c.rate, t ? t - 1 : 0, check_run, &c);
		check_calm(&c, t ? t - 1 : 0);
		rcc_event(&qp, &p, c.rate, &ev, check_run, &c);
		if (ev.kind == RCC_EV_CNP && qp.congested) {
			c.last_cnp_ns = t;
			c.fr_incs = 0;
			c.incs = 0;
		}
	}
	/* a calm stretch: the episode ends within the bound */
	if (qp.congested) {
		t = calm_deadline(&c);
		rcc_advance(&qp, &p, c.rate, t, check_run, &c);
		check_calm(&c, t + 1);
	}
	return 0;
}
