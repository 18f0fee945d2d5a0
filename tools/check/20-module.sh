#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 20-module.sh - rdma_cc.ko, rdma_cc_hook.ko and rdma_cc_dcqcn.ko build
# clean against every supported kernel (6.1, 6.12, 6.12-rt;
# RCC_CHECK_KERNELS narrows it): no warnings at W=1, sparse clean at C=2,
# the vermagic of the kernel, and modinfo shows the license, the
# description and every parameter of the shared table with its unit and
# range (rdma_cc_dcqcn.ko: every knob of dcqcn.c's table with its range).  Those lines are
# "ok module[LINE]: ...", one set per kernel.  Then, once, checkpatch
# --strict clean on rdma_cc/ and kunit/.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"

"$top/tools/scripts/deps.sh" module >/dev/null || exit 1
src=$(rcc_linux_source) || exit 1
work=$RDMA_CC_CACHE/check-module
mkdir -p "$work"

# modinfo against the shared parameter table (params.c, compiled here).
table=$work/param-table
cat > "$work/param-table.c" <<'C'
#include <stdio.h>
#include "params.h"
int main(void)
{
	for (int i = 0; i < RCC_NR_PARAMS; i++)
		printf("%s:%s (%s, range %u..%u)\n", rcc_param_descs[i].name,
		       rcc_param_descs[i].help, rcc_param_descs[i].unit,
		       rcc_param_descs[i].min, rcc_param_descs[i].max);
	return 0;
}
C
if ! gcc -O0 -I"$top/rdma_cc" -o "$table" "$work/param-table.c" \
	"$top/rdma_cc/params.c" 2>"$work/param-table.log"; then
	cat "$work/param-table.log"
	echo "not ok module: the parameter table compiles"
	table=
fi
# DCQCN's knobs (dcqcn.c's table): "name range min..max" per line
dtable=$work/dcqcn-table
cat > "$work/dcqcn-table.c" <<'C'
#include <stdio.h>
#include "dcqcn.h"
int main(void)
{
	for (int i = 0; i < DCQCN_NR_PARAMS; i++)
		printf("%s range %u..%u\n", dcqcn_param_descs[i].name,
		       dcqcn_param_descs[i].min, dcqcn_param_descs[i].max);
	return 0;
}
C
if ! gcc -O0 -I"$top/rdma_cc" -o "$dtable" "$work/dcqcn-table.c" \
	"$top/rdma_cc/dcqcn.c" 2>"$work/dcqcn-table.log"; then
	cat "$work/dcqcn-table.log"
	echo "not ok module: the DCQCN parameter table compiles"
	dtable=
fi

