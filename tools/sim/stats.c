// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - measurements of one run.
 *
 * Queue: time-weighted histogram of the watched egress port's data queue
 * (bytes waiting, not counting the packet on the wire; the port is the
 * switch downlink toward --watch, by default the host most flows go to),
 * over the time with demand (a flow has bytes to send, or that queue or
 * port is busy).  Utilisation: the time that port spent sending data over
 * that same time.  Jain's index: over the
 * long flows active through the fairness window, from bytes delivered in
 * it.  Convergence: after the last change in the set of long flows (a join,
 * or the start), the time until every long flow's share of the bytes
 * delivered over the trailing conv_window is within conv_tol_pct of 1 / n
 * (of its fair share) and stays so to the end of the run; reported as the
 * start of the first such window, from the change.  FCT slowdown: a
 * finite flow's completion time (its start to its last byte's arrival)
 * over the time it would take alone on the empty fabric
 * (topo_ideal_fct_ps()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "stats.h"

struct stats {
	u64 bin_bytes;
	u32 nbins;
	u64 *hist;		/* ps spent at each queue length bin */
	u64 q_max;
	u64 last_ps;	/* time of the last account */
	u64 demand_ps;
	u64 busy_ps;
	/* convergence */
	u32 win;		/* samples per window */
	u32 ring_pos;
	u64 *ring;		/* nflows x win bytes per sample */
	u64 *win_bytes;		/* per flow, over the trailing window */
	u64 epoch_ps;	/* start of the current epoch */
	u32 epoch_n;	/* long flows in it */
	u64 last_bad_ps;	/* end of the last bad window in the epoch */
	u32 epoch_samples;
	u64 fair_from, fair_to;
	u64 last_sample_ps;
	u64 last_marks, last_drops, last_cnps, last_pauses;	/* last sample */
	u32 *longs;		/* the long flows */
	u32 nlong;
	u32 ncsv;		/* flows with columns in the time series */
};

#define CSV_FLOWS	16

static inline u64 watch_q(const struct sim *s)
{
	return s->ports[s->topo->watch_port].q_bytes[PRIO_DATA];
}

static bool demand(const struct sim *s)
{
	const struct port *w = &s->ports[s->topo->watch_port];

	return s->nactive || w->q_bytes[PRIO_DATA] || w->busy_until > s->now;
}

int stats_init(struct sim *s)
{
	const struct sim_config *c = s->cfg;
	struct stats *st = calloc(1, sizeof(*st));
	u64 last_long_start = 0;
	unsigned int i;

	if (!st)
		return -1;
	s->stats = st;
	{
		u64 buf = s->nodes[s->ports[s->topo->watch_port].node].buffer;

		st->bin_bytes = buf / 65536;
		if (st->bin_bytes < 64)
			st->bin_bytes = 64;
		st->nbins = buf / st->bin_bytes + 2;
	}
	st->hist = calloc(st->nbins, sizeof(*st->hist));
	st->win = c->conv_window_ps / c->sample_ps;
	if (st->win < 1)
		st->win = 1;
	st->longs = malloc(sizeof(*st->longs) * (c->nflows + 1));
	if (!st->hist || !st->longs)
		return -1;
	for (i = 0; i < c->nflows; i++)
		if (!c->flows[i].bytes)
			st->longs[st->nlong++] = i;
	st->ncsv = c->nflows < CSV_FLOWS ? c->nflows : CSV_FLOWS;
	st->ring = calloc((size_t)st->nlong * st->win + 1, sizeof(*st->ring));
	st->win_bytes = calloc(st->nlong + 1, sizeof(*st->win_bytes));
	if (!st->ring || !st->win_bytes)
		return -1;
	for (i = 0; i < c->nflows; i++)
		if (!c->flows[i].bytes && c->flows[i].start_ps > last_long_start &&
		    c->flows[i].start_ps < c->duration_ps)
			last_long_start = c->flows[i].start_ps;
	st->fair_from = c->fair_from_ps;
	st->fair_to = c->fair_to_ps;
	if (st->fair_from == SIM_NEVER)
		st->fair_from = last_long_start +
				(c->duration_ps - last_long_start) / 2;
	if (st->fair_to == SIM_NEVER || st->fair_to > c->duration_ps)
		st->fair_to = c->duration_ps;
	return 0;
}

void stats_free(struct sim *s)
{
	if (!s->stats)
		return;
	free(s->stats->hist);
	free(s->stats->ring);
	free(s->stats->win_bytes);
	free(s->stats->longs);
	free(s->stats);
	s->stats = NULL;
}

void stats_account(struct sim *s)
{
	struct stats *st = s->stats;
	u64 dt = s->now - st->last_ps;

	u64 q = watch_q(s);

	if (dt && demand(s)) {
		u64 b = q / st->bin_bytes;

		st->hist[b < st->nbins ? b : st->nbins - 1] += dt;
		st->demand_ps += dt;
	}
	if (q > st->q_max)
		st->q_max = q;
	st->last_ps = s->now;
}

void stats_port_busy(struct sim *s, u64 busy_ps)
{
	s->stats->busy_ps += busy_ps;
}

static bool is_long_active(const struct flow *f)
{
	return f->active && !f->spec->bytes;
}

void stats_long_flows_changed(struct sim *s)
{
	struct stats *st = s->stats;
	unsigned int i, n = 0;

	for (i = 0; i < st->nlong; i++)
		n += is_long_active(&s->flows[st->longs[i]]);
	st->epoch_ps = s->now;
	st->epoch_n = n;
	st->last_bad_ps = s->now;
	st->epoch_samples = 0;
}

static void check_convergence(struct sim *s)
{
	const struct sim_config *c = s->cfg;
	struct stats *st = s->stats;
	u64 total = 0, *bytes = st->win_bytes;
	unsigned int i;
	double fair;
	bool good = true;

	if (!st->epoch_n)
		return;
	st->epoch_samples++;
	if (st->epoch_samples < st->win) {
		st->last_bad_ps = s->now;
		return;
	}
	/* bytes[i]: flow i's bytes over the window, kept by stats_sample */
	for (i = 0; i < st->nlong; i++)
		if (is_long_active(&s->flows[st->longs[i]]))
			total += bytes[i];
	fair = (double)total / st->epoch_n;
	for (i = 0; i < st->nlong && good; i++) {
		if (!is_long_active(&s->flows[st->longs[i]]))
			continue;
		if (!total || fabs(bytes[i] - fair) > fair * c->conv_tol_pct / 100.0)
			good = false;
	}
	if (!good)
		st->last_bad_ps = s->now;
}

void stats_csv_header(struct sim *s)
{
	unsigned int i;

	if (!s->csv)
		return;
	fprintf(s->csv, "t_us,queue_kb,marks,drops,cnps,pauses");
	for (i = 0; i < s->stats->ncsv; i++)
		fprintf(s->csv, ",rate_gbps_%u", i);
	for (i = 0; i < s->stats->ncsv; i++)
		fprintf(s->csv, ",tput_gbps_%u", i);
	fputc('\n', s->csv);
}

void stats_sample(struct sim *s)
{
	const struct sim_config *c = s->cfg;
	struct stats *st = s->stats;
	double dt_s = (double)c->sample_ps / PS_PER_S;
	bool in_fair = s->now > st->fair_from && s->now <= st->fair_to;
	unsigned int i;

	st->last_sample_ps = s->now;
	for (i = 0; i < st->nlong; i++) {
		struct flow *f = &s->flows[st->longs[i]];
		u64 *slot = &st->ring[(size_t)i * st->win + st->ring_pos];

		st->win_bytes[i] += f->sample_bytes - *slot;
		*slot = f->sample_bytes;
		if (in_fair)
			f->fair_bytes += f->sample_bytes;
	}
	st->ring_pos = (st->ring_pos + 1) % st->win;
	check_convergence(s);
	if (s->csv) {
		fprintf(s->csv, "%.3f,%.3f,%llu,%llu,%llu,%llu",
			(double)s->now / PS_PER_US, watch_q(s) / 1000.0,
			(unsigned long long)(s->marks - st->last_marks),
			(unsigned long long)(s->drops - st->last_drops),
			(unsigned long long)(s->cnps - st->last_cnps),
			(unsigned long long)(s->pauses - st->last_pauses));
		for (i = 0; i < st->ncsv; i++) {
			struct flow *f = &s->flows[i];

			fprintf(s->csv, ",%.3f", f->active ? f->rate_bps / 1e9 : 0.0);
		}
		for (i = 0; i < st->ncsv; i++)
			fprintf(s->csv, ",%.3f",
				s->flows[i].sample_bytes * 8.0 / dt_s / 1e9);
		fputc('\n', s->csv);
	}
	st->last_marks = s->marks;
	st->last_drops = s->drops;
	st->last_cnps = s->cnps;
	st->last_pauses = s->pauses;
	for (i = 0; i < st->nlong; i++)
		s->flows[st->longs[i]].sample_bytes = 0;
	for (i = 0; i < st->ncsv; i++)
		s->flows[i].sample_bytes = 0;
}

static double hist_quantile(const struct stats *st, double q)
{
	u64 total = 0, acc = 0;
	u32 b;

	for (b = 0; b < st->nbins; b++)
		total += st->hist[b];
	if (!total)
		return 0;
	for (b = 0; b < st->nbins; b++) {
		acc += st->hist[b];
		if ((double)acc >= q * total)
			return (double)b * st->bin_bytes;
	}
	return (double)st->q_max;
}

static u64 ideal_fct(const struct sim *s, const struct flow *f)
{
	return topo_ideal_fct_ps(s->cfg, f->spec->src, f->spec->dst,
				 f->spec->bytes, f->hash);
}

void stats_flow_done(struct sim *s, const struct flow *f)
{
	u64 fct = f->finish_ps - f->spec->start_ps, ideal;

	if (!s->fct_csv)
		return;
	ideal = ideal_fct(s, f);
	fprintf(s->fct_csv, "%u,%s,%s,%llu,%.3f,%.3f,%.3f,%.4f\n",
		(unsigned int)(f - s->flows), s->nodes[f->spec->src].name,
		s->nodes[f->spec->dst].name, (unsigned long long)f->spec->bytes,
		(double)f->spec->start_ps / PS_PER_US, (double)fct / PS_PER_US,
		(double)ideal / PS_PER_US,
		fct > ideal ? (double)fct / ideal : 1.0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank quantile of n sorted values. */
static double rank(const double *v, unsigned int n, double q)
{
	size_t k = (size_t)ceil(q * n);

	return v[k ? k - 1 : 0];
}

static void fct_summary(struct sim *s, struct summary *o)
{
	const struct sim_config *c = s->cfg;
	double *fct = malloc(sizeof(*fct) * (c->nflows + 1));
	double *slow = malloc(sizeof(*slow) * (c->nflows + 1));
	unsigned int i, n = 0;
	double sum = 0;

	o->fct_mean_us = NAN;
	o->fct_p99_us = NAN;
	o->slow_p50 = NAN;
	o->slow_p99 = NAN;
	o->unfinished = 0;
	if (!fct || !slow)
		goto out;
	for (i = 0; i < c->nflows; i++) {
		const struct flow *f = &s->flows[i];
		u64 t, ideal;

		if (!f->spec->bytes || f->spec->start_ps >= c->duration_ps)
			continue;
		if (!f->done) {
			o->unfinished++;
			continue;
		}
		t = f->finish_ps - f->spec->start_ps;
		ideal = ideal_fct(s, f);
		fct[n] = (double)t;
		slow[n++] = t > ideal ? (double)t / ideal : 1.0;
		sum += t;
	}
	if (n) {
		qsort(fct, n, sizeof(*fct), cmp_double);
		qsort(slow, n, sizeof(*slow), cmp_double);
		o->fct_mean_us = sum / n / PS_PER_US;
		o->fct_p99_us = rank(fct, n, 0.99) / PS_PER_US;
		o->slow_p50 = rank(slow, n, 0.50);
		o->slow_p99 = rank(slow, n, 0.99);
	}
out:
	free(fct);
	free(slow);
}

void stats_summary(struct sim *s, struct summary *o)
{
	const struct sim_config *c = s->cfg;
	struct stats *st = s->stats;
	double sx = 0, sxx = 0, delivered = 0;
	unsigned int i, n = 0;

	stats_account(s);
	memset(o, 0, sizeof(*o));
	o->util_pct = st->demand_ps ? 100.0 * st->busy_ps / st->demand_ps : 0;
	o->q_p50_kb = hist_quantile(st, 0.50) / 1000.0;
	o->q_p99_kb = hist_quantile(st, 0.99) / 1000.0;
	o->q_max_kb = st->q_max / 1000.0;
	o->drops = s->drops;
	o->marks = s->marks;
	o->cnps = s->cnps;
	o->pkts = s->pkts_sent;
	o->pauses = s->pauses;
	o->retransmits = s->retransmits;
	o->timeouts = s->timeouts;
	o->events = s->events;
	o->victim_gbps = NAN;
	for (i = 0; i < c->nflows; i++) {
		const struct flow *f = &s->flows[i];
		const struct flow_spec *fs = f->spec;

		delivered += f->delivered_bytes;
		if (fs->victim && fs->start_ps < c->duration_ps) {
			u64 end = fs->stop_ps < c->duration_ps ? fs->stop_ps :
				  c->duration_ps;

			if (f->done)
				end = f->finish_ps;
			if (isnan(o->victim_gbps))
				o->victim_gbps = 0;
			if (end > fs->start_ps)
				o->victim_gbps += f->delivered_bytes * 8.0 /
						  ((double)(end - fs->start_ps) / PS_PER_S) / 1e9;
		}
		if (fs->bytes || fs->start_ps > st->fair_from ||
		    (fs->stop_ps != SIM_NEVER && fs->stop_ps < st->fair_to))
			continue;
		sx += f->fair_bytes;
		sxx += (double)f->fair_bytes * f->fair_bytes;
		n++;
	}
	o->jain = n >= 2 && sxx > 0 ? sx * sx / (n * sxx) : -1;
	o->goodput_gbps = delivered * 8.0 / ((double)c->duration_ps / PS_PER_S) /
			  1e9;
	if (st->epoch_n >= 2 && st->last_bad_ps >= st->last_sample_ps) {
		o->converge_us = -1;
	} else if (st->epoch_n >= 2) {
		/* the first window of the fair run starts here */
		u64 from = st->last_bad_ps + c->sample_ps;
		u64 span = (u64)st->win * c->sample_ps;

		from = from > st->epoch_ps + span ? from - span : st->epoch_ps;
		o->converge_us = (double)(from - st->epoch_ps) / PS_PER_US;
	} else {
		o->converge_us = NAN;
	}
	fct_summary(s, o);
}
