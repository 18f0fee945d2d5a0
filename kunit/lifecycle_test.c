// SPDX-License-Identifier: GPL-2.0
/*
 * lifecycle_test.c - loading and unloading the congestion control
 * (rcc_start/rcc_stop, what module_init/module_exit do) and adding and
 * deleting QPs, also while QPs are congested.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include "fake_driver.h"

#define LC_QPS 4
#define GBPS 1000000000ULL

struct lc_ctx {
	struct fake_dev *fd;
	struct fake_qp *fq[LC_QPS];
};

static int lc_init(struct kunit *test)
{
	struct lc_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;
	return 0;
}

static void lc_exit(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	int i;

	/* Whatever the test did, leave rdma_cc loaded (-EEXIST if it is). */
	rcc_start();
	for (i = 0; i < LC_QPS; i++)
		fake_qp_free(ctx->fq[i]);
	fake_dev_free(ctx->fd);
}

/*
 * A device with LC_QPS QPs, rdma_cc at the slowest loop (runs every 50 ms):
 * an episode lasts about 0.9 s after its CNP, long enough to still be
 * going after the steps a test takes, also in a slow qemu guest under
 * KCSAN (make kunit-smp), where 10 ms runs (0.18 s) ended it too soon.
 */
static void lc_setup(struct kunit *test, struct lc_ctx *ctx)
{
	int i;

	ctx->fd = fake_dev_new(test, "lc", 100 * GBPS);
	if (ctx->fd->hdev.cc_priv)
		KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd,
						     RCC_CONTROL_INTERVAL_NS,
						     "100000000"), 9);
	for (i = 0; i < LC_QPS; i++)
		ctx->fq[i] = fake_qp_new(test, ctx->fd, 100 + i);
}

static void lc_congest_all(struct kunit *test, struct lc_ctx *ctx)
{
	struct rcc_flow_state st;
	int i;

	for (i = 0; i < LC_QPS; i++) {
		KUNIT_EXPECT_TRUE(test, rdma_cc_hook_cnp(&ctx->fq[i]->hqp));
		KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[i], &st));
		KUNIT_EXPECT_TRUE(test, st.core.congested);
		KUNIT_EXPECT_TRUE(test, st.timer_armed);
		KUNIT_EXPECT_NE(test, fake_qp_rate(ctx->fq[i]), 0ULL);
	}
}

/* Unloading while congested: no timer left, every QP back at line rate,
 * nothing left allocated, and the driver is never called again.
 */
static void lc_unload_while_congested(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	unsigned int calls[LC_QPS];
	int i, armed = atomic_read(&rcc_flows_freed_armed);

	lc_setup(test, ctx);
	lc_congest_all(test, ctx);
	rcc_stop();
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_freed_armed), armed);
	KUNIT_EXPECT_NULL(test, ctx->fd->hdev.cc_priv);
	for (i = 0; i < LC_QPS; i++) {
		KUNIT_EXPECT_NULL(test, rcu_access_pointer(ctx->fq[i]->hqp.cc_priv));
		KUNIT_EXPECT_EQ(test, fake_qp_rate(ctx->fq[i]), 0ULL);
		KUNIT_EXPECT_EQ(test, ctx->fq[i]->nr_bad, 0U);
		calls[i] = fake_qp_calls(ctx->fq[i]);
	}
	/* CNPs and packets now go nowhere; no timer fires. */
	for (i = 0; i < LC_QPS; i++) {
		KUNIT_EXPECT_FALSE(test, rdma_cc_hook_cnp(&ctx->fq[i]->hqp));
		rdma_cc_hook_tx(&ctx->fq[i]->hqp, 5);
	}
	msleep(40);
	for (i = 0; i < LC_QPS; i++)
		KUNIT_EXPECT_EQ(test, fake_qp_calls(ctx->fq[i]), calls[i]);
	KUNIT_EXPECT_EQ(test, rcc_start(), 0);
}

