// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - rdma_cc.ko: registers the congestion control with
 * rdma_cc_hook.ko, which hands it every RoCE device and QP, now and later.
 * On unload every timer is stopped, every paced QP is told set_rate(qp, 0)
 * (line rate) and everything is freed.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "rdma_cc.h"

static int rcc_attach_dev(struct rdma_cc_hook_dev *hdev)
{
	struct rcc_dev *d;
	int err;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->hdev = hdev;
	mutex_init(&d->flows_lock);
	xa_init(&d->flows);
	err = rcc_dev_sysfs_add(d);	/* frees @d on error */
	if (err)
		return err;
	rcc_debugfs_add_dev(d);
	rcc_control_add_dev(d);
	hdev->cc_priv = d;
	return 0;
}

static void rcc_detach_dev(struct rdma_cc_hook_dev *hdev)
{
	struct rcc_dev *d = hdev->cc_priv;

	WARN_ON(!xa_empty(&d->flows));
	rcc_debugfs_del_dev(d);
	rcc_dev_sysfs_del(d);
}

static void *rcc_attach_qp(struct rdma_cc_hook_qp *hqp)
{
	BUILD_BUG_ON(offsetof(struct rcc_flow, hook) != 0);
	return rcc_flow_create(hqp->dev->cc_priv, hqp);
}

static void rcc_detach_qp(struct rdma_cc_hook_qp *hqp, void *priv,
			  bool to_line_rate)
{
	rcc_flow_destroy(priv, to_line_rate);
}

const struct rdma_cc_cc_ops rcc_cc_ops = {
	.name = KBUILD_MODNAME,
	.attach_dev = rcc_attach_dev,
	.detach_dev = rcc_detach_dev,
	.attach_qp = rcc_attach_qp,
	.detach_qp = rcc_detach_qp,
	.cnp = rcc_flow_cnp,
	.tx = rcc_flow_tx,
	.qp_snapshot = rcc_flow_snapshot,
};

/* Take on every device and QP the hook knows of. */
int rcc_start(void)
{
	return rdma_cc_hook_register_cc(&rcc_cc_ops);
}

/* Let go of them all: no timer armed, every QP at line rate. */
void rcc_stop(void)
{
	rdma_cc_hook_unregister_cc(&rcc_cc_ops);
}

static int __init rcc_init(void)
{
	int err;

	err = rcc_flow_cache_init();
	if (err)
		return err;
	err = rcc_sysfs_init();
	if (err) {
		rcc_flow_cache_exit();
		return err;
	}
	rcc_debugfs_init();
	err = rcc_start();
	if (err) {
		rcc_debugfs_exit();
		rcc_sysfs_exit();
		rcc_flow_cache_exit();
	}
	return err;
}

static void __exit rcc_exit(void)
{
	rcc_stop();
	rcc_debugfs_exit();
	rcc_sysfs_exit();
	/* Snapshots and QPs are freed after RCU: let that finish. */
	rcu_barrier();
	rcc_flow_cache_exit();
}

module_init(rcc_init);
module_exit(rcc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ECN-based congestion control (DCQCN-like reduce/increase rate loop) for RoCE queue pairs");
