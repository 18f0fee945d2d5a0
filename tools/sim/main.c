// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - rdma-cc-sim: run one scenario once per reaction point (rdma_cc,
 * DCQCN, none) and print the summary side by side; optionally write each
 * run's time series as CSV.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "options.h"
#include "stats.h"

struct result {
	enum rp_kind kind;
	char label[24];		/* rdma_cc, dcqcn, dcqcn-PRESET, none */
	struct summary sum;
	double wall_s, cpu_s;
};

/* This process's CPU time: the speed on one core, whatever the load. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_one(const struct sim_options *o, const struct sim_config *cfg,
		   enum rp_kind kind, const char *label, struct result *r)
{
	struct sim s;
	FILE *csv = NULL, *fct = NULL, *trace = NULL, *ports = NULL;
	double t0, c0;
	int rc;

	if (o->out_dir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s-%s.csv", o->out_dir,
			 o->name, label);
		csv = fopen(path, "w");
		if (!csv) {
			perror(path);
			return -1;
		}
		snprintf(path, sizeof(path), "%s/%s-%s-fct.csv", o->out_dir,
			 o->name, label);
		fct = fopen(path, "w");
		if (!fct) {
			perror(path);
			fclose(csv);
			return -1;
		}
		fprintf(fct, "flow,src,dst,bytes,start_us,fct_us,ideal_us,slowdown\n");
		snprintf(path, sizeof(path), "%s/%s-%s-ports.csv", o->out_dir,
			 o->name, label);
		ports = fopen(path, "w");
		if (o->cfg.trace_flow != SIM_NONE) {
			snprintf(path, sizeof(path), "%s/%s-%s-trace.csv",
				 o->out_dir, o->name, label);
			trace = fopen(path, "w");
			if (trace)
				fprintf(trace, "t_us,event,psn,kind\n");
		}
		if (!ports || (o->cfg.trace_flow != SIM_NONE && !trace)) {
			perror(path);
			return -1;
		}
	}
	t0 = wall_now();
	c0 = cpu_now();
	rc = sim_run(&s, cfg, kind, csv, fct, trace);
	if (!rc)
		stats_summary(&s, &r->sum);
	if (!rc && ports)
		sim_write_ports(&s, ports);
	r->wall_s = wall_now() - t0;
	r->cpu_s = cpu_now() - c0;
	r->kind = kind;
	snprintf(r->label, sizeof(r->label), "%s", label);
	sim_free(&s);
	if (csv && fclose(csv))
		rc = -1;
	if (fct && fclose(fct))
		rc = -1;
	if (ports && fclose(ports))
		rc = -1;
	if (trace && fclose(trace))
		rc = -1;
	if (rc)
		fprintf(stderr, "rdma-cc-sim: %s: out of memory or I/O error\n",
			label);
	return rc;
}

static void fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

static void fmt_converge(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v < 0)
		snprintf(buf, len, "never");
	else
		snprintf(buf, len, "%.0f", v);
}

#define NMETRICS 20

static const char * const metric_names[NMETRICS] = {
	"util_pct", "queue_p50_kb", "queue_p99_kb", "queue_max_kb", "drops",
	"marks", "cnps", "jain", "converge_us", "fct_mean_us", "fct_p99_us",
	"unfinished", "goodput_gbps", "pkts", "pfc_pauses", "retransmits",
	"timeouts", "fct_slowdown_p50", "fct_slowdown_p99", "victim_gbps",
};

static void metric(const struct sim_options *o, const struct summary *m,
		   int i, char *b, size_t n)
{
	const double real[NMETRICS] = {
		m->util_pct, m->q_p50_kb, m->q_p99_kb, m->q_max_kb, 0, 0, 0,
		m->jain < 0 ? NAN : m->jain, 0, m->fct_mean_us, m->fct_p99_us,
		0, m->goodput_gbps, 0, 0, 0, 0, m->slow_p50, m->slow_p99,
		m->victim_gbps,
	};
	const unsigned long long count[NMETRICS] = {
		0, 0, 0, 0, m->drops, m->marks, m->cnps, 0, 0, 0, 0,
		m->unfinished, 0, m->pkts, m->pauses, m->retransmits,
		m->timeouts,
	};
	static const char * const fmt[NMETRICS] = {
		"%.1f", "%.0f", "%.0f", "%.0f", NULL, NULL, NULL, "%.3f", NULL,
		"%.1f", "%.1f", NULL, "%.1f", NULL, NULL, NULL, NULL, "%.2f",
		"%.2f", "%.2f",
	};

	if (i == 8)
		fmt_converge(b, n, m->converge_us);
	else if (i == 14 && !o->cfg.pfc)
		snprintf(b, n, "-");
	else if (fmt[i])
		fmt_num(b, n, real[i], fmt[i]);
	else
		snprintf(b, n, "%llu", count[i]);
}

static void print_text(const struct sim_options *o, const struct result *r,
		       int n)
{
	char b[64];
	int i, k;

	printf("scenario %s: %u flows, %u hosts, %u switches, %s, %.0f us\n",
	       o->name, o->cfg.nflows, o->cfg.topo->nhosts, o->cfg.topo->nsw,
	       o->cfg.pfc ? "lossless (PFC)" : "lossy",
	       (double)o->cfg.duration_ps / PS_PER_US);
	printf("%-14s", "metric");
	for (k = 0; k < n; k++)
		printf(" %12s", r[k].label);
	putchar('\n');
	for (i = 0; i < NMETRICS; i++) {
		printf("%-14s", metric_names[i]);
		for (k = 0; k < n; k++) {
			metric(o, &r[k].sum, i, b, sizeof(b));
			printf(" %12s", b);
		}
		putchar('\n');
	}
}

static void print_csv(const struct sim_options *o, const struct result *r,
		      int n)
{
	char b[64];
	int i, k;

	if (o->header) {
		printf("scenario,cc");
		for (i = 0; i < NMETRICS; i++)
			printf(",%s", metric_names[i]);
		putchar('\n');
	}
	for (k = 0; k < n; k++) {
		printf("%s,%s", o->name, r[k].label);
		for (i = 0; i < NMETRICS; i++) {
			metric(o, &r[k].sum, i, b, sizeof(b));
			printf(",%s", b);
		}
		putchar('\n');
	}
}

/* The parameters a run would use, as NAME=VALUE lines. */
static void show_params(const struct sim_options *o)
{
	int i;

	for (i = 0; i < RCC_NR_PARAMS; i++)
		printf("%s=%u\n", rcc_param_descs[i].name,
		       rcc_param_get(&o->cfg.rcc, i));
	for (i = 0; i < DCQCN_NR_PARAMS; i++)
		printf("dcqcn-%s=%u\n", dcqcn_param_descs[i].name,
		       o->cfg.dcqcn.v[i]);
}

