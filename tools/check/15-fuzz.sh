#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A bounded libFuzzer run over the core (tools/fuzz/fuzz_core.c): random
# parameter sets and event streams, invariants checked after every run and
# every episode's end within the contract's bound after its last CNP.
# FUZZ_RUNS sets the number of inputs (default 60,000; make fuzz runs
# 11,000,000, Documentation/hardening.rst).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/tools/scripts/deps.sh" fuzz || exit 1
make --no-print-directory -s -C "$top/tools/fuzz" fuzz_core || exit 1
runs=${FUZZ_RUNS:-60000}
log=$(mktemp)
work=$(mktemp -d)
(cd "$work" && "$top/tools/fuzz/fuzz_core" -seed=1 -runs="$runs" -max_len=4096 \
	-print_final_stats=1) >"$log" 2>&1
rc=$?
done_line=$(grep -E '^Done [0-9]+ runs' "$log")
echo "# fuzz: ${done_line:-no Done line} (exit $rc)"
grep -E '^stat::(average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" |
	sed 's/^/# fuzz: /'
grep -E '^invariant broken' "$log" | sed 's/^/# fuzz: /'
if [ "$rc" -eq 0 ] && [ -n "$done_line" ]; then
	echo "ok fuzz/core_invariants_${runs}_inputs"
else
	tail -n 30 "$log" | sed 's/^/#   /'
	echo "not ok fuzz/core_invariants_${runs}_inputs"
fi
rm -rf "$log" "$work"