# check_kernel LINE: build against LINE's headers in a fresh directory of
# its own (sparse on every file), then the warnings and modinfo.
check_kernel() {
	local line=$1 kdir rel dir log diag mi field want have missing hi t
	t="module[$line]"
	if ! kdir=$(KDIR='' KVER=$line rcc_kdir 2>"$work/kdir.log"); then
		cat "$work/kdir.log"
		echo "not ok $t: headers installed"
		return
	fi
	rel=$(rcc_kernel_release "$kdir")
	dir=$work/$rel
	log=$work/build-$rel.log
	rm -rf "$dir"
	if KDIR='' KVER=$line RCC_MODDIR=$dir \
		"$top/tools/scripts/build-modules.sh" modules C=2 > "$log" 2>&1 &&
	   [ -e "$dir/rdma_cc.ko" ] && [ -e "$dir/rdma_cc_hook.ko" ] &&
	   [ -e "$dir/rdma_cc_dcqcn.ko" ]; then
		echo "ok $t: rdma_cc.ko, rdma_cc_hook.ko and rdma_cc_dcqcn.ko build against $rel"
	else
		tail -n 30 "$log"
		echo "not ok $t: rdma_cc.ko, rdma_cc_hook.ko and rdma_cc_dcqcn.ko build against $rel"
		return
	fi
	grep -q 'CHECK .*rdma_cc/qp.c' "$log" || echo "sparse did not run" >> "$log"
	grep -q 'CHECK .*rdma_cc/dcqcn.c' "$log" || echo "sparse did not run on dcqcn.c" >> "$log"
	# Compiler and sparse both report as "file:line:col: warning|error: ...".
	diag=$(grep -E ': (warning|error)|sparse did not run' "$log")
	if [ -z "$diag" ]; then
		echo "ok $t: no compiler warning at W=1 and no sparse warning at C=2"
	else
		echo "$diag"
		echo "not ok $t: no compiler warning at W=1 and no sparse warning at C=2"
	fi
	if [ "$(modinfo -F vermagic "$dir/rdma_cc.ko" | cut -d' ' -f1)" = "$rel" ]; then
		echo "ok $t: vermagic is $rel"
	else
		echo "not ok $t: vermagic is $rel"
	fi

	[ -n "$table" ] || return
	mi=$(modinfo "$dir/rdma_cc.ko")
	for field in license description; do
		if grep -q "^$field: *[^ ]" <<<"$mi"; then
			echo "ok $t: modinfo shows the $field"
		else
			echo "not ok $t: modinfo shows the $field"
		fi
	done
	grep -q '^license: *GPL$' <<<"$mi" || echo "not ok $t: license is GPL"
	want=$("$table")
	have=$(sed -n 's/^parm: *//p' <<<"$mi")
	missing=$(comm -23 <(sort <<<"$want") <(sort <<<"$have"))
	if [ -z "$missing" ] && [ "$(wc -l <<<"$have")" -eq 10 ] &&
	   [ "$(wc -l <<<"$want")" -eq 10 ]; then
		echo "ok $t: modinfo shows all 10 parameters with unit and range"
	else
		echo "expected, missing from modinfo:"
		echo "$missing"
		echo "not ok $t: modinfo shows all 10 parameters with unit and range"
	fi
	if [ -n "$dtable" ]; then
		mi=$(modinfo "$dir/rdma_cc_dcqcn.ko")
		want=$("$dtable"; echo "mtu range 1..65536"; echo "slowdown range 1..1000000")
		# "parm: NAME:... (UNIT, range MIN..MAX) (uint)" -> "NAME range MIN..MAX"
		have=$(sed -n 's/^parm: *\([a-z_]*\):.*, \(range [0-9]*\.\.[0-9]*\)).*/\1 \2/p' <<<"$mi")
		if [ "$(sort <<<"$want")" = "$(sort <<<"$have")" ] &&
		   [ "$(modinfo -F license "$dir/rdma_cc_dcqcn.ko")" = GPL ] &&
		   [ -n "$(modinfo -F description "$dir/rdma_cc_dcqcn.ko")" ]; then
			echo "ok $t: rdma_cc_dcqcn.ko: license, description, all 17 knobs (mlx5's names, mtu, slowdown) with dcqcn.c's ranges"
		else
			diff <(sort <<<"$want") <(sort <<<"$have") | head -n 20
			echo "not ok $t: rdma_cc_dcqcn.ko: license, description, all 17 knobs (mlx5's names, mtu, slowdown) with dcqcn.c's ranges"
		fi
	fi
	hi=$(modinfo -F license "$dir/rdma_cc_hook.ko")
	if [ "$hi" = GPL ] && [ -n "$(modinfo -F description "$dir/rdma_cc_hook.ko")" ]; then
		echo "ok $t: rdma_cc_hook.ko has license and description"
	else
		echo "not ok $t: rdma_cc_hook.ko has license and description"
	fi
}

for line in $(rcc_check_kernels); do
	check_kernel "$line"
done

# checkpatch --strict, from Debian's linux-source-6.1, on every source file.
bad=0
for f in "$top"/rdma_cc/*.[ch] "$top"/kunit/*.[ch] "$top/Kbuild" \
	 "$top/kunit/Kbuild.uml" "$top/kunit/Kconfig"; do
	# compat.h is the one file that tests the kernel's version (and
	# checkpatch takes LINUX_VERSION_CODE for a constant on the left)
	ign=FILE_PATH_CHANGES
	[ "${f##*/}" = compat.h ] && ign+=,LINUX_VERSION_CODE,CONSTANT_COMPARISON
	# params.h (struct rcc_params) and sysfs.c (the module parameters)
	# expand rdma_cc/param_list.h into declarations: such an X-macro ends
	# in ';' and names its parameter twice by nature
	case ${f##*/} in
	params.h|sysfs.c) ign+=,TRAILING_SEMICOLON,MACRO_ARG_REUSE ;;
	esac
	out=$(cd "$work" && "$src/scripts/checkpatch.pl" --strict --no-tree \
		--terse --show-types --ignore "$ign" -f "$f" 2>&1)
	# --terse prints nothing, or a clean total, for a clean file.
	rest=$(grep -v '^total: 0 errors, 0 warnings, 0 checks\|^$' <<<"$out")
	if [ -n "$rest" ]; then
		echo "$rest"
		bad=1
	fi
done
if [ "$bad" = 0 ]; then
	echo "ok module: checkpatch --strict clean on rdma_cc/ and kunit/"
else
	echo "not ok module: checkpatch --strict clean on rdma_cc/ and kunit/"
fi
