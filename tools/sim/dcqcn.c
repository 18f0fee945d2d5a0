// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn.c - DCQCN's reaction point, written from the SIGCOMM 2015 paper's
 * description, with mlx5's parameters and their documented meaning:
 *
 * Cut.  A CNP allocates a rate limiter on first use (rc = line rate, or
 * rate_to_set_on_first_cnp, alpha = initial_alpha_value / 1024).  At most
 * one cut per rate_reduce_monitor_period: a CNP inside the period is kept
 * and cuts when the period ends.  A cut first sets rt = rc -- on every cut
 * with clamp_tgt_rate = 1, as the paper does; with mlx5's default
 * (clamp_tgt_rate = 0, clamp_tgt_rate_after_time_inc = 1) only when the
 * timer has raised the rate since the last cut, so a flow whose rate only
 * the byte counter raised keeps its target -- then
 * rc = rc * (1 - alpha * 1024 / 2^rpg_gd), i.e. 1 - alpha/2 at rpg_gd = 11,
 * never below rc * rpg_min_dec_fac% nor rpg_min_rate, and resets the timer,
 * the byte counter and both stage counts.
 *
 * Alpha.  Every dce_tcp_rtt: alpha = g' * alpha + (1 - g') * [a CNP came in
 * that period], g' = dce_tcp_g / 1024 (the paper's alpha = (1 - g) alpha + g
 * on a CNP and alpha = (1 - g) alpha after a quiet period K, with K the
 * period and g = 1 - g').
 *
 * Increase.  Every rpg_time_reset (the timer) and every rpg_byte_reset
 * bytes sent (the byte counter) the matching stage count goes up by one and
 * the rate rises: fast recovery while both counts are at most F =
 * rpg_threshold (rt unchanged), hyper increase when both exceed F (rt +=
 * i * rpg_hai_rate, i = min count - F), additive increase otherwise (rt +=
 * rpg_ai_rate); then rc = (rt + rc) / 2, rt at most the line rate.  When rc
 * comes within 1 Mbit/s of line rate the limiter is released.
 */
#include <string.h>

#include "dcqcn.h"

#define PS_PER_US	1000000ULL
#define BPS_PER_MBPS	1e6
#define NEVER		(~0ULL)

const struct dcqcn_param_desc dcqcn_param_descs[DCQCN_NR_PARAMS] = {
	[DCQCN_TIME_RESET] = { "rpg_time_reset", "us", 1, 100000, 300 },
	[DCQCN_BYTE_RESET] = { "rpg_byte_reset", "bytes", 0, 1u << 30, 32767 },
	[DCQCN_THRESHOLD] = { "rpg_threshold", "count", 1, 31, 1 },
	[DCQCN_AI_RATE] = { "rpg_ai_rate", "Mbit/s", 1, 1000000, 5 },
	[DCQCN_HAI_RATE] = { "rpg_hai_rate", "Mbit/s", 1, 1000000, 50 },
	[DCQCN_GD] = { "rpg_gd", "log2", 0, 15, 11 },
	[DCQCN_MIN_DEC_FAC] = { "rpg_min_dec_fac", "percent", 1, 100, 50 },
	[DCQCN_MIN_RATE] = { "rpg_min_rate", "Mbit/s", 1, 10000000, 1 },
	[DCQCN_RATE_ON_FIRST_CNP] = { "rate_to_set_on_first_cnp", "Mbit/s",
				      0, 10000000, 0 },
	[DCQCN_TCP_G] = { "dce_tcp_g", "1/1024", 0, 1023, 1019 },
	[DCQCN_TCP_RTT] = { "dce_tcp_rtt", "us", 1, 100000, 1 },
	[DCQCN_MONITOR_PERIOD] = { "rate_reduce_monitor_period", "us",
				   0, 100000, 4 },
	[DCQCN_INITIAL_ALPHA] = { "initial_alpha_value", "1/1024", 0, 1023,
				  1023 },
	[DCQCN_CLAMP_TGT] = { "clamp_tgt_rate", "bool", 0, 1, 0 },
	[DCQCN_CLAMP_TGT_AFTER_TIME_INC] = { "clamp_tgt_rate_after_time_inc",
					     "bool", 0, 1, 1 },
};

void dcqcn_params_default(struct dcqcn_params *p)
{
	int i;

	for (i = 0; i < DCQCN_NR_PARAMS; i++)
		p->v[i] = dcqcn_param_descs[i].def;
}

int dcqcn_param_lookup(const char *name)
{
	int i;

	for (i = 0; i < DCQCN_NR_PARAMS; i++)
		if (!strcmp(name, dcqcn_param_descs[i].name))
			return i;
	return -1;
}

void dcqcn_init(struct dcqcn_qp *q, double line_bps)
{
	memset(q, 0, sizeof(*q));
	q->rc = line_bps;
	q->rt = line_bps;
	q->next_alpha_ps = NEVER;
	q->next_timer_ps = NEVER;
	q->next_cut_ps = NEVER;
}

static u64 us_ps(u32 us)
{
	return (u64)us * PS_PER_US;
}

