// SPDX-License-Identifier: GPL-2.0
/*
 * rcc_bench.c - a fake RoCE driver that measures what rdma_cc costs.
 *
 * Loaded in a test VM, in one of three modes (module parameter mode=):
 *
 *  attach  registers the device "rcc_bench" and nr_qps QPs with rdma_cc_hook
 *          and does nothing else: for the per-QP memory (slab deltas when
 *          rdma_cc.ko takes them on) and the cost of QP create and destroy
 *          (stats: add_ns, the time the nr_qps rdma_cc_hook_add_qp() calls
 *          took; writing "del" to /sys/kernel/debug/rcc_bench/ctl deletes
 *          every QP and sets del_ns).
 *  cc      the same, then keeps every QP congested: the first CNP of QP i is
 *          sent at start + i * period_ns / nr_qps (the episodes, hence the
 *          QPs' run grids, spread evenly over one half interval; spread=0:
 *          all at start), then one hrtimer, halfway between two grid points,
 *          sends a CNP to every QP every inject_ns (default: one per control
 *          interval, so no episode ends); with tx_ns, a third hrtimer
 *          reports tx_pkts packets sent for every QP every tx_ns, as a
 *          driver reports its bursts.  With rdma_cc.ko not loaded the CNPs go nowhere:
 *          that is the cost of the injector alone, to subtract.
 *  bare    nr_qps plain hrtimers, started on the same spread grid, each
 *          firing every period_ns (22.5 us: the loop's period at the default
 *          45 us interval) and doing nothing but count its runs and those
 *          more than late_ns after their time, the way rdma_cc counts
 *          late_runs.
 *
 * /sys/kernel/debug/rcc_bench/stats prints the counters, the CPU's idle time
 * (get_cpu_idle_time_us(), exact on a NO_HZ kernel: interrupt time is not
 * idle) and the sizes of the structures, as "key: value" lines.  The QP and
 * timer arrays are vzalloc()ed, so slab deltas are rdma_cc's alone.
 */
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "rdma_cc.h"
#include "rdma_cc_hook.h"

#define RB_MAX_QPS	262144

static char *mode = "cc";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "attach, cc or bare (see the source's header)");

static unsigned int nr_qps = 1;
module_param(nr_qps, uint, 0444);
MODULE_PARM_DESC(nr_qps, "QPs (or bare timers) (count, range 1..262144)");

static unsigned int period_ns = 22500;
module_param(period_ns, uint, 0444);
MODULE_PARM_DESC(period_ns, "bare timers' period and the spread of the start grid (ns, range 1000..100000000)");

static unsigned int late_ns = 22500;
module_param(late_ns, uint, 0444);
MODULE_PARM_DESC(late_ns, "a bare run later than this is late (ns)");

static unsigned int inject_ns = 45000;
module_param(inject_ns, uint, 0444);
MODULE_PARM_DESC(inject_ns, "cc: a CNP to every QP this often; 0 = only the first (ns, range 0 or 1000..100000000)");

static unsigned int tx_ns;
module_param(tx_ns, uint, 0444);
MODULE_PARM_DESC(tx_ns, "cc: every QP reports tx_pkts packets sent this often, as a driver does; 0 = never (ns, range 0 or 1000..100000000)");

static unsigned int tx_pkts = 4;
module_param(tx_pkts, uint, 0444);
MODULE_PARM_DESC(tx_pkts, "cc: packets in each report of tx_ns (count, range 1..1000000)");

static bool spread = true;
module_param(spread, bool, 0444);
MODULE_PARM_DESC(spread, "start the QPs (timers) spread over one period; 0 = all at one instant");

static unsigned int line_rate_mbps = 400000;
module_param(line_rate_mbps, uint, 0444);
MODULE_PARM_DESC(line_rate_mbps, "the fake device's link speed (Mbit/s, range 1..10000000)");

enum rb_mode { RB_ATTACH, RB_CC, RB_BARE };

/* One bare timer and what it counted. */
struct rb_timer {
	struct hrtimer timer;
	u64 runs;
	u64 late;
	u64 max_late_ns;
};

/* One fake QP: the hook's QP and what rdma_cc told it. */
struct rb_qp {
	struct rdma_cc_hook_qp hqp;
	u64 rate_bps;
	u64 set_rate_calls;
};

