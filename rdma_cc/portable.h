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
#include <string.h>

typedef signed char s8;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;

#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

/* (a * mul) >> shift with a 96-bit intermediate, as in linux/math64.h */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((__uint128_t)a * mul) >> shift);
}

/* (a * mul) >> shift with a 128-bit intermediate, as in linux/math64.h */
static inline u64 mul_u64_u64_shr(u64 a, u64 mul, unsigned int shift)
{
	return (u64)(((__uint128_t)a * mul) >> shift);
}

#define min_t(type, x, y) ({ type __x = (x); type __y = (y);	\
			     __x < __y ? __x : __y; })
#define max_t(type, x, y) ({ type __x = (x); type __y = (y);	\
			     __x > __y ? __x : __y; })

#endif /* __KERNEL__ */

#endif /* RDMA_CC_PORTABLE_H */
