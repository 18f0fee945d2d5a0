#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 42-ops.sh - what operators reach for, tested for real:
#
#  on the host, on fixtures: tools/rdma-cc-top (sorting, CSV, JSON, the
#  Prometheus format, a per-QP table or per-QP files, bad options) and
#  tools/rdma-cc-plot (a trace-cmd report turned into a PNG with the
#  expected series);
#
#  in the VM testbed (tools/testbed/, one 2:1 incast of OPS_DURATION s,
#  default 30, with rdma_cc in the senders and trace-cmd recording its
#  tracepoints in s1):
#   - "rdma resource show qp -dd" (iproute2's rdma) shows each QP's rdma_cc
#     state, agreeing with debugfs read between two rdma calls;
#   - rdma-cc-top --once --format=json lists the same QP;
#   - qp_control pins a QP's rate and gives it parameters of its own, seen
#     in rdma resource; every bad write is refused and changes nothing;
#   - node exporter's /metrics in every VM: the hw counters (rdma-cc-top
#     --format=prom through the textfile collector) equal rdma statistic's;
#     its infiniband collector runs (Debian 12's 1.5.0 reads only the PMA
#     counters/ directory, which rxe has none of: it finds no data);
#   - the counters reconcile end to end: CE marked at the switch = CE
#     received at the receiver, CNPs sent by the receiver = CNPs on the
#     wire = CNPs the senders handled or ignored, and those handled = the
#     CNPs rdma_cc counted;
#   - the trace-cmd recording turns into a PNG with a rate, target and
#     estimate series for s1's QP and one CNP mark per CNP rdma_cc counted.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"
start=$(date +%s)
# 90 s: on a loaded machine the guests took 4 minutes to start the traffic
# and the 60 s of an earlier default ended before s1's checks did
dur=${OPS_DURATION:-90}

CHECK_TAG=ops
. "$top/tools/check/lib.sh"

"$top/tools/scripts/deps.sh" base plot ops >/dev/null 2>&1 ||
	nok "packages install (deps.sh base plot ops)"
if make -C "$top/tools" --no-print-directory rdma-cc-top >/tmp/ops-build.$$ 2>&1; then
	ok "rdma-cc-top builds"
else
	tail -n 5 /tmp/ops-build.$$
	nok "rdma-cc-top builds"
fi
rm -f /tmp/ops-build.$$
ccTop=$top/tools/rdma-cc-top
ccPlot=$top/tools/rdma-cc-plot
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- rdma-cc-top on fixtures -------------------------------------------
fx=$work/fx
mkdir -p "$fx/dbg/rxe0" "$fx/dbg/rxe1" "$fx/sys/rxe0/ports/1/hw_counters"
qpfile() {	# qpfile FILE QPN CONGESTED CURRENT TARGET ESTIMATE CNPS
	printf 'qpn: %s\ncongested: %s\nline_rate_bps: 20000000\ncurrent_bps: %s\ntarget_bps: %s\ntold_bps: %s\nestimate: %s\ncnps: %s\npackets: 100\nepisodes: 2\n' \
		"$2" "$3" "$4" "$5" "$4" "$6" "$7" >"$1"
}
qpfile "$fx/dbg/rxe0/qp17" 17 1 5000000 8000000 0.500000 40
qpfile "$fx/dbg/rxe0/qp18" 18 0 20000000 20000000 0.100000 3
printf 'device: rxe0\nqps: 2\n' >"$fx/dbg/rxe0/summary"
: >"$fx/dbg/rxe0/qp_control"
# a device as rdma_cc shows it now: the table "qps" with the columns of
# rdma_cc/debugfs.c (taken from the source, so that the two cannot drift),
# the line rate in "summary", and "qp" (one QP in detail), ignored
cols=$(sed -n '/rcc_qps_columns\[\] = {/,/};/p' "$top/rdma_cc/debugfs.c" | grep -o '"[a-z_]*"' | tr -d '"' | tr '\n' ' ')
qprow() {	# qprow key=value...: a row of "qps", 0 for the columns not given
	awk -v cols="$cols" -v kv="$*" 'BEGIN { n = split(kv, a, " "); for (i = 1; i <= n; i++) { split(a[i], x, "="); v[x[1]] = x[2] }
		m = split(cols, c, " "); for (i = 1; i <= m; i++) printf "%s%s", (i > 1 ? " " : ""), ((c[i] in v) ? v[c[i]] : 0); print "" }'
}
{
	echo "$cols" | sed 's/ $//'
	qprow qpn=33 congested=1 current_bps=2000000 target_bps=4000000 told_bps=2000000 estimate=0.900000 cnps=90 episodes=5 packets=7
	qprow qpn=34 congested=1 current_bps=12000000 target_bps=14000000 told_bps=12000000 estimate=0.250000 cnps=0 episodes=1 packets=9
} >"$fx/dbg/rxe1/qps"
printf 'device: rxe1\nlink_rate_bps: 1000000000\nline_rate_bps: 20000000\nqps: 2\n' >"$fx/dbg/rxe1/summary"
printf 'qpn: 99\ncongested: 1\ncurrent_bps: 1\n' >"$fx/dbg/rxe1/qp"
for c in np_ecn_marked_roce_packets:11 np_cnp_sent:7 rp_cnp_handled:5 rp_cnp_ignored:1 paced_ns:123; do
	echo "${c#*:}" >"$fx/sys/rxe0/ports/1/hw_counters/${c%%:*}"