/* Loading takes on the devices and QPs that already exist. */
static void lc_load_takes_on_existing(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	struct rcc_flow_state st;
	int i;

	rcc_stop();
	lc_setup(test, ctx);
	KUNIT_EXPECT_NULL(test, ctx->fd->hdev.cc_priv);
	/* Without rdma_cc: line rate, CNPs are harmless, no calls. */
	for (i = 0; i < LC_QPS; i++) {
		rdma_cc_hook_cnp(&ctx->fq[i]->hqp);
		rdma_cc_hook_tx(&ctx->fq[i]->hqp, 1);
		KUNIT_EXPECT_FALSE(test, fake_qp_state(ctx->fq[i], &st));
		KUNIT_EXPECT_EQ(test, fake_qp_calls(ctx->fq[i]), 0U);
	}
	KUNIT_ASSERT_EQ(test, rcc_start(), 0);
	KUNIT_EXPECT_EQ(test, rcc_start(), -EEXIST);
	KUNIT_ASSERT_NOT_NULL(test, ctx->fd->hdev.cc_priv);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), LC_QPS);
	for (i = 0; i < LC_QPS; i++) {
		KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[i], &st));
		KUNIT_EXPECT_FALSE(test, st.core.congested);
		KUNIT_EXPECT_EQ(test, st.core.current_bps, 100 * GBPS);
	}
	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_CONTROL_INTERVAL_NS,
					     "100000000"), 9);
	lc_congest_all(test, ctx);
}

/* Deleting a congested QP stops its timer and its calls at once; adding
 * a QP to a congested device starts it free at line rate.
 */
static void lc_del_add_while_congested(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	struct rcc_flow_state st;
	unsigned int calls;
	struct fake_qp *fq;
	int live;

	lc_setup(test, ctx);
	lc_congest_all(test, ctx);
	live = atomic_read(&rcc_flows_live);

	fq = ctx->fq[0];
	ctx->fq[0] = NULL;
	rdma_cc_hook_del_qp(&fq->hqp);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), live - 1);
	calls = fake_qp_calls(fq);
	/* Not told line rate: the QP is going away, not the CC. */
	KUNIT_EXPECT_NE(test, fake_qp_rate(fq), 0ULL);
	msleep(40);
	KUNIT_EXPECT_EQ(test, fake_qp_calls(fq), calls);
	synchronize_rcu();
	kfree(fq);

	ctx->fq[0] = fake_qp_new(test, ctx->fd, 200);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[0], &st));
	KUNIT_EXPECT_FALSE(test, st.core.congested);
	KUNIT_EXPECT_FALSE(test, st.timer_armed);
	KUNIT_EXPECT_EQ(test, fake_qp_calls(ctx->fq[0]), 0U);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[1], &st));
	KUNIT_EXPECT_TRUE(test, st.core.congested);
}

/* A device that goes away with congested QPs: everything stops. */
static void lc_unregister_dev_while_congested(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	int i, live;

	lc_setup(test, ctx);
	lc_congest_all(test, ctx);
	live = atomic_read(&rcc_flows_live);
	for (i = 0; i < LC_QPS; i++) {
		fake_qp_free(ctx->fq[i]);
		ctx->fq[i] = NULL;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), live - LC_QPS);
	fake_dev_free(ctx->fd);
	ctx->fd = NULL;
}

/*
 * rdma_cc_hook_cnp() says whether a congestion control took the CNP.  A
 * driver counts rp_cnp_handled by it, so that count equals the CNPs the
 * QPs counted: a CNP for a QP being deleted, or on a device at line rate
 * or with rdma_cc unloaded, is taken by no one (rp_cnp_ignored).
 */
