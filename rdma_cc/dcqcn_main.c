// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_main.c - rdma_cc_dcqcn.ko: DCQCN's reaction point (dcqcn.c, the
 * simulator's, with the mlx5 preset) as a second congestion control on
 * rdma_cc_hook.ko, beside rdma_cc.ko.
 *
 * Its knobs are module parameters under mlx5's names and in mlx5's units
 * (/sys/module/rdma_cc_dcqcn/parameters/rpg_time_reset, ...; mlx5 has
 * them in /sys/class/net/<dev>/ecn/roce_rp/), each validated by dcqcn.c's
 * own parser against its table: a bad write fails with -EINVAL and
 * changes nothing.  The set in force is a snapshot published with RCU,
 * never modified; a QP takes a new one at its next event or timer.
 * /sys/kernel/debug/rdma_cc_dcqcn/<device>/qp<N> shows each QP's state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "dcqcn_mod.h"

/* Serialises parameter writes; the published snapshot. */
static DEFINE_MUTEX(dcqcn_params_mutex);
static struct dcqcn_snap __rcu *dcqcn_snap;
static u64 dcqcn_gen;

static struct dentry *dcqcn_debugfs_root;

/* The values before any write: mlx5's, and the default packet size. */
static void dcqcn_snap_default(struct dcqcn_snap *s)
{
	dcqcn_params_default(&s->p);
	s->mtu = DCQCN_MTU_DEFAULT;
}

/* The snapshot in force.  Under rcu_read_lock(); never NULL once loaded. */
struct dcqcn_snap *dcqcn_params_get(void)
{
	return rcu_dereference(dcqcn_snap);
}

static struct dcqcn_snap *dcqcn_snap_locked(void)
{
	return rcu_dereference_protected(dcqcn_snap,
					 lockdep_is_held(&dcqcn_params_mutex));
}

/* Publish @s as the set in force.  Under dcqcn_params_mutex. */
static void dcqcn_snap_publish(struct dcqcn_snap *s)
{
	struct dcqcn_snap *old = dcqcn_snap_locked();

	s->gen = ++dcqcn_gen;
	rcu_assign_pointer(dcqcn_snap, s);
	if (old)
		kfree_rcu(old, rcu);
}

/* A value as written: at most one trailing newline, else as is. */
static int dcqcn_strip(const char *val, char *buf, size_t len)
{
	size_t n = strnlen(val, len);

	if (n == len)
		return -EINVAL;
	memcpy(buf, val, n + 1);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/**
 * dcqcn_param_write() - set one knob (or "mtu") to a written value
 * @name: the mlx5 name, or "mtu"
 * @val: plain decimal digits, at most one trailing newline
 *
 * Return: 0, -EINVAL for a bad value (nothing changes; the range is
 * logged), -ENOENT for an unknown name, -ENOMEM.
 */
int dcqcn_param_write(const char *name, const char *val)
{
	struct dcqcn_snap *s, *cur;
	char buf[16], err[96];
	int ret;
	u32 v;

	if (dcqcn_strip(val, buf, sizeof(buf)))
		return -EINVAL;
	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	mutex_lock(&dcqcn_params_mutex);
	cur = dcqcn_snap_locked();
	if (cur)
		*s = *cur;
	else
		dcqcn_snap_default(s);
	if (!strcmp(name, "mtu")) {
		ret = dcqcn_parse_u32(buf, DCQCN_MTU_MAX, &v) || !v ?
		      -EINVAL : 0;
		if (ret)
			snprintf(err, sizeof(err),
				 "expected a whole number 1 .. %u (bytes)",
				 DCQCN_MTU_MAX);
		else
			s->mtu = v;
	} else if (!strcmp(name, "slowdown")) {
		ret = dcqcn_parse_u32(buf, DCQCN_SLOWDOWN_MAX, &v) || !v ?
		      -EINVAL : 0;
		if (ret)
			snprintf(err, sizeof(err),
				 "expected a whole number 1 .. %u (times slower)",
				 DCQCN_SLOWDOWN_MAX);
		else
			s->p.slowdown = v;
	} else {
		ret = dcqcn_param_parse(&s->p, name, buf, err, sizeof(err));
	}
	if (ret) {
		mutex_unlock(&dcqcn_params_mutex);
		kfree(s);
		if (ret == -EINVAL)
			pr_warn_ratelimited("%s=%s refused: %s\n", name, buf,
					    err);
		return ret;
	}
	dcqcn_snap_publish(s);
	mutex_unlock(&dcqcn_params_mutex);
	return 0;
}

/* The value of a knob (or "mtu", "slowdown") in force. */
u32 dcqcn_param_read(const char *name)
{
	struct dcqcn_snap *s;
	int id = dcqcn_param_lookup(name);
	u32 v = 0;

	rcu_read_lock();
	s = rcu_dereference(dcqcn_snap);
	if (s && id >= 0)
		v = s->p.v[id];
	else if (s && !strcmp(name, "slowdown"))
		v = s->p.slowdown;
	else if (s)
		v = s->mtu;
	rcu_read_unlock();
	return v;
}

/* kernel_param_ops .set: insmod rdma_cc_dcqcn NAME=VALUE, or a write. */
static int dcqcn_param_set(const char *val, const struct kernel_param *kp)
{
	return dcqcn_param_write(kp->arg, val);
}

static int dcqcn_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", dcqcn_param_read(kp->arg));
}