done
topf() { "$ccTop" --debugfs="$fx/dbg" --sysfs="$fx/sys" "$@"; }
order() { topf --once --format=csv "$@" | awk -F, 'NR > 1 { printf "%s%s", s, $2; s = " " } END { print "" }'; }
check "rdma-cc-top --sort=rate lists the slowest first ($(order --sort=rate))" \
	[ "$(order --sort=rate)" = "33 17 34 18" ]
check "rdma-cc-top --sort=cnps lists the most CNPs first ($(order --sort=cnps))" \
	[ "$(order --sort=cnps)" = "33 17 18 34" ]
check "rdma-cc-top --sort=estimate lists the highest estimate first ($(order --sort=estimate))" \
	[ "$(order --sort=estimate)" = "33 17 34 18" ]
check "rdma-cc-top --reverse turns the order round" \
	[ "$(order --sort=rate --reverse)" = "18 34 17 33" ]
check "rdma-cc-top CSV: a header and a row per QP with its values" \
	eval '[ "$(topf --once --format=csv | head -n 1)" = "device,qpn,congested,current_bps,target_bps,line_rate_bps,told_bps,estimate,cnps,episodes,packets" ] &&
	      topf --once --format=csv | grep -qx "rxe1,33,1,2000000,4000000,20000000,2000000,0.900000,90,5,7"'
json_ok() {
	topf --once --format=json | python3 -c '
import json, sys
d = json.load(sys.stdin)
q = {(x["device"], x["qpn"]): x for x in d["qps"]}
assert len(q) == 4, q
assert q[("rxe0", 17)]["current_bps"] == 5000000 and q[("rxe0", 17)]["cnps"] == 40
assert q[("rxe1", 34)]["estimate"] == 0.25
p = d["ports"][0]
assert p["device"] == "rxe0" and p["port"] == 1
assert p["hw_counters"]["np_cnp_sent"] == 7 and p["hw_counters"]["rp_cnp_handled"] == 5
'
}
check "rdma-cc-top JSON parses and carries every QP and the hw counters" json_ok
check "rdma-cc-top --format=prom: hw counters and per-QP gauges in the Prometheus text format" \
	eval 'topf --once --format=prom | grep -qx "rdma_port_hw_counter{device=\"rxe0\",port=\"1\",counter=\"np_cnp_sent\"} 7" &&
	      topf --once --format=prom | grep -qx "rdma_cc_qp_current_bps{device=\"rxe1\",qpn=\"33\"} 2000000" &&
	      topf --once --format=prom | grep -qx "rdma_cc_qp_cnps_total{device=\"rxe0\",qpn=\"17\"} 40"'
check "rdma-cc-top's table shows each QP's rate in Mbit/s and the port's CNP counters" \
	eval 'topf --once | grep -Eq "^rxe0 +17 +yes +5\.00 +8\.00 +20\.00 +0\.500000 +40 " &&
	      topf --once | grep -q "rxe0/1: np_ecn_marked_roce_packets 11 np_cnp_sent 7 rp_cnp_handled 5 rp_cnp_ignored 1"'
