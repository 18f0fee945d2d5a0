#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: what the rate-control core costs and how fast the
# simulator runs.
#
# 1. Instructions per call of rcc_run (one loop run), rcc_cnp (one CNP
#    event) and rcc_tx (one packet-count event), counted by
#    valgrind --tool=callgrind while tools/rdma-cc-replay replays a fixed,
#    generated 200 ms trace at 400 Gbit/s (a CNP every 2 us for 1.2 ms of
#    every 2 ms, 4 packets every 500 ns).  Instruction counts, not time: the
#    figures repeat on any load.  Each is callgrind's inclusive count of the
#    function over all its calls, divided by the calls.
# 2. The simulator's speed: simulated packets per second of wall time, on
#    the 32:1 and 8:1 incast at 400 Gbit/s, for each reaction point.
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
	split("rcc_run rcc_cnp rcc_tx", want, " ")
	label["rcc_run"] = "per loop run (rcc_run)"
	label["rcc_cnp"] = "per CNP event (rcc_cnp)"
	label["rcc_tx"] = "per packet event (rcc_tx)"
	for (i = 1; i <= 3; i++) {
		f = want[i]
		if (!calls[f]) { printf "  %s: not called\n", f; bad = 1; continue }
		printf "  %-28s %8.1f instructions (%d calls)\n", label[f],
		       ir[f] / calls[f], calls[f]
	}
	exit bad
}' "$tmp/cg.out"

echo "simulator speed (simulated packets per second of wall time):"
for s in incast-32to1-400g incast-8to1-400g; do
	"$top/tools/rdma-cc-sim" --scenario="$top/tools/sim/scenarios/$s.sim" \
		--speed --format=csv 2>&1 >/dev/null | sed 's/^speed /  /'
done
