// SPDX-License-Identifier: GPL-2.0
/*
 * stress_test.c - several kernel threads, a fixed count of random
 * operations in all (CNPs, packet reports, parameter writes through the
 * real sysfs and module-parameter handlers, QP attach and detach, device
 * removal and re-adding) while the loop runs on real hrtimers every few
 * microseconds.  Throughout and afterwards every QP keeps the spec's
 * invariants, every counter rdma_cc keeps equals what the fake driver
 * reported (per QP, and per device including QPs already detached), and
 * once everything is gone no timer is armed and no rate is told.
 *
 * Each thread owns its devices and QPs, so it knows exactly which QPs are
 * attached and what it reported to each; the threads share the global
 * parameters, the hook's registry and rdma_cc's device list.  Failures
 * found in a thread are counted there (a thread must not use KUnit
 * assertions) and asserted by the test afterwards.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "fake_driver.h"

#define ST_THREADS	4
#define ST_DEVS		2	/* per thread */
#define ST_QPS		3	/* per device */
#define GBPS		1000000000ULL

/* Operations in all. */
#define ST_OPS		1000000

/* The loop's interval while the test runs: runs every 1 to 5 us. */
#define ST_T_MIN	2000
#define ST_T_MAX	10000

/* Out of 10000: the mix of operations. */
#define ST_P_CNP	5600
#define ST_P_TX		(ST_P_CNP + 3200)
#define ST_P_WRITE	(ST_P_TX + 800)
#define ST_P_CHECK	(ST_P_WRITE + 250)
#define ST_P_QP		(ST_P_CHECK + 130)
/* the rest (20 in 10000): remove a device and add it back */

enum st_op {
	ST_OP_CNP, ST_OP_TX, ST_OP_WRITE, ST_OP_CHECK, ST_OP_QP, ST_OP_DEV,
	ST_NR_OPS
};

static const char * const st_op_names[ST_NR_OPS] = {
	"cnp", "tx", "param-write", "check", "qp-reattach", "dev-readd",
};

struct st_qp {
	struct fake_qp fq;
	u64 cnps;		/* reported while attached */
	u64 pkts;
};

struct st_dev {
	struct fake_dev fd;
	bool live;
	u64 line_rate;
	u64 cnps;		/* reported to every QP this device had */
	u64 pkts;
	unsigned long written;	/* parameters this thread wrote to it */
	u32 own[RCC_NR_PARAMS];
	struct st_qp qp[ST_QPS];
};

struct st_thread {
	struct rnd_state rnd;
	int id;
	bool irqs_off;		/* report events as a hard-irq caller would */
	u32 next_qpn;
	struct completion done;
	struct st_dev dev[ST_DEVS];
	/* what the thread did */
	u64 ops[ST_NR_OPS];
	u64 cnps, pkts;		/* reported, in all */
	u64 counted_cnps;	/* rdma_cc's counts of gone devices, in all */
	u64 counted_pkts;
	u64 runs, episodes;	/* rdma_cc's, of gone devices */
	u64 writes_ok, writes_bad, qp_cycles, dev_cycles, checks;
	u64 stray;		/* CNP and tx pairs sent to detached QPs */
	/* what went wrong */
	unsigned int fails;
	char first_fail[160];
};

static const u64 st_line_rates[] = {
	10 * GBPS, 25 * GBPS, 40 * GBPS, 100 * GBPS,
};

static __printf(2, 3) void st_fail(struct st_thread *t, const char *fmt, ...)
{
	va_list args;

	if (!t->fails++) {
		va_start(args, fmt);
		vsnprintf(t->first_fail, sizeof(t->first_fail), fmt, args);
		va_end(args);
	}
}

static u32 st_rand(struct st_thread *t, u32 n)
{
	return prandom_u32_state(&t->rnd) % n;
}

static struct kernel_param st_kp(enum rcc_param id)
{
	return (struct kernel_param){
		.name = rcc_param_descs[id].name,
		.ops = &rcc_param_ops,
		.perm = 0644,
		.arg = (void *)&rcc_param_descs[id],
	};
}

static int st_global_set(enum rcc_param id, const char *val)
{
	struct kernel_param kp = st_kp(id);

	return rcc_param_ops.set(val, &kp);
}

