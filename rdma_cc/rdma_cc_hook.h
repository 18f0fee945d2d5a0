/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_cc_hook.h - the attachment point between RoCE drivers and rdma_cc
 *
 * A RoCE driver never links against rdma_cc.ko.  It links against the tiny
 * rdma_cc_hook.ko, which holds no policy: a list of the driver's devices and
 * queue pairs, and a registry of named congestion controls (rdma_cc.ko,
 * rdma_cc_dcqcn.ko, ...), one of which runs each device.  So:
 *
 *  - a driver works unchanged, at line rate, whether or not a congestion
 *    control is loaded;
 *  - a congestion control can be loaded at any time: the devices that
 *    choose it (or follow the default, below) move over to it with every
 *    QP they have;
 *  - a congestion control can be unloaded at any time: its devices move to
 *    the default (or to line rate), it stops its timers and frees its state;
 *  - /sys/kernel/rdma_cc_hook/<device>/congestion_control picks one per
 *    device at run time, as net.ipv4.tcp_congestion_control does for TCP
 *    (available_congestion_control beside it lists the loaded ones and
 *    "none").  A device not written to runs the default, rdma_cc, when it
 *    is loaded, and line rate otherwise; a device whose chosen one is not
 *    loaded does the same.
 *
 * A device changes congestion control under traffic without losing a CNP:
 * its QPs leave the old one (which stops pacing them: set_rate(qp, 0)),
 * CNPs arriving meanwhile are counted by the hook, and the new one gets
 * them as soon as it has the QPs; each QP starts under it at its line rate
 * R (told set_rate(qp, R) at once where R is below the device's link
 * speed, so that an unpaced QP does not send faster than R).
 *
 * This is the split TCP uses (tcp_cong.c in the core, algorithms as modules),
 * for a subsystem whose core (ib_core) has no such hook of its own.  See
 * Documentation/driver-api.rst for the reasoning and the full contract.
 *
 * The driver's side, in order:
 *
 *	dev->ops = &my_rp_ops;			// set_rate callback
 *	dev->line_rate_bps = link speed;	// WRITE_ONCE when it changes
 *	strscpy(dev->name, ibdev name);
 *	rdma_cc_hook_register_dev(dev);		// process context, may sleep
 *	...
 *	qp->qpn = qpn;
 *	rdma_cc_hook_add_qp(dev, qp);		// process context, may sleep
 *	...
 *	handled = rdma_cc_hook_cnp(qp);		// any context, per CNP
 *	rdma_cc_hook_tx(qp, npkts);		// any context, per packet(s) sent
 *	rdma_cc_hook_qp_snapshot(qp, &snap);	// to show the QP's CC state
 *	...
 *	rdma_cc_hook_del_qp(qp);		// process context, may sleep
 *	rdma_cc_hook_unregister_dev(dev);	// process context, may sleep
 *
 * Contexts and locks (the contract; Documentation/driver-api.rst explains).
 *
 * rdma_cc_hook_cnp() and rdma_cc_hook_tx() may be called from any context
 * in which a spinlock_t may be taken: process, softirq, or hard-irq
 * context on a kernel without PREEMPT_RT; on PREEMPT_RT (where spinlock_t
 * sleeps) not from hard-irq context or under a raw spinlock.  They never
 * sleep otherwise, allocate nothing and take only the QP's own lock.
 *
 * set_rate() is called with the congestion control's per-QP lock held (a
 * spinlock_t taken with spin_lock_irqsave(): interrupts are off, except on
 * PREEMPT_RT), only when the rate changes, from any of:
 *  - the congestion control's timer (a softirq hrtimer; a thread on
 *    PREEMPT_RT);
 *  - inside rdma_cc_hook_cnp() and rdma_cc_hook_tx(), in the caller's
 *    context: the event makes the runs that were due before it first;
 *  - process context, when the congestion control takes on a QP whose R
 *    is below the device's link speed (attach_qp(): it is paced at R), hands
 *    a QP back at line rate (unload, or the device moving to another
 *    one), or the hook hands a new one the CNPs that came during the move.
 * Both shipped congestion controls (rdma_cc.ko, rdma_cc_dcqcn.ko) keep
 * this contract, and at most one of them has a QP at any time.
 * So set_rate() must not sleep and must not call into rdma_cc_hook_*() for
 * any QP.  The lock order is: the driver's locks that it holds while
 * calling rdma_cc_hook_cnp()/tx(), then rdma_cc's per-QP lock, then the
 * locks set_rate() takes.  set_rate() may therefore take only locks the
 * driver never holds while calling into the hook (leaf locks), or none:
 * rxe's writes one word and is lockless.  rate_bps == 0 means "line rate:
 * stop pacing".
 *
 * Once rdma_cc_hook_del_qp() has returned for a QP, set_rate() is not
 * called for it again (a timer may still run while del_qp() is waiting,
 * and call it; del_qp() waits for that callback to finish).
 */
