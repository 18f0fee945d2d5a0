// SPDX-License-Identifier: GPL-2.0
/*
 * net.c - the packet path of one run.
 *
 * Hosts: every flow is an RC QP on its source host.  The NIC port serves
 * control packets (ACK, NAK, CNP) first, then the QPs its pacers let go,
 * round robin, one packet each: a QP's next packet may leave bits / rate
 * after its previous one.  Go-back-N: a NAK (the receiver saw a PSN beyond
 * the one it expects) or the retransmit timeout (no ACK progress for
 * --rto-us) sends the QP back to the oldest unacknowledged PSN.
 *
 * Switches: output-queued, two priorities per egress port (control, strict
 * first and never paused; RoCE data), one shared buffer per switch.
 * Lossless (--pfc=on): ingress accounting as in the HPCC ns-3 switch MMU --
 * a reserve per ingress port, then the shared pool up to a dynamic
 * threshold alpha x (free pool), then that port's headroom; an ingress port
 * over its threshold (or into its headroom) sends XOFF upstream, and XON
 * when it has drained below the threshold by the resume offset with its
 * headroom empty.  Lossy (--pfc=off): a data packet is dropped when its
 * egress queue would exceed alpha x (free buffer) (dynamic threshold).  ECN:
 * RED on the egress data queue, at enqueue or at dequeue.
 *
 * Receivers: in-order packets are delivered and acknowledged every
 * --ack-every packets and on the last one; an out-of-sequence packet is
 * dropped and answered with one NAK per expected PSN; a CE-marked packet
 * makes a CNP unless one went to that QP less than --cnp-gap-ns ago (the
 * notification point of mlx5, min_time_between_cnps), whatever the CC.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "stats.h"

#define CTRL_BYTES	64U	/* ACK, NAK, CNP on the wire */
#define PFC_BYTES	64U

static inline u64 tx_time_ps(u64 bits, u64 bps)
{
	return (bits * PS_PER_S + bps - 1) / bps;
}

static inline void push(struct sim *s, u64 t, enum ev_kind kind, u32 target,
			u32 arg, const struct pkt *p)
{
	if (eventq_push(&s->evq, t, kind, target, arg, p))
		s->oom = true;
}

static inline u32 flow_id(const struct sim *s, const struct flow *f)
{
	return (u32)(f - s->flows);
}

/* xorshift64*: the marking coin, seeded per run so every RP sees alike. */
static inline u64 rng_next(struct sim *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 2685821657736338717ULL;
}

static bool red_mark(struct sim *s, const struct port *p, u64 q)
{
	u64 p_ppm;

	if (q <= p->kmin)
		return false;
	if (q >= p->kmax)
		return true;
	p_ppm = (u64)p->pmax_ppm * (q - p->kmin) / (p->kmax - p->kmin);
	return rng_next(s) % 1000000 < p_ppm;
}

static int pktq_push(struct pktq *q, const struct pkt *p)
{
	if (q->len == q->cap) {
		u32 cap = q->cap ? q->cap * 2 : 16, i;
		struct pkt *r = malloc(sizeof(*r) * cap);

		if (!r)
			return -1;
		for (i = 0; i < q->len; i++)
			r[i] = q->ring[(q->head + i) & (q->cap - 1)];
		free(q->ring);
		q->ring = r;
		q->cap = cap;
		q->head = 0;
	}
	q->ring[(q->head + q->len++) & (q->cap - 1)] = *p;
	return 0;
}

static inline struct pkt pktq_pop(struct pktq *q)
{
	struct pkt p = q->ring[q->head];

	q->head = (q->head + 1) & (q->cap - 1);
	q->len--;
	return p;
}

