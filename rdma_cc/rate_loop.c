// SPDX-License-Identifier: GPL-2.0
/*
 * rate_loop.c - ECN-based rate control for one RoCE queue pair.
 *
 * A switch whose egress queue builds up marks ECN-capable packets Congestion
 * Experienced; the receiver answers each marked packet with a congestion
 * notification packet (CNP) to the sending queue pair (QP).  This file is
 * what the sender does with those CNPs: it lowers the QP's rate, then raises
 * it again in steps once the CNPs stop.
 *
 * Episodes.  A QP that is not congested sends at line rate R and costs
 * nothing.  Its first CNP starts an episode: the target rate rt is set to the
 * current rate rc (= R), the additive step is fixed for the whole episode as
 * rt * (1 - P) / S, and the loop runs at once.  From then on the loop runs
 * every half control interval T/2, alternating a reduction half (even runs)
 * and an increase half (odd runs), until an increase brings rc within the
 * margin E of R: then rc = R and the loop stops.
 *
 * The estimate.  Every run first folds the current interval's marking
 * fraction f = CNPs / packets (at most 1) into a moving average
 *	a = (1 - w) * a + w * f
 * so a tells how hard this QP's traffic is being marked.
 *
 * Reduction half (only if the interval saw a CNP).  On the episode's first
 * run, and while in fast recovery (recovery count k < F), cut by the
 * estimate: rc *= 1 - a/2 (at most a halving), k = 0.  Otherwise cut
 * additively: rt -= step, rc moves halfway toward rt, k -= 1.  Either way rc
 * never drops below the floor M * R.  Then the interval's counts start afresh.
 *
 * Increase half.  If no CNP came since the reduction half, increase; if CNPs
 * came, increase only once N + 1 such halves have come since the last such
 * increase (every (N + 1)-th while N stays the same).  In fast recovery
 * (k < F) an increase moves rc halfway toward rt and k += 1, so F increases
 * halve the gap F times; after that each increase first raises rt by the
 * step (up to R) and then moves rc halfway toward it.
 *
 * Order of events.  rcc_event() is the one place that decides it: every run
 * due strictly before an event's time first, then the event; a CNP that
 * starts an episode makes run 0 at once, so events that share its time come
 * after run 0.  rcc_advance() makes every run due at or before a time (a
 * timer, the end of a trace).  Run j is due at t0 + floor(j * T / 2): each
 * run sets the gap to the next from the control interval it sees, so a new
 * T applies from the next run on.
 *
 * Arithmetic.  Rates are whole bit/s in u64, rounded down by every cut;
 * "halfway" rounds toward the target.  a is fixed point with RCC_EST_ONE = 2^31 as 1.0, rounded to
 * nearest.  Bounds, with R <= RCC_MAX_LINE_RATE_BPS = 10^13 < 2^44:
 *	rc, rt, step, floor, E <= 10^13, so rc + rt, rc + E, floor + step and
 *	rt * 100 stay below 2^51;
 *	(1024 - W) * a + W * f <= 1024 * 2^31 = 2^41;
 *	cnp << 31 < 2^63 since cnp is a u32, and cnp < pkts when it is used;
 *	rc * (2^32 - a) is formed in 96 bits by mul_u64_u32_shr().
 * Counters saturate instead of wrapping.
 */
#include "rate_loop.h"

/* The largest line rate the parameter table allows: 10,000,000 Mbit/s. */
#define RCC_MAX_LINE_RATE_BPS	(10000000ULL * RCC_BPS_PER_MBPS)
#define RCC_WEIGHT_SHIFT	10
#define RCC_WEIGHT_ONE		((u32)BIT(RCC_WEIGHT_SHIFT))
#define RCC_U32_MAX		((u32)~0U)
#define RCC_U64_MAX		(~0ULL)

u64 rcc_line_rate_bps(const struct rcc_params *p, u64 device_bps)
{
	if (p->data_rate_mbps)
		return p->data_rate_mbps * RCC_BPS_PER_MBPS;
	return min_t(u64, device_bps, RCC_MAX_LINE_RATE_BPS);
}

void rcc_qp_init(struct rcc_qp *qp, u64 line_rate_bps)
{
	*qp = (struct rcc_qp){ .current_bps = line_rate_bps,
			       .target_bps = line_rate_bps };
}

/* The marking fraction f of the current interval, in 1/RCC_EST_ONE. */
static u32 marked_fraction(u32 cnp, u64 pkts)
{
	if (pkts == 0)
		return cnp ? RCC_EST_ONE : 0;
	if (cnp >= pkts)
		return RCC_EST_ONE;
	return div64_u64(((u64)cnp << RCC_EST_SHIFT) + pkts / 2, pkts);
}

