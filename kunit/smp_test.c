// SPDX-License-Identifier: GPL-2.0
/*
 * mcpu_test.c - rdma_cc's paths on several CPUs at once: one kernel thread
 * bound to each online CPU (kthread_bind), all released together by a
 * start barrier, for SMP_MS of time each: CNP storms and packet reports
 * while the QPs' hrtimers fire on whichever CPU armed them, parameter
 * writes through the real sysfs and module-parameter handlers, QP destroy
 * and re-create, device unregister and re-register, and rcc_stop() and
 * rcc_start() (what unloading and loading the module do).
 *
 * Each case asserts behaviour, not only survival: every CNP and packet
 * sent to a live QP counted, every rate told within [floor, R], after a
 * calm stretch no QP congested and no timer armed, no set_rate() after
 * rdma_cc_hook_del_qp() or rcc_stop() returned.  And a timer check: the
 * QPs' timers run through a wrapper that, after rdma_cc's callback
 * returns, looks (under the QP's lock) at a timer another CPU queued while
 * the callback ran; its expiry must be the one it was queued with (seen
 * by a probe on the hrtimer_start tracepoint).  A callback that rewrites
 * the expiry of a queued timer moves a node inside the timer queue
 * without re-sorting it: the race of rcc_flow_timer() before the fix.
 *
 * The cases skip on one CPU (UML): there nothing runs at once.  Each
 * prints the operations it ran ("smp: ...").
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <trace/events/timer.h>

#include "fake_driver.h"

#define SMP_MS		3000	/* each case's busy time */
#define SMP_MAX_THREADS	8
#define SMP_QPS		4	/* per device */
#define SMP_DEVS	2
#define SMP_SLOTS	(2 * SMP_DEVS * SMP_QPS * 2)
#define GBPS		1000000000ULL
#define SMP_LINE_RATE	(100 * GBPS)
/* the second storm device: a calm episode lasts about 16 increases */
#define MCPU_MARGIN_MBPS	1
#define MCPU_SLOW_US		10

/* ---- the timer check ---------------------------------------------- */

struct mcpu_timer_slot {
	struct hrtimer *timer;		/* NULL: free */
	atomic64_t queued_ns;		/* expiry at the last enqueue */
};

static struct mcpu_timer_slot mcpu_slots[SMP_SLOTS];
static enum hrtimer_restart (*mcpu_rcc_timer_fn)(struct hrtimer *);
static atomic64_t mcpu_fired, mcpu_interleaved, mcpu_rewritten;
static bool mcpu_probe_on;

static struct mcpu_timer_slot *mcpu_slot_of(struct hrtimer *timer)
{
	int i;

	for (i = 0; i < SMP_SLOTS; i++)
		if (READ_ONCE(mcpu_slots[i].timer) == timer)
			return &mcpu_slots[i];
	return NULL;
}

static enum hrtimer_restart mcpu_timer_fn(struct hrtimer *timer);

/* The hrtimer_start tracepoint: every enqueue, with the expiry set. */
#ifdef RCC_TP_HRTIMER_START_WAS_ARMED
static void mcpu_probe(void *data, struct hrtimer *timer,
		       enum hrtimer_mode mode, bool was_armed)
#else
static void mcpu_probe(void *data, struct hrtimer *timer,
		       enum hrtimer_mode mode)
#endif
{
	struct mcpu_timer_slot *s;

	if (READ_ONCE(timer->function) != mcpu_timer_fn)
		return;
	s = mcpu_slot_of(timer);
	if (s)
		atomic64_set(&s->queued_ns,
			     ktime_to_ns(hrtimer_get_expires(timer)));
}

/*
 * The interleaving on demand (smp_timer_rearm): the callback of the timer
 * mcpu_hold names says it has started, then waits (before rdma_cc's
 * callback takes the QP's lock) until mcpu_release, at most 200 ms.
 */
static struct hrtimer *mcpu_hold;
static int mcpu_entered, mcpu_release, mcpu_held_done;

static void mcpu_hold_here(struct hrtimer *timer)
{
	u64 t0;

	if (READ_ONCE(mcpu_hold) != timer)
		return;
	WRITE_ONCE(mcpu_hold, NULL);
	t0 = ktime_get_ns();
	/* pairs with the release in mcpu_rearm_round() */
	smp_store_release(&mcpu_entered, 1);
	/* pairs with the release in mcpu_rearm_round(): B's CNP is done */
	while (!smp_load_acquire(&mcpu_release) &&
	       ktime_get_ns() - t0 < 200 * NSEC_PER_MSEC)
		cpu_relax();
}

static enum hrtimer_restart mcpu_timer_fn(struct hrtimer *timer)
{
	struct rcc_flow *f = container_of(timer, struct rcc_flow, timer);
	struct mcpu_timer_slot *s = mcpu_slot_of(timer);
	bool held = READ_ONCE(mcpu_hold) == timer;
	enum hrtimer_restart ret;
	unsigned long flags;

	mcpu_hold_here(timer);
	ret = mcpu_rcc_timer_fn(timer);
	atomic64_inc(&mcpu_fired);
	if (!s)
		return ret;
	/*
	 * Every path that arms the timer holds f->lock: under it, a timer
	 * that is queued now was queued by another CPU while the callback
	 * ran, and still has the expiry it was queued with unless the
	 * callback changed it afterwards.
	 */
	spin_lock_irqsave(&f->lock, flags);
	if (hrtimer_is_queued(timer)) {
		atomic64_inc(&mcpu_interleaved);
		/* data_race: armed under f->lock, but the fix may change that */
		if (data_race(ktime_to_ns(hrtimer_get_expires(timer))) !=
		    atomic64_read(&s->queued_ns))
			atomic64_inc(&mcpu_rewritten);
	}
	spin_unlock_irqrestore(&f->lock, flags);
	if (held)
		/* pairs with the acquire in mcpu_rearm_round() */
		smp_store_release(&mcpu_held_done, 1);
	return ret;
}

/* Route @fq's timer through the wrapper; before any CNP reaches it. */
static int mcpu_wrap(struct fake_qp *fq)
{
	struct rcc_flow *f = rcu_dereference_protected(fq->hqp.cc_priv, 1);
	int i;

	if (!f)
		return -ENOENT;
	if (!mcpu_rcc_timer_fn)
		mcpu_rcc_timer_fn = f->timer.function;
	if (f->timer.function != mcpu_rcc_timer_fn)
		return -EINVAL;
	for (i = 0; i < SMP_SLOTS; i++) {
		if (!cmpxchg(&mcpu_slots[i].timer, NULL, &f->timer)) {
			atomic64_set(&mcpu_slots[i].queued_ns, 0);
			WRITE_ONCE(f->timer.function, mcpu_timer_fn);
			return 0;
		}
	}
	return -ENOSPC;
}