static const struct kernel_param_ops dcqcn_param_ops = {
	.set = dcqcn_param_set,
	.get = dcqcn_param_get,
};

/*
 * One module parameter per knob, mlx5's name and unit; the descriptions
 * are literal (modinfo reads them from the .ko) and name the range of
 * dcqcn.c's table, which tools/check/20-module.sh compares.
 */
module_param_cb(rpg_time_reset, &dcqcn_param_ops, "rpg_time_reset", 0644);
MODULE_PARM_DESC(rpg_time_reset,
		 "rate-increase timer period (us, range 1..131071)");
module_param_cb(rpg_byte_reset, &dcqcn_param_ops, "rpg_byte_reset", 0644);
MODULE_PARM_DESC(rpg_byte_reset,
		 "bytes sent per byte-counter increase; 0 = off (64 bytes, range 0..32767)");
module_param_cb(rpg_threshold, &dcqcn_param_ops, "rpg_threshold", 0644);
MODULE_PARM_DESC(rpg_threshold,
		 "increase events before active and hyper increase F (events, range 0..31)");
module_param_cb(rpg_ai_rate, &dcqcn_param_ops, "rpg_ai_rate", 0644);
MODULE_PARM_DESC(rpg_ai_rate,
		 "active increase step; 0 = 5 x R / 25 Gbit/s (Mbit/s, range 0..10000000)");
module_param_cb(rpg_hai_rate, &dcqcn_param_ops, "rpg_hai_rate", 0644);
MODULE_PARM_DESC(rpg_hai_rate,
		 "hyper increase step; 0 = 50 x R / 25 Gbit/s (Mbit/s, range 0..10000000)");
module_param_cb(rpg_gd, &dcqcn_param_ops, "rpg_gd", 0644);
MODULE_PARM_DESC(rpg_gd,
		 "a cut is rc x (1 - alpha x 1024 / 2^rpg_gd) (log2, range 0..15)");
module_param_cb(rpg_min_dec_fac, &dcqcn_param_ops, "rpg_min_dec_fac", 0644);
MODULE_PARM_DESC(rpg_min_dec_fac,
		 "a cut keeps at least this share of the rate (percent, range 0..100)");
module_param_cb(rpg_min_rate, &dcqcn_param_ops, "rpg_min_rate", 0644);
MODULE_PARM_DESC(rpg_min_rate,
		 "no cut goes below this rate (Mbit/s, range 1..10000000)");