check "rdma-cc-top refreshes (--count=2 --interval=0.1 prints two screens)" \
	[ "$(topf --count=2 --interval=0.1 | grep -c '^rdma-cc-top - ')" = 2 ]
bad_opts() {
	local o rc
	for o in --sort=bogus --format=xml --interval=0 --interval=x --count=0 --nope; do
		topf "$o" >/dev/null 2>&1
		rc=$?
		[ "$rc" = 2 ] || { echo "  $o: exit $rc"; return 1; }
	done
	# no rdma_cc: no QPs, the ports' counters still, exit 0
	[ "$("$ccTop" --once --format=csv --debugfs="$work/none" --sysfs="$fx/sys" | wc -l)" = 1 ] &&
	"$ccTop" --once --format=prom --debugfs="$work/none" --sysfs="$fx/sys" | grep -q 'counter="np_cnp_sent"} 7' || return 1
	"$ccTop" --once --debugfs="$fx/sys/rxe0/ports/1/hw_counters/paced_ns" >/dev/null 2>&1
	[ $? = 1 ]
}
check "rdma-cc-top: bad options exit 2; without rdma_cc only the ports, exit 0; an unreadable debugfs exits 1" bad_opts

# ---- rdma-cc-plot on a fixture -------------------------------------------
# the text "trace-cmd report" prints for rdma_cc's events
{
	echo "cpus=1"
	t=100
	for i in $(seq 0 39); do
		for q in 17 18; do
			rc=$((20000000 - (i % 10) * 1000000 - q))
			printf '     ib_write_bw-201   [000]   %d.%06d: run:                  rxe0 qp %d t %d late 0 reduce cnp 1 pkts 60 est %d/2^31 rc %d rt 20000000 k 0 fr_cut\n' \
				$t $((i * 20000)) "$q" $((i * 50000000)) $((i * 40000000)) "$rc"
		done
		[ $((i % 4)) = 0 ] && printf '          <idle>-0     [000]   %d.%06d: cnp:                  rxe0 qp 17\n' $t $((i * 20000 + 5))
	done
} >"$work/report.txt"
plot_fx() {
	"$ccPlot" -o "$work/fx.png" --keep="$work/plotfx" "$work/report.txt" >/dev/null || return 1
	grep -qx "rxe0 17 rate 40" "$work/plotfx/series" &&
	grep -qx "rxe0 17 cnp 10" "$work/plotfx/series" &&
	grep -qx "rxe0 18 estimate 40" "$work/plotfx/series" &&
	grep -qx "rxe0 18 cnp 0" "$work/plotfx/series" &&
	grep -q "qp 17 CNPs (10)" "$work/plotfx/plot.gp" &&
	python3 - "$work/fx.png" <<-'EOF'
	import struct, sys
	b = open(sys.argv[1], "rb").read()
	assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR"
	assert struct.unpack(">II", b[16:24]) == (1200, 700)
	EOF
}
check "rdma-cc-plot: a trace-cmd report becomes a 1200x700 PNG with rate, target, estimate and CNP series per QP" plot_fx
plot_bad() {
	echo "nothing here" >"$work/empty.txt"
	"$ccPlot" -o "$work/x.png" "$work/empty.txt" 2>/dev/null
	[ $? = 1 ] && [ ! -e "$work/x.png" ] &&
	{ "$ccPlot" --bogus "$work/report.txt" 2>/dev/null; [ $? = 2 ]; }
}
check "rdma-cc-plot: input without rdma_cc events exits 1 and writes nothing; a bad option exits 2" plot_bad

# ---- the testbed -----------------------------------------------------------
TESTS=(
	"testbed boots with the patched rxe and rdma_cc"
	"incast with rdma_cc and trace-cmd completes"
	"rdma resource show qp -dd shows rdma_cc's state of the sender's QP, as debugfs does"
	"rdma-cc-top --once --format=json in a guest lists the QP with debugfs' values"
	"qp_control pins a QP's rate and sets its own parameters, seen in rdma resource"
	"qp_control refuses every bad write, and nothing changes"
	"qp_control unpin and clear give the QP back to its device"
	"node exporter's /metrics in every VM (textfile collector; its infiniband collector ran) carry the hw counters, equal to rdma statistic's"
	"the counters reconcile: CE received = CE marked at the switch (within 1%, no drops), CNPs sent = on the wire = handled + ignored, handled = rdma_cc's CNPs"
	"a trace-cmd recording from the guest becomes a PNG of s1's QP with one CNP mark per CNP"
	"no WARNING or BUG in any VM's kernel log"
)
"$top/tools/scripts/deps.sh" vm >/dev/null 2>&1 || skip_all "deps.sh vm failed"
make -C "$top" --no-print-directory modules >"$work/modules.log" 2>&1 &&
	[ -f "$top/rdma_cc.ko" ] || { tail -n 5 "$work/modules.log"; skip_all "no rdma_cc.ko"; }
