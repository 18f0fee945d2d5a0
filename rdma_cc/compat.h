/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernels rdma_cc builds against
 * (Debian 12's 6.1 and 6.12 LTS, generic and PREEMPT_RT), in one place.
 * The rest of the code uses the names defined here and no version test.
 */
#ifndef RDMA_CC_COMPAT_H
#define RDMA_CC_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/version.h>

/*
 * rcc_assign_str(dst, src): TP_fast_assign's copy of a __string() field.
 * Since 6.10 __assign_str() takes the field alone: the source is the one
 * given to __string().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define rcc_assign_str(dst, src) __assign_str(dst)
#else
#define rcc_assign_str(dst, src) __assign_str(dst, src)
#endif

/*
 * rcc_hrtimer_setup(): hrtimer_init() and the callback in one call, as
 * hrtimer_setup() does since 6.13 (which deprecates hrtimer_init()).
 */
static inline void rcc_hrtimer_setup(struct hrtimer *timer,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock_id, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = fn;
#endif
}

#endif /* RDMA_CC_COMPAT_H */