static enum rb_mode rb_mode;
static struct rdma_cc_hook_dev *rb_dev;
static struct rb_qp *rb_qps;
static unsigned int rb_qps_added;
static struct rb_timer *rb_timers;
static struct hrtimer rb_injector;
static bool rb_injector_on;
static struct hrtimer rb_txer;
static bool rb_txer_on;
static u64 rb_tx_reports;
static u64 rb_injector_runs;
static u64 rb_cnps;
static u64 rb_start_ns;
static u64 rb_add_ns;
static u64 rb_del_ns;
static struct dentry *rb_dbg;

static void rb_set_rate(struct rdma_cc_hook_qp *hqp, u64 rate_bps)
{
	struct rb_qp *q = container_of(hqp, struct rb_qp, hqp);

	/* Under rdma_cc's per-QP lock: plain stores are enough. */
	q->rate_bps = rate_bps;
	q->set_rate_calls++;
}

static const struct rdma_cc_rp_ops rb_rp_ops = {
	.set_rate = rb_set_rate,
};

static enum hrtimer_restart rb_bare_fire(struct hrtimer *timer)
{
	struct rb_timer *t = container_of(timer, struct rb_timer, timer);
	u64 now = ktime_get_ns();
	u64 due = ktime_to_ns(hrtimer_get_expires(timer));

	/* Every run that is due, each late one counted, as rdma_cc does. */
	while (due <= now) {
		u64 late = now - due;

		t->runs++;
		if (late > late_ns)
			t->late++;
		if (late > t->max_late_ns)
			t->max_late_ns = late;
		due += period_ns;
	}
	hrtimer_set_expires(timer, ns_to_ktime(due));
	return HRTIMER_RESTART;
}

static enum hrtimer_restart rb_inject_fire(struct hrtimer *timer)
{
	unsigned int i;

	for (i = 0; i < rb_qps_added; i++)
		rdma_cc_hook_cnp(&rb_qps[i].hqp);
	rb_cnps += rb_qps_added;
	rb_injector_runs++;
	hrtimer_forward_now(timer, ns_to_ktime(inject_ns));
	return HRTIMER_RESTART;
}

static enum hrtimer_restart rb_tx_fire(struct hrtimer *timer)
{
	unsigned int i;

	for (i = 0; i < rb_qps_added; i++)
		rdma_cc_hook_tx(&rb_qps[i].hqp, tx_pkts);
	rb_tx_reports += rb_qps_added;
	hrtimer_forward_now(timer, ns_to_ktime(tx_ns));
	return HRTIMER_RESTART;
}

/* When member @i of the start grid starts. */
static u64 rb_grid_ns(unsigned int i)
{
	if (!spread)
		return rb_start_ns;
	return rb_start_ns + div_u64((u64)i * period_ns, nr_qps);
}

/*
 * The injector's phase: halfway between two points of the grid, so that
 * it never shares an interrupt with a QP's run by construction.
 */
static u64 rb_injector_phase_ns(void)
{
	return div_u64((u64)(2 * (nr_qps / 2) + 1) * period_ns, 2 * nr_qps);
}

static int rb_start_bare(void)
{
	unsigned int i;

	rb_timers = vzalloc(array_size(nr_qps, sizeof(*rb_timers)));
	if (!rb_timers)
		return -ENOMEM;
	rb_start_ns = ktime_get_ns() + 1000000;
	for (i = 0; i < nr_qps; i++) {
		hrtimer_init(&rb_timers[i].timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_ABS);
		rb_timers[i].timer.function = rb_bare_fire;
		hrtimer_start(&rb_timers[i].timer,
			      ns_to_ktime(rb_grid_ns(i) + period_ns),
			      HRTIMER_MODE_ABS);
	}
	return 0;
}

static void rb_stop_bare(void)
{
	unsigned int i;

	if (!rb_timers)
		return;
	for (i = 0; i < nr_qps; i++)
		hrtimer_cancel(&rb_timers[i].timer);
	vfree(rb_timers);
	rb_timers = NULL;
}

static void rb_del_qps(void)
{
	u64 t = ktime_get_ns();
	unsigned int n = rb_qps_added;

	while (rb_qps_added) {
		rdma_cc_hook_del_qp(&rb_qps[--rb_qps_added].hqp);
		if (!(rb_qps_added & 1023))
			cond_resched();
	}
	if (n)
		rb_del_ns = ktime_get_ns() - t;
	if (rb_dev)
		rdma_cc_hook_unregister_dev(rb_dev);
	kfree(rb_dev);
	rb_dev = NULL;
	vfree(rb_qps);
	rb_qps = NULL;
}

