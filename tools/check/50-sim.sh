#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 50-sim.sh - the simulator's scenarios at a small size (100 Gbit/s, 1-2 ms)
# with asserted sanity: rdma_cc keeps a 2:1 incast fair at high utilisation,
# line rate overflows a lossy buffer, short flows finish, runs are
# deterministic, bad options are refused; and the fabric itself: PFC never
# drops and its pauses propagate over two hops, go-back-N resends from the
# lost PSN (after a NAK, or a timeout), the shared buffer's dynamic
# threshold, the CNP gap, ECMP, FCT accounting on a hand-checked case, and
# every scenario file runs.  Prints "ok NAME" / "not ok NAME".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
sim=$top/tools/rdma-cc-sim
scen=$top/tools/sim/scenarios
make --no-print-directory -s -C "$top/tools" sim >/dev/null || exit 1
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

small="--duration-us=1500"
run i2 --scenario="$scen/incast-2to1-100g.sim" $small --fair-from-us=500
run i8 --scenario="$scen/incast-8to1-100g.sim" $small --fair-from-us=500
run join --scenario="$scen/join-400g.sim" --scenario="$scen/switch-100g.conf" \
	--duration-us=3000 --fair-from-us=2000
run burst --scenario="$scen/burst-400g.sim" --scenario="$scen/switch-100g.conf" \
	--duration-us=2500
run i2lossy --scenario="$scen/incast-2to1-100g.sim" $small --fair-from-us=500 --pfc=off
run i8lossy --scenario="$scen/incast-8to1-100g.sim" $small --fair-from-us=500 --pfc=off
run joinlossy --scenario="$scen/join-400g.sim" --scenario="$scen/switch-100g.conf" \
	--duration-us=3000 --fair-from-us=2000 --pfc=off

t sim-2to1-rdma_cc-no-drops [ "$(m i2 rdma_cc drops)" = 0 ]
t sim-2to1-rdma_cc-utilisation ge "$(m i2 rdma_cc util_pct)" 85
t sim-2to1-rdma_cc-fair ge "$(m i2 rdma_cc jain)" 0.95
t sim-2to1-rdma_cc-queue-below-buffer le "$(m i2 rdma_cc queue_max_kb)" 4000
t sim-2to1-dcqcn-no-drops [ "$(m i2 dcqcn drops)" = 0 ]
t sim-2to1-none-lossless-pauses ge "$(m i2 none pfc_pauses)" 1
t sim-2to1-none-lossless-no-drops [ "$(m i2 none drops)" = 0 ]
t sim-2to1-none-lossy-overflows ge "$(m i2lossy none drops)" 1
t sim-2to1-lossy-no-pause-count [ "$(m i2lossy none pfc_pauses)" = - ]
t sim-2to1-none-utilisation ge "$(m i2 none util_pct)" 99
t sim-8to1-rdma_cc-utilisation ge "$(m i8 rdma_cc util_pct)" 95
t sim-8to1-rdma_cc-fair ge "$(m i8 rdma_cc jain)" 0.9
t sim-8to1-lossy-rdma_cc-fewer-drops-than-none \
	[ "$(m i8lossy rdma_cc drops)" -lt "$(m i8lossy none drops)" ]
t sim-8to1-lossy-rdma_cc-retransmits ge "$(m i8lossy rdma_cc retransmits)" 1
t sim-join-rdma_cc-fair-after-join ge "$(m join rdma_cc jain)" 0.95
t sim-join-rdma_cc-no-drops [ "$(m join rdma_cc drops)" = 0 ]
t sim-join-rdma_cc-converges le "$(m join rdma_cc converge_us)" 1000
t sim-join-lossy-none-never-fair [ "$(m joinlossy none converge_us)" = never ]
t sim-burst-short-flows-finish [ "$(m burst rdma_cc unfinished)" = 0 ]
t sim-burst-fct-measured ge "$(m burst rdma_cc fct_mean_us)" 1
for cc in rdma_cc dcqcn none; do
	t "sim-goodput-within-link-$cc" le "$(m i8 $cc goodput_gbps)" 100
done

# The first CNP of an episode halves the rate at once (a0 = 1): the core
# itself is in the loop, not a model of it.
"$sim" --scenario="$scen/incast-2to1-100g.sim" --duration-us=100 \
	--cc=rdma_cc --out="$tmp" --format=csv >/dev/null
first=$(awk -F, 'NR > 1 && $7 != "100.000" { print $7; exit }' \
	"$tmp/incast-2to1-100g-rdma_cc.csv")
t sim-rdma_cc-first-cut-is-50g [ "$first" = 50.000 ]

# PFC over two hops: four senders behind sw1, four beside the receiver on
# sw2, all at line rate to rx.  Lossless: no drops; sw2 pauses sw1 (the
# sw1-sw2 link is paused) and sw1, its buffer filling, pauses its own hosts.
hop2="--switch=sw1 --switch=sw2 --link=sw1,sw2 --link=sw2,rx --link-gbps=100"
for i in 0 1 2 3; do
	hop2="$hop2 --link=sw1,a$i --link=sw2,b$i --flow=a$i>rx,0 --flow=b$i>rx,0"