/* After rdma_cc_hook_del_qp() (the timer is cancelled, the flow dying). */
static void mcpu_unwrap(struct rcc_flow *f)
{
	struct mcpu_timer_slot *s = f ? mcpu_slot_of(&f->timer) : NULL;

	if (s)
		WRITE_ONCE(s->timer, NULL);
}

static void mcpu_check_start(struct kunit *test)
{
	memset(mcpu_slots, 0, sizeof(mcpu_slots));
	atomic64_set(&mcpu_fired, 0);
	atomic64_set(&mcpu_interleaved, 0);
	atomic64_set(&mcpu_rewritten, 0);
	mcpu_probe_on = !register_trace_hrtimer_start(mcpu_probe, NULL);
	if (!mcpu_probe_on)
		kunit_info(test, "smp: no hrtimer_start tracepoint: expiry check off");
}

static void mcpu_check_stop(void)
{
	if (mcpu_probe_on) {
		unregister_trace_hrtimer_start(mcpu_probe, NULL);
		tracepoint_synchronize_unregister();
		mcpu_probe_on = false;
	}
}

/* ---- threads on every CPU, released at once ----------------------- */

struct mcpu_ctx;

struct mcpu_thread {
	struct mcpu_ctx *ctx;
	int id, cpu;
	struct rnd_state rnd;
	int (*fn)(struct mcpu_thread *t);	/* one operation; <0: stop */
	u64 ops, sends;
	unsigned int fails;
	char first_fail[160];
	struct completion done;
};

struct mcpu_qp {
	struct fake_qp fq;
	atomic64_t cnps, pkts;	/* sent while attached (see users) */
	unsigned int calls;	/* set_rate calls when detached */
	bool live;
};

/* A device's QP slot: the QP the senders use now (RCU), and a spare. */
struct mcpu_qp_slot {
	struct mcpu_qp __rcu *cur;
	struct mcpu_qp qp[2];
	int which;
};

struct mcpu_dev {
	struct fake_dev fd;
	struct mcpu_qp_slot slot[SMP_QPS];
	atomic64_t stray;	/* events sent to QPs being deleted */
};

struct mcpu_ctx {
	struct kunit *test;
	int nr_threads;
	atomic_t ready;
	int go;
	unsigned long end;		/* jiffies */
	struct mcpu_thread th[SMP_MAX_THREADS];
	struct mcpu_dev __rcu *dev[SMP_DEVS];	/* what senders see */
	struct mcpu_dev devs[SMP_DEVS][2];	/* and its spare */
	int which[SMP_DEVS];
	u64 floor;
	bool storm;		/* the storm's parameters and slow driver */
	/* what the churn did */
	u64 qp_cycles, dev_cycles, stop_cycles, writes, checks;
};

static __printf(2, 3) void mcpu_fail(struct mcpu_thread *t, const char *fmt, ...)
{
	va_list args;

	if (!t->fails++) {
		va_start(args, fmt);
		vsnprintf(t->first_fail, sizeof(t->first_fail), fmt, args);
		va_end(args);
	}
}

static u32 mcpu_rand(struct mcpu_thread *t, u32 n)
{
	return prandom_u32_state(&t->rnd) % n;
}

static int mcpu_thread_fn(void *arg)
{
	struct mcpu_thread *t = arg;
	struct mcpu_ctx *ctx = t->ctx;

	atomic_inc(&ctx->ready);
	/* pairs with the release in mcpu_run(): ctx->end is set */
	while (!smp_load_acquire(&ctx->go))
		cpu_relax();
	while (time_before(jiffies, READ_ONCE(ctx->end))) {
		if (t->fn(t) < 0)
			break;
		t->ops++;
		cond_resched();
	}
	complete(&t->done);
	return 0;
}

/* The thread count: one per online CPU (at most SMP_MAX_THREADS). */
static int mcpu_threads(struct kunit *test)
{
	unsigned int n = num_online_cpus();

	if (n < 2)
		kunit_skip(test, "needs 2 or more CPUs, %u online (UML has one)",
			   n);
	return min_t(unsigned int, n, SMP_MAX_THREADS);
}