static void lc_cnp_tells_whether_taken(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	struct rdma_cc_hook_dev *hdev;
	struct rcc_flow_state st;
	struct fake_qp *fq;

	lc_setup(test, ctx);
	hdev = &ctx->fd->hdev;
	KUNIT_EXPECT_TRUE(test, rdma_cc_hook_cnp(&ctx->fq[0]->hqp));
	KUNIT_EXPECT_TRUE(test, rdma_cc_hook_cnp(&ctx->fq[0]->hqp));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[0], &st));
	KUNIT_EXPECT_EQ(test, st.cnt.cnps, 2ULL);

	fq = ctx->fq[1];
	ctx->fq[1] = NULL;
	rdma_cc_hook_del_qp(&fq->hqp);
	KUNIT_EXPECT_FALSE(test, rdma_cc_hook_cnp(&fq->hqp));
	synchronize_rcu();
	kfree(fq);

	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(hdev, "none"), 0);
	KUNIT_EXPECT_FALSE(test, rdma_cc_hook_cnp(&ctx->fq[0]->hqp));
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(hdev, "rdma_cc"), 0);
	KUNIT_EXPECT_TRUE(test, rdma_cc_hook_cnp(&ctx->fq[0]->hqp));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[0], &st));
	KUNIT_EXPECT_EQ(test, st.cnt.cnps, 1ULL);

	rcc_stop();
	KUNIT_EXPECT_FALSE(test, rdma_cc_hook_cnp(&ctx->fq[0]->hqp));
	KUNIT_EXPECT_EQ(test, rcc_start(), 0);
	KUNIT_EXPECT_TRUE(test, rdma_cc_hook_cnp(&ctx->fq[0]->hqp));
}

/* The hook refuses a device a driver forgot to describe. */
static void lc_register_dev_rejects_incomplete(struct kunit *test)
{
	static const struct rdma_cc_rp_ops no_cb;
	struct rdma_cc_hook_dev dev = { .ops = NULL };

	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_dev(&dev), -EINVAL);
	strscpy(dev.name, "lcbad", sizeof(dev.name));
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_dev(&dev), -EINVAL);
	dev.ops = &no_cb;
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_dev(&dev), -EINVAL);
}

/*
 * A QP the driver left on a device it unregistered is unlinked there, once:
 * its later rdma_cc_hook_del_qp() does nothing.  It unlinked the QP with
 * list_del() and unlinked it again, a double list_del (CONFIG_DEBUG_LIST
 * reports it, without it the second one writes through LIST_POISON).
 */
static void lc_del_qp_after_unregister_dev(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	struct rcc_flow_state st;
	int live;

	lc_setup(test, ctx);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq[0], &st));
	live = atomic_read(&rcc_flows_live);

	rdma_cc_hook_unregister_dev(&ctx->fd->hdev);
	ctx->fd->registered = false;
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->fq[0]->hqp.list));
	KUNIT_EXPECT_NULL(test, ctx->fq[0]->hqp.dev);
	KUNIT_EXPECT_FALSE(test, fake_qp_state(ctx->fq[0], &st));
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), live - LC_QPS);

	/* the driver deletes its QPs after all: nothing happens */
	rdma_cc_hook_del_qp(&ctx->fq[0]->hqp);
	KUNIT_EXPECT_TRUE(test, list_empty(&ctx->fq[0]->hqp.list));
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), live - LC_QPS);
}

static int lc_nop_attach_dev(struct rdma_cc_hook_dev *dev)
{
	return -ENODEV;
}

/*
 * register_cc checks its ops: every callback and a name; one of the name
 * loaded already is -EEXIST, another name joins the registry (the devices
 * stay on the default).
 * Nothing changes on a refusal.
 */
