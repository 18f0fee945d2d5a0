#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-modules.sh modules|modules_install|clean [MAKE ARGS...]
#
# Builds rdma_cc_hook.ko and rdma_cc.ko out of tree against the kernel tree
# rcc_kdir picks: $KDIR, else $KVER (6.1, 6.12, 6.12-rt or a release, its
# headers installed when missing), else /lib/modules/$(uname -r)/build,
# else Debian's newest linux-headers-6.1.0-*-amd64 (installed with deps.sh
# module when missing).  Always with W=1; extra arguments go to make (e.g.
# C=2).  The build is in the checkout, or with RCC_MODDIR=DIR in DIR, a
# directory of links to the checkout's sources (one per kernel, so builds
# for several kernels do not overwrite each other).
set -eu
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

target=${1:-modules}
shift || true
case $target in
modules|modules_install|clean) ;;
*) rcc_die "build-modules.sh: unknown target '$target' (modules, modules_install, clean)" ;;
esac

if [ -z "${KDIR:-}" ] && [ ! -e "/lib/modules/$(uname -r)/build/Makefile" ] &&
   [ -z "$(rcc_debian_headers)" ]; then
	[ "$target" = clean ] && exit 0
	"$top/tools/scripts/deps.sh" module
fi
kdir=$(rcc_kdir)
moddir=$(rcc_moddir)
if [ "$moddir" != "$top" ]; then
	mkdir -p "$moddir/rdma_cc"
	ln -sfn "$top/Kbuild" "$moddir/Kbuild"
	# links only: drop those to files the checkout no longer has
	find "$moddir/rdma_cc" -maxdepth 1 -xtype l -delete
	for f in "$top"/rdma_cc/*.[ch]; do ln -sfn "$f" "$moddir/rdma_cc/"; done
fi
rcc_log "$target against $kdir in $moddir"
exec make -C "$kdir" M="$moddir" W=1 -j"${RCC_JOBS:-2}" "$@" "$target"
