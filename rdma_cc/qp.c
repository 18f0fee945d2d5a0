// SPDX-License-Identifier: GPL-2.0
/*
 * qp.c - one QP under rdma_cc: the per-QP lock, the CNP and packet events,
 * and the hrtimer that runs the loop on the t0 + floor(j * T / 2) grid
 * while the QP is congested (and never while it is not).  The order of
 * events and runs is the core's (rcc_event(), rcc_advance()).
 *
 * Everything a driver reaches per packet or per CNP takes only this QP's
 * irq-safe spinlock (or an atomic), allocates nothing and never sleeps.
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include "rdma_cc.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/* QPs alive, and QPs that were freed with their timer still armed (a bug). */
atomic_t rcc_flows_live = ATOMIC_INIT(0);
atomic_t rcc_flows_freed_armed = ATOMIC_INIT(0);

static const struct rcc_params *rcc_flow_params(struct rcc_flow *f)
{
	return &rcu_dereference(f->dev->params)->p;
}

/*
 * The timer.  A softirq hrtimer, pinned to the CPU that armed it, as TCP's
 * pacing timer: its callback runs the loop and calls the driver's
 * set_rate(), work that does not belong in hard-irq context, and on
 * PREEMPT_RT it runs in a thread where f->lock (a spinlock_t, which sleeps
 * there) may be taken.  Hard-irq timers would be moved to softirq on RT
 * anyway; asking for soft everywhere gives one behaviour on both.
 */
#define RCC_TIMER_MODE	HRTIMER_MODE_ABS_PINNED_SOFT

/*
 * How late the hrtimer may fire: the timer core runs every timer whose
 * earliest time has passed in one interrupt, so QPs due within one slack
 * share an interrupt.  A run stays on its grid time (the core computes with
 * its scheduled time), and events are applied in time order however late
 * the timer is, so the behaviour stays the contract's; only the driver
 * hears of a new rate up to this much later.
 */
static u64 rcc_flow_slack_ns(const struct rcc_params *p)
{
	return p->control_interval_ns / 8;
}

/*
 * After every event and run, under f->lock: publish whether the QP is in an
 * episode (read without the lock by rcc_flow_tx()) and tell the driver the
 * QP's rate, if it changed.
 */
static void rcc_flow_tell(struct rcc_flow *f)
{
	u64 rate = f->core.congested ? f->core.current_bps : 0;

	WRITE_ONCE(f->in_episode, f->core.congested);
	if (rate == f->told_bps)
		return;
	f->told_bps = rate;
	f->hqp->dev->ops->set_rate(f->hqp, rate);
}

static void rcc_flow_end_episode(struct rcc_flow *f, u64 t_ns, bool recovered)
{
	u64 d = t_ns > f->episode_start_ns ? t_ns - f->episode_start_ns : 0;

	f->cnt.congested_ns += d;
	if (recovered)
		f->cnt.episodes_ended++;
	trace_episode_end(f->hqp->dev->name, f->hqp->qpn, t_ns, d, recovered);
}

/* What the core's runs are told about: the QP and the time it is now. */
struct rcc_flow_ctx {
	struct rcc_flow *f;
	u64 now_ns;
	u64 line_rate;
	u32 half_interval;
};

/* The core made a run: count it and trace it.  Under f->lock. */
static void rcc_flow_ran(void *ctx, const struct rcc_report *rep)
{
	struct rcc_flow_ctx *c = ctx;
	struct rcc_flow *f = c->f;
	u64 late = c->now_ns > rep->t_ns ? c->now_ns - rep->t_ns : 0;

	if (rep->run == 0) {
		f->cnt.episodes++;
		f->episode_start_ns = rep->t_ns;
		trace_episode_start(f->hqp->dev->name, f->hqp->qpn, rep->t_ns,
				    c->line_rate, f->core.step_bps);
	}
	f->cnt.runs++;
	if (rep->action < RCC_NR_ACTIONS)
		f->cnt.actions[rep->action]++;
	if (rep->floor_hit)
		f->cnt.floor_hits++;
	if (late > c->half_interval)
		f->cnt.late_runs++;
	trace_run(f->hqp->dev->name, f->hqp->qpn, rep, late);
	if (!rep->congested)
		rcc_flow_end_episode(f, rep->t_ns, true);
}

