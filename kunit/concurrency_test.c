// SPDX-License-Identifier: GPL-2.0
/*
 * concurrency_test.c - CNP and packet bursts from several kernel threads
 * (some with interrupts off, as a hard-irq caller would be) while the
 * loop's timers run and parameters are rewritten: nothing is lost or
 * counted twice, every rate told stays within [floor, R], and the
 * counters add up per QP and per device.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include "fake_driver.h"

#define CC_THREADS	4
#define CC_BURSTS	3000
#define CC_PKTS		3
#define GBPS		1000000000ULL

struct cc_thread {
	struct fake_qp *fq;
	struct completion done;
	int n;
	bool irqs_off;
};

static int cc_thread_fn(void *arg)
{
	struct cc_thread *t = arg;
	unsigned long flags;
	int i;

	for (i = 0; i < t->n; i++) {
		if (t->irqs_off)
			local_irq_save(flags);
		rdma_cc_hook_cnp(&t->fq->hqp);
		rdma_cc_hook_tx(&t->fq->hqp, CC_PKTS);
		if (t->irqs_off)
			local_irq_restore(flags);
		if (i % 64 == 0)
			usleep_range(20, 50);
	}
	complete(&t->done);
	return 0;
}

static void cc_check_rates(struct kunit *test, struct fake_qp *fq,
			   const struct rcc_params *p, u64 line_rate)
{
	u64 floor = line_rate * p->minimum_rate_percent / 100;
	unsigned int i, n = min_t(unsigned int, fq->nr_calls, FAKE_RATE_LOG);

	KUNIT_EXPECT_EQ(test, fq->nr_bad, 0U);
	for (i = 0; i < n; i++) {
		if (!fq->log[i].bps)
			continue;
		KUNIT_EXPECT_GE(test, fq->log[i].bps, floor);
		KUNIT_EXPECT_LE(test, fq->log[i].bps, line_rate);
	}
}

static void cc_cnp_bursts(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "cc", 100 * GBPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 7);
	struct cc_thread t[CC_THREADS];
	struct task_struct *task;
	struct rcc_flow_state st;
	struct rcc_params p;
	int i;

	/* Runs every 50 us, and rewritten while the bursts go on. */
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS,
					     "100000"), 6);
	for (i = 0; i < CC_THREADS; i++) {
		t[i].fq = fq;
		t[i].n = CC_BURSTS;
		t[i].irqs_off = fake_irqs_off(i % 2);
		init_completion(&t[i].done);
		task = kthread_run(cc_thread_fn, &t[i], "rcc_kunit_%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	}
	for (i = 0; i < 20; i++) {
		const char *v = i % 2 ? "100000" : "60000";

		KUNIT_EXPECT_EQ(test,
				fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS, v),
				(ssize_t)strlen(v));
		usleep_range(500, 1000);
	}
	for (i = 0; i < CC_THREADS; i++)
		wait_for_completion(&t[i].done);

	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(fq, 5000));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.cnt.cnps, (u64)CC_THREADS * CC_BURSTS);
	KUNIT_EXPECT_EQ(test, st.cnt.pkts, (u64)CC_THREADS * CC_BURSTS * CC_PKTS);
	KUNIT_EXPECT_GE(test, st.cnt.episodes, 1ULL);
	KUNIT_EXPECT_EQ(test, st.cnt.episodes, st.cnt.episodes_ended);
	KUNIT_EXPECT_GE(test, st.cnt.runs, 2ULL);
	KUNIT_EXPECT_FALSE(test, st.timer_armed);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 0ULL);
	fake_dev_params(fd, &p);
	cc_check_rates(test, fq, &p, 100 * GBPS);

	fake_qp_free(fq);
	fake_dev_free(fd);
}

static u64 cc_sum_actions(const struct rcc_counters *c)
{
	u64 s = 0;
	int a;

	for (a = 0; a < RCC_NR_ACTIONS; a++)
		s += c->actions[a];
	return s;
}

/* Per-QP counters add up to the device's, also after a QP is gone. */
static void cc_counters_add_up(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "cc", 40 * GBPS);
	struct rcc_dev *d = fd->hdev.cc_priv;
	struct rcc_counters sum, dev, before;
	struct rcc_flow_state st;
	unsigned int nq, ncong;
	struct fake_qp *fq[3];
	int i, k;

	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS,
					     "200000"), 6);
	for (i = 0; i < 3; i++)
		fq[i] = fake_qp_new(test, fd, 30 + i);
	for (k = 0; k < 40; k++) {
		for (i = 0; i < 3; i++) {
			if (k % (i + 1) == 0)
				rdma_cc_hook_cnp(&fq[i]->hqp);
			rdma_cc_hook_tx(&fq[i]->hqp, 2 + i);
		}
		usleep_range(100, 200);
	}
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(fq[i], 5000));

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, fake_qp_state(fq[i], &st));
		KUNIT_EXPECT_EQ(test, cc_sum_actions(&st.cnt), st.cnt.runs);
		KUNIT_EXPECT_EQ(test, st.cnt.pkts, (u64)40 * (2 + i));
		KUNIT_EXPECT_GE(test, st.cnt.actions[RCC_ACT_FR_CUT],
				st.cnt.episodes);
		KUNIT_EXPECT_GT(test, st.cnt.congested_ns, 0ULL);
		rcc_counters_add(&sum, &st.cnt);
	}
	KUNIT_EXPECT_EQ(test, sum.cnps, 40ULL + 20 + 14);
	rcc_dev_counters(d, &dev, &nq, &ncong);
	KUNIT_EXPECT_EQ(test, nq, 3U);
	KUNIT_EXPECT_EQ(test, ncong, 0U);
	/* late runs are counted for the device only */
	KUNIT_EXPECT_EQ(test, sum.late_runs, 0ULL);
	sum.late_runs = dev.late_runs;
	KUNIT_EXPECT_EQ(test, memcmp(&dev, &sum, sizeof(sum)), 0);

	/* A deleted QP's counters stay in the device's. */
	before = dev;
	fake_qp_free(fq[2]);
	rcc_dev_counters(d, &dev, &nq, &ncong);
	KUNIT_EXPECT_EQ(test, nq, 2U);
	KUNIT_EXPECT_EQ(test, memcmp(&dev, &before, sizeof(dev)), 0);

	fake_qp_free(fq[0]);
	fake_qp_free(fq[1]);
	fake_dev_free(fd);
}

static struct kunit_case cc_cases[] = {
	KUNIT_CASE(cc_cnp_bursts),
	KUNIT_CASE(cc_counters_add_up),
	{}
};

static struct kunit_suite cc_suite = {
	.name = "rdma_cc_concurrency",
	.test_cases = cc_cases,
};

kunit_test_suite(cc_suite);
