#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 35-rxe.sh - the Soft-RoCE patch series (tools/rxe/patches):
#   - every patch passes checkpatch --strict;
#   - the series applies to linux-source-6.1's pristine rxe, patch by patch,
#     and the tree builds after each patch at W=1 with no warning;
#   - the whole series is sparse clean (C=2);
#   - the module has the new parameters and depends on rdma_cc_hook.
# The build needs rdma_cc_hook.ko's Module.symvers: <repo>/Module.symvers,
# made with "make modules" when missing, or $RXE_HOOK_SYMVERS.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"
bash "$top/tools/scripts/deps.sh" module >/dev/null || exit 1

patchdir=$top/tools/rxe/patches
mkdir -p "$RDMA_CC_CACHE"
# a tree of its own: several runs of this suite may overlap (CI, engineers)
work=$(mktemp -d "$RDMA_CC_CACHE/rxe-check.XXXXXX") || exit 1
log=$(mktemp)
trap 'rm -rf "$log" "$work"' EXIT

linux=$(flock "$RDMA_CC_CACHE/.linux-source.lock" bash -c \
	". '$top/tools/scripts/env.sh'; rcc_linux_source") || exit 1
kdir=$(rcc_kdir) || exit 1

report() { # report NAME STATUS: print ok/not ok NAME and, on failure, the log
	if [ "$2" -eq 0 ]; then
		echo "ok $1"
	else
		echo "not ok $1"
		tail -n 25 "$log" | sed 's/^/#   /'
	fi
	return "$2"
}

# The patches, in series order.
patches=()
while IFS= read -r line || [ -n "$line" ]; do
	line=${line%%#*}
	line=$(echo "$line" | xargs)
	[ -n "$line" ] && patches+=("$line")
done <"$patchdir/series"
[ ${#patches[@]} -gt 0 ] || { echo "not ok rxe/series: empty"; exit 0; }

for p in "${patches[@]}"; do
	"$linux/scripts/checkpatch.pl" --strict --no-tree -q \
		--ignore FILE_PATH_CHANGES "$patchdir/$p" >"$log" 2>&1
	report "rxe/checkpatch/${p%%-*}" $?
done

symvers=${RXE_HOOK_SYMVERS:-$top/Module.symvers}
if [ ! -s "$symvers" ]; then
	make -C "$top" --no-print-directory modules >"$log" 2>&1
fi
[ -s "$symvers" ]
report "rxe/hook-symbols" $?
[ -s "$symvers" ] || exit 0

# kbuild W=1 [C=2] in the work tree; fails on any warning or error.
rxe_build() {
	make -C "$kdir" M="$work/drivers/infiniband/sw/rxe" -j2 \
		CONFIG_RDMA_RXE=m W=1 "$@" KCFLAGS="-I$top/rdma_cc -I$top" \
		KBUILD_EXTRA_SYMBOLS="$symvers" modules >"$log" 2>&1 || return 1
	! grep -Eiq 'warning|error:' "$log"
}

mkdir -p "$work/drivers/infiniband/sw"
cp -a "$linux/drivers/infiniband/sw/rxe" "$work/drivers/infiniband/sw/rxe"
for p in "${patches[@]}"; do
	n=${p%%-*}
	patch -p1 -N -s -d "$work" <"$patchdir/$p" >"$log" 2>&1
	report "rxe/applies/$n" $? || break
	rxe_build
	report "rxe/builds-w1/$n" $?
done

# sparse on every file of the patched driver
touch "$work"/drivers/infiniband/sw/rxe/*.c
rxe_build C=2
report "rxe/sparse" $?

ko=$work/drivers/infiniband/sw/rxe/rdma_rxe.ko
{
	modinfo -F parm "$ko" | grep -q '^cnp_min_gap_us:' &&
	modinfo -F parm "$ko" | grep -q '^pace_burst_us:' &&
	modinfo -F depends "$ko" | tr , '\n' | grep -qx rdma_cc_hook
} >"$log" 2>&1
report "rxe/modinfo" $?
