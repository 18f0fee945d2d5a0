// SPDX-License-Identifier: GPL-2.0
/*
 * replay_dcqcn.c - rdma-cc-replay --cc=dcqcn: DCQCN's reaction point
 * (rdma_cc/dcqcn.c, the module's and the simulator's) over a scripted trace.
 *
 *	rdma-cc-replay --cc=dcqcn [--dcqcn-preset=mlx5|paper|hpcc]
 *		[--dcqcn-NAME=V ...] [--mtu=BYTES] --data_rate_mbps=R
 *		< trace > events.csv
 *
 * The trace is rdma_cc's (read by replay.c's reader); "T tx N" counts N
 * packets of --mtu bytes for a preset with a byte counter.  One line per
 * rate event, "t_ns,event,current_bps,target_bps,alpha": the rates after
 * the event in whole bit/s, alpha to 6 decimals.  Timers run from the first
 * CNP until the end: those due at or before the end time happen; a trace
 * event at a timer's time is applied before it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcqcn.h"
#include "params.h"
#include "replay.h"

#define MTU_DEFAULT	4096
#define MTU_MAX		65536

struct dcqcn_replay {
	struct dcqcn_params p;
	u32 rate_mbps;
	u32 mtu;
};

static void print_usage(void)
{
	int i;

	printf("usage: rdma-cc-replay --cc=dcqcn [--dcqcn-preset=mlx5|paper|hpcc]\n"
	       "       [--dcqcn-NAME=V ...] [--mtu=BYTES] --data_rate_mbps=R\n"
	       "       < trace > events.csv\n\n"
	       "Output: t_ns,event,current_bps,target_bps,alpha; events first_cnp, cut,\n"
	       "fast_recovery, active_increase, hyper_increase.  The preset's knobs\n"
	       "(mlx5 sysfs names and units; --dcqcn-NAME=V overrides one):\n");
	for (i = 0; i < DCQCN_NR_PARAMS; i++) {
		const struct dcqcn_param_desc *d = &dcqcn_param_descs[i];

		printf("  --dcqcn-%s=%u .. %u (%s; mlx5 %u, paper %u, hpcc %u)\n",
		       d->name, d->min, d->max, d->unit,
		       dcqcn_preset_value(DCQCN_PRESET_MLX5, i),
		       dcqcn_preset_value(DCQCN_PRESET_PAPER, i),
		       dcqcn_preset_value(DCQCN_PRESET_HPCC, i));
	}
	printf("  --mtu=1 .. %u (bytes a packet of 'T tx N' counts, default %u)\n"
	       "  --data_rate_mbps=1 .. %u (R, Mbit/s) is required\n",
	       MTU_MAX, MTU_DEFAULT, rcc_param_descs[RCC_DATA_RATE_MBPS].max);
}

bool replay_cc_is_dcqcn(int argc, char **argv)
{
	bool dcqcn = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--cc=", 5))
			continue;
		if (!strcmp(argv[i] + 5, "dcqcn"))
			dcqcn = true;
		else if (!strcmp(argv[i] + 5, "rdma_cc"))
			dcqcn = false;
		else
			fail("%s: unknown reaction point (valid: rdma_cc, dcqcn)",
			     argv[i]);
	}
	return dcqcn;
}

/* A whole number @min .. @max, or fail() naming @arg. */
static u32 parse_whole(const char *arg, const char *s, u32 min, u32 max,
		       const char *unit)
{
	u64 v = 0;
	const char *c;

	for (c = s; *c >= '0' && *c <= '9' && v <= max; c++)
		v = v * 10 + (u64)(*c - '0');
	if (!*s || *c || v < min || v > max)
		fail("%s: expected a whole number %u .. %u (%s)", arg, min, max,
		     unit);
	return (u32)v;
}

static void parse_options(struct dcqcn_replay *r, int argc, char **argv)
{
	u32 rate_max = rcc_param_descs[RCC_DATA_RATE_MBPS].max;
	char err[160];
	int i;

	dcqcn_params_default(&r->p);
	r->mtu = MTU_DEFAULT;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');

		if (!strncmp(a, "--cc=", 5))
			continue;
		if (!strncmp(a, "--data_rate_mbps=", 17)) {
			r->rate_mbps = parse_whole(a, a + 17, 1, rate_max, "Mbit/s");
		} else if (!strncmp(a, "--mtu=", 6)) {
			r->mtu = parse_whole(a, a + 6, 1, MTU_MAX, "bytes");
		} else if (!strncmp(a, "--dcqcn-", 8) && eq) {
			char name[64];
			size_t len = (size_t)(eq - a - 8);
			int rc;

			if (len >= sizeof(name))
				fail("%s: unknown option (see --cc=dcqcn --help)", a);
			memcpy(name, a + 8, len);
			name[len] = '\0';
			rc = dcqcn_param_parse(&r->p, name, eq + 1, err,
					       sizeof(err));
			if (rc == -ENOENT)
				fail("%s: unknown option (see --cc=dcqcn --help)", a);
			if (rc)
				fail("%s: %s", a, err);
		} else {
			fail("%s: unknown option for --cc=dcqcn (see --cc=dcqcn --help)",
			     a);
		}
	}
	if (!r->rate_mbps)
		fail("--data_rate_mbps is required (valid: 1 .. %u Mbit/s): there is no device",
		     rate_max);
	dcqcn_resolve(&r->p, (u64)r->rate_mbps * 1000000);
}

static void print_event(void *ctx, const struct dcqcn_event *ev)
{
	(void)ctx;
	printf("%llu,%s,%llu,%llu,%.6f\n", (unsigned long long)ev->t_ns,
	       dcqcn_event_name(ev->kind), (unsigned long long)ev->rc,
	       (unsigned long long)ev->rt, dcqcn_frac_double(ev->alpha));
}

static void replay(const struct trace *tr, const struct dcqcn_replay *r)
{
	const struct dcqcn_cfg *c = &r->p.cfg;
	const struct dcqcn_sink sink = { print_event, NULL };
	struct dcqcn_qp q;
	size_t i;

	dcqcn_init(&q, c);
	puts("t_ns,event,current_bps,target_bps,alpha");
	for (i = 0; i < tr->len; i++) {
		const struct event *ev = &tr->ev[i];

		/* a trace event at a timer's time is applied before it */
		dcqcn_run(&q, c, ev->t_ns, false, &sink);
		switch (ev->kind) {
		case EV_CNP:
			dcqcn_cnp(&q, c, ev->t_ns, &sink);
			break;
		case EV_TX:
			dcqcn_tx(&q, c, ev->npkts > ~0ULL / r->mtu ? ~0ULL :
				 ev->npkts * r->mtu, ev->t_ns, &sink);
			break;
		case EV_END:
			break;
		}
	}
	if (tr->len)
		dcqcn_run(&q, c, tr->ev[tr->len - 1].t_ns, true, &sink);
}

int replay_dcqcn_main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	struct dcqcn_replay r = { 0 };
	struct trace tr = { 0 };
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_usage();
			return 0;
		}
	}
	parse_options(&r, argc, argv);
	read_trace(stdin, &tr);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	replay(&tr, &r);
	free(tr.ev);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "rdma-cc-replay: writing the output: %s\n",
			strerror(errno));
		return 1;
	}
	return 0;
}
