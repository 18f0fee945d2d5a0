#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-scale.sh (make bench-scale) - what 1,000, 10,000 and 100,000 QPs
# cost rdma_cc, in a 1-vCPU qemu VM (tb_vm_job, tools/testbed/vm.sh): TCG
# with -icount shift=0, so a busy microsecond is 1,000 guest instructions,
# and RB_ICOUNT_SLEEP=on, so that a wait for the host inside a timed step
# costs its real time instead of jumping the clock to the next timer;
# booted with slub_nomerge, so rdma_cc's slab cache is its own line.
# Builds rdma_cc (make modules) and tools/bench/rcc_bench.ko, runs
# tools/bench/guest-scale.sh in the VM and prints its lines, one per N:
#
#   bench-scale: qps=N bytes_per_qp=B create_us=C destroy_us=D table_read_ms=M
#
# then the slab caches behind B, and the time to load and unload rdma_cc
# with RS_LOAD_QPS QPs attached.
#
# Settings (environment): RS_NS ("1000 10000 100000"), RS_LOAD_QPS
# (100000), RS_MODDIR (a directory holding another build of rdma_cc.ko to
# measure instead of the tree's, e.g. an older commit's: see
# Documentation/performance.rst), RB_ICOUNT, RB_OUT (where the raw lines
# are kept; default $RDMA_CC_CACHE/bench/scale).
set -eu
. "$(dirname "$0")/env.sh"
. "$(dirname "$0")/../testbed/image.sh"
. "$(dirname "$0")/../testbed/vm.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

out=${RB_OUT:-$RDMA_CC_CACHE/bench/scale}
bash "$top/tools/scripts/deps.sh" vm >/dev/null
ko=$("$top/tools/bench/build.sh")
mkdir -p "$out"
cat >"$out/params.sh" <<EOP
RB_BENCH_KO=$ko
RB_TOP=$top
RB_MODDIR=${RS_MODDIR:-$top}
RS_NS="${RS_NS:-1000 10000 100000}"
RS_LOAD_QPS=${RS_LOAD_QPS:-100000}
EOP
rcc_log "bench-scale: booting the VM (icount ${RB_ICOUNT:-0}); raw lines in $out/out"
start=$(date +%s)
RB_ICOUNT_SLEEP=${RB_ICOUNT_SLEEP:-on} RB_MEM_MB=${RB_MEM_MB:-1024} \
	RB_APPEND="slub_nomerge ${RB_APPEND:-}" \
	tb_vm_job "$top/tools/bench/guest-scale.sh" "$out" ||
	rcc_die "the benchmark VM failed (exit $?); see $out/out and $out/console.log"
rcc_log "bench-scale: VM done in $(($(date +%s) - start)) s"
grep -q '^bench-scale-load:' "$out/out" ||
	rcc_die "incomplete measurement; see $out/out"
grep -E '^(bench-scale|warning|error)' "$out/out"
grep '^dmesg ' "$out/out" | sort -u | sed 's/^dmesg /kernel log: /' || true
