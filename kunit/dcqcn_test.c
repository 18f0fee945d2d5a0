// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_test.c - rdma_cc_dcqcn.ko on the fake driver, and the hook's
 * registry: choosing a device's congestion control, refusing bad choices,
 * and moving devices between congestion controls while several threads
 * send CNPs and packets (no CNP lost, no rate stuck, no call of set_rate()
 * outside the contract).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "dcqcn_mod.h"
#include "fake_driver.h"

#define GBPS 1000000000ULL

/* DCQCN's state of @fq; false when DCQCN does not have the QP. */
static bool dq_state(struct fake_qp *fq, struct dcqcn_flow_state *st)
{
	struct dcqcn_flow *f;

	rcu_read_lock();
	f = rcu_dereference(fq->hqp.cc_priv);
	if (f && f->hook.ops != &dcqcn_cc_ops)
		f = NULL;
	if (f)
		dcqcn_flow_state(f, st);
	rcu_read_unlock();
	return f;
}

static void dq_exit(struct kunit *test)
{
	/* every knob back to mlx5's value */
	int i;

	for (i = 0; i < DCQCN_NR_PARAMS; i++) {
		char v[16];

		snprintf(v, sizeof(v), "%u",
			 dcqcn_preset_value(DCQCN_PRESET_MLX5, i));
		dcqcn_param_write(dcqcn_param_descs[i].name, v);
	}
	dcqcn_param_write("mtu", "4096");
	dcqcn_param_write("slowdown", "1");
}

/* Registered at boot, beside rdma_cc; rdma_cc stays the default. */
static void dq_registered_rdma_cc_default(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "dqd", 100 * GBPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 1);
	struct rcc_flow_state st;

	KUNIT_EXPECT_PTR_EQ(test, fd->hdev.cc, &rcc_cc_ops);
	KUNIT_EXPECT_TRUE(test, fake_qp_state(fq, &st));
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&dcqcn_cc_ops), -EEXIST);
	fake_qp_free(fq);
	fake_dev_free(fd);
}

/*
 * A QP under DCQCN: the first CNP starts the limiter at line rate, the
 * decrease check 4 us later cuts it to rc (1 - alpha / 2) with alpha =
 * 1023/1024 decayed for 4 alpha updates (about 0.51 R), the driver is told
 * that rate, and the increase timer raises it again.  The timer is 20 ms
 * here, not 300 us: a timer that fires late catches up every event due
 * (and tells the driver only the last rate), and UML's may be late by
 * milliseconds.
 */
static void dq_cnp_cuts_then_recovers(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "dqc", 100 * GBPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 2);
	struct dcqcn_flow_state st;
	u64 cut;

	KUNIT_ASSERT_EQ(test, dcqcn_param_write("rpg_time_reset", "20000"), 0);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "dcqcn"), 0);
	KUNIT_ASSERT_PTR_EQ(test, fd->hdev.cc, &dcqcn_cc_ops);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_FALSE(test, st.rp.limited);
	KUNIT_EXPECT_EQ(test, st.rp.rc, 100 * GBPS);

	fake_qp_cnp(fq);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_TRUE(test, st.rp.limited);
	KUNIT_EXPECT_EQ(test, st.cnt.first_cnps, 1ULL);
	/*
	 * The limiter is on at line rate: R, which the driver is told first
	 * (log[0] below; its rate now may already be the cut's, due 4 us on,
	 * on a slow or preempted CPU).
	 */
	KUNIT_EXPECT_TRUE(test, st.timer_armed);

	/*
	 * The decrease check is due 4 us after the CNP, the first increase
	 * 20 ms after the cut: the driver's log has the cut second,
	 * 1 - 0.9990 x 0.9806 / 2 = 0.5102 of R.
	 */
	usleep_range(2000, 3000);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.cnt.cuts, 1ULL);
	KUNIT_ASSERT_GE(test, fake_qp_calls(fq), 2U);
	KUNIT_EXPECT_EQ(test, fq->log[0].bps, 100 * GBPS);
	cut = fq->log[1].bps;
	KUNIT_EXPECT_GE(test, cut, 51 * GBPS);
	KUNIT_EXPECT_LE(test, cut, 52 * GBPS);

	/* the timer increases: fast recovery halves the gap */
	msleep(25);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_GE(test, st.cnt.increases, 1ULL);
	KUNIT_ASSERT_GE(test, fake_qp_calls(fq), 3U);
	KUNIT_EXPECT_GT(test, fq->log[2].bps, cut);
	KUNIT_EXPECT_LT(test, fq->log[2].bps, 100 * GBPS);
	KUNIT_EXPECT_EQ(test, fq->nr_bad, 0U);
	fake_qp_free(fq);
	fake_dev_free(fd);
}

