// SPDX-License-Identifier: GPL-2.0
/*
 * fake_driver.c - the KUnit tests' RoCE driver (see fake_driver.h).
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/slab.h>

#include "fake_driver.h"

static atomic_t fake_dev_seq = ATOMIC_INIT(0);

static void fake_set_rate(struct rdma_cc_hook_qp *hqp, u64 rate_bps)
{
	struct fake_qp *fq = container_of(hqp, struct fake_qp, hqp);
	unsigned long flags;

	spin_lock_irqsave(&fq->lock, flags);
	/*
	 * The contract: called with rdma_cc's per-QP lock held (irq-safe:
	 * interrupts are off, but not on PREEMPT_RT, where spinlock_t
	 * sleeps), and only for real changes.
	 */
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && !in_hardirq() &&
	    !irqs_disabled_flags(flags))
		fq->nr_bad++;
	if (rate_bps == fq->rate_bps)
		fq->nr_bad++;
	if (fq->nr_calls < FAKE_RATE_LOG) {
		fq->log[fq->nr_calls].t_ns = ktime_get_ns();
		fq->log[fq->nr_calls].bps = rate_bps;
	}
	fq->nr_calls++;
	fq->rate_bps = rate_bps;
	spin_unlock_irqrestore(&fq->lock, flags);
}

void fake_qp_cnp(struct fake_qp *fq)
{
	unsigned long flags;

	spin_lock_irqsave(&fq->drv_lock, flags);
	rdma_cc_hook_cnp(&fq->hqp);
	spin_unlock_irqrestore(&fq->drv_lock, flags);
}

void fake_qp_tx(struct fake_qp *fq, u32 npkts)
{
	unsigned long flags;

	spin_lock_irqsave(&fq->drv_lock, flags);
	rdma_cc_hook_tx(&fq->hqp, npkts);
	spin_unlock_irqrestore(&fq->drv_lock, flags);
}

static const struct rdma_cc_rp_ops fake_rp_ops = {
	.set_rate = fake_set_rate,
};

int fake_dev_register(struct fake_dev *fd, const char *prefix,
		      u64 line_rate_bps)
{
	int err;

	memset(fd, 0, sizeof(*fd));
	snprintf(fd->hdev.name, sizeof(fd->hdev.name), "%s%d", prefix,
		 atomic_inc_return(&fake_dev_seq));
	fd->hdev.ops = &fake_rp_ops;
	fd->hdev.line_rate_bps = line_rate_bps;
	err = rdma_cc_hook_register_dev(&fd->hdev);
	fd->registered = !err;
	return err;
}

struct fake_dev *fake_dev_new(struct kunit *test, const char *prefix,
			      u64 line_rate_bps)
{
	struct fake_dev *fd;

	fd = kzalloc(sizeof(*fd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fd);
	KUNIT_ASSERT_EQ(test, fake_dev_register(fd, prefix, line_rate_bps), 0);
	return fd;
}

void fake_dev_free(struct fake_dev *fd)
{
	if (!fd)
		return;
	if (fd->registered)
		rdma_cc_hook_unregister_dev(&fd->hdev);
	kfree(fd);
}

int fake_qp_add(struct fake_dev *fd, struct fake_qp *fq, u32 qpn)
{
	memset(fq, 0, sizeof(*fq));
	spin_lock_init(&fq->lock);
	spin_lock_init(&fq->drv_lock);
	fq->hqp.qpn = qpn;
	return rdma_cc_hook_add_qp(&fd->hdev, &fq->hqp);
}

struct fake_qp *fake_qp_new(struct kunit *test, struct fake_dev *fd, u32 qpn)
{
	struct fake_qp *fq;

	fq = kzalloc(sizeof(*fq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fq);
	KUNIT_ASSERT_EQ(test, fake_qp_add(fd, fq, qpn), 0);
	return fq;
}

void fake_qp_free(struct fake_qp *fq)
{
	if (!fq)
		return;
	rdma_cc_hook_del_qp(&fq->hqp);
	synchronize_rcu();
	kfree(fq);
}

bool fake_qp_state(struct fake_qp *fq, struct rcc_flow_state *st)
{
	struct rcc_flow *f;
	bool ok;

	rcu_read_lock();
	f = rcu_dereference(fq->hqp.cc_priv);
	if (f && f->hook.ops != &rcc_cc_ops)
		f = NULL;	/* another congestion control has the QP */
	ok = f && rcc_flow_state(f, st);
	rcu_read_unlock();
	return ok;
}

unsigned int fake_qp_calls(struct fake_qp *fq)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&fq->lock, flags);
	n = fq->nr_calls;
	spin_unlock_irqrestore(&fq->lock, flags);
	return n;
}

u64 fake_qp_rate(struct fake_qp *fq)
{
	unsigned long flags;
	u64 r;

	spin_lock_irqsave(&fq->lock, flags);
	r = fq->rate_bps;
	spin_unlock_irqrestore(&fq->lock, flags);
	return r;
}

ssize_t fake_dev_store(struct fake_dev *fd, enum rcc_param id,
		       const char *val)
{
	struct rcc_dev *d = fd->hdev.cc_priv;

	return rcc_dev_sysfs_ops.store(&d->kobj, rcc_dev_attr(id), val,
				       strlen(val));
}

ssize_t fake_dev_store_buf(struct fake_dev *fd, enum rcc_param id,
			   const char *val, size_t count)
{
	struct rcc_dev *d = fd->hdev.cc_priv;
	ssize_t ret;
	char *buf;

	/* As sysfs passes it: a copy of @count bytes, NUL after them. */
	buf = kmalloc(count + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, val, count);
	buf[count] = '\0';
	ret = rcc_dev_sysfs_ops.store(&d->kobj, rcc_dev_attr(id), buf, count);
	kfree(buf);
	return ret;
}

u32 fake_dev_show(struct fake_dev *fd, enum rcc_param id)
{
	struct rcc_dev *d = fd->hdev.cc_priv;
	char *buf;
	u32 v = U32_MAX;

	buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return v;
	if (rcc_dev_sysfs_ops.show(&d->kobj, rcc_dev_attr(id), buf) > 0 &&
	    kstrtou32(buf, 10, &v))
		v = U32_MAX;
	kfree(buf);
	return v;
}

bool fake_qp_wait_uncongested(struct fake_qp *fq, unsigned int timeout_ms)
{
	struct rcc_flow_state st;
	unsigned long end = jiffies + msecs_to_jiffies(timeout_ms);

	do {
		if (!fake_qp_state(fq, &st) || !st.core.congested)
			return true;
		usleep_range(200, 400);
	} while (time_before(jiffies, end));
	return false;
}

void fake_dev_params(struct fake_dev *fd, struct rcc_params *p)
{
	struct rcc_dev *d = fd->hdev.cc_priv;

	rcu_read_lock();
	*p = rcu_dereference(d->params)->p;
	rcu_read_unlock();
}