static void lc_register_cc_validates(struct kunit *test)
{
	struct rdma_cc_cc_ops ops = rcc_cc_ops;
	struct lc_ctx *ctx = test->priv;
	struct rcc_flow_state st;

	lc_setup(test, ctx);
	/* another name joins the registry; the devices stay on rdma_cc */
	ops.name = "lc_other";
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&ops), 0);
	KUNIT_EXPECT_PTR_EQ(test, ctx->fd->hdev.cc, &rcc_cc_ops);
	rdma_cc_hook_unregister_cc(&ops);
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&rcc_cc_ops), -EEXIST);
	KUNIT_EXPECT_EQ(test, rcc_start(), -EEXIST);

	rcc_stop();
	ops.attach_dev = lc_nop_attach_dev;
	ops.tx = NULL;
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&ops), -EINVAL);
	ops.tx = rcc_cc_ops.tx;
	ops.name = "";
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&ops), -EINVAL);
	ops.name = NULL;
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(&ops), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_register_cc(NULL), -EINVAL);
	/* refused: the device stayed free */
	KUNIT_EXPECT_NULL(test, ctx->fd->hdev.cc_priv);
	KUNIT_EXPECT_FALSE(test, fake_qp_state(ctx->fq[0], &st));

	KUNIT_EXPECT_EQ(test, rcc_start(), 0);
	KUNIT_EXPECT_TRUE(test, fake_qp_state(ctx->fq[0], &st));
}

/*
 * Issue 19 item 11: one device's slow work stalls no other device's QPs.
 * lc_slow is a congestion control whose attach_qp() blocks (once) until
 * released: a move of device A to it then holds the hook's mutex and A's
 * lock for as long as the test likes, as a move's grace periods and
 * per-QP allocations do.  A QP of device B is added, takes a CNP, is
 * summed in B's debugfs counters and deleted by a kthread meanwhile, and
 * must be done within LC_OTHER_MS.
 */
#define LC_OTHER_MS 5000

static struct {
	struct completion entered;
	struct completion release;
	atomic_t calls;
} lc_slow;

static int lc_slow_attach_dev(struct rdma_cc_hook_dev *dev)
{
	return 0;
}

static void lc_slow_detach_dev(struct rdma_cc_hook_dev *dev)
{
}

static void *lc_slow_attach_qp(struct rdma_cc_hook_qp *qp)
{
	if (atomic_inc_return(&lc_slow.calls) == 1) {
		complete(&lc_slow.entered);
		wait_for_completion(&lc_slow.release);
	}
	return NULL;	/* the QP runs at line rate */
}

static void lc_slow_detach_qp(struct rdma_cc_hook_qp *qp, void *priv,
			      bool to_line_rate)
{
}

static bool lc_slow_cnp(void *priv)
{
	return false;
}

static void lc_slow_tx(void *priv, u32 npkts)
{
}

static const struct rdma_cc_cc_ops lc_slow_ops = {
	.name = "lc_slow",
	.attach_dev = lc_slow_attach_dev,
	.detach_dev = lc_slow_detach_dev,
	.attach_qp = lc_slow_attach_qp,
	.detach_qp = lc_slow_detach_qp,
	.cnp = lc_slow_cnp,
	.tx = lc_slow_tx,
};

struct lc_mover {
	struct rdma_cc_hook_dev *dev;
	struct completion done;
	int err;
};

static int lc_mover_run(void *arg)
{
	struct lc_mover *m = arg;

	m->err = rdma_cc_hook_set_dev_cc(m->dev, "lc_slow");
	complete(&m->done);
	return 0;
}

struct lc_other {
	struct fake_dev *fd;
	struct completion done;
	int err;
	bool cnp_taken;
	u64 cnps;
	u64 episodes;
	unsigned int qps;
};

/* A QP's whole life on @o->fd, as a kthread (no KUnit assertions here). */
static int lc_other_run(void *arg)
{
	struct lc_other *o = arg;
	struct rcc_counters sum;
	struct rcc_flow_state st;
	unsigned int cong;
	struct fake_qp *fq;

	fq = kzalloc(sizeof(*fq), GFP_KERNEL);
	o->err = fq ? fake_qp_add(o->fd, fq, 7) : -ENOMEM;
	if (!o->err) {
		o->cnp_taken = rdma_cc_hook_cnp(&fq->hqp);
		if (fake_qp_state(fq, &st)) {
			o->cnps = st.cnt.cnps;
			o->episodes = st.cnt.episodes;
		}
		rcc_dev_counters(o->fd->hdev.cc_priv, &sum, &o->qps, &cong);
		fake_qp_free(fq);
	} else {
		kfree(fq);
	}
	complete(&o->done);
	return 0;
}