/*
 * slowdown N: the machine as on a fabric N times slower.  mlx5's values on
 * a 25 Gbit/s device slowed down 12,500 times (the testbed's): R 2 Mbit/s,
 * periods of 12.5 ms (alpha), 50 ms (decrease check) and 3.75 s (increase
 * timer), steps of 400 and 4,000 bit/s, a floor of 80 bit/s, and the byte
 * counter's 2 MB as it is.
 */
static void dq_slowdown_resolves(struct kunit *test)
{
	struct dcqcn_params p;

	dcqcn_params_default(&p);
	KUNIT_EXPECT_EQ(test, p.slowdown, 1U);
	p.slowdown = 12500;
	dcqcn_resolve(&p, 25 * GBPS);
	KUNIT_EXPECT_EQ(test, p.cfg.line_bps, 2000000ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.alpha_ns, 12500000ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.dec_ns, 50000000ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.inc_ns, 3750000000ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.ai_bps, 400ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.hai_bps, 4000ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.min_bps, 80ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.byte_reset, 32767ULL * 64);
	/* a rate that would round to 0 is 1 bit/s; 0 ("unchanged") stays */
	p.slowdown = DCQCN_SLOWDOWN_MAX;
	p.v[DCQCN_RATE_ON_FIRST_CNP] = 0;
	dcqcn_resolve(&p, 100000);
	KUNIT_EXPECT_EQ(test, p.cfg.line_bps, 1ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.min_bps, 1ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.first_bps, 0ULL);
	/* 1 is the fabric as the knobs say */
	dcqcn_params_default(&p);
	dcqcn_resolve(&p, 25 * GBPS);
	KUNIT_EXPECT_EQ(test, p.cfg.line_bps, 25 * GBPS);
	KUNIT_EXPECT_EQ(test, p.cfg.dec_ns, 4000ULL);
	KUNIT_EXPECT_EQ(test, p.cfg.ai_bps, 5000000ULL);
}

/*
 * The module's slowdown: a QP on a 25 Gbit/s device slowed down 12,500
 * times starts at R = 2 Mbit/s, debugfs's link and line rates say both,
 * and its decrease check comes 50 ms after the CNP, not 4 us: the cut is
 * the one of the unslowed test above, 0.5102 of R.
 */
static void dq_slowdown_in_the_module(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "dqs", 25 * GBPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 4);
	struct dcqcn_flow_state st;

	KUNIT_ASSERT_EQ(test, dcqcn_param_write("slowdown", "12500\n"), 0);
	KUNIT_EXPECT_EQ(test, dcqcn_param_read("slowdown"), 12500U);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "dcqcn"), 0);
	/* not limited, and paced at R: unpaced it would send at the link's */
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_FALSE(test, st.rp.limited);
	KUNIT_EXPECT_EQ(test, st.told_bps, 2000000ULL);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 2000000ULL);
	fake_qp_cnp(fq);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.link_bps, 25 * GBPS);
	KUNIT_EXPECT_EQ(test, st.line_bps, 2000000ULL);
	KUNIT_EXPECT_TRUE(test, st.rp.limited);
	KUNIT_EXPECT_EQ(test, st.rp.rc, 2000000ULL);
	KUNIT_EXPECT_EQ(test, st.cnt.cuts, 0ULL);
	msleep(120);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.cnt.cuts, 1ULL);
	KUNIT_EXPECT_GE(test, st.rp.rc, 1010000ULL);
	KUNIT_EXPECT_LE(test, st.rp.rc, 1030000ULL);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), st.rp.rc);
	/* DCQCN lets go (the device to "none"): line rate */
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "none"), 0);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 0ULL);
	fake_qp_free(fq);
	fake_dev_free(fd);
}