/* Run every thread's fn on its own CPU for @ms; wait for all of them. */
static void mcpu_run(struct kunit *test, struct mcpu_ctx *ctx, unsigned int ms)
{
	struct task_struct *task[SMP_MAX_THREADS];
	int i, cpu = -1;

	atomic_set(&ctx->ready, 0);
	ctx->go = 0;
	for (i = 0; i < ctx->nr_threads; i++) {
		struct mcpu_thread *t = &ctx->th[i];

		cpu = cpumask_next(cpu, cpu_online_mask);
		t->ctx = ctx;
		t->id = i;
		t->cpu = cpu;
		prandom_seed_state(&t->rnd, 0x5c0de000ULL + i);
		init_completion(&t->done);
		task[i] = kthread_create(mcpu_thread_fn, t, "rcc_smp_%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task[i]));
		kthread_bind(task[i], cpu);
	}
	for (i = 0; i < ctx->nr_threads; i++)
		wake_up_process(task[i]);
	while (atomic_read(&ctx->ready) < ctx->nr_threads)
		usleep_range(100, 200);
	WRITE_ONCE(ctx->end, jiffies + msecs_to_jiffies(ms));
	/* pairs with the acquire in mcpu_thread_fn(): ctx->end first */
	smp_store_release(&ctx->go, 1);
	for (i = 0; i < ctx->nr_threads; i++)
		wait_for_completion(&ctx->th[i].done);
	for (i = 0; i < ctx->nr_threads; i++)
		KUNIT_EXPECT_EQ_MSG(test, ctx->th[i].fails, 0U,
				    "thread %d (CPU %d): %u failures, the first: %s",
				    i, ctx->th[i].cpu, ctx->th[i].fails,
				    ctx->th[i].first_fail);
}

/* ---- devices and QPs ---------------------------------------------- */

/*
 * The second device's driver is slow: its set_rate() takes MCPU_SLOW_US,
 * with the QP's lock held (as the contract allows).  An event that ends an
 * episode and starts the next calls it twice, so a timer firing on another
 * CPU meanwhile waits for the lock, and finds the new episode's first runs
 * already due when it gets it (but not its end).
 */
static const struct rdma_cc_rp_ops *mcpu_fast_ops;

static void mcpu_slow_set_rate(struct rdma_cc_hook_qp *hqp, u64 rate_bps)
{
	udelay(MCPU_SLOW_US);
	mcpu_fast_ops->set_rate(hqp, rate_bps);
}

static const struct rdma_cc_rp_ops mcpu_slow_ops = {
	.set_rate = mcpu_slow_set_rate,
};

static int mcpu_qp_add(struct mcpu_dev *sd, struct mcpu_qp *q, u32 qpn)
{
	int err;

	err = fake_qp_add(&sd->fd, &q->fq, qpn);
	if (!err)
		err = mcpu_wrap(&q->fq);
	atomic64_set(&q->cnps, 0);
	atomic64_set(&q->pkts, 0);
	q->live = !err;
	return err;
}

/* Delete @q; from then on set_rate() is never called for it. */
static void mcpu_qp_del(struct mcpu_qp *q)
{
	struct rcc_flow *f = rcu_dereference_protected(q->fq.hqp.cc_priv, 1);

	rdma_cc_hook_del_qp(&q->fq.hqp);
	mcpu_unwrap(f);
	q->calls = fake_qp_calls(&q->fq);
	q->live = false;
}

static u32 mcpu_qpn(struct mcpu_ctx *ctx, int d, int s, int which)
{
	return 1000 * (d + 1) + 10 * s + which;
}

static int mcpu_dev_add(struct mcpu_ctx *ctx, int d, struct mcpu_dev *sd)
{
	int s, err;

	err = fake_dev_register(&sd->fd, "smp", SMP_LINE_RATE);
	if (err)
		return err;
	if (!sd->fd.hdev.cc_priv)
		return -ENODEV;
	/* before any QP: nothing calls set_rate() yet */
	if (ctx->storm && d == 1) {
		mcpu_fast_ops = sd->fd.hdev.ops;
		WRITE_ONCE(sd->fd.hdev.ops, &mcpu_slow_ops);
	}
	atomic64_set(&sd->stray, 0);
	for (s = 0; s < SMP_QPS; s++) {
		struct mcpu_qp_slot *sl = &sd->slot[s];

		sl->which = 0;
		err = mcpu_qp_add(sd, &sl->qp[0], mcpu_qpn(ctx, d, s, 0));
		if (err)
			return err;
		rcu_assign_pointer(sl->cur, &sl->qp[0]);
	}
	return 0;
}

/* Delete every QP of @sd (as a driver does), then unregister it. */
static void mcpu_dev_del(struct mcpu_dev *sd)
{
	int s;

	for (s = 0; s < SMP_QPS; s++) {
		struct mcpu_qp *q = rcu_dereference_protected(sd->slot[s].cur, 1);

		if (q && q->live)
			mcpu_qp_del(q);
	}
	if (sd->fd.registered)
		rdma_cc_hook_unregister_dev(&sd->fd.hdev);
	sd->fd.registered = false;
}

static int mcpu_set(struct fake_dev *fd, enum rcc_param id, u32 v)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%u", v);

	return fake_dev_store(fd, id, buf) == n ? 0 : -EINVAL;
}

/*
 * The storm's parameters: runs every 1 us.  On the first device a margin
 * above R, so every increase ends the episode and the next CNP starts one:
 * episodes end and restart as fast as the timer can fire.  On the second
 * a margin of 1 Mbit/s: a calm episode ends about 16 increases (32 us)
 * after its last CNP, so a timer callback that waited for the lock while
 * an event on another CPU ended the episode and started the next one
 * finds the new episode still going, past the expiry that event queued.
 */
static int mcpu_storm_params(struct fake_dev *fd, int d)
{
	const struct rcc_param_desc *e =
		&rcc_param_descs[RCC_LINE_RATE_MARGIN_MBPS];

	return mcpu_set(fd, RCC_CONTROL_INTERVAL_NS, 2000) ?:
	       mcpu_set(fd, RCC_LINE_RATE_MARGIN_MBPS,
			d ? MCPU_MARGIN_MBPS : e->max) ?:
	       mcpu_set(fd, RCC_NUM_CONTROL_LOOPS_PER_INCREASE, 0);
}

static void mcpu_setup(struct kunit *test, struct mcpu_ctx *ctx, bool storm)
{
	int d;

	ctx->test = test;
	ctx->storm = storm;
	ctx->floor = div64_u64(SMP_LINE_RATE *
			       rcc_param_descs[RCC_MINIMUM_RATE_PERCENT].def,
			       100);
	mcpu_check_start(test);
	for (d = 0; d < SMP_DEVS; d++) {
		struct mcpu_dev *sd = &ctx->devs[d][0];

		KUNIT_ASSERT_EQ(test, mcpu_dev_add(ctx, d, sd), 0);
		if (storm)
			KUNIT_ASSERT_EQ(test, mcpu_storm_params(&sd->fd, d), 0);
		else
			KUNIT_ASSERT_EQ(test, mcpu_set(&sd->fd,
						       RCC_CONTROL_INTERVAL_NS, 5000), 0);
		rcu_assign_pointer(ctx->dev[d], sd);
	}
}

/* ---- the senders -------------------------------------------------- */

/* A CNP or a packet report to a random QP, as a driver would send it. */
static int mcpu_send(struct mcpu_thread *t)
{
	struct mcpu_ctx *ctx = t->ctx;
	struct mcpu_dev *sd;
	struct mcpu_qp *q;
	unsigned long flags;
	bool cnp = mcpu_rand(t, 8) < 5;
	bool irqs_off = t->id & 1;
	u32 n = 1 + mcpu_rand(t, 16);
	int d = mcpu_rand(t, SMP_DEVS);

	rcu_read_lock();
	sd = rcu_dereference(ctx->dev[d]);
	q = sd ? rcu_dereference(sd->slot[mcpu_rand(t, SMP_QPS)].cur) : NULL;
	if (!q) {
		rcu_read_unlock();
		return 0;
	}
	if (irqs_off)
		local_irq_save(flags);
	if (cnp)
		rdma_cc_hook_cnp(&q->fq.hqp);
	else
		rdma_cc_hook_tx(&q->fq.hqp, n);
	if (irqs_off)
		local_irq_restore(flags);
	if (cnp)
		atomic64_inc(&q->cnps);
	else
		atomic64_add(n, &q->pkts);
	rcu_read_unlock();
	t->sends++;
	return 0;
}

