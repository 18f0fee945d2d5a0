#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 40-e2e.sh - the end-to-end test: real RDMA traffic through a congested,
# ECN-marking switch, with and without rdma_cc (tools/testbed/).
#
# Boots the testbed (receiver r, senders s1 s2, the switch namespace), then
# runs the same 2:1 incast three times: without rdma_cc, with it, and with
# it unloaded and loaded again in the senders while traffic runs.  Each
# sender runs TB_QPS (8) RC QPs of ib_write_bw, so that without congestion
# control the RC windows overflow the bottleneck's buffer; the first two
# runs also carry a latency victim (ib_send_lat from s1 through the same
# bottleneck).  Every assertion reads real counters: the switch's marker
# and FIFO, captures on its port decoded by tshark, rxe's hw counters (rdma
# statistic), rdma_cc's debugfs, perftest's results, dmesg.  The
# differences between the first two runs are asserted with margins
# (E2E_* below) that hold on a loaded machine; a congestion control that
# does not react fails them (TB_CC_KO=.../fixed_rate.ko, see
# Documentation/testbed.rst).  Prints the runs' figures side by side.
# E2E_DURATION (s, default 40 on 6.1, 30 on the other kernels) sets each
# run's length (E2E_RELOAD_DURATION the reload run's, twice that).  A
# fourth run, DCQCN (rdma_cc_dcqcn.ko) on the same incast, comes on 6.1
# (E2E_DCQCN=1 or 0 to choose).  Last, E2E_DESTROY_CYCLES (20) times, QPs
# paced by rdma_cc are destroyed with their pacing timers armed
# (tb_destroy_paced).  What cannot run (no patched rxe, no module) is
# reported as "not ok ... (reason)".
#
# All of it once per kernel: by default 6.1 and 6.12-rt (the RT kernel runs
# 6.12's code and adds its own rules; both VM suites on every kernel would
# not fit CI's 90 minutes); E2E_KERNELS="6.1 6.12 6.12-rt", or
# RCC_CHECK_KERNELS, picks others.  The VMs boot that kernel's Debian image
# with rdma_cc and the Soft-RoCE series built for it; lines are
# "ok e2e[LINE]: ...".  The kernel log must hold no WARNING, BUG, lockdep
# report or "sleeping function called from invalid context".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"
if [ -z "${RCC_SUITE_KERNEL:-}" ]; then
	rc=0
	for kl in ${E2E_KERNELS:-${RCC_CHECK_KERNELS:-6.1 6.12-rt}}; do
		rcc_suite_for "$kl" bash "$0" || rc=1
	done
	exit "$rc"
fi
kl=$RCC_SUITE_KERNEL
start=$(date +%s)
# 6.1 runs 40 s, the other kernels 30 s (CI's time: each kernel's run is
# a whole testbed boot and three incasts; the window where both senders
# send is the duration less 4 s and the senders' connection skew)
dur=${E2E_DURATION:-$([ "$kl" = 6.1 ] && echo 40 || echo 30)}
# The differences rdma_cc must make (with / without), each with a margin
# against what it made on a loaded 2-core machine (Documentation/testbed.rst
# has the measured figures):
E2E_DROPS_MIN=2000	# without: the switch drops more than this (47,673-68,461)
E2E_RETX_MIN=50		# without: rxe retransmits more often than this (1,037-1,368)
E2E_DROPS_RATIO=0.1	# with: at most this fraction of the drops without
			# (0-0.004 in the 18 runs since rxe 0009, 0.010 and
			# 0.024 with QPs paced at R before it; 0.4 until
			# Dec 7, for 0.018-0.17 before QPs were paced at R;
			# a CC that does not react: ~1)
E2E_GOODPUT_GAIN=1.2	# with: total goodput at least this many times the
			# one without (1.43-2.04 measured: without, each
			# drop costs a go-back-N, a lost tail the ACK timeout)
E2E_UTIL_MIN=75		# with: the bottleneck this % utilised, or ...
E2E_UTIL_COST=15	# ... at most this many points below the run without
			# (the 6.12-rt testbed fills it only 87.2-93.0%
			# without CC; a queue held near Kmax runs dry at
			# times, and a drop stalls a QP for rxe's timeout:
			# 79.5-92.5% with rdma_cc on 6.12-rt, 90.3-90.6%
			# on 6.1, in CI's runs of Dec 5)
