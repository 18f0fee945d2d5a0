/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_driver.h - a RoCE "driver" for the KUnit tests: devices and QPs
 * registered with rdma_cc_hook exactly as a real driver does, whose
 * set_rate() callback records every rate it is told, with the time.
 */
#ifndef RDMA_CC_FAKE_DRIVER_H
#define RDMA_CC_FAKE_DRIVER_H

#include <kunit/test.h>
#include <linux/spinlock.h>

#include "rdma_cc.h"
#include "rdma_cc_hook.h"

#define FAKE_RATE_LOG 256

struct fake_rate {
	u64 t_ns;
	u64 bps;
};

struct fake_qp {
	struct rdma_cc_hook_qp hqp;
	spinlock_t lock;		/* protects the log; a leaf lock */
	spinlock_t drv_lock;		/* "the driver's QP lock": see fake_qp_cnp() */
	unsigned int nr_calls;		/* set_rate calls, also past the log */
	unsigned int nr_bad;		/* calls outside [floor, R] or in a wrong context */
	u64 rate_bps;			/* the last rate told, 0 = line rate */
	struct fake_rate log[FAKE_RATE_LOG];
};

struct fake_dev {
	struct rdma_cc_hook_dev hdev;
	bool registered;
};

/*
 * A device named "<prefix><n>", registered with the hook: in place (for
 * threads, which must not use KUnit assertions), or allocated.
 */
int fake_dev_register(struct fake_dev *fd, const char *prefix,
		      u64 line_rate_bps);
struct fake_dev *fake_dev_new(struct kunit *test, const char *prefix,
			      u64 line_rate_bps);
void fake_dev_free(struct fake_dev *fd);
/* @fq (any contents) becomes QP @qpn of @fd; rdma_cc_hook_del_qp() undoes it. */
int fake_qp_add(struct fake_dev *fd, struct fake_qp *fq, u32 qpn);
struct fake_qp *fake_qp_new(struct kunit *test, struct fake_dev *fd, u32 qpn);
void fake_qp_free(struct fake_qp *fq);

/*
 * A CNP / packets for @fq with the driver's own QP lock held, as a driver
 * that calls the hook under its QP lock would: lockdep then sees the lock
 * order driver lock -> rdma_cc's QP lock -> set_rate()'s leaf lock.
 */
void fake_qp_cnp(struct fake_qp *fq);
void fake_qp_tx(struct fake_qp *fq, u32 npkts);

/*
 * Tests that call the hook with interrupts off, as a hard-irq handler
 * would, cannot run on PREEMPT_RT: there the hook may not be called with
 * interrupts off (its spinlock_t sleeps), and drivers' handlers are
 * threads.  Such a test skips itself there; threads that would turn
 * interrupts off keep them on (fake_irqs_off()).
 */
#define FAKE_SKIP_ON_RT(test)						\
	do {								\
		if (IS_ENABLED(CONFIG_PREEMPT_RT))			\
			kunit_skip(test, "needs interrupts off around " \
				   "the hook: not on PREEMPT_RT");	\
	} while (0)

static inline bool fake_irqs_off(bool want)
{
	return want && !IS_ENABLED(CONFIG_PREEMPT_RT);
}

/* rdma_cc's state of a QP; false when rdma_cc has not attached it. */
bool fake_qp_state(struct fake_qp *fq, struct rcc_flow_state *st);
unsigned int fake_qp_calls(struct fake_qp *fq);
u64 fake_qp_rate(struct fake_qp *fq);

/* Write @val to the device's sysfs file @id through the real store. */
ssize_t fake_dev_store(struct fake_dev *fd, enum rcc_param id,
		       const char *val);
/* The same for @count bytes at @val, which may hold NULs. */
ssize_t fake_dev_store_buf(struct fake_dev *fd, enum rcc_param id,
			   const char *val, size_t count);
/* Read the device's sysfs file @id through the real show. */
u32 fake_dev_show(struct fake_dev *fd, enum rcc_param id);

/* The parameters @fd's runs use now. */
void fake_dev_params(struct fake_dev *fd, struct rcc_params *p);

/* Wait until @fq is not congested (or @timeout_ms passed). */
bool fake_qp_wait_uncongested(struct fake_qp *fq, unsigned int timeout_ms);

/* kunit/hostile-writes.txt, NUL-terminated: params_test.c builds it in. */
extern const char rcc_kunit_hostile_txt[];

#endif /* RDMA_CC_FAKE_DRIVER_H */
