// SPDX-License-Identifier: GPL-2.0
/*
 * net.c - the packet path of one run: senders paced at their controller's
 * rate, the switch egress queue (RED-style ECN marking between Kmin and
 * Kmax up to Pmax, every packet marked above Kmax, tail drop beyond the
 * buffer), the receiver (one CNP per CE-marked packet, at most one per
 * cnp_gap per QP), and CNPs back to the sender over an uncongested reverse
 * path.  Every flow has its own sender host and NIC; drops are counted,
 * not retransmitted.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "stats.h"

static u64 tx_time_ps(u64 bits, u64 bps)
{
	return (bits * PS_PER_S + bps - 1) / bps;
}

static int push(struct sim *s, u64 t, enum ev_kind kind, u32 flow,
		u32 arg, bool ce)
{
	return eventq_push(&s->evq, t, kind, flow, arg, ce);
}

static u32 flow_id(const struct sim *s, const struct flow *f)
{
	return (u32)(f - s->flows);
}

/* xorshift64*: the marking coin, seeded per run so every RP sees alike. */
static u64 rng_next(struct sim *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 2685821657736338717ULL;
}

static bool red_mark(struct sim *s, u64 q)
{
	const struct sim_config *c = s->cfg;
	u64 span, p_ppm;

	if (q <= c->kmin_bytes)
		return false;
	if (q >= c->kmax_bytes)
		return true;
	span = c->kmax_bytes - c->kmin_bytes;
	p_ppm = (u64)c->pmax_ppm * (q - c->kmin_bytes) / span;
	return rng_next(s) % 1000000 < p_ppm;
}

/* The controller may have changed the rate or its timer: follow it. */
static void follow_rp(struct sim *s, struct flow *f, bool resched_tx)
{
	u64 t = rp_next_timer_ps(s, f);
	u64 rate = rp_rate_bps(s, f);

	if (t != f->timer_ps) {
		f->timer_ps = t;
		f->timer_gen++;
		if (t != SIM_NEVER)
			push(s, t < s->now ? s->now : t, EV_RP_TIMER,
			     flow_id(s, f), f->timer_gen, false);
	}
	if (rate != f->rate_bps) {
		f->rate_bps = rate;
		if (resched_tx && f->active) {
			u64 next = f->last_tx_ps +
					tx_time_ps(f->last_tx_bits, rate);

			f->tx_gen++;
			push(s, next < s->now ? s->now : next, EV_TX,
			     flow_id(s, f), f->tx_gen, false);
		}
	}
}

static void flow_start(struct sim *s, struct flow *f)
{
	if (f->active || f->done)
		return;
	f->active = true;
	s->nactive++;
	rp_start(s, f);
	f->timer_ps = SIM_NEVER;
	f->timer_gen++;
	f->rate_bps = rp_rate_bps(s, f);
	f->last_tx_bits = 0;
	f->tx_gen++;
	push(s, s->now, EV_TX, flow_id(s, f), f->tx_gen, false);
	if (!f->spec->bytes)
		stats_long_flows_changed(s);
}

static void flow_end(struct sim *s, struct flow *f)
{
	if (!f->active)
		return;
	f->active = false;
	s->nactive--;
	f->tx_gen++;
	f->timer_gen++;
	f->timer_ps = SIM_NEVER;
	if (!f->spec->bytes)
		stats_long_flows_changed(s);
}

static void sender_tx(struct sim *s, struct flow *f, u32 gen)
{
	const struct sim_config *c = s->cfg;
	u32 bytes = c->mtu;

	if (gen != f->tx_gen || !f->active)
		return;
	if (f->spec->bytes && f->spec->bytes - f->sent_bytes < bytes)
		bytes = f->spec->bytes - f->sent_bytes;
	push(s, s->now + tx_time_ps(bytes * 8ULL, c->host_bps) + c->prop_ps,
	     EV_SW_ARRIVE, flow_id(s, f), bytes, false);
	f->sent_bytes += bytes;
	f->last_tx_ps = s->now;
	f->last_tx_bits = bytes * 8;
	s->pkts_sent++;
	rp_sent(s, f, bytes);
	follow_rp(s, f, false);
	if (f->spec->bytes && f->sent_bytes >= f->spec->bytes) {
		flow_end(s, f);
		return;
	}
	push(s, s->now + tx_time_ps(f->last_tx_bits, f->rate_bps), EV_TX,
	     flow_id(s, f), f->tx_gen, false);
}

static void port_start(struct sim *s)
{
	struct queued_pkt p = s->ring[s->ring_head];
	u64 ser;

	s->ring_head = (s->ring_head + 1) % s->ring_cap;
	s->ring_len--;
	s->q_bytes -= p.bytes;
	if (s->cfg->mark_on_dequeue && red_mark(s, s->q_bytes)) {
		p.ce = true;
		s->marks++;
	}
	s->port_busy = true;
	ser = tx_time_ps(p.bytes * 8ULL, s->cfg->link_bps);
	stats_port_busy(s, ser);
	push(s, s->now + ser, EV_SW_DEPART, p.flow, p.bytes, p.ce);
}

