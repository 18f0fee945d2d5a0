// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - rdma_cc_hook.ko: the registry of RoCE devices and QPs, and of
 * the congestion controls that are loaded, one of which runs each device.
 *
 * Two levels of locks, always taken in this order:
 *
 *  - rdma_cc_hook_mutex: the device list, the registered congestion
 *    controls and each device's choice; taken to register or unregister a
 *    device or a congestion control and to move a device, never for a QP;
 *  - each device's lock: its QP list and which congestion control is
 *    attached to it (dev->cc); taken to add or delete a QP, so that QPs of
 *    one device never wait for another device's (the congestion control
 *    allocates and creates debugfs files for a QP under it), and held
 *    through a move of the device.
 *
 * A congestion control thus sees the changes of one device one at a
 * time, in process context.  The per-packet and per-CNP calls only read
 * one RCU-protected pointer, the QP's state, whose head names its
 * congestion control.
 *
 * Which congestion control runs a device: the one written to its
 * congestion_control file, if loaded; otherwise the default, rdma_cc, if
 * loaded; otherwise none (line rate).  "none" written means line rate.
 * After every change the hook moves each device whose answer changed
 * (rdma_cc_hook_move()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/ctype.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

#include "rdma_cc_hook.h"

#define RDMA_CC_HOOK_DEFAULT	"rdma_cc"
#define RDMA_CC_HOOK_NONE	"none"
#define RDMA_CC_HOOK_MAX_CC	8

static DEFINE_MUTEX(rdma_cc_hook_mutex);
static LIST_HEAD(rdma_cc_hook_devs);
/* The loaded congestion controls, in load order. */
static const struct rdma_cc_cc_ops *rdma_cc_hook_ccs[RDMA_CC_HOOK_MAX_CC];
static unsigned int rdma_cc_hook_nr_ccs;
static struct kobject *rdma_cc_hook_kobj;
/*
 * Device directories not yet released.  A release may run well after
 * the device is unregistered (a reader holds a file open;
 * CONFIG_DEBUG_KOBJECT_RELEASE delays every release by 1-4 s): the
 * module's exit waits for them, so no release runs after its text and
 * ktype are gone.
 */
static atomic_t rdma_cc_hook_dev_kobjs = ATOMIC_INIT(0);

static const struct rdma_cc_cc_ops *rdma_cc_hook_find(const char *name)
{
	unsigned int i;

	lockdep_assert_held(&rdma_cc_hook_mutex);
	for (i = 0; i < rdma_cc_hook_nr_ccs; i++)
		if (!strcmp(rdma_cc_hook_ccs[i]->name, name))
			return rdma_cc_hook_ccs[i];
	return NULL;
}

/* What should run @dev now (NULL: line rate). */
static const struct rdma_cc_cc_ops *
rdma_cc_hook_wanted(const struct rdma_cc_hook_dev *dev)
{
	const struct rdma_cc_cc_ops *cc;

	if (!strcmp(dev->cc_chosen, RDMA_CC_HOOK_NONE))
		return NULL;
	if (dev->cc_chosen[0]) {
		cc = rdma_cc_hook_find(dev->cc_chosen);
		if (cc)
			return cc;
	}
	return rdma_cc_hook_find(RDMA_CC_HOOK_DEFAULT);
}

/* Attach @dev's congestion control to @qp, if it has one. */
static void rdma_cc_hook_attach_qp(struct rdma_cc_hook_qp *qp)
{
	const struct rdma_cc_cc_ops *cc = qp->dev->cc;
	struct rdma_cc_hook_qp_cc *priv;

	lockdep_assert_held(&qp->dev->lock);
	if (!cc)
		return;
	priv = cc->attach_qp(qp);
	if (!priv)
		return;
	priv->ops = cc;
	rcu_assign_pointer(qp->cc_priv, priv);
}

static void rdma_cc_hook_detach_qp(struct rdma_cc_hook_qp *qp,
				   bool to_line_rate)
{
	void *priv;

	priv = rcu_dereference_protected(qp->cc_priv,
					 lockdep_is_held(&qp->dev->lock));
	if (!priv)
		return;
	RCU_INIT_POINTER(qp->cc_priv, NULL);
	qp->dev->cc->detach_qp(qp, priv, to_line_rate);
}

static void *rdma_cc_hook_state(struct rdma_cc_hook_qp *qp)
{
	return rcu_dereference_protected(qp->cc_priv,
					 lockdep_is_held(&qp->dev->lock));
}

/*
 * Move @dev and its QPs from the congestion control attached (if any) to
 * @to (NULL: line rate), without losing a CNP:
 *  1. each QP is marked moving, then its state unpublished: a CNP that
 *     finds no state on a moving QP is counted in cnps_in_move (the
 *     barriers pair with rdma_cc_hook_cnp());
 *  2. after a grace period no CNP or packet call is inside the old one,
 *     which lets go of every QP (set_rate(qp, 0) where it paced) and of
 *     the device;
 *  3. the new one takes on the device and each QP, at line rate, and its
 *     state is published;
 *  4. after a second grace period no call can still count a CNP, and the
 *     new one gets each QP's counted CNPs.
 * Packet reports during the move are not passed on: a QP starts under the
 * new congestion control at line rate, where packets do not matter to
 * either one until a CNP.  Under the device's lock (and the hook's mutex).
 */
static void rdma_cc_hook_move_locked(struct rdma_cc_hook_dev *dev,
				     const struct rdma_cc_cc_ops *to)
{
	const struct rdma_cc_cc_ops *from = dev->cc;
	struct rdma_cc_hook_qp *qp;
	void *priv;
	int err, n;

	lockdep_assert_held(&dev->lock);
	if (from == to)
		return;
	list_for_each_entry(qp, &dev->qps, list) {
		atomic_set(&qp->cnps_in_move, 0);
		WRITE_ONCE(qp->moving, true);
	}
	smp_wmb();	/* moving before the state is gone: rdma_cc_hook_cnp() */
	list_for_each_entry(qp, &dev->qps, list) {
		qp->cc_leaving = rdma_cc_hook_state(qp);
		RCU_INIT_POINTER(qp->cc_priv, NULL);
	}
	if (from) {
		synchronize_rcu();
		list_for_each_entry(qp, &dev->qps, list) {
			if (qp->cc_leaving)
				from->detach_qp(qp, qp->cc_leaving, true);
			qp->cc_leaving = NULL;
		}
		from->detach_dev(dev);
		dev->cc_priv = NULL;
		dev->cc = NULL;
	}
	if (to) {
		err = to->attach_dev(dev);
		if (err) {
			pr_warn("%s runs at line rate: %s failed to attach (%d)\n",
				dev->name, to->name, err);
			dev->cc_priv = NULL;
		} else {
			dev->cc = to;
			list_for_each_entry(qp, &dev->qps, list)
				rdma_cc_hook_attach_qp(qp);
		}
	}
	synchronize_rcu();
	list_for_each_entry(qp, &dev->qps, list) {
		WRITE_ONCE(qp->moving, false);
		n = atomic_xchg(&qp->cnps_in_move, 0);
		priv = rdma_cc_hook_state(qp);
		while (priv && n-- > 0)
			dev->cc->cnp(priv);
	}
}

/*
 * Move @dev to @to under the hook's mutex: QPs of the device wait to be
 * added or deleted until the move is done, other devices' do not.
 */
static void rdma_cc_hook_move(struct rdma_cc_hook_dev *dev,
			      const struct rdma_cc_cc_ops *to)
{
	lockdep_assert_held(&rdma_cc_hook_mutex);
	mutex_lock(&dev->lock);
	rdma_cc_hook_move_locked(dev, to);
	mutex_unlock(&dev->lock);
}

/* After a registry change: every device to what it should run now. */
static void rdma_cc_hook_move_all(void)
{
	struct rdma_cc_hook_dev *dev;

	list_for_each_entry(dev, &rdma_cc_hook_devs, list)
		rdma_cc_hook_move(dev, rdma_cc_hook_wanted(dev));
}

/*
 * sysfs: /sys/kernel/rdma_cc_hook/available_congestion_control, and
 * /sys/kernel/rdma_cc_hook/<device>/{congestion_control,
 * available_congestion_control}.
 */
struct rdma_cc_hook_dev_kobj {
	struct kobject kobj;
	struct rdma_cc_hook_dev *dev;	/* NULL once unregistered */
};

static ssize_t rdma_cc_hook_show_available(char *buf)
{
	ssize_t len = 0;
	unsigned int i;

	mutex_lock(&rdma_cc_hook_mutex);
	for (i = 0; i < rdma_cc_hook_nr_ccs; i++)
		len += sysfs_emit_at(buf, len, "%s ",
				     rdma_cc_hook_ccs[i]->name);
	len += sysfs_emit_at(buf, len, "%s\n", RDMA_CC_HOOK_NONE);
	mutex_unlock(&rdma_cc_hook_mutex);
	return len;
}

static ssize_t available_congestion_control_show(struct kobject *kobj,
						 struct kobj_attribute *attr,
						 char *buf)
{
	return rdma_cc_hook_show_available(buf);
}

static struct kobj_attribute rdma_cc_hook_available_attr =
	__ATTR_RO(available_congestion_control);

static ssize_t congestion_control_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	struct rdma_cc_hook_dev_kobj *dk =
		container_of(kobj, struct rdma_cc_hook_dev_kobj, kobj);
	ssize_t len = -ENODEV;

	mutex_lock(&rdma_cc_hook_mutex);
	if (dk->dev)
		len = sysfs_emit(buf, "%s\n", dk->dev->cc ? dk->dev->cc->name :
				 RDMA_CC_HOOK_NONE);
	mutex_unlock(&rdma_cc_hook_mutex);
	return len;
}

