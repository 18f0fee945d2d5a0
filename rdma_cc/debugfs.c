// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/rdma_cc/<device>/: three files a device,
 * however many QPs it has (nothing is created per QP):
 *
 *   qps      one line per QP, after a header line naming the columns, as
 *            /proc/net/tcp lists sockets (mode 0400);
 *   qp       one QP's whole state as "key: value" lines: write its number,
 *            then read (mode 0600);
 *   summary  the device (mode 0400).
 *
 * Every QP's figures are one consistent copy, taken by rcc_flow_state() or
 * rcc_dev_flow_state() (qp.c) under the QP's lock; this file only formats
 * them, and qp.c never calls into it.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "rdma_cc.h"

static struct dentry *rcc_debugfs_root;

/* An estimate in 1/RCC_EST_ONE as a decimal with 6 places. */
static void rcc_seq_estimate(struct seq_file *m, const char *fmt, u32 est)
{
	u64 micro = rcc_estimate_micro(est);	/* as the replay prints it */

	seq_printf(m, fmt, micro / 1000000, micro % 1000000);
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
}

/* The file "qp": one QP as "key: value" lines. */
void rcc_flow_show(struct seq_file *m, const struct rcc_flow_state *st)
{
	const struct rcc_qp *q = &st->core;

	seq_printf(m, "qpn: %u\n", st->qpn);
	seq_printf(m, "congested: %d\n", q->congested);
	seq_printf(m, "line_rate_bps: %llu\n", st->line_rate_bps);
	seq_printf(m, "current_bps: %llu\n", q->current_bps);
	seq_printf(m, "target_bps: %llu\n", q->target_bps);
	seq_printf(m, "told_bps: %llu\n", st->told_bps);
	rcc_seq_estimate(m, "estimate: %llu.%06llu\n", q->estimate);
	seq_printf(m, "recovery: %d\n", q->recovery);
	seq_printf(m, "step_bps: %llu\n", q->step_bps);
	seq_printf(m, "interval_cnps: %u\n", q->cnp);
	seq_printf(m, "interval_packets: %llu\n", q->pkts);
	seq_printf(m, "increase_halves_with_cnps: %u\n", q->cnp_halves);
	seq_printf(m, "run: %u\n", q->run);
	seq_printf(m, "now_ns: %llu\n", st->now_ns);
	if (q->congested)
		seq_printf(m, "next_run_ns: %llu\n", q->next_run_ns);
	else
		seq_puts(m, "next_run_ns: none\n");
	seq_printf(m, "timer_armed: %d\n", st->timer_armed);
	rcc_seq_counters(m, &st->cnt);
	seq_printf(m, "congested_ns: %llu\n", st->cnt.congested_ns);
}

/*
 * The file "qps": the header, then rcc_flow_row()'s line per QP, the same
 * keys and values as "qp" (its line_rate_bps and now_ns are the device's,
 * in "summary"; next_run_ns is "none" when not congested).
 */
static const char * const rcc_qps_columns[] = {
	"qpn", "congested", "current_bps", "target_bps", "told_bps",
	"estimate", "recovery", "step_bps", "interval_cnps",
	"interval_packets", "increase_halves_with_cnps", "run", "next_run_ns",
	"timer_armed", "cnps", "packets", "episodes", "episodes_ended", "runs",
	/* runs by action, in enum rcc_action's order */
	"none", "fr_cut", "ai_cut", "fr_inc", "ai_inc",
	"floor_hits", "congested_ns",
};

static void rcc_qps_header(struct seq_file *m)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rcc_qps_columns); i++)
		seq_printf(m, "%s%s", i ? " " : "", rcc_qps_columns[i]);
	seq_putc(m, '\n');
}

