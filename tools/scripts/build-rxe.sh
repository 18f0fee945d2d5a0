#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-rxe.sh - build Soft-RoCE (rdma_rxe.ko) with the project's patches
# (make rxe).
#
#  1. unpack Debian's linux-source-6.1 into the cache (once, rcc_linux_source);
#  2. copy its drivers/infiniband/sw/rxe into $RDMA_CC_CACHE/rxe-src, fresh on
#     every build (the shared tree is never modified);
#  3. apply tools/rxe/patches/series in order with patch -p1 (patches are
#     relative to the top of the kernel tree, a/drivers/infiniband/sw/rxe/...);
#     no series file, or an empty one, builds plain rxe;
#  4. build rdma_rxe.ko out of tree against rcc_kdir, resolving the symbols of
#     rdma_cc_hook.ko through <repo>/Module.symvers (built first with
#     "make modules" when the series is not empty and it is missing), with
#     <repo>/rdma_cc and <repo> on the include path;
#  5. leave the module at $RDMA_CC_CACHE/rxe-build/rdma_rxe.ko.
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

patchdir=$top/tools/rxe/patches
series=$patchdir/series
src=$RDMA_CC_CACHE/rxe-src
out=$RDMA_CC_CACHE/rxe-build
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
	". '$here/env.sh'; rcc_linux_source")
[ -d "$linux/drivers/infiniband/sw/rxe" ] ||
	rcc_die "$linux has no drivers/infiniband/sw/rxe"
kdir=$(rcc_kdir)
krel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
	"$kdir/include/generated/utsrelease.h" 2>/dev/null)
[ -n "$krel" ] || krel=$(rcc_kernel_release "$kdir")
rcc_log "rxe: source $linux, kernel $krel ($kdir), ${#patches[@]} patch(es)"

# A fresh copy, laid out as the top of a kernel tree so -p1 patches apply.
rm -rf "$src"
mkdir -p "$src/drivers/infiniband/sw"
cp -a "$linux/drivers/infiniband/sw/rxe" "$src/drivers/infiniband/sw/rxe"
for p in "${patches[@]}"; do
	rcc_log "rxe: applying $(basename "$p")"
	patch -p1 -N -s -d "$src" <"$p" ||
		rcc_die "patch $(basename "$p") does not apply to linux-source-6.1's rxe"
done

# rdma_cc_hook.ko's symbols: needed as soon as a patch calls the hook.
symvers=$top/Module.symvers
if [ ${#patches[@]} -gt 0 ] && [ ! -s "$symvers" ]; then
	rcc_log "rxe: $symvers missing; building the modules first"
	make -C "$top" --no-print-directory modules ||
		rcc_die "make modules failed; the patched rxe needs rdma_cc_hook.ko's Module.symvers"
	[ -s "$symvers" ] || rcc_die "make modules did not produce $symvers"
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
