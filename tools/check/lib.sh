# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - the result lines the testbed suites (40, 42, 45, 46) share.
# Source it after setting CHECK_TAG, the prefix of every line ("e2e[6.1]",
# "ops", ...), start (date +%s at the suite's start) and TESTS, the names
# of the tests a run reports:
#
#   ok NAME...               prints "ok TAG: NAME"
#   nok NAME...              prints "not ok TAG: NAME"
#   check NAME COMMAND...    ok NAME if COMMAND succeeds, else nok NAME
#   skip_all REASON          every name in TESTS "not ok ... (REASON)", the
#                            suite's time, and exit 0: a suite that cannot
#                            run still reports each of its tests, failed

ok() { echo "ok $CHECK_TAG: $*"; }
nok() { echo "not ok $CHECK_TAG: $*"; }
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else nok "$name"; fi
}
skip_all() {
	local t
	for t in "${TESTS[@]}"; do nok "$t ($1)"; done
	# shellcheck disable=SC2154 # start: set by the suite
	echo "$CHECK_TAG: took $(( $(date +%s) - start )) s"
	exit 0
}