/* a = (1 - w) * a + w * f, with w = weight / 1024. */
static u32 updated_estimate(u32 a, u32 weight, u32 f)
{
	u64 sum = (u64)(RCC_WEIGHT_ONE - weight) * a + (u64)weight * f;

	return (sum + RCC_WEIGHT_ONE / 2) >> RCC_WEIGHT_SHIFT;
}

/* rc * (1 - a/2), rounded down. */
static u64 cut_by_estimate(u64 rc, u32 a)
{
	if (a == 0)
		return rc;
	/* 1 - a/2 = (2^32 - a) / 2^32, and 2^32 - a fits a u32 for a >= 1 */
	return mul_u64_u32_shr(rc, (u32)((1ULL << 32) - a), 32);
}

/*
 * rc moves halfway toward rt, rounded toward rt: up when rising, down when
 * falling.  Rounding toward the target is what lets rc reach R exactly, so
 * that an episode ends even with a margin of 0.
 */
static u64 halfway(u64 from, u64 to)
{
	return to > from ? (from + to + 1) / 2 : (from + to) / 2;
}

static u64 floor_bps(const struct rcc_params *p, u64 line_rate)
{
	return div_u64(line_rate * p->minimum_rate_percent, 100);
}

static u64 margin_bps(const struct rcc_params *p)
{
	return p->line_rate_margin_mbps * RCC_BPS_PER_MBPS;
}

/* The additive step, fixed when an episode starts. */
static u64 additive_step(const struct rcc_params *p, u64 target)
{
	/* 100 * S <= 100,000: a 32-bit divisor */
	return div_u64(target * (100 - p->initial_target_rate_percent),
		       100 * p->number_active_increase_steps);
}

static bool in_fast_recovery(const struct rcc_qp *qp,
			     const struct rcc_params *p)
{
	return qp->recovery < (s32)p->fast_recovery_attempt;
}

/* A CNP at @now_ns; true when it started an episode (run 0 is then due). */
static bool rcc_cnp(struct rcc_qp *qp, const struct rcc_params *p,
		    u64 line_rate_bps, u64 now_ns)
{
	if (qp->congested) {
		if (qp->cnp < RCC_U32_MAX)
			qp->cnp++;
		return false;
	}
	qp->congested = true;
	qp->current_bps = line_rate_bps;
	qp->target_bps = qp->current_bps;
	qp->step_bps = additive_step(p, qp->target_bps);
	qp->estimate = p->initial_congestion_estimate <<
		       (RCC_EST_SHIFT - RCC_WEIGHT_SHIFT);
	qp->recovery = 0;
	qp->cnp_halves = 0;
	qp->cnp = 1;
	qp->pkts = 0;
	qp->run = 0;
	qp->next_run_ns = now_ns;
	return true;
}

/* @npkts packets sent; counted only while congested. */
static void rcc_tx(struct rcc_qp *qp, u64 npkts)
{
	if (!qp->congested)
		return;
	if (qp->pkts > RCC_U64_MAX - npkts)
		qp->pkts = RCC_U64_MAX;
	else
		qp->pkts += npkts;
}

/* Reduction half with at least one CNP in the interval. */
static enum rcc_action reduce_rate(struct rcc_qp *qp,
				   const struct rcc_params *p, u64 floor,
				   bool *floor_hit)
{
	enum rcc_action action;

	if (qp->run == 0 || in_fast_recovery(qp, p)) {
		qp->current_bps = cut_by_estimate(qp->current_bps,
						  qp->estimate);
		qp->recovery = 0;
		action = RCC_ACT_FR_CUT;
	} else {
		if (qp->target_bps >= floor + qp->step_bps)
			qp->target_bps -= qp->step_bps;
		else
			qp->target_bps = floor;
		qp->current_bps = halfway(qp->current_bps, qp->target_bps);
		qp->recovery--;
		action = RCC_ACT_AI_CUT;
	}
	if (qp->current_bps < floor) {
		qp->current_bps = floor;
		*floor_hit = true;
	}
	return action;
}

/* Whether this increase half makes an increase. */
static bool increase_due(struct rcc_qp *qp, const struct rcc_params *p)
{
	if (qp->cnp == 0)
		return true;
	qp->cnp_halves++;
	/* >=, not ==: N may have been lowered during the episode */
	if ((u32)qp->cnp_halves >= p->num_control_loops_per_increase + 1) {
		qp->cnp_halves = 0;
		return true;
	}
	return false;
}

static enum rcc_action increase_rate(struct rcc_qp *qp,
				     const struct rcc_params *p,
				     u64 line_rate)
{
	if (in_fast_recovery(qp, p)) {
		qp->current_bps = halfway(qp->current_bps, qp->target_bps);
		qp->recovery++;
		return RCC_ACT_FR_INC;
	}
	qp->target_bps = min_t(u64, qp->target_bps + qp->step_bps, line_rate);
	qp->current_bps = halfway(qp->current_bps, qp->target_bps);
	return RCC_ACT_AI_INC;
}

