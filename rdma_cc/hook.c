// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - rdma_cc_hook.ko: the registry of RoCE devices and QPs, and the
 * one pointer to the congestion control that is loaded, if any.
 *
 * Two levels of locks, always taken in this order:
 *
 *  - rdma_cc_hook_mutex: the device list and the registered congestion
 *    control; taken to register or unregister a device or a congestion
 *    control, never for a QP;
 *  - each device's lock: its QP list and whether the congestion control
 *    is attached to it (dev->cc); taken to add or delete a QP, so that QPs
 *    of one device never wait for another device's (the congestion
 *    control allocates and creates debugfs files for a QP under it).
 *
 * The congestion control thus sees the changes of one device one at a
 * time, in process context.  The per-packet and per-CNP calls only read
 * two RCU-protected pointers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/string.h>

#include "rdma_cc_hook.h"

static DEFINE_MUTEX(rdma_cc_hook_mutex);
static LIST_HEAD(rdma_cc_hook_devs);

/* The congestion control the packet and CNP calls reach, or NULL. */
static const struct rdma_cc_cc_ops __rcu *rdma_cc_hook_active;

static const struct rdma_cc_cc_ops *rdma_cc_hook_cc(void)
{
	return rcu_dereference_protected(rdma_cc_hook_active,
					 lockdep_is_held(&rdma_cc_hook_mutex));
}

static void rdma_cc_hook_attach_qp(struct rdma_cc_hook_dev *dev,
				   struct rdma_cc_hook_qp *qp)
{
	void *priv;

	lockdep_assert_held(&dev->lock);
	if (!dev->cc)
		return;
	priv = dev->cc->attach_qp(qp);
	if (priv)
		rcu_assign_pointer(qp->cc_priv, priv);
}

static void rdma_cc_hook_detach_qp(struct rdma_cc_hook_dev *dev,
				   struct rdma_cc_hook_qp *qp,
				   bool to_line_rate)
{
	void *priv;

	lockdep_assert_held(&dev->lock);
	priv = rcu_dereference_protected(qp->cc_priv,
					 lockdep_is_held(&dev->lock));
	if (!priv)
		return;
	RCU_INIT_POINTER(qp->cc_priv, NULL);
	dev->cc->detach_qp(qp, priv, to_line_rate);
}

/* Attach @cc to @dev and its QPs.  Under both locks. */
static void rdma_cc_hook_attach_dev(const struct rdma_cc_cc_ops *cc,
				    struct rdma_cc_hook_dev *dev)
{
	struct rdma_cc_hook_qp *qp;
	int err;

	lockdep_assert_held(&dev->lock);
	err = cc->attach_dev(dev);
	if (err) {
		pr_warn("%s runs at line rate: %s failed to attach (%d)\n",
			dev->name, cc->name, err);
		dev->cc_priv = NULL;
		return;
	}
	dev->cc = cc;
	list_for_each_entry(qp, &dev->qps, list)
		rdma_cc_hook_attach_qp(dev, qp);
}

/* Detach the congestion control from @dev and its QPs.  Under both locks. */
static void rdma_cc_hook_detach_dev(struct rdma_cc_hook_dev *dev,
				    bool to_line_rate)
{
	struct rdma_cc_hook_qp *qp;

	lockdep_assert_held(&dev->lock);
	if (!dev->cc)
		return;
	list_for_each_entry(qp, &dev->qps, list)
		rdma_cc_hook_detach_qp(dev, qp, to_line_rate);
	dev->cc->detach_dev(dev);
	dev->cc_priv = NULL;
	dev->cc = NULL;
}

/**
 * rdma_cc_hook_register_dev() - make a RoCE device known to rdma_cc
 * @dev: filled in by the driver: name, ops, line_rate_bps
 *
 * Process context.  If a congestion control is loaded it takes the device
 * on now; otherwise when it loads.
 *
 * Return: 0, or -EINVAL for a device without a name or set_rate callback.
 */