static int rdma_cc_hook_set_locked(struct rdma_cc_hook_dev *dev,
				   const char *name)
{
	lockdep_assert_held(&rdma_cc_hook_mutex);
	if (strcmp(name, RDMA_CC_HOOK_NONE) && !rdma_cc_hook_find(name))
		return -ENOENT;
	strscpy(dev->cc_chosen, name, sizeof(dev->cc_chosen));
	rdma_cc_hook_move(dev, rdma_cc_hook_wanted(dev));
	return 0;
}

/* A written name: at most one trailing newline; -EINVAL if too long. */
static int rdma_cc_hook_name(const char *s, size_t len, char *name)
{
	if (len && s[len - 1] == '\n')
		len--;
	if (!len || len >= RDMA_CC_HOOK_CC_NAME_MAX || memchr(s, '\0', len))
		return -EINVAL;
	memcpy(name, s, len);
	name[len] = '\0';
	return 0;
}

static ssize_t congestion_control_store(struct kobject *kobj,
					struct kobj_attribute *attr,
					const char *buf, size_t count)
{
	struct rdma_cc_hook_dev_kobj *dk =
		container_of(kobj, struct rdma_cc_hook_dev_kobj, kobj);
	char name[RDMA_CC_HOOK_CC_NAME_MAX];
	int err;

	err = rdma_cc_hook_name(buf, count, name);
	if (err)
		return err;
	mutex_lock(&rdma_cc_hook_mutex);
	err = dk->dev ? rdma_cc_hook_set_locked(dk->dev, name) : -ENODEV;
	mutex_unlock(&rdma_cc_hook_mutex);
	if (err == -ENOENT)
		pr_warn_ratelimited("congestion_control=%s refused: not loaded (see available_congestion_control)\n",
				    name);
	return err ? err : count;
}

