#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh - build tools/bench/rcc_bench.ko out of tree, against the kernel
# tree rcc_kdir picks, at W=1, linking against the rdma_cc_hook.ko symbols
# in <repo>/Module.symvers (so `make modules` runs first when they are
# missing or older than the sources).  The build happens in a copy under
# $RDMA_CC_CACHE/bench/build; the module is copied to
# $RDMA_CC_CACHE/bench/rcc_bench.ko, whose path is printed.  Extra
# arguments go to make (e.g. C=2).
set -eu
. "$(dirname "$0")/../scripts/env.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tools/bench
out=$RDMA_CC_CACHE/bench
build=$out/build

stale=
for f in "$top"/rdma_cc/*.[ch]; do
	[ "$f" -nt "$top/rdma_cc.ko" ] && stale=1 && break
done
if [ ! -s "$top/Module.symvers" ] || [ ! -e "$top/rdma_cc.ko" ] ||
   [ ! -e "$top/rdma_cc_hook.ko" ] || [ -n "$stale" ]; then
	rcc_log "bench: building rdma_cc first (make modules)"
	make --no-print-directory -C "$top" modules >&2 ||
		rcc_die "make modules failed"
fi
grep -q 'rdma_cc_hook_register_dev' "$top/Module.symvers" ||
	rcc_die "$top/Module.symvers lacks rdma_cc_hook's symbols"

kdir=$(rcc_kdir)
mkdir -p "$build"
cp "$here/Kbuild" "$here/rcc_bench.c" "$build/"
# kbuild does not see KBUILD_EXTRA_SYMBOLS change: when the hook's
# symbols (their CRCs) are newer than the module, link it anew
[ "$top/Module.symvers" -nt "$build/rcc_bench.ko" ] &&
	rm -f "$build"/rcc_bench.mod.c "$build"/rcc_bench.mod.o "$build"/rcc_bench.ko
make -C "$kdir" M="$build" RCC_TOP="$top" W=1 -j"${RCC_JOBS:-2}" \
	KBUILD_EXTRA_SYMBOLS="$top/Module.symvers" "$@" modules >&2 ||
	rcc_die "building rcc_bench.ko failed"
# a rename, so that a VM reading the old module keeps it whole
cp "$build/rcc_bench.ko" "$out/rcc_bench.ko.tmp"
mv "$out/rcc_bench.ko.tmp" "$out/rcc_bench.ko"
echo "$out/rcc_bench.ko"
