/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_cc_hook.h - the attachment point between RoCE drivers and rdma_cc
 *
 * A RoCE driver never links against rdma_cc.ko.  It links against the tiny
 * rdma_cc_hook.ko, which holds no policy: a list of the driver's devices and
 * queue pairs, and one RCU-protected pointer to the congestion control that is
 * loaded right now, if any.  So:
 *
 *  - a driver works unchanged, at line rate, whether or not rdma_cc is loaded;
 *  - rdma_cc can be loaded at any time: it walks the lists and takes on every
 *    device and QP that already exists;
 *  - rdma_cc can be unloaded at any time: it stops its timers, hands every QP
 *    back at line rate (set_rate(qp, 0)) and frees its state.
 *
 * This is the split TCP uses (tcp_cong.c in the core, algorithms as modules),
 * for a subsystem whose core (ib_core) has no such hook of its own.
 *
 * The driver's side, in order:
 *
 *	dev->ops = &my_rp_ops;			// set_rate callback
 *	dev->line_rate_bps = link speed;	// update when it changes
 *	strscpy(dev->name, ibdev name);
 *	rdma_cc_hook_register_dev(dev);		// process context
 *	...
 *	qp->qpn = qpn;
 *	rdma_cc_hook_add_qp(dev, qp);		// process context, at QP create
 *	...
 *	rdma_cc_hook_cnp(qp);			// any context, per CNP
 *	rdma_cc_hook_tx(qp, npkts);		// any context, per packet(s) sent
 *	...
 *	rdma_cc_hook_del_qp(qp);		// process context, may sleep
 *	rdma_cc_hook_unregister_dev(dev);	// process context, may sleep
 *
 * set_rate() is called in atomic context (hrtimer or the CNP's own context),
 * only when the rate changes.  rate_bps == 0 means "line rate: stop pacing".
 */
#ifndef RDMA_CC_HOOK_H
#define RDMA_CC_HOOK_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#define RDMA_CC_HOOK_NAME_MAX 64

struct rdma_cc_hook_dev;
struct rdma_cc_hook_qp;

/* What a driver provides for each device. */
struct rdma_cc_rp_ops {
	/* New send rate for @qp in bit/s; 0 = line rate.  Atomic context. */
	void (*set_rate)(struct rdma_cc_hook_qp *qp, u64 rate_bps);
};

/* What a congestion control module (rdma_cc.ko) provides. */
struct rdma_cc_cc_ops {
	/* Process context; may fail with -ENOMEM, the device then runs free. */
	int (*attach_dev)(struct rdma_cc_hook_dev *dev);
	void (*detach_dev)(struct rdma_cc_hook_dev *dev);
	/* Atomic context (under the device's hook lock): must not sleep. */
	int (*attach_qp)(struct rdma_cc_hook_qp *qp);
	/* Process context; after it returns no timer of @qp is armed. */
	void (*detach_qp)(struct rdma_cc_hook_qp *qp);
	/* Any context, never sleep, no allocation. */
	void (*cnp)(void *qp_priv);
	void (*tx)(void *qp_priv, u32 npkts);
};

struct rdma_cc_hook_dev {
	/* set by the driver before registering */
	char name[RDMA_CC_HOOK_NAME_MAX];
	const struct rdma_cc_rp_ops *ops;
	u64 line_rate_bps;		/* link speed; WRITE_ONCE to update */
	void *driver_priv;

	/* owned by the hook and the congestion control module */
	struct list_head list;
	struct list_head qps;
	spinlock_t lock;		/* protects qps */
	void *cc_priv;
	u64 cnp_unattached;		/* CNPs on QPs with no CC attached */
};

struct rdma_cc_hook_qp {
	/* set by the driver before adding */
	u32 qpn;
	void *driver_priv;

	/* owned by the hook and the congestion control module */
	struct rdma_cc_hook_dev *dev;
	struct list_head list;
	void __rcu *cc_priv;
};

/* The congestion control that is loaded, or NULL. */
extern const struct rdma_cc_cc_ops __rcu *rdma_cc_hook_active;

int rdma_cc_hook_register_dev(struct rdma_cc_hook_dev *dev);
void rdma_cc_hook_unregister_dev(struct rdma_cc_hook_dev *dev);
int rdma_cc_hook_add_qp(struct rdma_cc_hook_dev *dev,
			struct rdma_cc_hook_qp *qp);
void rdma_cc_hook_del_qp(struct rdma_cc_hook_qp *qp);

/* For rdma_cc.ko: only one congestion control is active at a time. */
int rdma_cc_hook_register_cc(const struct rdma_cc_cc_ops *ops);
void rdma_cc_hook_unregister_cc(const struct rdma_cc_cc_ops *ops);

/* A CNP arrived for @qp from its peer.  Any context. */
static inline void rdma_cc_hook_cnp(struct rdma_cc_hook_qp *qp)
{
	const struct rdma_cc_cc_ops *ops;
	void *priv;

	rcu_read_lock();
	ops = rcu_dereference(rdma_cc_hook_active);
	priv = rcu_dereference(qp->cc_priv);
	if (ops && priv)
		ops->cnp(priv);
	rcu_read_unlock();
}

/* @qp sent @npkts data packets.  Any context. */
static inline void rdma_cc_hook_tx(struct rdma_cc_hook_qp *qp, u32 npkts)
{
	const struct rdma_cc_cc_ops *ops;
	void *priv;

	rcu_read_lock();
	ops = rcu_dereference(rdma_cc_hook_active);
	priv = rcu_dereference(qp->cc_priv);
	if (ops && priv)
		ops->tx(priv, npkts);
	rcu_read_unlock();
}

#endif /* RDMA_CC_HOOK_H */
