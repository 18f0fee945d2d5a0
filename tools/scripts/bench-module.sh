#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-module.sh - what rdma_cc.ko costs, measured in a 1-vCPU qemu VM
# (TCG; by default with -icount shift=0, so the guest's clock counts guest
# instructions at 1 ns each and the figures do not depend on the host's
# load).  Builds rdma_cc (make modules) and tools/bench/rcc_bench.ko, boots
# the VM once (tb_vm_job, tools/testbed/vm.sh) and runs tools/bench/guest-measure.sh in
# it, then prints:
#
#  1. per-QP memory: sizeof(struct rcc_flow), the slab cache it comes
#     from, and every slab cache that grew when rdma_cc took on RB_MEM_QPS
#     QPs, per QP;
#  2. CPU time per congested QP-second at the default 45 us interval (the
#     loop runs 44,444 times a second), against a bare hrtimer firing every
#     22.5 us, both minus the idle VM's; rdma_cc's net of the CNP injector
#     that keeps the QPs congested (measured alone) and gross;
#  3. how many congested QPs (and bare timers) one vCPU keeps on time: the
#     largest N whose late runs (more than half an interval, 22.5 us, after
#     their time) stay under RB_LATE_PCT % of runs.
#
# Settings (environment): RB_ICOUNT (0; "off" = plain TCG, host time),
# RB_WINDOW_S (2), RB_SETTLE_S (0.5), RB_MEM_QPS (4096), RB_NS (the sweep),
# RB_COST_NS (the N at which CPU time is compared), RB_ALIGNED_NS (the N
# compared with all grids at one instant), RB_LATE_PCT (1),
# RB_REFINE (bisection steps, 3), RB_OUT (where the raw lines are kept),
# RB_CC_PATCH (a patch to rdma_cc's sources: measure that variant, built
# in the cache, instead of the tree's rdma_cc.ko; with RB_CC_REVERSE=1 the
# patch is taken out instead), RB_BENCH_ARGS (rcc_bench parameters for the
# cc and inject windows: tx_ns=5000 adds a driver's packet reports),
# RB_REPORT_ONLY=1 (no
# VM: print the figures of the raw lines already in RB_OUT).
set -eu
. "$(dirname "$0")/env.sh"
. "$(dirname "$0")/../testbed/image.sh"
. "$(dirname "$0")/../testbed/vm.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

out=${RB_OUT:-$RDMA_CC_CACHE/bench/run}
label="rdma_cc as in the tree"
if [ -n "${RB_CC_PATCH:-}" ]; then
	label="rdma_cc with ${RB_CC_PATCH##*/}"
	[ -n "${RB_CC_REVERSE:-}" ] && label="rdma_cc without ${RB_CC_PATCH##*/}"
