// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn.c - DCQCN's reaction point: one machine, three presets.
 *
 * The machine is the "Mellanox's version of DCQCN" of the HPCC paper's ns-3
 * code (simulation/src/point-to-point/model/rdma-hw.cc in
 * alibaba-edu/High-Precision-Congestion-Control: cnp_received_mlx,
 * UpdateAlphaMlx, CheckRateDecreaseMlx, RateIncEventTimerMlx and the three
 * increase functions), with its arithmetic: rates are whole bit/s (ns-3's
 * DataRate is a uint64), a rate times a double is truncated, rc/2 + rt/2 is
 * two truncated halves.  mlx5's knobs that this code lacks (the byte
 * counter, rpg_gd, rpg_min_dec_fac, rate_to_set_on_first_cnp,
 * initial_alpha_value, clamp_tgt_rate_after_time_inc = 0, the release of
 * the limiter at line rate) are added so that each is a no-op at the hpcc
 * and paper presets' values.
 *
 * First CNP (time t): alpha = initial_alpha_value; the alpha update runs at
 * t + k dce_tcp_rtt, the decrease check at t + 1 ns + k
 * rate_reduce_monitor_period (k = 1, 2, ...); rc = rt =
 * rate_to_set_on_first_cnp if set.  That CNP counts for the first decrease
 * check, not for the first alpha update.  Every CNP sets both "CNP arrived"
 * flags.
 *
 * Alpha update: alpha = g' alpha + (1 - g') [flag], g' = dce_tcp_g / 1024;
 * clear the flag.
 *
 * Decrease check, if its flag is set: rt = rc when clamp_tgt_rate, or when
 * clamp_tgt_rate_after_time_inc and the timer raised the rate since the last
 * cut; rc = max(rpg_min_rate, rc (1 - alpha 1024 / 2^rpg_gd)), the factor
 * at least rpg_min_dec_fac %; clear the flag; both stages and the byte
 * count to 0; restart the increase timer at now + rpg_time_reset.
 *
 * Increase (timer, or every rpg_byte_reset x 64 bytes sent since a cut):
 * with T, B the timer's and byte counter's events since the cut (B = T
 * without a byte counter) and F = rpg_threshold: fast recovery while
 * max(T, B) < F (rc = rc/2 + rt/2), hyper increase when min(T, B) > F (rt
 * = min(rt + rpg_hai_rate, R), then rc = rc/2 + rt/2), active increase
 * otherwise (the same with rpg_ai_rate); then the counter's stage += 1.
 *
 * Timers due at the same time run in the order they were armed, as ns-3
 * runs same-time events.
 *
 * The file uses no kernel service and no C library but for strcmp, memset
 * and snprintf, so it compiles into rdma_cc_dcqcn.ko and the tools alike;
 * the arithmetic of alpha and of a cut is the only part that differs
 * (doubles in user space, fixed point in the kernel: dcqcn.h).
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/math64.h>
#else
#include <stdio.h>
#endif

#include "dcqcn.h"

#define NS_PER_US	1000ULL
#define BPS_PER_MBPS	1000000ULL
#define BYTE_UNIT	64	/* rpg_byte_reset's unit, bytes (assumed) */
#define RATE_MAX	10000000	/* Mbit/s: 10 Tbit/s */
#define US_MAX		131071		/* dce_tcp_rtt's documented maximum */

const char * const dcqcn_preset_names[DCQCN_NR_PRESETS] = {
	[DCQCN_PRESET_MLX5] = "mlx5",
	[DCQCN_PRESET_PAPER] = "paper",
	[DCQCN_PRESET_HPCC] = "hpcc",
};

