// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/rdma_cc/<device>/: a file per QP
 * ("qp<qpn>") with its whole state and counters, and "summary" for the
 * device.  Root only (0400).  Each file is a consistent copy taken under
 * the QP's lock.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "rdma_cc.h"

static struct dentry *rcc_debugfs_root;

/* An estimate in 1/RCC_EST_ONE as a decimal with 6 places. */
static void rcc_seq_estimate(struct seq_file *m, const char *key, u32 est)
{
	u64 micro = ((u64)est * 1000000) >> RCC_EST_SHIFT;

	seq_printf(m, "%s: %llu.%06llu\n", key, micro / 1000000,
		   micro % 1000000);
}

static void rcc_seq_counters(struct seq_file *m, const struct rcc_counters *c)
{
	int i;

	seq_printf(m, "cnps: %llu\n", c->cnps);
	seq_printf(m, "packets: %llu\n", c->pkts);
	seq_printf(m, "episodes: %llu\n", c->episodes);
	seq_printf(m, "episodes_ended: %llu\n", c->episodes_ended);
	seq_printf(m, "runs: %llu\n", c->runs);
	for (i = 0; i < RCC_NR_ACTIONS; i++)
		seq_printf(m, "%s: %llu\n", rcc_action_name(i), c->actions[i]);
	seq_printf(m, "floor_hits: %llu\n", c->floor_hits);
	seq_printf(m, "late_runs: %llu\n", c->late_runs);
	seq_printf(m, "congested_ns: %llu\n", c->congested_ns);
}

int rcc_flow_show(struct seq_file *m, void *unused)
{
	struct rcc_flow *f = m->private;
	struct rcc_flow_state st;
	const struct rcc_qp *q = &st.core;

	rcc_flow_state(f, &st);
	seq_printf(m, "qpn: %u\n", f->hqp->qpn);
	seq_printf(m, "congested: %d\n", q->congested);
	seq_printf(m, "line_rate_bps: %llu\n", st.line_rate_bps);
	seq_printf(m, "current_bps: %llu\n", q->current_bps);
	seq_printf(m, "target_bps: %llu\n", q->target_bps);
	seq_printf(m, "told_bps: %llu\n", st.told_bps);
	rcc_seq_estimate(m, "estimate", q->estimate);
	seq_printf(m, "recovery: %d\n", q->recovery);
	seq_printf(m, "step_bps: %llu\n", q->step_bps);
	seq_printf(m, "interval_cnps: %u\n", q->cnp);
	seq_printf(m, "interval_packets: %llu\n", q->pkts);
	seq_printf(m, "increase_halves_with_cnps: %u\n", q->cnp_halves);
	seq_printf(m, "run: %llu\n", q->run);
	seq_printf(m, "now_ns: %llu\n", st.now_ns);
	if (q->congested)
		seq_printf(m, "next_run_ns: %llu\n", q->next_run_ns);
	else
		seq_puts(m, "next_run_ns: none\n");
	seq_printf(m, "timer_armed: %d\n", st.timer_armed);
	rcc_seq_counters(m, &st.cnt);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rcc_flow);

int rcc_dev_show(struct seq_file *m, void *unused)
{
	struct rcc_dev *d = m->private;
	unsigned int nr_qps, nr_congested;
	struct rcc_counters sum;
	struct rcc_params p;
	int i;

	rcu_read_lock();
	p = rcu_dereference(d->params)->p;
	rcu_read_unlock();
	rcc_dev_counters(d, &sum, &nr_qps, &nr_congested);

	seq_printf(m, "device: %s\n", d->hdev->name);
	seq_printf(m, "link_rate_bps: %llu\n", READ_ONCE(d->hdev->line_rate_bps));
	seq_printf(m, "line_rate_bps: %llu\n", rcc_dev_line_rate(d, &p));
	seq_printf(m, "qps: %u\n", nr_qps);
	seq_printf(m, "qps_congested: %u\n", nr_congested);
	for (i = 0; i < RCC_NR_PARAMS; i++)
		seq_printf(m, "%s: %u%s\n", rcc_param_descs[i].name,
			   rcc_param_get(&p, i),
			   d->own_mask & BIT(i) ? " (device)" : "");
	rcc_seq_counters(m, &sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rcc_dev);

void rcc_debugfs_init(void)
{
	rcc_debugfs_root = debugfs_create_dir("rdma_cc", NULL);
}

void rcc_debugfs_exit(void)
{
	debugfs_remove(rcc_debugfs_root);
}

void rcc_debugfs_add_dev(struct rcc_dev *d)
{
	d->dbg = debugfs_create_dir(d->hdev->name, rcc_debugfs_root);
	debugfs_create_file("summary", 0400, d->dbg, d, &rcc_dev_fops);
}

void rcc_debugfs_del_dev(struct rcc_dev *d)
{
	debugfs_remove(d->dbg);
	d->dbg = NULL;
}

void rcc_debugfs_add_flow(struct rcc_flow *f)
{
	char name[16];

	snprintf(name, sizeof(name), "qp%u", f->hqp->qpn);
	f->dbg = debugfs_create_file(name, 0400, f->dev->dbg, f,
				     &rcc_flow_fops);
}

void rcc_debugfs_del_flow(struct rcc_flow *f)
{
	debugfs_remove(f->dbg);
	f->dbg = NULL;
}
