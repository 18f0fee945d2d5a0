# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lifecycle.sh - unload/load rdma_cc and remove/add rxe0 many times in a
# running testbed VM, and compare the slab caches before and after.  Source
# it after testbed.sh and incast.sh.
#
#   lc_slab VM FILE          /proc/slabinfo of VM (after dropping caches)
#                            and, for caches booted with slub_debug=U, the
#                            allocation sites of their live objects
#   lc_cc_cycles VM N        N x (rmmod rdma_cc; insmod rdma_cc) while an
#                            ib_write_bw from VM to r runs; prints
#                            "cycles=N failed=F traffic_rc=RC"
#   lc_rxe_cycles VM N       N x (rdma link delete rxe0; rdma link add ...;
#                            wait for ACTIVE), with rdma_cc loaded; every
#                            10th cycle with a loopback ib_write_bw on
#                            rxe0 when it is removed; "cycles=N failed=F"
#   lc_slab_diff A B         caches whose active objects moved by more than
#                            their tolerance (see Documentation/hardening.rst)
#   lc_slab_sites A B CACHE  the allocation sites whose objects in CACHE grew
#
# LC_SLUB_DEBUG is the kernel argument that makes the slab counts exact:
# SLUB counts the objects of a CPU's slab and partial slabs as active,
# several slabs of noise; a cache with debugging on has no CPU slabs.
LC_SLUB_DEBUG="slub_debug=U,kmalloc-*,skbuff_*"

lc_slab() {
	tb_vm_run "$1" 90 <<-'EOS' >"$2"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	# kfree_rcu() frees in batches, up to 5 s late
	sleep 6
	cat /proc/slabinfo
	# where the live objects of the tracked caches were allocated
	# (slub_debug=U, see LC_SLUB_DEBUG): "site CACHE FUNCTION COUNT"
	for t in /sys/kernel/debug/slab/*/alloc_traces; do
		c=${t%/alloc_traces}
		c=${c##*/}
		awk -v c="$c" '$1 ~ /^[0-9]+$/ { sub(/\+.*/, "", $2); n[$2] += $1 }
			END { for (f in n) print "site", c, f, n[f] }' "$t" 2>/dev/null
	done
	EOS
}

lc_cc_cycles() {
	local vm=$1 n=$2
	tb_vm_spawn r lc-srv <<<"exec ib_write_bw -d rxe0 -x 1 -p 18700 -q 1 -F -s 65536 -D 300 -u $TB_QP_TIMEOUT"
	sleep 2
	tb_vm_spawn "$vm" lc-cli <<<"exec ib_write_bw -d rxe0 -x 1 -p 18700 -q 1 -F -s 65536 -D 300 -u $TB_QP_TIMEOUT $(tb_ip r)"
	tb_vm_run "$vm" 240 <<-EOS
	# wait for the traffic's QP (rdma_cc attached to it)
	for i in \$(seq 400); do
		[ "\$(tail -n +2 /sys/kernel/debug/rdma_cc/rxe0/qps 2>/dev/null | wc -l)" -ge 1 ] && break
		sleep 0.25
	done
	ls /sys/kernel/debug/rdma_cc/rxe0/ | tr '\n' ' '; echo
	fail=0
	for c in \$(seq $n); do
		# a debugfs reader holds the module for a moment: retry
		for i in \$(seq 100); do
			rmmod rdma_cc 2>/dev/null && break
			sleep 0.05
		done
		grep -q '^rdma_cc ' /proc/modules && { echo "cycle \$c: rmmod failed"; fail=\$((fail + 1)); }
		insmod $TB_CC_KO $TB_CC_PARAMS || fail=\$((fail + 1))
		[ -d /sys/kernel/rdma_cc/rxe0 ] || fail=\$((fail + 1))
	done
	# the QP of the running traffic is attached again
	[ "\$(tail -n +2 /sys/kernel/debug/rdma_cc/rxe0/qps 2>/dev/null | wc -l)" -ge 1 ] || { echo "no QP attached after the cycles"; fail=\$((fail + 1)); }
	awk 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { print "packets: " \$c["packets"] }' /sys/kernel/debug/rdma_cc/rxe0/qps 2>/dev/null
	pkill ib_write_bw
	echo "cycles=$n failed=\$fail"
	EOS
	tb_vm_pkill ib_write_bw r
	tb_vm_join "$vm" lc-cli 60 >"$TB_RUN/lc-cli.txt" 2>&1
	tb_vm_join r lc-srv 60 >"$TB_RUN/lc-srv.txt" 2>&1
}