static void ready_add(struct sim *s, struct port *pt, struct flow *f)
{
	if (f->in_ready)
		return;
	if (pt->ready_len == pt->ready_cap) {
		u32 cap = pt->ready_cap ? pt->ready_cap * 2 : 8, i;
		u32 *r = malloc(sizeof(*r) * cap);

		if (!r) {
			s->oom = true;
			return;
		}
		for (i = 0; i < pt->ready_len; i++)
			r[i] = pt->ready[(pt->ready_head + i) & (pt->ready_cap - 1)];
		free(pt->ready);
		pt->ready = r;
		pt->ready_cap = cap;
		pt->ready_head = 0;
	}
	pt->ready[(pt->ready_head + pt->ready_len++) & (pt->ready_cap - 1)] =
		flow_id(s, f);
	f->in_ready = true;
}

static inline u32 host_port(const struct sim *s, u32 node)
{
	return s->nodes[node].first_port;
}

static inline bool has_more(const struct flow *f)
{
	return f->active && (!f->npkts || f->snd_nxt < f->npkts);
}

static void port_next(struct sim *s, u32 pid);

/*
 * Something waits at port @pid: send it now if the port is free, else when
 * the packet on the wire is out.  (A port that finishes with nothing
 * waiting schedules no event.)
 */
static inline void port_kick(struct sim *s, u32 pid)
{
	struct port *pt = &s->ports[pid];

	if (pt->done_pending)
		return;
	if (pt->busy_until <= s->now) {
		port_next(s, pid);
		return;
	}
	pt->done_pending = true;
	push(s, pt->busy_until, EV_PORT_DONE, pid, 0, NULL);
}

/* Let @f send when its pacer allows, if it has anything to send. */
static void tx_schedule(struct sim *s, struct flow *f, u64 port_free)
{
	if (!has_more(f) || f->in_ready)
		return;
	if (f->next_tx_ps <= port_free) {
		f->tx_pending = false;
		f->tx_gen++;
		ready_add(s, &s->ports[host_port(s, f->spec->src)], f);
		return;
	}
	f->tx_pending = true;
	f->tx_gen++;
	push(s, f->next_tx_ps, EV_TX, flow_id(s, f), f->tx_gen, NULL);
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
			     flow_id(s, f), f->timer_gen, NULL);
	}
	if (rate != f->rate_bps) {
		f->rate_bps = rate;
		f->next_tx_ps = f->last_tx_ps + tx_time_ps(f->last_tx_bits, rate);
		if (resched_tx && f->tx_pending) {
			u64 next = f->next_tx_ps < s->now ? s->now : f->next_tx_ps;

			f->tx_gen++;
			push(s, next, EV_TX, flow_id(s, f), f->tx_gen, NULL);
		}
	}
}

static void flow_start(struct sim *s, struct flow *f)
{
	if (f->active || f->done)
		return;
	stats_account(s);
	f->active = true;
	s->nactive++;
	rp_start(s, f);
	f->timer_ps = SIM_NEVER;
	f->timer_gen++;
	f->rate_bps = rp_rate_bps(s, f);
	f->last_tx_bits = 0;
	f->last_tx_ps = s->now;
	f->next_tx_ps = s->now;
	f->progress_ps = s->now;
	follow_rp(s, f, false);
	tx_schedule(s, f, s->now);
	port_kick(s, host_port(s, f->spec->src));
	if (!f->spec->bytes)
		stats_long_flows_changed(s);
}

static void flow_end(struct sim *s, struct flow *f)
{
	if (!f->active)
		return;
	stats_account(s);
	f->active = false;
	s->nactive--;
	f->tx_gen++;
	f->tx_pending = false;
	f->timer_gen++;
	f->timer_ps = SIM_NEVER;
	if (!f->spec->bytes)
		stats_long_flows_changed(s);
}

static inline u32 pkt_bytes(const struct sim *s, const struct flow *f, u32 psn)
{
	if (f->npkts && psn == f->npkts - 1)
		return (u32)(f->spec->bytes - (u64)psn * s->cfg->mtu);
	return s->cfg->mtu;
}

