// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_test.c - DCQCN's reaction point against the rules written in
 * dcqcn.c, one test per rule, at mlx5's defaults unless a test says
 * otherwise.  Prints "ok NAME" / "not ok NAME".
 */
#include <math.h>
#include <stdio.h>

#include "dcqcn.h"

#define US	1000000ULL	/* ps */
#define LINE	400e9

static int failed;

static void check(const char *name, int cond)
{
	printf("%sok %s\n", cond ? "" : "not ok ", name);
	failed |= !cond;
}

static int near(double a, double b)
{
	return fabs(a - b) <= (fabs(a) + fabs(b) + 1) / 1e9;
}

static void fresh(struct dcqcn_qp *q, struct dcqcn_params *p)
{
	dcqcn_params_default(p);
	dcqcn_init(q, LINE);
}

static void test_first_cnp(void)
{
	struct dcqcn_params p;
	struct dcqcn_qp q;

	fresh(&q, &p);
	check("dcqcn-line-rate-until-cnp", !q.limited && q.rc == LINE &&
	      dcqcn_next_timer_ps(&q) == ~0ULL);
	dcqcn_cnp(&q, &p, LINE, 10 * US);
	check("dcqcn-first-cnp-cuts-by-alpha-half",
	      q.limited && near(q.rc, LINE * (1 - 1023.0 / 2048)));
	check("dcqcn-first-cnp-target-is-old-rate", near(q.rt, LINE));
	check("dcqcn-first-cnp-arms-alpha-timer",
	      q.next_alpha_ps == 11 * US && q.next_timer_ps == 310 * US);
}

static void test_monitor_period(void)
{
	struct dcqcn_params p;
	struct dcqcn_qp q;
	double rc;

	fresh(&q, &p);
	dcqcn_cnp(&q, &p, LINE, 0);
	rc = q.rc;
	dcqcn_cnp(&q, &p, LINE, 2 * US);
	check("dcqcn-no-second-cut-inside-period", q.rc == rc && q.cut_pending);
	dcqcn_timer(&q, &p, LINE, 3 * US);
	check("dcqcn-pending-cut-waits-for-period-end", q.rc == rc);
	dcqcn_timer(&q, &p, LINE, 4 * US);
	check("dcqcn-pending-cut-at-period-end", q.rc < rc && !q.cut_pending);
	rc = q.rc;
	dcqcn_cnp(&q, &p, LINE, 9 * US);
	check("dcqcn-cnp-after-period-cuts-at-once", q.rc < rc);
}

static void test_alpha(void)
{
	struct dcqcn_params p;
	struct dcqcn_qp q;
	double a;

	fresh(&q, &p);
	dcqcn_cnp(&q, &p, LINE, 0);
	a = q.alpha;
	dcqcn_timer(&q, &p, LINE, 1 * US);
	check("dcqcn-alpha-rises-after-cnp-period",
	      near(q.alpha, 1019.0 / 1024 * a + 5.0 / 1024));
	a = q.alpha;
	dcqcn_timer(&q, &p, LINE, 2 * US);
	check("dcqcn-alpha-decays-in-quiet-period",
	      near(q.alpha, 1019.0 / 1024 * a));
}

static void test_increases(void)
{
	struct dcqcn_params p;
	struct dcqcn_qp q;
	double rc, rt;

	fresh(&q, &p);
	p.v[DCQCN_BYTE_RESET] = 0;	/* timer only */
	dcqcn_cnp(&q, &p, LINE, 0);
	rc = q.rc;
	rt = q.rt;
	dcqcn_timer(&q, &p, LINE, 300 * US);
	check("dcqcn-fast-recovery-keeps-target",
	      q.rt == rt && near(q.rc, (rt + rc) / 2) && q.t_stage == 1);
	/* a cut after a timer increase clamps rt = rc (mlx5's default) */
	rc = q.rc;
	dcqcn_cnp(&q, &p, LINE, 301 * US);
	check("dcqcn-clamp-after-time-increase", near(q.rt, rc));
	rt = q.rt;
	rc = q.rc;
	dcqcn_timer(&q, &p, LINE, 601 * US);	/* t_stage 1: FR */
	dcqcn_timer(&q, &p, LINE, 901 * US);	/* t_stage 2: AI */
	check("dcqcn-additive-increase", near(q.rt, rt + 5e6));
	/* with the byte counter past F too, hyper increase */
	p.v[DCQCN_BYTE_RESET] = 1000;
	rt = q.rt;
	dcqcn_sent(&q, &p, LINE, 1000);		/* b_stage 1 */
	dcqcn_sent(&q, &p, LINE, 1000);		/* b_stage 2 > F, t 2 > F */
	check("dcqcn-hyper-increase", near(q.rt, rt + 5e6 + 50e6));
	(void)rc;
}

static void test_byte_counter_no_clamp(void)
{
	struct dcqcn_params p;
	struct dcqcn_qp q;

	fresh(&q, &p);
	dcqcn_cnp(&q, &p, LINE, 0);
	dcqcn_sent(&q, &p, LINE, 32767);	/* one byte-counter increase */
	dcqcn_cnp(&q, &p, LINE, 5 * US);
	check("dcqcn-no-clamp-after-byte-increase", near(q.rt, LINE));
	fresh(&q, &p);
	p.v[DCQCN_CLAMP_TGT] = 1;
	dcqcn_cnp(&q, &p, LINE, 0);
	dcqcn_sent(&q, &p, LINE, 32767);
	dcqcn_cnp(&q, &p, LINE, 5 * US);
	check("dcqcn-clamp_tgt_rate-clamps-every-cut", q.rt < LINE);
}

static void test_floor_and_release(void)
{
	struct dcqcn_params p;
	struct dcqcn_qp q;
	int i;

	fresh(&q, &p);
	for (i = 0; i < 200; i++)
		dcqcn_cnp(&q, &p, LINE, (unsigned long long)i * 4 * US);
	check("dcqcn-never-below-min-rate", q.rc >= 1e6 && q.rc < 2e6);
	fresh(&q, &p);
	p.v[DCQCN_INITIAL_ALPHA] = 0;	/* a cut that cuts nothing */
	dcqcn_cnp(&q, &p, LINE, 0);
	dcqcn_sent(&q, &p, LINE, 32767);
	check("dcqcn-released-at-line-rate", !q.limited && q.rc == LINE &&
	      dcqcn_next_timer_ps(&q) == ~0ULL);
}

int main(void)
{
	test_first_cnp();
	test_monitor_period();
	test_alpha();
	test_increases();
	test_byte_counter_no_clamp();
	test_floor_and_release();
	return failed;
}
