// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - the loop's parameters: global ones as module parameters
 * (/sys/module/rdma_cc/parameters/, settable at insmod), and a directory
 * per device (/sys/kernel/rdma_cc/<device>/) with the same names, where a
 * value never written follows the global one.
 *
 * Every write is validated by rcc_param_parse() against the shared table
 * and changes nothing when it fails.  The set of parameters a run uses is
 * a snapshot published with RCU and never modified, so no reader sees a
 * half-written set; a write takes effect from the next run.
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

#include "rdma_cc.h"

/* Serialises parameter writes and the list of devices. */
DEFINE_MUTEX(rcc_params_mutex);

/* Under rcc_params_mutex: the global values and every controlled device. */
static struct rcc_params rcc_global;
static bool rcc_global_ready;
static LIST_HEAD(rcc_devs);

static struct kobject *rcc_sysfs_root;

/*
 * Device kobjects not yet released.  A release may run well after the last
 * kobject_put() (a reader holds a file open; CONFIG_DEBUG_KOBJECT_RELEASE
 * delays every release by 1-4 s): rcc_sysfs_exit() waits for them all, so
 * no release runs after the module's text and ktype are gone.
 */
static atomic_t rcc_dev_kobjs = ATOMIC_INIT(0);

static void rcc_global_init_once(void)
{
	lockdep_assert_held(&rcc_params_mutex);
	if (!rcc_global_ready) {
		rcc_params_default(&rcc_global);
		rcc_global_ready = true;
	}
}

u64 rcc_dev_line_rate(struct rcc_dev *d, const struct rcc_params *p)
{
	return rcc_line_rate_bps(p, READ_ONCE(d->hdev->line_rate_bps));
}

/* What @d's runs use: its own written values over the global ones. */
static void rcc_dev_params_build(const struct rcc_dev *d, struct rcc_params *p)
{
	rcc_params_overlay(p, &rcc_global, d->own_mask, d->own);
}

static void rcc_dev_params_publish(struct rcc_dev *d,
				   struct rcc_params_snap *snap)
{
	struct rcc_params_snap *old;

	rcc_dev_params_build(d, &snap->p);
	old = rcu_replace_pointer(d->params, snap,
				  lockdep_is_held(&rcc_params_mutex));
	if (old)
		kfree_rcu(old, rcu);
}

/* kernel_param_ops .set: insmod rdma_cc NAME=VALUE, or a sysfs write. */
static int rcc_param_global_set(const char *val, const struct kernel_param *kp)
{
	const struct rcc_param_desc *desc = kp->arg;
	enum rcc_param id = desc - rcc_param_descs;
	struct rcc_params_snap **snaps;
	struct rcc_dev *d;
	unsigned int n = 0, i;
	u32 v;
	int err;

	err = rcc_param_parse(id, val, &v);
	if (err)
		return err;

	mutex_lock(&rcc_params_mutex);
	rcc_global_init_once();
	list_for_each_entry(d, &rcc_devs, node)
		n++;
	/* Allocate first: on -ENOMEM nothing changes. */
	snaps = kcalloc(n + 1, sizeof(*snaps), GFP_KERNEL);
	err = -ENOMEM;
	if (!snaps)
		goto unlock;
	for (i = 0; i < n; i++) {
		snaps[i] = kzalloc(sizeof(**snaps), GFP_KERNEL);
		if (!snaps[i])
			goto free;
	}
	rcc_param_set(&rcc_global, id, v);
	i = 0;
	list_for_each_entry(d, &rcc_devs, node)
		rcc_dev_params_publish(d, snaps[i++]);
	err = 0;
	n = 0;	/* every snapshot is published */
free:
	for (i = 0; i < n; i++)
		kfree(snaps[i]);
	kfree(snaps);
unlock:
	mutex_unlock(&rcc_params_mutex);
	return err;
}

static int rcc_param_global_get(char *buf, const struct kernel_param *kp)
{
	const struct rcc_param_desc *desc = kp->arg;
	enum rcc_param id = desc - rcc_param_descs;
	u32 v;

	mutex_lock(&rcc_params_mutex);
	rcc_global_init_once();
	v = rcc_param_get(&rcc_global, id);
	mutex_unlock(&rcc_params_mutex);
	return sysfs_emit(buf, "%u\n", v);
}

const struct kernel_param_ops rcc_param_ops = {
	.set = rcc_param_global_set,
	.get = rcc_param_global_get,
};

/*
 * One module parameter per line of param_list.h.  The descriptions are
 * literal (modinfo reads them from the .ko), made of the line's text:
 * "help (unit, range min..max)"; tools/check/20-module.sh checks them
 * against rcc_param_descs.
 */
