/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PACE_SHIM_TIME64_H
#define PACE_SHIM_TIME64_H
#define NSEC_PER_SEC 1000000000L
#define NSEC_PER_USEC 1000L
#endif
