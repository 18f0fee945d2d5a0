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
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/slab.h>

#include "rdma_cc.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

#if IS_ENABLED(CONFIG_RDMA_CC_KUNIT_TEST)
/* QPs alive, and QPs that were freed with their timer still armed (a bug). */
atomic_t rcc_flows_live = ATOMIC_INIT(0);
atomic_t rcc_flows_freed_armed = ATOMIC_INIT(0);
#endif

/*
 * Every QP's struct rcc_flow: a cache of its own packs them at their size
 * (kmalloc would round them up to 256 or 512 bytes) and counts them in
 * /proc/slabinfo under "rcc_flow".
 */
static struct kmem_cache *rcc_flow_cache;

int rcc_flow_cache_init(void)
{
	rcc_flow_cache = KMEM_CACHE(rcc_flow, 0);
	return rcc_flow_cache ? 0 : -ENOMEM;
}

/* After every QP is destroyed; waits for the last RCU frees. */
void rcc_flow_cache_exit(void)
{
	rcu_barrier();
	kmem_cache_destroy(rcc_flow_cache);
}

/*
 * The parameters @f's runs use: its device's, with the QP's own values on
 * top when it has any (control.c; then built in @buf).  Under f->lock.
 */
static const struct rcc_params *rcc_flow_params(struct rcc_flow *f,
						struct rcc_params *buf)
{
	const struct rcc_params *p = &rcu_dereference(rcc_flow_dev(f)->params)->p;

	if (likely(!f->own) || !f->own->mask)
		return p;
	rcc_params_overlay(buf, p, f->own->mask, f->own->val);
	return buf;
}

/*
 * The rate the driver was last told (0 = line rate): it is told at attach
 * and after every event and run (rcc_flow_tell()), so it is always this.
 * Outside an episode rc is R: "line rate" when R is the link's speed, R
 * itself when it is below (f->calm_paced), so that rc holds on the wire.
 */
static u64 rcc_flow_told(const struct rcc_flow *f)
{
	if (unlikely(f->own) && f->own->pinned_bps)
		return f->own->pinned_bps;	/* an experiment's, loop or not */
	if (f->core.congested || f->calm_paced)
		return f->core.current_bps;
	return 0;
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
 * QP's rate, if it changed from @told (rcc_flow_told() before the change).
 */
static void rcc_flow_tell(struct rcc_flow *f, u64 told)
{
	u64 rate;

	WRITE_ONCE(f->in_episode, f->core.congested);
	f->calm_paced = !f->core.congested && f->core.current_bps <
			READ_ONCE(f->hqp->dev->line_rate_bps);
	rate = rcc_flow_told(f);
	if (rate != told)
		f->hqp->dev->ops->set_rate(f->hqp, rate);
}

static void rcc_flow_end_episode(struct rcc_flow *f, u64 t_ns, bool recovered,
				 u64 line_rate)
{
	u64 d = t_ns > f->episode_start_ns ? t_ns - f->episode_start_ns : 0;

	f->cnt.congested_ns += d;
	if (recovered)
		f->cnt.episodes_ended++;
	trace_episode_end(f->hqp->dev->name, f->hqp->qpn, t_ns, line_rate,
			  f->core.step_bps, d, recovered);
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
		f->episode_start_ns = rep->t_ns;
		trace_episode_start(f->hqp->dev->name, f->hqp->qpn, rep->t_ns,
				    c->line_rate, f->core.step_bps, 0, false);
	}
	/* rep->action < RCC_NR_ACTIONS: the runs are the sum of actions */
	f->cnt.actions[rep->action]++;
	if (rep->floor_hit)
		f->cnt.floor_hits++;
	if (late > c->half_interval)
		atomic64_inc(&rcc_flow_dev(f)->late_runs);
	trace_run(f->hqp->dev->name, f->hqp->qpn, rep, late);
	if (!rep->congested)
		rcc_flow_end_episode(f, rep->t_ns, true, c->line_rate);
}

