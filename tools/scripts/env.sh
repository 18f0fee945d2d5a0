# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# env.sh - shared helpers for the build and test scripts: where the cache is,
# how packages are installed, where the kernel trees are.  Source it:
#
#	. "$(dirname "$0")/env.sh"
#
# Everything downloaded or built outside the repository lives under
# $RDMA_CC_CACHE (default /var/cache/rdma_cc), so reruns are fast and a
# clean clone works with an empty cache.

RDMA_CC_CACHE=${RDMA_CC_CACHE:-/var/cache/rdma_cc}
export RDMA_CC_CACHE

rcc_log() { printf '[rdma_cc] %s\n' "$*" >&2; }
rcc_die() { printf '[rdma_cc] error: %s\n' "$*" >&2; exit 1; }

# rcc_apt_install PKG...: install the Debian packages that are missing.
rcc_apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || rcc_die "need root to install: ${missing[*]}"
	rcc_log "installing ${missing[*]}"
	local stamp=/var/lib/apt/periodic/rdma_cc-update-stamp
	if [ ! -e "$stamp" ] || [ -n "$(find "$stamp" -mmin +360 2>/dev/null)" ]; then
		apt-get -o DPkg::Lock::Timeout=600 update -q >&2 ||
			rcc_die "apt-get update failed"
		mkdir -p "${stamp%/*}" && touch "$stamp"
	fi
	# another apt (an unattended upgrade, a second make) holding dpkg's
	# lock is waited for, not taken as a failure
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y -q --no-install-recommends \
		"${missing[@]}" >&2 || rcc_die "apt-get install ${missing[*]} failed"
}

# The kernels rdma_cc supports, by line: 6.1 (Debian 12's kernel), 6.12 and
# 6.12-rt (Debian 12's 6.12 LTS, generic and PREEMPT_RT).  KVER=LINE, or
# KVER=RELEASE (uname -r of an installed kernel), picks the kernel to build
# against; KDIR=TREE picks a build tree directly.
RCC_KERNEL_LINES="6.1 6.12 6.12-rt"

# rcc_line_headers LINE: newest installed Debian headers of LINE, or nothing.
rcc_line_headers() {
	local re
	case $1 in
	6.1) re='6\.1\.0-[0-9]+-amd64' ;;
	6.12) re='6\.12\.[0-9]+\+deb12-amd64' ;;
	6.12-rt) re='6\.12\.[0-9]+\+deb12-rt-amd64' ;;
	*) return 1 ;;
	esac
	local d
	for d in /usr/src/linux-headers-*; do
		[[ ${d#/usr/src/linux-headers-} =~ ^$re$ ]] && echo "$d"
	done | sort -V | tail -n 1
}

# rcc_line_deps LINE: the deps.sh group that installs LINE's headers.
rcc_line_deps() {
	case $1 in
	6.1) echo module ;;
	6.12|6.12-rt) echo k6.12 ;;
	esac
}

# rcc_kver_kdir KVER: the build tree of KVER (a line or a release); installs
# a line's headers when missing.
rcc_kver_kdir() {
	local kver=$1 d
	case " $RCC_KERNEL_LINES " in
	*" $kver "*)
		d=$(rcc_line_headers "$kver")
		if [ -z "$d" ]; then
			bash "$(dirname "${BASH_SOURCE[0]}")/deps.sh" \
				"$(rcc_line_deps "$kver")" >&2 || return 1
			d=$(rcc_line_headers "$kver")
		fi
		[ -n "$d" ] || rcc_die "KVER=$kver: no headers of the $kver line installed"
		echo "$d"
		return
		;;
	esac
	for d in "/lib/modules/$kver/build" "/usr/src/linux-headers-$kver"; do
		[ -e "$d/Makefile" ] && { echo "$d"; return; }
	done
	rcc_die "KVER=$kver: not a kernel line ($RCC_KERNEL_LINES) and no build tree in /lib/modules/$kver/build or /usr/src/linux-headers-$kver"
}

# rcc_kdir: print the kernel build tree to build modules against.
# KDIR wins; then KVER; then the running kernel's build tree; then the
# newest installed Debian linux-headers-6.1.0-*-amd64 (installed when
# missing).
rcc_kdir() {
	if [ -n "${KDIR:-}" ]; then
		[ -e "$KDIR/Makefile" ] || rcc_die "KDIR=$KDIR has no Makefile"
		echo "$KDIR"
		return
	fi
	if [ -n "${KVER:-}" ]; then
		rcc_kver_kdir "$KVER"
		return
	fi
	local running
	running=/lib/modules/$(uname -r)/build
	if [ -e "$running/Makefile" ]; then
		echo "$running"
		return
	fi
	local d
	d=$(rcc_debian_headers)
	if [ -z "$d" ]; then
		rcc_apt_install linux-headers-amd64
		d=$(rcc_debian_headers)
	fi
	[ -n "$d" ] || rcc_die "no linux-headers-6.1.0-*-amd64 found"
	echo "$d"
}

# rcc_debian_headers: newest /usr/src/linux-headers-6.1.0-N-amd64, or nothing.
rcc_debian_headers() {
	rcc_line_headers 6.1
}