/* One QP's state against the spec's invariants. */
static void mcpu_check_qp(struct mcpu_thread *t, struct mcpu_qp *q, u64 floor)
{
	struct rcc_flow_state st;
	u64 rc, rt;

	if (!fake_qp_state(&q->fq, &st))
		return;		/* being deleted */
	rc = st.core.current_bps;
	rt = st.core.target_bps;
	if (rc < floor || rc > SMP_LINE_RATE)
		mcpu_fail(t, "qp%u: rc %llu outside [%llu, %llu]",
			  q->fq.hqp.qpn, rc, floor, SMP_LINE_RATE);
	if (st.core.congested && (rt < floor || rt > SMP_LINE_RATE))
		mcpu_fail(t, "qp%u: rt %llu outside [%llu, %llu]",
			  q->fq.hqp.qpn, rt, floor, SMP_LINE_RATE);
	if (!st.core.congested && rc != SMP_LINE_RATE)
		mcpu_fail(t, "qp%u: rc %llu outside an episode", q->fq.hqp.qpn,
			  rc);
	if (st.told_bps != (st.core.congested ? rc : 0))
		mcpu_fail(t, "qp%u: driver told %llu, rc %llu congested %d",
			  q->fq.hqp.qpn, st.told_bps, rc, st.core.congested);
	if (st.cnt.episodes_ended > st.cnt.episodes ||
	    st.cnt.episodes > st.cnt.cnps)
		mcpu_fail(t, "qp%u: episodes %llu ended %llu cnps %llu",
			  q->fq.hqp.qpn, st.cnt.episodes, st.cnt.episodes_ended,
			 st.cnt.cnps);
	if (READ_ONCE(q->fq.nr_bad))
		mcpu_fail(t, "qp%u: %u set_rate calls broke the contract",
			  q->fq.hqp.qpn, READ_ONCE(q->fq.nr_bad));
}

/* Read every live QP's state, as debugfs would, checking it. */
static int mcpu_reader(struct mcpu_thread *t)
{
	struct mcpu_ctx *ctx = t->ctx;
	int d, s;

	rcu_read_lock();
	for (d = 0; d < SMP_DEVS; d++) {
		struct mcpu_dev *sd = rcu_dereference(ctx->dev[d]);

		for (s = 0; sd && s < SMP_QPS; s++) {
			struct mcpu_qp *q = rcu_dereference(sd->slot[s].cur);

			if (q)
				mcpu_check_qp(t, q, ctx->floor);
		}
	}
	rcu_read_unlock();
	ctx->checks++;
	return 0;
}

/* ---- after the run ------------------------------------------------ */

struct mcpu_totals {
	bool exact;			/* every event went to a live QP */
	u64 cnps, pkts;			/* sent to the QPs there now */
	u64 counted_cnps, counted_pkts;
	u64 episodes, ended, runs, calls;
	u64 timer_wait_ns;		/* the longest a calm QP kept a timer */
};

/*
 * A calm stretch, then every QP still attached: not congested, no timer,
 * at line rate, every event counted, every rate told within bounds.
 */
static void mcpu_calm_check(struct kunit *test, struct mcpu_ctx *ctx,
			    struct mcpu_totals *tot, bool exact)
{
	struct rcc_flow_state st;
	unsigned int i, n;
	u64 wait0;
	int d, s;

	for (d = 0; d < SMP_DEVS; d++) {
		struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);

		for (s = 0; sd && s < SMP_QPS; s++) {
			struct mcpu_qp *q =
				rcu_dereference_protected(sd->slot[s].cur, 1);
			struct fake_qp *fq = &q->fq;

			if (!q->live)
				continue;
			KUNIT_EXPECT_TRUE(test, fake_qp_wait_uncongested(fq, 5000));
			/*
			 * A timer an episode left may still fire (and find the
			 * QP calm): give it a second, as qemu's timers can be
			 * late by 100 ms ("hrtimer: interrupt took").
			 */
			wait0 = ktime_get_ns();
			do {
				KUNIT_ASSERT_TRUE(test, fake_qp_state(fq, &st));
				if (!st.timer_armed)
					break;
				usleep_range(1000, 2000);
			} while (ktime_get_ns() - wait0 < NSEC_PER_SEC);
			tot->timer_wait_ns = max(tot->timer_wait_ns,
						 ktime_get_ns() - wait0);
			KUNIT_EXPECT_FALSE_MSG(test, st.core.congested,
					       "qp%u congested after a calm stretch",
					       fq->hqp.qpn);
			KUNIT_EXPECT_FALSE_MSG(test, st.timer_armed,
					       "qp%u: timer armed after a calm stretch",
					       fq->hqp.qpn);
			KUNIT_EXPECT_EQ(test, st.core.current_bps, SMP_LINE_RATE);
			KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 0ULL);
			KUNIT_EXPECT_EQ(test, fq->nr_bad, 0U);
			KUNIT_EXPECT_EQ(test, st.cnt.episodes,
					st.cnt.episodes_ended);
			KUNIT_EXPECT_GE(test, st.cnt.runs, st.cnt.episodes);
			tot->exact = exact;
			if (exact) {
				KUNIT_EXPECT_EQ(test, st.cnt.cnps,
						(u64)atomic64_read(&q->cnps));
				KUNIT_EXPECT_EQ(test, st.cnt.pkts,
						(u64)atomic64_read(&q->pkts));
			}
			n = min_t(unsigned int, fq->nr_calls, FAKE_RATE_LOG);
			for (i = 0; i < n; i++) {
				if (!fq->log[i].bps)
					continue;
				KUNIT_EXPECT_GE(test, fq->log[i].bps, ctx->floor);
				KUNIT_EXPECT_LE(test, fq->log[i].bps, SMP_LINE_RATE);
			}
			tot->cnps += atomic64_read(&q->cnps);
			tot->pkts += atomic64_read(&q->pkts);
			tot->counted_cnps += st.cnt.cnps;
			tot->counted_pkts += st.cnt.pkts;
			tot->episodes += st.cnt.episodes;
			tot->ended += st.cnt.episodes_ended;
			tot->runs += st.cnt.runs;
			tot->calls += fq->nr_calls;
		}
	}
}

/* The timer check's verdict, and everything gone. */
static void mcpu_teardown(struct kunit *test, struct mcpu_ctx *ctx)
{
	int d;

	for (d = 0; d < SMP_DEVS; d++) {
		struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);

		if (sd)
			mcpu_dev_del(sd);
		RCU_INIT_POINTER(ctx->dev[d], NULL);
	}
	mcpu_check_stop();
	KUNIT_EXPECT_EQ_MSG(test, atomic64_read(&mcpu_rewritten), 0LL,
			    "the timer callback changed the expiry of a timer another CPU had queued (%lld of %lld such interleavings)",
			    atomic64_read(&mcpu_rewritten),
			    atomic64_read(&mcpu_interleaved));
}

