#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: what the rate-control core costs and how fast the
# simulator runs.
#
# 1. Instructions per call of rcc_run (one loop run), rcc_event (one CNP
#    or packet-count event) and rcc_advance (runs due before it), counted by
#    valgrind --tool=callgrind while tools/rdma-cc-replay replays a fixed,
#    generated 200 ms trace at 400 Gbit/s (a CNP every 2 us for 1.2 ms of
#    every 2 ms, 4 packets every 500 ns).  Instruction counts, not time: the
#    figures repeat on any load.  Each is callgrind's inclusive count of the
#    function over all its calls, divided by the calls.
# 2. The simulator's speed: simulated data packets per second of wall time
#    on the lossless 32:1 incast at 400 Gbit/s (50 ms), and the wall time of
#    the 128-host leaf-spine at 50 % WebSearch load for 20 ms, for each
#    reaction point.
# 3. A reference: the same leaf-spine and the same flows without CC in
#    ns-3 (Debian's ns3 3.37, tools/bench/ns3-leafspine.cc), over the first
#    2 ms, beside rdma-cc-sim --cc=none over the same 2 ms: the speed ratio.
set -eu
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/tools/scripts/deps.sh" bench
make --no-print-directory -s -C "$top/tools" rdma-cc-replay sim >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk 'BEGIN {
	for (t = 0; t < 200000000; t += 500) {
		printf "%d tx 4\n", t
		if (t % 2000000 < 1200000 && t % 2000 == 0)
			printf "%d cnp\n", t
	}
	printf "%d end\n", t
}' >"$tmp/trace"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
	--compress-strings=no --compress-pos=no \
	"$top/tools/rdma-cc-replay" --data_rate_mbps=400000 \
	<"$tmp/trace" >"$tmp/runs.csv" 2>"$tmp/vg.err" ||
	rcc_die "callgrind run failed: $(tail -3 "$tmp/vg.err")"
echo "core cost (callgrind, instructions per call; trace: $(wc -l <"$tmp/trace") events, $(($(wc -l <"$tmp/runs.csv") - 1)) runs):"
# After "cfn=F" come "calls=N ..." and a line whose 2nd field is the
# inclusive cost of those N calls.
awk '
/^cfn=/ { fn = substr($0, 5); sub(/ .*/, "", fn); next }
/^calls=/ { split($0, c, /[= ]/); n = c[2]; getline; calls[fn] += n; ir[fn] += $2; next }
END {
	split("rcc_run rcc_event rcc_advance", want, " ")
	label["rcc_run"] = "per loop run (rcc_run)"
	label["rcc_event"] = "per event (rcc_event)"
	label["rcc_advance"] = "per advance (rcc_advance)"
	for (i = 1; i <= 3; i++) {
		f = want[i]
		if (!calls[f]) { printf "  %s: not called\n", f; bad = 1; continue }
		printf "  %-28s %8.1f instructions (%d calls)\n", label[f],
		       ir[f] / calls[f], calls[f]
	}
	exit bad
}' "$tmp/cg.out"

scen=$top/tools/sim/scenarios
echo "simulator speed (simulated data packets per second of wall time):"
"$top/tools/rdma-cc-sim" --scenario="$scen/incast-32to1-400g.sim" \
	--duration-us=50000 --speed --format=csv 2>&1 >/dev/null |
	sed 's/^speed /  lossless /'
ls=leafspine-websearch-50pct-128h-100g
"$top/tools/rdma-cc-sim" --scenario="$scen/$ls.sim" --speed --format=csv \
	2>&1 >/dev/null | sed 's/^speed /  /'

# ns-3's .pc files carry a stray "-I/usr\;" and name libraries by path,
# some of which Debian does not ship: fix the one, drop the others.
mods="ns3-point-to-point ns3-internet ns3-applications ns3-traffic-control"
# shellcheck disable=SC2086 # $mods is a list of modules
cflags=$(pkg-config --cflags $mods | sed 's#-I/usr\\;#-I/usr/include#g')
libs=
# shellcheck disable=SC2086 # $mods is a list of modules
for w in $(pkg-config --libs $mods); do
	case $w in
	/*) [ -e "$w" ] && libs+=" $w" ;;
	*) libs+=" $w" ;;
	esac
done
mkdir -p "$top/tools/build"
ns3bin=$top/tools/build/ns3-leafspine
# shellcheck disable=SC2086 # word lists from pkg-config
[ "$ns3bin" -nt "$top/tools/bench/ns3-leafspine.cc" ] ||
	g++ -O2 -std=c++17 $cflags -o "$ns3bin" \
		"$top/tools/bench/ns3-leafspine.cc" $libs ||
	rcc_die "building tools/bench/ns3-leafspine.cc failed"
"$top/tools/rdma-cc-sim" --scenario="$scen/$ls.sim" --cc=none \
	--duration-us=2000 --dump-flows="$tmp/flows" --speed --format=csv \
	2>"$tmp/ours" >/dev/null
awk '$4 < 2000000000' "$tmp/flows" >"$tmp/flows2"
"$ns3bin" 8 8 16 100 200 1000 4096 2000 "$tmp/flows2" >"$tmp/ns3" ||
	rcc_die "ns-3 run failed"
echo "reference: $ls, no CC, first 2 ms:"
sed 's/^speed /  rdma-cc-sim /' "$tmp/ours"
sed 's/^/  /' "$tmp/ns3"
# packets per CPU second: the speed on one core, whatever else runs
awk 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "packets/CPU") v[NR == 1] = $(i - 1) }
     END { printf "  speed ratio (rdma-cc-sim / ns-3, packets per CPU second): %.1f\n", v[1] / v[0] }' \
	"$tmp/ours" "$tmp/ns3"