const struct dcqcn_param_desc dcqcn_param_descs[DCQCN_NR_PARAMS] = {
	[DCQCN_TIME_RESET] = { "rpg_time_reset", "us", 1, US_MAX },
	[DCQCN_BYTE_RESET] = { "rpg_byte_reset", "64 bytes, 0: off", 0, 32767 },
	[DCQCN_THRESHOLD] = { "rpg_threshold", "increase events", 0, 31 },
	[DCQCN_AI_RATE] = { "rpg_ai_rate", "Mbit/s, 0: 5 x R / 25 Gbit/s",
			    0, RATE_MAX },
	[DCQCN_HAI_RATE] = { "rpg_hai_rate", "Mbit/s, 0: 50 x R / 25 Gbit/s",
			     0, RATE_MAX },
	[DCQCN_GD] = { "rpg_gd", "log2 of 1024 / (alpha's share cut)", 0, 15 },
	[DCQCN_MIN_DEC_FAC] = { "rpg_min_dec_fac", "% of rc kept at least",
				0, 100 },
	[DCQCN_MIN_RATE] = { "rpg_min_rate", "Mbit/s", 1, RATE_MAX },
	[DCQCN_RATE_ON_FIRST_CNP] = { "rate_to_set_on_first_cnp",
				      "Mbit/s, 0: unchanged", 0, RATE_MAX },
	[DCQCN_TCP_G] = { "dce_tcp_g", "1/1024", 0, 1023 },
	[DCQCN_TCP_RTT] = { "dce_tcp_rtt", "us", 1, US_MAX },
	[DCQCN_MONITOR_PERIOD] = { "rate_reduce_monitor_period", "us",
				   1, US_MAX },
	[DCQCN_INITIAL_ALPHA] = { "initial_alpha_value", "1/1024", 0, 1024 },
	[DCQCN_CLAMP_TGT] = { "clamp_tgt_rate", "0 or 1", 0, 1 },
	[DCQCN_CLAMP_TGT_AFTER_TIME_INC] = { "clamp_tgt_rate_after_time_inc",
					     "0 or 1", 0, 1 },
};

/* Each preset's knobs; sources in Documentation/sim/dcqcn.rst. */
static const u32 preset_values[DCQCN_NR_PRESETS][DCQCN_NR_PARAMS] = {
	[DCQCN_PRESET_MLX5] = {
		[DCQCN_TIME_RESET] = 300,
		[DCQCN_BYTE_RESET] = 32767,
		[DCQCN_THRESHOLD] = 1,
		[DCQCN_AI_RATE] = 5,
		[DCQCN_HAI_RATE] = 50,
		[DCQCN_GD] = 11,
		[DCQCN_MIN_DEC_FAC] = 50,
		[DCQCN_MIN_RATE] = 1,
		[DCQCN_RATE_ON_FIRST_CNP] = 0,
		[DCQCN_TCP_G] = 1019,
		[DCQCN_TCP_RTT] = 1,
		[DCQCN_MONITOR_PERIOD] = 4,
		[DCQCN_INITIAL_ALPHA] = 1023,
		[DCQCN_CLAMP_TGT] = 0,
		[DCQCN_CLAMP_TGT_AFTER_TIME_INC] = 1,
	},
	/* run.py "dcqcn": t_alpha 1, t_dec 4, t_inc 300, g 1/256 */
	[DCQCN_PRESET_HPCC] = {
		[DCQCN_TIME_RESET] = 300,
		[DCQCN_BYTE_RESET] = 0,
		[DCQCN_THRESHOLD] = 1,
		[DCQCN_AI_RATE] = 0,
		[DCQCN_HAI_RATE] = 0,
		[DCQCN_GD] = 11,
		[DCQCN_MIN_DEC_FAC] = 50,
		[DCQCN_MIN_RATE] = 1000,
		[DCQCN_RATE_ON_FIRST_CNP] = 0,
		[DCQCN_TCP_G] = 1020,
		[DCQCN_TCP_RTT] = 1,
		[DCQCN_MONITOR_PERIOD] = 4,
		[DCQCN_INITIAL_ALPHA] = 1024,
		[DCQCN_CLAMP_TGT] = 0,
		[DCQCN_CLAMP_TGT_AFTER_TIME_INC] = 1,
	},
	/* run.py "dcqcn_paper": t_alpha 50, t_dec 50, t_inc 55 */
	[DCQCN_PRESET_PAPER] = {
		[DCQCN_TIME_RESET] = 55,
		[DCQCN_BYTE_RESET] = 0,
		[DCQCN_THRESHOLD] = 1,
		[DCQCN_AI_RATE] = 0,
		[DCQCN_HAI_RATE] = 0,
		[DCQCN_GD] = 11,
		[DCQCN_MIN_DEC_FAC] = 50,
		[DCQCN_MIN_RATE] = 1000,
		[DCQCN_RATE_ON_FIRST_CNP] = 0,
		[DCQCN_TCP_G] = 1020,
		[DCQCN_TCP_RTT] = 50,
		[DCQCN_MONITOR_PERIOD] = 50,
		[DCQCN_INITIAL_ALPHA] = 1024,
		[DCQCN_CLAMP_TGT] = 0,
		[DCQCN_CLAMP_TGT_AFTER_TIME_INC] = 1,
	},
};

