/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - what a run measured: the watched egress queue's time-weighted
 * distribution, that port's utilisation while there is demand, fairness,
 * convergence to fair share after the last join, flow completion times and
 * their slowdown, PFC pauses, retransmissions, and the CSV time series.
 */
#ifndef RCC_SIM_STATS_H
#define RCC_SIM_STATS_H

#include <stdint.h>

struct sim;
struct flow;

struct summary {
	double util_pct;	/* watched port busy / time with demand */
	double q_p50_kb, q_p99_kb, q_max_kb;
	u64 drops, marks, cnps, pkts;
	u64 pauses, retransmits, timeouts;
	double jain;		/* < 0: fewer than two long flows */
	double converge_us;	/* < 0: never; NaN: no join to measure */
	double fct_mean_us, fct_p99_us;	/* NaN: no finite flows */
	double slow_p50, slow_p99;	/* FCT / ideal FCT; NaN: none */
	u64 unfinished;	/* finite flows not done by the end */
	double goodput_gbps;	/* delivered over the run */
	double victim_gbps;	/* NaN: no victim flow */
	u64 events;
};

int stats_init(struct sim *s);
void stats_free(struct sim *s);
/* Call before the watched queue or the demand changes. */
void stats_account(struct sim *s);
void stats_port_busy(struct sim *s, u64 busy_ps);
/* A long flow started or stopped: a new convergence epoch. */
void stats_long_flows_changed(struct sim *s);
/* A finite flow's last byte arrived. */
void stats_flow_done(struct sim *s, const struct flow *f);
void stats_sample(struct sim *s);
void stats_csv_header(struct sim *s);
void stats_summary(struct sim *s, struct summary *out);

#endif /* RCC_SIM_STATS_H */
