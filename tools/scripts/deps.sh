#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh GROUP... - install the Debian packages a part of the project needs.
# Groups: base (the core and tools), module (rdma_cc.ko, style checks),
# kunit (UML KUnit), vm (the qemu testbed), plot (PNG plots), bench
# (make bench: callgrind), fuzz, dkms.
set -eu
. "$(dirname "$0")/env.sh"

pkgs=()
for group in "$@"; do
	case $group in
	base)	pkgs+=(gcc make libc6-dev python3 ca-certificates) ;;
	module)	pkgs+=(gcc make linux-headers-amd64 sparse linux-source-6.1
		       xz-utils perl python3 kmod) ;;
	kunit)	pkgs+=(gcc make flex bison bc python3 linux-source-6.1 xz-utils
		       libelf-dev) ;;
	vm)	pkgs+=(qemu-system-x86 busybox-static iproute2 rdma-core
		       ibverbs-utils perftest tshark cpio kmod procps
		       linux-headers-amd64 linux-source-6.1 xz-utils bc flex bison
		       clang bpftool linux-libc-dev) ;;
	plot)	pkgs+=(gnuplot-nox) ;;
	bench)	pkgs+=(gcc make libc6-dev valgrind) ;;
	fuzz)	pkgs+=(clang libclang-rt-14-dev) ;;
	dkms)	pkgs+=(dkms linux-headers-amd64) ;;
	*)	rcc_die "deps.sh: unknown group '$group'" ;;
	esac
done
[ ${#pkgs[@]} -eq 0 ] || rcc_apt_install "${pkgs[@]}"