u32 dcqcn_preset_value(enum dcqcn_preset k, enum dcqcn_param id)
{
	return preset_values[k][id];
}

static void set_preset(struct dcqcn_params *p, enum dcqcn_preset k)
{
	int i;

	p->preset = k;
	for (i = 0; i < DCQCN_NR_PARAMS; i++)
		if (!(p->overridden & (1u << i)))
			p->v[i] = preset_values[k][i];
}

void dcqcn_params_default(struct dcqcn_params *p)
{
	memset(p, 0, sizeof(*p));
	p->slowdown = 1;
	set_preset(p, DCQCN_PRESET_MLX5);
}

int dcqcn_param_lookup(const char *name)
{
	int i;

	for (i = 0; i < DCQCN_NR_PARAMS; i++)
		if (!strcmp(name, dcqcn_param_descs[i].name))
			return i;
	return -1;
}

/* A plain decimal number of at most @max, nothing around it. */
int dcqcn_parse_u32(const char *s, u32 max, u32 *out)
{
	u64 v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (u64)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = (u32)v;
	return 0;
}

int dcqcn_param_parse(struct dcqcn_params *p, const char *name,
		      const char *value, char *err, size_t errlen)
{
	const struct dcqcn_param_desc *d;
	int id, k;
	u32 v;

	if (!strcmp(name, "preset")) {
		for (k = 0; k < DCQCN_NR_PRESETS; k++) {
			if (!strcmp(value, dcqcn_preset_names[k])) {
				set_preset(p, k);
				return 0;
			}
		}
		snprintf(err, errlen, "unknown preset (valid: mlx5, paper, hpcc)");
		return -EINVAL;
	}
	id = dcqcn_param_lookup(name);
	if (id < 0)
		return -ENOENT;
	d = &dcqcn_param_descs[id];
	if (dcqcn_parse_u32(value, d->max, &v) || v < d->min) {
		snprintf(err, errlen, "expected a whole number %u .. %u (%s)",
			 d->min, d->max, d->unit);
		return -EINVAL;
	}
	p->v[id] = v;
	p->overridden |= 1u << id;
	return 0;
}

/*
 * The arithmetic of alpha and of a cut, the one part that is not the same
 * code in the kernel and in user space (dcqcn.h).  The double versions are
 * the expressions of the ns-3 code, operation for operation.
 */
#if DCQCN_FIXED_POINT

/* @n / 1024, exact (n <= 1024) */
static dcqcn_frac frac_1024(u32 n)
{
	return (u64)n << (DCQCN_FRAC_SHIFT - 10);
}

/*
 * @n / 100 rounded up (n <= 100): a cut keeps at least n % of the rate, and
 * n % of a whole number of bit/s stays whole (truncating 0.85 would make
 * 0.85 x 400 Gbit/s one bit/s short)
 */