E2E_VICTIM_RATIO=0.5	# with: the victim's median at most this fraction
			# of its median without (0.016-0.08 measured)
E2E_VICTIM_TAIL_RATIO=0.7 # with: the victim's p90 at most this fraction
			# of its p90 without (0.06-0.35 measured, ~1 for a
			# CC that does not react; its p99 is printed:
			# 0.37-1.35)
E2E_QUEUE_RATIO=0.5	# with: the queue's median at most this fraction of
			# its median without (0.10 measured; full: ~1)

CHECK_TAG="e2e[$kl]"
. "$top/tools/check/lib.sh"
# the tests that depend on the runs, reported not ok with a reason
TESTS=(
	"incast without rdma_cc completes"
	"without rdma_cc: the switch marks CE"
	"without rdma_cc: the bottleneck overflows, rxe retransmits"
	"incast with rdma_cc completes"
	"with rdma_cc: the switch marks CE and CE packets leave its port"
	"with rdma_cc: CNPs cross the switch and tshark decodes them as RoCEv2 CNPs"
	"with rdma_cc: ECT(0) only on the controlled QPs' payload packets"
	"with rdma_cc: every CNP the receiver sent is on the wire and reached a sender"
	"with rdma_cc: every sender's rdma_cc shows episodes, cuts and increases"
	"with rdma_cc: the senders were paced"
	"with rdma_cc: far fewer drops"
	"with rdma_cc: more goodput"
	"with rdma_cc: the latency victim's median is lower"
	"with rdma_cc: the latency victim's tail is lower"
	"with rdma_cc: every bulk QP held in an episode at rates near the fair share"
	"with rdma_cc: the bottleneck stays utilised"
	"with rdma_cc: the queue is held near the marking thresholds"
	"rdma_cc unloaded and reloaded under traffic, traffic survives"
	"QPs destroyed with their pacing timers armed: none left armed, no kernel warning"
	"no WARNING or BUG in any VM's kernel log"
)

if ! "$top/tools/scripts/deps.sh" vm >/dev/null 2>&1; then
	nok "packages for the testbed install (deps.sh vm)"
	skip_all "no testbed packages"
fi
moddir=$(rcc_moddir)
if make -C "$top" --no-print-directory modules >/tmp/e2e-modules.$$ 2>&1 &&
	[ -f "$moddir/rdma_cc.ko" ] && [ -f "$moddir/rdma_cc_hook.ko" ]; then
	ok "rdma_cc.ko and rdma_cc_hook.ko build"
	have_cc=1
else
	tail -n 5 /tmp/e2e-modules.$$
	nok "rdma_cc.ko and rdma_cc_hook.ko build"
	have_cc=0
fi
rm -f /tmp/e2e-modules.$$
if make -C "$top" --no-print-directory rxe >/tmp/e2e-rxe.$$ 2>&1; then
	ok "rdma_rxe.ko builds with the patch series"
else
	tail -n 5 /tmp/e2e-rxe.$$
	nok "rdma_rxe.ko builds with the patch series"
	rm -f /tmp/e2e-rxe.$$
	skip_all "no rdma_rxe.ko"
fi
rm -f /tmp/e2e-rxe.$$

TB_RUN=$RDMA_CC_CACHE/e2e/run-$kl
rm -rf "$TB_RUN"
# On 6.12's rxe the victim completes no round under load (below): no
# victim there, rather than one that waits for its rounds in each run
if [ "${kl%%-*}" = 6.12 ]; then
	: "${TB_VICTIM:=0}"
fi
. "$top/tools/testbed/testbed.sh"
. "$top/tools/testbed/incast.sh"
trap tb_down EXIT
trap 'exit 130' INT TERM

if tb_rxe_needs_hook; then
	ok "rdma_rxe.ko is the patched driver (depends on rdma_cc_hook)"
	patched=1
else
	nok "rdma_rxe.ko is the patched driver (depends on rdma_cc_hook): empty or missing series"
	patched=0
	TB_TCLASS=2	# plain rxe: ECT(0) through the traffic class