/* Run lc_other_run() on @fd; true if it was done within LC_OTHER_MS. */
static bool lc_other_start(struct kunit *test, struct lc_other *o,
			   struct fake_dev *fd)
{
	struct task_struct *t;

	memset(o, 0, sizeof(*o));
	o->fd = fd;
	init_completion(&o->done);
	t = kthread_run(lc_other_run, o, "lc_other");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return wait_for_completion_timeout(&o->done,
					   msecs_to_jiffies(LC_OTHER_MS));
}

/*
 * After lc_other_start() (and whatever held the other device up is let
 * go): the QP's life must have ended within LC_OTHER_MS, and have gone
 * as on an idle host.
 */
static void lc_expect_other_done(struct kunit *test, struct lc_other *o,
				 bool in_time, const char *held)
{
	if (!in_time)
		wait_for_completion(&o->done);
	KUNIT_EXPECT_TRUE_MSG(test, in_time, "a QP of B waited for %s", held);
	KUNIT_EXPECT_EQ(test, o->err, 0);
	KUNIT_EXPECT_TRUE(test, o->cnp_taken);
	/* counted, whether or not its episode is over (a slow guest) */
	KUNIT_EXPECT_EQ(test, o->cnps, 1ULL);
	KUNIT_EXPECT_EQ(test, o->episodes, 1ULL);
	KUNIT_EXPECT_EQ(test, o->qps, 1U);
}

static void lc_slow_device_stalls_no_other(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	struct fake_dev *b;
	struct task_struct *t;
	struct lc_mover m;
	struct lc_other o;
	unsigned long entered;
	struct rcc_dev *a;
	bool in_time;

	lc_setup(test, ctx);
	b = fake_dev_new(test, "lcb", 100 * GBPS);
	KUNIT_ASSERT_NOT_NULL(test, b->hdev.cc_priv);

	/* A's counters being summed under A's flows_lock (a summary's last try) */
	a = ctx->fd->hdev.cc_priv;
	KUNIT_ASSERT_NOT_NULL(test, a);
	mutex_lock(&a->flows_lock);
	in_time = lc_other_start(test, &o, b);
	mutex_unlock(&a->flows_lock);
	lc_expect_other_done(test, &o, in_time, "A's flows_lock");

	/* A moving to lc_slow: the hook's mutex and A's lock held */
	init_completion(&lc_slow.entered);
	init_completion(&lc_slow.release);
	atomic_set(&lc_slow.calls, 0);
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_register_cc(&lc_slow_ops), 0);
	m.dev = &ctx->fd->hdev;
	init_completion(&m.done);
	t = kthread_run(lc_mover_run, &m, "lc_mover");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	entered = wait_for_completion_timeout(&lc_slow.entered,
					      msecs_to_jiffies(LC_OTHER_MS));
	KUNIT_EXPECT_TRUE(test, entered);
	in_time = lc_other_start(test, &o, b);
	complete(&lc_slow.release);
	lc_expect_other_done(test, &o, in_time, "A's move");
	wait_for_completion(&m.done);
	KUNIT_EXPECT_EQ(test, m.err, 0);
	KUNIT_EXPECT_PTR_EQ(test, ctx->fd->hdev.cc, &lc_slow_ops);

	KUNIT_EXPECT_EQ(test, rdma_cc_hook_set_dev_cc(&ctx->fd->hdev, "rdma_cc"), 0);
	rdma_cc_hook_unregister_cc(&lc_slow_ops);
	fake_dev_free(b);
}

struct lc_waiter {
	void (*wait)(void);		/* a module exit's wait for releases */
	struct completion done;
};

