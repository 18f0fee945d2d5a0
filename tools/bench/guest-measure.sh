#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-measure.sh DIR - the measurements, run inside a job VM by tb_vm_job
# (tools/testbed/vm.sh; DIR is the share with the host; DIR/params.sh sets
# RB_BENCH_KO, RB_MEM_QPS, RB_WINDOW_S, RB_SETTLE_S, RB_NS, RB_LATE_PCT,
# RB_REFINE, RB_COST_NS, RB_ALIGNED_NS, RB_MODDIR, and RB_BENCH_ARGS: more
# rcc_bench parameters for the cc and inject windows, e.g. tx_ns=5000).
# rdma_cc.ko and rdma_cc_hook.ko are taken from $RB_MODDIR, by default
# $RB_TOP (the repository's root).  Prints one line per measurement:
#
#   size KEY=VALUE...          sizeof of rdma_cc's per-QP structures
#   slab NAME OBJSIZE DACTIVE DNUM   a slab cache that grew by >= N/4
#                              objects when rdma_cc took on N QPs
#   mem KEY=VALUE...           the totals of that attach
#   cpu kind=K n=N KEY=VALUE...  one window: K is idle (nothing armed),
#                              bare (N plain hrtimers every 22.5 us),
#                              inject (the CNP injector for N QPs, rdma_cc
#                              not loaded) or cc (N congested QPs under
#                              rdma_cc, with the injector)
#
# The host (tools/scripts/bench-module.sh) turns them into figures.
set -u
dir=$1
# shellcheck source=/dev/null
. "$dir/params.sh"
hook=${RB_MODDIR:-$RB_TOP}/rdma_cc_hook.ko
cc=${RB_MODDIR:-$RB_TOP}/rdma_cc.ko
bench=$RB_BENCH_KO
stats=/sys/kernel/debug/rcc_bench/stats
summary=/sys/kernel/debug/rdma_cc/rcc_bench/summary

die() { echo "error: $*"; exit 1; }
# key FILE KEY: the value of "KEY: value" in FILE.
key() { awk -v k="$2:" '$1 == k { print $2; exit }' "$1"; }

insmod "$hook" || die "insmod rdma_cc_hook.ko failed"

# --- memory: slab caches before and after rdma_cc takes on N QPs --------
slabs() { awk 'NR > 2 { print $1, $2, $3, $4 }' /proc/slabinfo; }
meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
n=$RB_MEM_QPS
insmod "$bench" mode=attach nr_qps="$n" || die "insmod rcc_bench attach"
sync
echo 3 >/proc/sys/vm/drop_caches
slabs >/tmp/slab0
s0=$(meminfo_kb Slab)
insmod "$cc" || die "insmod rdma_cc.ko failed"
slabs >/tmp/slab1
s1=$(meminfo_kb Slab)
cp "$stats" /tmp/stats
echo "size rcc_flow=$(key /tmp/stats rcc_flow_bytes)" \
	"rcc_qp=$(key /tmp/stats rcc_qp_bytes)" \
	"hrtimer=$(key /tmp/stats hrtimer_bytes)" \
	"rcc_dev=$(key /tmp/stats rcc_dev_bytes)"
echo "mem n=$n qps_attached=$(key "$summary" qps) slab_kb_delta=$((s1 - s0))"
# (a cache rdma_cc creates, as its rcc_flow, starts from nothing)
awk -v n="$n" 'NR == FNR { a[$1] = $2; num[$1] = $3; next }
	$2 - a[$1] >= n / 4 {
		print "slab", $1, $4, $2 - a[$1], $3 - num[$1]
	}' /tmp/slab0 /tmp/slab1
rmmod rdma_cc || die "rmmod rdma_cc"
rmmod rcc_bench || die "rmmod rcc_bench"

