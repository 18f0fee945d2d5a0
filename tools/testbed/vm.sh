# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# vm.sh - the one VM harness: start, command and stop one testbed VM, or
# run one job in a VM of its own (tb_vm_job, at the end: the benchmarks).
# Source it (after env.sh and image.sh).  Every testbed VM has a directory
# $TB_RUN/NAME holding its control share (ctl/, see guest-agent.sh), its
# console log (console.log) and qemu's pid file.  Commands given to a VM
# run as root in it, with bash, in /tmp.

: "${TB_VM_MEM_MB:=512}"
: "${TB_BOOT_TIMEOUT:=240}"
: "${TB_VM_NICE:=5}"
# vCPUs per VM (1: the figures; the debug-kernel suite races on 2)
: "${TB_VM_SMP:=1}"
# extra kernel command line for every VM (slub_debug=U,kmalloc-96, say)
: "${TB_VM_APPEND:=}"
# the speed the VMs' virtio NICs report (Mbit/s), so rxe's link speed: a
# 25 Gbit/s RoCE port (without it virtio has none and rxe takes 1000)
: "${TB_LINK_MBIT:=25000}"

# tb_vm_start NAME NETNS TAP MAC IP: boot a VM (returns once qemu runs).
tb_vm_start() {
	local name=$1 ns=$2 tap=$3 mac=$4 ip=$5 d img rel initrd top
	d=$TB_RUN/$name
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	rel=$(tb_release) || return 1
	img=$(tb_image) || return 1
	initrd=$(tb_initramfs) || return 1
	rm -rf "$d"
	mkdir -p "$d/ctl"
	# niced, so that the host's softirqs (the switch's qdiscs) and the
	# samplers are not starved by the emulated CPUs
	ip netns exec "$ns" nice -n "$TB_VM_NICE" qemu-system-x86_64 -accel tcg -smp "$TB_VM_SMP" \
		-m "$TB_VM_MEM_MB" -display none -no-reboot -name "$name" \
		-kernel "$img/boot/vmlinuz-$rel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 net.ifnames=0 quiet loglevel=4 tb_top=$top tb_img=$img tb_cache=$RDMA_CC_CACHE tb_name=$name tb_ip=$ip $TB_VM_APPEND" \
		-virtfs local,path=/,mount_tag=root,security_model=none,readonly=on \
		-virtfs "local,path=$d/ctl,mount_tag=ctl,security_model=none" \
		-netdev "tap,id=n0,ifname=$tap,script=no,downscript=no" \
		-device "virtio-net-pci,netdev=n0,mac=$mac,speed=$TB_LINK_MBIT,duplex=full" \
		-serial "file:$d/console.log" -monitor none \
		-pidfile "$d/qemu.pid" -daemonize ||
		{ rcc_log "vm $name: qemu failed to start"; return 1; }
}

# tb_vm_wait_ready NAME: wait until the VM's agent serves.
tb_vm_wait_ready() {
	local name=$1 i
	for ((i = 0; i < TB_BOOT_TIMEOUT * 2; i++)); do
		[ -s "$TB_RUN/$name/ctl/ready" ] && return 0
		tb_vm_alive "$name" || break
		sleep 0.5
	done
	rcc_log "vm $name: not ready after ${TB_BOOT_TIMEOUT}s; console:"
	tail -n 30 "$TB_RUN/$name/console.log" >&2
	return 1
}

tb_vm_alive() {
	local pid
	pid=$(cat "$TB_RUN/$1/qemu.pid" 2>/dev/null) || return 1
	kill -0 "$pid" 2>/dev/null
}

# tb_vm_spawn NAME ID: start the script on stdin in the VM, do not wait.
tb_vm_spawn() {
	local name=$1 id=$2 c=$TB_RUN/$1/ctl
	mkdir -p "$c/req"
	rm -f "$c/rc/$id" "$c/out/$id"
	cat >"$c/req/.$id.tmp" && mv "$c/req/.$id.tmp" "$c/req/$id.sh"
}

# tb_vm_join NAME ID [TIMEOUT]: wait for a spawned script, print its output,
# return its status (124 on timeout, 125 when the VM died).
tb_vm_join() {
	local name=$1 id=$2 timeout=${3:-120} c=$TB_RUN/$1/ctl i
	for ((i = 0; i < timeout * 10; i++)); do
		if [ -s "$c/rc/$id" ]; then
			cat "$c/out/$id" 2>/dev/null
			return "$(cat "$c/rc/$id")"
		fi
		if ((i % 10 == 0)) && ! tb_vm_alive "$name"; then
			rcc_log "vm $name: died while running $id"
			return 125
		fi
		sleep 0.1
	done
	rcc_log "vm $name: $id still running after ${timeout}s"
	cat "$c/out/$id" 2>/dev/null
	return 124
}

