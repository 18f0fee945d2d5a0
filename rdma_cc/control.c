// SPDX-License-Identifier: GPL-2.0
/*
 * control.c - per-QP control for experiments, and what a driver may show of
 * a QP (rdma_cc_cc_ops.qp_snapshot).
 *
 * /sys/kernel/debug/rdma_cc/<device>/qp_control (root only, 0600) takes one
 * command per write, a QP number and what to do with it:
 *
 *	echo "17 control_interval_ns=50000 minimum_rate_percent=20" >qp_control
 *	echo "17 pin_mbps=5" >qp_control	# told 5 Mbit/s whatever the loop does
 *	echo "17 unpin" >qp_control
 *	echo "17 minimum_rate_percent=device" >qp_control   # follow the device again
 *	echo "17 clear" >qp_control		# nothing of its own any more
 *
 * A QP's own values go over its device's parameters (which go over the
 * global ones), for that QP's runs only.  Every value is checked like a
 * sysfs write (rcc_param_parse(): plain decimal, in the parameter's range);
 * the whole command is checked before anything changes, so a bad write is
 * refused (-EINVAL; -ENOENT for a QP the device does not have) and changes
 * nothing.  Reading the file lists every QP that has something of its own,
 * one line each, in the syntax of a write.
 *
 * Why debugfs and not sysfs: QPs come and go by the thousand; a kobject per
 * QP is costly, and sysfs is a stable ABI, which a knob for experiments
 * should not be.  The QPs' state is in debugfs already, root only.  A QP
 * without anything of its own pays one pointer (struct rcc_flow_own).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "rdma_cc.h"

/* The longest command, in bytes. */
#define RCC_CONTROL_MAX		512

/* A pinned rate: 1 Mbit/s up to the largest line rate a device may have. */
#define RCC_PIN_MAX_MBPS	10000000

/* One command, parsed and checked. */
struct rcc_control_cmd {
	u32 qpn;
	unsigned long set;		/* parameters given a value */
	unsigned long drop;		/* parameters given back to the device */
	u32 val[RCC_NR_PARAMS];
	u64 pin_bps;			/* with @pin */
	bool pin, unpin, clear;
};

/* Serialises the commands (each reads, then replaces, a QP's own values). */
static DEFINE_MUTEX(rcc_control_mutex);

static int rcc_control_token(struct rcc_control_cmd *cmd, char *tok)
{
	char *eq = strchr(tok, '=');
	u32 mbps;
	int id;

	if (!eq) {
		if (!strcmp(tok, "unpin"))
			cmd->unpin = true;
		else if (!strcmp(tok, "clear"))
			cmd->clear = true;
		else
			return -EINVAL;
		return 0;
	}
	*eq++ = '\0';
	if (!strcmp(tok, "pin_mbps")) {
		if (rcc_parse_u32(eq, &mbps) || mbps < 1 ||
		    mbps > RCC_PIN_MAX_MBPS)
			return -EINVAL;
		cmd->pin = true;
		cmd->pin_bps = (u64)mbps * RCC_BPS_PER_MBPS;
		return 0;
	}
	id = rcc_param_lookup(tok);
	if (id < 0)
		return -EINVAL;
	if (!strcmp(eq, "device")) {
		cmd->drop |= BIT(id);
		cmd->set &= ~BIT(id);
		return 0;
	}
	if (rcc_param_parse(id, eq, &cmd->val[id]))
		return -EINVAL;
	cmd->set |= BIT(id);
	cmd->drop &= ~BIT(id);
	return 0;
}

/*
 * "QPN WORD..." with at least one word, words apart by blanks, at most one
 * newline at the end (as echo writes); @buf is NUL-terminated, modified.
 */
static int rcc_control_parse(struct rcc_control_cmd *cmd, char *buf)
{
	size_t n = strlen(buf);
	int words = 0, err;
	char *s = buf, *tok;

	memset(cmd, 0, sizeof(*cmd));
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	if (strpbrk(buf, "\n\r\v\f"))
		return -EINVAL;
	tok = strsep(&s, " \t");
	if (!tok || rcc_parse_u32(tok, &cmd->qpn))
		return -EINVAL;
	while ((tok = strsep(&s, " \t"))) {
		if (!*tok)
			continue;	/* runs of blanks */
		err = rcc_control_token(cmd, tok);
		if (err)
			return err;
		words++;
	}
	if (!words || (cmd->pin && cmd->unpin))
		return -EINVAL;
	return 0;
}

/* @f's own values and pin now; false once @f is being destroyed. */
static bool rcc_control_own(struct rcc_flow *f, struct rcc_flow_own *own)
{
	unsigned long flags;
	bool alive;

	spin_lock_irqsave(&f->lock, flags);
	alive = !f->dead;
	if (f->own)
		*own = *f->own;
	else
		memset(own, 0, sizeof(*own));
	spin_unlock_irqrestore(&f->lock, flags);
	return alive;
}

