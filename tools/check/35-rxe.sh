#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 35-rxe.sh - the Soft-RoCE patch series, one per kernel line:
# tools/rxe/patches (6.1) and tools/rxe/patches/6.12 (6.12, both flavours):
#   - every patch of each series passes checkpatch --strict;
#   - for each kernel (6.1, 6.12, 6.12-rt; RCC_CHECK_KERNELS narrows it)
#     its series applies to that line's pristine linux-source rxe, patch by
#     patch, and the tree builds after each patch at W=1 with no warning
#     against that kernel's headers (6.12-rt, whose series is 6.12's, builds
#     once, with the whole series);
#   - the whole series is sparse clean (C=2);
#   - the module has the new parameters, depends on rdma_cc_hook and has
#     the kernel's vermagic.
# Lines are "ok rxe[LINE]/...".  The build needs rdma_cc_hook.ko's
# Module.symvers for that kernel: rcc_build_line builds rdma_cc in
# $RDMA_CC_CACHE/modules/RELEASE (or $RXE_HOOK_SYMVERS, for 6.1 only).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"
bash "$top/tools/scripts/deps.sh" module >/dev/null || exit 1

mkdir -p "$RDMA_CC_CACHE"
# a tree of its own: several runs of this suite may overlap (CI, engineers)
work=$(mktemp -d "$RDMA_CC_CACHE/rxe-check.XXXXXX") || exit 1
log=$(mktemp)
trap 'rm -rf "$log" "$work"' EXIT

report() { # report NAME STATUS: print ok/not ok NAME and, on failure, the log
	if [ "$2" -eq 0 ]; then
		echo "ok $1"
	else
		echo "not ok $1"
		tail -n 25 "$log" | sed 's/^/#   /'
	fi
	return "$2"
}

# series_patches DIR: the patches of DIR/series, in order.
series_patches() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		l=${l%%#*}
		l=$(echo "$l" | xargs)
		[ -n "$l" ] && echo "$l"
	done <"$1/series"
}

# kbuild W=1 [C=2] in the work tree; fails on any warning or error.
rxe_build() {
	make -C "$kdir" M="$tree/drivers/infiniband/sw/rxe" -j2 \
		CONFIG_RDMA_RXE=m W=1 "$@" KCFLAGS="-I$top/rdma_cc -I$top" \
		KBUILD_EXTRA_SYMBOLS="$symvers" modules >"$log" 2>&1 || return 1
	! grep -Eiq 'warning|error:' "$log"
}

checked=" "
for kline in $(rcc_check_kernels); do
	t="rxe[$kline]"
	patchdir=$(rcc_rxe_patchdir "$kline") || { echo "not ok $t/series"; continue; }
	mapfile -t patches < <(series_patches "$patchdir")
	[ ${#patches[@]} -gt 0 ] || { echo "not ok $t/series: empty"; continue; }
	src=${kline%-rt}
	linux=$(flock "$RDMA_CC_CACHE/.linux-source.lock" bash -c \
		". '$top/tools/scripts/env.sh'; rcc_linux_source $src") ||
		{ echo "not ok $t/source: linux-source-$src"; continue; }

	# checkpatch once per series, with the checkpatch of its kernel
	if [[ $checked != *" $patchdir "* ]]; then
		checked+="$patchdir "
		for p in "${patches[@]}"; do
			"$linux/scripts/checkpatch.pl" --strict --no-tree -q \
				--ignore FILE_PATH_CHANGES "$patchdir/$p" >"$log" 2>&1
			report "rxe[$src]/checkpatch/${p%%-*}" $?
		done
	fi

	kdir=$(KDIR='' KVER=$kline rcc_kdir 2>"$log")
	report "$t/headers" $? || continue
	rel=$(rcc_kernel_release "$kdir")
	if [ "$kline" = 6.1 ] && [ -n "${RXE_HOOK_SYMVERS:-}" ]; then
		symvers=$RXE_HOOK_SYMVERS
	else
		symvers=$(rcc_build_line "$kline" 2>"$log")/Module.symvers
	fi
	[ -s "$symvers" ]
	report "$t/hook-symbols" $? || continue

	tree=$work/$rel
	mkdir -p "$tree/drivers/infiniband/sw"
	cp -a "$linux/drivers/infiniband/sw/rxe" "$tree/drivers/infiniband/sw/rxe"
	for p in "${patches[@]}"; do
		n=${p%%-*}
		patch -p1 -N -s -d "$tree" <"$patchdir/$p" >"$log" 2>&1
		report "$t/applies/$n" $? || break
		[ "$kline" = 6.12-rt ] && continue
		rxe_build
		report "$t/builds-w1/$n" $?
	done
	if [ "$kline" = 6.12-rt ]; then
		rxe_build
		report "$t/builds-w1/series" $?
	fi

	# sparse on every file of the patched driver
	touch "$tree"/drivers/infiniband/sw/rxe/*.c
	rxe_build C=2
	report "$t/sparse" $?

	ko=$tree/drivers/infiniband/sw/rxe/rdma_rxe.ko
	{
		modinfo -F parm "$ko" | grep -q '^cnp_min_gap_us:' &&
		modinfo -F parm "$ko" | grep -q '^pace_burst_us:' &&
		modinfo -F depends "$ko" | tr , '\n' | grep -qx rdma_cc_hook &&
		[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$rel" ]
	} >"$log" 2>&1
	report "$t/modinfo" $?
	rm -rf "$tree"
done
