#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh - a 6.1 guest kernel with the memory and object checkers
# on, for the testbed VMs (tools/check/46-debug-vm.sh).
#
# Debian's guest kernels have no KASAN and no CONFIG_DEBUG_KOBJECT_RELEASE,
# and the KUnit kernels that have them have no rxe and no network.  This
# builds Debian's linux-source-6.1 (the tree rdma_rxe's series is made
# for) with a small configuration: what the testbed's guests need (virtio,
# 9p root, IPv4/IPv6, the RDMA core and user verbs, a pfifo qdisc, and a
# tc filter that drops every Nth packet at a guest's ingress) and
#   KASAN (generic, inline)      use-after-free, out-of-bounds;
#   DEBUG_KOBJECT_RELEASE        every kobject released 1-4 s after its
#                                last put, so a release that outlives its
#                                module runs freed code;
#   DEBUG_LIST                   list corruption and double list_del;
#   DEBUG_OBJECTS_TIMERS         a timer freed or re-initialised armed;
#   PROVE_LOCKING is left out: with KASAN it makes a TCG guest too slow
#                                for traffic (the KUnit suites run lockdep).
# The in-tree rdma_rxe is built (it selects the UDP tunnel and CRC32 code
# rxe needs) but never loaded: the testbed loads the patched one that
# build-rxe.sh builds against this tree.
#
# Output, in $RDMA_CC_CACHE/debug-kernel:
#   build/                  the kernel build tree: KDIR for the modules
#   image/                  laid out as Debian's linux-image package:
#                           boot/vmlinuz-REL, lib/modules/REL
# and $RDMA_CC_CACHE/vm/REL/image is that image, so the testbed boots it
# when KDIR points at build/.  Prints the build tree.  Rebuilds only when
# this script or the source changed.  About 10 minutes on 2 cores.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

bash "$here/deps.sh" module >&2 || rcc_die "deps.sh module failed"
rcc_apt_install bc bison flex libelf-dev libssl-dev >&2
out=$RDMA_CC_CACHE/debug-kernel
build=$out/build
mkdir -p "$out"
exec 8>"$out/.lock"
flock 8
linux=$(flock "$RDMA_CC_CACHE/.linux-source.lock" bash -c \
	". '$here/env.sh'; rcc_linux_source 6.1")

stamp="$(sha1sum "$0" | cut -c1-40) $(stat -c %Y "$linux/Makefile")"
if [ -f "$out/.built" ] && [ "$(cat "$out/.built")" = "$stamp" ] &&
   [ -f "$build/arch/x86/boot/bzImage" ]; then
	echo "$build"
	exit 0