# rcc_kernel_line KDIR: the line (6.1, 6.12, 6.12-rt) of the kernel KDIR is
# for, from its release; nothing for another kernel.
rcc_kernel_line() {
	local r
	r=$(rcc_kernel_release "$1")
	case $r in
	6.1.*) echo 6.1 ;;
	6.12.*-rt-*|6.12.*-rt) echo 6.12-rt ;;
	6.12.*) echo 6.12 ;;
	esac
}

# rcc_check_kernels: the kernel lines the test suites cover, in order:
# $RCC_CHECK_KERNELS, else every supported line.
rcc_check_kernels() {
	echo "${RCC_CHECK_KERNELS:-$RCC_KERNEL_LINES}"
}

# rcc_rxe_patchdir LINE: the Soft-RoCE series for a kernel line: 6.1's in
# tools/rxe/patches, 6.12's (both flavours) in tools/rxe/patches/6.12.
rcc_rxe_patchdir() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	case $1 in
	6.1) echo "$top/tools/rxe/patches" ;;
	6.12|6.12-rt) echo "$top/tools/rxe/patches/6.12" ;;
	*) rcc_die "no Soft-RoCE series for kernel line '$1'" ;;
	esac
}

# rcc_build_line LINE: build rdma_cc's modules for a kernel line in the
# cache's directory of that kernel, $RDMA_CC_CACHE/modules/RELEASE (output to
# stderr), and print that directory.  Rebuilds only what changed.
rcc_build_line() {
	local line=$1 kdir rel dir here
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	kdir=$(KDIR='' KVER=$line rcc_kdir) || return 1
	rel=$(rcc_kernel_release "$kdir")
	dir=$RDMA_CC_CACHE/modules/$rel
	KDIR=$kdir RCC_MODDIR=$dir "$here/build-modules.sh" modules >&2 || return 1
	[ -s "$dir/Module.symvers" ] && [ -f "$dir/rdma_cc.ko" ] || return 1
	echo "$dir"
}

# rcc_suite_for LINE CMD...: run CMD for one kernel line: with KVER=LINE,
# RCC_MODDIR=$RDMA_CC_CACHE/modules/RELEASE (make modules and make rxe build
# for that kernel there and in rxe-build/RELEASE, the testbed boots it) and
# RCC_SUITE_KERNEL=LINE, which a suite names its lines after.
rcc_suite_for() {
	local line=$1 kdir rel
	shift
	kdir=$(KDIR='' KVER=$line rcc_kdir) || return 1
	rel=$(rcc_kernel_release "$kdir")
	KDIR='' KVER=$line RCC_MODDIR=$RDMA_CC_CACHE/modules/$rel \
		RCC_SUITE_KERNEL=$line "$@"
}

# rcc_for_kver SCRIPT ARGS...: in a tool run with KVER set, run SCRIPT
# again under rcc_suite_for, so that it builds rdma_cc and rxe for that
# kernel and boots it, and exit with its status; otherwise return.
rcc_for_kver() {
	if [ -n "${KVER:-}" ] && [ -z "${RCC_SUITE_KERNEL:-}" ]; then
		rcc_suite_for "$KVER" "$@"
		exit
	fi
}

# rcc_moddir: where rdma_cc's modules are built: $RCC_MODDIR (a directory
# of links to the checkout's sources, for a build per kernel), else the
# checkout itself.
rcc_moddir() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	echo "${RCC_MODDIR:-$top}"
}

# rcc_kernel_release: the release (uname -r) of the kernel the headers in $1
# (a KDIR) are for: utsrelease.h, as Debian's kernel.release holds only the
# upstream version.
rcc_kernel_release() {
	local kdir=$1 r
	r=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
		"$kdir/include/generated/utsrelease.h" 2>/dev/null)
	[ -n "$r" ] || r=$(cat "$kdir/include/config/kernel.release" 2>/dev/null)
	[ -n "$r" ] || r=${kdir##*/linux-headers-}
	echo "$r"
}

# rcc_linux_source [LINE]: print the path of Debian's linux-source-6.1 (or
# linux-source-LINE: 6.1, 6.12), unpacked into the cache (once).  The tree
# is never modified in place by callers that need it pristine: copy what
# you patch.
rcc_linux_source() {
	local line=${1:-6.1}
	line=${line%-rt}
	local dest=$RDMA_CC_CACHE/linux-source-$line
	if [ ! -e "$dest/.rdma_cc-unpacked" ]; then
		case $line in
		6.1) rcc_apt_install linux-source-6.1 xz-utils ;;
		6.12) bash "$(dirname "${BASH_SOURCE[0]}")/deps.sh" k6.12 >&2 ||
			rcc_die "deps.sh k6.12 failed" ;;
		*) rcc_die "no linux-source for kernel line $line" ;;
		esac
		local tarball
		tarball=$(ls /usr/src/linux-source-"$line".tar.xz \
			     /usr/src/linux-source-"$line".[0-9]*.tar.xz 2>/dev/null |
			  sort -V | tail -n 1)
		[ -n "$tarball" ] || rcc_die "linux-source-$line tarball not found in /usr/src"
		rcc_log "unpacking $tarball into $dest"
		rm -rf "$dest" "$dest.tmp"
		mkdir -p "$dest.tmp"
		tar -xf "$tarball" -C "$dest.tmp" --strip-components=1 ||
			rcc_die "unpacking $tarball failed"
		mv "$dest.tmp" "$dest"
		touch "$dest/.rdma_cc-unpacked"
	fi
	echo "$dest"
}
