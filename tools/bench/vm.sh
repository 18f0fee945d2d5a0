#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh JOB OUTDIR - boot one 1-vCPU benchmark VM, run the bash script JOB in
# it as root and wait for the VM to power off.  OUTDIR is shared with the
# VM, which sees it as /mnt: JOB is copied there as job.sh and runs with
# /mnt as its only argument.  The job's output is left in OUTDIR/out, its
# exit status in OUTDIR/rc, the console in OUTDIR/console.log.  Exit status:
# the job's, or 124 on timeout.
#
# The kernel and initramfs are the testbed's (tools/testbed/image.sh:
# tb_image, tb_initramfs): Debian's linux-image of the release rdma_cc is
# built for, the host's / as the VM's root over read-only 9p.  No network.
# The initramfs runs <tb_top>/tools/testbed/guest-init.sh; tb_top here is a
# directory in the cache whose only file is a link to tools/bench's own
# guest-init.sh, so the VM runs the job and nothing else.
#
# RB_ICOUNT=N (default 0): qemu -icount shift=N,sleep=off: the guest's clock
# advances 2^N ns per guest instruction and jumps to the next timer when the
# guest idles, whatever the host's load (repeatable on a shared machine; a
# 1 GHz, one-instruction-per-cycle virtual CPU at N=0).
# RB_ICOUNT=off: plain TCG, guest time = host time.  RB_TIMEOUT (s, default
# 1800), RB_MEM_MB (default 512), RB_APPEND (more kernel command line).
set -eu
. "$(dirname "$0")/../scripts/env.sh"
. "$(dirname "$0")/../testbed/image.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

[ $# -eq 2 ] || rcc_die "usage: vm.sh JOB OUTDIR"
job=$(readlink -f "$1")
outdir=$(readlink -f "$2")
[ -f "$job" ] || rcc_die "vm.sh: no job script $1"
mkdir -p "$outdir"
rm -f "$outdir/out" "$outdir/rc" "$outdir/console.log"
# The job goes through the share: the VM has its own /tmp.
cp "$job" "$outdir/job.sh"

rel=$(tb_release)
img=$(tb_image)
initrd=$(tb_initramfs)
shadow=$RDMA_CC_CACHE/bench/shadow
mkdir -p "$shadow/tools/testbed"
ln -sfn "$top/tools/bench/guest-init.sh" "$shadow/tools/testbed/guest-init.sh"

icount=()
case ${RB_ICOUNT:-0} in
off) ;;
[0-9]|10) icount=(-icount "shift=${RB_ICOUNT:-0},sleep=off") ;;
*) rcc_die "RB_ICOUNT=${RB_ICOUNT}: 0..10 or off" ;;
esac

rc=0
timeout "${RB_TIMEOUT:-1800}" qemu-system-x86_64 -accel tcg -smp 1 "${icount[@]}" \
	-m "${RB_MEM_MB:-512}" -display none -no-reboot -nodefaults \
	-kernel "$img/boot/vmlinuz-$rel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4 tb_top=$shadow rb_top=$top rb_job=/mnt/job.sh ${RB_APPEND:-}" \
	-virtfs local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$outdir,mount_tag=ctl,security_model=none" \
	-serial "file:$outdir/console.log" -monitor none || rc=$?
if [ "$rc" -eq 124 ]; then
	rcc_log "bench vm: timed out after ${RB_TIMEOUT:-1800}s; console:"
	tail -n 20 "$outdir/console.log" >&2
	exit 124
fi
[ -s "$outdir/rc" ] || {
	rcc_log "bench vm: the job did not finish; console:"
	tail -n 20 "$outdir/console.log" >&2
	exit 1
}
exit "$(cat "$outdir/rc")"
