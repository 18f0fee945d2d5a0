#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The rate-control core and rdma-cc-replay against the spec: per-rule tests,
# edge settings, the worked example, random invariants, an independent model,
# the replay tool's error paths.  CORE_RANDOM sets the random case count.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/tools/scripts/deps.sh" base || exit 1
make --no-print-directory -s -C "$top/tools" rdma-cc-replay tests/core_test \
	tests/pace_test tests/cnp_test || exit 1
"$top/tools/tests/core_test" || echo "not ok core/core_test: exit status $?"
# rxe's pacing arithmetic (the series' rxe_pace_calc.h) on a virtual clock
"$top/tools/tests/pace_test" || echo "not ok core/pace_test: exit status $?"
# rxe's CNP gap (the series' rxe_cnp_calc.h), calls out of clock order
"$top/tools/tests/cnp_test" || echo "not ok core/cnp_test: exit status $?"
python3 "$top/tools/tests/test_replay.py" --random "${CORE_RANDOM:-300}"
if python3 "$top/tools/scripts/gen-abi.py" --check; then
	echo "ok core/abi_docs_match_the_parameter_table"
else
	echo "not ok core/abi_docs_match_the_parameter_table"
fi
# The testbed's tools refuse a bad command line with a message before
# they install, build or boot anything.
bad_usage() {
	local out
	out=$("$@" 2>&1 </dev/null) && return 1
	grep -q 'usage\|must be\|is not' <<<"$out"
}
dp=$top/tools/testbed/destroy-paced.sh sw=$top/tools/testbed/sweep.sh
if bad_usage "$dp" && bad_usage "$dp" 0 && bad_usage "$dp" x &&
	bad_usage "$dp" 1 2 && bad_usage "$sw" && bad_usage "$sw" ../x 30 a= &&
	bad_usage "$sw" n 3x a= && bad_usage "$sw" n 30 'a=no_such_knob=1'; then
	echo "ok core/testbed_tools_reject_bad_command_lines"
else
	echo "not ok core/testbed_tools_reject_bad_command_lines"
fi
