// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_test.c - the DCQCN presets resolved to the machine's settings, each
 * against the value Documentation/sim/dcqcn.rst cites, and the C interface
 * the simulator uses (no sink, next timer, overrides, bad values).  The
 * rules themselves are tested through the replay tool
 * (tools/tests/test_dcqcn.py).  Prints "ok NAME" / "not ok NAME".
 */
#include <errno.h>
#include <stdio.h>

#include "dcqcn.h"

static int failed;

static void check(const char *name, int cond)
{
	printf("%sok dcqcn-c/%s\n", cond ? "" : "not ", name);
	failed |= !cond;
}

static void preset(struct dcqcn_params *p, const char *name, u64 line_bps)
{
	char err[160];

	dcqcn_params_default(p);
	if (dcqcn_param_parse(p, "preset", name, err, sizeof(err)))
		printf("not ok dcqcn-c/select-%s: %s\n", name, err);
	dcqcn_resolve(p, line_bps);
}

static void test_presets(void)
{
	struct dcqcn_params p;
	const struct dcqcn_cfg *c = &p.cfg;

	/*
	 * run.py "dcqcn" at 100 Gbit/s: 1, 4, 300 us; g 1/256; F 1;
	 * 1000 Mb/s floor; AI 5 x 100/25 = 20, HAI 200 Mbit/s
	 */
	preset(&p, "hpcc", 100000000000ULL);
	check("hpcc-timing", c->alpha_ns == 1000 && c->dec_ns == 4000 &&
	      c->inc_ns == 300000);
	check("hpcc-g-is-1/256", dcqcn_frac_double(c->g_add) == 0.00390625 &&
	      dcqcn_frac_double(c->g_keep) == 1 - 0.00390625 && c->g == 1020);
	check("hpcc-ai-hai-min", c->ai_bps == 20000000 &&
	      c->hai_bps == 200000000 && c->min_bps == 1000000000);
	check("hpcc-no-byte-counter-no-clamp-alpha-1",
	      !c->byte_reset && !c->clamp && c->clamp_after_time_inc &&
	      dcqcn_frac_double(c->alpha0) == 1 && !c->first_bps &&
	      c->threshold == 1 && !c->release && c->gd == 11 &&
	      dcqcn_frac_double(c->min_factor) == 0.5);
	/* run.py "dcqcn_paper": 50, 50, 55 us, the rest as dcqcn */
	preset(&p, "paper", 400000000000ULL);
	check("paper-timing", c->alpha_ns == 50000 && c->dec_ns == 50000 &&
	      c->inc_ns == 55000 && c->ai_bps == 80000000 &&
	      c->hai_bps == 800000000);
	/* mlx5 defaults (units: us, 64 B, Mbit/s, 1/1024) */
	preset(&p, "mlx5", 100000000000ULL);
	check("mlx5-timing", c->alpha_ns == 1000 && c->dec_ns == 4000 &&
	      c->inc_ns == 300000);
	check("mlx5-byte-counter-2097088-bytes", c->byte_reset == 2097088);
	check("mlx5-rates", c->ai_bps == 5000000 && c->hai_bps == 50000000 &&
	      c->min_bps == 1000000 && !c->first_bps);
	check("mlx5-alpha", dcqcn_frac_double(c->g_keep) == 1019 / 1024.0 &&
	      dcqcn_frac_double(c->g_add) == 5 / 1024.0 &&
	      dcqcn_frac_double(c->alpha0) == 1023 / 1024.0);
	check("mlx5-clamp-release", !c->clamp && c->clamp_after_time_inc &&
	      c->release && c->threshold == 1);
}

static void test_params(void)
{
	struct dcqcn_params p;
	char err[160] = "";

	dcqcn_params_default(&p);
	check("default-is-mlx5", p.preset == DCQCN_PRESET_MLX5);
	check("override-survives-preset",
	      !dcqcn_param_parse(&p, "rpg_ai_rate", "7", err, sizeof(err)) &&
	      !dcqcn_param_parse(&p, "preset", "hpcc", err, sizeof(err)) &&
	      p.v[DCQCN_AI_RATE] == 7 && p.v[DCQCN_TIME_RESET] == 300);
	check("unknown-name", dcqcn_param_parse(&p, "rpg_nope", "1", err,
						sizeof(err)) == -ENOENT);
	check("out-of-range-names-range",
	      dcqcn_param_parse(&p, "dce_tcp_g", "1024", err, sizeof(err)) ==
	      -EINVAL && p.v[DCQCN_TCP_G] == 1020);
	printf("# %s\n", err);
	check("first-cnp-rate-capped-at-R",
	      !dcqcn_param_parse(&p, "rate_to_set_on_first_cnp", "500000", err,
				 sizeof(err)) &&
	      (dcqcn_resolve(&p, 100000000000ULL), p.cfg.first_bps ==
	       100000000000ULL));
}

static void test_machine(void)
{
	struct dcqcn_params p;
	struct dcqcn_qp q;

	preset(&p, "hpcc", 100000000000ULL);
	dcqcn_init(&q, &p.cfg);
	check("idle-until-a-cnp", dcqcn_next_ns(&q) == DCQCN_NEVER &&
	      q.rc == 100000000000ULL);
	dcqcn_cnp(&q, &p.cfg, 10, NULL);
	check("first-cnp-arms-alpha-then-check", dcqcn_next_ns(&q) == 1010 &&
	      q.due[DCQCN_T_DEC] == 4011 && q.due[DCQCN_T_INC] == DCQCN_NEVER);
	dcqcn_run(&q, &p.cfg, 4011, false, NULL);
	check("run-exclusive-stops-before", q.rc == 100000000000ULL);
	dcqcn_run(&q, &p.cfg, 4011, true, NULL);
	check("run-inclusive-cuts", q.rc == 50776684272ULL &&
	      q.due[DCQCN_T_INC] == 304011);
}

/*
 * A long calm stretch after a cut, caught up in one run (the quiet timers
 * skipped at once) and one alpha period at a time: the same rates, timers
 * and alpha (in fixed point within the rounding of the squarings).
 */
static void test_catch_up(const char *name)
{
	struct dcqcn_params p;
	struct dcqcn_qp one, steps;
	u64 t, end = 50000000;
	double a, b, tol = 1.0 / (1ULL << 50);
	char what[64];
	int i, same = 1;

	preset(&p, name, 100000000000ULL);
	dcqcn_init(&one, &p.cfg);
	dcqcn_cnp(&one, &p.cfg, 10, NULL);
	dcqcn_cnp(&one, &p.cfg, 2500, NULL);
	steps = one;
	dcqcn_run(&one, &p.cfg, end, true, NULL);
	for (t = 10; t <= end; t += p.cfg.alpha_ns)
		dcqcn_run(&steps, &p.cfg, t, true, NULL);
	dcqcn_run(&steps, &p.cfg, end, true, NULL);
	for (i = 0; i < DCQCN_NR_TIMERS; i++)
		same &= one.due[i] == steps.due[i];
	a = dcqcn_frac_double(one.alpha);
	b = dcqcn_frac_double(steps.alpha);
	snprintf(what, sizeof(what), "catch-up-in-one-run-%s", name);
	check(what, same && one.rc == steps.rc && one.rt == steps.rt &&
	      one.t_stage == steps.t_stage && one.limited == steps.limited &&
	      (DCQCN_FIXED_POINT ? a - b < tol && b - a < tol : a == b));
}

int main(void)
{
	test_presets();
	test_params();
	test_machine();
	test_catch_up("hpcc");
	test_catch_up("paper");
	test_catch_up("mlx5");
	return failed;
}