static void cut(struct dcqcn_qp *q, const struct dcqcn_params *p,
		u64 now_ps)
{
	double factor = 1.0 - q->alpha * 1024.0 / (double)(1u << p->v[DCQCN_GD]);
	double min_factor = p->v[DCQCN_MIN_DEC_FAC] / 100.0;
	double min_rate = p->v[DCQCN_MIN_RATE] * BPS_PER_MBPS;

	if (p->v[DCQCN_CLAMP_TGT] || q->time_inc ||
	    (p->v[DCQCN_CLAMP_TGT_AFTER_TIME_INC] && q->t_stage))
		q->rt = q->rc;
	if (factor < min_factor)
		factor = min_factor;
	q->rc *= factor;
	if (q->rc < min_rate)
		q->rc = min_rate;
	if (q->rt < q->rc)
		q->rt = q->rc;
	q->t_stage = 0;
	q->b_stage = 0;
	q->bytes = 0;
	q->cut_pending = false;
	q->time_inc = false;
	q->last_cut_ps = now_ps;
	q->next_cut_ps = NEVER;
	q->next_timer_ps = now_ps + us_ps(p->v[DCQCN_TIME_RESET]);
}

void dcqcn_cnp(struct dcqcn_qp *q, const struct dcqcn_params *p,
	       double line_bps, u64 now_ps)
{
	u64 period = us_ps(p->v[DCQCN_MONITOR_PERIOD]);

	if (!q->limited) {
		q->limited = true;
		if (p->v[DCQCN_RATE_ON_FIRST_CNP] &&
		    p->v[DCQCN_RATE_ON_FIRST_CNP] * BPS_PER_MBPS < line_bps)
			q->rc = p->v[DCQCN_RATE_ON_FIRST_CNP] * BPS_PER_MBPS;
		else
			q->rc = line_bps;
		q->rt = q->rc;
		q->alpha = p->v[DCQCN_INITIAL_ALPHA] / 1024.0;
		q->next_alpha_ps = now_ps + us_ps(p->v[DCQCN_TCP_RTT]);
		q->cnp_in_period = true;
		q->time_inc = true;	/* a new limiter starts from rt = rc */
		cut(q, p, now_ps);
		return;
	}
	q->cnp_in_period = true;
	if (q->cut_pending)
		return;
	if (now_ps >= q->last_cut_ps + period) {
		cut(q, p, now_ps);
	} else {
		q->cut_pending = true;
		q->next_cut_ps = q->last_cut_ps + period;
	}
}

static void release_if_done(struct dcqcn_qp *q, double line_bps)
{
	if (line_bps - q->rc <= BPS_PER_MBPS && !q->cut_pending) {
		q->limited = false;
		q->rc = line_bps;
		q->rt = line_bps;
		q->next_alpha_ps = NEVER;
		q->next_timer_ps = NEVER;
		q->next_cut_ps = NEVER;
	}
}

static void increase(struct dcqcn_qp *q, const struct dcqcn_params *p,
		     double line_bps)
{
	u32 f = p->v[DCQCN_THRESHOLD];
	u32 lo = q->t_stage < q->b_stage ? q->t_stage : q->b_stage;
	u32 hi = q->t_stage < q->b_stage ? q->b_stage : q->t_stage;

	if (hi <= f)
		;	/* fast recovery: rt stays */
	else if (lo > f)
		q->rt += (double)(lo - f) * p->v[DCQCN_HAI_RATE] * BPS_PER_MBPS;
	else
		q->rt += p->v[DCQCN_AI_RATE] * BPS_PER_MBPS;
	if (q->rt > line_bps)
		q->rt = line_bps;
	q->rc = (q->rt + q->rc) / 2;
	release_if_done(q, line_bps);
}

void dcqcn_sent(struct dcqcn_qp *q, const struct dcqcn_params *p,
		double line_bps, u32 bytes)
{
	u32 reset = p->v[DCQCN_BYTE_RESET];

	if (!q->limited || !reset)
		return;
	q->bytes += bytes;
	while (q->limited && q->bytes >= reset) {
		q->bytes -= reset;
		q->b_stage++;
		increase(q, p, line_bps);
	}
}

void dcqcn_timer(struct dcqcn_qp *q, const struct dcqcn_params *p,
		 double line_bps, u64 now_ps)
{
	while (q->limited) {
		u64 next = dcqcn_next_timer_ps(q);

		if (next > now_ps)
			break;
		if (next == q->next_cut_ps) {
			cut(q, p, next);
		} else if (next == q->next_alpha_ps) {
			double g = p->v[DCQCN_TCP_G] / 1024.0;

			q->alpha = g * q->alpha + (q->cnp_in_period ? 1 - g : 0);
			q->cnp_in_period = false;
			q->next_alpha_ps += us_ps(p->v[DCQCN_TCP_RTT]);
		} else {
			q->t_stage++;
			q->next_timer_ps += us_ps(p->v[DCQCN_TIME_RESET]);
			increase(q, p, line_bps);
		}
	}
}

u64 dcqcn_next_timer_ps(const struct dcqcn_qp *q)
{
	u64 t = q->next_alpha_ps;

	if (q->next_timer_ps < t)
		t = q->next_timer_ps;
	if (q->next_cut_ps < t)
		t = q->next_cut_ps;
	return q->limited ? t : NEVER;
}