/* The host port picks the next QP the pacer let go: its next packet. */
static bool host_data(struct sim *s, struct port *pt, struct pkt *p)
{
	while (pt->ready_len) {
		struct flow *f = &s->flows[pt->ready[pt->ready_head]];
		u32 bytes;
		u64 ser;

		pt->ready_head = (pt->ready_head + 1) & (pt->ready_cap - 1);
		pt->ready_len--;
		f->in_ready = false;
		if (!has_more(f))
			continue;
		p->flow = flow_id(s, f);
		p->psn = f->snd_nxt++;
		p->type = PKT_DATA;
		p->flags = 0;
		bytes = pkt_bytes(s, f, p->psn);
		p->bytes = (u16)bytes;
		if (s->trace && p->flow == s->cfg->trace_flow)
			fprintf(s->trace, "%.3f,send,%u,%s\n",
				(double)s->now / PS_PER_US, p->psn,
				p->psn < f->snd_max ? "retransmit" : "new");
		if (p->psn < f->snd_max) {
			f->retransmits++;
			s->retransmits++;
		} else {
			f->snd_max = p->psn + 1;
		}
		f->sent_bytes += bytes;
		s->pkts_sent++;
		f->last_tx_ps = s->now;
		f->last_tx_bits = bytes * 8;
		rp_sent(s, f, bytes);
		follow_rp(s, f, false);
		f->next_tx_ps = s->now + tx_time_ps(f->last_tx_bits, f->rate_bps);
		if (!f->rto_pending) {
			f->rto_pending = true;
			push(s, s->now + s->cfg->rto_ps, EV_RTO, p->flow, 0, NULL);
		}
		ser = tx_time_ps(bytes * 8ULL, pt->bps);
		tx_schedule(s, f, s->now + ser);
		return true;
	}
	return false;
}

static void pfc_send(struct sim *s, u32 pid, bool xoff)
{
	struct port *pt = &s->ports[pid];
	u64 t = pt->busy_until > s->now ? pt->busy_until : s->now;

	if (xoff) {
		pt->pauses++;
		s->pauses++;
	}
	pt->xoff_sent = xoff;
	push(s, t + tx_time_ps(PFC_BYTES * 8, pt->bps) + pt->prop_ps, EV_PFC,
	     pt->peer, xoff, NULL);
}

static inline u64 pfc_threshold(const struct sim *s, const struct node *n)
{
	return (n->buffer - n->total_hdrm - n->total_rsrv - n->shared_used) >>
	       s->cfg->alpha_shift;
}

static inline u64 shared_of(const struct sim *s, const struct port *in)
{
	return in->ingress_bytes > s->topo->reserve ?
	       in->ingress_bytes - s->topo->reserve : 0;
}

/* A data packet leaves the switch: its ingress port's accounting. */
static void ingress_release(struct sim *s, struct node *n, u32 pid, u32 bytes)
{
	struct port *in = &s->ports[pid];
	u64 from_hdrm = in->hdrm_bytes < bytes ? in->hdrm_bytes : bytes;
	u64 shared = shared_of(s, in);
	u64 from_shared = bytes - from_hdrm < shared ? bytes - from_hdrm : shared;
	u64 th;

	in->hdrm_bytes -= from_hdrm;
	in->ingress_bytes -= bytes - from_hdrm;
	n->shared_used -= from_shared;
	if (!in->xoff_sent || in->hdrm_bytes)
		return;
	shared = shared_of(s, in);
	th = pfc_threshold(s, n);
	if (!shared || shared + s->topo->resume_offset <= th)
		pfc_send(s, pid, false);
}