static void switch_arrive(struct sim *s, u32 flow, u32 bytes)
{
	const struct sim_config *c = s->cfg;
	struct queued_pkt p = { .flow = flow, .bytes = bytes };

	if (s->q_bytes + bytes > c->buffer_bytes || s->ring_len == s->ring_cap) {
		s->drops++;
		s->flows[flow].dropped++;
		return;
	}
	if (!c->mark_on_dequeue && red_mark(s, s->q_bytes)) {
		p.ce = true;
		s->marks++;
	}
	s->ring[(s->ring_head + s->ring_len) % s->ring_cap] = p;
	s->ring_len++;
	s->q_bytes += bytes;
	if (!s->port_busy)
		port_start(s);
}

static void switch_depart(struct sim *s, const struct event *ev)
{
	push(s, s->now + s->cfg->prop_ps, EV_RX_ARRIVE, ev->flow, ev->arg,
	     ev->ce);
	s->port_busy = false;
	if (s->ring_len)
		port_start(s);
}

static void receiver_arrive(struct sim *s, const struct event *ev)
{
	struct flow *f = &s->flows[ev->flow];

	f->delivered_bytes += ev->arg;
	f->sample_bytes += ev->arg;
	s->pkts_delivered++;
	if (f->spec->bytes && f->delivered_bytes >= f->spec->bytes &&
	    !f->done) {
		f->done = true;
		f->finish_ps = s->now;
	}
	if (!ev->ce)
		return;
	if (f->cnp_sent && s->now - f->last_cnp_ps < s->cfg->cnp_gap_ps)
		return;
	f->cnp_sent = true;
	f->last_cnp_ps = s->now;
	s->cnps++;
	push(s, s->now + 2 * s->cfg->prop_ps, EV_CNP, ev->flow, 0, false);
}

static void sender_cnp(struct sim *s, struct flow *f)
{
	if (!f->active)
		return;
	f->cnps++;
	rp_cnp(s, f);
	follow_rp(s, f, true);
}

static void sender_timer(struct sim *s, struct flow *f, u32 gen)
{
	if (gen != f->timer_gen || !f->active)
		return;
	f->timer_ps = SIM_NEVER;
	rp_timer(s, f);
	follow_rp(s, f, true);
}

static void dispatch(struct sim *s, const struct event *ev)
{
	struct flow *f = &s->flows[ev->flow];

	switch (ev->kind) {
	case EV_FLOW_START:
		flow_start(s, f);
		break;
	case EV_FLOW_STOP:
		flow_end(s, f);
		break;
	case EV_TX:
		sender_tx(s, f, ev->arg);
		break;
	case EV_SW_ARRIVE:
		switch_arrive(s, ev->flow, ev->arg);
		break;
	case EV_SW_DEPART:
		switch_depart(s, ev);
		break;
	case EV_RX_ARRIVE:
		receiver_arrive(s, ev);
		break;
	case EV_CNP:
		sender_cnp(s, f);
		break;
	case EV_RP_TIMER:
		sender_timer(s, f, ev->arg);
		break;
	case EV_SAMPLE:
		stats_sample(s);
		if (s->now + s->cfg->sample_ps <= s->cfg->duration_ps)
			push(s, s->now + s->cfg->sample_ps, EV_SAMPLE, 0, 0,
			     false);
		break;
	}
}

int sim_run(struct sim *s, const struct sim_config *cfg, enum rp_kind kind,
	    FILE *csv)
{
	struct event ev;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->kind = kind;
	s->csv = csv;
	s->rng = cfg->seed * 2 + 1;
	s->ring_cap = cfg->buffer_bytes / 64 + 2;
	s->ring = calloc(s->ring_cap, sizeof(*s->ring));
	s->flows = calloc(cfg->nflows ? cfg->nflows : 1, sizeof(*s->flows));
	if (!s->ring || !s->flows || eventq_init(&s->evq, 1024) ||
	    stats_init(s))
		return -1;
	for (i = 0; i < cfg->nflows; i++) {
		const struct flow_spec *fs = &cfg->flows[i];

		s->flows[i].spec = fs;
		s->flows[i].timer_ps = SIM_NEVER;
		if (fs->start_ps > cfg->duration_ps)
			continue;
		push(s, fs->start_ps, EV_FLOW_START, i, 0, false);
		if (fs->stop_ps != SIM_NEVER)
			push(s, fs->stop_ps, EV_FLOW_STOP, i, 0, false);
	}
	push(s, cfg->sample_ps, EV_SAMPLE, 0, 0, false);
	stats_csv_header(s);
	while (eventq_pop(&s->evq, &ev)) {
		if (ev.t_ps > cfg->duration_ps)
			break;
		s->now = ev.t_ps;
		s->events++;
		stats_account(s);
		dispatch(s, &ev);
	}
	s->now = cfg->duration_ps;
	return 0;
}

void sim_free(struct sim *s)
{
	stats_free(s);
	eventq_free(&s->evq);
	free(s->ring);
	free(s->flows);
	s->ring = NULL;
	s->flows = NULL;
}