make -C "$top" --no-print-directory rxe >"$work/rxe.log" 2>&1 ||
	{ tail -n 5 "$work/rxe.log"; skip_all "no rdma_rxe.ko"; }

TB_RUN=$RDMA_CC_CACHE/ops/run
rm -rf "$TB_RUN"
. "$top/tools/testbed/testbed.sh"
. "$top/tools/testbed/incast.sh"
trap 'tb_down; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
tb_rxe_needs_hook || skip_all "rdma_rxe.ko is not the patched driver"
tb_up || skip_all "testbed down"
TB_SENDERS_LIST=${TB_VMS#r }
# A fresh rdma_cc in each sender, so that its counters start with the run.
for v in $TB_SENDERS_LIST; do
	tb_cc_unload "$v" >/dev/null
	tb_cc_load "$v" || skip_all "insmod rdma_cc on $v failed"
done
ok "${TESTS[0]}"
out=$TB_RUN/checks
mkdir -p "$out"

# trace-cmd records rdma_cc's events in s1 for the whole run
tb_vm_spawn s1 ops-trace <<-'EOS'
cd /tmp && exec trace-cmd record -e rdma_cc -o /tmp/rdma_cc.dat >/tmp/trace-cmd.log 2>&1
EOS
sleep 3
# the rdma_cc loaded above, whose events trace-cmd records
TB_CC_KEEP=1 tb_incast ops 1 "$dur" >"$out/incast.log" 2>&1 &
incast_pid=$!

# In s1, in one go (round trips to a VM are slow on a loaded machine):
# wait for its QP to be in rdma_cc's hands with an episode behind it;
# rdma resource, debugfs, rdma resource (debugfs' counters must lie
# between); rdma-cc-top; then qp_control, each write followed by its exit
# status, qp_control's list and the QP's attributes.
tb_vm_run s1 240 >"$out/s1-live.txt" 2>&1 <<-EOS
# as soon as a bulk QP has had an episode (it lives only as long as the
# traffic, and a VM of a loaded machine is slow): the four quick reads
# first, then qp_control's many writes
for i in \$(seq 600); do
	# a bulk QP (ib_write_bw's, which lives as long as the traffic; the
	# victim's ib_send_lat QP lives one round, and may end between two
	# of the reads below) that has had an episode
	q=\$(rdma resource show qp -dd | sed -n 's/.* lqpn \([0-9]*\) .* comm ib_write_bw .*drv_cc_episodes [1-9].*/\1/p' | head -n 1)
	[ -n "\$q" ] && break
	sleep 0.2
done
echo "qpn: \$q"
echo "res: begin"
rdma resource show qp -dd lqpn \$q
echo \$q >/sys/kernel/debug/rdma_cc/rxe0/qp
cat /sys/kernel/debug/rdma_cc/rxe0/qp | tr -d ' ' | sed 's/^/dbg_/'
rdma resource show qp -dd lqpn \$q
$ccTop --once --format=json | sed 's/^/json /'
echo "res: end"
c=/sys/kernel/debug/rdma_cc/rxe0/qp_control
# no process per bad write (builtins only): the QP lives only as long as
# the traffic, and a VM of a loaded machine is slow to start processes
rd() { l=; IFS= read -r -d '' l <\$c; echo "list: \${l//\$'\n'/;}"; }
cc() { rdma resource show qp -dd lqpn \$q | sed -n 's/.*drv_cc_congested/cc: drv_cc_congested/p'; }
try() { echo "write: \$1"; printf '%s\n' "\$1" >\$c 2>/dev/null; echo "rc: \$?"; rd; }
try "\$q pin_mbps=3"
cc
for w in "\$q bogus=1" "\$q minimum_rate_percent=0" "\$q minimum_rate_percent=5x" \
	"\$q control_interval_ns=1999" "\$q pin_mbps=0" "\$q pin_mbps=10000001" \
	"\$q pin_mbps=3 unpin" "\$q" "999999 unpin" "x unpin" "\$q minimum_rate_percent=-1" \
	"\$q minimum_rate_percent=20 bogus=1"; do
	try "\$w"
done
echo "write: NUL"; printf '%s\0junk' "\$q clear" >\$c 2>/dev/null; echo "rc: \$?"; rd
echo "write: bad-done"; cc
try "\$q minimum_rate_percent=20 control_interval_ns=50000000"
cc
try "\$q minimum_rate_percent=device"
try "\$q unpin"
cc
try "\$q clear"
cc
echo "write: end"
EOS
qpn=$(sed -n 's/^qpn: //p' "$out/s1-live.txt")
echo "  s1's QP: ${qpn:-none}"
sed -n '/^write: /,/^write: end/p' "$out/s1-live.txt" | sed '$d' >"$out/control.txt"
sed -n '/^res: begin/,/^res: end/p' "$out/s1-live.txt" | sed '1d;$d' >"$out/res.txt"
res_ok() {
	local f=$out/res.txt r
	# the line rate the testbed gives rdma_cc (TB_CC_PARAMS), in bit/s
	r=$(sed -n 's/.*data_rate_mbps=\([0-9]*\).*/\1/p' <<<"$TB_CC_PARAMS")
	python3 - "$f" "$qpn" "${r:-0}000000" <<-'EOF'
	import json, sys
	lines = open(sys.argv[1]).read().splitlines()
	qpn = int(sys.argv[2])
	rate = sys.argv[3]
	res = []
	for l in lines:
	    if l.startswith("link rxe0/1 lqpn %d " % qpn):
	        w = l.split()
	        res.append({w[i]: w[i + 1] for i in range(2, len(w) - 1, 2)})
	dbg = dict(l[4:].split(":", 1) for l in lines if l.startswith("dbg_"))
	assert len(res) == 2, res
	a, b = res
	for k in ("drv_cc_congested", "drv_cc_current_bps", "drv_cc_target_bps", "drv_cc_line_rate_bps",
	          "drv_cc_estimate_ppm", "drv_cc_episodes", "drv_cc_cnps", "drv_cc_pinned_bps",
	          "drv_cc_own_params", "drv_cc_paced_bps"):
	    assert k in a, k
	for k in ("cnps", "episodes"):
	    assert int(a["drv_cc_" + k]) <= int(dbg[k]) <= int(b["drv_cc_" + k]), (k, a, dbg, b)
	assert a["drv_cc_line_rate_bps"] == dbg["line_rate_bps"] == rate, (a, dbg, rate)
	assert int(a["drv_cc_episodes"]) > 0
	assert a["drv_cc_pinned_bps"] == "0" and a["drv_cc_own_params"] == "0"
	for x in (a, b):
	    if x["drv_cc_congested"] == "1":
	        assert int(x["drv_cc_current_bps"]) <= int(x["drv_cc_line_rate_bps"])
	        assert x["drv_cc_paced_bps"] == x["drv_cc_current_bps"], x
	    else:
	        assert x["drv_cc_current_bps"] == x["drv_cc_line_rate_bps"]
	print("  " + [l for l in lines if l.startswith("link")][0])
	top = json.loads([l[5:] for l in lines if l.startswith("json ")][0])
	q = [x for x in top["qps"] if x["qpn"] == qpn and x["device"] == "rxe0"]
	assert len(q) == 1, top
	assert int(a["drv_cc_cnps"]) <= q[0]["cnps"] and q[0]["line_rate_bps"] == int(rate), q
	assert any(p["device"] == "rxe0" and "rp_cnp_handled" in p["hw_counters"] for p in top["ports"])
	open(sys.argv[1] + ".top", "w").write("ok")
	EOF
}
if [ -n "$qpn" ] && res_ok; then
	ok "${TESTS[2]}"
else
	nok "${TESTS[2]}"
	sed 's/^/#   /' "$out/res.txt" | head -n 20
fi
check "${TESTS[3]}" [ -e "$out/res.txt.top" ]

ctl_blocks() {	# the file as "write|rc|list|cc" records
	awk '/^write: / { if (w != "") print w "|" rc "|" l "|" c; w = substr($0, 8); rc = l = c = "" }
	     /^rc: / { rc = $2 } /^list: / { l = substr($0, 7) } /^cc: / { c = substr($0, 5) }
	     END { if (w != "") print w "|" rc "|" l "|" c }' "$out/control.txt"
}
ccval() { sed -n "s/.* $1 \([0-9]*\).*/\1/p" <<<" $2"; }
ctl_pin_ok() {
	local r
	r=$(ctl_blocks | grep -F "$qpn pin_mbps=3|") || return 1
	[ "$(cut -d'|' -f2 <<<"$r")" = 0 ] &&
	[ "$(cut -d'|' -f3 <<<"$r")" = "$qpn pin_mbps=3;" ] &&
	[ "$(ccval drv_cc_pinned_bps "$(cut -d'|' -f4 <<<"$r")")" = 3000000 ] &&
	[ "$(ccval drv_cc_paced_bps "$(cut -d'|' -f4 <<<"$r")")" = 3000000 ] &&
	r=$(ctl_blocks | grep -F "$qpn minimum_rate_percent=20 control_interval_ns=50000000|") &&
	[ "$(cut -d'|' -f2 <<<"$r")" = 0 ] &&
	[ "$(cut -d'|' -f3 <<<"$r")" = "$qpn pin_mbps=3 control_interval_ns=50000000 minimum_rate_percent=20;" ] &&
	[ "$(ccval drv_cc_own_params "$(cut -d'|' -f4 <<<"$r")")" = 1 ] &&
	r=$(ctl_blocks | grep -F "$qpn minimum_rate_percent=device|") &&
	[ "$(cut -d'|' -f3 <<<"$r")" = "$qpn pin_mbps=3 control_interval_ns=50000000;" ]
}
check "${TESTS[4]}" ctl_pin_ok
ctl_bad_ok() {
	local n=0 w rc l c
	while IFS='|' read -r w rc l c; do
		case $w in
		"$qpn pin_mbps=3" | "$qpn minimum_rate_percent=20 control_interval_ns=50000000" | \
		"$qpn minimum_rate_percent=device" | "$qpn unpin" | "$qpn clear") continue ;;
		bad-done)
			# after them all, the QP as rdma resource shows it: the pin only
			[ "$(ccval drv_cc_pinned_bps "$c")" = 3000000 ] &&
			[ "$(ccval drv_cc_own_params "$c")" = 0 ] ||
				{ echo "  after the bad writes: '$c'"; return 1; }
			continue ;;
		esac
		n=$((n + 1))
		# refused, and still exactly the pin, nothing else
		if [ "$rc" = 0 ] || [ "$l" != "$qpn pin_mbps=3;" ]; then
			echo "  accepted or changed by '$w': rc $rc, list '$l'"
			return 1
		fi
	done < <(ctl_blocks)
	echo "  $n bad writes refused"
	[ "$n" = 13 ]
}
check "${TESTS[5]}" ctl_bad_ok
ctl_clear_ok() {
	local r c
	r=$(ctl_blocks | grep -F "$qpn unpin|") &&
	[ "$(cut -d'|' -f3 <<<"$r")" = "$qpn control_interval_ns=50000000;" ] &&
	[ "$(ccval drv_cc_pinned_bps "$(cut -d'|' -f4 <<<"$r")")" = 0 ] &&
	r=$(ctl_blocks | grep -F "$qpn clear|") &&
	[ "$(cut -d'|' -f2 <<<"$r")" = 0 ] && [ -z "$(cut -d'|' -f3 <<<"$r")" ] &&
	c=$(cut -d'|' -f4 <<<"$r") &&
	[ "$(ccval drv_cc_own_params "$c")" = 0 ] && [ "$(ccval drv_cc_pinned_bps "$c")" = 0 ] &&
	# paced at the loop's rate again: line rate (0) or the loop's rate
	{ [ "$(ccval drv_cc_paced_bps "$c")" = 0 ] ||
	  [ "$(ccval drv_cc_paced_bps "$c")" = "$(ccval drv_cc_current_bps "$c")" ]; }
}
check "${TESTS[6]}" ctl_clear_ok
if ! ctl_pin_ok || ! ctl_bad_ok >/dev/null || ! ctl_clear_ok; then
	sed 's/^/#   /' "$out/control.txt" | head -n 60
