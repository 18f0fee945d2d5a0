#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DCQCN's reaction point (rdma_cc/dcqcn.c, also in rdma_cc_dcqcn.ko): its
# presets against their cited values, each rule against a hand-computed
# timeline through rdma-cc-replay --cc=dcqcn, an independent model of the
# hpcc and paper presets over random traces, the kernel's fixed-point
# arithmetic against the doubles over random traces of every preset, the
# error paths.  DCQCN_RANDOM sets the random case count.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/tools/scripts/deps.sh" base || exit 1
make --no-print-directory -s -C "$top/tools" rdma-cc-replay sim sim-tests || exit 1
"$top/tools/build/dcqcn_test" || echo "not ok dcqcn/dcqcn_test: exit status $?"
# the C interface again with the kernel's arithmetic (names prefixed fixed-)
fixed=$("$top/tools/build/dcqcn_test_fixed")
rc=$?
printf '%s\n' "$fixed" | sed 's|dcqcn-c/|dcqcn-c/fixed-|'
[ "$rc" = 0 ] || echo "not ok dcqcn/dcqcn_test_fixed: exit status $rc"
python3 "$top/tools/tests/test_dcqcn.py" --random "${DCQCN_RANDOM:-1000}" \
	--fixed "$top/tools/build/rdma-cc-replay-fixed"

# The same tests against a replay built with ASan and UBSan: no memory error
# and no undefined behaviour on any of them.
san=$(mktemp -d)
if (cd "$top/tools" && cc -O1 -g -std=gnu11 -fsanitize=address,undefined \
	-fno-sanitize-recover=all -I../rdma_cc -o "$san/replay" \
	replay.c replay_dcqcn.c ../rdma_cc/dcqcn.c ../rdma_cc/rate_loop.c \
	../rdma_cc/params.c) 2>"$san/err" &&
   python3 "$top/tools/tests/test_dcqcn.py" --replay "$san/replay" \
	--random 200 >"$san/out" 2>&1 && ! grep -q '^not ok' "$san/out"; then
	echo "ok dcqcn/asan-ubsan-clean-on-every-test"
else
	grep '^not ok' "$san/out" "$san/err" 2>/dev/null | head -3 | sed 's/^/# /'
	echo "not ok dcqcn/asan-ubsan-clean-on-every-test"
fi
rm -rf "$san"

# The simulator: the presets' values, each preset cutting in an incast, the
# error paths.
sim=$top/tools/rdma-cc-sim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t() {	# t NAME CONDITION...
	local name=$1
	shift
	if "$@"; then echo "ok dcqcn/$name"; else echo "not ok dcqcn/$name"; fi
}
param() {	# param PRESET KNOB: the value --show-params gives
	"$sim" --dcqcn-preset="$1" --show-params | sed -n "s/^dcqcn-$2=//p"
}
t sim-default-is-mlx5 [ "$("$sim" --show-params | grep -c '^dcqcn-rpg_byte_reset=32767$')" = 1 ]
t sim-hpcc-values [ "$(param hpcc rpg_min_rate)/$(param hpcc dce_tcp_g)/$(param hpcc rpg_byte_reset)" = 1000/1020/0 ]
t sim-paper-values [ "$(param paper rpg_time_reset)/$(param paper dce_tcp_rtt)/$(param paper rate_reduce_monitor_period)" = 55/50/50 ]
t sim-override-beats-preset [ "$("$sim" --dcqcn-rpg_time_reset=77 --dcqcn-preset=paper --show-params | grep -c '^dcqcn-rpg_time_reset=77$')" = 1 ]
for preset in mlx5 paper hpcc; do
	"$sim" --scenario="$top/tools/sim/scenarios/incast-2to1-100g.sim" \
		--cc=dcqcn --dcqcn-preset=$preset --duration-us=400 \
		--out="$tmp" --format=csv >"$tmp/$preset.sum" 2>&1
	# the lowest rate flow 0's controller gave, Gbit/s
	low=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rate_gbps_0") c = i; next }
		NR == 2 || $c < m { m = $c } END { print m + 0 }' \
		"$tmp/incast-2to1-100g-dcqcn.csv" 2>/dev/null)
	t "sim-$preset-cuts-in-an-incast" awk -v l="${low:-100}" 'BEGIN { exit !(l < 60) }'
done
bad() {	# bad NAME PATTERN ARGS...: exit status 2, PATTERN on stderr, no stdout
	local name=$1 pat=$2 rc=0
	shift 2
	"$sim" --flow=0 "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 2 ] && grep -q -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		echo "ok dcqcn/$name"
	else
		echo "not ok dcqcn/$name (exit $rc: $(head -1 "$tmp/err"))"
	fi
}
bad sim-rejects-unknown-preset "dcqcn-preset=ns3: unknown preset (valid: mlx5, paper, hpcc)" --dcqcn-preset=ns3
bad sim-rejects-knob-out-of-range "dcqcn-dce_tcp_g=1024: expected a whole number 0 .. 1023" --dcqcn-dce_tcp_g=1024
bad sim-rejects-knob-not-a-number "dcqcn-rpg_ai_rate=5.5: expected" --dcqcn-rpg_ai_rate=5.5
exit 0