fi
rm -f "$out/.built"
mkdir -p "$build"
rcc_log "debug kernel: configuring $linux in $build"
frag=$build/rdma_cc-debug.config
cat >"$frag" <<'EOF'
CONFIG_LOCALVERSION="-rcc-debug"
CONFIG_LOCALVERSION_AUTO=n
CONFIG_SMP=y
CONFIG_NR_CPUS=8
CONFIG_HYPERVISOR_GUEST=y
CONFIG_PARAVIRT=y
CONFIG_KVM_GUEST=y
CONFIG_PRINTK=y
CONFIG_BUG=y
CONFIG_MULTIUSER=y
CONFIG_TTY=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_BINFMT_ELF=y
CONFIG_BINFMT_SCRIPT=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_RD_GZIP=y
CONFIG_DEVTMPFS=y
CONFIG_DEVTMPFS_MOUNT=y
CONFIG_PROC_FS=y
CONFIG_SYSFS=y
CONFIG_TMPFS=y
CONFIG_DEBUG_FS=y
CONFIG_CONFIGFS_FS=y
CONFIG_MAGIC_SYSRQ=y
CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
CONFIG_MODULE_FORCE_UNLOAD=n
CONFIG_KALLSYMS=y
CONFIG_KALLSYMS_ALL=y
CONFIG_PCI=y
CONFIG_VIRTIO_MENU=y
CONFIG_VIRTIO_PCI=y
CONFIG_NETDEVICES=y
CONFIG_NET_CORE=y
CONFIG_VIRTIO_NET=y
CONFIG_NET=y
CONFIG_PACKET=y
CONFIG_UNIX=y
CONFIG_INET=y
CONFIG_INET_DIAG=y
CONFIG_IPV6=y
CONFIG_NET_SCHED=y
CONFIG_NET_SCH_INGRESS=y
CONFIG_NET_CLS_U32=y
CONFIG_NET_CLS_ACT=y
CONFIG_NET_ACT_GACT=y
CONFIG_GACT_PROB=y
CONFIG_NET_9P=y
CONFIG_NET_9P_VIRTIO=y
CONFIG_NETWORK_FILESYSTEMS=y
CONFIG_9P_FS=y
CONFIG_INFINIBAND=y
CONFIG_INFINIBAND_USER_ACCESS=y
CONFIG_INFINIBAND_USER_MEM=y
CONFIG_INFINIBAND_ON_DEMAND_PAGING=y
CONFIG_INFINIBAND_ADDR_TRANS=y
CONFIG_RDMA_RXE=m
CONFIG_CRYPTO=y
CONFIG_CRYPTO_CRC32=y
CONFIG_HIGH_RES_TIMERS=y
CONFIG_NO_HZ_IDLE=y
CONFIG_FUTEX=y
CONFIG_EPOLL=y
CONFIG_EVENTFD=y
CONFIG_SIGNALFD=y
CONFIG_TIMERFD=y
CONFIG_SHMEM=y
CONFIG_POSIX_TIMERS=y
CONFIG_FILE_LOCKING=y
CONFIG_DEBUG_KERNEL=y
CONFIG_DEBUG_INFO_NONE=y
CONFIG_STACKTRACE=y
CONFIG_KASAN=y
CONFIG_KASAN_GENERIC=y
CONFIG_KASAN_INLINE=y
CONFIG_DEBUG_OBJECTS=y
CONFIG_DEBUG_OBJECTS_TIMERS=y
CONFIG_DEBUG_KOBJECT_RELEASE=y
CONFIG_DEBUG_LIST=y
CONFIG_PANIC_ON_OOPS=n
EOF
make -s -C "$linux" O="$build" ARCH=x86_64 allnoconfig >&2
"$linux/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
	"$linux/kernel/configs/kvm_guest.config" "$frag" >/dev/null
make -s -C "$linux" O="$build" ARCH=x86_64 olddefconfig >&2
# every option asked for must have survived olddefconfig
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=[ym]$' "$frag" | while IFS= read -r l; do
	grep -qx "$l" "$build/.config" || echo "$l"
done)
[ -z "$missing" ] || rcc_die "debug kernel: options lost by olddefconfig: $(echo $missing)"
rcc_log "debug kernel: building (about 10 minutes)"
make -s -C "$linux" O="$build" ARCH=x86_64 -j"$(nproc)" bzImage modules >&2 ||
	rcc_die "debug kernel: build failed"
rel=$(cat "$build/include/config/kernel.release")
# modules built against an earlier configuration of this release would
# load (same vermagic) with other structure layouts: build them again
rm -rf "$RDMA_CC_CACHE/modules/$rel" "$RDMA_CC_CACHE/rxe-build/$rel"
rm -rf "$out/image"
mkdir -p "$out/image/boot"
cp "$build/arch/x86/boot/bzImage" "$out/image/boot/vmlinuz-$rel"
make -s -C "$linux" O="$build" ARCH=x86_64 INSTALL_MOD_PATH="$out/image" \
	INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod modules_install >&2 ||
	rcc_die "debug kernel: modules_install failed"
# the testbed (tools/testbed/image.sh) finds a kernel's image here
mkdir -p "$RDMA_CC_CACHE/vm/$rel"
rm -rf "$RDMA_CC_CACHE/vm/$rel/image" "$RDMA_CC_CACHE/vm/$rel/initramfs.cpio.gz"
ln -s "$out/image" "$RDMA_CC_CACHE/vm/$rel/image"
touch "$RDMA_CC_CACHE/vm/$rel/.unpacked"
echo "$stamp" >"$out/.built"
echo "$build"