/* Start sending the next packet of port @pid, which is free now. */
static void port_next(struct sim *s, u32 pid)
{
	struct port *pt = &s->ports[pid];
	struct node *n = &s->nodes[pt->node];
	struct pkt p;
	u64 ser;

	if (pt->q[PRIO_CTRL].len) {
		p = pktq_pop(&pt->q[PRIO_CTRL]);
	} else if (pt->paused) {
		return;
	} else if (n->is_switch) {
		if (!pt->q[PRIO_DATA].len)
			return;
		if (pid == s->topo->watch_port)
			stats_account(s);
		p = pktq_pop(&pt->q[PRIO_DATA]);
		pt->q_bytes[PRIO_DATA] -= p.bytes;
		n->used -= p.bytes;
		if (s->cfg->pfc)
			ingress_release(s, n, p.in_port, p.bytes);
		if (s->cfg->mark_on_dequeue && !(p.flags & PKT_CE) &&
		    red_mark(s, pt, pt->q_bytes[PRIO_DATA])) {
			p.flags |= PKT_CE;
			s->marks++;
		}
	} else if (!host_data(s, pt, &p)) {
		return;
	}
	ser = tx_time_ps(p.bytes * 8ULL, pt->bps);
	if (p.type == PKT_DATA) {
		pt->tx_data++;
		if (pid == s->topo->watch_port)
			stats_port_busy(s, ser);
	}
	pt->busy_until = s->now + ser;
	push(s, s->now + ser + pt->prop_ps, EV_ARRIVE, pt->peer, 0, &p);
	if (pt->q[PRIO_CTRL].len ||
	    (!pt->paused && (pt->q[PRIO_DATA].len || pt->ready_len))) {
		pt->done_pending = true;
		push(s, pt->busy_until, EV_PORT_DONE, pid, 0, NULL);
	}
}

static inline u32 pkt_dst(const struct sim *s, const struct pkt *p)
{
	const struct flow_spec *fs = s->flows[p->flow].spec;

	return p->type == PKT_DATA ? fs->dst : fs->src;
}

static inline u32 pkt_hash(const struct sim *s, const struct pkt *p)
{
	u32 h = s->flows[p->flow].hash;

	return p->type == PKT_DATA ? h : h ^ 0x5bd1e995U;
}

static void drop(struct sim *s, const struct pkt *p)
{
	s->drops++;
	s->flows[p->flow].dropped++;
}

/* Admission of a data packet into switch @n through ingress port @pid. */
static bool admit(struct sim *s, struct node *n, u32 pid, u32 out, u32 bytes)
{
	struct port *in = &s->ports[pid];
	u64 th, nb;

	if (!s->cfg->pfc) {
		u64 free = n->buffer - n->used;

		return s->ports[out].q_bytes[PRIO_DATA] + bytes <=
		       (free >> s->cfg->alpha_shift) && n->used + bytes <= n->buffer;
	}
	th = pfc_threshold(s, n);
	nb = in->ingress_bytes + bytes;
	if (in->hdrm_bytes + bytes > in->headroom &&
	    shared_of(s, in) + bytes > th)
		return false;
	if (nb <= s->topo->reserve) {
		in->ingress_bytes = nb;
	} else if (nb - s->topo->reserve > th) {
		in->hdrm_bytes += bytes;
	} else {
		in->ingress_bytes = nb;
		n->shared_used += bytes < nb - s->topo->reserve ?
				  bytes : nb - s->topo->reserve;
	}
	if (!in->xoff_sent &&
	    (in->hdrm_bytes || shared_of(s, in) >= pfc_threshold(s, n)))
		pfc_send(s, pid, true);
	return true;
}

static void switch_arrive(struct sim *s, u32 pid, struct pkt *p)
{
	struct node *n = &s->nodes[s->ports[pid].node];
	u32 dst = s->nodes[pkt_dst(s, p)].host_idx;
	u32 out = topo_route(s->topo, s->ports[pid].node, dst, pkt_hash(s, p));
	struct port *op = &s->ports[out];

	if (p->type == PKT_DATA && s->cfg->ndrops) {
		unsigned int i;

		for (i = 0; i < s->cfg->ndrops; i++)
			if (!s->dropped_once[i] && s->cfg->drop_flow[i] == p->flow &&
			    s->cfg->drop_psn[i] == p->psn) {
				s->dropped_once[i] = true;
				drop(s, p);
				return;
			}
	}
	if (p->type != PKT_DATA) {
		if (pktq_push(&op->q[PRIO_CTRL], p))
			s->oom = true;
		port_kick(s, out);
		return;
	}
	if (!admit(s, n, pid, out, p->bytes)) {
		drop(s, p);
		return;
	}
	n->used += p->bytes;
	p->in_port = pid;
	if (!s->cfg->mark_on_dequeue && red_mark(s, op, op->q_bytes[PRIO_DATA])) {
		p->flags |= PKT_CE;
		s->marks++;
	}
	if (out == s->topo->watch_port)
		stats_account(s);
	if (pktq_push(&op->q[PRIO_DATA], p))
		s->oom = true;
	op->q_bytes[PRIO_DATA] += p->bytes;
	port_kick(s, out);
}

