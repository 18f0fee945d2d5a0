/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel headers rxe_pace_calc.h includes, for user space: only what
 * it uses (tools/tests/pace_test.c compiles the header the series adds).
 * The same types as rdma_cc/portable.h, so both can be included.
 */
#ifndef PACE_SHIM_TYPES_H
#define PACE_SHIM_TYPES_H
typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;
#endif
