#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the test command (make check).  Runs every suite in
# tools/check/ in name order.  A suite prints one line per test,
# "ok NAME" or "not ok NAME" (other lines are shown as they are), and exits
# non-zero only when it could not run at all (that counts as one failure).
# Ends with the line "N passed, N failed".
#
# CHECK_ONLY=pattern runs only the suites whose file name matches.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0
failed_names=()
for suite in "$top"/tools/check/*.sh; do
	name=$(basename "$suite" .sh)
	if [ -n "${CHECK_ONLY:-}" ] && [[ $name != *${CHECK_ONLY}* ]]; then
		continue
	fi
	echo "=== suite $name"
	start=$(date +%s)
	out=$(mktemp)
	bash "$suite" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
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
if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failed_names[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
