/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PACE_SHIM_MATH64_H
#define PACE_SHIM_MATH64_H
#include <linux/types.h>
#include "portable.h"		/* div64_u64, as the rate-control core has it */
#endif
