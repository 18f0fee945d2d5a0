#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 50-sim.sh - the simulator's scenarios at a small size (100 Gbit/s, 1-2 ms)
# with asserted sanity: rdma_cc keeps a 2:1 incast lossless and fair at high
# utilisation, line rate overflows the buffer, short flows finish, runs are
# deterministic, bad options are refused.  Prints "ok NAME" / "not ok NAME".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
sim=$top/tools/rdma-cc-sim
scen=$top/tools/sim/scenarios
make --no-print-directory -s -C "$top/tools" sim sim-tests >/dev/null || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

t() {	# t NAME CONDITION...: one test
	local name=$1
	shift
	if "$@"; then echo "ok $name"; else echo "not ok $name"; fi
}

# run NAME ARGS...: summary CSV of a run into $tmp/NAME.csv
run() {
	local name=$1
	shift
	"$sim" --format=csv "$@" >"$tmp/$name.csv" 2>"$tmp/$name.err"
}

# m NAME CC METRIC: one figure of a run's summary
m() {
	awk -F, -v cc="$2" -v key="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$2 == cc { print $col[key] }' "$tmp/$1.csv"
}

ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "-" && a + 0 >= b + 0) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "-" && a + 0 <= b + 0) }'; }

# DCQCN's reaction point, rule by rule
"$top/tools/build/dcqcn_test"

small="--duration-us=1500"
run i2 --scenario="$scen/incast-2to1-100g.sim" $small --fair-from-us=500
run i8 --scenario="$scen/incast-8to1-100g.sim" $small --fair-from-us=500
run join --scenario="$scen/join-400g.sim" --scenario="$scen/switch-100g.conf" \
	--duration-us=3000 --fair-from-us=2000
run burst --scenario="$scen/burst-400g.sim" --scenario="$scen/switch-100g.conf" \
	--duration-us=2500

t sim-2to1-rdma_cc-no-drops [ "$(m i2 rdma_cc drops)" = 0 ]
t sim-2to1-rdma_cc-utilisation ge "$(m i2 rdma_cc util_pct)" 85
t sim-2to1-rdma_cc-fair ge "$(m i2 rdma_cc jain)" 0.95
t sim-2to1-rdma_cc-queue-below-buffer le "$(m i2 rdma_cc queue_max_kb)" 4000
t sim-2to1-dcqcn-no-drops [ "$(m i2 dcqcn drops)" = 0 ]
t sim-2to1-none-line-rate-overflows ge "$(m i2 none drops)" 1
t sim-2to1-none-utilisation ge "$(m i2 none util_pct)" 99
t sim-8to1-rdma_cc-utilisation ge "$(m i8 rdma_cc util_pct)" 95
t sim-8to1-rdma_cc-fair ge "$(m i8 rdma_cc jain)" 0.9
t sim-8to1-rdma_cc-fewer-drops-than-none \
	[ "$(m i8 rdma_cc drops)" -lt "$(m i8 none drops)" ]
t sim-join-rdma_cc-fair-after-join ge "$(m join rdma_cc jain)" 0.95
t sim-join-rdma_cc-no-drops [ "$(m join rdma_cc drops)" = 0 ]
t sim-join-rdma_cc-converges le "$(m join rdma_cc converge_us)" 1000
t sim-join-none-never-fair [ "$(m join none converge_us)" = never ]
t sim-burst-short-flows-finish [ "$(m burst rdma_cc unfinished)" = 0 ]
t sim-burst-fct-measured ge "$(m burst rdma_cc fct_mean_us)" 1
for cc in rdma_cc dcqcn none; do
	t "sim-goodput-within-link-$cc" le "$(m i8 $cc goodput_gbps)" 100
done

# The first CNP of an episode halves the rate at once (a0 = 1): the core
# itself is in the loop, not a model of it.
"$sim" --scenario="$scen/incast-2to1-100g.sim" --duration-us=100 \
	--cc=rdma_cc --out="$tmp" --format=csv >/dev/null
first=$(awk -F, 'NR > 1 && $6 != "100.000" { print $6; exit }' \
	"$tmp/incast-2to1-100g-rdma_cc.csv")
t sim-rdma_cc-first-cut-is-50g [ "$first" = 50.000 ]

# Same inputs, same output.
run again --scenario="$scen/incast-8to1-100g.sim" $small --fair-from-us=500
t sim-deterministic cmp -s "$tmp/i8.csv" "$tmp/again.csv"

# Bad input: exit status 2 and a message naming the option.
bad() {	# bad NAME PATTERN ARGS...
	local name=$1 pat=$2
	shift 2
	local rc=0
	"$sim" "$@" >/dev/null 2>"$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && grep -q -- "$pat" "$tmp/err"; then
		echo "ok $name"
	else
		echo "not ok $name (exit $rc: $(head -1 "$tmp/err"))"
	fi
}
bad sim-rejects-unknown-option "no-such" --flow=0 --no-such=1
bad sim-rejects-bad-number "link-gbps" --flow=0 --link-gbps=fast
bad sim-rejects-weight-out-of-range "congestion_probability_weight" \
	--flow=0 --congestion_probability_weight=0
bad sim-rejects-kmin-above-kmax "kmin" --flow=0 --kmin-kb=500 --kmax-kb=400
bad sim-rejects-malformed-flow "STOP_US" --flow=10,5
bad sim-rejects-no-flows "no flows"
bad sim-rejects-bad-cc "cc" --flow=0 --cc=reno
bad sim-rejects-bad-dcqcn-param "rpg_gd" --flow=0 --dcqcn-rpg_gd=99
bad sim-rejects-missing-scenario "nope.sim" --scenario=/nonexistent/nope.sim
exit 0