static int rcc_control_apply(struct rcc_dev *d, const struct rcc_control_cmd *cmd)
{
	struct rcc_flow_own *own;
	struct rcc_flow *f;
	int id, err = 0;

	/* allocated first: on -ENOMEM nothing changes */
	own = kzalloc(sizeof(*own), GFP_KERNEL);
	if (!own)
		return -ENOMEM;
	mutex_lock(&rcc_control_mutex);
	/* flows_lock keeps @f from being destroyed meanwhile */
	mutex_lock(&d->flows_lock);
	f = xa_load(&d->flows, cmd->qpn);
	if (!f || !rcc_control_own(f, own)) {
		err = -ENOENT;
		goto out;
	}
	if (cmd->clear)
		memset(own, 0, sizeof(*own));
	own->mask &= ~cmd->drop;
	for (id = 0; id < RCC_NR_PARAMS; id++)
		if (cmd->set & BIT(id))
			own->val[id] = cmd->val[id];
	own->mask |= cmd->set;
	if (cmd->unpin)
		own->pinned_bps = 0;
	if (cmd->pin)
		own->pinned_bps = cmd->pin_bps;
	if (!own->mask && !own->pinned_bps) {
		kfree(own);	/* nothing of its own: no memory either */
		own = NULL;
	}
	own = rcc_flow_set_own(f, own);
out:
	mutex_unlock(&d->flows_lock);
	mutex_unlock(&rcc_control_mutex);
	kfree(own);
	return err;
}

/*
 * One command of @count bytes at @buf (NUL-terminated after them; the
 * bytes are modified) for device @d: 0, or -EINVAL / -ENOENT with nothing
 * changed.  What a write of qp_control does; KUnit calls it directly.
 */
int rcc_control_command(struct rcc_dev *d, char *buf, size_t count)
{
	struct rcc_control_cmd cmd;
	int err;

	/* "5\0junk" must not be taken for "5" */
	if (!count || count > RCC_CONTROL_MAX || memchr(buf, '\0', count))
		return -EINVAL;
	err = rcc_control_parse(&cmd, buf);
	if (err)
		return err;
	return rcc_control_apply(d, &cmd);
}

static ssize_t rcc_control_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	char *buf;
	int err;

	if (!count || count > RCC_CONTROL_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	err = rcc_control_command(m->private, buf, count);
	kfree(buf);
	return err ? err : count;
}

static int rcc_control_show(struct seq_file *m, void *unused)
{
	struct rcc_dev *d = m->private;
	struct rcc_flow_own own;
	struct rcc_flow *f;
	unsigned long qpn;
	int id;

	mutex_lock(&d->flows_lock);
	xa_for_each(&d->flows, qpn, f) {
		if (!rcc_control_own(f, &own) || (!own.mask && !own.pinned_bps))
			continue;
		seq_printf(m, "%lu", qpn);
		if (own.pinned_bps)
			seq_printf(m, " pin_mbps=%llu",
				   div_u64(own.pinned_bps, RCC_BPS_PER_MBPS));
		for (id = 0; id < RCC_NR_PARAMS; id++)
			if (own.mask & BIT(id))
				seq_printf(m, " %s=%u", rcc_param_descs[id].name,
					   own.val[id]);
		seq_putc(m, '\n');
		cond_resched();
	}
	mutex_unlock(&d->flows_lock);
	return 0;
}

static int rcc_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, rcc_control_show, inode->i_private);
}

static const struct file_operations rcc_control_fops = {
	.owner = THIS_MODULE,
	.open = rcc_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = rcc_control_write,
	.release = single_release,
};

/* <device>/qp_control; removed with the device's directory. */
void rcc_control_add_dev(struct rcc_dev *d)
{
	debugfs_create_file("qp_control", 0600, d->dbg, d, &rcc_control_fops);
}

/* qp_snapshot() of rdma_cc_cc_ops: see rdma_cc_hook.h. */
void rcc_flow_snapshot(void *priv, struct rdma_cc_qp_snapshot *snap)
{
	struct rcc_flow_state st;

	if (!rcc_flow_state(priv, &st))
		return;		/* being destroyed: the zeroes it was given */
	snap->line_rate_bps = st.line_rate_bps;
	snap->congested = st.core.congested;
	snap->current_bps = st.core.congested ? st.core.current_bps :
						st.line_rate_bps;
	snap->target_bps = st.core.congested ? st.core.target_bps :
					       st.line_rate_bps;
	snap->pinned_bps = st.pinned_bps;
	snap->episodes = st.cnt.episodes;
	snap->cnps = st.cnt.cnps;
	snap->estimate_ppm = ((u64)st.core.estimate * 1000000) >> RCC_EST_SHIFT;
	snap->params_own = st.own_mask != 0;
}