static void send_ctrl(struct sim *s, u32 node, u32 flow, u8 type, u32 psn)
{
	struct pkt p = { .flow = flow, .psn = psn, .bytes = CTRL_BYTES,
			 .type = type };
	u32 pid = host_port(s, node);

	if (pktq_push(&s->ports[pid].q[PRIO_CTRL], &p))
		s->oom = true;
	port_kick(s, pid);
}

static void receiver_data(struct sim *s, u32 node, const struct pkt *p)
{
	struct flow *f = &s->flows[p->flow];

	if ((p->flags & PKT_CE) &&
	    (!f->cnp_sent || s->now - f->last_cnp_ps >= s->cfg->cnp_gap_ps)) {
		f->cnp_sent = true;
		f->last_cnp_ps = s->now;
		s->cnps++;
		send_ctrl(s, node, p->flow, PKT_CNP, 0);
	}
	if (p->psn == f->rcv_nxt) {
		bool last = f->npkts && f->rcv_nxt + 1 == f->npkts;

		f->rcv_nxt++;
		f->nak_sent = false;
		f->delivered_bytes += p->bytes;
		f->sample_bytes += p->bytes;
		s->pkts_delivered++;
		if (last && !f->done) {
			f->done = true;
			f->finish_ps = s->now;
			stats_flow_done(s, f);
		}
		if (last || f->rcv_nxt % s->cfg->ack_every == 0) {
			s->acks++;
			send_ctrl(s, node, p->flow, PKT_ACK, f->rcv_nxt);
		}
	} else if (p->psn > f->rcv_nxt) {
		if (!f->nak_sent) {
			f->nak_sent = true;
			s->naks++;
			send_ctrl(s, node, p->flow, PKT_NAK, f->rcv_nxt);
		}
	} else if (p->psn + 1 == f->rcv_nxt || (p->psn + 1) % s->cfg->ack_every == 0) {
		/* a duplicate: acknowledge again so the sender moves on */
		s->acks++;
		send_ctrl(s, node, p->flow, PKT_ACK, f->rcv_nxt);
	}
}

static void sender_go_back(struct sim *s, struct flow *f, u32 psn)
{
	if (psn >= f->snd_nxt)
		return;
	f->snd_nxt = psn;
	if (!f->in_ready && !f->tx_pending) {
		tx_schedule(s, f, s->now);
		port_kick(s, host_port(s, f->spec->src));
	}
}

static void sender_ack(struct sim *s, struct flow *f, u32 psn)
{
	if (psn > f->snd_una) {
		f->snd_una = psn;
		f->progress_ps = s->now;
	}
	if (f->npkts && f->snd_una >= f->npkts)
		flow_end(s, f);
}

static void host_arrive(struct sim *s, u32 pid, const struct pkt *p)
{
	struct flow *f = &s->flows[p->flow];
	u32 node = s->ports[pid].node;

	switch (p->type) {
	case PKT_DATA:
		receiver_data(s, node, p);
		break;
	case PKT_ACK:
		if (f->active)
			sender_ack(s, f, p->psn);
		break;
	case PKT_NAK:
		if (!f->active)
			break;
		if (s->trace && p->flow == s->cfg->trace_flow)
			fprintf(s->trace, "%.3f,nak,%u,\n",
				(double)s->now / PS_PER_US, p->psn);
		sender_ack(s, f, p->psn);
		if (f->active)
			sender_go_back(s, f, p->psn);
		break;
	case PKT_CNP:
		if (!f->active)
			break;
		f->cnps++;
		rp_cnp(s, f);
		follow_rp(s, f, true);
		break;
	}
}

