// SPDX-License-Identifier: GPL-2.0
/*
 * rdma-cc-replay - run rdma_cc's rate loop over a scripted trace, no kernel.
 *
 *	rdma-cc-replay --data_rate_mbps=N [--NAME=VALUE ...] < trace > runs.csv
 *
 * The loop is rdma_cc/rate_loop.c, the very file the module compiles.  The
 * trace has one event per line, times in ns never decreasing:
 *	T cnp		one CNP at time T
 *	T tx N		N packets sent at time T
 *	T end		stop: runs due at or before T happen, no later one
 * '#' starts a comment; blank lines are ignored.  Without an "end" line the
 * replay stops after the runs due at or before the last event's time.
 *
 * The whole trace is read and checked before anything runs, so a malformed
 * line (named by its number) leaves no partial output.  Bad options and bad
 * lines exit with status 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "rate_loop.h"
#include "replay.h"

static const char *prog = "rdma-cc-replay";

static void print_usage(FILE *f)
{
	int id;

	fprintf(f, "usage: %s --data_rate_mbps=N [--NAME=VALUE ...] < trace > runs.csv\n\n"
		"Trace lines: 'T cnp', 'T tx N', 'T end' (T in ns, never decreasing);\n"
		"'#' starts a comment.  Options (sysfs names and units):\n", prog);
	for (id = 0; id < RCC_NR_PARAMS; id++) {
		const struct rcc_param_desc *d = &rcc_param_descs[id];

		fprintf(f, "  --%s=%u .. %u (%s, default %u)\n      %s\n",
			d->name, id == RCC_DATA_RATE_MBPS ? 1 : d->min, d->max,
			d->unit, d->def, d->help);
	}
	fprintf(f, "  --data_rate_mbps is required: there is no device.\n");
	fprintf(f, "  --cc=dcqcn replays DCQCN instead (--cc=dcqcn --help).\n");
}

__noreturn __printf(1, 2) void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

static void parse_option(struct rcc_params *p, bool *have_rate,
			 const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[64];
	size_t len;
	u32 v;
	int id;

	if (strncmp(arg, "--", 2) || !eq)
		fail("bad argument '%s': expected --NAME=VALUE (see --help)",
		     arg);
	len = (size_t)(eq - arg - 2);
	if (len >= sizeof(name))
		fail("unknown option '%.*s' (see --help)", (int)(eq - arg), arg);
	memcpy(name, arg + 2, len);
	name[len] = '\0';
	id = rcc_param_lookup(name);
	if (id < 0)
		fail("unknown option --%s (see --help)", name);

	const struct rcc_param_desc *d = &rcc_param_descs[id];
	u32 min = id == RCC_DATA_RATE_MBPS ? 1 : d->min;

	if (rcc_parse_u32(eq + 1, &v) || strchr(eq + 1, '\n'))
		fail("--%s=%s: not a whole number (valid: %u .. %u %s)",
		     name, eq + 1, min, d->max, d->unit);
	if (v < min || !rcc_param_in_range(id, v))
		fail("--%s=%s: out of range (valid: %u .. %u %s)",
		     name, eq + 1, min, d->max, d->unit);
	rcc_param_set(p, id, v);
	if (id == RCC_DATA_RATE_MBPS)
		*have_rate = true;
}

/* A whole number of at most 20 digits that fits a u64, or false. */
static bool parse_u64(const char *s, u64 *out)
{
	u64 v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (d > 9 || v > (~0ULL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static void push_event(struct trace *tr, struct event ev)
{
	if (tr->len == tr->cap) {
		tr->cap = tr->cap ? tr->cap * 2 : 4096;
		tr->ev = realloc(tr->ev, tr->cap * sizeof(*tr->ev));
		if (!tr->ev)
			fail("out of memory reading the trace");
	}
	tr->ev[tr->len++] = ev;
}

/* Split @line into at most @max words; returns the count, or max + 1. */
static int split_words(char *line, char **words, int max)
{
	int n = 0;
	char *tok;

	for (tok = strtok(line, " \t\r\v\f\n"); tok;
	     tok = strtok(NULL, " \t\r\v\f\n")) {
		if (n == max)
			return max + 1;
		words[n++] = tok;
	}
	return n;
}

void read_trace(FILE *in, struct trace *tr)
{
	char *line = NULL, *words[3], *hash;
	size_t cap = 0;
	unsigned long lineno = 0;
	u64 last_t = 0;
	int n;

	while (getline(&line, &cap, in) != -1) {
		struct event ev = { 0 };

		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		n = split_words(line, words, 3);
		if (n == 0)
			continue;
		if (!parse_u64(words[0], &ev.t_ns))
			fail("line %lu: malformed: '%s' is not a time in ns",
			     lineno, words[0]);
		if (n == 2 && !strcmp(words[1], "cnp")) {
			ev.kind = EV_CNP;
		} else if (n == 2 && !strcmp(words[1], "end")) {
			ev.kind = EV_END;
		} else if (n == 3 && !strcmp(words[1], "tx")) {
			ev.kind = EV_TX;
			if (!parse_u64(words[2], &ev.npkts))
				fail("line %lu: malformed: '%s' is not a packet count",
				     lineno, words[2]);
		} else {
			fail("line %lu: malformed: expected 'T cnp', 'T tx N' or 'T end'",
			     lineno);
		}
		if (ev.t_ns < last_t)
			fail("line %lu: time %llu is before the previous event's %llu",
			     lineno, (unsigned long long)ev.t_ns,
			     (unsigned long long)last_t);
		last_t = ev.t_ns;
		push_event(tr, ev);
		if (ev.kind == EV_END)
			break;
	}
	if (ferror(in))
		fail("reading the trace: %s", strerror(errno));
	free(line);
}

static void print_run(const struct rcc_report *r)
{
	/* the estimate to 6 decimal places, rounded to nearest */
	u64 micro = rcc_estimate_micro(r->estimate);

	printf("%llu,%s,%u,%llu,%llu.%06llu,%llu,%llu,%d,%s,%d\n",
	       (unsigned long long)r->t_ns, rcc_half_name(r->half), r->cnp,
	       (unsigned long long)r->pkts,
	       (unsigned long long)(micro / 1000000),
	       (unsigned long long)(micro % 1000000),
	       (unsigned long long)r->current_bps,
	       (unsigned long long)r->target_bps, r->recovery,
	       rcc_action_name(r->action), r->congested);
}

static void print_run_cb(void *ctx, const struct rcc_report *rep)
{
	(void)ctx;
	print_run(rep);
}

static void replay(const struct trace *tr, const struct rcc_params *p)
{
	u64 rate = rcc_line_rate_bps(p, 0);
	struct rcc_qp qp;
	size_t i;

	rcc_qp_init(&qp, rate);
	puts("t_ns,half,cnp,pkts,estimate,current_bps,target_bps,recovery,action,congested");
	for (i = 0; i < tr->len; i++) {
		const struct event *ev = &tr->ev[i];
		struct rcc_event cev = { .t_ns = ev->t_ns, .npkts = ev->npkts };

		if (ev->kind == EV_END)
			break;
		cev.kind = ev->kind == EV_CNP ? RCC_EV_CNP : RCC_EV_TX;
		rcc_event(&qp, p, rate, &cev, print_run_cb, NULL);
	}
	/* runs due at or before the end (or the last event's time) happen */
	if (tr->len)
		rcc_advance(&qp, p, rate, tr->ev[tr->len - 1].t_ns,
			    print_run_cb, NULL);
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	struct trace tr = { 0 };
	struct rcc_params p;
	bool have_rate = false;
	int i;

	if (replay_cc_is_dcqcn(argc, argv))
		return replay_dcqcn_main(argc, argv);
	rcc_params_default(&p);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_usage(stdout);
			return 0;
		}
		if (!strncmp(argv[i], "--cc=", 5))
			continue;	/* checked by replay_cc_is_dcqcn() */
		parse_option(&p, &have_rate, argv[i]);
	}
	if (!have_rate)
		fail("--data_rate_mbps is required (valid: 1 .. %u Mbit/s): there is no device",
		     rcc_param_descs[RCC_DATA_RATE_MBPS].max);

	read_trace(stdin, &tr);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	replay(&tr, &p);
	free(tr.ev);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: writing the output: %s\n", prog,
			strerror(errno));
		return 1;
	}
	return 0;
}