/* The byte counter counts the driver's packets at mtu bytes each. */
static void dq_byte_counter_counts_packets(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "dqb", 100 * GBPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 3);
	struct dcqcn_flow_state st;
	u64 before;

	/* 1 x 64 bytes per event; a 64-byte packet is one event */
	KUNIT_ASSERT_EQ(test, dcqcn_param_write("rpg_byte_reset", "1"), 0);
	KUNIT_ASSERT_EQ(test, dcqcn_param_write("mtu", "64\n"), 0);
	KUNIT_ASSERT_EQ(test, dcqcn_param_write("rpg_time_reset", "131071"), 0);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "dcqcn"), 0);
	fake_qp_tx(fq, 10);	/* before any cut: no lock, nothing counted */
	fake_qp_cnp(fq);
	usleep_range(2000, 3000);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_ASSERT_EQ(test, st.cnt.cuts, 1ULL);
	before = st.cnt.increases;
	fake_qp_tx(fq, 3);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.cnt.increases, before + 3);
	KUNIT_EXPECT_EQ(test, st.rp.b_stage, 3U);
	fake_qp_free(fq);
	fake_dev_free(fd);
}

/*
 * The knobs: dcqcn.c's parser, mlx5's ranges; a bad write is refused and
 * changes nothing; a good one is in force for the next event.
 */
static void dq_params_validated(struct kunit *test)
{
	static const char * const bad[][2] = {
		{ "rpg_gd", "16" }, { "rpg_gd", " 1" }, { "rpg_gd", "1 " },
		{ "rpg_gd", "" }, { "rpg_gd", "\n" }, { "rpg_gd", "-1" },
		{ "rpg_gd", "0x3" }, { "rpg_gd", "1\n\n" },
		{ "rpg_time_reset", "0" }, { "rpg_time_reset", "131072" },
		{ "dce_tcp_g", "1024" }, { "initial_alpha_value", "1025" },
		{ "rpg_min_rate", "0" }, { "clamp_tgt_rate", "2" },
		{ "rpg_ai_rate", "10000001" }, { "rpg_byte_reset", "32768" },
		{ "mtu", "0" }, { "mtu", "65537" },
		{ "slowdown", "0" }, { "slowdown", "1000001" },
		{ "rpg_gd", "99999999999999999999" },
	};
	u32 gd = dcqcn_param_read("rpg_gd");
	unsigned int i;

	KUNIT_EXPECT_EQ(test, gd, 11U);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		u32 was = dcqcn_param_read(bad[i][0]);

		KUNIT_EXPECT_EQ_MSG(test, dcqcn_param_write(bad[i][0], bad[i][1]),
				    -EINVAL, "%s=%s", bad[i][0], bad[i][1]);
		KUNIT_EXPECT_EQ(test, dcqcn_param_read(bad[i][0]), was);
	}
	KUNIT_EXPECT_EQ(test, dcqcn_param_write("rpg_nope", "1"), -ENOENT);
	KUNIT_EXPECT_EQ(test, dcqcn_param_write("rpg_gd", "12\n"), 0);
	KUNIT_EXPECT_EQ(test, dcqcn_param_read("rpg_gd"), 12U);
	KUNIT_EXPECT_EQ(test, dcqcn_param_write("rpg_min_rate", "10000000"), 0);
	KUNIT_EXPECT_EQ(test, dcqcn_param_read("rpg_min_rate"), 10000000U);
}

/* A parameter written while a QP is limited applies to its next cut. */
static void dq_param_applies_to_next_event(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "dqp", 100 * GBPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 4);
	struct dcqcn_flow_state st;

	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "dcqcn"), 0);
	/* no cut below 90 Gbit/s; no increase within the test */
	KUNIT_ASSERT_EQ(test, dcqcn_param_write("rpg_min_rate", "90000"), 0);
	KUNIT_ASSERT_EQ(test, dcqcn_param_write("rpg_time_reset", "131071"), 0);
	fake_qp_cnp(fq);
	usleep_range(2000, 3000);
	KUNIT_ASSERT_TRUE(test, dq_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.cnt.cuts, 1ULL);
	KUNIT_ASSERT_GE(test, fake_qp_calls(fq), 2U);
	KUNIT_EXPECT_EQ(test, fq->log[1].bps, 90 * GBPS);
	fake_qp_free(fq);
	fake_dev_free(fd);
}

/*
 * Choosing: a loaded name moves the device, "none" runs it at line rate,
 * anything else is refused and changes nothing; the files list and show
 * the same.
 */
