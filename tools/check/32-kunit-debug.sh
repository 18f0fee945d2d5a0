#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 32-kunit-debug.sh - rdma_cc's KUnit suites again, on make kunit-debug's
# UML kernel (tools/scripts/kunit.sh --debug: KASAN, PROVE_LOCKING, debug
# objects for timers, hrtimers, frees and RCU heads, UBSAN).  The same
# lines as 30-kunit.sh: one per case and per parameter, one for the kernel
# log, which must hold no KASAN, UBSAN, lockdep, debug-objects, BUG or
# WARNING report, and one for the hostile-writes table.
KUNIT_DEBUG=1 exec bash "$(dirname "$0")/30-kunit.sh"