done
# shellcheck disable=SC2086 # $hop2 is a list of options
"$sim" $hop2 --duration-us=1000 --cc=none,rdma_cc --out="$tmp" --name=hop2 \
	--format=csv >"$tmp/hop2.csv"
port() {	# port FILE NODE PEER COLUMN
	awk -F, -v n="$2" -v p="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == n && $3 == p { print $col[c] }' "$1"
}
pp=$tmp/hop2-none-ports.csv
t sim-pfc-lossless-no-drops [ "$(m hop2 none drops)" = 0 ]
t sim-pfc-lossless-no-drops-rdma_cc [ "$(m hop2 rdma_cc drops)" = 0 ]
t sim-pfc-sw2-pauses-sw1 ge "$(port "$pp" sw2 sw1 pauses_sent)" 1
t sim-pfc-sw1-uplink-paused ge "$(port "$pp" sw1 sw2 paused_us)" 1
t sim-pfc-propagates-to-sw1-hosts ge "$(port "$pp" sw1 a0 pauses_sent)" 1
t sim-pfc-host-paused ge "$(port "$pp" a0 sw1 paused_us)" 1
t sim-pfc-pauses-counted ge "$(m hop2 none pfc_pauses)" \
	"$(awk -F, 'NR > 1 { n += $6 } END { print n }' "$pp")"

# Go-back-N: drop PSN 3 of a 10-packet flow; the receiver NAKs PSN 3 and
# the sender resends 3..9, nothing below 3.  Dropping the last packet
# leaves no later packet to raise a NAK: the retransmit timeout resends it.
"$sim" --flow=0,-,40960 --cc=none --pfc=off --drop=0:3 --trace-flow=0 \
	--out="$tmp" --name=gbn --format=csv >"$tmp/gbn.csv"
tr=$tmp/gbn-none-trace.csv
t sim-gbn-nak-names-lost-psn [ "$(awk -F, '$2 == "nak" { print $3 }' "$tr")" = 3 ]
t sim-gbn-resends-from-lost-psn [ "$(awk -F, '$4 == "retransmit" { printf "%s ", $3 }' "$tr")" = "3 4 5 6 7 8 9 " ]
t sim-gbn-retransmits-counted [ "$(m gbn none retransmits)" = 7 ]
t sim-gbn-flow-completes [ "$(m gbn none unfinished)" = 0 ]
"$sim" --flow=0,-,40960 --cc=none --pfc=off --drop=0:9 --rto-us=50 \
	--trace-flow=0 --out="$tmp" --name=rto --format=csv >"$tmp/rto.csv"
tr=$tmp/rto-none-trace.csv
t sim-gbn-timeout-once [ "$(m rto none timeouts)" = 1 ]
t sim-gbn-timeout-resends-last [ "$(awk -F, '$4 == "retransmit" { printf "%s ", $3 }' "$tr")" = "9 " ]
t sim-gbn-timeout-after-rto ge "$(awk -F, '$2 == "timeout" { print $1 }' "$tr")" 50
t sim-gbn-timeout-completes [ "$(m rto none unfinished)" = 0 ]

# The shared buffer's dynamic threshold (lossy): a queue may hold alpha x
# the free buffer, so one congested queue settles at B x alpha / (1 + alpha)
# (9000 KB: 1000 KB at alpha 1/8, 4500 KB at alpha 1; within a packet).
for a in 1/8:1000 1:4500; do
	run dt "--flows=2,0" --link-gbps=100 --cc=none --pfc=off --buffer-kb=9000 \
		--alpha="${a%:*}" --duration-us=500
	q=$(m dt none queue_max_kb)
	t "sim-dynamic-threshold-alpha-${a%:*}" \
		awk -v q="$q" -v w="${a#*:}" 'BEGIN { exit !(q >= w - 5 && q <= w + 5) }'
done

# The notification point: every CE-marked packet when the gap is 0, at
# most one CNP per QP per 4 us by default (2 QPs, marking everything above
# 1 KB, 500 us: at most 2 x 126).
run np0 --flows=2,0 --link-gbps=100 --cc=none --kmin-kb=0 --kmax-kb=1 \
	--duration-us=500 --cnp-gap-ns=0
run np4 --flows=2,0 --link-gbps=100 --cc=none --kmin-kb=0 --kmax-kb=1 \
	--duration-us=500
t sim-cnp-gap-0-one-per-mark ge "$(m np0 none cnps)" 1000
t sim-cnp-gap-4us-bounded le "$(m np4 none cnps)" 252
t sim-cnp-gap-4us-steady ge "$(m np4 none cnps)" 200