static u64 mcpu_ops(struct mcpu_ctx *ctx, bool sends)
{
	u64 n = 0;
	int i;

	for (i = 0; i < ctx->nr_threads; i++)
		n += sends ? ctx->th[i].sends : ctx->th[i].ops;
	return n;
}

static void mcpu_report(struct kunit *test, struct mcpu_ctx *ctx,
			const char *name, const struct mcpu_totals *tot)
{
	kunit_info(test, "smp: %s: %d threads on %d CPUs, %u ms: %llu operations (%llu CNP or tx sends, %llu state checks, %llu parameter writes, %llu QP destroy+create, %llu device unregister+register, %llu rcc_stop+rcc_start); the QPs at the end: rdma_cc counted %llu CNPs and %llu packets, %s %llu and %llu, %llu episodes (%llu ended), %llu runs, %llu set_rate calls; timers: %lld callbacks, %lld re-armed by another CPU during the callback, %lld expiries rewritten, a calm QP's timer gone within %llu us",
		   name, ctx->nr_threads, num_online_cpus(), SMP_MS,
		   mcpu_ops(ctx, false), mcpu_ops(ctx, true), ctx->checks,
		   ctx->writes, ctx->qp_cycles, ctx->dev_cycles,
		   ctx->stop_cycles, tot->counted_cnps, tot->counted_pkts,
		   tot->exact ? "sent to them" :
		   "of those sent to their slots (some to QPs being deleted or rdma_cc stopped)",
		   tot->cnps, tot->pkts, tot->episodes, tot->ended,
		   tot->runs, tot->calls, atomic64_read(&mcpu_fired),
		   atomic64_read(&mcpu_interleaved),
		   atomic64_read(&mcpu_rewritten),
		   div_u64(tot->timer_wait_ns, NSEC_PER_USEC));
}

static struct mcpu_ctx *mcpu_ctx_new(struct kunit *test)
{
	struct mcpu_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->nr_threads = mcpu_threads(test);
	return ctx;
}

/* ---- the cases ---------------------------------------------------- */

/*
 * CNPs from every CPU to a few QPs whose episodes last one run: each CNP
 * may start an episode and arm the timer while the timer of the previous
 * episode is firing on another CPU.
 */
static void smp_cnp_storm(struct kunit *test)
{
	struct mcpu_ctx *ctx = mcpu_ctx_new(test);
	struct mcpu_totals tot = {};
	int i;

	mcpu_setup(test, ctx, true);
	for (i = 0; i < ctx->nr_threads; i++)
		ctx->th[i].fn = mcpu_send;
	mcpu_run(test, ctx, SMP_MS);
	mcpu_calm_check(test, ctx, &tot, true);
	KUNIT_EXPECT_EQ(test, tot.counted_cnps, tot.cnps);
	KUNIT_EXPECT_EQ(test, tot.counted_pkts, tot.pkts);
	KUNIT_EXPECT_GT(test, tot.episodes, 0ULL);
	KUNIT_EXPECT_GT(test, atomic64_read(&mcpu_fired), 0LL);
	mcpu_report(test, ctx, "cnp storm", &tot);
	mcpu_teardown(test, ctx);
}

/*
 * Long episodes (runs every 2.5 us, the default margin) under CNPs and
 * packets from every CPU, one CPU reading every QP's state meanwhile.
 */
static void smp_packets_timers(struct kunit *test)
{
	struct mcpu_ctx *ctx = mcpu_ctx_new(test);
	struct mcpu_totals tot = {};
	int i;

	mcpu_setup(test, ctx, false);
	for (i = 0; i < ctx->nr_threads; i++)
		ctx->th[i].fn = i == ctx->nr_threads - 1 ? mcpu_reader : mcpu_send;
	mcpu_run(test, ctx, SMP_MS);
	mcpu_calm_check(test, ctx, &tot, true);
	KUNIT_EXPECT_EQ(test, tot.counted_cnps, tot.cnps);
	KUNIT_EXPECT_EQ(test, tot.counted_pkts, tot.pkts);
	KUNIT_EXPECT_GT(test, tot.runs, 2 * tot.episodes);
	KUNIT_EXPECT_GT(test, ctx->checks, 0ULL);
	mcpu_report(test, ctx, "packets and timers", &tot);
	mcpu_teardown(test, ctx);
}

static const enum rcc_param mcpu_written[] = {
	RCC_CONTROL_INTERVAL_NS, RCC_CONGESTION_PROBABILITY_WEIGHT,
	RCC_INITIAL_CONGESTION_ESTIMATE, RCC_FAST_RECOVERY_ATTEMPT,
	RCC_NUM_CONTROL_LOOPS_PER_INCREASE, RCC_INITIAL_TARGET_RATE_PERCENT,
	RCC_NUMBER_ACTIVE_INCREASE_STEPS, RCC_LINE_RATE_MARGIN_MBPS,
};

static int mcpu_global_set(enum rcc_param id, const char *val)
{
	struct kernel_param kp = {
		.name = rcc_param_descs[id].name,
		.ops = &rcc_param_ops,
		.perm = 0644,
		.arg = (void *)&rcc_param_descs[id],
	};

	return rcc_param_ops.set(val, &kp);
}

static void mcpu_global_restore(void)
{
	char val[16];
	int i;

	for (i = 0; i < RCC_NR_PARAMS; i++) {
		snprintf(val, sizeof(val), "%u", rcc_param_descs[i].def);
		mcpu_global_set(i, val);
	}
}

/* A valid value (R and the floor stay) to a device's file or globally. */
static int mcpu_writer(struct mcpu_thread *t)
{
	struct mcpu_ctx *ctx = t->ctx;
	enum rcc_param id = mcpu_written[mcpu_rand(t, ARRAY_SIZE(mcpu_written))];
	const struct rcc_param_desc *desc = &rcc_param_descs[id];
	int d = mcpu_rand(t, SMP_DEVS);
	struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);
	char buf[16];
	u32 v;

	/* Keep clear of issue 12's margin-0 episode that never ends. */
	if (id == RCC_CONTROL_INTERVAL_NS)
		v = 2000 + mcpu_rand(t, 8001);
	else if (id == RCC_LINE_RATE_MARGIN_MBPS)
		v = desc->def + mcpu_rand(t, desc->max - desc->def + 1);
	else
		v = desc->min + mcpu_rand(t, desc->max - desc->min + 1);
	snprintf(buf, sizeof(buf), "%u", v);
	if (mcpu_rand(t, 4)) {
		if (fake_dev_store(&sd->fd, id, buf) != (ssize_t)strlen(buf))
			mcpu_fail(t, "%s %s <- %s refused", sd->fd.hdev.name,
				  desc->name, buf);
		else if (fake_dev_show(&sd->fd, id) != v)
			mcpu_fail(t, "%s %s: shows %u after %s",
				  sd->fd.hdev.name, desc->name,
				 fake_dev_show(&sd->fd, id), buf);
	} else if (mcpu_global_set(id, buf)) {
		mcpu_fail(t, "global %s <- %s refused", desc->name, buf);
	}
	/* and a bad one, which must change nothing */
	if (fake_dev_store(&sd->fd, id, "-1") != -EINVAL)
		mcpu_fail(t, "%s %s <- -1 accepted", sd->fd.hdev.name,
			  desc->name);
	ctx->writes += 2;
	return 0;
}

