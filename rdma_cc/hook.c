// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - rdma_cc_hook.ko: the registry of RoCE devices and QPs, and the
 * one pointer to the congestion control that is loaded, if any.
 *
 * Every registry change (device, QP, congestion control) is serialised by
 * one mutex, so the congestion control sees them one at a time and in
 * process context.  The per-packet and per-CNP calls (inline in
 * rdma_cc_hook.h) only read two RCU-protected pointers.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>

#include "rdma_cc_hook.h"

static DEFINE_MUTEX(rdma_cc_hook_mutex);
static LIST_HEAD(rdma_cc_hook_devs);

const struct rdma_cc_cc_ops __rcu *rdma_cc_hook_active;
EXPORT_SYMBOL_GPL(rdma_cc_hook_active);

static const struct rdma_cc_cc_ops *rdma_cc_hook_cc(void)
{
	return rcu_dereference_protected(rdma_cc_hook_active,
					 lockdep_is_held(&rdma_cc_hook_mutex));
}

static void rdma_cc_hook_attach_qp(const struct rdma_cc_cc_ops *cc,
				   struct rdma_cc_hook_qp *qp)
{
	void *priv;

	if (!qp->dev->cc_priv)
		return;
	priv = cc->attach_qp(qp);
	if (priv)
		rcu_assign_pointer(qp->cc_priv, priv);
}

static void rdma_cc_hook_detach_qp(const struct rdma_cc_cc_ops *cc,
				   struct rdma_cc_hook_qp *qp,
				   bool to_line_rate)
{
	void *priv;

	priv = rcu_dereference_protected(qp->cc_priv,
					 lockdep_is_held(&rdma_cc_hook_mutex));
	if (!priv)
		return;
	RCU_INIT_POINTER(qp->cc_priv, NULL);
	cc->detach_qp(qp, priv, to_line_rate);
}

static void rdma_cc_hook_attach_dev(const struct rdma_cc_cc_ops *cc,
				    struct rdma_cc_hook_dev *dev)
{
	struct rdma_cc_hook_qp *qp;
	int err;

	err = cc->attach_dev(dev);
	if (err) {
		pr_warn("rdma_cc_hook: %s runs at line rate: attach failed (%d)\n",
			dev->name, err);
		dev->cc_priv = NULL;
		return;
	}
	list_for_each_entry(qp, &dev->qps, list)
		rdma_cc_hook_attach_qp(cc, qp);
}

static void rdma_cc_hook_detach_dev(const struct rdma_cc_cc_ops *cc,
				    struct rdma_cc_hook_dev *dev,
				    bool to_line_rate)
{
	struct rdma_cc_hook_qp *qp;

	if (!dev->cc_priv)
		return;
	list_for_each_entry(qp, &dev->qps, list)
		rdma_cc_hook_detach_qp(cc, qp, to_line_rate);
	cc->detach_dev(dev);
	dev->cc_priv = NULL;
}

/**
 * rdma_cc_hook_register_dev() - make a RoCE device known to rdma_cc
 * @dev: filled in by the driver: name, ops, line_rate_bps, driver_priv
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
	dev->cc_priv = NULL;
	mutex_lock(&rdma_cc_hook_mutex);
	list_add_tail(&dev->list, &rdma_cc_hook_devs);
	cc = rdma_cc_hook_cc();
	if (cc)
		rdma_cc_hook_attach_dev(cc, dev);
	mutex_unlock(&rdma_cc_hook_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_register_dev);

/**
 * rdma_cc_hook_unregister_dev() - forget a device
 * @dev: a registered device; its QPs should have been deleted already
 *
 * Process context, may sleep.  QPs still on the device are deleted here.
 */
void rdma_cc_hook_unregister_dev(struct rdma_cc_hook_dev *dev)
{
	const struct rdma_cc_cc_ops *cc;
	struct rdma_cc_hook_qp *qp, *tmp;

	mutex_lock(&rdma_cc_hook_mutex);
	cc = rdma_cc_hook_cc();
	if (cc)
		rdma_cc_hook_detach_dev(cc, dev, false);
	list_for_each_entry_safe(qp, tmp, &dev->qps, list) {
		WARN_ONCE(1, "rdma_cc_hook: %s unregistered with QP %u\n",
			  dev->name, qp->qpn);
		list_del(&qp->list);
	}
	list_del(&dev->list);
	mutex_unlock(&rdma_cc_hook_mutex);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_unregister_dev);

/**
 * rdma_cc_hook_add_qp() - make a QP of @dev known to rdma_cc
 * @dev: a registered device
 * @qp: qpn and driver_priv filled in by the driver
 *
 * Process context.  The QP starts at line rate.
 *
 * Return: 0.
 */
int rdma_cc_hook_add_qp(struct rdma_cc_hook_dev *dev,
			struct rdma_cc_hook_qp *qp)
{
	const struct rdma_cc_cc_ops *cc;

	qp->dev = dev;
	RCU_INIT_POINTER(qp->cc_priv, NULL);
	mutex_lock(&rdma_cc_hook_mutex);
	list_add_tail(&qp->list, &dev->qps);
	cc = rdma_cc_hook_cc();
	if (cc)
		rdma_cc_hook_attach_qp(cc, qp);
	mutex_unlock(&rdma_cc_hook_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_add_qp);

/**
 * rdma_cc_hook_del_qp() - forget a QP
 * @qp: an added QP
 *
 * Process context, may sleep.  When it returns no timer of the QP is armed
 * and set_rate() is not called for it again; the driver may free @qp after
 * an RCU grace period (or at once if it makes no more hook calls for it).
 */
void rdma_cc_hook_del_qp(struct rdma_cc_hook_qp *qp)
{
	const struct rdma_cc_cc_ops *cc;

	mutex_lock(&rdma_cc_hook_mutex);
	cc = rdma_cc_hook_cc();
	if (cc)
		rdma_cc_hook_detach_qp(cc, qp, false);
	list_del(&qp->list);
	mutex_unlock(&rdma_cc_hook_mutex);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_del_qp);

/**
 * rdma_cc_hook_register_cc() - load a congestion control
 * @ops: its callbacks
 *
 * Takes on every registered device and QP, then publishes @ops.
 *
 * Return: 0, or -EBUSY when another one is loaded.
 */
int rdma_cc_hook_register_cc(const struct rdma_cc_cc_ops *ops)
{
	struct rdma_cc_hook_dev *dev;

	mutex_lock(&rdma_cc_hook_mutex);
	if (rdma_cc_hook_cc()) {
		mutex_unlock(&rdma_cc_hook_mutex);
		return -EBUSY;
	}
	list_for_each_entry(dev, &rdma_cc_hook_devs, list)
		rdma_cc_hook_attach_dev(ops, dev);
	rcu_assign_pointer(rdma_cc_hook_active, ops);
	mutex_unlock(&rdma_cc_hook_mutex);
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
	list_for_each_entry(dev, &rdma_cc_hook_devs, list)
		rdma_cc_hook_detach_dev(ops, dev, true);
	mutex_unlock(&rdma_cc_hook_mutex);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_unregister_cc);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Attachment point between RoCE drivers and the rdma_cc congestion control");