static dcqcn_frac frac_percent(u32 n)
{
	return DCQCN_FRAC_ONE / 100 * n + (DCQCN_FRAC_ONE % 100 * n + 99) / 100;
}

/* g' alpha + (1 - g') [a CNP came]: the product truncated */
static dcqcn_frac alpha_update(const struct dcqcn_cfg *c, dcqcn_frac alpha,
			       bool cnp)
{
	return mul_u64_u32_shr(alpha, c->g, 10) + (cnp ? c->g_add : 0);
}

/*
 * @n updates that saw no CNP: alpha g'^n, g'^n by squaring (each product
 * truncated, so within n units of 2^-62 of @n single updates)
 */
static dcqcn_frac alpha_decay(const struct dcqcn_cfg *c, dcqcn_frac alpha,
			      u64 n)
{
	dcqcn_frac g = frac_1024(c->g);

	for (; n && alpha; n >>= 1) {
		if (n & 1)
			alpha = mul_u64_u64_shr(alpha, g, DCQCN_FRAC_SHIFT);
		g = mul_u64_u64_shr(g, g, DCQCN_FRAC_SHIFT);
	}
	return alpha;
}

/* max(1 - alpha 1024 / 2^gd, min_factor) */
static dcqcn_frac cut_factor(const struct dcqcn_cfg *c, dcqcn_frac alpha)
{
	dcqcn_frac share, f;

	if (c->gd >= 10)
		share = alpha >> (c->gd - 10);
	else if (alpha > DCQCN_FRAC_ONE >> (10 - c->gd))
		share = DCQCN_FRAC_ONE;
	else
		share = alpha << (10 - c->gd);
	f = share >= DCQCN_FRAC_ONE ? 0 : DCQCN_FRAC_ONE - share;
	return f < c->min_factor ? c->min_factor : f;
}

/* rc x factor, truncated to a whole bit/s */
static u64 scale_rate(u64 rc, dcqcn_frac factor)
{
	return mul_u64_u64_shr(rc, factor, DCQCN_FRAC_SHIFT);
}

u64 dcqcn_frac_micro(dcqcn_frac x)
{
	return mul_u64_u32_shr(x, 1000000, DCQCN_FRAC_SHIFT);
}

#else /* doubles, as ns-3 */

static dcqcn_frac frac_1024(u32 n)
{
	return n / 1024.0;
}

static dcqcn_frac frac_percent(u32 n)
{
	return n / 100.0;
}

static dcqcn_frac alpha_update(const struct dcqcn_cfg *c, dcqcn_frac alpha,
			       bool cnp)
{
	return cnp ? c->g_keep * alpha + c->g_add : c->g_keep * alpha;
}

/* @n updates that saw no CNP, one product each as ns-3 makes them */
static dcqcn_frac alpha_decay(const struct dcqcn_cfg *c, dcqcn_frac alpha,
			      u64 n)
{
	for (; n && alpha != 0; n--)
		alpha = alpha_update(c, alpha, false);
	return alpha;
}

static dcqcn_frac cut_factor(const struct dcqcn_cfg *c, dcqcn_frac alpha)
{
	double factor = 1 - alpha * 1024 / (double)(1u << c->gd);

	return factor < c->min_factor ? c->min_factor : factor;
}

static u64 scale_rate(u64 rc, dcqcn_frac factor)
{
	return (u64)((double)rc * factor);
}

u64 dcqcn_frac_micro(dcqcn_frac x)
{
	return (u64)(x * 1000000);
}

#endif /* DCQCN_FIXED_POINT */

/* @mbps Mbit/s on a fabric @n times slower, in bit/s (at least 1 if set) */
static u64 mbps_slowed(u32 mbps, u32 n)
{
	u64 bps = div_u64(mbps * BPS_PER_MBPS, n);

	return mbps && !bps ? 1 : bps;
}

