/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - the simulated RoCE fabric: hosts with one NIC port each, switches
 * with a shared buffer, full-duplex links; lossless by default (PFC per
 * ingress port with dynamic Xoff/Xon thresholds and headroom) or lossy
 * (egress dynamic-threshold drop, go-back-N at the sender); RED-style ECN
 * marking per egress port; the receiving NIC acknowledges, NAKs
 * out-of-sequence packets and sends CNPs.  Time is kept in picoseconds so
 * that packet times at 400 Gbit/s (82 ns for 4 KiB) add up without drift.
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
#define SIM_NAME_LEN	24
#define SIM_NONE	(~0U)

/* What one flow asks for: a QP from one host to another, a start, an end. */
struct flow_spec {
	u64 start_ps;
	u64 stop_ps;	/* SIM_NEVER: until the end of the run */
	u64 bytes;		/* 0: unlimited (a long flow) */
	u32 src, dst;	/* host node ids (set by topo_build) */
	char src_name[SIM_NAME_LEN], dst_name[SIM_NAME_LEN];	/* "": star */
	bool victim;
};

/* One direction of a link as the topology options gave it. */
struct link_spec {
	char a[SIM_NAME_LEN], b[SIM_NAME_LEN];
	u64 bps;		/* 0: --host-gbps (or --uplink-gbps between switches) */
	u64 prop_ps;	/* SIM_NEVER: --prop-ns */
};

/* Poisson arrivals of flows whose sizes follow a CDF, between all hosts. */
struct workload_spec {
	char cdf_path[1024];
	double load;		/* of each host's NIC rate, 0 .. 1 */
	u64 from_ps, to_ps;
};

/* The whole configuration of a run: fabric, switches, flows, controllers. */
struct sim_config {
	u64 link_bps;	/* star: the switch to receiver link */
	u64 host_bps;	/* each host's NIC */
	u64 uplink_bps;	/* switch to switch links; 0: = host_bps */
	u32 mtu;		/* bytes on the wire per full packet */
	u64 prop_ps;	/* propagation delay of a link unless it says */
	/* ECN: absolute for every port if set, else scaled by port speed */
	u64 kmin_bytes, kmax_bytes;
	u32 pmax_ppm;	/* marking probability at Kmax, parts/10^6 */
	bool ecn_set;	/* --kmin-kb/--kmax-kb/--pmax-pct given */
	u64 buffer_bytes;	/* each switch's shared buffer; 0: by speed */
	u32 alpha_shift;	/* dynamic threshold alpha = 1/2^shift */
	bool pfc;		/* lossless (PFC) or lossy */
	u64 rto_ps;	/* sender: retransmit timeout */
	u32 ack_every;	/* receiver: ACK every N packets (and the last) */
	bool mark_on_dequeue;
	u64 cnp_gap_ps;	/* receiver: min time between CNPs per QP */
	u64 duration_ps;
	u64 sample_ps;
	u64 seed;
	u64 fair_from_ps;	/* SIM_NEVER: chosen from the flows */
	u64 fair_to_ps;
	u64 conv_window_ps;
	u32 conv_tol_pct;
	char watch[SIM_NAME_LEN];	/* host whose downlink is watched */
	/* fault injection and tracing, for the tests */
	u32 drop_flow[16], drop_psn[16];
	unsigned int ndrops;
	u32 trace_flow;	/* SIM_NONE: none */
	struct rcc_params rcc;
	struct dcqcn_params dcqcn;
	struct flow_spec *flows;
	unsigned int nflows;
	struct link_spec *links;
	unsigned int nlinks;
	char (*switches)[SIM_NAME_LEN];
	unsigned int nswitches;
	struct workload_spec workload;
	bool has_workload;
	struct topo *topo;	/* built by options_finish */
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
	bool active;		/* started, not stopped, not yet all acked */
	bool done;		/* every byte delivered (finite flows) */
	bool in_ready;	/* waiting in its host's ready ring */
	bool tx_pending;	/* an EV_TX is scheduled for it */
	bool rto_pending;
	u64 rate_bps;	/* the rate the controller last gave */
	u32 npkts;		/* 0: a long flow */
	u32 snd_nxt, snd_una, snd_max;	/* PSNs: next, oldest unacked, highest */
	u32 rcv_nxt;	/* receiver: expected PSN */
	bool nak_sent;	/* receiver: a NAK for rcv_nxt is out */
	u32 hash;		/* ECMP hash of the flow's 5-tuple */
	u64 sent_bytes;
	u64 last_tx_ps;
	u32 last_tx_bits;
	u64 next_tx_ps;	/* the pacer lets the next packet go */
	u32 tx_gen;	/* invalidates stale transmit events */
	u32 timer_gen;	/* invalidates stale controller timers */
	u64 timer_ps;	/* the controller timer now scheduled */
	u64 progress_ps;	/* last time snd_una moved (for the RTO) */
	u64 last_cnp_ps;	/* receiver side: last CNP sent for it */
	bool cnp_sent;
	u64 delivered_bytes;
	u64 sample_bytes;	/* delivered since the last sample */
	u64 dropped, retransmits, timeouts;
	u64 cnps;
	u64 finish_ps;	/* when its last byte arrived */
	u64 fair_bytes;	/* delivered inside the fairness window */
};

