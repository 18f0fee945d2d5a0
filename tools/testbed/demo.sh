#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh (make demo) - congestion control acting on real RDMA traffic.
#
# Installs what it needs (deps.sh vm plot), builds rdma_cc.ko,
# rdma_cc_hook.ko and the patched rdma_rxe.ko, boots the testbed (three
# qemu VMs behind an ECN-marking switch namespace, tools/testbed/), runs
# the same 2:1 incast three times -- each sender TB_QPS (8) RC QPs of
# ib_write_bw, and an ib_send_lat latency victim through the same
# bottleneck -- first without congestion control, then with rdma_cc
# loaded in the senders, then with DCQCN (rdma_cc_dcqcn.ko, mlx5's values
# slowed down to the testbed's links), prints each sender's rate, the
# rates set and CNP counts as it goes, and at the end the runs' figures
# side by side and a PNG of them (rates, queue and drops, the victim's
# latency over time).
#
# DEMO_DURATION (s, default 40), DEMO_DCQCN (0: no DCQCN run) and DEMO_OUT
# (the PNG, default $RDMA_CC_CACHE/demo/rdma_cc-demo.png) change what it
# does; the
# testbed's knobs (TB_*) are in Documentation/testbed.rst.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tools/scripts/env.sh"

"$top/tools/scripts/deps.sh" vm plot || rcc_die "installing the packages failed"
make -C "$top" --no-print-directory modules || rcc_die "make modules failed"
make -C "$top" --no-print-directory rxe || rcc_die "make rxe failed"
[ -f "$top/rdma_cc.ko" ] || rcc_die "no rdma_cc.ko after make modules"

TB_RUN=$RDMA_CC_CACHE/demo/run
rm -rf "$TB_RUN"
. "$here/testbed.sh"
. "$here/incast.sh"
out=${DEMO_OUT:-$RDMA_CC_CACHE/demo/rdma_cc-demo.png}
mkdir -p "$(dirname "$out")"

trap tb_down EXIT
trap 'exit 130' INT TERM

tb_rxe_needs_hook ||
	rcc_log "warning: rdma_rxe.ko is not the patched one: rdma_cc cannot act"
tb_up || rcc_die "the testbed did not come up (logs in $TB_RUN)"
tb_incast_again without 0 "${DEMO_DURATION:-40}" ||
	rcc_die "the incast without rdma_cc failed (logs in $TB_RUN/without)"
tb_incast_again with 1 "${DEMO_DURATION:-40}" ||
	rcc_die "the incast with rdma_cc failed (logs in $TB_RUN/with)"
runs=(without with)
if [ "${DEMO_DCQCN:-1}" = 1 ] && [ -f "$TB_DCQCN_KO" ]; then
	# the same incast under DCQCN: rdma_cc out, rdma_cc_dcqcn in, the
	# device switched to it by one write (tb_cc_load, TB_CC_ALGO)
	tb_cc_unload_senders
	TB_CC_KO=$TB_DCQCN_KO TB_CC_PARAMS=$TB_DCQCN_PARAMS TB_CC_ALGO=dcqcn \
		tb_incast_again dcqcn 1 "${DEMO_DURATION:-40}" ||
		rcc_die "the incast with DCQCN failed (logs in $TB_RUN/dcqcn)"
	runs+=(dcqcn)
fi

echo
tb_table "${runs[@]}"
"$here/plot" "$out" \
	"rdma_cc demo: 2:1 incast, $TB_QPS QPs of ib_write_bw per sender and an ib_send_lat victim, through a ${TB_BOTTLENECK_MBIT} Mbit/s bottleneck with a $((TB_BUFFER_BYTES / 1024)) KB buffer" \
	"${runs[@]/#/$TB_RUN/}" ||
	rcc_die "plotting failed"
echo
echo "plot: $out"
echo "run data: ${runs[*]/#/$TB_RUN/}"
