/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventq.h - the simulator's pending events: a binary min-heap ordered by
 * time, then by class (network events before controller runs at the same
 * instant, as the spec applies events before a run due at the same time),
 * then by insertion order, so every run is deterministic.
 */
#ifndef RCC_SIM_EVENTQ_H
#define RCC_SIM_EVENTQ_H

#include <stdbool.h>
#include "portable.h"

typedef unsigned short u16;

enum ev_kind {
	EV_FLOW_START,
	EV_FLOW_STOP,
	EV_TX,		/* the pacer lets a QP send its next packet */
	EV_PORT_DONE,	/* a port finished sending a packet */
	EV_ARRIVE,	/* a packet reaches the port at a link's end */
	EV_PFC,		/* a PFC frame reaches the port it pauses */
	EV_RTO,		/* a sender's retransmit timer */
	EV_RP_TIMER,	/* a reaction point's own timer (rdma_cc: a run) */
	EV_SAMPLE,	/* time series and statistics tick */
};

/* A packet: in events and port queues. */
enum pkt_type { PKT_DATA, PKT_ACK, PKT_NAK, PKT_CNP };
#define PKT_CE		1	/* ECN congestion experienced */

struct pkt {
	u32 flow;
	u32 psn;	/* data: its PSN; ACK/NAK: the receiver's expected PSN */
	u32 in_port;	/* global id of the ingress port at this switch */
	u16 bytes;
	u8 type;
	u8 flags;
};

struct event {
	u64 t_ps;
	u32 target;	/* a flow or a port */
	u32 arg;	/* a generation number, or PFC on/off */
	struct pkt p;
	u8 kind;	/* enum ev_kind */
};

/* The heap's entries: time, then class, insertion order, payload slot. */
struct ev_key {
	u64 t_ps;
	u64 ord;
};

struct ev_payload {
	u32 target;
	u32 arg;
	struct pkt p;
	u8 kind;
};

struct eventq {
	struct ev_key *heap;
	struct ev_payload *slab;
	u32 *free;		/* free payload slots */
	u32 len, cap, nfree;
	u64 next_seq;
};

int eventq_init(struct eventq *q, u32 cap);
void eventq_free(struct eventq *q);
/* Returns -1 when out of memory. */
int eventq_push(struct eventq *q, u64 t_ps, enum ev_kind kind,
		u32 target, u32 arg, const struct pkt *p);
bool eventq_pop(struct eventq *q, struct event *ev);

#endif /* RCC_SIM_EVENTQ_H */
