// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_qp.c - one QP under DCQCN: the per-QP lock, the CNP and packet
 * events, and the hrtimer that wakes at the reaction point's next rate
 * change.  The rules and the order of timers and events are dcqcn.c's
 * (the simulator's and the replay tool's): an event first runs the timers
 * due before it, then applies itself, as the replay does.
 *
 * Everything a driver reaches per packet or per CNP takes only this QP's
 * irq-safe spinlock (or nothing), allocates nothing and never sleeps.
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include "compat.h"
#include "dcqcn_mod.h"

#if IS_ENABLED(CONFIG_RDMA_CC_KUNIT_TEST)
atomic_t dcqcn_flows_live = ATOMIC_INIT(0);
#endif

/* As rdma_cc's (qp.c): a softirq hrtimer pinned to the CPU that armed it. */
#define DCQCN_TIMER_MODE	HRTIMER_MODE_ABS_PINNED_SOFT

/* The fastest line DCQCN is told of: 10 Tbit/s, as rdma_cc. */
#define DCQCN_MAX_LINE_BPS	10000000000000ULL

/* What the reaction point's events are counted by.  Under f->lock. */
static void dcqcn_flow_event(void *ctx, const struct dcqcn_event *ev)
{
	struct dcqcn_flow *f = ctx;

	switch (ev->kind) {
	case DCQCN_EV_FIRST_CNP:
		f->cnt.first_cnps++;
		break;
	case DCQCN_EV_CUT:
		f->cnt.cuts++;
		break;
	default:
		f->cnt.increases++;
		break;
	}
}

/*
 * Bring f->cfg up to the parameters in force and the device's line rate,
 * if either changed since it was resolved.  Returns the device's line rate
 * (R is that over the slow-down, f->cfg.line_bps), 0 when the device
 * reports none (then DCQCN leaves the QP alone).  Under f->lock
 * and rcu_read_lock().
 */
static u64 dcqcn_flow_cfg(struct dcqcn_flow *f)
{
	u64 line = min_t(u64, READ_ONCE(f->hqp->dev->line_rate_bps),
			 DCQCN_MAX_LINE_BPS);
	struct dcqcn_snap *s = dcqcn_params_get();
	struct dcqcn_params p;

	if (s->gen != f->cfg_gen || line != f->cfg_line) {
		p = s->p;
		dcqcn_resolve(&p, line);
		f->cfg = p.cfg;
		f->cfg_gen = s->gen;
		f->cfg_line = line;
		f->mtu = s->mtu;
	}
	return line;
}

/* Slack of the timer: a quarter of the decrease check's period. */
static u64 dcqcn_flow_slack_ns(const struct dcqcn_flow *f)
{
	return f->cfg.dec_ns / 4;
}

/*
 * The rate of a QP DCQCN does not limit: "line rate", unless R (the line
 * rate over the slow-down) is below the device's link speed, where an
 * unpaced QP would send faster than R.  As rdma_cc's (qp.c).
 */
static u64 dcqcn_flow_calm_bps(const struct dcqcn_flow *f)
{
	return f->cfg.line_bps < f->cfg_line ? f->cfg.line_bps : 0;
}

/*
 * At attach and after every event and timer run, under f->lock: note
 * whether packets matter, release a limiter that got back to line rate,
 * and tell the driver the QP's rate if it changed.
 */
static void dcqcn_flow_tell(struct dcqcn_flow *f, bool was_limited)
{
	u64 rate = f->rp.limited ? f->rp.rc : dcqcn_flow_calm_bps(f);

	WRITE_ONCE(f->counting, f->rp.increasing && f->cfg.byte_reset);
	if (was_limited && !f->rp.limited)
		f->cnt.releases++;
	if (rate == f->told_bps)
		return;
	f->told_bps = rate;
	f->cnt.rate_changes++;
	f->hqp->dev->ops->set_rate(f->hqp, rate);
}

/*
 * Who arms the timer (as in rdma_cc's qp.c): exactly one path owns its
 * expiry at any time.
 *  - An event (CNP or packets) that changes when the next rate change is
 *    due starts the timer with hrtimer_start_range_ns(), or cancels it if
 *    none is due, under f->lock.
 *  - The callback moves the expiry and returns HRTIMER_RESTART only if,
 *    under f->lock, the timer is not queued: while the callback waited for
 *    the lock, an event on another CPU may have queued it again, and then
 *    that start owns the timer and the callback leaves it alone.
 */
static void dcqcn_flow_arm(struct dcqcn_flow *f)
{
	u64 next = dcqcn_next_change_ns(&f->rp);

	if (next == DCQCN_NEVER) {
		hrtimer_try_to_cancel(&f->timer);
		return;
	}
	if (hrtimer_is_queued(&f->timer) &&
	    ktime_to_ns(hrtimer_get_softexpires(&f->timer)) == next)
		return;
	hrtimer_start_range_ns(&f->timer, ns_to_ktime(next),
			       dcqcn_flow_slack_ns(f), DCQCN_TIMER_MODE);
}