static struct kobj_attribute rdma_cc_hook_cc_attr =
	__ATTR_RW(congestion_control);

static struct attribute *rdma_cc_hook_dev_attrs[] = {
	&rdma_cc_hook_cc_attr.attr,
	&rdma_cc_hook_available_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rdma_cc_hook_dev);

static void rdma_cc_hook_dev_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct rdma_cc_hook_dev_kobj, kobj));
	if (atomic_dec_and_test(&rdma_cc_hook_dev_kobjs))
		wake_up_var(&rdma_cc_hook_dev_kobjs);
}

/**
 * rdma_cc_hook_wait_released() - wait until every device directory is gone
 *
 * Process context, may sleep.  The hook's exit calls it; so do its tests.
 */
void rdma_cc_hook_wait_released(void)
{
	wait_var_event(&rdma_cc_hook_dev_kobjs,
		       !atomic_read(&rdma_cc_hook_dev_kobjs));
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_wait_released);

static const struct kobj_type rdma_cc_hook_dev_ktype = {
	.release = rdma_cc_hook_dev_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rdma_cc_hook_dev_groups,
};

/* The device's directory; without one the device still runs. */
static void rdma_cc_hook_dev_sysfs_add(struct rdma_cc_hook_dev *dev)
{
	struct rdma_cc_hook_dev_kobj *dk;

	dev->kobj = NULL;
	dk = kzalloc(sizeof(*dk), GFP_KERNEL);
	if (!dk)
		return;
	dk->dev = dev;
	atomic_inc(&rdma_cc_hook_dev_kobjs);	/* its release decrements */
	if (kobject_init_and_add(&dk->kobj, &rdma_cc_hook_dev_ktype,
				 rdma_cc_hook_kobj, "%s", dev->name)) {
		pr_warn("%s: no congestion_control file\n", dev->name);
		kobject_put(&dk->kobj);
		return;
	}
	kobject_uevent(&dk->kobj, KOBJ_ADD);
	dev->kobj = &dk->kobj;
}