void dcqcn_resolve(struct dcqcn_params *p, u64 line_bps)
{
	struct dcqcn_cfg *c = &p->cfg;
	const u32 *v = p->v;
	/* slowed down: periods x n, bit/s / n (dcqcn_params) */
	u32 n = p->slowdown ? p->slowdown : 1;
	u64 us = NS_PER_US * n;
	u64 first = mbps_slowed(v[DCQCN_RATE_ON_FIRST_CNP], n);

	if (line_bps) {
		line_bps = div_u64(line_bps, n);
		if (!line_bps)
			line_bps = 1;
	}
	memset(c, 0, sizeof(*c));
	c->line_bps = line_bps;
	c->alpha_ns = v[DCQCN_TCP_RTT] * us;
	c->dec_ns = v[DCQCN_MONITOR_PERIOD] * us;
	c->inc_ns = v[DCQCN_TIME_RESET] * us;
	c->byte_reset = (u64)v[DCQCN_BYTE_RESET] * BYTE_UNIT;
	c->threshold = v[DCQCN_THRESHOLD];
	/* run.py: ai = 5 * bw / 25, hai = 50 * bw / 25 Mbit/s, bw in Gbit/s */
	c->ai_bps = v[DCQCN_AI_RATE] ? mbps_slowed(v[DCQCN_AI_RATE], n) :
		    line_bps / 5000;
	c->hai_bps = v[DCQCN_HAI_RATE] ? mbps_slowed(v[DCQCN_HAI_RATE], n) :
		     line_bps / 500;
	c->min_bps = mbps_slowed(v[DCQCN_MIN_RATE], n);
	c->first_bps = first > line_bps ? line_bps : first;
	c->g = v[DCQCN_TCP_G];
	c->g_keep = frac_1024(v[DCQCN_TCP_G]);
	c->g_add = frac_1024(1024 - v[DCQCN_TCP_G]);
	c->alpha0 = frac_1024(v[DCQCN_INITIAL_ALPHA]);
	c->gd = v[DCQCN_GD];
	c->min_factor = frac_percent(v[DCQCN_MIN_DEC_FAC]);
	c->clamp = v[DCQCN_CLAMP_TGT];
	c->clamp_after_time_inc = v[DCQCN_CLAMP_TGT_AFTER_TIME_INC];
	c->release = p->preset == DCQCN_PRESET_MLX5;
}

const char *dcqcn_event_name(enum dcqcn_event_kind kind)
{
	static const char * const names[] = {
		[DCQCN_EV_FIRST_CNP] = "first_cnp",
		[DCQCN_EV_CUT] = "cut",
		[DCQCN_EV_FAST_RECOVERY] = "fast_recovery",
		[DCQCN_EV_ACTIVE_INCREASE] = "active_increase",
		[DCQCN_EV_HYPER_INCREASE] = "hyper_increase",
	};

	return names[kind];
}

void dcqcn_init(struct dcqcn_qp *q, const struct dcqcn_cfg *c)
{
	int i;

	memset(q, 0, sizeof(*q));
	q->rc = c->line_bps;
	q->rt = c->line_bps;
	for (i = 0; i < DCQCN_NR_TIMERS; i++)
		q->due[i] = DCQCN_NEVER;
}

static void report(const struct dcqcn_qp *q, const struct dcqcn_sink *sink,
		   u64 now, enum dcqcn_event_kind kind)
{
	struct dcqcn_event ev = {
		.t_ns = now, .kind = kind, .rc = q->rc, .rt = q->rt,
		.alpha = q->alpha,
	};

	if (sink)
		sink->event(sink->ctx, &ev);
}

static void arm(struct dcqcn_qp *q, int timer, u64 now, u64 delay)
{
	q->due[timer] = now > DCQCN_NEVER - 1 - delay ? DCQCN_NEVER :
			now + delay;
	q->armed[timer] = q->arms++;
}