static void rcc_flow_ctx_init(struct rcc_flow_ctx *c, struct rcc_flow *f,
			      const struct rcc_params *p)
{
	c->f = f;
	c->now_ns = ktime_get_ns();
	c->line_rate = rcc_dev_line_rate(f->dev, p);
	c->half_interval = p->control_interval_ns / 2;
}

/*
 * Who arms the timer.  Exactly one path owns its expiry at any time:
 *  - an event (CNP or packets) that starts an episode arms it with
 *    hrtimer_start_range_ns(), under f->lock;
 *  - the callback moves the expiry and returns HRTIMER_RESTART only if,
 *    under f->lock, the timer is not queued: while the callback waited for
 *    the lock, another CPU may have ended the episode in its catch-up,
 *    started a new one and queued the timer again.  Touching the expiry of
 *    a queued timer would corrupt the timer queue, so then that start
 *    owns the timer and the callback leaves it alone;
 *  - an event whose catch-up ends the episode tries to cancel the timer,
 *    so an uncongested QP keeps no timer (if the callback is running, it
 *    finds the QP calm and stops).
 * Both are under f->lock, so the test and the change are atomic.
 */
static enum hrtimer_restart rcc_flow_timer(struct hrtimer *timer)
{
	struct rcc_flow *f = container_of(timer, struct rcc_flow, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	const struct rcc_params *p;
	struct rcc_flow_ctx c;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	if (f->dead || !f->core.congested || hrtimer_is_queued(timer))
		goto out;
	p = rcc_flow_params(f);
	rcc_flow_ctx_init(&c, f, p);
	rcc_advance(&f->core, p, c.line_rate, c.now_ns, rcc_flow_ran, &c);
	rcc_flow_tell(f);
	if (f->core.congested) {
		hrtimer_set_expires_range_ns(timer,
					     ns_to_ktime(f->core.next_run_ns),
					     rcc_flow_slack_ns(p));
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
	return ret;
}

/* An event for the core, in its order (rcc_event()).  Under f->lock. */
static void rcc_flow_event(struct rcc_flow *f, enum rcc_event_kind kind,
			   u32 npkts)
{
	const struct rcc_params *p = rcc_flow_params(f);
	bool was_congested = f->core.congested;
	struct rcc_flow_ctx c;
	struct rcc_event ev;

	rcc_flow_ctx_init(&c, f, p);
	ev = (struct rcc_event){ .t_ns = c.now_ns, .npkts = npkts,
				 .kind = kind };
	if (rcc_event(&f->core, p, c.line_rate, &ev, rcc_flow_ran, &c)) {
		/* a new episode: run 0 was made, the timer takes the rest */
		if (f->core.congested)
			hrtimer_start_range_ns(&f->timer,
					       ns_to_ktime(f->core.next_run_ns),
					       rcc_flow_slack_ns(p),
					       RCC_TIMER_MODE);
	} else if (was_congested && !f->core.congested) {
		hrtimer_try_to_cancel(&f->timer);
	}
	rcc_flow_tell(f);
}

/* cnp() of rdma_cc_cc_ops: see rdma_cc_hook.h for the contexts. */
void rcc_flow_cnp(void *priv)
{
	struct rcc_flow *f = priv;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	if (!f->dead) {
		f->cnt.cnps++;
		rcc_flow_event(f, RCC_EV_CNP, 0);
	}
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
}

/* tx() of rdma_cc_cc_ops: see rdma_cc_hook.h for the contexts. */
void rcc_flow_tx(void *priv, u32 npkts)
{
	struct rcc_flow *f = priv;
	unsigned long flags;

	/* Outside an episode the core ignores packets: skip the lock. */
	if (!READ_ONCE(f->in_episode)) {
		if (!READ_ONCE(f->dead))
			atomic64_add(npkts, &f->pkts);
		return;
	}
	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	if (!f->dead) {
		atomic64_add(npkts, &f->pkts);
		rcc_flow_event(f, RCC_EV_TX, npkts);
	}
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
}

struct rcc_flow *rcc_flow_create(struct rcc_dev *dev,
				 struct rdma_cc_hook_qp *hqp)
{
	const struct rcc_params *p;
	struct rcc_flow *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	atomic64_set(&f->pkts, 0);
	hrtimer_init(&f->timer, CLOCK_MONOTONIC, RCC_TIMER_MODE);
	f->timer.function = rcc_flow_timer;
	f->dev = dev;
	f->hqp = hqp;
	rcu_read_lock();
	p = rcc_flow_params(f);
	rcc_qp_init(&f->core, rcc_dev_line_rate(dev, p));
	rcu_read_unlock();

	rcc_debugfs_add_flow(f);
	atomic_inc(&rcc_flows_live);
	mutex_lock(&dev->flows_lock);
	list_add_tail(&f->node, &dev->flows);
	mutex_unlock(&dev->flows_lock);
	return f;
}

/*
 * Process context.  After it returns no timer of @f is armed and the driver
 * is not called again; @f is freed after the hook's readers are done.
 */
void rcc_flow_destroy(struct rcc_flow *f, bool to_line_rate)
{
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	WRITE_ONCE(f->dead, true);
	spin_unlock_irqrestore(&f->lock, flags);
	/* No event re-arms it once dead; a running callback is waited for. */
	hrtimer_cancel(&f->timer);

	spin_lock_irqsave(&f->lock, flags);
	if (f->core.congested)
		rcc_flow_end_episode(f, ktime_get_ns(), false);
	if (to_line_rate && f->told_bps) {
		f->told_bps = 0;
		f->hqp->dev->ops->set_rate(f->hqp, 0);
	}
	spin_unlock_irqrestore(&f->lock, flags);

	rcc_debugfs_del_flow(f);
	mutex_lock(&f->dev->flows_lock);
	list_del(&f->node);
	f->cnt.pkts = atomic64_read(&f->pkts);
	rcc_counters_add(&f->dev->retired, &f->cnt);
	mutex_unlock(&f->dev->flows_lock);
	if (WARN_ON_ONCE(hrtimer_active(&f->timer)))
		atomic_inc(&rcc_flows_freed_armed);
	atomic_dec(&rcc_flows_live);
	kfree_rcu(f, rcu);
}

/* A consistent copy of @f's state and counters.  Any context. */
void rcc_flow_state(struct rcc_flow *f, struct rcc_flow_state *st)
{
	const struct rcc_params *p;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	st->now_ns = ktime_get_ns();
	st->core = f->core;
	st->cnt = f->cnt;
	st->told_bps = f->told_bps;
	st->episode_start_ns = f->episode_start_ns;
	st->timer_armed = hrtimer_is_queued(&f->timer);
	if (f->core.congested)
		st->cnt.congested_ns += st->now_ns - f->episode_start_ns;
	p = rcc_flow_params(f);
	st->line_rate_bps = rcc_dev_line_rate(f->dev, p);
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
	st->cnt.pkts = atomic64_read(&f->pkts);
}

/* @d's counters: its QPs' and those of QPs already gone.  Process context. */
void rcc_dev_counters(struct rcc_dev *d, struct rcc_counters *sum,
		      unsigned int *nr_qps, unsigned int *nr_congested)
{
	struct rcc_flow_state st;
	struct rcc_flow *f;

	*nr_qps = 0;
	*nr_congested = 0;
	mutex_lock(&d->flows_lock);
	*sum = d->retired;
	list_for_each_entry(f, &d->flows, node) {
		rcc_flow_state(f, &st);
		rcc_counters_add(sum, &st.cnt);
		(*nr_qps)++;
		if (st.core.congested)
			(*nr_congested)++;
	}
	mutex_unlock(&d->flows_lock);
}