static int rb_add_qps(void)
{
	unsigned int i;
	int err;

	rb_qps = vzalloc(array_size(nr_qps, sizeof(*rb_qps)));
	rb_dev = kzalloc(sizeof(*rb_dev), GFP_KERNEL);
	if (!rb_qps || !rb_dev) {
		vfree(rb_qps);
		kfree(rb_dev);
		rb_qps = NULL;
		rb_dev = NULL;
		return -ENOMEM;
	}
	strscpy(rb_dev->name, "rcc_bench", sizeof(rb_dev->name));
	rb_dev->ops = &rb_rp_ops;
	rb_dev->line_rate_bps = (u64)line_rate_mbps * 1000000;
	err = rdma_cc_hook_register_dev(rb_dev);
	if (err) {
		kfree(rb_dev);
		rb_dev = NULL;
		rb_del_qps();
		return err;
	}
	rb_add_ns = ktime_get_ns();
	for (i = 0; i < nr_qps; i++) {
		rb_qps[i].hqp.qpn = i + 1;
		err = rdma_cc_hook_add_qp(rb_dev, &rb_qps[i].hqp);
		if (err) {
			rb_del_qps();
			return err;
		}
		rb_qps_added++;
		if (!(i & 1023))
			cond_resched();
	}
	rb_add_ns = ktime_get_ns() - rb_add_ns;
	return 0;
}

