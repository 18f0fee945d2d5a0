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
#include <stdint.h>
#include <stdio.h>

#include "rate_loop.h"
#include "dcqcn.h"
#include "eventq.h"

#define PS_PER_NS	1000ULL
#define PS_PER_US	1000000ULL
#define PS_PER_S	1000000000000ULL
#define SIM_NEVER	UINT64_MAX

/* What one flow asks for: a sender of its own, a start, an end. */
struct flow_spec {
	uint64_t start_ps;
	uint64_t stop_ps;	/* SIM_NEVER: until the end of the run */
	uint64_t bytes;		/* 0: unlimited (a long flow) */
};

/* The whole configuration of a run: network, switch, flows, controllers. */
struct sim_config {
	uint64_t link_bps;	/* receiver-facing egress (the bottleneck) */
	uint64_t host_bps;	/* each sender's NIC */
	uint32_t mtu;		/* bytes on the wire per full packet */
	uint64_t prop_ps;	/* propagation delay of every link */
	uint64_t kmin_bytes;
	uint64_t kmax_bytes;
	uint32_t pmax_ppm;	/* marking probability at Kmax, parts/10^6 */
	uint64_t buffer_bytes;	/* egress buffer; tail drop beyond it */
	bool mark_on_dequeue;
	uint64_t cnp_gap_ps;	/* receiver: min time between CNPs per QP */
	uint64_t duration_ps;
	uint64_t sample_ps;
	uint64_t seed;
	uint64_t fair_from_ps;	/* SIM_NEVER: chosen from the flows */
	uint64_t fair_to_ps;
	uint64_t conv_window_ps;
	uint32_t conv_tol_pct;
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
	uint64_t rate_bps;	/* the rate the controller last gave */
	uint64_t sent_bytes;
	uint64_t last_tx_ps;
	uint32_t last_tx_bits;
	uint32_t tx_gen;	/* invalidates stale transmit events */
	uint32_t timer_gen;	/* invalidates stale controller timers */
	uint64_t timer_ps;	/* the controller timer now scheduled */
	uint64_t last_cnp_ps;	/* receiver side: last CNP sent for it */
	bool cnp_sent;
	uint64_t delivered_bytes;
	uint64_t sample_bytes;	/* delivered since the last sample */
	uint64_t dropped;
	uint64_t cnps;
	uint64_t finish_ps;	/* when its last byte arrived */
	uint64_t fair_bytes;	/* delivered inside the fairness window */
};

/* A packet waiting in the switch queue. */
struct queued_pkt {
	uint32_t flow;
	uint32_t bytes;
	bool ce;
};

struct stats;

struct sim {
	const struct sim_config *cfg;
	enum rp_kind kind;
	uint64_t now;
	struct eventq evq;
	struct flow *flows;
	unsigned int nactive;	/* flows with bytes left to send */
	/* switch egress */
	struct queued_pkt *ring;
	uint32_t ring_cap, ring_head, ring_len;
	uint64_t q_bytes;
	bool port_busy;
	uint64_t rng;
	/* totals */
	uint64_t pkts_sent, pkts_delivered, marks, drops, cnps;
	uint64_t events;
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
void rp_sent(struct sim *s, struct flow *f, uint32_t bytes);
void rp_timer(struct sim *s, struct flow *f);
uint64_t rp_rate_bps(const struct sim *s, const struct flow *f);
uint64_t rp_next_timer_ps(const struct sim *s, const struct flow *f);

#endif /* RCC_SIM_H */