static void rcc_flow_ctx_init(struct rcc_flow_ctx *c, struct rcc_flow *f,
			      const struct rcc_params *p)
{
	c->f = f;
	c->now_ns = ktime_get_ns();
	c->line_rate = rcc_dev_line_rate(rcc_flow_dev(f), p);
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
	struct rcc_params buf;
	struct rcc_flow_ctx c;
	unsigned long flags;
	u64 told;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	if (f->dead || !f->core.congested || hrtimer_is_queued(timer))
		goto out;
	p = rcc_flow_params(f, &buf);
	rcc_flow_ctx_init(&c, f, p);
	told = rcc_flow_told(f);
	rcc_advance(&f->core, p, c.line_rate, c.now_ns, rcc_flow_ran, &c);
	rcc_flow_tell(f, told);
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
	struct rcc_params buf;
	const struct rcc_params *p = rcc_flow_params(f, &buf);
	bool was_congested = f->core.congested;
	u64 told = rcc_flow_told(f);
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
	rcc_flow_tell(f, told);
}

/* cnp() of rdma_cc_cc_ops: see rdma_cc_hook.h for the contexts. */
bool rcc_flow_cnp(void *priv)
{
	struct rcc_flow *f = priv;
	unsigned long flags;
	bool taken;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	taken = !f->dead;
	if (taken) {
		f->cnt.cnps++;
		trace_cnp(f->hqp->dev->name, f->hqp->qpn);
		rcc_flow_event(f, RCC_EV_CNP, 0);
	}
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
	return taken;
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

/*
 * Process context.  NULL when out of memory or when @dev already has a QP
 * numbered @hqp->qpn (a driver's bug): the QP then runs at line rate.
 */
struct rcc_flow *rcc_flow_create(struct rcc_dev *dev,
				 struct rdma_cc_hook_qp *hqp)
{
	const struct rcc_params *p;
	unsigned long flags;
	struct rcc_flow *f;
	int err;

	f = kmem_cache_zalloc(rcc_flow_cache, GFP_KERNEL);
	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	atomic64_set(&f->pkts, 0);
	hrtimer_init(&f->timer, CLOCK_MONOTONIC, RCC_TIMER_MODE);
	f->timer.function = rcc_flow_timer;
	f->hqp = hqp;
	rcu_read_lock();
	p = &rcu_dereference(dev->params)->p;
	rcc_qp_init(&f->core, rcc_dev_line_rate(dev, p));
	rcu_read_unlock();

	mutex_lock(&dev->flows_lock);
	err = xa_insert(&dev->flows, hqp->qpn, f, GFP_KERNEL);
	dev->flows_gen += !err;
	mutex_unlock(&dev->flows_lock);
	if (err) {
		if (err == -EBUSY)
			pr_warn_ratelimited("%s: QP %u attached twice; it runs at line rate\n",
					    hqp->dev->name, hqp->qpn);
		kmem_cache_free(rcc_flow_cache, f);
		return NULL;
	}
	rcc_test_count_flows(1);
	/* the driver starts it at line rate; R may be below that */
	spin_lock_irqsave(&f->lock, flags);
	rcc_flow_tell(f, 0);
	spin_unlock_irqrestore(&f->lock, flags);
	return f;
}

static void rcc_flow_free(struct rcu_head *rcu)
{
	struct rcc_flow *f = container_of(rcu, struct rcc_flow, rcu);

	kfree(f->own);
	kmem_cache_free(rcc_flow_cache, f);
}

/*
 * Process context.  After it returns no timer of @f is armed and the driver
 * is not called again; @f is freed after the hook's readers are done.
 */
void rcc_flow_destroy(struct rcc_flow *f, bool to_line_rate)
{
	struct rcc_dev *dev = rcc_flow_dev(f);
	struct rcc_counters *r = &dev->retired;
	struct rcc_params buf;
	unsigned long flags;
	bool in_episode;
	int i;

	/*
	 * Dead and retired at once, under flows_lock and f->lock: a sum of
	 * the device's counters sees @f either attached or retired, and
	 * once dead nothing changes @f->cnt or reads it (rcc_flow_state()).
	 */
	mutex_lock(&dev->flows_lock);
	spin_lock_irqsave(&f->lock, flags);
	WRITE_ONCE(f->dead, true);
	in_episode = f->core.congested;
	if (in_episode) {
		rcu_read_lock();
		rcc_flow_end_episode(f, ktime_get_ns(), false,
				     rcc_dev_line_rate(dev, rcc_flow_params(f, &buf)));
		rcu_read_unlock();
	}
	if (to_line_rate && rcc_flow_told(f))
		f->hqp->dev->ops->set_rate(f->hqp, 0);
	r->cnps += f->cnt.cnps;
	r->pkts += atomic64_read(&f->pkts);
	r->episodes += f->cnt.episodes_ended + in_episode;
	r->episodes_ended += f->cnt.episodes_ended;
	for (i = 0; i < RCC_NR_ACTIONS; i++) {
		r->runs += f->cnt.actions[i];
		r->actions[i] += f->cnt.actions[i];
	}
	r->floor_hits += f->cnt.floor_hits;
	r->congested_ns += f->cnt.congested_ns;
	spin_unlock_irqrestore(&f->lock, flags);
	xa_erase(&dev->flows, f->hqp->qpn);
	dev->flows_gen++;
	mutex_unlock(&dev->flows_lock);

	/* No event re-arms it once dead; a running callback is waited for. */
	hrtimer_cancel(&f->timer);
	if (WARN_ON_ONCE(hrtimer_active(&f->timer)))
		rcc_test_count_freed_armed();
	rcc_test_count_flows(-1);
	/* the timer is done with: its storage becomes the rcu_head */
	call_rcu(&f->rcu, rcc_flow_free);
}

/*
 * A consistent copy of @f's state and counters, false (and nothing copied)
 * once @f is being destroyed.  Any context; @f must be kept from being
 * freed (RCU, or the hook's or flows_lock's exclusion of destroy).
 */
bool rcc_flow_state(struct rcc_flow *f, struct rcc_flow_state *st)
{
	const struct rcc_params *p;
	struct rcc_params buf;
	unsigned long flags;
	int i;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	if (f->dead) {
		spin_unlock_irqrestore(&f->lock, flags);
		rcu_read_unlock();
		return false;
	}
	st->now_ns = ktime_get_ns();
	st->qpn = f->hqp->qpn;
	st->core = f->core;
	st->told_bps = rcc_flow_told(f);
	st->episode_start_ns = f->episode_start_ns;
	st->timer_armed = hrtimer_is_queued(&f->timer);
	st->cnt = (struct rcc_counters){
		.cnps = f->cnt.cnps,
		.episodes = f->cnt.episodes_ended + f->core.congested,
		.episodes_ended = f->cnt.episodes_ended,
		.floor_hits = f->cnt.floor_hits,
		.congested_ns = f->cnt.congested_ns,
	};
	for (i = 0; i < RCC_NR_ACTIONS; i++) {
		st->cnt.actions[i] = f->cnt.actions[i];
		st->cnt.runs += f->cnt.actions[i];
	}
	if (f->core.congested)
		st->cnt.congested_ns += st->now_ns - f->episode_start_ns;
	p = rcc_flow_params(f, &buf);
	st->line_rate_bps = rcc_dev_line_rate(rcc_flow_dev(f), p);
	st->pinned_bps = f->own ? f->own->pinned_bps : 0;
	st->own_mask = f->own ? f->own->mask : 0;
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
	st->cnt.pkts = atomic64_read(&f->pkts);
	return true;
}

/*
 * Give @f what it has of its own (@own, or NULL for nothing; control.c
 * validates it), replacing what it had: parameters take effect from its
 * next run, a pinned rate at once.  Returns what to kfree(): the old one,
 * or @own itself when @f is being destroyed.  Process context.
 */
struct rcc_flow_own *rcc_flow_set_own(struct rcc_flow *f,
				      struct rcc_flow_own *own)
{
	struct rcc_flow_own *old = own;
	unsigned long flags;
	u64 told;

	spin_lock_irqsave(&f->lock, flags);
	if (!f->dead) {
		told = rcc_flow_told(f);
		old = f->own;
		f->own = own;
		rcc_flow_tell(f, told);
	}
	spin_unlock_irqrestore(&f->lock, flags);
	return old;
}

/*
 * The state of @d's first attached QP numbered *@qpn or above, and *@qpn
 * set to its number; false when there is none.  Any context but hard irq.
 */
bool rcc_dev_flow_state(struct rcc_dev *d, unsigned long *qpn,
			struct rcc_flow_state *st)
{
	struct rcc_flow *f;
	bool found = false;

	rcu_read_lock();
	while ((f = xa_find(&d->flows, qpn, U32_MAX, XA_PRESENT))) {
		found = rcc_flow_state(f, st);
		if (found || *qpn == U32_MAX)
			break;
		(*qpn)++;
	}
	rcu_read_unlock();
	return found;
}
