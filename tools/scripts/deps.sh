#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh GROUP... - install the Debian packages a part of the project needs.
# Groups: base (the core and tools), module (rdma_cc.ko, style checks),
# kunit (UML KUnit), kunit-smp (KUnit in an x86_64 qemu guest), vm (the
# qemu testbed), plot (PNG plots), bench (make bench: callgrind, ns-3 for
# the speed reference), fuzz, dkms, ops (what operators use on the
# testbed: iproute2's rdma, Prometheus' node exporter, trace-cmd, gnuplot),
# k6.12 (the 6.12 kernels: Debian 12's
# 6.12 LTS headers and image, generic and PREEMPT_RT, and linux-source-6.12).
set -eu
. "$(dirname "$0")/env.sh"

# k612_pkgs: the 6.12 packages, pinned to the release linux-headers-6.12-amd64
# (the meta-package) points at, with the unsigned images the headers accept.
k612_pkgs() {
	local rel
	rel=$(apt-cache depends linux-headers-6.12-amd64 2>/dev/null |
	      sed -n 's/^ *Depends: linux-headers-\(6\.12\.[0-9]*+deb12\)-amd64$/\1/p' |
	      head -n 1)
	if [ -z "$rel" ]; then
		apt-get -o DPkg::Lock::Timeout=600 update -q >&2 || rcc_die "apt-get update failed"
		rel=$(apt-cache depends linux-headers-6.12-amd64 2>/dev/null |
		      sed -n 's/^ *Depends: linux-headers-\(6\.12\.[0-9]*+deb12\)-amd64$/\1/p' |
		      head -n 1)
	fi
	[ -n "$rel" ] || rcc_die "deps.sh: linux-headers-6.12-amd64 not in the archive"
	echo "linux-image-$rel-amd64-unsigned linux-headers-$rel-amd64"
	echo "linux-image-$rel-rt-amd64-unsigned linux-headers-$rel-rt-amd64"
	echo "linux-source-6.12 xz-utils"
}

pkgs=()
for group in "$@"; do
	case $group in
	base)	pkgs+=(gcc make libc6-dev python3 ca-certificates) ;;
	module)	pkgs+=(gcc make linux-headers-amd64 sparse linux-source-6.1
		       xz-utils perl python3 kmod) ;;
	kunit)	pkgs+=(gcc make flex bison bc python3 linux-source-6.1 xz-utils
		       libelf-dev) ;;
	kunit-smp) pkgs+=(gcc make flex bison bc python3 linux-source-6.1
		       xz-utils libelf-dev qemu-system-x86 qemu-system-data) ;;
	vm)	pkgs+=(qemu-system-x86 busybox-static iproute2 rdma-core
		       ibverbs-utils perftest tshark cpio kmod procps
		       linux-headers-amd64 linux-source-6.1 xz-utils bc flex bison
		       clang bpftool linux-libc-dev) ;;
	plot)	pkgs+=(gnuplot-nox) ;;
	ops)	pkgs+=(iproute2 prometheus-node-exporter trace-cmd gnuplot-nox
		       python3 curl) ;;
	bench)	pkgs+=(gcc g++ make libc6-dev valgrind pkg-config ns3 libns3-dev) ;;
	fuzz)	pkgs+=(clang libclang-rt-14-dev) ;;
	dkms)	pkgs+=(dkms linux-headers-amd64) ;;
	k6.12)	# installed only when no 6.12 headers are there yet: the
		# archive's newest release is not chased on every run
		if ! ls -d /usr/src/linux-headers-6.12.*+deb12-amd64 \
		     /usr/src/linux-headers-6.12.*+deb12-rt-amd64 >/dev/null 2>&1 ||
		   ! ls /usr/src/linux-source-6.12*.tar.xz >/dev/null 2>&1; then
			# shellcheck disable=SC2207
			pkgs+=($(k612_pkgs))
		fi ;;
	*)	rcc_die "deps.sh: unknown group '$group'" ;;
	esac
done
[ ${#pkgs[@]} -eq 0 ] || rcc_apt_install "${pkgs[@]}"
