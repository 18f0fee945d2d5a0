/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic64_t for user space, as rxe_cnp_calc.h uses it: GCC's __atomic
 * builtins with the kernel's names (read, set, cmpxchg).
 */
#ifndef PACE_SHIM_ATOMIC_H
#define PACE_SHIM_ATOMIC_H
#include <linux/types.h>

typedef struct {
	s64 counter;
} atomic64_t;

static inline s64 atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic64_set(atomic64_t *v, s64 i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

/* returns the value before, as the kernel's does */
static inline s64 atomic64_cmpxchg(atomic64_t *v, s64 old, s64 new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, 0,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}
#endif