fi

boot=$(date +%s)
if tb_up; then
	ok "testbed boots: 3 VMs, rxe0 ACTIVE on each, behind the switch namespace ($(( $(date +%s) - boot )) s)"
else
	nok "testbed boots: 3 VMs, rxe0 ACTIVE on each, behind the switch namespace"
	skip_all "testbed down"
fi

res() { sed -n "s/^$2=//p" "$TB_RUN/$1/result" 2>/dev/null | head -n 1; }
num() { local v; v=$(res "$1" "$2"); echo "${v:-0}"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
# at_most A RATIO B: A is at most RATIO times B, and B is above 0 (the
# comparisons of a run with rdma_cc against the run without)
at_most() { awk -v a="$1" -v r="$2" -v b="$3" 'BEGIN { exit !(b > 0 && a <= r * b) }'; }
# at_least A RATIO B: A is at least RATIO times B, and B is above 0
at_least() { awk -v a="$1" -v r="$2" -v b="$3" 'BEGIN { exit !(b > 0 && a >= r * b) }'; }
# victim_lower KEY RATIO: the victim has samples with rdma_cc, and its KEY
# (victim_p50_us ...) is at most RATIO times the one without, unless the
# victim finished no round without (it waited longer still)
victim_lower() {
	gt "$(num with victim_samples)" 0 && { [ "$(num without victim_samples)" = 0 ] ||
		at_most "$(num with "$1")" "$2" "$(num without "$1")"; }
}
senders_ok() {	# every sender's ib_write_bw exited 0 with a goodput > 0
	local v
	for v in $TB_SENDERS_LIST; do
		[ "$(res "$1" "bw_rc_$v")" = 0 ] || return 1
		gt "$(num "$1" "goodput_mbps_$v")" 0 || return 1
	done
}

# Without rdma_cc no reaction point listens, so the patched rxe leaves its
# packets Not-ECT; the baseline asks for ECT(0) in the traffic class itself
# (rxe keeps a user's ECN bits), so that the switch marks rather than drops.
TB_TCLASS=2 tb_incast_again without 0 "$dur"
check "incast without rdma_cc completes" senders_ok without
check "without rdma_cc: the switch marks CE" gt "$(num without switch_marked)" 0
retx() { echo $(( $(num "$1" rxe_completer_retry_err) + $(num "$1" rxe_rcvd_seq_err) )); }
drops() { echo $(( $(num "$1" switch_drops) + $(num "$1" switch_tap_drops) )); }
check "without rdma_cc: the bottleneck overflows, rxe retransmits ($(drops without) drops > $E2E_DROPS_MIN, $(retx without) retransmissions > $E2E_RETX_MIN)" \
	eval '[ "$(drops without)" -gt $E2E_DROPS_MIN ] && [ "$(retx without)" -gt $E2E_RETX_MIN ]'

if [ "$have_cc" = 0 ] || [ "$patched" = 0 ]; then
	reason=$([ "$have_cc" = 0 ] && echo "no rdma_cc.ko" || echo "rxe not patched")
	for t in "${TESTS[@]:3:13}"; do nok "$t ($reason)"; done
else
	tb_incast_again with 1 "$dur"
	check "incast with rdma_cc completes" senders_ok with

	ce_pkts=$(tshark -r "$TB_RUN/with/ce.pcap" -Y 'ip.dsfield.ecn == 3 && udp.dstport == 4791' 2>/dev/null | wc -l)
	check "with rdma_cc: the switch marks CE and CE packets leave its port ($(num with switch_marked) marked, $ce_pkts captured)" \
		eval 'gt "$(num with switch_marked)" 0 && [ "$ce_pkts" -gt 0 ]'

	# The CNP layout: BTH opcode 0x81 to the sender's QP, 16 reserved
	# bytes, ICRC: UDP length 8 + 12 + 16 + 4 = 40; ICRC recomputed.
	cnp_ok() {
		local f=$TB_RUN/with/cnp.pcap n bad
		[ -s "$f" ] || return 1
		n=$(tshark -r "$f" -d udp.port==4791,infiniband -Y 'infiniband.bth.opcode == 0x81' 2>/dev/null | wc -l)
		bad=$(tshark -r "$f" -d udp.port==4791,infiniband \
			-Y 'infiniband.bth.opcode == 0x81 && !(udp.length == 40 && udp.dstport == 4791 && ip.src == 198.18.0.10)' 2>/dev/null | wc -l)
		echo "  tshark: $n CNPs (BTH opcode 0x81), $bad not in the CNP layout"
		tshark -r "$f" -d udp.port==4791,infiniband -c 1 -V 2>/dev/null |
			sed -n '/^InfiniBand/,$p' | sed -n '1,4p;/Destination Queue Pair/p' | sed 's/^/  /'
		python3 "$top/tools/forge/roce_forge.py" verify "$f" 2>&1 | tail -n 1 | sed 's/^/  icrc: /'
		[ "$n" -gt 0 ] && [ "$bad" -eq 0 ] &&
			python3 "$top/tools/forge/roce_forge.py" verify "$f" >/dev/null 2>&1
	}
	check "with rdma_cc: CNPs cross the switch and tshark decodes them as RoCEv2 CNPs" cnp_ok
	# Which packets claim ECN capability (tshark on the receiver's port,
	# the run's first 3000 RoCE packets; the traffic class is 0): the
	# senders' payload packets (SEND, RDMA WRITE: their QPs are under
	# rdma_cc) ECT(0), or CE where the switch marked them; ACKs and CNPs
	# Not-ECT; the receiver's own payload packets (the victim's replies:
	# no congestion control in r) Not-ECT.  An rxe that sets ECT(0) on
	# every packet fails the second class.
	ect_ok() {
		local f=$TB_RUN/with/ecn.pcap
		[ -s "$f" ] || return 1
		tshark -r "$f" -d udp.port==4791,infiniband -T fields -e ip.src \
			-e ip.dsfield.ecn -e infiniband.bth.opcode 2>/dev/null |
		awk -v r="$(tb_ip r)" '
			# opcodes in decimal: SEND and WRITE 0-11, ACK 17, CNP 129
			{ op = $3 + 0; ecn = $2 + 0; pay = op <= 11 }
			pay && $1 != r { n1++; if (ecn < 2) { b1++; if (!w1) w1 = $0 } }
			op == 17 || op == 129 { n2++; if (ecn) { b2++; if (!w2) w2 = $0 } }
			pay && $1 == r { n3++; if (ecn) { b3++; if (!w3) w3 = $0 } }
			END {
				printf "  senders'"'"' payload: %d, %d not ECT%s\n", n1, b1, w1 ? " (" w1 ")" : ""
				printf "  ACKs and CNPs: %d, %d ECN-capable%s\n", n2, b2, w2 ? " (" w2 ")" : ""
				printf "  receiver'"'"'s payload: %d, %d ECN-capable%s\n", n3, b3, w3 ? " (" w3 ")" : ""
				exit !(n1 > 0 && n2 > 0 && !b1 && !b2 && !b3)
			}'
	}
	check "with rdma_cc: ECT(0) only on the controlled QPs' payload packets" ect_ok
	# Every CNP sent is on the wire and arrives; a sender's rxe takes it to
	# rdma_cc or ignores it (those that arrive after the QP is gone, at
	# the end of the run).
	check "with rdma_cc: every CNP the receiver sent is on the wire and reached a sender ($(num with rxe_np_cnp_sent) sent, $(num with wire_cnps) captured, $(num with rxe_rp_cnp_handled) taken + $(num with rxe_rp_cnp_ignored) ignored; the VMs' qdiscs dropped $(num with rxe_qdisc_drops))" \
		eval '[ "$(num with rxe_np_cnp_sent)" -gt 0 ] && [ "$(num with wire_cnps)" = "$(num with rxe_np_cnp_sent)" ] && [ $(( $(num with rxe_rp_cnp_handled) + $(num with rxe_rp_cnp_ignored) )) = "$(num with rxe_np_cnp_sent)" ] && [ $(( $(num with rxe_rp_cnp_ignored) * 100 )) -le "$(num with rxe_np_cnp_sent)" ]'
	cc_acts() {
		local v
		for v in $TB_SENDERS_LIST; do
			[ "$(num with "cc_episodes_$v")" -gt 0 ] || return 1
			[ $(( $(num with "cc_fr_cut_$v") + $(num with "cc_ai_cut_$v") )) -gt 0 ] || return 1
			[ $(( $(num with "cc_fr_inc_$v") + $(num with "cc_ai_inc_$v") )) -gt 0 ] || return 1
		done
	}
	check "with rdma_cc: every sender's rdma_cc shows episodes, cuts and increases" cc_acts
	check "with rdma_cc: the senders were paced ($(num with rxe_paced_ms) ms)" gt "$(num with rxe_paced_ns)" 0
	# fewer drops than E2E_DROPS_RATIO of those without (a run that
	# dropped less than E2E_DROPS_MIN without cannot show it: it failed
	# above)
	check "with rdma_cc: far fewer drops ($(drops with) <= $E2E_DROPS_RATIO x $(drops without))" \
		at_most "$(drops with)" "$E2E_DROPS_RATIO" "$(drops without)"
	check "with rdma_cc: more goodput ($(num with goodput_mbps_total) >= $E2E_GOODPUT_GAIN x $(num without goodput_mbps_total) Mbit/s without)" \
		at_least "$(num with goodput_mbps_total)" "$E2E_GOODPUT_GAIN" "$(num without goodput_mbps_total)"
	# The victim's p99 is printed, not asserted (Documentation/testbed.rst
	# says why), and behind a full buffer the victim may finish no round
	# at all.  Its median is asserted: with the queue held, half of its
	# exchanges wait behind a few KB, not behind a full buffer (1.6-7.8
	# ms against 101-107 ms without in CI's runs of Dec 5-7 and the Dec 7
	# sweeps).  So is its tail, by the 90th percentile: the queue still
	# swings to the buffer now and then (a VM sends in bursts), so its
	# p99 may meet the full buffer's delay as without, but far fewer than
	# one exchange in ten do.  A run without rdma_cc whose victim
	# finished no round waited longer still.  Not on 6.12: there
	# ib_send_lat -e completes no round under load.  Idle, a round
	# completes only without inline data (-I 0; with it the client waits
	# forever, with Debian's own rdma_rxe.ko of 6.12-rt as well), and once
	# the incast runs no round completes, with -I 0 or without, with
	# rdma_cc or without (Documentation/testbed.rst)
	if [ "$TB_VICTIM" = 0 ]; then
		echo "  with rdma_cc: no latency victim (TB_VICTIM=0; on 6.12's rxe ib_send_lat -e completes no round under load)"
	else
		check "with rdma_cc: the latency victim's median is lower ($(num with victim_p50_us) us <= $E2E_VICTIM_RATIO x $(num without victim_p50_us) us without)" \
			victim_lower victim_p50_us "$E2E_VICTIM_RATIO"
		check "with rdma_cc: the latency victim's tail is lower (p90 $(num with victim_p90_us) us <= $E2E_VICTIM_TAIL_RATIO x $(num without victim_p90_us) us without; p99 $(num with victim_p99_us) against $(num without victim_p99_us) us, printed)" \
			victim_lower victim_p90_us "$E2E_VICTIM_TAIL_RATIO"
	fi
	# the rates rdma_cc set for the bulk QPs (over the window's second
	# half): every bulk QP sampled, in an episode most of the time, the
	# means of their rates summing to at most 3x the bottleneck (after
	# an increase a QP's rate is above what its VM can send, so the sum
	# of the means exceeds what the QPs send; with the line rate R = 20
	# Mbit/s it was 18x) and Jain's fairness across the QPs above 0.6
	check "with rdma_cc: every bulk QP held in an episode at rates near the fair share ($(num with cc_qps) of $(num with cc_bulk_qps) QPs, $(num with cc_congested_pct)% of the time, sum $(num with cc_rate_sum_mbps) Mbit/s, Jain $(num with cc_rate_jain))" \
		awk -v n="$(num with cc_qps)" -v q=$((TB_SENDERS * TB_QPS)) -v s="$(num with cc_rate_sum_mbps)" \
			-v b="$TB_BOTTLENECK_MBIT" -v j="$(num with cc_rate_jain)" -v c="$(num with cc_congested_pct)" \
			'BEGIN { exit !(n == q && c >= 50 && s > 0 && s <= 3 * b && j > 0.6) }'
	# the testbed itself may not fill the bottleneck (under PREEMPT_RT
	# the VMs send less): then the run without is the reference
	util_floor=$(awk -v w="$(num without utilisation_pct)" -v m=$E2E_UTIL_MIN \
		-v c=$E2E_UTIL_COST 'BEGIN { f = w - c; print (f < m ? f : m) }')
	check "with rdma_cc: the bottleneck stays utilised ($(res with utilisation_pct)% > $util_floor%: ${E2E_UTIL_MIN}%, or $E2E_UTIL_COST points below the $(res without utilisation_pct)% without)" \
		gt "$(num with utilisation_pct)" "$util_floor"
	# the queue: a loop that reacts holds it near Kmax (the median 19 KB
	# against 200 KB without in the demo of Dec 5); one that does not
	# leaves it full, as without.  Not asserted under PREEMPT_RT: there
	# the same settings held it in some runs (median 5.4 KB, rates 1.30x
	# the fair share, CI of Dec 6 20:30) and not in others (201 KB,
	# 1.61x, Dec 6 22:50), Documentation/testbed.rst; the drops and the
	# rates above still fail a congestion control that does not react
	qcmp="median $(num with queue_p50_bytes) B <= $E2E_QUEUE_RATIO x $(num without queue_p50_bytes) B without; Kmax $TB_KMAX_BYTES B"
	qheld=$(at_most "$(num with queue_p50_bytes)" "$E2E_QUEUE_RATIO" \
		"$(num without queue_p50_bytes)" && echo yes || echo no)
	if [ "$kl" = 6.12-rt ]; then
		echo "  with rdma_cc: the queue near the marking thresholds? $qcmp: $qheld (printed, not asserted under PREEMPT_RT)"
	else
		check "with rdma_cc: the queue is held near the marking thresholds ($qcmp)" \
			[ "$qheld" = yes ]
	fi

	# twice as long: an unload under traffic took 11 and 29 s in a loaded
	# guest, and the load must come while the traffic still runs
	TB_VICTIM=0 tb_incast_again reload 1 "${E2E_RELOAD_DURATION:-$((2 * dur))}" 1
	reload_ok() {
		local d=$TB_RUN/reload
		[ "$(grep -c ' ok$' "$d/reload.log" 2>/dev/null)" = $((2 * TB_SENDERS)) ] || return 1
		awk '{ print "  " $0 }' "$d/reload.log"
		senders_ok reload || return 1
		# traffic after the reload: every sender's port kept receiving
		awk -F, -v t="$(awk '$1 == "load" { print $3; exit }' "$d/reload.log")" '
			$1 >= t { for (i = 2; i < NF; i++) { if (!s) a[i] = $i; b[i] = $i }; s = 1 }
			END { if (!s) exit 1; for (i in a) if (b[i] <= a[i]) exit 1 }' "$d/switch.csv"
	}
	check "rdma_cc unloaded and reloaded under traffic, traffic survives" reload_ok
fi

# DCQCN (rdma_cc_dcqcn.ko, mlx5's values slowed down to the testbed's
# links: TB_DCQCN_PARAMS) on the same incast, the device switched to it
# with one write; rdma_cc is unloaded first and DCQCN after.  On 6.1 only
# by default (E2E_DCQCN=1 elsewhere too): CI's time.
if [ "${E2E_DCQCN:-$([ "$kl" = 6.1 ] && echo 1 || echo 0)}" = 1 ]; then
	if [ "$have_cc" = 1 ] && [ "$patched" = 1 ] && [ -f "$TB_DCQCN_KO" ]; then
		tb_cc_unload_senders
		TB_CC_KO=$TB_DCQCN_KO TB_CC_PARAMS=$TB_DCQCN_PARAMS TB_CC_ALGO=dcqcn \
			tb_incast_again dcqcn 1 "$dur"
		TB_CC_KO=$TB_DCQCN_KO tb_cc_unload_senders
		check "incast with DCQCN completes" senders_ok dcqcn
		dcqcn_acts() {
			local v
			for v in $TB_SENDERS_LIST; do
				grep -qx 'cc_algo=dcqcn' "$TB_RUN/dcqcn/result" || return 1
				[ "$(num dcqcn "cc_cuts_$v")" -gt 0 ] || return 1
				[ "$(num dcqcn "cc_increases_$v")" -gt 0 ] || return 1
			done
		}
		check "with DCQCN: every sender's DCQCN cut and raised its QPs' rates ($(for v in $TB_SENDERS_LIST; do printf '%s: %s cuts, %s increases; ' "$v" "$(num dcqcn "cc_cuts_$v")" "$(num dcqcn "cc_increases_$v")"; done))" dcqcn_acts
		check "with DCQCN: every CNP the receiver sent reached a sender ($(num dcqcn rxe_np_cnp_sent) sent, $(num dcqcn wire_cnps) captured, $(num dcqcn rxe_rp_cnp_handled) taken + $(num dcqcn rxe_rp_cnp_ignored) ignored)" \
			eval '[ "$(num dcqcn rxe_np_cnp_sent)" -gt 0 ] && [ "$(num dcqcn wire_cnps)" = "$(num dcqcn rxe_np_cnp_sent)" ] && [ $(( $(num dcqcn rxe_rp_cnp_handled) + $(num dcqcn rxe_rp_cnp_ignored) )) = "$(num dcqcn rxe_np_cnp_sent)" ]'
		check "with DCQCN: the senders were paced ($(num dcqcn rxe_paced_ms) ms; drops $(drops dcqcn), $(drops with) with rdma_cc, $(drops without) without)" \
			gt "$(num dcqcn rxe_paced_ns)" 0
	else
		nok "incast with DCQCN ($([ -f "$TB_DCQCN_KO" ] && echo "no rdma_cc or rxe not patched" || echo "no rdma_cc_dcqcn.ko"))"
	fi
fi

# QPs destroyed with their pacing timers armed (tb_destroy_paced), in s1
# under rdma_cc, which paces every QP at R (1 Mbit/s, below rxe0's link)
# outside an episode too.  On 6.12-rt a pacing timer that fired between a
# QP's last reference and its cleanup scheduled its task (rxe_sched_task()
# WARN_ONs, CI of Dec 7) until rxe 0009 had the timer take a reference
# (and woke the waiters again, as the QP leaves congestion control).
dcycles=${E2E_DESTROY_CYCLES:-20}
dsum=
if [ "$have_cc" = 1 ] && [ "$patched" = 1 ] && TB_CC_ALGO=rdma_cc tb_cc_load s1 >/dev/null 2>&1; then
	dsum=$(tb_destroy_paced s1 "$dcycles" | grep '^cycles=')
fi
check "QPs destroyed with their pacing timers armed: none left armed, no kernel warning (${dsum:-no rdma_cc or rxe not patched})" \
	eval '[ -n "$dsum" ] && [ "$(tb_kv armed_cycles "$dsum")" -ge $((dcycles * 2 / 3)) ] && [ "$(tb_kv left "$dsum")" = 0 ] && [ "$(tb_kv warnings "$dsum")" = 0 ]'

w=$(tb_kv warnings "$dsum")
for n in without with reload dcqcn; do w=$((w + $(num "$n" dmesg_warnings))); done
check "no WARNING or BUG in any VM's kernel log ($w)" [ "$w" = 0 ]
if [ "$w" != 0 ]; then
	grep -hE -B2 -A8 'WARNING|BUG|Oops|NETDEV WATCHDOG' "$TB_RUN"/*/dmesg-*.txt | head -n 40
fi
# runs repeated because a guest's emulated NIC stalled (tb_incast_again)
[ -s "$TB_RUN/repeated-runs" ] && sed "s/^/# e2e[$kl]: repeated: /" "$TB_RUN/repeated-runs"

echo
runs=(without)
[ -s "$TB_RUN/with/result" ] && runs+=(with)
[ -s "$TB_RUN/reload/result" ] && runs+=(reload)
[ -s "$TB_RUN/dcqcn/result" ] && runs+=(dcqcn)
tb_table "${runs[@]}"
echo "e2e[$kl]: took $(( $(date +%s) - start )) s; run data in $TB_RUN"