static enum hrtimer_restart dcqcn_flow_timer(struct hrtimer *timer)
{
	struct dcqcn_flow *f = container_of(timer, struct dcqcn_flow, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	const struct dcqcn_sink sink = { dcqcn_flow_event, f };
	unsigned long flags;
	bool was_limited;
	u64 next;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	if (f->dead || hrtimer_is_queued(timer) || !dcqcn_flow_cfg(f))
		goto out;
	was_limited = f->rp.limited;
	dcqcn_run(&f->rp, &f->cfg, ktime_get_ns(), true, &sink);
	dcqcn_flow_tell(f, was_limited);
	next = dcqcn_next_change_ns(&f->rp);
	if (next != DCQCN_NEVER) {
		hrtimer_set_expires_range_ns(timer, ns_to_ktime(next),
					     dcqcn_flow_slack_ns(f));
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
	return ret;
}

/* cnp() of rdma_cc_cc_ops: see rdma_cc_hook.h for the contexts. */
bool dcqcn_flow_cnp(void *priv)
{
	const struct dcqcn_sink sink = { dcqcn_flow_event, priv };
	struct dcqcn_flow *f = priv;
	unsigned long flags;
	bool was_limited, taken;
	u64 now;

	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	taken = !f->dead;
	if (!taken)
		goto out;
	f->cnt.cnps++;
	if (!dcqcn_flow_cfg(f))
		goto out;
	now = ktime_get_ns();
	was_limited = f->rp.limited;
	dcqcn_run(&f->rp, &f->cfg, now, false, &sink);
	dcqcn_cnp(&f->rp, &f->cfg, now, &sink);
	dcqcn_flow_tell(f, was_limited);
	dcqcn_flow_arm(f);
out:
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
	return taken;
}

/* tx() of rdma_cc_cc_ops: see rdma_cc_hook.h for the contexts. */
void dcqcn_flow_tx(void *priv, u32 npkts)
{
	const struct dcqcn_sink sink = { dcqcn_flow_event, priv };
	struct dcqcn_flow *f = priv;
	unsigned long flags;
	bool was_limited;
	u64 now;

	/* Only the byte counter after a cut counts packets: skip the lock. */
	if (!READ_ONCE(f->counting))
		return;
	rcu_read_lock();
	spin_lock_irqsave(&f->lock, flags);
	if (f->dead || !dcqcn_flow_cfg(f))
		goto out;
	now = ktime_get_ns();
	was_limited = f->rp.limited;
	dcqcn_run(&f->rp, &f->cfg, now, false, &sink);
	dcqcn_tx(&f->rp, &f->cfg, (u64)npkts * f->mtu, now, &sink);
	dcqcn_flow_tell(f, was_limited);
	dcqcn_flow_arm(f);
out:
	spin_unlock_irqrestore(&f->lock, flags);
	rcu_read_unlock();
}

struct dcqcn_flow *dcqcn_flow_create(struct dcqcn_dev *dev,
				     struct rdma_cc_hook_qp *hqp)
{
	unsigned long flags;
	struct dcqcn_flow *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	rcc_hrtimer_setup(&f->timer, dcqcn_flow_timer, CLOCK_MONOTONIC,
			  DCQCN_TIMER_MODE);
	f->dev = dev;
	f->hqp = hqp;
	rcu_read_lock();
	dcqcn_flow_cfg(f);
	rcu_read_unlock();
	dcqcn_init(&f->rp, &f->cfg);

	dcqcn_debugfs_add_flow(f);
	dcqcn_test_count_flows(1);
	mutex_lock(&dev->flows_lock);
	list_add_tail(&f->node, &dev->flows);
	mutex_unlock(&dev->flows_lock);
	/* the driver starts it at line rate; R may be below that */
	spin_lock_irqsave(&f->lock, flags);
	dcqcn_flow_tell(f, false);
	spin_unlock_irqrestore(&f->lock, flags);
	return f;
}

/*
 * Process context.  After it returns no timer of @f is armed and the driver
 * is not called again; @f is freed after the hook's readers are done.
 */
void dcqcn_flow_destroy(struct dcqcn_flow *f, bool to_line_rate)
{
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	WRITE_ONCE(f->dead, true);
	spin_unlock_irqrestore(&f->lock, flags);
	/* No event re-arms it once dead; a running callback is waited for. */
	hrtimer_cancel(&f->timer);

	spin_lock_irqsave(&f->lock, flags);
	if (to_line_rate && f->told_bps) {
		f->told_bps = 0;
		f->hqp->dev->ops->set_rate(f->hqp, 0);
	}
	spin_unlock_irqrestore(&f->lock, flags);

	debugfs_remove(f->dbg);
	mutex_lock(&f->dev->flows_lock);
	list_del(&f->node);
	mutex_unlock(&f->dev->flows_lock);
	WARN_ON_ONCE(hrtimer_active(&f->timer));
	dcqcn_test_count_flows(-1);
	kfree_rcu(f, rcu);
}

/* A consistent copy of @f's state and counters.  Any context. */
void dcqcn_flow_state(struct dcqcn_flow *f, struct dcqcn_flow_state *st)
{
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	st->rp = f->rp;
	st->cnt = f->cnt;
	st->link_bps = f->cfg_line;
	st->line_bps = f->cfg.line_bps;
	st->told_bps = f->told_bps;
	st->timer_armed = hrtimer_is_queued(&f->timer);
	spin_unlock_irqrestore(&f->lock, flags);
}
