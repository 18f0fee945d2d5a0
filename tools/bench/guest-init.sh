#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-init.sh - PID 1 of a benchmark VM (tools/bench/vm.sh).  The
# testbed's initramfs mounts the host's / read-only over 9p and runs
# <tb_top>/tools/testbed/guest-init.sh, which vm.sh points here.  Makes the
# writable places, mounts debugfs and the 9p share "ctl" (the host's result
# directory) on /mnt, runs the job script rb_job= with the share as its
# argument (stdout and stderr to /mnt/out, exit status to /mnt/rc) and
# powers the VM off.  No network, no agent: nothing else runs.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
rb_top=
rb_job=
# shellcheck disable=SC2013 # the command line is words
for arg in $(cat /proc/cmdline); do
	case $arg in
	rb_*=*) declare "${arg%%=*}=${arg#*=}" ;;
	esac
done
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 ctl /mnt; then
	cd /tmp && RB_TOP=$rb_top bash "$rb_job" /mnt >/mnt/out 2>&1
	echo $? >/mnt/rc.tmp
	mv /mnt/rc.tmp /mnt/rc
	umount /mnt
else
	echo "bench guest-init: cannot mount the ctl share" >/dev/console
fi
echo 1 >/proc/sys/kernel/sysrq
echo o >/proc/sysrq-trigger
sleep 10
