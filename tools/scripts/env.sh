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
		apt-get update -q >&2 || rcc_die "apt-get update failed"
		mkdir -p "${stamp%/*}" && touch "$stamp"
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >&2 || rcc_die "apt-get install ${missing[*]} failed"
}

# rcc_kdir: print the kernel build tree to build modules against.
# KDIR wins; then the running kernel's build tree; then the newest
# installed Debian linux-headers-6.1.0-*-amd64 (installed when missing).
rcc_kdir() {
	if [ -n "${KDIR:-}" ]; then
		[ -e "$KDIR/Makefile" ] || rcc_die "KDIR=$KDIR has no Makefile"
		echo "$KDIR"
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
	ls -d /usr/src/linux-headers-6.1.0-*-amd64 2>/dev/null | sort -V | tail -n 1
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

# rcc_linux_source: print the path of Debian's linux-source-6.1, unpacked
# into the cache (once).  The tree is never modified in place by callers
# that need it pristine: copy what you patch.
rcc_linux_source() {
	local dest=$RDMA_CC_CACHE/linux-source-6.1
	if [ ! -e "$dest/.rdma_cc-unpacked" ]; then
		rcc_apt_install linux-source-6.1 xz-utils
		local tarball
		# exactly 6.1: linux-source-6.1* would also match 6.12's tarball
		tarball=$(ls /usr/src/linux-source-6.1.tar.xz /usr/src/linux-source-6.1.[0-9]*.tar.xz 2>/dev/null | sort -V | tail -n 1)
		[ -n "$tarball" ] || rcc_die "linux-source-6.1 tarball not found in /usr/src"
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