static void end_episode(struct rcc_qp *qp, u64 line_rate)
{
	qp->current_bps = line_rate;
	qp->congested = false;
}

bool rcc_run(struct rcc_qp *qp, const struct rcc_params *p,
	     u64 line_rate_bps, struct rcc_report *rep)
{
	bool reduce = !(qp->run & 1);
	enum rcc_action action = RCC_ACT_NONE;
	u64 now = qp->next_run_ns;
	u32 half_interval = p->control_interval_ns / 2;
	u32 cnp = qp->cnp;
	u64 gap;
	u64 pkts = qp->pkts;
	bool floor_hit = false;

	qp->estimate = updated_estimate(qp->estimate,
					p->congestion_probability_weight,
					marked_fraction(cnp, pkts));
	if (reduce) {
		if (cnp)
			action = reduce_rate(qp, p,
					     floor_bps(p, line_rate_bps),
					     &floor_hit);
		qp->cnp = 0;
		qp->pkts = 0;
		/* run j + 1 is due at t0 + floor((j + 1) * T / 2) */
		gap = half_interval;
	} else {
		if (increase_due(qp, p)) {
			action = increase_rate(qp, p, line_rate_bps);
			if (qp->current_bps + margin_bps(p) >= line_rate_bps)
				end_episode(qp, line_rate_bps);
		}
		gap = p->control_interval_ns - half_interval;
	}
	/* past the end of a u64 clock: never due (saturate, no wrap) */
	qp->next_run_ns = now > RCC_U64_MAX - gap ? RCC_U64_MAX : now + gap;
	if (rep) {
		rep->t_ns = now;
		rep->run = qp->run;
		rep->half = reduce ? RCC_HALF_REDUCE : RCC_HALF_INCREASE;
		rep->cnp = cnp;
		rep->pkts = pkts;
		rep->estimate = qp->estimate;
		rep->current_bps = qp->current_bps;
		rep->target_bps = qp->target_bps;
		rep->recovery = qp->recovery;
		rep->action = action;
		rep->floor_hit = floor_hit;
		rep->congested = qp->congested;
	}
	qp->run++;
	if (qp->run == 0)	/* keeps the parity, never run 0 again */
		qp->run = 2;
	return qp->congested;
}

/* One run, told to @fn (if any). */
static void run_and_report(struct rcc_qp *qp, const struct rcc_params *p,
			   u64 line_rate_bps, rcc_run_fn fn, void *ctx)
{
	struct rcc_report rep;

	rcc_run(qp, p, line_rate_bps, &rep);
	if (fn)
		fn(ctx, &rep);
}

/* Every run due before @t_ns, or at it too when @at_too. */
static unsigned int run_due(struct rcc_qp *qp, const struct rcc_params *p,
			    u64 line_rate_bps, u64 t_ns, bool at_too,
			    rcc_run_fn fn, void *ctx)
{
	unsigned int runs = 0;

	while (qp->congested && qp->next_run_ns != RCC_U64_MAX &&
	       (qp->next_run_ns < t_ns || (at_too && qp->next_run_ns == t_ns))) {
		run_and_report(qp, p, line_rate_bps, fn, ctx);
		runs++;
	}
	return runs;
}

unsigned int rcc_advance(struct rcc_qp *qp, const struct rcc_params *p,
			 u64 line_rate_bps, u64 t_ns, rcc_run_fn fn, void *ctx)
{
	return run_due(qp, p, line_rate_bps, t_ns, true, fn, ctx);
}

bool rcc_event(struct rcc_qp *qp, const struct rcc_params *p,
	       u64 line_rate_bps, const struct rcc_event *ev,
	       rcc_run_fn fn, void *ctx)
{
	/* an event at a run's time is applied before that run */
	run_due(qp, p, line_rate_bps, ev->t_ns, false, fn, ctx);
	if (ev->kind == RCC_EV_TX) {
		rcc_tx(qp, ev->npkts);
		return false;
	}
	if (!rcc_cnp(qp, p, line_rate_bps, ev->t_ns))
		return false;
	/* run 0, at once: events that share this time come after it */
	run_and_report(qp, p, line_rate_bps, fn, ctx);
	return true;
}

const char *rcc_action_name(enum rcc_action action)
{
	static const char * const names[RCC_NR_ACTIONS] = {
		[RCC_ACT_NONE] = "none",
		[RCC_ACT_FR_CUT] = "fr_cut",
		[RCC_ACT_AI_CUT] = "ai_cut",
		[RCC_ACT_FR_INC] = "fr_inc",
		[RCC_ACT_AI_INC] = "ai_inc",
	};

	return (unsigned int)action < RCC_NR_ACTIONS ? names[action] : "?";
}

const char *rcc_half_name(enum rcc_half half)
{
	return half == RCC_HALF_REDUCE ? "reduce" : "increase";
}