/* The floor is fixed: the test never changes minimum_rate_percent. */
static u64 st_floor(u64 line_rate)
{
	return div64_u64(line_rate *
			 rcc_param_descs[RCC_MINIMUM_RATE_PERCENT].def, 100);
}

/* One QP against the spec's invariants and the driver's reports. */
static void st_check_qp(struct st_thread *t, struct st_dev *sd,
			struct st_qp *q)
{
	u64 r = sd->line_rate, floor = st_floor(r), rc, rt;
	struct rcc_flow_state st;
	const char *qn = sd->fd.hdev.name;
	u32 qpn = q->fq.hqp.qpn;

	t->checks++;
	if (!fake_qp_state(&q->fq, &st)) {
		st_fail(t, "%s qp%u: not attached", qn, qpn);
		return;
	}
	rc = st.core.current_bps;
	rt = st.core.target_bps;
	if (st.line_rate_bps != r)
		st_fail(t, "%s qp%u: R %llu, not %llu", qn, qpn,
			st.line_rate_bps, r);
	if (rc < floor || rc > r)
		st_fail(t, "%s qp%u: rc %llu outside [%llu, %llu]", qn, qpn,
			rc, floor, r);
	if (st.core.congested && (rt < floor || rt > r))
		st_fail(t, "%s qp%u: rt %llu outside [%llu, %llu]", qn, qpn,
			rt, floor, r);
	if (!st.core.congested && rc != r)
		st_fail(t, "%s qp%u: rc %llu != R %llu outside an episode",
			qn, qpn, rc, r);
	if (st.core.estimate > RCC_EST_ONE)
		st_fail(t, "%s qp%u: a = %u > 1", qn, qpn, st.core.estimate);
	/* UP (UML): no timer callback can be waiting for the QP's lock. */
	if (!IS_ENABLED(CONFIG_SMP) && st.core.congested && !st.timer_armed)
		st_fail(t, "%s qp%u: congested without a timer", qn, qpn);
	if (st.cnt.cnps != q->cnps || st.cnt.pkts != q->pkts)
		st_fail(t, "%s qp%u: counted %llu CNPs %llu pkts, reported %llu %llu",
			qn, qpn, st.cnt.cnps, st.cnt.pkts, q->cnps, q->pkts);
	if (st.cnt.episodes_ended > st.cnt.episodes ||
	    st.cnt.episodes > st.cnt.cnps || st.cnt.runs < st.cnt.episodes)
		st_fail(t, "%s qp%u: episodes %llu ended %llu runs %llu cnps %llu",
			qn, qpn, st.cnt.episodes, st.cnt.episodes_ended,
			st.cnt.runs, st.cnt.cnps);
	if (READ_ONCE(q->fq.nr_bad))
		st_fail(t, "%s qp%u: %u set_rate calls broke the contract",
			qn, qpn, q->fq.nr_bad);
}

/* The device's counters: its live QPs' plus those of QPs detached. */
static void st_check_dev(struct st_thread *t, struct st_dev *sd,
			 unsigned int nr_live, struct rcc_counters *out)
{
	struct rcc_dev *d = sd->fd.hdev.cc_priv;
	struct rcc_counters sum;
	unsigned int nq, ncong;

	if (!d) {
		st_fail(t, "%s: not attached", sd->fd.hdev.name);
		return;
	}
	rcc_dev_counters(d, &sum, &nq, &ncong);
	if (out)
		*out = sum;
	if (sum.cnps != sd->cnps || sum.pkts != sd->pkts || nq != nr_live)
		st_fail(t, "%s: counted %llu CNPs %llu pkts %u QPs, reported %llu %llu %u",
			sd->fd.hdev.name, sum.cnps, sum.pkts, nq, sd->cnps,
			sd->pkts, nr_live);
}

static void st_qp_attach(struct st_thread *t, struct st_dev *sd,
			 struct st_qp *q)
{
	u32 qpn = t->id * 1000000 + t->next_qpn++;

	q->cnps = 0;
	q->pkts = 0;
	if (fake_qp_add(&sd->fd, &q->fq, qpn))
		st_fail(t, "%s: adding qp%u failed", sd->fd.hdev.name, qpn);
	if (!rcu_access_pointer(q->fq.hqp.cc_priv))
		st_fail(t, "%s qp%u: rdma_cc did not attach", sd->fd.hdev.name,
			qpn);
}