module_param_cb(rate_to_set_on_first_cnp, &dcqcn_param_ops, "rate_to_set_on_first_cnp", 0644);
MODULE_PARM_DESC(rate_to_set_on_first_cnp,
		 "rate on a QP's first CNP; 0 = unchanged (Mbit/s, range 0..10000000)");
module_param_cb(dce_tcp_g, &dcqcn_param_ops, "dce_tcp_g", 0644);
MODULE_PARM_DESC(dce_tcp_g,
		 "alpha = g alpha + (1 - g) [a CNP came], g = dce_tcp_g / 1024 (1/1024, range 0..1023)");
module_param_cb(dce_tcp_rtt, &dcqcn_param_ops, "dce_tcp_rtt", 0644);
MODULE_PARM_DESC(dce_tcp_rtt,
		 "alpha update period (us, range 1..131071)");
module_param_cb(rate_reduce_monitor_period, &dcqcn_param_ops, "rate_reduce_monitor_period", 0644);
MODULE_PARM_DESC(rate_reduce_monitor_period,
		 "rate-decrease check period (us, range 1..131071)");
module_param_cb(initial_alpha_value, &dcqcn_param_ops, "initial_alpha_value", 0644);
MODULE_PARM_DESC(initial_alpha_value,
		 "alpha on a QP's first CNP (1/1024, range 0..1024)");
module_param_cb(clamp_tgt_rate, &dcqcn_param_ops, "clamp_tgt_rate", 0644);
MODULE_PARM_DESC(clamp_tgt_rate,
		 "every cut sets the target rate to the current rate (0 or 1, range 0..1)");
module_param_cb(clamp_tgt_rate_after_time_inc, &dcqcn_param_ops,
		"clamp_tgt_rate_after_time_inc", 0644);
MODULE_PARM_DESC(clamp_tgt_rate_after_time_inc,
		 "a cut after a timer increase sets the target rate to the current (0 or 1, range 0..1)");
module_param_cb(mtu, &dcqcn_param_ops, "mtu", 0644);
MODULE_PARM_DESC(mtu,
		 "bytes each packet the driver reports counts for rpg_byte_reset (bytes, range 1..65536)");
module_param_cb(slowdown, &dcqcn_param_ops, "slowdown", 0644);
MODULE_PARM_DESC(slowdown,
		 "run as on a fabric this many times slower: line rate and rates / it, periods x it; 1 = as is, for emulated testbeds only (times, range 1..1000000)");

/*
 * debugfs: /sys/kernel/debug/rdma_cc_dcqcn/<device>/qp<N>, one consistent
 * copy of the QP's state in "key: value" lines, as rdma_cc's qp<N> files.
 */
static int dcqcn_qp_show(struct seq_file *m, void *unused)
{
	struct dcqcn_flow *f = m->private;
	struct dcqcn_flow_state st;

	dcqcn_flow_state(f, &st);
	seq_printf(m, "qpn: %u\n", f->hqp->qpn);
	seq_printf(m, "congested: %d\n", st.rp.limited);
	seq_printf(m, "link_rate_bps: %llu\n", st.link_bps);
	seq_printf(m, "line_rate_bps: %llu\n", st.line_bps);
	seq_printf(m, "current_bps: %llu\n", st.rp.rc);
	seq_printf(m, "target_bps: %llu\n", st.rp.rt);
	seq_printf(m, "told_bps: %llu\n", st.told_bps);
	seq_printf(m, "alpha_ppm: %llu\n", dcqcn_frac_micro(st.rp.alpha));
	seq_printf(m, "timer_stage: %u\n", st.rp.t_stage);
	seq_printf(m, "byte_stage: %u\n", st.rp.b_stage);
	seq_printf(m, "timer_armed: %d\n", st.timer_armed);
	seq_printf(m, "cnps: %llu\n", st.cnt.cnps);
	seq_printf(m, "first_cnps: %llu\n", st.cnt.first_cnps);
	seq_printf(m, "cuts: %llu\n", st.cnt.cuts);
	seq_printf(m, "increases: %llu\n", st.cnt.increases);
	seq_printf(m, "releases: %llu\n", st.cnt.releases);
	seq_printf(m, "rate_changes: %llu\n", st.cnt.rate_changes);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dcqcn_qp);