# tb_vm_pkill PROG VM...: stop every process named PROG in each VM.
tb_vm_pkill() {
	local prog=$1 v
	shift
	for v in "$@"; do
		tb_vm_run "$v" 30 <<<"pkill -x $prog; true" >/dev/null
	done
}

TB_VM_SEQ=0
# tb_vm_run NAME [TIMEOUT]: run the script on stdin in the VM and wait.
tb_vm_run() {
	local id
	TB_VM_SEQ=$((TB_VM_SEQ + 1))
	id=c$$.$TB_VM_SEQ.$RANDOM
	tb_vm_spawn "$1" "$id" && tb_vm_join "$1" "$id" "${2:-120}"
}

# tb_vm_stop NAME: power the VM off (kill its qemu by pid) and wait.
tb_vm_stop() {
	local pid i
	pid=$(cat "$TB_RUN/$1/qemu.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 50; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null
}

# tb_vm_job JOB OUTDIR: boot a 1-vCPU VM without network, run the bash
# script JOB in it as root and wait for the VM to power off (the
# benchmarks: bench-module.sh, bench-scale.sh).  OUTDIR is the VM's share,
# seen as /mnt: JOB is copied there as job.sh and runs with /mnt as its
# only argument and RB_TOP set to this tree; its output is left in
# OUTDIR/out, its exit status in OUTDIR/rc, the console in
# OUTDIR/console.log.  Returns the job's status, or 124 on timeout.
#
# RB_ICOUNT=N (default 0): qemu -icount shift=N,sleep=off: the guest's
# clock advances 2^N ns per guest instruction and jumps to the next timer
# when the guest idles, whatever the host's load (repeatable on a shared
# machine; a 1 GHz, one-instruction-per-cycle virtual CPU at N=0).
# RB_ICOUNT_SLEEP=on: an idle guest's clock runs at the host's pace
# instead of jumping to its next timer (a wait for the host, a 9p read,
# then costs its real time, not up to the next timer's, seconds away).
# RB_ICOUNT=off: plain TCG, guest time = host time.  RB_TIMEOUT (s,
# default 1800), RB_MEM_MB (default 512), RB_APPEND (more kernel command
# line).
tb_vm_job() {
	local job outdir rel img initrd top rc=0 icount=()
	[ $# -eq 2 ] || { rcc_log "usage: tb_vm_job JOB OUTDIR"; return 2; }
	job=$(readlink -f "$1")
	outdir=$(readlink -f "$2")
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	[ -f "$job" ] || { rcc_log "tb_vm_job: no job script $1"; return 2; }
	mkdir -p "$outdir"
	rm -f "$outdir/out" "$outdir/rc" "$outdir/console.log"
	# the job goes through the share: the VM has its own /tmp
	cp "$job" "$outdir/job.sh"
	rel=$(tb_release) || return 1
	img=$(tb_image) || return 1
	initrd=$(tb_initramfs) || return 1
	case ${RB_ICOUNT:-0} in
	off) ;;
	[0-9]|10) icount=(-icount "shift=${RB_ICOUNT:-0},sleep=${RB_ICOUNT_SLEEP:-off}") ;;
	*) rcc_log "RB_ICOUNT=${RB_ICOUNT}: 0..10 or off"; return 2 ;;
	esac
	timeout "${RB_TIMEOUT:-1800}" qemu-system-x86_64 -accel tcg -smp 1 "${icount[@]}" \
		-m "${RB_MEM_MB:-512}" -display none -no-reboot -nodefaults \
		-kernel "$img/boot/vmlinuz-$rel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet loglevel=4 tb_top=$top tb_img=$img tb_cache=$RDMA_CC_CACHE tb_name=job tb_job=/mnt/job.sh ${RB_APPEND:-}" \
		-virtfs local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$outdir,mount_tag=ctl,security_model=none" \
		-serial "file:$outdir/console.log" -monitor none || rc=$?
	if [ "$rc" -eq 124 ]; then
		rcc_log "job vm: timed out after ${RB_TIMEOUT:-1800}s; console:"
		tail -n 20 "$outdir/console.log" >&2
		return 124
	fi
	[ -s "$outdir/rc" ] || {
		rcc_log "job vm: the job did not finish; console:"
		tail -n 20 "$outdir/console.log" >&2
		return 1
	}
	return "$(cat "$outdir/rc")"
}
