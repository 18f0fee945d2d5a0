/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - what a run measured: the queue's time-weighted distribution,
 * link utilisation while there is demand, fairness, convergence to fair
 * share after the last join, flow completion times, and the CSV time series.
 */
#ifndef RCC_SIM_STATS_H
#define RCC_SIM_STATS_H

#include <stdint.h>

struct sim;

struct summary {
	double util_pct;	/* egress busy / time with demand */
	double q_p50_kb, q_p99_kb, q_max_kb;
	u64 drops, marks, cnps, pkts;
	double jain;		/* < 0: fewer than two long flows */
	double converge_us;	/* < 0: never; NaN: no join to measure */
	double fct_mean_us, fct_p99_us;	/* NaN: no finite flows */
	u64 unfinished;	/* finite flows not done by the end */
	double goodput_gbps;	/* delivered over the run */
	u64 events;
};

int stats_init(struct sim *s);
void stats_free(struct sim *s);
/* Call before s->q_bytes or the demand changes. */
void stats_account(struct sim *s);
void stats_port_busy(struct sim *s, u64 busy_ps);
/* A long flow started or stopped: a new convergence epoch. */
void stats_long_flows_changed(struct sim *s);
void stats_sample(struct sim *s);
void stats_csv_header(struct sim *s);
void stats_summary(struct sim *s, struct summary *out);

#endif /* RCC_SIM_STATS_H */