/* A FIFO of packets (grows as needed). */
struct pktq {
	struct pkt *ring;
	u32 cap, head, len;
};

#define PRIO_CTRL	0	/* ACK, NAK, CNP: strict priority, never paused */
#define PRIO_DATA	1	/* RoCE data: PFC-enabled, ECN-marked */

struct port {
	u32 node;		/* owner */
	u32 peer;		/* global id of the port at the link's other end */
	u64 bps;
	u64 prop_ps;
	/* egress */
	struct pktq q[2];
	u64 q_bytes[2];
	u64 busy_until;
	bool done_pending;	/* an EV_PORT_DONE is scheduled */
	bool paused;		/* data priority paused by the peer */
	u64 paused_since;
	u64 paused_ps;
	u64 kmin, kmax;
	u32 pmax_ppm;
	/* ingress (switch ports): bytes buffered that came in here */
	u64 ingress_bytes, hdrm_bytes, headroom;
	bool xoff_sent;	/* we paused the peer */
	u64 pauses;		/* XOFF frames we sent */
	u64 tx_data;	/* data packets sent */
	/* host ports: QPs with a packet the pacer lets go */
	u32 *ready;
	u32 ready_cap, ready_head, ready_len;
};

struct node {
	char name[SIM_NAME_LEN];
	bool is_switch;
	u32 first_port, nports;
	u32 host_idx;	/* hosts: index among hosts */
	/* switches: the shared buffer */
	u64 buffer, total_hdrm, total_rsrv, shared_used, used;
};

/* The built fabric: nodes, ports, routes (topo.c). */
struct topo {
	struct node *nodes;
	u32 nnodes;
	struct port *ports;	/* the template: rates, delays, thresholds */
	u32 nports;
	u32 *hosts;		/* node ids of the hosts */
	u32 nhosts;
	/* route[sw_idx * nhosts + host_idx]: candidates in route_ports */
	u32 *route_off, *route_cnt, *route_ports;
	u32 *sw_idx;	/* node id -> switch index, or SIM_NONE */
	u32 nsw;
	u32 watch_port;	/* the egress port the queue stats follow */
	u64 reserve;	/* per ingress port */
	u64 resume_offset;
};

struct stats;

struct sim {
	const struct sim_config *cfg;
	const struct topo *topo;
	enum rp_kind kind;
	u64 now;
	struct eventq evq;
	struct flow *flows;
	struct node *nodes;
	struct port *ports;
	unsigned int nactive;	/* flows with bytes left to send */
	u32 *starts;	/* flows in start order */
	u32 nstarts, next_start;
	u64 rng;
	/* totals */
	u64 pkts_sent, pkts_delivered, marks, drops, cnps, pauses;
	u64 retransmits, timeouts, acks, naks;
	u64 events;
	bool oom;
	struct stats *stats;
	FILE *csv;		/* time series, or NULL */
	FILE *fct_csv;	/* per-flow completion times, or NULL */
	FILE *trace;	/* the traced flow's sender events, or NULL */
	bool dropped_once[16];
};

const char *rp_kind_name(enum rp_kind kind);
int rp_kind_parse(const char *name, enum rp_kind *kind);

/* Build cfg->topo from the topology and flow options (topo.c). */
int topo_build(struct sim_config *cfg);
void topo_free(struct topo *t);
/* The egress port of switch @node toward host @host for ECMP hash @hash. */
u32 topo_route(const struct topo *t, u32 node, u32 host, u32 hash);
/* Ideal completion time of @bytes from @src to @dst on the empty fabric. */
u64 topo_ideal_fct_ps(const struct sim_config *cfg, u32 src, u32 dst,
		      u64 bytes, u32 hash);
/* Generate the workload's flows into cfg (topo.c). */
int workload_generate(struct sim_config *cfg);

/* Run one reaction point over the whole configuration. */
int sim_run(struct sim *s, const struct sim_config *cfg, enum rp_kind kind,
	    FILE *csv, FILE *fct_csv, FILE *trace);
/* Every port's figures: node,port,peer,gbps,tx_data,pauses_sent,paused_us */
void sim_write_ports(const struct sim *s, FILE *out);
void sim_free(struct sim *s);

/* The reaction points (rp.c). */
void rp_start(struct sim *s, struct flow *f);
void rp_cnp(struct sim *s, struct flow *f);
void rp_sent(struct sim *s, struct flow *f, u32 bytes);
void rp_timer(struct sim *s, struct flow *f);
u64 rp_rate_bps(const struct sim *s, const struct flow *f);
u64 rp_next_timer_ps(const struct sim *s, const struct flow *f);

#endif /* RCC_SIM_H */