fi

wait "$incast_pid"
incast_rc=$?
res() { sed -n "s/^$1=//p" "$TB_RUN/ops/result" 2>/dev/null | head -n 1; }
num() { local v; v=$(res "$1"); echo "${v:-0}"; }
incast_ok() {
	[ "$incast_rc" = 0 ] || return 1
	local v
	for v in $TB_SENDERS_LIST; do
		[ "$(res "bw_rc_$v")" = 0 ] || return 1
	done
}
check "${TESTS[1]} (${dur} s)" incast_ok
[ "$incast_rc" = 0 ] || tail -n 20 "$out/incast.log"

# Stop the recording; keep it on the host.
tb_vm_run s1 60 <<-'EOS' >"$out/trace-stop.txt" 2>&1
pkill -INT -x trace-cmd
for i in $(seq 100); do pgrep -x trace-cmd >/dev/null || break; sleep 0.2; done
cp /tmp/rdma_cc.dat /mnt/rdma_cc.dat && ls -l /tmp/rdma_cc.dat
trace-cmd report -i /tmp/rdma_cc.dat 2>/dev/null | grep -c ' cnp: ' | sed 's/^/trace_cnps=/'
sed 's/^cnps: /rdma_cc_cnps=/p; d' /sys/kernel/debug/rdma_cc/rxe0/summary
EOS
tb_vm_join s1 ops-trace 30 >/dev/null 2>&1