void dcqcn_cnp(struct dcqcn_qp *q, const struct dcqcn_cfg *c, u64 now_ns,
	       const struct dcqcn_sink *sink)
{
	q->alpha_cnp = true;
	q->dec_cnp = true;
	if (q->limited)
		return;
	q->limited = true;
	q->alpha = c->alpha0;
	q->alpha_cnp = false;
	arm(q, DCQCN_T_ALPHA, now_ns, c->alpha_ns);
	/* 1 ns: the decrease check comes after the alpha update */
	arm(q, DCQCN_T_DEC, now_ns, c->dec_ns + 1);
	if (c->first_bps) {
		q->rc = c->first_bps;
		q->rt = c->first_bps;
	}
	report(q, sink, now_ns, DCQCN_EV_FIRST_CNP);
}

/* rc/2 + rt/2 as ns-3 computes it: two DataRates of truncated halves. */
static u64 halfway(u64 rc, u64 rt)
{
	return rc / 2 + rt / 2;
}

/* A timer or byte-counter event; @stage is the counter that fired. */
static void increase(struct dcqcn_qp *q, const struct dcqcn_cfg *c,
		     u32 *stage, u64 now, const struct dcqcn_sink *sink)
{
	u32 t = q->t_stage, b = c->byte_reset ? q->b_stage : q->t_stage;
	u32 lo = t < b ? t : b, hi = t < b ? b : t;
	enum dcqcn_event_kind kind;

	if (hi < c->threshold) {
		kind = DCQCN_EV_FAST_RECOVERY;
	} else if (lo > c->threshold) {
		kind = DCQCN_EV_HYPER_INCREASE;
		q->rt += c->hai_bps;
	} else {
		kind = DCQCN_EV_ACTIVE_INCREASE;
		q->rt += c->ai_bps;
	}
	if (kind != DCQCN_EV_FAST_RECOVERY && q->rt > c->line_bps)
		q->rt = c->line_bps;
	q->rc = halfway(q->rc, q->rt);
	(*stage)++;
	report(q, sink, now, kind);
	/* mlx5: back within 1 Mbit/s of R, the rate limiter is released */
	if (c->release && q->rt >= c->line_bps &&
	    q->rc + BPS_PER_MBPS > c->line_bps)
		dcqcn_init(q, c);
}

static void cut(struct dcqcn_qp *q, const struct dcqcn_cfg *c, u64 now,
		const struct dcqcn_sink *sink)
{
	u64 rc;

	if (c->clamp || (c->clamp_after_time_inc && q->t_stage))
		q->rt = q->rc;
	rc = scale_rate(q->rc, cut_factor(c, q->alpha));
	q->rc = rc > c->min_bps ? rc : c->min_bps;
	q->t_stage = 0;
	q->b_stage = 0;
	q->bytes = 0;
	q->dec_cnp = false;
	q->increasing = true;
	arm(q, DCQCN_T_INC, now, c->inc_ns);
	report(q, sink, now, DCQCN_EV_CUT);
}

void dcqcn_tx(struct dcqcn_qp *q, const struct dcqcn_cfg *c, u64 bytes,
	      u64 now_ns, const struct dcqcn_sink *sink)
{
	if (!q->increasing || !c->byte_reset)
		return;
	q->bytes += bytes;
	while (q->increasing && q->bytes >= c->byte_reset) {
		q->bytes -= c->byte_reset;
		increase(q, c, &q->b_stage, now_ns, sink);
	}
}

u64 dcqcn_next_ns(const struct dcqcn_qp *q)
{
	u64 t = DCQCN_NEVER;
	int i;

	for (i = 0; i < DCQCN_NR_TIMERS; i++)
		if (q->due[i] < t)
			t = q->due[i];
	return t;
}

u64 dcqcn_next_change_ns(const struct dcqcn_qp *q)
{
	u64 t = q->due[DCQCN_T_INC];

	if (q->dec_cnp && q->due[DCQCN_T_DEC] < t)
		t = q->due[DCQCN_T_DEC];
	return t;
}