int main(int argc, char **argv)
{
	struct sim_options o;
	struct result r[RP_NR_KINDS + DCQCN_NR_PRESETS];
	struct sim_config pc;
	int i, n = 0, k;

	options_default(&o);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			options_usage(stdout);
			return 0;
		}
		if (options_parse_arg(&o, argv[i], 0))
			return 2;
	}
	if (o.show_params) {
		show_params(&o);
		return 0;
	}
	if (options_finish(&o))
		return 2;
	if (o.dump_flows) {
		FILE *fp = fopen(o.dump_flows, "w");
		const struct topo *t = o.cfg.topo;
		unsigned int f;

		if (!fp) {
			perror(o.dump_flows);
			return 1;
		}
		for (f = 0; f < o.cfg.nflows; f++)
			fprintf(fp, "%u %u %llu %llu\n",
				t->nodes[o.cfg.flows[f].src].host_idx,
				t->nodes[o.cfg.flows[f].dst].host_idx,
				(unsigned long long)o.cfg.flows[f].bytes,
				(unsigned long long)o.cfg.flows[f].start_ps);
		if (fclose(fp)) {
			perror(o.dump_flows);
			return 1;
		}
	}
	/* rdma_cc, dcqcn, dcqcn-PRESET..., none: the same flows and seed */
	for (k = 0; k < RP_NR_KINDS + DCQCN_NR_PRESETS; k++) {
		const struct sim_config *cfg = &o.cfg;
		enum rp_kind kind;
		char label[24];

		if (k <= RP_DCQCN) {
			kind = k;
			if (!o.run[k])
				continue;
			snprintf(label, sizeof(label), "%s", rp_kind_name(kind));
		} else if (k < RP_DCQCN + 1 + DCQCN_NR_PRESETS) {
			int p = k - RP_DCQCN - 1;
			char err[128];

			kind = RP_DCQCN;
			if (!(o.dcqcn_presets & (1u << p)))
				continue;
			pc = o.cfg;
			if (dcqcn_param_parse(&pc.dcqcn, "preset",
					      dcqcn_preset_names[p], err,
					      sizeof(err)))
				return 1;
			dcqcn_resolve(&pc.dcqcn, pc.host_bps);
			cfg = &pc;
			snprintf(label, sizeof(label), "dcqcn-%s",
				 dcqcn_preset_names[p]);
		} else {
			kind = RP_NONE;
			if (!o.run[RP_NONE])
				continue;
			snprintf(label, sizeof(label), "none");
		}
		if (run_one(&o, cfg, kind, label, &r[n]))
			return 1;
		if (o.speed)
			fprintf(stderr,
				"speed %s %s: %llu packets, %llu events, %.3f s wall, %.0f packets/s, %.3f s CPU, %.0f packets/CPU s\n",
				o.name, label,
				(unsigned long long)r[n].sum.pkts,
				(unsigned long long)r[n].sum.events,
				r[n].wall_s, r[n].sum.pkts / r[n].wall_s,
				r[n].cpu_s, r[n].sum.pkts / r[n].cpu_s);
		n++;
	}
	if (o.csv_summary)
		print_csv(&o, r, n);
	else
		print_text(&o, r, n);
	return 0;
}