static void dq_choose_per_device(struct kunit *test)
{
	struct fake_dev *a = fake_dev_new(test, "dqa", 100 * GBPS);
	struct fake_dev *b = fake_dev_new(test, "dqa", 100 * GBPS);
	struct fake_qp *qa = fake_qp_new(test, a, 5);
	struct fake_qp *qb = fake_qp_new(test, b, 6);
	struct dcqcn_flow_state st;
	struct rcc_flow_state rst;

	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&a->hdev, "dcqcn"), 0);
	KUNIT_EXPECT_PTR_EQ(test, a->hdev.cc, &dcqcn_cc_ops);
	KUNIT_EXPECT_PTR_EQ(test, b->hdev.cc, &rcc_cc_ops);
	KUNIT_EXPECT_TRUE(test, dq_state(qa, &st));
	KUNIT_EXPECT_TRUE(test, fake_qp_state(qb, &rst));
	KUNIT_EXPECT_FALSE(test, fake_qp_state(qa, &rst));

	KUNIT_EXPECT_EQ(test, rdma_cc_hook_set_dev_cc(&a->hdev, "cubic"), -ENOENT);
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_set_dev_cc(&a->hdev, ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_set_dev_cc(&a->hdev,
						      "a_name_far_too_long"),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, a->hdev.cc, &dcqcn_cc_ops);
	KUNIT_EXPECT_TRUE(test, dq_state(qa, &st));

	/* a paced QP goes back to line rate when its device says none */
	fake_qp_cnp(qa);
	KUNIT_EXPECT_NE(test, fake_qp_rate(qa), 0ULL);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&a->hdev, "none\n"), 0);
	KUNIT_EXPECT_NULL(test, a->hdev.cc);
	KUNIT_EXPECT_FALSE(test, rdma_cc_hook_qp_controlled(&qa->hqp));
	KUNIT_EXPECT_EQ(test, fake_qp_rate(qa), 0ULL);
	/* and a QP added now stays free */
	fake_qp_free(qa);
	qa = fake_qp_new(test, a, 7);
	KUNIT_EXPECT_FALSE(test, rdma_cc_hook_qp_controlled(&qa->hqp));

	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&a->hdev, "rdma_cc"), 0);
	KUNIT_EXPECT_TRUE(test, fake_qp_state(qa, &rst));
	KUNIT_EXPECT_EQ(test, qa->nr_bad + qb->nr_bad, 0U);
	fake_qp_free(qa);
	fake_qp_free(qb);
	fake_dev_free(a);
	fake_dev_free(b);
}

/*
 * Two counting congestion controls, to see exactly what the hook hands
 * over: each QP's state counts the CNPs it got.
 */
struct cnt_qp {
	struct rdma_cc_hook_qp_cc hook;
	struct rcu_head rcu;
};

static atomic64_t cnt_cnps[2];

/*
 * A slow attach, as one that allocates and creates files can be: the
 * senders run while the QPs are between the two, also on one CPU.
 */
static int cnt_attach_dev(struct rdma_cc_hook_dev *dev)
{
	dev->cc_priv = dev;
	usleep_range(300, 600);
	return 0;
}

static void cnt_detach_dev(struct rdma_cc_hook_dev *dev)
{
}

static void *cnt_attach_qp(struct rdma_cc_hook_qp *qp)
{
	return kzalloc(sizeof(struct cnt_qp), GFP_KERNEL);
}

static void cnt_detach_qp(struct rdma_cc_hook_qp *qp, void *priv,
			  bool to_line_rate)
{
	struct cnt_qp *c = priv;

	kfree_rcu(c, rcu);
}

static bool cnt_cnp_a(void *priv)
{
	atomic64_inc(&cnt_cnps[0]);
	return true;
}

static bool cnt_cnp_b(void *priv)
{
	atomic64_inc(&cnt_cnps[1]);
	return true;
}

static void cnt_tx(void *priv, u32 npkts)
{
}

static const struct rdma_cc_cc_ops cnt_ops[2] = {
	{ .name = "kunit_a", .attach_dev = cnt_attach_dev,
	  .detach_dev = cnt_detach_dev, .attach_qp = cnt_attach_qp,
	  .detach_qp = cnt_detach_qp, .cnp = cnt_cnp_a, .tx = cnt_tx },
	{ .name = "kunit_b", .attach_dev = cnt_attach_dev,
	  .detach_dev = cnt_detach_dev, .attach_qp = cnt_attach_qp,
	  .detach_qp = cnt_detach_qp, .cnp = cnt_cnp_b, .tx = cnt_tx },
};

static void dq_register_validates(struct kunit *test)
{
	struct rdma_cc_cc_ops bad = cnt_ops[0];

	bad.name = "none";
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&bad), -EINVAL);
	bad.name = "Upper";
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&bad), -EINVAL);
	bad.name = "";
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&bad), -EINVAL);
	bad.name = NULL;
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&bad), -EINVAL);
	bad = cnt_ops[0];
	bad.cnp = NULL;
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&bad), -EINVAL);
	bad = cnt_ops[0];
	bad.name = "rdma_cc";
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&bad), -EEXIST);
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(NULL), -EINVAL);
}