# node exporter in every VM: the infiniband collector, and the hw counters
# and rdma_cc's QPs through the textfile collector; then rdma statistic.
for v in $TB_VMS; do
	tb_vm_run "$v" 90 >"$out/metrics-$v.txt" 2>&1 <<-EOS
	mkdir -p /tmp/ne
	$ccTop --once --format=prom >/tmp/ne/rdma.prom.tmp && mv /tmp/ne/rdma.prom.tmp /tmp/ne/rdma.prom
	prometheus-node-exporter --path.sysfs=/sys --collector.disable-defaults \
		--collector.infiniband --collector.textfile \
		--collector.textfile.directory=/tmp/ne \
		--web.listen-address=127.0.0.1:9100 >/tmp/ne.log 2>&1 &
	pid=\$!
	for i in \$(seq 100); do curl -sf http://127.0.0.1:9100/metrics >/tmp/metrics && break; sleep 0.3; done
	kill \$pid
	grep -E '^(node_infiniband|node_scrape_collector_success|rdma_port_hw_counter|rdma_cc_qp)' /tmp/metrics | sed 's/^/metric /'
	rdma statistic show link rxe0/1 | sed 's/^/stat /'
	EOS
done
# metric VM COUNTER: rxe0 port 1's COUNTER in VM's /metrics (labels in any order)
metric() {
	awk -v c="$2" '$1 == "metric" && $2 ~ /^rdma_port_hw_counter\{/ &&
		index($2, "counter=\"" c "\"") && index($2, "device=\"rxe0\"") &&
		index($2, "port=\"1\"") { print $3; exit }' "$out/metrics-$1.txt"
}
metrics_ok() {
	local v m s k want got
	for v in $TB_VMS; do
		m=$out/metrics-$v.txt
		# the collector ran (1.5.0 finds no counters/ on rxe: see admin-guide.rst)
		grep -q '^metric node_scrape_collector_success{collector="infiniband"} ' "$m" ||
			{ echo "  $v: the infiniband collector did not run"; return 1; }
		s=$(sed -n 's/^stat //p' "$m" | awk '{ for (i = 3; i < NF; i += 2) printf "%s=%s ", $i, $(i + 1) }')
		for k in np_ecn_marked_roce_packets np_cnp_sent rp_cnp_handled rp_cnp_ignored paced_ns; do
			want=$(tb_kv "$k" "$s")
			got=$(metric "$v" "$k")
			# node exporter prints large values as 3.5201448244e+10
			[ -n "$got" ] && awk -v a="$got" -v b="$want" 'BEGIN { exit !(a + 0 == b + 0) }' ||
				{ echo "  $v: $k is '$got' in /metrics, $want in rdma statistic"; return 1; }
		done
	done
}
check "${TESTS[7]}" metrics_ok
for v in r s1; do
	echo "  /metrics of $v (curl http://127.0.0.1:9100/metrics):"
	grep -E 'collector="infiniband"|np_ecn_marked|np_cnp_sent|rp_cnp_handled|rp_cnp_ignored|rdma_cc_qp_(current_bps|cnps_total)' \
		"$out/metrics-$v.txt" | sed 's/^metric /    /' | head -n 8