#define RCC_PARAM(id, name, unit, min, max, def, help)			\
	module_param_cb(name, &rcc_param_ops,				\
			(void *)&rcc_param_descs[RCC_##id], 0644);	\
	MODULE_PARM_DESC(name, help " (" unit ", range " #min ".." #max ")");
#include "param_list.h"
#undef RCC_PARAM

/* The per-device files: one attribute per row of the table. */
static struct attribute rcc_dev_attrs[RCC_NR_PARAMS];
static struct attribute *rcc_dev_attr_ptrs[RCC_NR_PARAMS + 1];
static const struct attribute_group rcc_dev_group = {
	.attrs = rcc_dev_attr_ptrs,
};

static const struct attribute_group *rcc_dev_groups[] = {
	&rcc_dev_group,
	NULL,
};

struct attribute *rcc_dev_attr(enum rcc_param id)
{
	return &rcc_dev_attrs[id];
}

static ssize_t rcc_dev_attr_show(struct kobject *kobj, struct attribute *attr,
				 char *buf)
{
	struct rcc_dev *d = container_of(kobj, struct rcc_dev, kobj);
	enum rcc_param id = attr - rcc_dev_attrs;
	u32 v;

	rcu_read_lock();
	v = rcc_param_get(&rcu_dereference(d->params)->p, id);
	rcu_read_unlock();
	return sysfs_emit(buf, "%u\n", v);
}

static ssize_t rcc_dev_attr_store(struct kobject *kobj, struct attribute *attr,
				  const char *buf, size_t count)
{
	struct rcc_dev *d = container_of(kobj, struct rcc_dev, kobj);
	enum rcc_param id = attr - rcc_dev_attrs;
	struct rcc_params_snap *snap;
	u32 v;
	int err;

	/*
	 * sysfs passes all @count bytes written, NULs included: "5\0junk"
	 * must not be taken for "5".
	 */
	if (memchr(buf, '\0', count))
		return -EINVAL;
	err = rcc_param_parse(id, buf, &v);
	if (err)
		return err;
	snap = kzalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	mutex_lock(&rcc_params_mutex);
	d->own[id] = v;
	d->own_mask |= BIT(id);
	rcc_dev_params_publish(d, snap);
	mutex_unlock(&rcc_params_mutex);
	return count;
}

const struct sysfs_ops rcc_dev_sysfs_ops = {
	.show = rcc_dev_attr_show,
	.store = rcc_dev_attr_store,
};

static void rcc_dev_release(struct kobject *kobj)
{
	struct rcc_dev *d = container_of(kobj, struct rcc_dev, kobj);
	struct rcc_params_snap *snap;

	snap = rcu_dereference_protected(d->params, 1);
	if (snap)
		kfree_rcu(snap, rcu);
	kfree_rcu(d, rcu);
	if (atomic_dec_and_test(&rcc_dev_kobjs))
		wake_up_var(&rcc_dev_kobjs);
}

static const struct kobj_type rcc_dev_ktype = {
	.release = rcc_dev_release,
	.sysfs_ops = &rcc_dev_sysfs_ops,
	.default_groups = rcc_dev_groups,
};

/*
 * Publish @d's parameters and make /sys/kernel/rdma_cc/<name>/.  On error
 * @d has been freed.
 */
int rcc_dev_sysfs_add(struct rcc_dev *d)
{
	struct rcc_params_snap *snap;
	int err;

	kobject_init(&d->kobj, &rcc_dev_ktype);
	atomic_inc(&rcc_dev_kobjs);
	snap = kzalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap) {
		kobject_put(&d->kobj);
		return -ENOMEM;
	}
	mutex_lock(&rcc_params_mutex);
	rcc_global_init_once();
	rcc_dev_params_publish(d, snap);
	list_add_tail(&d->node, &rcc_devs);
	mutex_unlock(&rcc_params_mutex);

	err = kobject_add(&d->kobj, rcc_sysfs_root, "%s", d->hdev->name);
	if (err) {
		mutex_lock(&rcc_params_mutex);
		list_del(&d->node);
		mutex_unlock(&rcc_params_mutex);
		kobject_put(&d->kobj);
		return err;
	}
	/* udev and other listeners learn of the directory, as of any */
	kobject_uevent(&d->kobj, KOBJ_ADD);
	return 0;
}

/* Remove @d's directory and drop it; @d is freed after readers are done. */
void rcc_dev_sysfs_del(struct rcc_dev *d)
{
	mutex_lock(&rcc_params_mutex);
	list_del(&d->node);
	mutex_unlock(&rcc_params_mutex);
	/* Waits for stores in progress, which may need rcc_params_mutex. */
	kobject_del(&d->kobj);
	kobject_put(&d->kobj);
}

int rcc_sysfs_init(void)
{
	int i;

	for (i = 0; i < RCC_NR_PARAMS; i++) {
		rcc_dev_attrs[i].name = rcc_param_descs[i].name;
		rcc_dev_attrs[i].mode = 0644;
		rcc_dev_attr_ptrs[i] = &rcc_dev_attrs[i];
	}
	rcc_dev_attr_ptrs[RCC_NR_PARAMS] = NULL;

	mutex_lock(&rcc_params_mutex);
	rcc_global_init_once();
	mutex_unlock(&rcc_params_mutex);

	rcc_sysfs_root = kobject_create_and_add("rdma_cc", kernel_kobj);
	return rcc_sysfs_root ? 0 : -ENOMEM;
}

/* Return once every device kobject has been released. */
void rcc_sysfs_wait_released(void)
{
	wait_var_event(&rcc_dev_kobjs, !atomic_read(&rcc_dev_kobjs));
}

void rcc_sysfs_exit(void)
{
	rcc_sysfs_wait_released();
	kobject_put(rcc_sysfs_root);
}