#ifndef RDMA_CC_HOOK_H
#define RDMA_CC_HOOK_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#define RDMA_CC_HOOK_NAME_MAX 64

struct rdma_cc_hook_dev;
struct rdma_cc_hook_qp;

/*
 * One QP's congestion control state as rdma_cc_hook_qp_snapshot() copies it
 * for the driver, to show its operators (rxe puts it in "rdma resource show
 * qp -dd").  A consistent copy, taken under the congestion control's per-QP
 * lock; the driver never reads the congestion control's own structures.
 */
struct rdma_cc_qp_snapshot {
	u64 line_rate_bps;	/* R: the rate the QP recovers to */
	u64 current_bps;	/* the loop's rate; R when not congested */
	u64 target_bps;		/* the loop's target rate */
	u64 pinned_bps;		/* rate pinned for an experiment; 0 = none */
	u64 episodes;		/* congestion episodes started */
	u64 cnps;		/* CNPs received */
	u32 estimate_ppm;	/* the congestion estimate, in millionths */
	bool congested;		/* in an episode */
	bool params_own;	/* the QP has parameters of its own */
};

/* What a driver provides for each device. */
struct rdma_cc_rp_ops {
	/*
	 * New send rate for @qp in bit/s; 0 = line rate.  Called under
	 * rdma_cc's per-QP lock: must not sleep (see the contexts above).
	 */
	void (*set_rate)(struct rdma_cc_hook_qp *qp, u64 rate_bps);
};

struct rdma_cc_cc_ops;

/*
 * The head of a congestion control's per-QP state: attach_qp() returns a
 * pointer to its state, whose first member this must be, and the hook
 * fills in @ops.  The CNP and packet calls reach ops and state through the
 * one RCU pointer qp->cc_priv, so a QP that moves from one congestion
 * control to another is never called with one's ops and the other's state.
 */
struct rdma_cc_hook_qp_cc {
	const struct rdma_cc_cc_ops *ops;
};

/* The longest name of a congestion control, with its NUL. */
#define RDMA_CC_HOOK_CC_NAME_MAX 16

/*
 * What a congestion control module (rdma_cc.ko, rdma_cc_dcqcn.ko) provides:
 * a name and every callback.  Every call but cnp() and tx() is made in
 * process context with the device's lock held (and, for attach_dev/
 * detach_dev and a move between congestion controls, the hook's registry
 * mutex), so the congestion control sees the changes of one device one at
 * a time; QPs of different devices come and go in parallel.
 */
struct rdma_cc_cc_ops {
	/* lower case, [a-z0-9_], unique; "none" is taken (line rate) */
	const char *name;
	/* Take on @dev; sets dev->cc_priv.  On error the device runs free. */
	int (*attach_dev)(struct rdma_cc_hook_dev *dev);
	/* Called after every QP of @dev was detached. */
	void (*detach_dev)(struct rdma_cc_hook_dev *dev);
	/*
	 * Take on @qp of an attached device, at its line rate R (calling
	 * set_rate() for it where R is below the device's link speed);
	 * returns its state (beginning with a struct rdma_cc_hook_qp_cc)
	 * or NULL.
	 */
	void *(*attach_qp)(struct rdma_cc_hook_qp *qp);
	/*
	 * Let go of @qp, whose cc_priv (@priv) is already unpublished.  When it
	 * returns no timer of @qp is armed, set_rate() will not be called again
	 * and @priv is freed once readers that still hold it are done (RCU).
	 * @to_line_rate: tell the driver set_rate(qp, 0) if it is paced (the
	 * congestion control is going away or the device moves to another;
	 * not when the QP is going away).
	 */
	void (*detach_qp)(struct rdma_cc_hook_qp *qp, void *priv,
			  bool to_line_rate);
	/*
	 * The contexts of rdma_cc_hook_cnp()/tx() above; never sleep (but
	 * for spinlock_t on PREEMPT_RT), no allocation, no global lock.
	 * cnp() returns true when it counted the CNP for the QP, false when
	 * the QP is being let go of and the CNP changed nothing.
	 */
	bool (*cnp)(void *qp_priv);
	void (*tx)(void *qp_priv, u32 npkts);
	/*
	 * Copy the state of a QP for rdma_cc_hook_qp_snapshot(); optional.
	 * The contexts of cnp()/tx(); never sleeps.
	 */
	void (*qp_snapshot)(void *qp_priv, struct rdma_cc_qp_snapshot *snap);
};