/* The timer due first: earliest time, then earliest armed. */
static int next_timer(const struct dcqcn_qp *q)
{
	int i, best = -1;

	for (i = 0; i < DCQCN_NR_TIMERS; i++) {
		if (q->due[i] == DCQCN_NEVER)
			continue;
		if (best < 0 || q->due[i] < q->due[best] ||
		    (q->due[i] == q->due[best] &&
		     q->armed[i] < q->armed[best]))
			best = i;
	}
	return best;
}

/*
 * How many of @timer's times (its due time, then every @period) come
 * before @limit; *@last is the latest of them.
 */
static u64 times_before(const struct dcqcn_qp *q, int timer, u64 period,
			u64 limit, u64 *last)
{
	u64 n;

	if (q->due[timer] >= limit)
		return 0;
	n = (limit - 1 - q->due[timer]) / period + 1;
	*last = q->due[timer] + (n - 1) * period;
	return n;
}

/*
 * The timers before @limit that change neither rate, in one step: alpha
 * updates with no CNP since the last one (each a decay) and decrease
 * checks that find no CNP (each only re-arms itself).  @limit is the
 * increase timer, a decrease check that will cut, or the end of the run.
 * Step by step, a QP limited for long makes one step per alpha period of
 * the time a catch-up covers: in the kernel that is a timer callback's or
 * a CNP's work, with interrupts off, growing with the time since the last
 * one (on a slow CPU, faster than time passes).  Each skipped timer is
 * re-armed as its last step would have re-armed it, in the order those
 * last steps came, so ties later go as they would have.
 */
static void skip_quiet(struct dcqcn_qp *q, const struct dcqcn_cfg *c,
		       u64 limit)
{
	u64 last_a = 0, last_d = 0, n_a = 0, n_d = 0;

	if (q->dec_cnp && q->due[DCQCN_T_DEC] < limit)
		limit = q->due[DCQCN_T_DEC];
	if (q->due[DCQCN_T_INC] < limit)
		limit = q->due[DCQCN_T_INC];
	if (!q->alpha_cnp)
		n_a = times_before(q, DCQCN_T_ALPHA, c->alpha_ns, limit,
				   &last_a);
	if (!q->dec_cnp)
		n_d = times_before(q, DCQCN_T_DEC, c->dec_ns, limit, &last_d);
	if (n_d && (!n_a || last_d < last_a))
		arm(q, DCQCN_T_DEC, last_d, c->dec_ns);
	if (n_a) {
		q->alpha = alpha_decay(c, q->alpha, n_a);
		arm(q, DCQCN_T_ALPHA, last_a, c->alpha_ns);
	}
	if (n_d && n_a && last_d >= last_a)
		arm(q, DCQCN_T_DEC, last_d, c->dec_ns);
}

void dcqcn_run(struct dcqcn_qp *q, const struct dcqcn_cfg *c, u64 t_ns,
	       bool inclusive, const struct dcqcn_sink *sink)
{
	/* the timers due before @end run */
	u64 end = inclusive && t_ns < DCQCN_NEVER ? t_ns + 1 : t_ns;

	for (;;) {
		int i;
		u64 now;

		skip_quiet(q, c, end);
		i = next_timer(q);

		if (i < 0 || q->due[i] >= end)
			return;
		now = q->due[i];
		switch (i) {
		case DCQCN_T_ALPHA:
			q->alpha = alpha_update(c, q->alpha, q->alpha_cnp);
			q->alpha_cnp = false;
			arm(q, DCQCN_T_ALPHA, now, c->alpha_ns);
			break;
		case DCQCN_T_DEC:
			arm(q, DCQCN_T_DEC, now, c->dec_ns);
			if (q->dec_cnp)
				cut(q, c, now, sink);
			break;
		default:
			arm(q, DCQCN_T_INC, now, c->inc_ns);
			increase(q, c, &q->t_stage, now, sink);
			break;
		}
	}
}