int rdma_cc_hook_register_dev(struct rdma_cc_hook_dev *dev)
{
	const struct rdma_cc_cc_ops *cc;

	if (!dev->name[0] || !dev->ops || !dev->ops->set_rate)
		return -EINVAL;
	INIT_LIST_HEAD(&dev->qps);
	mutex_init(&dev->lock);
	dev->cc = NULL;
	dev->cc_priv = NULL;
	mutex_lock(&rdma_cc_hook_mutex);
	list_add_tail(&dev->list, &rdma_cc_hook_devs);
	cc = rdma_cc_hook_cc();
	if (cc) {
		mutex_lock(&dev->lock);
		rdma_cc_hook_attach_dev(cc, dev);
		mutex_unlock(&dev->lock);
	}
	mutex_unlock(&rdma_cc_hook_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_register_dev);

/**
 * rdma_cc_hook_unregister_dev() - forget a device
 * @dev: a registered device; its QPs should have been deleted already
 *
 * Process context, may sleep.  QPs still on the device are deleted here
 * (with one warning); a later rdma_cc_hook_del_qp() for them does nothing.
 */
void rdma_cc_hook_unregister_dev(struct rdma_cc_hook_dev *dev)
{
	struct rdma_cc_hook_qp *qp, *tmp;
	unsigned int left = 0;
	u32 first_qpn = 0;

	mutex_lock(&rdma_cc_hook_mutex);
	mutex_lock(&dev->lock);
	rdma_cc_hook_detach_dev(dev, false);
	list_for_each_entry_safe(qp, tmp, &dev->qps, list) {
		if (!left++)
			first_qpn = qp->qpn;
		list_del_init(&qp->list);
		qp->dev = NULL;
	}
	mutex_unlock(&dev->lock);
	list_del(&dev->list);
	mutex_unlock(&rdma_cc_hook_mutex);
	/* a driver bug, but one the hook copes with: no stack trace */
	if (left)
		pr_warn("%s unregistered with %u QP(s) still added (QP %u first): deleted them\n",
			dev->name, left, first_qpn);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_unregister_dev);

/**
 * rdma_cc_hook_add_qp() - make a QP of @dev known to rdma_cc
 * @dev: a registered device
 * @qp: qpn filled in by the driver
 *
 * Process context, may sleep; waits only for other QPs of @dev.  The QP
 * starts at line rate.
 *
 * Return: 0, or -EINVAL when @dev has no set_rate callback (was never
 * registered).
 */
int rdma_cc_hook_add_qp(struct rdma_cc_hook_dev *dev,
			struct rdma_cc_hook_qp *qp)
{
	if (!dev->ops || !dev->ops->set_rate)
		return -EINVAL;
	qp->dev = dev;
	RCU_INIT_POINTER(qp->cc_priv, NULL);
	mutex_lock(&dev->lock);
	list_add_tail(&qp->list, &dev->qps);
	rdma_cc_hook_attach_qp(dev, qp);
	mutex_unlock(&dev->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_add_qp);

/**
 * rdma_cc_hook_del_qp() - forget a QP
 * @qp: an added QP
 *
 * Process context, may sleep; waits only for other QPs of its device.
 * When it returns no timer of the QP is armed and set_rate() is not called
 * for it again; the driver may free @qp after an RCU grace period (or at
 * once if it makes no more hook calls for it).  Does nothing for a QP
 * that rdma_cc_hook_unregister_dev() already deleted.
 */
void rdma_cc_hook_del_qp(struct rdma_cc_hook_qp *qp)
{
	struct rdma_cc_hook_dev *dev = qp->dev;

	if (!dev)
		return;
	mutex_lock(&dev->lock);
	rdma_cc_hook_detach_qp(dev, qp, false);
	list_del_init(&qp->list);
	qp->dev = NULL;
	mutex_unlock(&dev->lock);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_del_qp);

/**
 * rdma_cc_hook_cnp() - a CNP arrived for @qp from its peer
 * @qp: an added QP
 *
 * Any context.
 */
void rdma_cc_hook_cnp(struct rdma_cc_hook_qp *qp)
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
EXPORT_SYMBOL_GPL(rdma_cc_hook_cnp);

/**
 * rdma_cc_hook_tx() - @qp sent @npkts data packets
 * @qp: an added QP
 * @npkts: how many
 *
 * Any context.
 */
void rdma_cc_hook_tx(struct rdma_cc_hook_qp *qp, u32 npkts)
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
EXPORT_SYMBOL_GPL(rdma_cc_hook_tx);

static bool rdma_cc_hook_ops_valid(const struct rdma_cc_cc_ops *ops)
{
	return ops && ops->name && ops->name[0] && ops->attach_dev &&
	       ops->detach_dev && ops->attach_qp && ops->detach_qp &&
	       ops->cnp && ops->tx;
}

/**
 * rdma_cc_hook_register_cc() - load a congestion control
 * @ops: its name and callbacks, every one of them set
 *
 * Takes on every registered device and QP, then publishes @ops.
 *
 * Return: 0; -EINVAL when @ops lacks its name or a callback; -EEXIST
 * when a congestion control of that name is loaded, -EBUSY when another
 * one is (only one is active at a time).
 */
int rdma_cc_hook_register_cc(const struct rdma_cc_cc_ops *ops)
{
	const struct rdma_cc_cc_ops *cc;
	struct rdma_cc_hook_dev *dev;

	if (!rdma_cc_hook_ops_valid(ops))
		return -EINVAL;
	mutex_lock(&rdma_cc_hook_mutex);
	cc = rdma_cc_hook_cc();
	if (cc) {
		mutex_unlock(&rdma_cc_hook_mutex);
		return strcmp(cc->name, ops->name) ? -EBUSY : -EEXIST;
	}
	list_for_each_entry(dev, &rdma_cc_hook_devs, list) {
		mutex_lock(&dev->lock);
		rdma_cc_hook_attach_dev(ops, dev);
		mutex_unlock(&dev->lock);
	}
	rcu_assign_pointer(rdma_cc_hook_active, ops);
	mutex_unlock(&rdma_cc_hook_mutex);
	pr_info("%s loaded\n", ops->name);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_register_cc);

/**
 * rdma_cc_hook_unregister_cc() - unload the congestion control
 * @ops: what was registered
 *
 * Unpublishes @ops, waits until no CNP or packet call is inside it, then
 * detaches every QP (each paced QP is told set_rate(qp, 0)) and device.
 */
void rdma_cc_hook_unregister_cc(const struct rdma_cc_cc_ops *ops)
{
	struct rdma_cc_hook_dev *dev;

	mutex_lock(&rdma_cc_hook_mutex);
	if (WARN_ON(rdma_cc_hook_cc() != ops)) {
		mutex_unlock(&rdma_cc_hook_mutex);
		return;
	}
	RCU_INIT_POINTER(rdma_cc_hook_active, NULL);
	synchronize_rcu();
	list_for_each_entry(dev, &rdma_cc_hook_devs, list) {
		mutex_lock(&dev->lock);
		rdma_cc_hook_detach_dev(dev, true);
		mutex_unlock(&dev->lock);
	}
	mutex_unlock(&rdma_cc_hook_mutex);
	pr_info("%s unloaded\n", ops->name);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_unregister_cc);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Attachment point between RoCE drivers and the rdma_cc congestion control");
