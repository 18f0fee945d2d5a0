#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 30-kunit.sh - rdma_cc's KUnit suites on UML (tools/scripts/kunit.sh):
# one line "ok SUITE.CASE" / "not ok SUITE.CASE" per KUnit test case, from
# KUnit's parsed (JSON) results.  A parameterised case is ok when every
# parameter passed.  A case of kunit/*_test.c that did not run at all
# (a crash, a suite missing) is "not ok".  KUNIT_DEBUG=1 runs make
# kunit-debug's configuration instead.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"

mkdir -p "$RDMA_CC_CACHE"
json=$(mktemp "$RDMA_CC_CACHE/kunit-results.XXXXXX.json")
log=$RDMA_CC_CACHE/kunit-last.log
trap 'rm -f "$json"' EXIT
opts=(--json "$json")
[ "${KUNIT_DEBUG:-0}" = 1 ] && opts+=(--debug)

start=$(date +%s)
"$top/tools/scripts/kunit.sh" "${opts[@]}" > "$log" 2>&1
rc=$?
echo "kunit.sh exited $rc after $(( $(date +%s) - start )) s (log: $log)"
grep -E 'Testing complete|Elapsed time' "$log" || true

if [ ! -s "$json" ]; then
	tail -n 40 "$log"
	echo "no KUnit results: the UML kernel did not build or run" >&2
	exit 1
fi

# The cases the sources define, to catch those that never reported.
expected=$(grep -ho 'KUNIT_CASE\(_PARAM\)\?([a-z0-9_]*' "$top"/kunit/*_test.c |
	   sed 's/.*(//' | sort -u)

python3 - "$json" "$expected" <<'PY'
import json, sys

results = json.load(open(sys.argv[1]))
expected = set(sys.argv[2].split())
seen = set()

def leaves(group):
    for case in group.get("test_cases", []):
        yield case["status"]
    for sub in group.get("sub_groups", []):
        yield from leaves(sub)

for suite in results.get("sub_groups", []):
    for case in suite.get("test_cases", []):
        seen.add(case["name"])
        status = case["status"]
        name = f'{suite["name"]}.{case["name"]}'
        if status == "PASS":
            print(f"ok {name}")
        elif status == "SKIP":
            print(f"ok {name} # SKIP")
        else:
            print(f"not ok {name} ({status})")
    for param_case in suite.get("sub_groups", []):
        seen.add(param_case["name"])
        st = list(leaves(param_case))
        bad = [s for s in st if s not in ("PASS", "SKIP")]
        name = f'{suite["name"]}.{param_case["name"]}'
        if st and not bad:
            print(f"ok {name} ({len(st)} parameters)")
        else:
            print(f"not ok {name} ({len(bad)} of {len(st)} parameters failed)")

for name in sorted(expected - seen):
    print(f"not ok {name} (did not run)")
PY

# A lockdep, KASAN, UBSAN or debug-objects report, or a WARN/BUG from our
# code, fails the run even when every expectation held.
build=$RDMA_CC_CACHE/kunit-build
[ "${KUNIT_DEBUG:-0}" = 1 ] && build=$RDMA_CC_CACHE/kunit-build-debug
splats=$(grep -E 'BUG:|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|KASAN:|UBSAN:|ODEBUG:|WARNING: .*drivers/rdma_cc/' \
	"$build/test.log" 2>/dev/null)
if [ -z "$splats" ]; then
	echo "ok rdma_cc_kernel_log: no lockdep, KASAN, UBSAN, ODEBUG, BUG or rdma_cc WARN report"
else
	echo "$splats"
	echo "not ok rdma_cc_kernel_log: no lockdep, KASAN, UBSAN, ODEBUG, BUG or rdma_cc WARN report"
fi