/**
 * rdma_cc_hook_register_dev() - make a RoCE device known to the hook
 * @dev: filled in by the driver: name, ops, line_rate_bps
 *
 * Process context.  The congestion control it should run (the default,
 * until its congestion_control file is written) takes it on now, or when
 * one loads.
 *
 * Return: 0, or -EINVAL for a device without a name or set_rate callback.
 */
int rdma_cc_hook_register_dev(struct rdma_cc_hook_dev *dev)
{
	if (!dev->name[0] || !dev->ops || !dev->ops->set_rate)
		return -EINVAL;
	INIT_LIST_HEAD(&dev->qps);
	mutex_init(&dev->lock);
	dev->cc_priv = NULL;
	dev->cc = NULL;
	dev->cc_chosen[0] = '\0';
	rdma_cc_hook_dev_sysfs_add(dev);
	mutex_lock(&rdma_cc_hook_mutex);
	list_add_tail(&dev->list, &rdma_cc_hook_devs);
	rdma_cc_hook_move(dev, rdma_cc_hook_wanted(dev));
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
	struct rdma_cc_hook_dev_kobj *dk = NULL;
	struct rdma_cc_hook_qp *qp, *tmp;
	unsigned int left = 0;
	u32 first_qpn = 0;

	if (dev->kobj) {
		dk = container_of(dev->kobj, struct rdma_cc_hook_dev_kobj,
				  kobj);
		/* waits for a running show or store; none starts after */
		kobject_del(dev->kobj);
	}
	mutex_lock(&rdma_cc_hook_mutex);
	if (dk)
		dk->dev = NULL;
	mutex_lock(&dev->lock);
	if (dev->cc) {
		list_for_each_entry(qp, &dev->qps, list)
			rdma_cc_hook_detach_qp(qp, false);
		dev->cc->detach_dev(dev);
		dev->cc_priv = NULL;
		dev->cc = NULL;
	}
	list_for_each_entry_safe(qp, tmp, &dev->qps, list) {
		if (!left++)
			first_qpn = qp->qpn;
		list_del_init(&qp->list);
		qp->dev = NULL;
	}
	mutex_unlock(&dev->lock);
	list_del(&dev->list);
	mutex_unlock(&rdma_cc_hook_mutex);
	if (dk)
		kobject_put(&dk->kobj);
	dev->kobj = NULL;
	/* a driver bug, but one the hook copes with: no stack trace */
	if (left)
		pr_warn("%s unregistered with %u QP(s) still added (QP %u first): deleted them\n",
			dev->name, left, first_qpn);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_unregister_dev);

/**
 * rdma_cc_hook_add_qp() - make a QP of @dev known to the hook
 * @dev: a registered device
 * @qp: qpn filled in by the driver
 *
 * Process context, may sleep; waits only for other QPs of @dev (and for a
 * move of @dev).  The QP starts at line rate.
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
	qp->cc_leaving = NULL;
	qp->moving = false;
	atomic_set(&qp->cnps_in_move, 0);
	mutex_lock(&dev->lock);
	list_add_tail(&qp->list, &dev->qps);
	rdma_cc_hook_attach_qp(qp);
	mutex_unlock(&dev->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_add_qp);

/**
 * rdma_cc_hook_del_qp() - forget a QP
 * @qp: an added QP
 *
 * Process context, may sleep; waits only for other QPs of its device (and
 * for a move of it).  When it returns no timer of the QP is armed and
 * set_rate() is not called for it again; the driver may free @qp after an
 * RCU grace period (or at once if it makes no more hook calls for it).
 * Does nothing for a QP that rdma_cc_hook_unregister_dev() already
 * deleted.
 */
