// SPDX-License-Identifier: GPL-2.0
/*
 * core_test.c - the core's C API, tested directly in user space: the
 * parameter table and its strict parser, line-rate resolution, counter
 * saturation and the report's flags.  Prints "ok NAME" / "not ok NAME".
 */
#include <stdio.h>
#include <string.h>

#include "rate_loop.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int failures;
static int this_failed;

#define EXPECT(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("#   %s:%d: %s\n", __FILE__, __LINE__, #cond); \
			this_failed = 1;				\
		}							\
	} while (0)

static void run_case(const char *name, void (*fn)(void))
{
	this_failed = 0;
	fn();
	printf("%s core/c_%s\n", this_failed ? "not ok" : "ok", name);
	failures += this_failed;
}

static void defaults_match_the_spec(void)
{
	struct rcc_params p;

	rcc_params_default(&p);
	EXPECT(p.data_rate_mbps == 0);
	EXPECT(p.control_interval_ns == 45000);
	EXPECT(p.initial_congestion_estimate == 1024);
	EXPECT(p.fast_recovery_attempt == 5);
	EXPECT(p.num_control_loops_per_increase == 5);
	EXPECT(p.initial_target_rate_percent == 90);
	EXPECT(p.number_active_increase_steps == 10);
	EXPECT(p.minimum_rate_percent == 10);
	EXPECT(p.line_rate_margin_mbps == 100);
	EXPECT(rcc_param_in_range(RCC_CONGESTION_PROBABILITY_WEIGHT,
				  p.congestion_probability_weight));
}

static void table_names_and_ranges(void)
{
	static const struct { const char *name; u32 min, max; } want[] = {
		{ "data_rate_mbps", 0, 10000000 },
		{ "control_interval_ns", 2000, 100000000 },
		{ "congestion_probability_weight", 1, 1024 },
		{ "initial_congestion_estimate", 0, 1024 },
		{ "fast_recovery_attempt", 0, 64 },
		{ "num_control_loops_per_increase", 0, 1000 },
		{ "initial_target_rate_percent", 0, 100 },
		{ "number_active_increase_steps", 1, 1000 },
		{ "minimum_rate_percent", 1, 100 },
		{ "line_rate_margin_mbps", 0, 10000000 },
	};
	unsigned int i;

	EXPECT(ARRAY_SIZE(want) == RCC_NR_PARAMS);
	for (i = 0; i < RCC_NR_PARAMS; i++) {
		int id = rcc_param_lookup(want[i].name);

		EXPECT(id == (int)i);
		if (id < 0)
			continue;
		EXPECT(rcc_param_descs[id].min == want[i].min);
		EXPECT(rcc_param_descs[id].max == want[i].max);
		EXPECT(rcc_param_descs[id].def >= want[i].min);
		EXPECT(rcc_param_descs[id].def <= want[i].max);
	}
	EXPECT(rcc_param_lookup("no_such") == -EINVAL);
	EXPECT(rcc_param_lookup("") == -EINVAL);
}

static void parser_is_strict(void)
{
	static const char * const bad[] = {
		"", "\n", "-1", "+1", " 1", "1 ", "1\n\n", "0x10", "1e3", "1.0",
		"4294967296", "99999999999999999999999", "abc", "1a", "\t1",
	};
	unsigned int i;
	u32 v = 77;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT(rcc_parse_u32(bad[i], &v) == -EINVAL);
		EXPECT(v == 77);
	}
	EXPECT(rcc_parse_u32("4294967295", &v) == 0 && v == 4294967295U);
	EXPECT(rcc_parse_u32("007\n", &v) == 0 && v == 7);
	v = 77;
	EXPECT(rcc_param_parse(RCC_CONTROL_INTERVAL_NS, "1999", &v) == -EINVAL);
	EXPECT(rcc_param_parse(RCC_CONTROL_INTERVAL_NS, "100000001", &v) ==
	       -EINVAL);
	EXPECT(v == 77);
	EXPECT(rcc_param_parse(RCC_CONTROL_INTERVAL_NS, "2000\n", &v) == 0 &&
	       v == 2000);
}