done

# The reconciliation, from /metrics (after) and rdma statistic before the run.
delta() { echo $(( $(metric "$1" "$2") - $(tb_kv "$2" "$(cat "$TB_RUN/ops/stats-before-$1.txt")") )); }
reconcile() {
	local marked ce sent wire handled=0 ignored=0 cc=0 v c
	marked=$(num switch_marked)
	ce=$(delta r np_ecn_marked_roce_packets)
	sent=$(delta r np_cnp_sent)
	wire=$(num wire_cnps)
	for v in $TB_SENDERS_LIST; do
		handled=$((handled + $(delta "$v" rp_cnp_handled)))
		ignored=$((ignored + $(delta "$v" rp_cnp_ignored)))
	done
	c=$(sed -n 's/^rdma_cc_cnps=//p' "$out/trace-stop.txt")
	# s2's rdma_cc counted its CNPs too
	for v in $TB_SENDERS_LIST; do
		cc=$((cc + $(tb_vm_run "$v" 30 <<<'sed -n "s/^cnps: //p" /sys/kernel/debug/rdma_cc/rxe0/summary')))
	done
	echo "  switch marked CE $marked (drops $(num switch_drops)+$(num switch_tap_drops)); receiver: CE received $ce, CNPs sent $sent; on the wire $wire; senders: handled $handled, ignored $ignored; rdma_cc counted $cc (s1 $c)"
	[ "$marked" -gt 0 ] && [ "$sent" -gt 0 ] || return 1
	# every CE mark reaches the receiver when the switch drops nothing
	# (but those that arrive after their QP is gone, at the very end)
	[ "$ce" -le "$marked" ] || return 1
	if [ "$(num switch_drops)" = 0 ] && [ "$(num switch_tap_drops)" = 0 ]; then
		[ $(( (marked - ce) * 100 )) -le "$marked" ] || return 1
	fi
	[ "$sent" -le "$ce" ] && [ "$wire" = "$sent" ] &&
	[ $((handled + ignored)) = "$sent" ] && [ "$handled" = "$cc" ]
}
check "${TESTS[8]}" reconcile