static int lc_waiter_run(void *arg)
{
	struct lc_waiter *w = arg;

	w->wait();
	complete(&w->done);
	return 0;
}

/*
 * @kobj is held by a reader (an open sysfs file) and by nothing else:
 * expect @wait, run by a kthread, to go on waiting while the reader holds
 * it, and to return once the reader lets go.  The release may come up to
 * 4 s after the last put under CONFIG_DEBUG_KOBJECT_RELEASE.
 */
static void lc_expect_wait_for_release(struct kunit *test,
				       struct kobject *kobj,
				       void (*wait)(void))
{
	struct lc_waiter w = { .wait = wait };
	struct task_struct *t;
	unsigned long early, left;

	init_completion(&w.done);
	t = kthread_run(lc_waiter_run, &w, "lc_waiter");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* still held: the wait goes on */
	early = wait_for_completion_timeout(&w.done, msecs_to_jiffies(300));
	KUNIT_EXPECT_EQ(test, early, 0UL);
	kobject_put(kobj);		/* the reader closes its file */
	if (early)
		return;			/* the waiter is done already */
	left = wait_for_completion_timeout(&w.done, msecs_to_jiffies(10000));
	KUNIT_EXPECT_NE(test, left, 0UL);
	if (!left)			/* @w must outlive the kthread */
		wait_for_completion(&w.done);
}

/*
 * A device's kobject outlives rdma_cc's hold on it while a reader holds
 * it: module exit waits in rcc_sysfs_wait_released() until the release
 * has run, so that it never runs after the module's text and ktype are
 * gone.  Without that wait this test's waiter returns at once.
 */
static void lc_exit_waits_for_kobject_release(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	struct rcc_dev *d;

	lc_setup(test, ctx);
	d = ctx->fd->hdev.cc_priv;
	KUNIT_ASSERT_NOT_NULL(test, d);
	kobject_get(&d->kobj);		/* the reader's reference */
	rcc_stop();			/* rdma_cc lets go of the device */
	lc_expect_wait_for_release(test, &d->kobj, rcc_sysfs_wait_released);
}

/*
 * The same for the hook's own directory of a device
 * (/sys/kernel/rdma_cc_hook/<dev>/): a reader may hold it after the
 * device is unregistered, and the hook's exit waits for its release.
 */
static void lc_hook_exit_waits_for_kobject_release(struct kunit *test)
{
	struct lc_ctx *ctx = test->priv;
	struct kobject *kobj;

	lc_setup(test, ctx);
	kobj = ctx->fd->hdev.kobj;
	KUNIT_ASSERT_NOT_NULL(test, kobj);
	kobject_get(kobj);		/* the reader's reference */
	rdma_cc_hook_unregister_dev(&ctx->fd->hdev);
	ctx->fd->registered = false;
	KUNIT_EXPECT_NULL(test, ctx->fd->hdev.kobj);
	lc_expect_wait_for_release(test, kobj, rdma_cc_hook_wait_released);
}

static struct kunit_case lc_cases[] = {
	KUNIT_CASE(lc_unload_while_congested),
	KUNIT_CASE(lc_load_takes_on_existing),
	KUNIT_CASE(lc_del_add_while_congested),
	KUNIT_CASE(lc_unregister_dev_while_congested),
	KUNIT_CASE(lc_cnp_tells_whether_taken),
	KUNIT_CASE(lc_register_dev_rejects_incomplete),
	KUNIT_CASE(lc_del_qp_after_unregister_dev),
	KUNIT_CASE(lc_register_cc_validates),
	KUNIT_CASE(lc_slow_device_stalls_no_other),
	KUNIT_CASE(lc_exit_waits_for_kobject_release),
	KUNIT_CASE(lc_hook_exit_waits_for_kobject_release),
	{}
};

static struct kunit_suite lc_suite = {
	.name = "rdma_cc_lifecycle",
	.init = lc_init,
	.exit = lc_exit,
	.test_cases = lc_cases,
};

kunit_test_suite(lc_suite);