static void line_rate_resolution(void)
{
	struct rcc_params p;

	rcc_params_default(&p);
	EXPECT(rcc_line_rate_bps(&p, 25000000000ULL) == 25000000000ULL);
	EXPECT(rcc_line_rate_bps(&p, ~0ULL) == 10000000ULL * 1000000ULL);
	p.data_rate_mbps = 400000;
	EXPECT(rcc_line_rate_bps(&p, 25000000000ULL) == 400000000000ULL);
}

/* The last run rcc_event() made, and how many it made. */
static struct rcc_report last_rep;
static unsigned int nr_reps;

static void keep_report(void *ctx, const struct rcc_report *rep)
{
	(void)ctx;
	last_rep = *rep;
	nr_reps++;
}

static bool ev_at(struct rcc_qp *qp, const struct rcc_params *p, u64 r,
		  enum rcc_event_kind kind, u64 t, u64 n)
{
	struct rcc_event ev = { .t_ns = t, .npkts = n, .kind = kind };

	return rcc_event(qp, p, r, &ev, keep_report, NULL);
}

#define cnp_at(qp, p, r, t)	ev_at(qp, p, r, RCC_EV_CNP, t, 0)
#define tx_at(qp, p, r, t, n)	ev_at(qp, p, r, RCC_EV_TX, t, n)

static void counters_saturate(void)
{
	struct rcc_params p;
	struct rcc_qp qp;

	rcc_params_default(&p);
	rcc_qp_init(&qp, 1000000000ULL);
	tx_at(&qp, &p, 1000000000ULL, 0, 5);
	EXPECT(qp.pkts == 0);		/* not congested: ignored */
	EXPECT(cnp_at(&qp, &p, 1000000000ULL, 10));
	/* run 0 cleared the counts; the same-time CNP comes after it */
	EXPECT(!cnp_at(&qp, &p, 1000000000ULL, 10));
	EXPECT(!cnp_at(&qp, &p, 1000000000ULL, 10));
	EXPECT(qp.cnp == 2);
	tx_at(&qp, &p, 1000000000ULL, 10, ~0ULL);
	tx_at(&qp, &p, 1000000000ULL, 10, 5);
	EXPECT(qp.pkts == ~0ULL);
	qp.cnp = ~0U;
	EXPECT(!cnp_at(&qp, &p, 1000000000ULL, 10));
	EXPECT(qp.cnp == ~0U);
}

static void report_flags_and_schedule(void)
{
	struct rcc_params p;
	struct rcc_report rep;
	struct rcc_qp qp;
	u64 r = 100000000000ULL;

	rcc_params_default(&p);
	p.minimum_rate_percent = 60;
	p.control_interval_ns = 3001;
	rcc_qp_init(&qp, r);
	nr_reps = 0;
	EXPECT(cnp_at(&qp, &p, r, 1000));
	EXPECT(nr_reps == 1 && last_rep.run == 0 && last_rep.t_ns == 1000);
	EXPECT(last_rep.action == RCC_ACT_FR_CUT && last_rep.floor_hit);
	EXPECT(last_rep.current_bps == 60000000000ULL);
	EXPECT(qp.next_run_ns == 1000 + 1500);
	EXPECT(rcc_run(&qp, &p, r, &rep));
	EXPECT(rep.half == RCC_HALF_INCREASE && !rep.floor_hit);
	EXPECT(qp.next_run_ns == 1000 + 3001);
	EXPECT(rcc_run(&qp, &p, r, &rep));
	EXPECT(qp.next_run_ns == 1000 + 3001 + 1500);
	EXPECT(!strcmp(rcc_action_name(RCC_ACT_AI_INC), "ai_inc"));
	EXPECT(!strcmp(rcc_half_name(RCC_HALF_REDUCE), "reduce"));
}