static void sender_rto(struct sim *s, struct flow *f)
{
	f->rto_pending = false;
	if (!f->active || f->snd_una >= f->snd_nxt)
		return;
	if (s->now - f->progress_ps >= s->cfg->rto_ps) {
		if (s->trace && flow_id(s, f) == s->cfg->trace_flow)
			fprintf(s->trace, "%.3f,timeout,%u,\n",
				(double)s->now / PS_PER_US, f->snd_una);
		f->timeouts++;
		s->timeouts++;
		f->progress_ps = s->now;
		f->snd_nxt = f->snd_una;
		sender_go_back(s, f, f->snd_una);
		if (!f->in_ready && !f->tx_pending) {
			tx_schedule(s, f, s->now);
			port_kick(s, host_port(s, f->spec->src));
		}
	}
	f->rto_pending = true;
	push(s, f->progress_ps + s->cfg->rto_ps, EV_RTO, flow_id(s, f), 0, NULL);
}

static void pfc_arrive(struct sim *s, u32 pid, bool xoff)
{
	struct port *pt = &s->ports[pid];

	if (xoff == pt->paused)
		return;
	pt->paused = xoff;
	if (xoff) {
		pt->paused_since = s->now;
		return;
	}
	pt->paused_ps += s->now - pt->paused_since;
	port_kick(s, pid);
}

static void dispatch(struct sim *s, struct event *ev)
{
	struct flow *f;

	switch (ev->kind) {
	case EV_ARRIVE:
		if (s->nodes[s->ports[ev->target].node].is_switch)
			switch_arrive(s, ev->target, &ev->p);
		else
			host_arrive(s, ev->target, &ev->p);
		break;
	case EV_PORT_DONE:
		s->ports[ev->target].done_pending = false;
		port_next(s, ev->target);
		break;
	case EV_TX:
		f = &s->flows[ev->target];
		if (ev->arg != f->tx_gen || !f->tx_pending)
			break;
		f->tx_pending = false;
		if (!has_more(f))
			break;
		ready_add(s, &s->ports[host_port(s, f->spec->src)], f);
		port_kick(s, host_port(s, f->spec->src));
		break;
	case EV_PFC:
		pfc_arrive(s, ev->target, ev->arg);
		break;
	case EV_FLOW_START:
		/* every flow starting now, then the next start time */
		while (s->next_start < s->nstarts &&
		       s->flows[s->starts[s->next_start]].spec->start_ps <= s->now)
			flow_start(s, &s->flows[s->starts[s->next_start++]]);
		if (s->next_start < s->nstarts)
			push(s, s->flows[s->starts[s->next_start]].spec->start_ps,
			     EV_FLOW_START, 0, 0, NULL);
		break;
	case EV_FLOW_STOP:
		flow_end(s, &s->flows[ev->target]);
		break;
	case EV_RTO:
		sender_rto(s, &s->flows[ev->target]);
		break;
	case EV_RP_TIMER:
		f = &s->flows[ev->target];
		if (ev->arg != f->timer_gen || !f->active)
			break;
		f->timer_ps = SIM_NEVER;
		rp_timer(s, f);
		follow_rp(s, f, true);
		break;
	case EV_SAMPLE:
		stats_sample(s);
		if (s->now + s->cfg->sample_ps <= s->cfg->duration_ps)
			push(s, s->now + s->cfg->sample_ps, EV_SAMPLE, 0, 0,
			     NULL);
		break;
	}
}

static const struct flow_spec *sort_specs;

