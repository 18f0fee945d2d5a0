// SPDX-License-Identifier: GPL-2.0
/*
 * fixed_rate.ko - a test-only congestion control for rdma_cc_hook: it gives
 * every QP the rate rate_mbps (0 = line rate) and counts the CNPs and packet
 * reports it gets, so that a driver's pacing can be measured at a fixed rate.
 * Load it, then write fixed_rate to
 * /sys/kernel/rdma_cc_hook/<device>/congestion_control (rdma_cc is the
 * default of a device not written to).
 * Build: make -C $KDIR M=$PWD KCFLAGS=-I<repo>/rdma_cc \
 *	KBUILD_EXTRA_SYMBOLS=<repo>/Module.symvers modules
 */
#include <linux/module.h>
#include <linux/atomic.h>
#include "rdma_cc_hook.h"

static unsigned int rate_mbps;
module_param(rate_mbps, uint, 0444);
MODULE_PARM_DESC(rate_mbps, "Rate of every QP, Mbit/s (0 = line rate)");

static atomic64_t cnps, pkts;
static int dummy;
/* every QP's state: the hook's head only (the same ops for all) */
static struct rdma_cc_hook_qp_cc dummy_qp;

static int fr_attach_dev(struct rdma_cc_hook_dev *dev)
{
	dev->cc_priv = &dummy;
	return 0;
}

static void fr_detach_dev(struct rdma_cc_hook_dev *dev)
{
}

static void *fr_attach_qp(struct rdma_cc_hook_qp *qp)
{
	if (rate_mbps)
		qp->dev->ops->set_rate(qp, (u64)rate_mbps * 1000000);
	pr_info("fixed_rate: qp %u at %u Mb/s\n", qp->qpn, rate_mbps);
	return &dummy_qp;
}

static void fr_detach_qp(struct rdma_cc_hook_qp *qp, void *priv, bool to_line)
{
	if (to_line)
		qp->dev->ops->set_rate(qp, 0);
}

static bool fr_cnp(void *priv)
{
	atomic64_inc(&cnps);
	return true;
}

static void fr_tx(void *priv, u32 n)
{
	atomic64_add(n, &pkts);
}

static const struct rdma_cc_cc_ops fr_ops = {
	.name = KBUILD_MODNAME,
	.attach_dev = fr_attach_dev,
	.detach_dev = fr_detach_dev,
	.attach_qp = fr_attach_qp,
	.detach_qp = fr_detach_qp,
	.cnp = fr_cnp,
	.tx = fr_tx,
};

static int __init fr_init(void)
{
	return rdma_cc_hook_register_cc(&fr_ops);
}

static void __exit fr_exit(void)
{
	rdma_cc_hook_unregister_cc(&fr_ops);
	pr_info("fixed_rate: cnps %lld pkts %lld\n",
		atomic64_read(&cnps), atomic64_read(&pkts));
}
module_init(fr_init);
module_exit(fr_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test-only fixed-rate congestion control for rdma_cc_hook");