/* The storm's parameters again, the other written ones at their defaults. */
static int mcpu_dev_restore(struct mcpu_ctx *ctx, int d)
{
	struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);
	int i, err = 0;

	for (i = 0; i < ARRAY_SIZE(mcpu_written) && !err; i++)
		err = mcpu_set(&sd->fd, mcpu_written[i],
			       rcc_param_descs[mcpu_written[i]].def);
	return err ?: mcpu_storm_params(&sd->fd, d);
}

/*
 * Parameter writes on one CPU (the other CPUs' QPs pick them up at their
 * next run), state checks on another, CNPs and packets on the rest.
 */
static void smp_param_writes(struct kunit *test)
{
	struct mcpu_ctx *ctx = mcpu_ctx_new(test);
	struct mcpu_totals tot = {};
	int i;

	mcpu_setup(test, ctx, true);
	for (i = 0; i < ctx->nr_threads; i++)
		ctx->th[i].fn = i == 0 ? mcpu_writer :
				i == 1 && ctx->nr_threads > 2 ? mcpu_reader :
				mcpu_send;
	mcpu_run(test, ctx, SMP_MS);
	mcpu_global_restore();
	for (i = 0; i < SMP_DEVS; i++)
		KUNIT_EXPECT_EQ(test, mcpu_dev_restore(ctx, i), 0);
	mcpu_calm_check(test, ctx, &tot, true);
	KUNIT_EXPECT_EQ(test, tot.counted_cnps, tot.cnps);
	KUNIT_EXPECT_EQ(test, tot.counted_pkts, tot.pkts);
	KUNIT_EXPECT_GT(test, ctx->writes, 0ULL);
	mcpu_report(test, ctx, "parameter writes", &tot);
	mcpu_teardown(test, ctx);
}

/*
 * Replace one QP: add the spare, publish it, delete the old one while the
 * senders may still hold it (its late events go nowhere), then check that
 * set_rate() was never called for it after rdma_cc_hook_del_qp() returned.
 */
static void mcpu_qp_cycle(struct mcpu_thread *t, int d, int s)
{
	struct mcpu_ctx *ctx = t->ctx;
	struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);
	struct mcpu_qp_slot *sl = &sd->slot[s];
	struct mcpu_qp *old = &sl->qp[sl->which], *new = &sl->qp[!sl->which];

	if (mcpu_qp_add(sd, new, mcpu_qpn(ctx, d, s, !sl->which)))
		mcpu_fail(t, "re-adding a QP failed");
	rcu_assign_pointer(sl->cur, new);
	sl->which = !sl->which;
	mcpu_qp_del(old);
	if (rcu_access_pointer(old->fq.hqp.cc_priv))
		mcpu_fail(t, "qp%u still attached after del", old->fq.hqp.qpn);
	udelay(5);
	/* No sender holds @old after this; it is the spare now. */
	synchronize_rcu();
	if (fake_qp_calls(&old->fq) != old->calls)
		mcpu_fail(t, "qp%u: set_rate after rdma_cc_hook_del_qp()",
			  old->fq.hqp.qpn);
	if (old->fq.nr_bad)
		mcpu_fail(t, "qp%u: %u bad set_rate calls", old->fq.hqp.qpn,
			  old->fq.nr_bad);
	ctx->qp_cycles++;
}

/* Replace one device, with all its QPs, the same way. */
static void mcpu_dev_cycle(struct mcpu_thread *t, int d)
{
	struct mcpu_ctx *ctx = t->ctx;
	struct mcpu_dev *old = &ctx->devs[d][ctx->which[d]];
	struct mcpu_dev *new = &ctx->devs[d][!ctx->which[d]];
	int s;

	memset(new, 0, sizeof(*new));
	if (mcpu_dev_add(ctx, d, new) || mcpu_storm_params(&new->fd, d))
		mcpu_fail(t, "re-adding a device failed");
	rcu_assign_pointer(ctx->dev[d], new);
	ctx->which[d] = !ctx->which[d];
	mcpu_dev_del(old);
	udelay(5);
	synchronize_rcu();
	for (s = 0; s < SMP_QPS; s++) {
		struct mcpu_qp *q = rcu_dereference_protected(old->slot[s].cur, 1);

		if (fake_qp_calls(&q->fq) != q->calls)
			mcpu_fail(t, "qp%u: set_rate after its device went",
				  q->fq.hqp.qpn);
	}
	ctx->dev_cycles++;
}

static int mcpu_churn_qp(struct mcpu_thread *t)
{
	mcpu_qp_cycle(t, mcpu_rand(t, SMP_DEVS), mcpu_rand(t, SMP_QPS));
	return 0;
}

static int mcpu_churn_dev(struct mcpu_thread *t)
{
	if (t->ops & 1)
		mcpu_qp_cycle(t, mcpu_rand(t, SMP_DEVS), mcpu_rand(t, SMP_QPS));
	else
		mcpu_dev_cycle(t, mcpu_rand(t, SMP_DEVS));
	return 0;
}

/* Events to QPs being deleted are not counted: bounds, not equality. */
static void mcpu_churn_case(struct kunit *test, bool devs)
{
	struct mcpu_ctx *ctx = mcpu_ctx_new(test);
	int live0 = atomic_read(&rcc_flows_live);
	int armed0 = atomic_read(&rcc_flows_freed_armed);
	struct mcpu_totals tot = {};
	int i;

	mcpu_setup(test, ctx, true);
	for (i = 0; i < ctx->nr_threads; i++)
		ctx->th[i].fn = i > 0 ? mcpu_send :
				devs ? mcpu_churn_dev : mcpu_churn_qp;
	mcpu_run(test, ctx, SMP_MS);
	mcpu_calm_check(test, ctx, &tot, false);
	KUNIT_EXPECT_LE(test, tot.counted_cnps, tot.cnps);
	KUNIT_EXPECT_LE(test, tot.counted_pkts, tot.pkts);
	KUNIT_EXPECT_GT(test, ctx->qp_cycles, 0ULL);
	if (devs)
		KUNIT_EXPECT_GT(test, ctx->dev_cycles, 0ULL);
	mcpu_report(test, ctx, devs ? "device unregister" : "qp destroy", &tot);
	mcpu_teardown(test, ctx);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_live), live0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcc_flows_freed_armed), armed0);
}

