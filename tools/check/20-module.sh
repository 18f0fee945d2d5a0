#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 20-module.sh - rdma_cc.ko and rdma_cc_hook.ko build clean: no warnings at
# W=1, sparse clean at C=2, checkpatch --strict clean on rdma_cc/ and
# kunit/, and modinfo shows the license, the description and every
# parameter of the shared table with its unit and range.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"

"$top/tools/scripts/deps.sh" module >/dev/null || exit 1
src=$(rcc_linux_source) || exit 1
work=$RDMA_CC_CACHE/check-module
mkdir -p "$work"

# A fresh build with sparse on every file.
log=$work/build.log
"$top/tools/scripts/build-modules.sh" clean >/dev/null 2>&1
if "$top/tools/scripts/build-modules.sh" modules C=2 > "$log" 2>&1 &&
   [ -e "$top/rdma_cc.ko" ] && [ -e "$top/rdma_cc_hook.ko" ]; then
	echo "ok module: rdma_cc.ko and rdma_cc_hook.ko build"
else
	tail -n 30 "$log"
	echo "not ok module: rdma_cc.ko and rdma_cc_hook.ko build"
	exit 0
fi
grep -q 'CHECK .*rdma_cc/qp.c' "$log" || echo "sparse did not run" >> "$log"
# Compiler and sparse both report as "file:line:col: warning|error: ...".
diag=$(grep -E ': (warning|error)|sparse did not run' "$log")
if [ -z "$diag" ]; then
	echo "ok module: no compiler warning at W=1 and no sparse warning at C=2"
else
	echo "$diag"
	echo "not ok module: no compiler warning at W=1 and no sparse warning at C=2"
fi

# checkpatch --strict, from Debian's linux-source-6.1, on every source file.
bad=0
for f in "$top"/rdma_cc/*.[ch] "$top"/kunit/*.[ch] "$top/Kbuild" \
	 "$top/kunit/Kbuild.uml" "$top/kunit/Kconfig"; do
	out=$(cd "$work" && "$src/scripts/checkpatch.pl" --strict --no-tree \
		--terse --show-types --ignore FILE_PATH_CHANGES -f "$f" 2>&1)
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
	echo "not ok module: modinfo shows every parameter with unit and range"
	exit 0
fi
mi=$(modinfo "$top/rdma_cc.ko")
for field in license description; do
	if grep -q "^$field: *[^ ]" <<<"$mi"; then
		echo "ok module: modinfo shows the $field"
	else
		echo "not ok module: modinfo shows the $field"
	fi
done
grep -q '^license: *GPL$' <<<"$mi" || echo "not ok module: license is GPL"
want=$("$table")
have=$(sed -n 's/^parm: *//p' <<<"$mi")
missing=$(comm -23 <(sort <<<"$want") <(sort <<<"$have"))
if [ -z "$missing" ] && [ "$(wc -l <<<"$have")" -eq 10 ] &&
   [ "$(wc -l <<<"$want")" -eq 10 ]; then
	echo "ok module: modinfo shows all 10 parameters with unit and range"
else
	echo "expected, missing from modinfo:"
	echo "$missing"
	echo "not ok module: modinfo shows all 10 parameters with unit and range"
fi
hi=$(modinfo -F license "$top/rdma_cc_hook.ko")
if [ "$hi" = GPL ] && [ -n "$(modinfo -F description "$top/rdma_cc_hook.ko")" ]; then
	echo "ok module: rdma_cc_hook.ko has license and description"
else
	echo "not ok module: rdma_cc_hook.ko has license and description"
fi