#define MV_QPS		8
#define MV_THREADS	3
#define MV_MOVES	40

struct mv_ctx {
	struct fake_qp *fq[MV_QPS];
	atomic64_t sent;
	bool stop;
	bool tx;
};

static int mv_thread(void *arg)
{
	struct mv_ctx *ctx = arg;
	unsigned int i = 0;

	while (!READ_ONCE(ctx->stop)) {
		struct fake_qp *fq = ctx->fq[i++ % MV_QPS];
		unsigned long flags = 0;
		bool off = fake_irqs_off(i & 1);

		if (off)
			local_irq_save(flags);
		fake_qp_cnp(fq);
		atomic64_inc(&ctx->sent);
		if (ctx->tx)
			fake_qp_tx(fq, 4);
		if (off)
			local_irq_restore(flags);
		if (!(i % 64))
			cond_resched();
	}
	return 0;
}

/* Start MV_THREADS senders on @ctx's QPs. */
static void mv_start(struct kunit *test, struct mv_ctx *ctx,
		     struct task_struct **t)
{
	int i;

	for (i = 0; i < MV_THREADS; i++) {
		t[i] = kthread_run(mv_thread, ctx, "dq_mv%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
		get_task_struct(t[i]);
	}
}

/*
 * Does the driver pace @fq at the rate its congestion control last told
 * it (line rate if none has it)?  Read under the congestion control's QP
 * lock, under which every set_rate() is made: never torn.
 */
static bool mv_rate_consistent(struct fake_qp *fq)
{
	struct rdma_cc_hook_qp_cc *priv;
	unsigned long flags;
	bool ok;

	rcu_read_lock();
	priv = rcu_dereference(fq->hqp.cc_priv);
	if (!priv) {
		ok = !fake_qp_rate(fq);
	} else if (priv->ops == &rcc_cc_ops) {
		struct rcc_flow *f = container_of(priv, struct rcc_flow, hook);

		/* rdma_cc tells its rate after every event and run */
		spin_lock_irqsave(&f->lock, flags);
		ok = (f->core.congested ? f->core.current_bps : 0) ==
		     fake_qp_rate(fq);
		spin_unlock_irqrestore(&f->lock, flags);
	} else {
		struct dcqcn_flow *f = container_of(priv, struct dcqcn_flow,
						    hook);

		spin_lock_irqsave(&f->lock, flags);
		ok = f->told_bps == fake_qp_rate(fq);
		spin_unlock_irqrestore(&f->lock, flags);
	}
	rcu_read_unlock();
	return ok;
}

static void mv_stop(struct mv_ctx *ctx, struct task_struct **t)
{
	int i;

	WRITE_ONCE(ctx->stop, true);
	for (i = 0; i < MV_THREADS; i++) {
		kthread_stop(t[i]);
		put_task_struct(t[i]);
	}
}

/*
 * Moving a device back and forth between two congestion controls while
 * three threads send CNPs: every CNP reaches one of them, none is lost
 * (the hook counts those that come during a move and hands them over).
 */
static void dq_move_loses_no_cnp(struct kunit *test)
{
	struct mv_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct task_struct *t[MV_THREADS];
	struct fake_dev *fd;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_register_cc(&cnt_ops[0]), 0);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_register_cc(&cnt_ops[1]), 0);
	atomic64_set(&cnt_cnps[0], 0);
	atomic64_set(&cnt_cnps[1], 0);
	fd = fake_dev_new(test, "dqm", 100 * GBPS);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "kunit_a"), 0);
	for (i = 0; i < MV_QPS; i++)
		ctx->fq[i] = fake_qp_new(test, fd, 100 + i);
	mv_start(test, ctx, t);
	for (i = 0; i < MV_MOVES; i++) {
		const char *to = i & 1 ? "kunit_a" : "kunit_b";

		KUNIT_EXPECT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, to), 0);
		usleep_range(500, 1000);
	}
	mv_stop(ctx, t);
	KUNIT_EXPECT_GT(test, atomic64_read(&cnt_cnps[0]), 0LL);
	KUNIT_EXPECT_GT(test, atomic64_read(&cnt_cnps[1]), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&cnt_cnps[0]) +
			atomic64_read(&cnt_cnps[1]), atomic64_read(&ctx->sent));
	for (i = 0; i < MV_QPS; i++)
		fake_qp_free(ctx->fq[i]);
	fake_dev_free(fd);
	rdma_cc_hook_unregister_cc(&cnt_ops[0]);
	rdma_cc_hook_unregister_cc(&cnt_ops[1]);
}

