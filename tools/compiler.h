/* SPDX-License-Identifier: GPL-2.0 */
/* compiler.h - the kernel's attribute shorthands, for the user-space tools */
#ifndef RDMA_CC_TOOLS_COMPILER_H
#define RDMA_CC_TOOLS_COMPILER_H

#define __noreturn __attribute__((__noreturn__))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))

#endif