struct rdma_cc_hook_dev {
	/* set by the driver before registering */
	char name[RDMA_CC_HOOK_NAME_MAX];
	const struct rdma_cc_rp_ops *ops;
	u64 line_rate_bps;		/* link speed; WRITE_ONCE to update */

	/* owned by the hook and the congestion control module */
	struct list_head list;		/* in the hook's device list */
	struct mutex lock;		/* qps, cc and the attachment of QPs */
	struct list_head qps;		/* this device's QPs */
	void *cc_priv;			/* non-NULL while attached */
	const struct rdma_cc_cc_ops *cc; /* attached to, or NULL */
	char cc_chosen[RDMA_CC_HOOK_CC_NAME_MAX]; /* written; "": default */
	struct kobject *kobj;		/* /sys/kernel/rdma_cc_hook/<name>/ */
};

struct rdma_cc_hook_qp {
	/* set by the driver before adding */
	u32 qpn;

	/* owned by the hook and the congestion control module */
	struct rdma_cc_hook_dev *dev;
	struct list_head list;		/* in dev->qps */
	void __rcu *cc_priv;		/* starts with a rdma_cc_hook_qp_cc */
	void *cc_leaving;		/* the state being detached, in a move */
	bool moving;			/* between two congestion controls */
	atomic_t cnps_in_move;		/* CNPs that came while @moving */
};

int rdma_cc_hook_register_dev(struct rdma_cc_hook_dev *dev);
void rdma_cc_hook_unregister_dev(struct rdma_cc_hook_dev *dev);
/*
 * Returns once the sysfs directory of every unregistered device has been
 * released (a reader may hold one open after unregister_dev()).  The
 * hook's exit waits so; a driver need not call it.  May sleep.
 */
void rdma_cc_hook_wait_released(void);
int rdma_cc_hook_add_qp(struct rdma_cc_hook_dev *dev,
			struct rdma_cc_hook_qp *qp);
void rdma_cc_hook_del_qp(struct rdma_cc_hook_qp *qp);

/* For congestion control modules: add to or remove from the registry. */
int rdma_cc_hook_register_cc(const struct rdma_cc_cc_ops *ops);
void rdma_cc_hook_unregister_cc(const struct rdma_cc_cc_ops *ops);

/*
 * Run @dev under the congestion control @name ("none": line rate), now
 * and from now on, moving its QPs over; what a write of the device's
 * congestion_control file does.  Process context, may sleep.
 * Return: 0, -ENOENT when no congestion control of that name is loaded
 * (nothing changes), -EINVAL for a malformed name.
 */
int rdma_cc_hook_set_dev_cc(struct rdma_cc_hook_dev *dev, const char *name);

/*
 * A CNP arrived for @qp from its peer.  Where a spinlock_t may be taken
 * (above: not hard-irq or under a raw spinlock on PREEMPT_RT).  Returns true when a
 * congestion control took it (counted it for the QP), false when none did:
 * the device runs at line rate, or the QP is being deleted.  A driver
 * counts the two apart (mlx5's rp_cnp_handled and rp_cnp_ignored).
 */
bool rdma_cc_hook_cnp(struct rdma_cc_hook_qp *qp);
/* @qp sent @npkts data packets.  Contexts as rdma_cc_hook_cnp(). */
void rdma_cc_hook_tx(struct rdma_cc_hook_qp *qp, u32 npkts);

/*
 * Is a congestion control attached to @qp, so that CNPs about its packets
 * slow it down?  Any context; the answer may change at once (a driver uses
 * it to mark its packets ECN capable only where a reaction point listens).
 */
static inline bool rdma_cc_hook_qp_controlled(const struct rdma_cc_hook_qp *qp)
{
	return rcu_access_pointer(qp->cc_priv);
}

/* @qp's congestion control state, for the driver to show (see hook.c). */
int rdma_cc_hook_qp_snapshot(struct rdma_cc_hook_qp *qp,
			     struct rdma_cc_qp_snapshot *snap);

#endif /* RDMA_CC_HOOK_H */