lc_rxe_cycles() {
	local vm=$1 n=$2 ip
	ip=$(tb_ip "$vm")
	tb_vm_run "$vm" 420 <<-EOS
	fail=0
	traffic=0
	for c in \$(seq $n); do
		if [ \$((c % 10)) = 1 ]; then
			ib_write_bw -d rxe0 -x 1 -p 18800 -q 1 -F -s 65536 -D 60 >/dev/null 2>&1 &
			sleep 0.5
			ib_write_bw -d rxe0 -x 1 -p 18800 -q 1 -F -s 65536 -D 60 $ip >/dev/null 2>&1 &
			for i in \$(seq 200); do
				[ "\$(tail -n +2 /sys/kernel/debug/rdma_cc/rxe0/qps 2>/dev/null | wc -l)" -ge 2 ] && break
				sleep 0.1
			done
			[ "\$(tail -n +2 /sys/kernel/debug/rdma_cc/rxe0/qps 2>/dev/null | wc -l)" -ge 2 ] && traffic=\$((traffic + 1))
		fi
		# rxe has no disassociate: removal waits for the users to
		# close, so the traffic is killed while the removal runs
		rdma link delete rxe0 &
		del=\$!
		sleep 0.2
		pkill -9 ib_write_bw
		wait \$del || fail=\$((fail + 1))
		[ -d /sys/kernel/rdma_cc/rxe0 ] && { echo "cycle \$c: rdma_cc still has rxe0"; fail=\$((fail + 1)); }
		rdma link add rxe0 type rxe netdev eth0 || fail=\$((fail + 1))
		for i in \$(seq 100); do
			[ "\$(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)" = "4: ACTIVE" ] && break
			sleep 0.1
		done
		[ "\$(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)" = "4: ACTIVE" ] || { echo "cycle \$c: not ACTIVE"; fail=\$((fail + 1)); }
		[ -d /sys/kernel/rdma_cc/rxe0 ] || { echo "cycle \$c: rdma_cc did not attach"; fail=\$((fail + 1)); }
	done
	wait
	echo "cycles=$n failed=\$fail traffic_cycles=\$traffic"
	EOS
}

# lc_slab_diff BEFORE AFTER: "name delta tolerance" of every kmalloc-* and
# RDMA/QP-related cache; lines starting with LEAK are over the tolerance:
# one slab's worth of objects (a CPU's partial slab is counted as active)
# or 25 objects, whichever is larger: below one object per cycle.  For
# skbuff_head_cache 64: NAPI keeps up to NAPI_SKB_CACHE_SIZE (64) freed skbs
# per CPU allocated and, when full, gives half back, so its level wanders
# by 32 with nothing leaked (the VMs have one CPU).
lc_slab_diff() {
	awk 'FNR == 1 { f++ } /^#|^slabinfo|^site / { next }
		$1 ~ /^kmalloc-|rxe|rdma|ib_|qp|uverbs|skbuff/ {
			if (f == 1) { a[$1] = $2; per[$1] = $5 } else b[$1] = $2 }
		END { for (k in b) { d = b[k] - a[k]; t = per[k] > 25 ? per[k] : 25
			if (k == "skbuff_head_cache" && t < 64) t = 64
			printf "%s %s %+d tol=%d\n", (d > t ? "LEAK" : "ok"), k, d, t } }' "$1" "$2" | sort -k2
}

# lc_slab_sites BEFORE AFTER CACHE: the allocation sites whose live objects
# in CACHE grew, "FUNCTION +N", largest first.
lc_slab_sites() {
	awk -v c="$3" 'FNR == 1 { f++ } $1 == "site" && $2 == c {
			if (f == 1) a[$3] = $4; else b[$3] = $4 }
		END { for (k in b) if (b[k] > a[k]) printf "%s %+d\n", k, b[k] - a[k] }' "$1" "$2" |
		sort -k2 -t+ -rn | head -n 8
}