/* Check, then detach; afterwards the driver is never told a rate again. */
static void st_qp_detach(struct st_thread *t, struct st_dev *sd,
			 struct st_qp *q)
{
	unsigned int calls;

	st_check_qp(t, sd, q);
	rdma_cc_hook_del_qp(&q->fq.hqp);
	/* A driver's late events for it reach nothing and count nowhere. */
	rdma_cc_hook_cnp(&q->fq.hqp);
	rdma_cc_hook_tx(&q->fq.hqp, 1);
	t->stray++;
	calls = fake_qp_calls(&q->fq);
	udelay(ST_T_MAX / 1000);
	if (fake_qp_calls(&q->fq) != calls)
		st_fail(t, "%s qp%u: set_rate after detach", sd->fd.hdev.name,
			q->fq.hqp.qpn);
}

static int st_dev_add(struct st_thread *t, struct st_dev *sd)
{
	int i;

	sd->line_rate = st_line_rates[st_rand(t, ARRAY_SIZE(st_line_rates))];
	sd->cnps = 0;
	sd->pkts = 0;
	sd->written = 0;
	if (fake_dev_register(&sd->fd, "st", sd->line_rate)) {
		st_fail(t, "registering a device failed");
		return -EIO;
	}
	if (!sd->fd.hdev.cc_priv) {
		st_fail(t, "%s: rdma_cc did not attach", sd->fd.hdev.name);
		rdma_cc_hook_unregister_dev(&sd->fd.hdev);
		return -EIO;
	}
	sd->live = true;
	for (i = 0; i < ST_QPS; i++)
		st_qp_attach(t, sd, &sd->qp[i]);
	return 0;
}

static void st_dev_remove(struct st_thread *t, struct st_dev *sd)
{
	struct rcc_counters sum = {};
	int i;

	if (!sd->live)
		return;
	st_check_dev(t, sd, ST_QPS, NULL);
	for (i = 0; i < ST_QPS; i++)
		st_qp_detach(t, sd, &sd->qp[i]);
	/* Detached QPs' counters stay in the device's. */
	st_check_dev(t, sd, 0, &sum);
	t->counted_cnps += sum.cnps;
	t->counted_pkts += sum.pkts;
	t->runs += sum.runs;
	t->episodes += sum.episodes;
	rdma_cc_hook_unregister_dev(&sd->fd.hdev);
	sd->live = false;
}

/* A value in range, or a bad one of many kinds. */
static void st_value(struct st_thread *t, enum rcc_param id, bool valid,
		     char *buf, size_t len)
{
	const struct rcc_param_desc *desc = &rcc_param_descs[id];
	static const char * const bad[] = {
		"", "-1", "+5", " 7", "7 ", "0x10", "1e3", "1.5", "abc",
		"5\n\n", "4294967296", "99999999999999999999", "7\t",
	};
	u32 v;

	if (valid) {
		if (id == RCC_CONTROL_INTERVAL_NS)
			v = ST_T_MIN + st_rand(t, ST_T_MAX - ST_T_MIN + 1);
		else
			v = desc->min + st_rand(t, desc->max - desc->min + 1);
		snprintf(buf, len, st_rand(t, 2) ? "%u\n" : "%u", v);
		return;
	}
	switch (st_rand(t, 3)) {
	case 0:
		if (desc->min > 0) {
			snprintf(buf, len, "%u", desc->min - 1);
			break;
		}
		fallthrough;
	case 1:
		snprintf(buf, len, "%u\n", desc->max + 1);
		break;
	default:
		strscpy(buf, bad[st_rand(t, ARRAY_SIZE(bad))], len);
	}
}

/*
 * A parameter write, to one of the thread's devices or to the global
 * parameters.  Valid writes never touch R or the floor (data_rate_mbps,
 * minimum_rate_percent), so the invariants keep fixed bounds.
 */
