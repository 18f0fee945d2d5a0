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

enum ev_kind {
	EV_FLOW_START,
	EV_FLOW_STOP,
	EV_TX,		/* a sender may send its next packet */
	EV_SW_ARRIVE,	/* a packet reaches the switch */
	EV_SW_DEPART,	/* the egress port finished sending a packet */
	EV_RX_ARRIVE,	/* a packet reaches the receiver */
	EV_CNP,		/* a CNP reaches its sender */
	EV_RP_TIMER,	/* a reaction point's own timer (rdma_cc: a run) */
	EV_SAMPLE,	/* time series and statistics tick */
};

struct event {
	u64 t_ps;
	u64 seq;	/* class in the top bits, then insertion order */
	u32 flow;
	u32 arg;	/* packet bytes, or a generation number */
	u8 kind;	/* enum ev_kind */
	bool ce;
};

struct eventq {
	struct event *heap;
	u32 len, cap;
	u64 next_seq;
};

int eventq_init(struct eventq *q, u32 cap);
void eventq_free(struct eventq *q);
/* Returns -1 when out of memory. */
int eventq_push(struct eventq *q, u64 t_ps, enum ev_kind kind,
		u32 flow, u32 arg, bool ce);
bool eventq_pop(struct eventq *q, struct event *ev);

#endif /* RCC_SIM_EVENTQ_H */
