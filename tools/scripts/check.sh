#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the test command (make check).  Runs every suite in
# tools/check/ (NN-name.sh; lib.sh is sourced by suites, not run) in name
# order.  A suite prints one line per test,
# "ok NAME" or "not ok NAME" (other lines are shown as they are), and exits
# non-zero only when it could not run at all (that counts as one failure).
# Ends with the line "N passed, N failed".
#
# CHECK_ONLY=pattern runs only the suites whose file name matches.
#
# Suites that run per kernel name their lines NAME[LINE] (module[6.12],
# rxe[6.12-rt]/..., e2e[6.1], kunit[6.12]/...); the report ends with one
# line per kernel, "kernel LINE: N passed, N failed" (lines without a
# kernel tag ran on 6.1, the default kernel).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0
failed_names=()
klog=$(mktemp)
trap 'rm -f "$klog"' EXIT
for suite in "$top"/tools/check/[0-9][0-9]-*.sh; do
	name=$(basename "$suite" .sh)
	if [ -n "${CHECK_ONLY:-}" ] && [[ $name != *${CHECK_ONLY}* ]]; then
		continue
	fi
	echo "=== suite $name"
	start=$(date +%s)
	out=$(mktemp)
	bash "$suite" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	grep -E '^(not )?ok ' "$out" >>"$klog"
	p=$(grep -c '^ok ' "$out")
	f=$(grep -c '^not ok ' "$out")
	if [ "$rc" -ne 0 ]; then
		echo "not ok $name: suite exited with status $rc"
		f=$((f + 1))
	fi
	while IFS= read -r l; do failed_names+=("$name: ${l#not ok }"); done \
		< <(grep '^not ok ' "$out")
	[ "$rc" -ne 0 ] && failed_names+=("$name: exit status $rc")
	rm -f "$out"
	passed=$((passed + p))
	failed=$((failed + f))
	echo "=== suite $name: $p passed, $f failed in $(( $(date +%s) - start )) s"
done
# per kernel: the tag of a line is its first [6.x...] (none: 6.1)
awk '{
	st = ($1 == "ok") ? "ok" : "nok"
	k = "6.1"
	if (match($0, /\[6\.[0-9]+(-rt)?\]/)) k = substr($0, RSTART + 1, RLENGTH - 2)
	n[k, st]++; seen[k] = 1
}
END {
	split("6.1 6.12 6.12-rt", order, " ")
	for (i = 1; i <= 3; i++) if (order[i] in seen) {
		k = order[i]
		printf "kernel %s: %d passed, %d failed\n", k, n[k, "ok"], n[k, "nok"]
		delete seen[k]
	}
	for (k in seen) printf "kernel %s: %d passed, %d failed\n", k, n[k, "ok"], n[k, "nok"]
}' "$klog"
if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failed_names[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