static void st_write(struct st_thread *t)
{
	enum rcc_param id = st_rand(t, RCC_NR_PARAMS);
	bool valid = st_rand(t, 2) && id != RCC_DATA_RATE_MBPS &&
		     id != RCC_MINIMUM_RATE_PERCENT;
	struct st_dev *sd = &t->dev[st_rand(t, ST_DEVS)];
	char buf[32];
	ssize_t ret;
	u32 v;

	st_value(t, id, valid, buf, sizeof(buf));
	if (st_rand(t, 2) || !sd->live) {
		ret = st_global_set(id, buf);
		if (ret != (valid ? 0 : -EINVAL))
			st_fail(t, "global %s <- \"%s\": %zd",
				rcc_param_descs[id].name, buf, ret);
	} else {
		ret = fake_dev_store(&sd->fd, id, buf);
		if (ret != (valid ? (ssize_t)strlen(buf) : -EINVAL))
			st_fail(t, "%s %s <- \"%s\": %zd", sd->fd.hdev.name,
				rcc_param_descs[id].name, buf, ret);
		if (valid && !rcc_parse_u32(buf, &v)) {
			sd->own[id] = v;
			sd->written |= BIT(id);
		}
		/* A value this thread wrote only it changes. */
		if (sd->written & BIT(id) &&
		    fake_dev_show(&sd->fd, id) != sd->own[id])
			st_fail(t, "%s %s: shows %u after \"%s\", not %u",
				sd->fd.hdev.name, rcc_param_descs[id].name,
				fake_dev_show(&sd->fd, id), buf, sd->own[id]);
	}
	if (valid)
		t->writes_ok++;
	else
		t->writes_bad++;
}

static void st_event(struct st_thread *t, bool cnp)
{
	struct st_dev *sd = &t->dev[st_rand(t, ST_DEVS)];
	struct st_qp *q = &sd->qp[st_rand(t, ST_QPS)];
	unsigned long flags = 0;
	u32 n = 1 + st_rand(t, 16);

	if (!sd->live)
		return;
	if (t->irqs_off)
		local_irq_save(flags);
	if (cnp)
		rdma_cc_hook_cnp(&q->fq.hqp);
	else
		rdma_cc_hook_tx(&q->fq.hqp, n);
	if (t->irqs_off)
		local_irq_restore(flags);
	if (cnp) {
		q->cnps++;
		sd->cnps++;
		t->cnps++;
	} else {
		q->pkts += n;
		sd->pkts += n;
		t->pkts += n;
	}
}

static int st_thread_fn(void *arg)
{
	struct st_thread *t = arg;
	unsigned int i, n = ST_OPS / ST_THREADS;
	struct st_dev *sd;
	u32 r;

	for (i = 0; i < ST_DEVS; i++)
		st_dev_add(t, &t->dev[i]);
	for (i = 0; i < n; i++) {
		r = st_rand(t, 10000);
		sd = &t->dev[st_rand(t, ST_DEVS)];
		if (r < ST_P_CNP) {
			st_event(t, true);
			t->ops[ST_OP_CNP]++;
		} else if (r < ST_P_TX) {
			st_event(t, false);
			t->ops[ST_OP_TX]++;
		} else if (r < ST_P_WRITE) {
			st_write(t);
			t->ops[ST_OP_WRITE]++;
		} else if (r < ST_P_CHECK) {
			if (sd->live) {
				st_check_qp(t, sd, &sd->qp[st_rand(t, ST_QPS)]);
				st_check_dev(t, sd, ST_QPS, NULL);
			}
			t->ops[ST_OP_CHECK]++;
		} else if (r < ST_P_QP) {
			if (sd->live) {
				struct st_qp *q = &sd->qp[st_rand(t, ST_QPS)];

				st_qp_detach(t, sd, q);
				st_check_dev(t, sd, ST_QPS - 1, NULL);
				st_qp_attach(t, sd, q);
				t->qp_cycles++;
			}
			t->ops[ST_OP_QP]++;
		} else {
			st_dev_remove(t, sd);
			st_dev_add(t, sd);
			t->dev_cycles++;
			t->ops[ST_OP_DEV]++;
		}
		/* UML does not preempt: let the other threads in. */
		if (i % 256 == 255)
			usleep_range(10, 30);
	}
	for (i = 0; i < ST_DEVS; i++)
		st_dev_remove(t, &t->dev[i]);
	complete(&t->done);
	return 0;
}

static void st_global_restore(void)
{
	char val[16];
	int i;

	for (i = 0; i < RCC_NR_PARAMS; i++) {
		snprintf(val, sizeof(val), "%u", rcc_param_descs[i].def);
		st_global_set(i, val);
	}
}

