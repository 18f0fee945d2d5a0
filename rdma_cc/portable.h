/* SPDX-License-Identifier: GPL-2.0 */
/*
 * portable.h - the few kernel types and helpers the rate-control core uses,
 * so that the same source compiles into rdma_cc.ko, KUnit and user space.
 */
#ifndef RDMA_CC_PORTABLE_H
#define RDMA_CC_PORTABLE_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/string.h>

#else /* user space */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* (a * mul) >> shift with a 96-bit intermediate, as in linux/math64.h */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

#define min_t(type, x, y) ((type)(x) < (type)(y) ? (type)(x) : (type)(y))
#define max_t(type, x, y) ((type)(x) > (type)(y) ? (type)(x) : (type)(y))

#endif /* __KERNEL__ */

#endif /* RDMA_CC_PORTABLE_H */
