#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 31-kunit-6.12.sh - rdma_cc's KUnit suites again, on a UML kernel built
# from linux-source-6.12 (tools/scripts/kunit.sh --kernel 6.12): the same
# lines as 30-kunit.sh, each named "kunit[6.12]/NAME".  UML has no
# PREEMPT_RT, so 6.12-rt is covered by the module builds and the testbed.
KUNIT_KERNEL=6.12 exec bash "$(dirname "$0")/30-kunit.sh"