static int cmp_start(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;
	u64 sx = sort_specs[x].start_ps, sy = sort_specs[y].start_ps;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static u32 flow_hash(u64 seed, u32 i)
{
	u64 x = (seed + 1) * 0x9e3779b97f4a7c15ULL ^ ((u64)i * 0xbf58476d1ce4e5b9ULL);

	x ^= x >> 31;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 29;
	return (u32)x;
}

int sim_run(struct sim *s, const struct sim_config *cfg, enum rp_kind kind,
	    FILE *csv, FILE *fct_csv, FILE *trace)
{
	const struct topo *t = cfg->topo;
	struct event ev;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->topo = t;
	s->kind = kind;
	s->csv = csv;
	s->fct_csv = fct_csv;
	s->trace = trace;
	s->rng = cfg->seed * 2 + 1;
	s->flows = calloc(cfg->nflows ? cfg->nflows : 1, sizeof(*s->flows));
	s->nodes = malloc(sizeof(*s->nodes) * t->nnodes);
	s->ports = malloc(sizeof(*s->ports) * t->nports);
	s->starts = malloc(sizeof(*s->starts) * (cfg->nflows + 1));
	if (!s->flows || !s->nodes || !s->ports || !s->starts ||
	    eventq_init(&s->evq, 4096))
		return -1;
	memcpy(s->nodes, t->nodes, sizeof(*s->nodes) * t->nnodes);
	memcpy(s->ports, t->ports, sizeof(*s->ports) * t->nports);
	if (stats_init(s))
		return -1;
	for (i = 0; i < cfg->nflows; i++) {
		const struct flow_spec *fs = &cfg->flows[i];
		struct flow *f = &s->flows[i];

		f->spec = fs;
		f->timer_ps = SIM_NEVER;
		f->hash = flow_hash(cfg->seed, i);
		if (fs->bytes)
			f->npkts = (u32)((fs->bytes + cfg->mtu - 1) / cfg->mtu);
		if (fs->start_ps > cfg->duration_ps)
			continue;
		s->starts[s->nstarts++] = i;
		if (fs->stop_ps != SIM_NEVER)
			push(s, fs->stop_ps, EV_FLOW_STOP, i, 0, NULL);
	}
	/* flows start in time order, one pending start event at a time */
	sort_specs = cfg->flows;
	qsort(s->starts, s->nstarts, sizeof(*s->starts), cmp_start);
	if (s->nstarts)
		push(s, s->flows[s->starts[0]].spec->start_ps, EV_FLOW_START, 0,
		     0, NULL);
	push(s, cfg->sample_ps, EV_SAMPLE, 0, 0, NULL);
	stats_csv_header(s);
	while (eventq_pop(&s->evq, &ev)) {
		if (ev.t_ps > cfg->duration_ps)
			break;
		s->now = ev.t_ps;
		s->events++;
		dispatch(s, &ev);
		if (s->oom)
			return -1;
	}
	s->now = cfg->duration_ps;
	for (i = 0; i < t->nports; i++)
		if (s->ports[i].paused)
			s->ports[i].paused_ps += s->now - s->ports[i].paused_since;
	return 0;
}

void sim_write_ports(const struct sim *s, FILE *out)
{
	u32 i;

	fprintf(out, "node,port,peer,gbps,tx_data,pauses_sent,paused_us\n");
	for (i = 0; i < s->topo->nports; i++) {
		const struct port *p = &s->ports[i];

		fprintf(out, "%s,%u,%s,%.0f,%llu,%llu,%.3f\n",
			s->nodes[p->node].name,
			i - s->nodes[p->node].first_port,
			s->nodes[s->ports[p->peer].node].name, p->bps / 1e9,
			(unsigned long long)p->tx_data,
			(unsigned long long)p->pauses,
			(double)p->paused_ps / PS_PER_US);
	}
}

void sim_free(struct sim *s)
{
	unsigned int i;

	stats_free(s);
	eventq_free(&s->evq);
	if (s->ports)
		for (i = 0; i < s->topo->nports; i++) {
			free(s->ports[i].q[0].ring);
			free(s->ports[i].q[1].ring);
			free(s->ports[i].ready);
		}
	free(s->ports);
	free(s->nodes);
	free(s->flows);
	free(s->starts);
	s->starts = NULL;
	s->ports = NULL;
	s->nodes = NULL;
	s->flows = NULL;
}