static void rb_start_cc(void)
{
	unsigned int i;

	/*
	 * Start QP i's episode at its point of the grid (or as soon after it
	 * as this CPU gets there), then keep them all congested.
	 */
	rb_start_ns = ktime_get_ns() + 1000000;
	for (i = 0; i < rb_qps_added; i++) {
		while (ktime_get_ns() < rb_grid_ns(i))
			cpu_relax();
		rdma_cc_hook_cnp(&rb_qps[i].hqp);
	}
	rb_cnps = rb_qps_added;
	if (tx_ns) {
		/* a quarter period off the CNPs' phase */
		hrtimer_init(&rb_txer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		rb_txer.function = rb_tx_fire;
		hrtimer_start(&rb_txer,
			      ns_to_ktime(rb_start_ns + rb_injector_phase_ns() +
					  period_ns / 4 + tx_ns),
			      HRTIMER_MODE_ABS);
		rb_txer_on = true;
	}
	if (!inject_ns)
		return;
	hrtimer_init(&rb_injector, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	rb_injector.function = rb_inject_fire;
	hrtimer_start(&rb_injector,
		      ns_to_ktime(rb_start_ns + rb_injector_phase_ns() +
				  inject_ns),
		      HRTIMER_MODE_ABS);
	rb_injector_on = true;
}

static int rb_stats_show(struct seq_file *m, void *unused)
{
	u64 runs = 0, late = 0, max_late = 0, calls = 0, paced = 0;
	unsigned int i;

	seq_printf(m, "mode: %s\n", mode);
	seq_printf(m, "nr_qps: %u\n", nr_qps);
	seq_printf(m, "now_ns: %llu\n", ktime_get_ns());
	seq_printf(m, "start_ns: %llu\n", rb_start_ns);
	seq_printf(m, "idle_us: %llu\n", get_cpu_idle_time_us(0, NULL));
	seq_printf(m, "rcc_flow_bytes: %zu\n", sizeof(struct rcc_flow));
	seq_printf(m, "rcc_qp_bytes: %zu\n", sizeof(struct rcc_qp));
	seq_printf(m, "rcc_dev_bytes: %zu\n", sizeof(struct rcc_dev));
	seq_printf(m, "hrtimer_bytes: %zu\n", sizeof(struct hrtimer));
	if (rb_timers) {
		for (i = 0; i < nr_qps; i++) {
			runs += READ_ONCE(rb_timers[i].runs);
			late += READ_ONCE(rb_timers[i].late);
			max_late = max(max_late,
				       READ_ONCE(rb_timers[i].max_late_ns));
		}
		seq_printf(m, "bare_runs: %llu\n", runs);
		seq_printf(m, "bare_late_runs: %llu\n", late);
		seq_printf(m, "bare_max_late_ns: %llu\n", max_late);
	}
	for (i = 0; i < rb_qps_added; i++) {
		calls += READ_ONCE(rb_qps[i].set_rate_calls);
		if (READ_ONCE(rb_qps[i].rate_bps))
			paced++;
	}
	seq_printf(m, "qps_added: %u\n", rb_qps_added);
	seq_printf(m, "add_ns: %llu\n", rb_add_ns);
	seq_printf(m, "del_ns: %llu\n", rb_del_ns);
	seq_printf(m, "qps_paced: %llu\n", paced);
	seq_printf(m, "set_rate_calls: %llu\n", calls);
	seq_printf(m, "cnps_sent: %llu\n", READ_ONCE(rb_cnps));
	seq_printf(m, "injector_runs: %llu\n", READ_ONCE(rb_injector_runs));
	seq_printf(m, "tx_reports: %llu\n", READ_ONCE(rb_tx_reports));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rb_stats);

/* "del": delete every QP (and the device), timed; nothing else is taken. */
static ssize_t rb_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[8] = "";

	if (len >= sizeof(buf) || copy_from_user(buf, ubuf, len))
		return -EINVAL;
	if (strcmp(strim(buf), "del") || rb_mode != RB_ATTACH)
		return -EINVAL;
	rb_del_qps();
	return len;
}

static const struct file_operations rb_ctl_fops = {
	.owner = THIS_MODULE,
	.write = rb_ctl_write,
};

static int __init rb_init(void)
{
	int err;

	if (!strcmp(mode, "attach")) {
		rb_mode = RB_ATTACH;
	} else if (!strcmp(mode, "cc")) {
		rb_mode = RB_CC;
	} else if (!strcmp(mode, "bare")) {
		rb_mode = RB_BARE;
	} else {
		pr_err("rcc_bench: mode=%s: must be attach, cc or bare\n", mode);
		return -EINVAL;
	}
	if (nr_qps < 1 || nr_qps > RB_MAX_QPS) {
		pr_err("rcc_bench: nr_qps=%u: range 1..%u\n", nr_qps, RB_MAX_QPS);
		return -EINVAL;
	}
	if (period_ns < 1000 || period_ns > 100000000) {
		pr_err("rcc_bench: period_ns=%u: range 1000..100000000\n",
		       period_ns);
		return -EINVAL;
	}
	if (inject_ns && (inject_ns < 1000 || inject_ns > 100000000)) {
		pr_err("rcc_bench: inject_ns=%u: range 0 or 1000..100000000\n",
		       inject_ns);
		return -EINVAL;
	}
	if (tx_ns && (tx_ns < 1000 || tx_ns > 100000000)) {
		pr_err("rcc_bench: tx_ns=%u: range 0 or 1000..100000000\n", tx_ns);
		return -EINVAL;
	}
	if (tx_pkts < 1 || tx_pkts > 1000000) {
		pr_err("rcc_bench: tx_pkts=%u: range 1..1000000\n", tx_pkts);
		return -EINVAL;
	}
	if (line_rate_mbps < 1 || line_rate_mbps > 10000000) {
		pr_err("rcc_bench: line_rate_mbps=%u: range 1..10000000\n",
		       line_rate_mbps);
		return -EINVAL;
	}

	if (rb_mode == RB_BARE) {
		err = rb_start_bare();
	} else {
		err = rb_add_qps();
		if (!err && rb_mode == RB_CC)
			rb_start_cc();
	}
	if (err)
		return err;
	rb_dbg = debugfs_create_dir("rcc_bench", NULL);
	debugfs_create_file("stats", 0400, rb_dbg, NULL, &rb_stats_fops);
	debugfs_create_file("ctl", 0200, rb_dbg, NULL, &rb_ctl_fops);
	return 0;
}

static void __exit rb_exit(void)
{
	debugfs_remove(rb_dbg);
	if (rb_injector_on)
		hrtimer_cancel(&rb_injector);
	if (rb_txer_on)
		hrtimer_cancel(&rb_txer);
	rb_stop_bare();
	rb_del_qps();
}

module_init(rb_init);
module_exit(rb_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdma_cc benchmark: a fake RoCE driver with congested QPs, and bare hrtimers");