/*
 * The contract's 2026-12-04 change: N lowered during an episode from 1000
 * to 5 after 400 runs with a CNP in every half: h is then about 200, and
 * with "h == N + 1" increases would never come again; with h >= N + 1 the
 * next increase half under CNPs increases, then every sixth.
 */
static void lowering_n_mid_episode_resumes_increases(void)
{
	struct rcc_params p;
	struct rcc_qp qp;
	u64 r = 100000000000ULL, t = 0;
	unsigned int inc_after = 0, runs_after = 0;

	rcc_params_default(&p);
	p.num_control_loops_per_increase = 1000;
	p.control_interval_ns = 2000;
	rcc_qp_init(&qp, r);
	/* a CNP 1 ns after every run: every half sees one */
	cnp_at(&qp, &p, r, 0);
	for (t = 1; qp.run < 400; t += 1000)
		cnp_at(&qp, &p, r, t);
	EXPECT(qp.congested && qp.cnp_halves >= 190);
	p.num_control_loops_per_increase = 5;
	for (; runs_after < 60; t += 1000) {
		unsigned int before = nr_reps;

		cnp_at(&qp, &p, r, t);
		if (nr_reps == before)
			continue;
		runs_after += nr_reps - before;
		if (last_rep.half == RCC_HALF_INCREASE &&
		    last_rep.action != RCC_ACT_NONE)
			inc_after++;
	}
	/* the first increase half increases, then one in every six */
	EXPECT(inc_after >= 5);
	EXPECT(qp.congested);
}

/*
 * h and k are narrow fields (rate_loop.h): the table's bounds stay within
 * them, and at the largest N, h counts to N and the (N + 1)-th half with a
 * CNP increases, without wrapping.
 */
static void narrow_fields_hold_the_whole_range(void)
{
	const struct rcc_param_desc *dn =
		&rcc_param_descs[RCC_NUM_CONTROL_LOOPS_PER_INCREASE];
	const struct rcc_param_desc *df =
		&rcc_param_descs[RCC_FAST_RECOVERY_ATTEMPT];
	struct rcc_params p;
	struct rcc_qp qp;
	u64 r = 100000000000ULL, t;
	unsigned int max_h = 0, incs = 0;

	EXPECT(dn->max + 1 <= 0xffff);
	EXPECT(df->max <= 127);
	rcc_params_default(&p);
	p.num_control_loops_per_increase = dn->max;
	p.fast_recovery_attempt = df->max;
	p.control_interval_ns = 2000;
	rcc_qp_init(&qp, r);
	/* a CNP after every run: every increase half sees one */
	cnp_at(&qp, &p, r, 0);
	for (t = 1; qp.run < 2 * (dn->max + 1) + 2; t += 1000) {
		unsigned int before = nr_reps;

		cnp_at(&qp, &p, r, t);
		if (qp.cnp_halves > max_h)
			max_h = qp.cnp_halves;
		if (nr_reps != before && last_rep.half == RCC_HALF_INCREASE &&
		    last_rep.action != RCC_ACT_NONE)
			incs++;
	}
	/* h went to N (the (N + 1)-th half increases and resets it) */
	EXPECT(max_h == dn->max);
	EXPECT(incs == 1);
	/* k counts only while below F: F's bound keeps it in an s8 */
}

int main(void)
{
	run_case("defaults_match_the_spec", defaults_match_the_spec);
	run_case("table_names_and_ranges", table_names_and_ranges);
	run_case("parser_is_strict", parser_is_strict);
	run_case("line_rate_resolution", line_rate_resolution);
	run_case("counters_saturate", counters_saturate);
	run_case("report_flags_and_schedule", report_flags_and_schedule);
	run_case("lowering_n_mid_episode_resumes_increases",
		 lowering_n_mid_episode_resumes_increases);
	run_case("narrow_fields_hold_the_whole_range",
		 narrow_fields_hold_the_whole_range);
	return 0;
}