static void smp_qp_destroy(struct kunit *test)
{
	mcpu_churn_case(test, false);
}

static void smp_dev_unregister(struct kunit *test)
{
	mcpu_churn_case(test, true);
}

/*
 * rcc_stop() (module exit) with QPs congested on every CPU: afterwards
 * no QP attached, every QP told line rate and never called again until
 * rcc_start() takes them on anew.
 */
static int mcpu_stopper(struct mcpu_thread *t)
{
	struct mcpu_ctx *ctx = t->ctx;
	unsigned int calls[SMP_DEVS][SMP_QPS];
	int d, s;

	usleep_range(200, 400);
	rcc_stop();
	for (d = 0; d < SMP_DEVS; d++) {
		struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);

		if (sd->fd.hdev.cc_priv)
			mcpu_fail(t, "%s attached after rcc_stop()",
				  sd->fd.hdev.name);
		for (s = 0; s < SMP_QPS; s++) {
			struct mcpu_qp *q =
				rcu_dereference_protected(sd->slot[s].cur, 1);

			if (rcu_access_pointer(q->fq.hqp.cc_priv))
				mcpu_fail(t, "qp%u attached after rcc_stop()",
					  q->fq.hqp.qpn);
			if (fake_qp_rate(&q->fq))
				mcpu_fail(t, "qp%u not at line rate after rcc_stop()",
					  q->fq.hqp.qpn);
			calls[d][s] = fake_qp_calls(&q->fq);
		}
	}
	if (atomic_read(&rcc_flows_live))
		mcpu_fail(t, "%d QPs live after rcc_stop()",
			  atomic_read(&rcc_flows_live));
	usleep_range(200, 400);
	for (d = 0; d < SMP_DEVS; d++) {
		struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);

		for (s = 0; s < SMP_QPS; s++) {
			struct mcpu_qp *q =
				rcu_dereference_protected(sd->slot[s].cur, 1);

			if (fake_qp_calls(&q->fq) != calls[d][s])
				mcpu_fail(t, "qp%u: set_rate while stopped",
					  q->fq.hqp.qpn);
		}
	}
	/* The flows are gone; those rcc_start() makes run unwrapped. */
	for (d = 0; d < SMP_SLOTS; d++)
		WRITE_ONCE(mcpu_slots[d].timer, NULL);
	if (rcc_start()) {
		mcpu_fail(t, "rcc_start() failed");
		return -1;
	}
	ctx->stop_cycles++;
	return 0;
}

static void smp_module_stop(struct kunit *test)
{
	struct mcpu_ctx *ctx = mcpu_ctx_new(test);
	struct mcpu_totals tot = {};
	int i, d, s;

	mcpu_setup(test, ctx, false);
	for (i = 0; i < ctx->nr_threads; i++)
		ctx->th[i].fn = i == 0 ? mcpu_stopper : mcpu_send;
	mcpu_run(test, ctx, SMP_MS);
	/* rdma_cc is loaded again */
	KUNIT_ASSERT_EQ(test, rcc_start(), -EEXIST);
	/* Every QP attached again, and it works. */
	for (d = 0; d < SMP_DEVS; d++) {
		struct mcpu_dev *sd = rcu_dereference_protected(ctx->dev[d], 1);

		KUNIT_EXPECT_NOT_NULL(test, sd->fd.hdev.cc_priv);
		for (s = 0; s < SMP_QPS; s++) {
			struct mcpu_qp *q =
				rcu_dereference_protected(sd->slot[s].cur, 1);

			KUNIT_EXPECT_NOT_NULL(test,
					      rcu_access_pointer(q->fq.hqp.cc_priv));
			rdma_cc_hook_cnp(&q->fq.hqp);
		}
	}
	mcpu_calm_check(test, ctx, &tot, false);
	KUNIT_EXPECT_GT(test, ctx->stop_cycles, 0ULL);
	mcpu_report(test, ctx, "module stop", &tot);
	mcpu_teardown(test, ctx);
}

/* ---- the interleaving of issue 12, on demand ----------------------- */

#define MCPU_ROUNDS	20
#define MCPU_REARM_T_NS	1000000	/* runs every 500 us */

struct mcpu_rearm {
	struct mcpu_dev *sd;
	struct mcpu_qp *q;
	int cpu_a, cpu_b;
	int cnp_a, cnp_a_done, stop;	/* B asks, A sends the CNP */
	unsigned int rounds, held, interleaved, skipped;
	struct mcpu_thread t;		/* its failures */
	struct completion done_a, done_b;
};

static int mcpu_rearm_a(void *arg)
{
	struct mcpu_rearm *r = arg;

	while (!READ_ONCE(r->stop)) {
		/* pairs with the release in mcpu_rearm_round() */
		if (smp_load_acquire(&r->cnp_a)) {
			WRITE_ONCE(r->cnp_a, 0);
			rdma_cc_hook_cnp(&r->q->fq.hqp);
			atomic64_inc(&r->q->cnps);
			/* pairs with the acquire in mcpu_rearm_round() */
			smp_store_release(&r->cnp_a_done, 1);
		}
		cpu_relax();
		cond_resched();
	}
	complete(&r->done_a);
	return 0;
}

static bool mcpu_wait_flag(int *flag, u64 ms)
{
	u64 t0 = ktime_get_ns();

	/* pairs with the releases in mcpu_hold_here() and mcpu_timer_fn() */
	while (!smp_load_acquire(flag))
		if (ktime_get_ns() - t0 > ms * NSEC_PER_MSEC)
			return false;
	return true;
}

/*
 * One round, on CPU B: A's CNP starts an episode (the timer queued on A,
 * run 1 due T/2 later, and with a margin above R run 1 ends it).  Its
 * callback starts on A and is held before it takes the lock; B's CNP
 * then ends the episode in its catch-up, starts the next one and queues
 * the timer; B lowers the margin (the new episode goes on past run 1) and
 * lets the callback go 3T/4 later, with runs of the new episode due.
 */
