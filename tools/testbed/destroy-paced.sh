#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# destroy-paced.sh - QPs destroyed with their pacing timers armed, on a
# testbed of its own: the cycle of the e2e and debug-VM suites
# (tb_destroy_paced in incast.sh), to run alone or on another kernel.
#
#   tools/testbed/destroy-paced.sh CYCLES
#
# Boots the receiver and one sender (KVER picks the kernel, as for
# make demo), loads rdma_cc in the sender with the testbed's parameters
# (it paces every QP at R, below rxe0's link), runs CYCLES destroy cycles
# there and prints their summary ("cycles=N armed_cycles=N armed_timers=N
# left=N warnings=N") and any kernel warning of the cycles.  Exits 0 if
# no pacing timer was left armed and the kernel logged no warning.  The
# run's files are in $RDMA_CC_CACHE/destroy-paced/.  For example:
#
#   KVER=6.12-rt tools/testbed/destroy-paced.sh 30
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tools/scripts/env.sh"

[ $# = 1 ] && [[ $1 =~ ^[1-9][0-9]{0,3}$ ]] ||
	rcc_die "usage: destroy-paced.sh CYCLES (1 to 9999)"
cycles=$1
"$top/tools/scripts/deps.sh" vm || rcc_die "installing the packages failed"
# the modules for KVER's kernel, as the e2e suite builds them
rcc_for_kver "$0" "$@"
make -C "$top" --no-print-directory modules || rcc_die "make modules failed"
make -C "$top" --no-print-directory rxe || rcc_die "make rxe failed"

TB_SENDERS=1
TB_RUN=$RDMA_CC_CACHE/destroy-paced
rm -rf "$TB_RUN"
. "$here/testbed.sh"
. "$here/incast.sh"
trap tb_down EXIT
trap 'exit 130' INT TERM
tb_up || rcc_die "the testbed did not come up (logs in $TB_RUN)"
TB_CC_ALGO=rdma_cc tb_cc_load s1 >/dev/null || rcc_die "rdma_cc does not load in s1"
out=$(tb_destroy_paced s1 "$cycles")
echo "$out"
sum=$(echo "$out" | grep '^cycles=')
if [ "$(tb_kv warnings "$sum")" != 0 ]; then
	tb_vm_run s1 30 <<<'dmesg | grep -E -A12 "WARNING|BUG" | head -n 60'
fi
[ -n "$sum" ] && [ "$(tb_kv left "$sum")" = 0 ] && [ "$(tb_kv warnings "$sum")" = 0 ]