/*
 * Switching a device between rdma_cc and DCQCN under CNPs and packets from
 * three threads: after every move each QP's driver paces at the rate the
 * congestion control that has it last told (the old one handed it back
 * at line rate: no rate stuck), every set_rate() is within the contract
 * (interrupts off, only real changes), and once the traffic stops every
 * QP recovers to line rate under either one.
 */
static void dq_switch_under_load(struct kunit *test)
{
	struct mv_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct task_struct *t[MV_THREADS];
	struct dcqcn_flow_state dst;
	struct rcc_flow_state rst;
	unsigned int bad = 0;
	int i, wait, live = atomic_read(&dcqcn_flows_live);
	struct fake_dev *fd;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->tx = true;
	fd = fake_dev_new(test, "dqs", 100 * GBPS);
	for (i = 0; i < MV_QPS; i++)
		ctx->fq[i] = fake_qp_new(test, fd, 200 + i);
	mv_start(test, ctx, t);
	for (i = 0; i < MV_MOVES; i++) {
		const char *to = i & 1 ? "rdma_cc" : "dcqcn";
		int j;

		KUNIT_EXPECT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, to), 0);
		for (j = 0; j < MV_QPS; j++)
			KUNIT_EXPECT_TRUE_MSG(test,
					      mv_rate_consistent(ctx->fq[j]),
					      "move %d to %s, QP %d", i, to, j);
		usleep_range(1000, 2000);
	}
	mv_stop(ctx, t);
	KUNIT_EXPECT_PTR_EQ(test, fd->hdev.cc, &rcc_cc_ops);
	for (i = 0; i < MV_QPS; i++) {
		KUNIT_EXPECT_TRUE(test,
				  fake_qp_wait_uncongested(ctx->fq[i], 5000));
		KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[i], &rst));
		KUNIT_EXPECT_EQ(test, rst.told_bps, 0ULL);
		KUNIT_EXPECT_EQ(test, fake_qp_rate(ctx->fq[i]), 0ULL);
		bad += ctx->fq[i]->nr_bad;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);

	/* the same under DCQCN: a CNP each, then back to line rate */
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "dcqcn"), 0);
	for (i = 0; i < MV_QPS; i++)
		fake_qp_cnp(ctx->fq[i]);
	/* an increase every 300 us, released within 1 Mbit/s of R: ~6 ms */
	for (wait = 0; wait < 1000; wait++) {
		for (i = 0; i < MV_QPS; i++)
			if (fake_qp_rate(ctx->fq[i]))
				break;
		if (i == MV_QPS)
			break;
		usleep_range(5000, 6000);
	}
	for (i = 0; i < MV_QPS; i++) {
		KUNIT_EXPECT_EQ(test, fake_qp_rate(ctx->fq[i]), 0ULL);
		KUNIT_ASSERT_TRUE(test, dq_state(ctx->fq[i], &dst));
		KUNIT_EXPECT_GE(test, dst.cnt.releases, 1ULL);
		KUNIT_EXPECT_EQ(test, dst.told_bps, 0ULL);
		KUNIT_EXPECT_EQ(test, ctx->fq[i]->nr_bad, 0U);
	}
	for (i = 0; i < MV_QPS; i++)
		fake_qp_free(ctx->fq[i]);
	fake_dev_free(fd);
	KUNIT_EXPECT_EQ(test, atomic_read(&dcqcn_flows_live), live);
}

static struct kunit_case dq_cases[] = {
	KUNIT_CASE(dq_registered_rdma_cc_default),
	KUNIT_CASE(dq_cnp_cuts_then_recovers),
	KUNIT_CASE(dq_byte_counter_counts_packets),
	KUNIT_CASE(dq_slowdown_resolves),
	KUNIT_CASE(dq_slowdown_in_the_module),
	KUNIT_CASE(dq_params_validated),
	KUNIT_CASE(dq_param_applies_to_next_event),
	KUNIT_CASE(dq_choose_per_device),
	KUNIT_CASE(dq_register_validates),
	KUNIT_CASE(dq_move_loses_no_cnp),
	KUNIT_CASE(dq_switch_under_load),
	{}
};

static struct kunit_suite dq_suite = {
	.name = "rdma_cc_dcqcn",
	.exit = dq_exit,
	.test_cases = dq_cases,
};

kunit_test_suite(dq_suite);