void rdma_cc_hook_del_qp(struct rdma_cc_hook_qp *qp)
{
	struct rdma_cc_hook_dev *dev = qp->dev;

	if (!dev)
		return;
	mutex_lock(&dev->lock);
	rdma_cc_hook_detach_qp(qp, false);
	list_del_init(&qp->list);
	qp->dev = NULL;
	mutex_unlock(&dev->lock);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_del_qp);

/**
 * rdma_cc_hook_cnp() - a CNP arrived for @qp from its peer
 * @qp: an added QP
 *
 * Where a spinlock_t may be taken (rdma_cc_hook.h).  While the QP moves between congestion
 * controls the CNP is counted and handed to the new one.
 *
 * Return: true when a congestion control took the CNP (or will, once the
 * move is done), false when none did: the device runs at line rate, or the
 * QP is being deleted.
 */
bool rdma_cc_hook_cnp(struct rdma_cc_hook_qp *qp)
{
	struct rdma_cc_hook_qp_cc *priv;
	bool taken = false;

	rcu_read_lock();
	priv = rcu_dereference(qp->cc_priv);
	if (priv) {
		taken = priv->ops->cnp(priv);
	} else {
		smp_rmb();	/* pairs with rdma_cc_hook_move()'s smp_wmb() */
		if (READ_ONCE(qp->moving)) {
			atomic_inc(&qp->cnps_in_move);
			taken = true;
		}
	}
	rcu_read_unlock();
	return taken;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_cnp);

/**
 * rdma_cc_hook_tx() - @qp sent @npkts data packets
 * @qp: an added QP
 * @npkts: how many
 *
 * Where a spinlock_t may be taken (rdma_cc_hook.h).
 */
void rdma_cc_hook_tx(struct rdma_cc_hook_qp *qp, u32 npkts)
{
	struct rdma_cc_hook_qp_cc *priv;

	rcu_read_lock();
	priv = rcu_dereference(qp->cc_priv);
	if (priv)
		priv->ops->tx(priv, npkts);
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_tx);

/**
 * rdma_cc_hook_set_dev_cc() - choose the congestion control of a device
 * @dev: a registered device
 * @name: a loaded congestion control's name, or "none" (line rate)
 *
 * Process context, may sleep (two RCU grace periods when the device
 * moves).  The choice stays: if that congestion control is unloaded, the
 * device runs the default until it is loaded again.
 *
 * Return: 0, -ENOENT if @name is not loaded, -EINVAL if it is too long;
 * nothing changes on an error.
 */
