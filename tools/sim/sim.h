/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - the simulated network: N senders, one switch egress queue with
 * RED-style ECN marking and tail drop, one receiver that answers CE-marked
 * packets with CNPs.  Time is kept in picoseconds so that packet times at
 * 400 Gbit/s (82 ns for 4 KiB) add up without drift.
 */
#ifndef RCC_SIM_H
#define RCC_SIM_H

#include <stdbool.h>
#include <stdio.h>

#include "rate_loop.h"
#include "dcqcn.h"
#include "eventq.h"

#define PS_PER_NS	1000ULL
#define PS_PER_US	1000000ULL
#define PS_PER_S	1000000000000ULL
#define SIM_NEVER	(~0ULL)

/* What one flow asks for: a sender of its own, a start, an end. */
struct flow_spec {
	u64 start_ps;
	u64 stop_ps;	/* SIM_NEVER: until the end of the run */
	u64 bytes;		/* 0: unlimited (a long flow) */
};

/* The whole configuration of a run: network, switch, flows, controllers. */
struct sim_config {
	u64 link_bps;	/* receiver-facing egress (the bottleneck) */
	u64 host_bps;	/* each sender's NIC */
	u32 mtu;		/* bytes on the wire per full packet */
	u64 prop_ps;	/* propagation delay of every link */
	u64 kmin_bytes;
	u64 kmax_bytes;
	u32 pmax_ppm;	/* marking probability at Kmax, parts/10^6 */
	u64 buffer_bytes;	/* egress buffer; tail drop beyond it */
	bool mark_on_dequeue;
	u64 cnp_gap_ps;	/* receiver: min time between CNPs per QP */
	u64 duration_ps;
	u64 sample_ps;
	u64 seed;
	u64 fair_from_ps;	/* SIM_NEVER: chosen from the flows */
	u64 fair_to_ps;
	u64 conv_window_ps;
	u32 conv_tol_pct;
	struct rcc_params rcc;
	struct dcqcn_params dcqcn;
	struct flow_spec *flows;
	unsigned int nflows;
};

enum rp_kind {
	RP_RDMA_CC,
	RP_DCQCN,
	RP_NONE,
	RP_NR_KINDS
};

/* One reaction point (the sender's rate controller) of one flow. */
struct rp_state {
	enum rp_kind kind;
	union {
		struct rcc_qp rcc;
		struct dcqcn_qp dcqcn;
	};
};

struct flow {
	const struct flow_spec *spec;
	struct rp_state rp;
	bool active;		/* started, not stopped, bytes left to send */
	bool done;		/* every byte delivered (finite flows) */
	u64 rate_bps;	/* the rate the controller last gave */
	u64 sent_bytes;
	u64 last_tx_ps;
	u32 last_tx_bits;
	u32 tx_gen;	/* invalidates stale transmit events */
	u32 timer_gen;	/* invalidates stale controller timers */
	u64 timer_ps;	/* the controller timer now scheduled */
	u64 last_cnp_ps;	/* receiver side: last CNP sent for it */
	bool cnp_sent;
	u64 delivered_bytes;
	u64 sample_bytes;	/* delivered since the last sample */
	u64 dropped;
	u64 cnps;
	u64 finish_ps;	/* when its last byte arrived */
	u64 fair_bytes;	/* delivered inside the fairness window */
};

/* A packet waiting in the switch queue. */
struct queued_pkt {
	u32 flow;
	u32 bytes;
	bool ce;
};

struct stats;

struct sim {
	const struct sim_config *cfg;
	enum rp_kind kind;
	u64 now;
	struct eventq evq;
	struct flow *flows;
	unsigned int nactive;	/* flows with bytes left to send */
	/* switch egress */
	struct queued_pkt *ring;
	u32 ring_cap, ring_head, ring_len;
	u64 q_bytes;
	bool port_busy;
	u64 rng;
	/* totals */
	u64 pkts_sent, pkts_delivered, marks, drops, cnps;
	u64 events;
	struct stats *stats;
	FILE *csv;		/* time series, or NULL */
};

const char *rp_kind_name(enum rp_kind kind);
int rp_kind_parse(const char *name, enum rp_kind *kind);

/* Run one reaction point over the whole configuration. */
int sim_run(struct sim *s, const struct sim_config *cfg, enum rp_kind kind,
	    FILE *csv);
void sim_free(struct sim *s);

/* The reaction points (rp.c). */
void rp_start(struct sim *s, struct flow *f);
void rp_cnp(struct sim *s, struct flow *f);
void rp_sent(struct sim *s, struct flow *f, u32 bytes);
void rp_timer(struct sim *s, struct flow *f);
u64 rp_rate_bps(const struct sim *s, const struct flow *f);
u64 rp_next_timer_ps(const struct sim *s, const struct flow *f);

#endif /* RCC_SIM_H */
