# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# testbed.sh - bring the whole testbed up and down.  Source it from a
# script (demo.sh, tools/check/40-e2e.sh); it sources env.sh and the parts.
#
#   tb_up       switch namespace, three VMs (r = receiver, s1 s2 = senders),
#               rxe0 on each, addresses 198.18.0.0/24 only
#   tb_down     everything torn down (call it from an EXIT trap)
#
# Layout: receiver 198.18.0.10, sender N 198.18.0.1N, all on one bridge in
# the namespace $TB_NS; the receiver's port is the bottleneck (switch.sh).

tb_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tb_top=$(cd "$tb_here/../.." && pwd)
. "$tb_top/tools/scripts/env.sh"
. "$tb_here/image.sh"
. "$tb_here/switch.sh"
. "$tb_here/vm.sh"

: "${TB_RUN:=$RDMA_CC_CACHE/testbed/run.$$}"
: "${TB_NS:=rcc-sw-$$}"
TB_SENDERS=${TB_SENDERS:-2}
TB_VMS="r"
for ((tb_i = 1; tb_i <= TB_SENDERS; tb_i++)); do TB_VMS+=" s$tb_i"; done
# The modules of the kernel the VMs boot (tb_release: KVER or KDIR picks
# it), from make rxe and make modules (into $RCC_MODDIR when set).
TB_RXE_KO=${TB_RXE_KO:-$RDMA_CC_CACHE/rxe-build/$(tb_release)/rdma_rxe.ko}
# The patched rxe's parameters in the VMs.  Under TCG a VM's timers fire
# milliseconds late and it stalls for tens of milliseconds, so a paced QP
# may catch up 10 ms of lateness here; rxe's default, 45 us (one control
# interval), suits real hosts.
: "${TB_RXE_PARAMS=pace_burst_us=10000}"
TB_HOOK_KO=${TB_HOOK_KO:-$(rcc_moddir)/rdma_cc_hook.ko}
TB_CC_KO=${TB_CC_KO:-$(rcc_moddir)/rdma_cc.ko}
# DCQCN (rdma_cc_dcqcn.ko) for the runs that compare it: mlx5's values on
# the 25 Gbit/s links slowed down 25,000 times, R = 1 Mbit/s as rdma_cc's
# (Documentation/testbed.rst says why)
TB_DCQCN_KO=${TB_DCQCN_KO:-$(rcc_moddir)/rdma_cc_dcqcn.ko}
: "${TB_DCQCN_PARAMS=slowdown=25000}"
# What a VM's kernel log must not hold after a run (grep -E): a warning, a
# BUG, an oops and its register dump.  Suites add their own (KASAN, ...).
TB_KERNEL_BAD='WARNING|BUG|Oops|general protection|RIP:'
TB_HOST_PIDS=()

tb_ip() { case $1 in r) echo 198.18.0.10 ;; s*) echo "198.18.0.1${1#s}" ;; esac; }
tb_mac() { case $1 in r) echo 52:54:00:18:00:10 ;; s*) echo "52:54:00:18:00:1${1#s}" ;; esac; }
tb_tap() { echo "rcc$$$1"; }

# tb_rxe_needs_hook: whether rdma_rxe.ko was built against rdma_cc_hook.
tb_rxe_needs_hook() {
	modinfo -F depends "$TB_RXE_KO" 2>/dev/null | tr ',' '\n' |
		grep -qx rdma_cc_hook
}

tb_up() {
	local v m
	[ -f "$TB_RXE_KO" ] || { rcc_log "testbed: no $TB_RXE_KO (make rxe)"; return 1; }
	mkdir -p "$TB_RUN/modules"
	# A copy of the modules for this run: the build outputs in the
	# repository and the cache may be rebuilt while the testbed runs.
	# (A second tb_up, after a tb_down, finds them there already.)
	for m in TB_RXE_KO TB_HOOK_KO TB_CC_KO TB_DCQCN_KO; do
		if [ -f "${!m}" ] && [ "$(dirname "${!m}")" != "$TB_RUN/modules" ]; then
			cp "${!m}" "$TB_RUN/modules/" || return 1
			printf -v "$m" '%s' "$TB_RUN/modules/$(basename "${!m}")"
		fi
	done
	rcc_log "testbed: run directory $TB_RUN, switch namespace $TB_NS"
	tb_switch_up "$TB_NS" || return 1
	for v in $TB_VMS; do
		tb_switch_port "$TB_NS" "$(tb_tap "$v")" || return 1
	done
	tb_switch_bottleneck "$TB_NS" "$(tb_tap r)" "$TB_RUN" || return 1
	TB_ECN_MAP=$(tb_switch_ecn_map "$TB_NS" "$(tb_tap r)")
	[ -n "$TB_ECN_MAP" ] || { rcc_log "testbed: ECN marker map not found"; return 1; }
	for v in $TB_VMS; do
		tb_vm_start "$v" "$TB_NS" "$(tb_tap "$v")" "$(tb_mac "$v")" "$(tb_ip "$v")" ||
			return 1
	done
	for v in $TB_VMS; do
		tb_vm_wait_ready "$v" || return 1
	done
	for v in $TB_VMS; do
		tb_vm_spawn "$v" rxe-up <<-EOS
		set -e
		$(tb_rxe_needs_hook && echo "insmod $TB_HOOK_KO")
		insmod $TB_RXE_KO $(tb_rxe_needs_hook && echo "$TB_RXE_PARAMS")
		rdma link add rxe0 type rxe netdev eth0
		for i in \$(seq 50); do
			[ "\$(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)" = "4: ACTIVE" ] && break
			sleep 0.2
		done
		rdma link show rxe0/1
		EOS
	done
	for v in $TB_VMS; do
		tb_vm_join "$v" rxe-up 120 >"$TB_RUN/$v/rxe-up.log" 2>&1 || {
			rcc_log "testbed: rxe0 on $v failed:"
			cat "$TB_RUN/$v/rxe-up.log" >&2
			return 1
		}
	done
	rcc_log "testbed: up ($TB_VMS), rxe0 ACTIVE on every VM"
}

# tb_host_bg CMD...: a host-side helper (capture, sampler) ended by tb_down.
tb_host_bg() {
	"$@" &
	TB_HOST_PIDS+=($!)
}

tb_down() {
	local v p
	for p in "${TB_HOST_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${TB_HOST_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	TB_HOST_PIDS=()
	for v in $TB_VMS; do
		tb_vm_stop "$v"
	done
	tb_switch_down "$TB_NS"
}