int rdma_cc_hook_set_dev_cc(struct rdma_cc_hook_dev *dev, const char *name)
{
	char n[RDMA_CC_HOOK_CC_NAME_MAX];
	int err;

	err = rdma_cc_hook_name(name, strlen(name), n);
	if (err)
		return err;
	mutex_lock(&rdma_cc_hook_mutex);
	err = rdma_cc_hook_set_locked(dev, n);
	mutex_unlock(&rdma_cc_hook_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_set_dev_cc);

/**
 * rdma_cc_hook_qp_snapshot() - @qp's congestion control state, to show
 * @qp: an added QP
 * @snap: filled with a consistent copy, taken by the congestion control
 *
 * The contexts of rdma_cc_hook_cnp(), but not from set_rate().  The
 * driver shows the copy (rxe: "rdma resource show qp -dd") and never reads
 * the congestion control's own structures.
 *
 * Return: 0, or -ENODATA (and @snap zeroed) when no congestion control
 * holds @qp: none is loaded, @qp is not under it, or it keeps no state it
 * can show (qp_snapshot is optional).
 */
int rdma_cc_hook_qp_snapshot(struct rdma_cc_hook_qp *qp,
			     struct rdma_cc_qp_snapshot *snap)
{
	struct rdma_cc_hook_qp_cc *priv;
	int ret = -ENODATA;

	memset(snap, 0, sizeof(*snap));
	rcu_read_lock();
	priv = rcu_dereference(qp->cc_priv);
	if (priv && priv->ops->qp_snapshot) {
		priv->ops->qp_snapshot(priv, snap);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_qp_snapshot);

static bool rdma_cc_hook_ops_valid(const struct rdma_cc_cc_ops *ops)
{
	size_t i, len;

	if (!ops || !ops->name || !ops->attach_dev || !ops->detach_dev ||
	    !ops->attach_qp || !ops->detach_qp || !ops->cnp || !ops->tx)
		return false;
	len = strnlen(ops->name, RDMA_CC_HOOK_CC_NAME_MAX);
	if (!len || len == RDMA_CC_HOOK_CC_NAME_MAX ||
	    !strcmp(ops->name, RDMA_CC_HOOK_NONE))
		return false;
	for (i = 0; i < len; i++)
		if (!islower(ops->name[i]) && !isdigit(ops->name[i]) &&
		    ops->name[i] != '_')
			return false;
	return true;
}

/**
 * rdma_cc_hook_register_cc() - add a congestion control to the registry
 * @ops: its name and callbacks
 *
 * The devices that should run it now (chosen, or by default) move to it.
 *
 * Return: 0, -EINVAL for ops without a valid name or a callback, -EEXIST
 * when one of that name is loaded, -ENOSPC when 8 are.
 */
int rdma_cc_hook_register_cc(const struct rdma_cc_cc_ops *ops)
{
	int err = 0;

	if (!rdma_cc_hook_ops_valid(ops))
		return -EINVAL;
	mutex_lock(&rdma_cc_hook_mutex);
	if (rdma_cc_hook_find(ops->name)) {
		err = -EEXIST;
	} else if (rdma_cc_hook_nr_ccs == RDMA_CC_HOOK_MAX_CC) {
		err = -ENOSPC;
	} else {
		rdma_cc_hook_ccs[rdma_cc_hook_nr_ccs++] = ops;
		rdma_cc_hook_move_all();
	}
	mutex_unlock(&rdma_cc_hook_mutex);
	if (!err)
		pr_info("%s loaded\n", ops->name);
	return err;
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_register_cc);

/**
 * rdma_cc_hook_unregister_cc() - remove a congestion control
 * @ops: what was registered
 *
 * Its devices move to the default (rdma_cc) or to line rate: when it returns no
 * QP is attached to it, no CNP or packet call is inside it, and each QP it
 * paced was told set_rate(qp, 0).
 */
void rdma_cc_hook_unregister_cc(const struct rdma_cc_cc_ops *ops)
{
	unsigned int i;

	mutex_lock(&rdma_cc_hook_mutex);
	for (i = 0; i < rdma_cc_hook_nr_ccs; i++)
		if (rdma_cc_hook_ccs[i] == ops)
			break;
	if (WARN_ON(i == rdma_cc_hook_nr_ccs)) {
		mutex_unlock(&rdma_cc_hook_mutex);
		return;
	}
	memmove(&rdma_cc_hook_ccs[i], &rdma_cc_hook_ccs[i + 1],
		(rdma_cc_hook_nr_ccs - i - 1) * sizeof(rdma_cc_hook_ccs[0]));
	rdma_cc_hook_nr_ccs--;
	rdma_cc_hook_move_all();
	mutex_unlock(&rdma_cc_hook_mutex);
	pr_info("%s unloaded\n", ops->name);
}
EXPORT_SYMBOL_GPL(rdma_cc_hook_unregister_cc);

static int __init rdma_cc_hook_init(void)
{
	int err;

	rdma_cc_hook_kobj = kobject_create_and_add("rdma_cc_hook",
						   kernel_kobj);
	if (!rdma_cc_hook_kobj)
		return -ENOMEM;
	err = sysfs_create_file(rdma_cc_hook_kobj,
				&rdma_cc_hook_available_attr.attr);
	if (err)
		kobject_put(rdma_cc_hook_kobj);
	return err;
}

static void __exit rdma_cc_hook_exit(void)
{
	rdma_cc_hook_wait_released();
	kobject_put(rdma_cc_hook_kobj);
}

module_init(rdma_cc_hook_init);
module_exit(rdma_cc_hook_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Attachment point between RoCE drivers and their congestion controls (rdma_cc, DCQCN), chosen per device");
