#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-scale.sh DIR - make bench-scale's measurements, inside a job VM
# (tb_vm_job, tools/testbed/vm.sh; DIR is the share with the host, DIR/params.sh sets
# RB_BENCH_KO, RB_MODDIR (where rdma_cc.ko is), RB_TOP and RS_NS).  For
# each N of RS_NS, with rdma_cc loaded, rcc_bench.ko attaches N QPs
# (mode=attach, timing its rdma_cc_hook_add_qp() calls), the debugfs table
# is read once, and rcc_bench deletes them again (timed); prints
#
#   bench-scale: qps=N bytes_per_qp=B create_us=C destroy_us=D table_read_ms=M
#   bench-scale-slab: qps=N CACHE=BYTES_PER_QP ... meminfo_slab=BYTES_PER_QP
#
# bytes_per_qp is what the slab caches grew by (num_slabs x pages per slab,
# every cache that grew: rdma_cc's QPs, the xarray's nodes, debugfs's
# inodes and dentries if any, and rcc_bench's own few files) over N;
# create_us and destroy_us are per QP; table_read_ms is the second of two
# reads of the whole table.
# Then, with RS_LOAD_QPS QPs attached to the hook first, the time to load
# rdma_cc.ko (it takes them all on) and to unload it (it lets them all go):
#
#   bench-scale-load: qps=N load_ms=L unload_ms=U
#
# and every kernel warning the runs caused (dmesg lines).
set -u
dir=$1
# shellcheck source=/dev/null
. "$dir/params.sh"
# the modules from tmpfs: no 9p read inside a timed insmod
cp "$RB_TOP/rdma_cc_hook.ko" /tmp/rdma_cc_hook.ko
cp "${RB_MODDIR:-$RB_TOP}/rdma_cc.ko" /tmp/rdma_cc.ko
cp "$RB_BENCH_KO" /tmp/rcc_bench.ko
hook=/tmp/rdma_cc_hook.ko
cc=/tmp/rdma_cc.ko
bench=/tmp/rcc_bench.ko
dbg=/sys/kernel/debug/rdma_cc/rcc_bench
stats=/sys/kernel/debug/rcc_bench/stats

die() { echo "error: $*"; exit 1; }
key() { awk -v k="$2:" '$1 == k { print $2; exit }' "$1"; }
now_us() { local t=$EPOCHREALTIME; echo "${t%.*}${t#*.}"; }
# name and bytes (num_slabs x pages per slab x 4096) of every slab cache
slabs() {
	awk 'NR > 2 { print $1, $15 * $6 * 4096 }' /proc/slabinfo
}
meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

insmod "$hook" || die "insmod rdma_cc_hook.ko"
for n in $RS_NS; do
	insmod "$cc" || die "insmod rdma_cc.ko"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	slabs >/tmp/slab0
	m0=$(meminfo_kb Slab)
	insmod "$bench" mode=attach nr_qps="$n" || die "insmod rcc_bench nr_qps=$n"
	slabs >/tmp/slab1
	m1=$(meminfo_kb Slab)
	# the table, or (before it existed) every per-QP file, read twice:
	# the second read is timed (the first brings the tools and the code
	# in, so that no 9p read of a binary or page fault is timed)
	for pass in 1 2; do
		t0=$(now_us)
		if [ -e "$dbg/qps" ]; then
			rows=$(($(wc -l <"$dbg/qps") - 1))
		else
			rows=$(find "$dbg" -name 'qp[0-9]*' -exec cat {} + |
			       grep -c '^qpn:')
		fi
		t1=$(now_us)
	done
	[ "$rows" = "$n" ] || echo "warning: the table has $rows QPs, not $n"
	add_ns=$(key "$stats" add_ns)
	echo del >/sys/kernel/debug/rcc_bench/ctl || die "rcc_bench: del"
	del_ns=$(key "$stats" del_ns)
	rmmod rcc_bench || die "rmmod rcc_bench"
	rmmod rdma_cc || die "rmmod rdma_cc"
	awk -v n="$n" -v add="$add_ns" -v del="$del_ns" -v rd="$((t1 - t0))" \
	    -v m="$(((m1 - m0) * 1024))" '
	NR == FNR { b0[$1] = $2; next }
	$2 > b0[$1] { d = $2 - b0[$1]; tot += d; per = per sprintf(" %s=%.1f", $1, d / n) }
	END {
		printf "bench-scale: qps=%d bytes_per_qp=%.0f create_us=%.2f destroy_us=%.2f table_read_ms=%.1f\n",
		       n, tot / n, add / n / 1000, del / n / 1000, rd / 1000
		printf "bench-scale-slab: qps=%d%s meminfo_slab=%.0f\n", n, per, m / n
	}' /tmp/slab0 /tmp/slab1
done

# load and unload rdma_cc with RS_LOAD_QPS QPs attached to the hook
n=$RS_LOAD_QPS
insmod "$bench" mode=attach nr_qps="$n" || die "insmod rcc_bench nr_qps=$n"
t0=$(now_us)
insmod "$cc" || die "insmod rdma_cc.ko with $n QPs"
t1=$(now_us)
q=$(key "$dbg/summary" qps)
t2=$(now_us)
rmmod rdma_cc || die "rmmod rdma_cc with $n QPs"
t3=$(now_us)
[ "$q" = "$n" ] || echo "warning: rdma_cc took on $q QPs, not $n"
echo "bench-scale-load: qps=$n load_ms=$(((t1 - t0) / 1000)) unload_ms=$(((t3 - t2) / 1000))"
rmmod rcc_bench || die "rmmod rcc_bench"
rmmod rdma_cc_hook || die "rmmod rdma_cc_hook"
dmesg | grep -E 'WARNING|BUG|soft lockup|hung|rcu.*stall|rdma_cc' |
	grep -vE 'ommand line|tb_[a-z]*=|taint' | sed 's/^/dmesg /'
exit 0