static void mcpu_rearm_round(struct mcpu_rearm *r)
{
	struct rcc_flow *f = rcu_dereference_protected(r->q->fq.hqp.cc_priv, 1);
	struct fake_dev *fd = &r->sd->fd;
	u64 t;

	struct rcc_flow_state st;

	if (mcpu_set(fd, RCC_LINE_RATE_MARGIN_MBPS,
		     rcc_param_descs[RCC_LINE_RATE_MARGIN_MBPS].max) ||
	    !fake_qp_wait_uncongested(&r->q->fq, 1000)) {
		mcpu_fail(&r->t, "round %u: the QP did not calm down", r->rounds);
		return;
	}
	/* and no timer left from the last round */
	t = ktime_get_ns();
	while (fake_qp_state(&r->q->fq, &st) && st.timer_armed &&
	       ktime_get_ns() - t < NSEC_PER_SEC)
		usleep_range(1000, 2000);
	WRITE_ONCE(mcpu_entered, 0);
	WRITE_ONCE(mcpu_release, 0);
	WRITE_ONCE(mcpu_held_done, 0);
	WRITE_ONCE(r->cnp_a_done, 0);
	WRITE_ONCE(mcpu_hold, &f->timer);
	/* pairs with the acquire in mcpu_rearm_a(): the flags are reset */
	smp_store_release(&r->cnp_a, 1);
	if (!mcpu_wait_flag(&r->cnp_a_done, 100) ||
	    !mcpu_wait_flag(&mcpu_entered, 500)) {
		WRITE_ONCE(mcpu_hold, NULL);
		r->skipped++;
		return;
	}
	r->held++;
	rdma_cc_hook_cnp(&r->q->fq.hqp);
	atomic64_inc(&r->q->cnps);
	t = ktime_get_ns();
	if (mcpu_set(fd, RCC_LINE_RATE_MARGIN_MBPS, MCPU_MARGIN_MBPS))
		mcpu_fail(&r->t, "round %u: margin write refused", r->rounds);
	while (ktime_get_ns() - t < 3 * MCPU_REARM_T_NS / 4)
		cpu_relax();
	/* pairs with the acquire in mcpu_hold_here() */
	smp_store_release(&mcpu_release, 1);
	if (!mcpu_wait_flag(&mcpu_held_done, 500))
		mcpu_fail(&r->t, "round %u: the held callback did not finish",
			  r->rounds);
	r->rounds++;
}

static int mcpu_rearm_b(void *arg)
{
	struct mcpu_rearm *r = arg;
	u64 inter0;
	int i;

	for (i = 0; i < MCPU_ROUNDS; i++) {
		inter0 = atomic64_read(&mcpu_interleaved);
		mcpu_rearm_round(r);
		if (atomic64_read(&mcpu_interleaved) > inter0)
			r->interleaved++;
	}
	WRITE_ONCE(r->stop, 1);
	complete(&r->done_b);
	return 0;
}

/*
 * The race of issue 12 item 2, made to happen: a timer callback that
 * waited for the QP's lock while another CPU ended the episode, started
 * a new one and queued the timer again.  The callback must not touch the
 * expiry of that queued timer (rdma_cc before the fix rewrote it with the
 * new episode's next run, moving a node inside the timer queue).
 */
static void smp_timer_rearm(struct kunit *test)
{
	struct mcpu_ctx *ctx = mcpu_ctx_new(test);
	struct task_struct *a, *b;
	struct mcpu_rearm *r;
	struct mcpu_totals tot = {};

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	mcpu_setup(test, ctx, false);
	r->sd = rcu_dereference_protected(ctx->dev[0], 1);
	r->q = rcu_dereference_protected(r->sd->slot[0].cur, 1);
	KUNIT_ASSERT_EQ(test, mcpu_set(&r->sd->fd, RCC_CONTROL_INTERVAL_NS,
				       MCPU_REARM_T_NS), 0);
	KUNIT_ASSERT_EQ(test, mcpu_set(&r->sd->fd,
				       RCC_NUM_CONTROL_LOOPS_PER_INCREASE, 0),
			0);
	r->cpu_a = cpumask_first(cpu_online_mask);
	r->cpu_b = cpumask_next(r->cpu_a, cpu_online_mask);
	init_completion(&r->done_a);
	init_completion(&r->done_b);
	a = kthread_create(mcpu_rearm_a, r, "rcc_smp_a");
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = kthread_create(mcpu_rearm_b, r, "rcc_smp_b");
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	kthread_bind(a, r->cpu_a);
	kthread_bind(b, r->cpu_b);
	wake_up_process(a);
	wake_up_process(b);
	wait_for_completion(&r->done_b);
	wait_for_completion(&r->done_a);

	KUNIT_EXPECT_EQ_MSG(test, r->t.fails, 0U, "%u failures, the first: %s",
			    r->t.fails, r->t.first_fail);
	/* The interleaving really happened, in most rounds. */
	KUNIT_EXPECT_GE(test, r->held, MCPU_ROUNDS / 2);
	KUNIT_EXPECT_GE(test, r->interleaved, r->held / 2);
	KUNIT_EXPECT_EQ(test, mcpu_set(&r->sd->fd, RCC_LINE_RATE_MARGIN_MBPS,
				       rcc_param_descs[RCC_LINE_RATE_MARGIN_MBPS].def),
			0);
	mcpu_calm_check(test, ctx, &tot, true);
	kunit_info(test, "smp: timer rearm: CPUs %d and %d, %d rounds: %u with the callback held while the other CPU ended the episode and queued the timer again, %u skipped (the callback did not come); %u rounds with the timer queued when the callback returned; %lld expiries rewritten",
		   r->cpu_a, r->cpu_b, MCPU_ROUNDS, r->held, r->skipped,
		   r->interleaved, atomic64_read(&mcpu_rewritten));
	mcpu_teardown(test, ctx);
}

static struct kunit_case smp_cases[] = {
	KUNIT_CASE(smp_timer_rearm),
	KUNIT_CASE(smp_cnp_storm),
	KUNIT_CASE(smp_packets_timers),
	KUNIT_CASE(smp_param_writes),
	KUNIT_CASE(smp_qp_destroy),
	KUNIT_CASE(smp_dev_unregister),
	KUNIT_CASE(smp_module_stop),
	{}
};

/* Whatever a case did: rdma_cc loaded, defaults, the probe off. */
static void smp_exit(struct kunit *test)
{
	mcpu_check_stop();
	rcc_start();		/* -EEXIST when it is loaded */
	mcpu_global_restore();
}

static struct kunit_suite smp_suite = {
	.name = "rdma_cc_smp",
	.exit = smp_exit,
	.test_cases = smp_cases,
};

kunit_test_suite(smp_suite);