static void stress_random_ops(struct kunit *test)
{
	int live0 = atomic_read(&rcc_flows_live);
	int armed0 = atomic_read(&rcc_flows_freed_armed);
	u64 ops[ST_NR_OPS] = {}, total = 0, cnps = 0, counted_cnps = 0;
	u64 pkts = 0, counted_pkts = 0, ok = 0, bad = 0, qpc = 0, devc = 0;
	u64 checks = 0, runs = 0, episodes = 0, stray = 0;
	struct task_struct *task;
	struct st_thread *t;
	u64 start_ns, ms;
	int i, k;

	t = kunit_kcalloc(test, ST_THREADS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, st_global_set(RCC_CONTROL_INTERVAL_NS, "5000"),
			0);

	start_ns = ktime_get_ns();
	for (i = 0; i < ST_THREADS; i++) {
		prandom_seed_state(&t[i].rnd, 0x5eed0000ULL + i);
		t[i].id = i;
		t[i].irqs_off = fake_irqs_off(i % 2);
		init_completion(&t[i].done);
		task = kthread_run(st_thread_fn, &t[i], "rcc_stress_%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	}
	for (i = 0; i < ST_THREADS; i++)
		wait_for_completion(&t[i].done);
	ms = div_u64(ktime_get_ns() - start_ns, NSEC_PER_MSEC);
	st_global_restore();

	for (i = 0; i < ST_THREADS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, t[i].fails, 0U,
				    "thread %d: %u failures, the first: %s",
				    i, t[i].fails, t[i].first_fail);
		for (k = 0; k < ST_NR_OPS; k++)
			ops[k] += t[i].ops[k];
		cnps += t[i].cnps;
		pkts += t[i].pkts;
		counted_cnps += t[i].counted_cnps;
		counted_pkts += t[i].counted_pkts;
		ok += t[i].writes_ok;
		bad += t[i].writes_bad;
		qpc += t[i].qp_cycles;
		devc += t[i].dev_cycles;
		checks += t[i].checks;
		runs += t[i].runs;
		episodes += t[i].episodes;
		stray += t[i].stray;
	}
	for (k = 0; k < ST_NR_OPS; k++)
		total += ops[k];

	/* Every device is gone, and with it every QP and its timer. */
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), live0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_freed_armed), armed0);
	KUNIT_EXPECT_EQ(test, total, (u64)ST_OPS);
	KUNIT_EXPECT_EQ(test, counted_cnps, cnps);
	KUNIT_EXPECT_EQ(test, counted_pkts, pkts);
	/* The mix really happened. */
	for (k = 0; k < ST_NR_OPS; k++)
		KUNIT_EXPECT_GT_MSG(test, ops[k], 0ULL, "%s", st_op_names[k]);
	KUNIT_EXPECT_GT(test, qpc, 0ULL);
	KUNIT_EXPECT_GT(test, devc, 0ULL);
	/*
	 * ... and the loop ran past each episode's run 0 (made at the CNP):
	 * on its timers.  Not runs > 2 x episodes: with a margin above R
	 * (valid writes pick one often) an episode is run 0 and the increase
	 * that ends it, so on a slow kernel (KCSAN in qemu, one CNP every
	 * 100 us) runs are just under 2 x episodes, episodes cut short by a
	 * detach having run 0 only.
	 */
	KUNIT_EXPECT_GT(test, episodes, 0ULL);
	KUNIT_EXPECT_GT(test, runs, episodes + episodes / 2);

	kunit_info(test, "stress: %llu operations by %d threads in %llu ms: %llu CNPs, %llu tx reports (%llu packets), %llu parameter writes (%llu valid, %llu bad), %llu QP detach+attach, %llu device remove+add, %llu invariant checks, %llu CNP+tx to detached QPs; rdma_cc counted %llu CNPs and %llu packets, %llu episodes, %llu runs",
		   total, ST_THREADS, ms, ops[ST_OP_CNP], ops[ST_OP_TX], pkts,
		   ops[ST_OP_WRITE], ok, bad, qpc, devc, checks, stray,
		   counted_cnps, counted_pkts, episodes, runs);
}

static struct kunit_case stress_cases[] = {
	KUNIT_CASE(stress_random_ops),
	{}
};

/* Also when the test stopped half-way: the other suites' defaults. */
static void stress_exit(struct kunit *test)
{
	st_global_restore();
}

static struct kunit_suite stress_suite = {
	.name = "rdma_cc_stress",
	.exit = stress_exit,
	.test_cases = stress_cases,
};

kunit_test_suite(stress_suite);