# ECMP: 16 flows from leaf0's hosts to leaf1's over 4 spines use every
# uplink.
ecmp="--leafspine=4,2,16 --link-gbps=100"
for i in $(seq 0 15); do ecmp="$ecmp --flow=h$i>h$((16 + i)),0,-,400000"; done
# shellcheck disable=SC2086 # $ecmp is a list of options
"$sim" $ecmp --cc=none --duration-us=200 --out="$tmp" --name=ecmp \
	--format=csv >/dev/null
for sp in 0 1 2 3; do
	t "sim-ecmp-uses-spine$sp" ge "$(port "$tmp/ecmp-none-ports.csv" leaf0 spine$sp tx_data)" 1
done

# FCT by hand: 10000 bytes (4096 + 4096 + 1808) over two 100 Gbit/s, 1 us
# hops.  The last packet leaves the sender at 655.36 ns, reaches the switch
# at 1800 ns, waits for packet 1 (on the wire until 1983.04 ns), takes
# 144.64 ns and 1 us more: 3127.68 ns, which is also the ideal.
"$sim" --flow=0,-,10000 --cc=none --out="$tmp" --name=fct --format=csv >"$tmp/fct.csv"
t sim-fct-hand-checked [ "$(awk -F, 'NR == 2 { print $6 }' "$tmp/fct-none-fct.csv")" = 3.128 ]
t sim-fct-ideal-hand-checked [ "$(awk -F, 'NR == 2 { print $7 }' "$tmp/fct-none-fct.csv")" = 3.128 ]
t sim-fct-slowdown-one [ "$(m fct none fct_slowdown_p50)" = 1.00 ]
# A 20 MB flow alone: 1.6 ms at 100 Gbit/s, slowdown 1 (its ideal once
# overflowed 64 bits and came out at microseconds).
run fct20 --flow=0,-,20000000 --cc=none --duration-us=3000
t sim-fct-large-flow-slowdown-one [ "$(m fct20 none fct_slowdown_p99)" = 1.00 ]
t sim-fct-large-flow-fct ge "$(m fct20 none fct_mean_us)" 1600

# Every scenario file runs (briefly) with every CC, and, lossless, drops
# nothing.
for f in "$scen"/*.sim; do
	b=$(basename "$f" .sim)
	if "$sim" --scenario="$f" --duration-us=300 --cc=all --format=csv \
		>"$tmp/s.csv" 2>"$tmp/s.err" && [ "$(wc -l <"$tmp/s.csv")" = 6 ]; then
		echo "ok sim-scenario-runs-$b"
	else
		echo "not ok sim-scenario-runs-$b ($(head -1 "$tmp/s.err"))"
	fi
	t "sim-scenario-lossless-$b" [ "$(awk -F, 'NR > 1 && $7 != 0' "$tmp/s.csv")" = "" ]
done

# One run, every CC: rdma_cc, each DCQCN preset, none, on the same flows.
"$sim" --scenario="$scen/incast-2to1-100g.sim" --duration-us=300 --cc=all \
	--format=csv >"$tmp/all.csv"
t sim-cc-all-every-preset [ "$(cut -d, -f2 "$tmp/all.csv" | tr '\n' ' ')" = "cc rdma_cc dcqcn-mlx5 dcqcn-paper dcqcn-hpcc none " ]
t sim-cc-dcqcn-is-the-preset-run [ "$("$sim" --scenario="$scen/incast-2to1-100g.sim" \
	--duration-us=300 --cc=dcqcn --dcqcn-preset=hpcc --format=csv-noheader | cut -d, -f3-)" = \
	"$(awk -F, '$2 == "dcqcn-hpcc"' "$tmp/all.csv" | cut -d, -f3-)" ]

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
bad sim-rejects-bad-pfc "pfc" --flow=0 --pfc=maybe
bad sim-rejects-bad-alpha "alpha" --flow=0 --alpha=0.3
bad sim-rejects-unknown-host "no such host" --leafspine=2,2,2 --flow=h0\>h9,0
bad sim-rejects-star-flow-in-topology "SRC>DST" --leafspine=2,2,2 --flow=0
bad sim-rejects-missing-cdf "cannot open the workload" --leafspine=2,2,2 \
	--workload=/nonexistent.cdf,50,0,100
bad sim-rejects-load-over-100 "LOAD_PCT" --leafspine=2,2,2 \
	--workload="$top/tools/sim/workloads/hadoop.cdf,150,0,100"
printf '0 0\n100 50\n50 100\n' >"$tmp/bad.cdf"
bad sim-rejects-falling-cdf "bad.cdf:3: expected BYTES PERCENT, both rising" \
	--leafspine=2,2,2 --workload="$tmp/bad.cdf,50,0,100"
bad sim-rejects-unknown-watch "watch names no such host" --flow=0 --watch=zz
bad sim-rejects-bad-link "A,B" --flow=0 --link=a
bad sim-rejects-host-with-two-links "exactly one link" --switch=a --switch=b \
	--link=a,h --link=b,h --link=a,b --link=a,x --flow=h\>x,0
exit 0