# --- CPU time and lateness ------------------------------------------------
# window KIND N [spread=0]: load rcc_bench, settle, measure one window,
# unload; print a cpu line (kind KIND-aligned with spread=0: every QP's or
# timer's grid at one instant, so one interrupt serves them all); sets
# LATE_PCT (late runs, % of runs).
window() {
	local kind=$1 n=$2 mode
	shift 2
	case $kind in
	idle) mode=attach ;;
	bare) mode=bare ;;
	*) mode=cc ;;
	esac
	if [ "$kind" = cc ]; then
		insmod "$cc" || die "insmod rdma_cc.ko"
	fi
	local extra=()
	[ "$mode" = cc ] && read -ra extra <<<"${RB_BENCH_ARGS:-}"
	insmod "$bench" mode="$mode" nr_qps="$n" "${extra[@]}" "$@" ||
		die "insmod rcc_bench mode=$mode nr_qps=$n"
	sleep "$RB_SETTLE_S"
	# the end snapshot reads rcc_bench's stats first, the start one last,
	# so that reading rdma_cc's summary is outside the window
	# One cat per end of the window: rdma_cc's summary right before
	# rcc_bench's stats at the start and right after them at the end.
	sums=()
	[ -e "$summary" ] && sums=("$summary")
	cat "${sums[@]}" "$stats" >/tmp/w0
	sleep "$RB_WINDOW_S"
	cat "$stats" "${sums[@]}" >/tmp/w1
	rmmod rcc_bench || die "rmmod rcc_bench"
	if [ "$kind" = cc ]; then
		rmmod rdma_cc || die "rmmod rdma_cc"
	fi
	awk -v kind="$kind" -v n="$n" -v label="$kind${*:+-aligned}" '
	FILENAME ~ /w0$/ { c0[$1] = $2; next }
	{ c1[$1] = $2 }
	END {
		win = c1["now_ns:"] - c0["now_ns:"]
		idle = (c1["idle_us:"] - c0["idle_us:"]) * 1000
		busy = win - idle
		if (kind == "bare") {
			runs = c1["bare_runs:"] - c0["bare_runs:"]
			late = c1["bare_late_runs:"] - c0["bare_late_runs:"]
			extra = " max_late_ns=" c1["bare_max_late_ns:"]
		} else if (kind == "cc") {
			runs = c1["runs:"] - c0["runs:"]
			late = c1["late_runs:"] - c0["late_runs:"]
			extra = " episodes=" c1["episodes:"] - c0["episodes:"] \
				" episodes_ended=" \
				c1["episodes_ended:"] - c0["episodes_ended:"] \
				" qps_congested=" c1["qps_congested:"] \
				" cnps=" c1["cnps:"] - c0["cnps:"]
		} else {
			runs = 0
			late = 0
			extra = ""
		}
		if (kind == "inject" || kind == "cc")
			extra = extra " injector_runs=" \
				c1["injector_runs:"] - c0["injector_runs:"]
		printf "cpu kind=%s n=%d window_ns=%.0f busy_ns=%.0f runs=%.0f late=%.0f%s\n",
		       label, n, win, busy, runs, late, extra
	}' /tmp/w0 /tmp/w1 | tee /tmp/line
	LATE_PCT=$(awk '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%d", v["runs"] ? 100 * v["late"] / v["runs"] : 0
	}' /tmp/line)
}

window idle 1
window idle 1
for kind in bare cc; do
	good=0
	bad=0
	for n in $RB_NS; do
		if [ "$kind" = cc ] && [ -n "$RB_COST_NS" ] &&
		   [[ " $RB_COST_NS " == *" $n "* ]]; then
			window inject "$n"
		fi
		window "$kind" "$n"
		if [ "$LATE_PCT" -ge "$RB_LATE_PCT" ]; then
			bad=$n
			break
		fi
		good=$n
	done
	# bisect between the last N that kept up and the first that did not
	i=0
	while [ "$bad" -gt 0 ] && [ "$i" -lt "$RB_REFINE" ] &&
	      [ $((bad - good)) -gt 1 ]; do
		n=$(((good + bad) / 2))
		window "$kind" "$n"
		if [ "$LATE_PCT" -ge "$RB_LATE_PCT" ]; then
			bad=$n
		else
			good=$n
		fi
		i=$((i + 1))
	done
	echo "capacity kind=$kind sustained=$good first_late=$bad"
done
for n in $RB_ALIGNED_NS; do
	window bare "$n" spread=0
	window inject "$n" spread=0
	window cc "$n" spread=0
done
# the kernel's own word on it (hrtimer_interrupt's hang detection, warnings)
dmesg | grep -E 'hrtimer|WARNING|BUG|rcc_bench|rdma_cc' |
	grep -vE 'ommand line|tb_[a-z]*=|taint' | sed 's/^/dmesg /'
exit 0