/* One row: seq_put_decimal_*() are several times cheaper than seq_printf(). */
void rcc_flow_row(struct seq_file *m, const struct rcc_flow_state *st)
{
	const struct rcc_qp *q = &st->core;
	const struct rcc_counters *c = &st->cnt;
	u64 micro = rcc_estimate_micro(q->estimate);
	int i;

	seq_put_decimal_ull(m, "", st->qpn);
	seq_put_decimal_ull(m, " ", q->congested);
	seq_put_decimal_ull(m, " ", q->current_bps);
	seq_put_decimal_ull(m, " ", q->target_bps);
	seq_put_decimal_ull(m, " ", st->told_bps);
	seq_put_decimal_ull(m, " ", micro / 1000000);
	seq_printf(m, ".%06llu", micro % 1000000);
	seq_put_decimal_ll(m, " ", q->recovery);
	seq_put_decimal_ull(m, " ", q->step_bps);
	seq_put_decimal_ull(m, " ", q->cnp);
	seq_put_decimal_ull(m, " ", q->pkts);
	seq_put_decimal_ull(m, " ", q->cnp_halves);
	seq_put_decimal_ull(m, " ", q->run);
	if (q->congested)
		seq_put_decimal_ull(m, " ", q->next_run_ns);
	else
		seq_puts(m, " none");
	seq_put_decimal_ull(m, " ", st->timer_armed);
	seq_put_decimal_ull(m, " ", c->cnps);
	seq_put_decimal_ull(m, " ", c->pkts);
	seq_put_decimal_ull(m, " ", c->episodes);
	seq_put_decimal_ull(m, " ", c->episodes_ended);
	seq_put_decimal_ull(m, " ", c->runs);
	for (i = 0; i < RCC_NR_ACTIONS; i++)
		seq_put_decimal_ull(m, " ", c->actions[i]);
	seq_put_decimal_ull(m, " ", c->floor_hits);
	seq_put_decimal_ull(m, " ", c->congested_ns);
	seq_putc(m, '\n');
}

/*
 * The table's position: 0 is the header, QPN + 1 the row of QP QPN, so a
 * read that resumes finds its place in the xarray in O(log n).
 */
struct rcc_qps_iter {
	struct rcc_dev *d;
	struct rcc_flow_state st;
};

static void *rcc_qps_find(struct seq_file *m, loff_t *pos)
{
	struct rcc_qps_iter *it = m->private;
	unsigned long qpn = *pos - 1;

	if (*pos > (loff_t)U32_MAX + 1 ||
	    !rcc_dev_flow_state(it->d, &qpn, &it->st)) {
		*pos = (loff_t)U32_MAX + 2;
		return NULL;
	}
	*pos = (loff_t)qpn + 1;
	return &it->st;
}

static void *rcc_qps_start(struct seq_file *m, loff_t *pos)
{
	return *pos ? rcc_qps_find(m, pos) : SEQ_START_TOKEN;
}

static void *rcc_qps_next(struct seq_file *m, void *v, loff_t *pos)
{
	(*pos)++;
	return rcc_qps_find(m, pos);
}

static void rcc_qps_stop(struct seq_file *m, void *v)
{
}

static int rcc_qps_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN)
		rcc_qps_header(m);
	else
		rcc_flow_row(m, v);
	return 0;
}

static const struct seq_operations rcc_qps_sops = {
	.start = rcc_qps_start,
	.next = rcc_qps_next,
	.stop = rcc_qps_stop,
	.show = rcc_qps_show,
};

static int rcc_qps_open(struct inode *inode, struct file *file)
{
	struct rcc_qps_iter *it;

	it = __seq_open_private(file, &rcc_qps_sops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->d = inode->i_private;
	return 0;
}

const struct file_operations rcc_qps_fops = {
	.owner = THIS_MODULE,
	.open = rcc_qps_open,
	.read = seq_read,
	.read_iter = seq_read_iter,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/*
 * The file "qp": an open file shows the QP whose number was last written
 * to it, or, before any write, the one last written to the device's "qp"
 * by anyone (so "echo 17 > qp; cat qp" works from a shell).
 */
struct rcc_qp_file {
	struct rcc_dev *d;
	u32 qpn;
};

static int rcc_qp_file_show(struct seq_file *m, void *unused)
{
	struct rcc_qp_file *qf = m->private;
	struct rcc_flow_state st;
	unsigned long qpn = qf->qpn;

	if (!rcc_dev_flow_state(qf->d, &qpn, &st) || qpn != qf->qpn)
		return -ENODATA;	/* "No data available": the file is there */
	rcc_flow_show(m, &st);
	return 0;
}

static int rcc_qp_file_open(struct inode *inode, struct file *file)
{
	struct rcc_qp_file *qf;
	int err;

	qf = kzalloc(sizeof(*qf), GFP_KERNEL);
	if (!qf)
		return -ENOMEM;
	qf->d = inode->i_private;
	qf->qpn = READ_ONCE(qf->d->dbg_qpn);
	err = single_open(file, rcc_qp_file_show, qf);
	if (err)
		kfree(qf);
	return err;
}

/* A write to "qp": decimal digits and at most one newline, as sysfs. */
int rcc_qp_file_select(struct file *file, const char *buf)
{
	struct seq_file *m = file->private_data;
	struct rcc_qp_file *qf = m->private;
	u32 qpn;

	if (rcc_parse_u32(buf, &qpn))
		return -EINVAL;
	qf->qpn = qpn;
	WRITE_ONCE(qf->d->dbg_qpn, qpn);
	return 0;
}

static ssize_t rcc_qp_file_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	char buf[12];
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (strlen(buf) != len)
		return -EINVAL;
	err = rcc_qp_file_select(file, buf);
	return err ? err : len;
}

static int rcc_qp_file_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kfree(m->private);
	return single_release(inode, file);
}

