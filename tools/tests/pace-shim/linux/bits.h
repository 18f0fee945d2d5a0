/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PACE_SHIM_BITS_H
#define PACE_SHIM_BITS_H
#define BITS_PER_BYTE 8
#define BIT(nr) (1UL << (nr))
#endif
