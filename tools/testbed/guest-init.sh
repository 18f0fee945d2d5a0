#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-init.sh - PID 1 of a testbed VM, started by the initramfs on the
# host's / (read-only 9p).  Makes the writable places, loads the base
# modules of the VM's kernel (the unpacked Debian image, tb_img=), brings up
# eth0 with tb_ip=, then serves the host's commands (guest-agent.sh) on the
# 9p share "ctl".  Kernel parameters: tb_top tb_img tb_cache tb_name tb_ip
# tb_plen.
#
# With tb_job=SCRIPT (a VM of tb_vm_job, vm.sh: the benchmarks) it loads
# and brings up nothing: it runs SCRIPT with bash, the share as its
# argument (stdout and stderr to the share's "out", the exit status to its
# "rc") and powers the VM off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C

mount -t proc proc /proc
mount -t sysfs sysfs /sys
for arg in $(cat /proc/cmdline); do
	case $arg in
	tb_*=*) declare "${arg%%=*}=${arg#*=}" ;;
	esac
done
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
# Fresh tmpfs on the host's scratch directories; the host's view of them
# stays under /run/host, so that a tree or cache living there (a clone in
# /tmp, say) is found at its own path.
mount -t tmpfs tmpfs /run
mkdir /run/host
mount --bind / /run/host
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /var/tmp
for p in "$tb_top" "$tb_img" "$tb_cache"; do
	case $p in
	/tmp/* | /var/tmp/* | /dev/shm/* | /run/*)
		mkdir -p "$p" && mount --bind "/run/host$p" "$p" ||
			echo "guest-init: cannot see $p" >/dev/console
		;;
	esac
done
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t configfs configfs /sys/kernel/config 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 ctl /mnt ||
	echo "guest-init: cannot mount the ctl share"
hostname "${tb_name:-vm}"

if [ -n "${tb_job:-}" ]; then
	cd /tmp && RB_TOP=$tb_top bash "$tb_job" /mnt >/mnt/out 2>&1
	echo $? >/mnt/rc.tmp
	mv /mnt/rc.tmp /mnt/rc
	umount /mnt
	echo 1 >/proc/sys/kernel/sysrq
	echo o >/proc/sysrq-trigger
	sleep 10
fi

rel=$(uname -r)
tb_modprobe() { modprobe -d "$tb_img" -S "$rel" "$@"; }
for m in virtio_net crc32_generic ib_core ib_uverbs rdma_cm rdma_ucm \
	udp_tunnel ip6_udp_tunnel; do
	tb_modprobe "$m" || echo "guest-init: modprobe $m failed"
done
# tb_modprobe for the agent's commands
declare -fx tb_modprobe
export tb_img rel tb_top

ip link set lo up
ip link set eth0 up
ip addr add "$tb_ip/${tb_plen:-24}" dev eth0
# A NIC's RoCE traffic passes no AQM: the kernel's default fq_codel drops
# at dequeue, after rxe counted the packet as sent (a CNP counted as sent
# never reached the wire).  A FIFO drops only at enqueue, which rxe sees,
# and at 10000 packets it never fills (rxe holds at most 64 packets of a
# QP in the stack).
tc qdisc replace dev eth0 root pfifo limit 10000 ||
	echo "guest-init: the FIFO qdisc on eth0 failed"
echo "guest-init: $tb_name up, eth0 $tb_ip" >/dev/console

exec /bin/bash "$tb_top/tools/testbed/guest-agent.sh" /mnt