void dcqcn_debugfs_add_flow(struct dcqcn_flow *f)
{
	char name[16];

	snprintf(name, sizeof(name), "qp%u", f->hqp->qpn);
	f->dbg = debugfs_create_file(name, 0400, f->dev->dbg, f,
				     &dcqcn_qp_fops);
}

static int dcqcn_attach_dev(struct rdma_cc_hook_dev *hdev)
{
	struct dcqcn_dev *d;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->hdev = hdev;
	mutex_init(&d->flows_lock);
	INIT_LIST_HEAD(&d->flows);
	d->dbg = debugfs_create_dir(hdev->name, dcqcn_debugfs_root);
	hdev->cc_priv = d;
	return 0;
}

static void dcqcn_detach_dev(struct rdma_cc_hook_dev *hdev)
{
	struct dcqcn_dev *d = hdev->cc_priv;

	WARN_ON(!list_empty(&d->flows));
	debugfs_remove(d->dbg);
	kfree(d);
}

static void *dcqcn_attach_qp(struct rdma_cc_hook_qp *hqp)
{
	BUILD_BUG_ON(offsetof(struct dcqcn_flow, hook) != 0);
	return dcqcn_flow_create(hqp->dev->cc_priv, hqp);
}

static void dcqcn_detach_qp(struct rdma_cc_hook_qp *hqp, void *priv,
			    bool to_line_rate)
{
	dcqcn_flow_destroy(priv, to_line_rate);
}

const struct rdma_cc_cc_ops dcqcn_cc_ops = {
	.name = DCQCN_CC_NAME,
	.attach_dev = dcqcn_attach_dev,
	.detach_dev = dcqcn_detach_dev,
	.attach_qp = dcqcn_attach_qp,
	.detach_qp = dcqcn_detach_qp,
	.cnp = dcqcn_flow_cnp,
	.tx = dcqcn_flow_tx,
};

/* The first snapshot, unless insmod's parameters made one. */
int dcqcn_params_init(void)
{
	struct dcqcn_snap *s;

	mutex_lock(&dcqcn_params_mutex);
	if (!dcqcn_snap_locked()) {
		s = kmalloc(sizeof(*s), GFP_KERNEL);
		if (!s) {
			mutex_unlock(&dcqcn_params_mutex);
			return -ENOMEM;
		}
		dcqcn_snap_default(s);
		dcqcn_snap_publish(s);
	}
	mutex_unlock(&dcqcn_params_mutex);
	return 0;
}

void dcqcn_params_exit(void)
{
	struct dcqcn_snap *s;

	mutex_lock(&dcqcn_params_mutex);
	s = dcqcn_snap_locked();
	RCU_INIT_POINTER(dcqcn_snap, NULL);
	mutex_unlock(&dcqcn_params_mutex);
	if (s)
		kfree_rcu(s, rcu);
}

static int __init dcqcn_mod_init(void)
{
	int err;

	err = dcqcn_params_init();
	if (err)
		return err;
	dcqcn_debugfs_root = debugfs_create_dir("rdma_cc_dcqcn", NULL);
	err = rdma_cc_hook_register_cc(&dcqcn_cc_ops);
	if (err) {
		debugfs_remove(dcqcn_debugfs_root);
		dcqcn_params_exit();
		rcu_barrier();
	}
	return err;
}

static void __exit dcqcn_mod_exit(void)
{
	rdma_cc_hook_unregister_cc(&dcqcn_cc_ops);
	debugfs_remove(dcqcn_debugfs_root);
	dcqcn_params_exit();
	/* Snapshots and QPs are freed by kfree_rcu: let that finish. */
	rcu_barrier();
}

module_init(dcqcn_mod_init);
module_exit(dcqcn_mod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DCQCN's reaction point (mlx5's knobs) as a congestion control for RoCE queue pairs");
