#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-rxe.sh - build Soft-RoCE (rdma_rxe.ko) with the project's patches
# (make rxe).
#
# For the kernel rcc_kdir picks (KVER=6.1, 6.12, 6.12-rt; KDIR): its line's
# source and series are used, 6.1's or 6.12's (both 6.12 flavours).
#  1. unpack Debian's linux-source-6.1 (or -6.12) into the cache (once,
#     rcc_linux_source);
#  2. copy its drivers/infiniband/sw/rxe into $RDMA_CC_CACHE/rxe-src, fresh on
#     every build (the shared tree is never modified);
#  3. apply the series in order with patch -p1 (patches are relative to the
#     top of the kernel tree, a/drivers/infiniband/sw/rxe/...):
#     tools/rxe/patches/series for 6.1, tools/rxe/patches/6.12/series for
#     6.12; no series file, or an empty one, builds plain rxe;
#  4. build rdma_rxe.ko out of tree against rcc_kdir, resolving the symbols of
#     rdma_cc_hook.ko through Module.symvers of rcc_moddir (the checkout, or
#     $RCC_MODDIR), built first with build-modules.sh when the series is not
#     empty and it is missing or for another kernel, with <repo>/rdma_cc and
#     <repo> on the include path;
#  5. leave the module at $RDMA_CC_CACHE/rxe-build/RELEASE/rdma_rxe.ko
#     (RELEASE: uname -r of the kernel).
#
# Options: -v  verbose kbuild output (V=1).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
top=$(cd "$here/../.." && pwd)

verbose=0
while [ $# -gt 0 ]; do
	case $1 in
	-v) verbose=1 ;;
	*) rcc_die "build-rxe.sh: unknown option '$1' (only -v)" ;;
	esac
	shift
done

kdir=$(rcc_kdir)
krel=$(rcc_kernel_release "$kdir")
kline=$(rcc_kernel_line "$kdir")
[ -n "$kline" ] || rcc_die "rxe: $krel ($kdir) is not a supported kernel ($RCC_KERNEL_LINES)"
patchdir=$(rcc_rxe_patchdir "$kline")
series=$patchdir/series
src=$RDMA_CC_CACHE/rxe-src
out=$RDMA_CC_CACHE/rxe-build/$krel
mkdir -p "$RDMA_CC_CACHE"

# Several builds may run at once (other engineers, CI): serialise ours.
exec 9>"$RDMA_CC_CACHE/.rxe-build.lock"
flock 9

# The patches to apply, in series order; comments and blank lines skipped.
patches=()
if [ -f "$series" ]; then
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | xargs)
		[ -n "$line" ] || continue
		[ -f "$patchdir/$line" ] ||
			rcc_die "series names $line, but $patchdir/$line does not exist"
		patches+=("$patchdir/$line")
	done <"$series"
fi

# The unpacking of the shared source tree is serialised with other users
# of the cache through a lock of its own.
linux=$(flock "$RDMA_CC_CACHE/.linux-source.lock" bash -c \
	". '$here/env.sh'; rcc_linux_source $kline")
[ -d "$linux/drivers/infiniband/sw/rxe" ] ||
	rcc_die "$linux has no drivers/infiniband/sw/rxe"
rcc_log "rxe: source $linux, kernel $krel ($kdir), ${#patches[@]} patch(es) from $patchdir"

# A fresh copy, laid out as the top of a kernel tree so -p1 patches apply.
rm -rf "$src"
mkdir -p "$src/drivers/infiniband/sw"
cp -a "$linux/drivers/infiniband/sw/rxe" "$src/drivers/infiniband/sw/rxe"
for p in "${patches[@]}"; do
	rcc_log "rxe: applying $(basename "$p")"
	patch -p1 -N -s -d "$src" <"$p" ||
		rcc_die "patch $(basename "$p") does not apply to linux-source-${kline%-rt}'s rxe"
done

# rdma_cc_hook.ko's symbols: needed as soon as a patch calls the hook, and
# from a build for this kernel.
moddir=$(rcc_moddir)
symvers=$moddir/Module.symvers
hookrel=$(modinfo -F vermagic "$moddir/rdma_cc_hook.ko" 2>/dev/null | cut -d' ' -f1)
if [ ${#patches[@]} -gt 0 ] && { [ ! -s "$symvers" ] || [ "$hookrel" != "$krel" ]; }; then
	rcc_log "rxe: no $symvers for $krel; building the modules first"
	KDIR=$kdir "$here/build-modules.sh" modules ||
		rcc_die "building the modules failed; the patched rxe needs rdma_cc_hook.ko's Module.symvers"
	[ -s "$symvers" ] || rcc_die "building the modules did not produce $symvers"
fi
extra=()
[ -s "$symvers" ] && extra+=("KBUILD_EXTRA_SYMBOLS=$symvers")

rxedir=$src/drivers/infiniband/sw/rxe
make -C "$kdir" M="$rxedir" -j2 V=$verbose CONFIG_RDMA_RXE=m \
	KCFLAGS="-I$top/rdma_cc -I$top" "${extra[@]}" modules ||
	rcc_die "building rdma_rxe.ko failed"
[ -f "$rxedir/rdma_rxe.ko" ] || rcc_die "the build produced no rdma_rxe.ko"

mkdir -p "$out"
cp "$rxedir/rdma_rxe.ko" "$out/rdma_rxe.ko.tmp"
mv "$out/rdma_rxe.ko.tmp" "$out/rdma_rxe.ko"
{
	echo "kernel $krel"
	echo "patches ${#patches[@]}"
	for p in "${patches[@]}"; do
		echo "patch $(basename "$p") $(sha256sum <"$p" | cut -d' ' -f1)"
	done
} >"$out/build-info"
rcc_log "rxe: built $out/rdma_rxe.ko (vermagic $(modinfo -F vermagic "$out/rdma_rxe.ko" 2>/dev/null | cut -d' ' -f1))"