plot_vm() {
	local png=$RDMA_CC_CACHE/ops/rdma-cc-plot.png tc c
	[ -s "$TB_RUN/s1/ctl/rdma_cc.dat" ] || return 1
	cp "$TB_RUN/s1/ctl/rdma_cc.dat" "$out/rdma_cc.dat"
	rm -f "$png"
	"$ccPlot" -o "$png" --keep="$out/plot" \
		--title="rdma_cc in s1: 2:1 incast through a ${TB_BOTTLENECK_MBIT} Mbit/s ECN-marking switch (trace-cmd)" \
		"$out/rdma_cc.dat" || return 1
	tc=$(sed -n 's/^trace_cnps=//p' "$out/trace-stop.txt")
	c=$(sed -n 's/^rdma_cc_cnps=//p' "$out/trace-stop.txt")
	echo "  plot: $png; series: $(tr '\n' ';' <"$out/plot/series"); CNPs traced $tc, rdma_cc counted $c"
	[ -s "$png" ] && [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = "211PNG" ] &&
	grep -q "^rxe0 $qpn rate [1-9]" "$out/plot/series" &&
	grep -q "^rxe0 $qpn estimate [1-9]" "$out/plot/series" &&
	grep -q "^rxe0 $qpn cnp [1-9]" "$out/plot/series" &&
	[ "$(awk '$1 == "rxe0" && $3 == "cnp" { n += $4 } END { print n + 0 }' "$out/plot/series")" = "$c" ] &&
	[ "$tc" = "$c" ] && [ "$c" -gt 0 ]
}
check "${TESTS[9]}" plot_vm

w=$(num dmesg_warnings)
check "${TESTS[10]} ($w)" [ "$w" = 0 ]
echo "ops: took $(( $(date +%s) - start )) s; run data in $TB_RUN"