fi
[ -n "${RB_REPORT_ONLY:-}" ] || {
bash "$top/tools/scripts/deps.sh" vm >/dev/null
ko=$("$top/tools/bench/build.sh")
mkdir -p "$out"
moddir=$top
if [ -n "${RB_CC_PATCH:-}" ]; then
	# A variant of rdma_cc: the tree's sources with the patch applied,
	# built in the cache (the tree is not touched).
	patch=$(readlink -f "$RB_CC_PATCH")
	moddir=$RDMA_CC_CACHE/bench/variant
	rm -rf "$moddir"
	mkdir -p "$moddir/rdma_cc"
	cp "$top/Kbuild" "$moddir/"
	cp "$top"/rdma_cc/*.[ch] "$moddir/rdma_cc/"
	patch -s -d "$moddir" -p1 ${RB_CC_REVERSE:+-R} <"$patch" ||
		rcc_die "$RB_CC_PATCH does not apply${RB_CC_REVERSE:+ in reverse}"
	make -s -C "$(rcc_kdir)" M="$moddir" W=1 -j"${RCC_JOBS:-2}" modules >&2 ||
		rcc_die "building rdma_cc with $RB_CC_PATCH failed"
fi
cat >"$out/params.sh" <<EOF
RB_BENCH_KO=$ko
RB_MODDIR=$moddir
RB_MEM_QPS=${RB_MEM_QPS:-4096}
RB_WINDOW_S=${RB_WINDOW_S:-2}
RB_SETTLE_S=${RB_SETTLE_S:-0.5}
RB_NS="${RB_NS:-1 2 4 8 16 32 64 128 256 512 1024}"
RB_COST_NS="${RB_COST_NS:-1 4 8}"
RB_LATE_PCT=${RB_LATE_PCT:-1}
RB_REFINE=${RB_REFINE:-3}
RB_ALIGNED_NS="${RB_ALIGNED_NS:-8 16}"
RB_BENCH_ARGS="${RB_BENCH_ARGS:-}"
EOF
rcc_log "bench: booting the VM (icount ${RB_ICOUNT:-0}); raw lines in $out/out"
start=$(date +%s)
tb_vm_job "$top/tools/bench/guest-measure.sh" "$out" ||
	rcc_die "the benchmark VM failed (exit $?); see $out/out and $out/console.log"
rcc_log "bench: VM done in $(($(date +%s) - start)) s"
}
grep -q '^capacity kind=cc' "$out/out" ||
	rcc_die "incomplete measurement; see $out/out"

echo "rdma_cc module cost: $label (1 vCPU qemu TCG VM, icount ${RB_ICOUNT:-0}; raw: $out/out)"
awk -v late_pct="${RB_LATE_PCT:-1}" -v costns="${RB_COST_NS:-1 4 8}" \
	-v alignedns="${RB_ALIGNED_NS:-8 16}" '
function kv(    i, a) {
	delete v
	for (i = 2; i <= NF; i++) {
		split($i, a, "=")
		v[a[1]] = a[2]
	}
}
$1 == "size" { kv(); flow = v["rcc_flow"]
	printf "memory per QP:\n"
	printf "  sizeof(struct rcc_flow) = %d bytes (rcc_qp %d, hrtimer %d), from its own kmem_cache (rcc_flow)\n",
	       flow, v["rcc_qp"], v["hrtimer"] }
$1 == "mem" { kv(); mn = v["n"]; slabkb = v["slab_kb_delta"]; att = v["qps_attached"] }
$1 == "slab" { nslab++; sname[nslab] = $2; ssize[nslab] = $3; sd[nslab] = $4 }
$1 == "cpu" {
	kv()
	k = v["kind"]; n = v["n"]
	frac = v["busy_ns"] / v["window_ns"]
	if (k == "idle") { idle_sum += frac; idle_cnt++; next }
	busy[k, n] = frac
	if (k != "inject") {
		rate[k, n] = v["runs"] / (v["window_ns"] / 1e9) / n
		late[k, n] = v["runs"] ? 100 * v["late"] / v["runs"] : 0
		ns_[k] = ns_[k] " " n
	}
	if (k == "cc") {
		ended[n] = v["episodes_ended"]; epis[n] = v["episodes"]
		cong[n] = v["qps_congested"]
	}
}
$1 == "capacity" { kv(); cap[v["kind"]] = v["sustained"]; first[v["kind"]] = v["first_late"] }
END {
	total = 0
	for (i = 1; i <= nslab; i++) {
		per = sd[i] * ssize[i] / mn
		total += per
		printf "  %-24s %5d-byte objects: +%d for %d QPs = %.1f bytes/QP\n",
		       sname[i], ssize[i], sd[i], mn, per
	}
	printf "  total from those caches: %.0f bytes/QP; /proc/meminfo Slab: +%d kB = %.0f bytes/QP (%d QPs attached)\n",
	       total, slabkb, slabkb * 1024 / mn, att
	b0 = idle_cnt ? idle_sum / idle_cnt : 0
	printf "CPU time per QP-second (idle VM busy %.2f%%, subtracted):\n", 100 * b0
	printf "  %6s %14s %14s %14s %8s %8s\n", "N", "bare us/s", "cc gross us/s", "cc net us/s", "net/bare", "runs/s/QP"
	nc = split(costns, cl, " ")
	for (j = 1; j <= nc; j++) {
		n = cl[j]
		if (!(("bare" SUBSEP n) in busy) || !(("cc" SUBSEP n) in busy) ||
		    !(("inject" SUBSEP n) in busy))
			continue
		bare = (busy["bare", n] - b0) / n * 1e6
		gross = (busy["cc", n] - b0) / n * 1e6
		net = (busy["cc", n] - busy["inject", n]) / n * 1e6
		printf "  %6d %14.0f %14.0f %14.0f %8.2f %8.0f\n", n, bare, gross, net,
		       (bare > 0 ? net / bare : 0), rate["cc", n]
	}
	printf "  aligned (all grids at one instant: one interrupt serves them all):\n"
	na = split(alignedns, al, " ")
	for (j = 1; j <= na; j++) {
		n = al[j]
		if (!(("bare-aligned" SUBSEP n) in busy) ||
		    !(("cc-aligned" SUBSEP n) in busy) ||
		    !(("inject-aligned" SUBSEP n) in busy))
			continue
		bare = (busy["bare-aligned", n] - b0) / n * 1e6
		gross = (busy["cc-aligned", n] - b0) / n * 1e6
		net = (busy["cc-aligned", n] - busy["inject-aligned", n]) / n * 1e6
		printf "  %6d %14.0f %14.0f %14.0f %8.2f %8.0f\n", n, bare, gross, net,
		       (bare > 0 ? net / bare : 0), rate["cc-aligned", n]
	}
	printf "lateness sweep (late = more than 22.5 us after its time; %% of runs):\n"
	for (kk = 1; kk <= 2; kk++) {
		k = kk == 1 ? "bare" : "cc"
		printf "  %-4s", k
		m = split(ns_[k], nl, " ")
		for (j = 1; j <= m; j++)
			printf " N=%d:%.1f%%(busy %.0f%%)", nl[j], late[k, nl[j]], 100 * busy[k, nl[j]]
		printf "\n"
	}
	for (n in ended)
		if (ended[n] || epis[n] || cong[n] != n)
			printf "  warning: at N=%d, %d episodes ended, %d started, %d congested at the end\n",
			       n, ended[n], epis[n], cong[n]
	printf "QPs one vCPU keeps on time (late runs < %d%%):\n", late_pct
	printf "  bare hrtimers: %d (first late: %d)\n", cap["bare"], first["bare"]
	printf "  rdma_cc congested QPs, with a CNP per QP per interval: %d (first late: %d)\n", cap["cc"], first["cc"]
}' "$out/out"
grep '^dmesg ' "$out/out" | sort -u | sed 's/^dmesg /kernel log: /' || true