const struct file_operations rcc_qp_file_fops = {
	.owner = THIS_MODULE,
	.open = rcc_qp_file_open,
	.read = seq_read,
	.read_iter = seq_read_iter,
	.write = rcc_qp_file_write,
	.llseek = seq_lseek,
	.release = rcc_qp_file_release,
};

/*
 * @d's counters: its QPs' and those of QPs already gone.  Process context.
 *
 * The QPs are walked one at a time under RCU, not under flows_lock, so a
 * walk of many QPs stalls no QP's create or destroy.  A QP that comes or
 * goes during the walk could be counted twice (walked, then retired) or
 * not at all: the walk is repeated when @flows changed (flows_gen), and
 * the last of a few tries holds flows_lock, so churn cannot starve it.
 */
void rcc_dev_counters(struct rcc_dev *d, struct rcc_counters *sum,
		      unsigned int *nr_qps, unsigned int *nr_congested)
{
	struct rcc_flow_state st;
	unsigned long gen, qpn;
	bool stable = false;
	int tries;

	for (tries = 0; !stable; tries++) {
		bool locked = tries == 3;

		mutex_lock(&d->flows_lock);
		*sum = d->retired;
		gen = d->flows_gen;
		if (!locked)
			mutex_unlock(&d->flows_lock);
		*nr_qps = 0;
		*nr_congested = 0;
		for (qpn = 0; rcc_dev_flow_state(d, &qpn, &st); qpn++) {
			rcc_counters_add(sum, &st.cnt);
			(*nr_qps)++;
			if (st.core.congested)
				(*nr_congested)++;
			cond_resched();
			if (qpn == U32_MAX)
				break;
		}
		if (!locked)
			mutex_lock(&d->flows_lock);
		stable = locked || gen == d->flows_gen;
		mutex_unlock(&d->flows_lock);
	}
	sum->late_runs += atomic64_read(&d->late_runs);
}

int rcc_dev_show(struct seq_file *m, void *unused)
{
	struct rcc_dev *d = m->private;
	unsigned int nr_qps, nr_congested;
	struct rcc_counters sum;
	struct rcc_params p;
	unsigned long own;
	int i;

	/* the values and which of them are the device's own: one set */
	mutex_lock(&rcc_params_mutex);
	p = rcu_dereference_protected(d->params,
				      lockdep_is_held(&rcc_params_mutex))->p;
	own = d->own_mask;
	mutex_unlock(&rcc_params_mutex);
	rcc_dev_counters(d, &sum, &nr_qps, &nr_congested);

	seq_printf(m, "device: %s\n", d->hdev->name);
	seq_printf(m, "link_rate_bps: %llu\n", READ_ONCE(d->hdev->line_rate_bps));
	seq_printf(m, "line_rate_bps: %llu\n", rcc_dev_line_rate(d, &p));
	seq_printf(m, "qps: %u\n", nr_qps);
	seq_printf(m, "qps_congested: %u\n", nr_congested);
	for (i = 0; i < RCC_NR_PARAMS; i++)
		seq_printf(m, "%s: %u%s\n", rcc_param_descs[i].name,
			   rcc_param_get(&p, i),
			   own & BIT(i) ? " (device)" : "");
	rcc_seq_counters(m, &sum);
	seq_printf(m, "late_runs: %llu\n", sum.late_runs);
	seq_printf(m, "congested_ns: %llu\n", sum.congested_ns);
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
	debugfs_create_file("qps", 0400, d->dbg, d, &rcc_qps_fops);
	debugfs_create_file("qp", 0600, d->dbg, d, &rcc_qp_file_fops);
}

void rcc_debugfs_del_dev(struct rcc_dev *d)
{
	debugfs_remove(d->dbg);
	d->dbg = NULL;
}
