#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 46-debug-vm.sh - the patched rxe and rdma_cc under a kernel that catches
# use-after-free, late kobject releases and list corruption (issue 19,
# items 1 and 2; Documentation/hardening.rst "Under a debug kernel").
#
# The testbed's guests boot tools/scripts/debug-kernel.sh's 6.1 kernel
# (KASAN, DEBUG_KOBJECT_RELEASE, DEBUG_LIST, DEBUG_OBJECTS_TIMERS) with two
# vCPUs; rdma_cc, rdma_cc_hook and the patched rdma_rxe are built against
# it.  In s1, over rxe's loopback (both ends of every QP in the VM):
#
#   - pacing: the test-only congestion control fixed_rate paces every QP at
#     1 Mbit/s, so a QP with work has its pacing timer armed nearly always;
#     DV_CYCLES times (default 30) an ib_write_bw pair with 8 QPs each runs
#     for 2 s and both are killed (SIGKILL: the QPs are destroyed by the
#     kernel with their timers armed).  /proc/timer_list is read just
#     before each kill: the check needs armed rxe_pace_timer entries in
#     most cycles, and none once every QP is gone.  Before the fix of
#     issue 19 item 1 a pacing callback could schedule a task that
#     tasklet_kill() had already let go, on a freed QP (KASAN).
#   - releases: rdma_cc is unloaded DV_RELOADS times (default 5) with rxe0
#     attached and QPs running under it, and rxe0, rdma_rxe, rdma_cc and
#     rdma_cc_hook are taken down at the end; every kobject release runs
#     1-4 s after its last put under this kernel, so the script waits 6 s
#     after each unload.  A release left to an unloaded module is an oops.
#   - every VM's kernel log (dmesg and console) holds no KASAN, BUG,
#     WARNING, Oops, ODEBUG or list corruption report.
#
# Builds the kernel once per source into the cache (about 10 minutes on 2
# cores); lines are "ok debug-vm: ...".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"
start=$(date +%s)
cycles=${DV_CYCLES:-30}
reloads=${DV_RELOADS:-5}

CHECK_TAG=debug-vm
. "$top/tools/check/lib.sh"
TESTS=(
	"kernel: the testbed boots the debug kernel (KASAN, DEBUG_KOBJECT_RELEASE, DEBUG_LIST, DEBUG_OBJECTS_TIMERS)"
	"pacing: QPs destroyed with their pacing timers armed"
	"pacing: no pacing timer left armed once every QP is gone"
	"loss: a paced QP that loses nothing has no retransmit timeout"
	"loss: a paced QP recovers every dropped packet, at least half its rate"
	"releases: rdma_cc unloaded with rxe0 attached and QPs running"
	"releases: rxe0, rdma_rxe, rdma_cc and rdma_cc_hook taken down"
	"no KASAN, BUG, WARNING, Oops, ODEBUG or list corruption in any VM's kernel log"
)

"$top/tools/scripts/deps.sh" vm >/dev/null 2>&1 || skip_all "no testbed packages (deps.sh vm)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
build=$("$top/tools/scripts/debug-kernel.sh" 2>"$log") || {
	tail -n 20 "$log" | sed 's/^/#   /'
	skip_all "the debug kernel does not build"
}
echo "  debug kernel ready in $(( $(date +%s) - start )) s"
export KDIR=$build KVER=
rel=$(rcc_kernel_release "$build")
export RCC_MODDIR=$RDMA_CC_CACHE/modules/$rel
"$top/tools/scripts/build-modules.sh" modules >"$log" 2>&1 &&
	[ -f "$RCC_MODDIR/rdma_cc.ko" ] || {
	tail -n 20 "$log" | sed 's/^/#   /'
	skip_all "rdma_cc.ko does not build against $rel"
}
"$top/tools/scripts/build-rxe.sh" >"$log" 2>&1 || {
	tail -n 20 "$log" | sed 's/^/#   /'
	skip_all "rdma_rxe.ko does not build against $rel"
}
fr=$RDMA_CC_CACHE/debug-vm/fixed-rate
rm -rf "$fr"
mkdir -p "${fr%/*}"
cp -a "$top/tools/rxe/fixed-rate" "$fr"
make -s -C "$build" M="$fr" KCFLAGS="-I$top/rdma_cc" \
	KBUILD_EXTRA_SYMBOLS="$RCC_MODDIR/Module.symvers" modules >"$log" 2>&1 || {
	tail -n 20 "$log" | sed 's/^/#   /'
	skip_all "fixed_rate.ko does not build against $rel"
}

TB_SENDERS=1
TB_VM_SMP=2
TB_VM_MEM_MB=1024
TB_BOOT_TIMEOUT=400
TB_RUN=$RDMA_CC_CACHE/debug-vm/run
rm -rf "$TB_RUN"
. "$top/tools/testbed/testbed.sh"
. "$top/tools/testbed/incast.sh"
trap 'tb_down; rm -f "$log"' EXIT
trap 'exit 130' INT TERM
tb_rxe_needs_hook || skip_all "rdma_rxe.ko is not the patched driver"
boot=$(date +%s)
tb_up || skip_all "the testbed does not boot the debug kernel"
kv=$(tb_vm_run s1 30 <<<'uname -r; grep -c "KASAN\|kobject" /proc/kallsyms >/dev/null && echo sym')
echo "  testbed up in $(( $(date +%s) - boot )) s: $(echo $kv)"
check "kernel: the testbed boots the debug kernel ($rel)" [ "$(echo "$kv" | head -n 1)" = "$rel" ]

me=$(tb_ip s1)
# fixed_rate_on MBIT_S: s1's rxe0 run by fixed_rate at that rate;
# fixed_rate_off: by rdma_cc again, fixed_rate unloaded
fixed_rate_on() {
	tb_vm_run s1 30 <<-EOS >/dev/null 2>&1
	insmod $fr/fixed_rate.ko rate_mbps=$1 &&
	echo fixed_rate >/sys/kernel/rdma_cc_hook/rxe0/congestion_control
	EOS
}
fixed_rate_off() {
	tb_vm_run s1 30 <<<"echo rdma_cc >/sys/kernel/rdma_cc_hook/rxe0/congestion_control; rmmod fixed_rate" >/dev/null 2>&1
}

# QPs destroyed with their pacing timers armed (tb_destroy_paced), paced
# at 1 Mbit/s by fixed_rate
pace_out=
fixed_rate_on 1 && pace_out=$(tb_destroy_paced s1 "$cycles")
fixed_rate_off
echo "$pace_out" | sed 's/^/  /'
sum=$(echo "$pace_out" | grep '^cycles=')
check "pacing: QPs destroyed with their pacing timers armed ($sum)" \
	eval '[ -n "$sum" ] && [ "$(tb_kv armed_cycles "$sum")" -ge $((cycles * 2 / 3)) ]'
check "pacing: no pacing timer left armed once every QP is gone" \
	eval '[ -n "$sum" ] && [ "$(tb_kv left "$sum")" = 0 ]'
echo "  pacing: $(( $(date +%s) - start )) s"

# A paced QP, with and without loss: s1 -> r over the switch, 64 KB RDMA
# WRITEs at 2 Mbit/s (a message takes ~0.28 s, rxe asks an unpaced QP's
# ACK at a message's end or every 64 packets) with an ACK timeout of 67 ms
# (-u 14), DV_LOSS_S (15) s each:
#   - no loss: the QP must end without error and without a single
#     retransmit timeout (completer_retry_err at most 3, for a guest
#     stall), goodput at least half of 2 Mbit/s.  Before rxe 0005
#     restarted the retransmit timer for a packet sent with nothing
#     outstanding, a slowly paced QP kept an old deadline: 120 timeouts in
#     15 s (hardening.rst "Under a debug kernel");
#   - r's ingress drops every DV_DROP_EVERY-th (50) RoCE packet from s1
#     (tc u32 + gact, deterministic): every loss is recovered (rxe's NAK
#     or its retransmit timer), no retry exceeded, goodput at least half
#     of 2 Mbit/s.
drop_every=${DV_DROP_EVERY:-50}
loss_s=${DV_LOSS_S:-15}
hwc=/sys/class/infiniband/rxe0/ports/1/hw_counters
counters="for c in completer_retry_err retry_exceeded_err rcvd_seq_err; do printf '%s=%s ' \$c \$(cat $hwc/\$c); done; echo"
# paced_run NAME PORT DROP_EVERY (0: no drop): sets $sum and $lrc
paced_run() {
	local name=$1 port=$2 every=$3 lbw before after dropped=0 kbit
	lbw="ib_write_bw -d rxe0 -x 1 -p $port -q 1 -s 65536 -D $loss_s -f 2 -u 14 -F"
	if [ "$every" != 0 ]; then
		tb_vm_run r 30 <<-EOS >"$TB_RUN/$name-tc.txt" 2>&1
		tc qdisc add dev eth0 clsact &&
		tc filter add dev eth0 ingress prio 1 protocol ip u32 \
			match ip src $me/32 match ip protocol 17 0xff \
			match u16 4791 0xffff at 22 \
			action gact ok random determ drop $every
		EOS
	fi
	tb_vm_spawn r "$name-srv" <<<"exec $lbw"
	tb_vm_run r 60 <<-EOS >/dev/null
	for i in \$(seq 300); do ss -ltn | grep -q ':$port ' && exit 0; sleep 0.2; done
	exit 1
	EOS
	before=$(tb_vm_run s1 30 <<<"$counters")
	tb_vm_run s1 $((loss_s + 90)) <<<"$lbw $(tb_ip r)" >"$TB_RUN/$name-bw.txt" 2>&1
	lrc=$?
	after=$(tb_vm_run s1 30 <<<"$counters")
	tb_vm_join r "$name-srv" 60 >/dev/null 2>&1
	if [ "$every" != 0 ]; then
		dropped=$(tb_vm_run r 30 <<<"tc -s filter show dev eth0 ingress" |
			sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n 1)
		tb_vm_run r 30 <<<"tc qdisc del dev eth0 clsact" >/dev/null 2>&1
	fi
	# the messages perftest completed (the row after its header) over the
	# time it counted them, the run less its 2 s margin at each end: its
	# own BW columns read 0.00 whenever it finds the guest's clock too
	# noisy to measure its CPU frequency ("Correlation coefficient r^2 <
	# 0.9"), as a busy TCG guest may
	kbit=$(awk -v s="$((loss_s - 4))" '/#iterations/ { getline
		printf "%d", $1 * $2 * 8 / s / 1000; exit }' "$TB_RUN/$name-bw.txt")
	sum="rc=$lrc dropped=${dropped:-0} goodput_kbit=${kbit:-0}"
	for c in completer_retry_err retry_exceeded_err rcvd_seq_err; do
		sum+=" $c=$(( $(tb_kv $c "$after") - $(tb_kv $c "$before") ))"
	done
	echo "  $name: $sum"
}
fixed_rate_on 2
paced_run paced 18800 0
check "loss: a paced QP that loses nothing has no retransmit timeout ($sum)" \
	eval '[ "$lrc" = 0 ] && [ "$(tb_kv goodput_kbit "$sum")" -ge 1000 ] && [ "$(tb_kv completer_retry_err "$sum")" -le 3 ] && [ "$(tb_kv retry_exceeded_err "$sum")" = 0 ]'
paced_run loss 18801 "$drop_every"
check "loss: a paced QP recovers every dropped packet, at least half its rate ($sum)" \
	eval '[ "$lrc" = 0 ] && [ "$(tb_kv dropped "$sum")" -ge 10 ] && [ "$(tb_kv goodput_kbit "$sum")" -ge 1000 ] && [ "$(tb_kv completer_retry_err "$sum")" -ge 1 ] && [ "$(tb_kv retry_exceeded_err "$sum")" = 0 ]'
fixed_rate_off
echo "  loss: $(( $(date +%s) - start )) s"

pair_start=$(tb_loopback_pair s1)
rel_out=$(tb_vm_run s1 $((reloads * 40 + 60)) <<EOS
fail=0 seen=0
for i in \$(seq $reloads); do
	insmod $TB_CC_KO $TB_CC_PARAMS || { fail=\$((fail + 1)); continue; }
	p=\$((18700 + i))
	$pair_start
	sleep 2
	[ -d /sys/kernel/rdma_cc/rxe0 ] && seen=\$((seen + 1))
	rmmod rdma_cc || fail=\$((fail + 1))
	sleep 6
	kill -9 \$cli \$srv 2>/dev/null
	wait \$cli \$srv 2>/dev/null
done
echo "reloads=$reloads failed=\$fail attached=\$seen"
EOS
)
echo "$rel_out" | sed 's/^/  /'
sum=$(echo "$rel_out" | grep '^reloads=')
check "releases: rdma_cc unloaded with rxe0 attached and QPs running ($sum)" \
	eval '[ -n "$sum" ] && [ "$(tb_kv failed "$sum")" = 0 ] && [ "$(tb_kv attached "$sum")" = "$reloads" ]'
down_out=$(tb_vm_run s1 60 <<EOS
insmod $TB_CC_KO $TB_CC_PARAMS || exit 1
rdma link delete rxe0 || exit 2
sleep 1
rmmod rdma_rxe || exit 3
rmmod rdma_cc || exit 4
rmmod rdma_cc_hook || exit 5
sleep 6
awk '/^rdma/ { n++ } END { print n + 0 }' /proc/modules
EOS
)
rc=$?
check "releases: rxe0, rdma_rxe, rdma_cc and rdma_cc_hook taken down (rc $rc, modules left: $down_out)" \
	[ "$rc" = 0 ] && [ "$down_out" = 0 ]

# the kernel logs: dmesg while the VM runs, and its console in any case
bad="KASAN|ODEBUG|list_(add|del) corruption|$TB_KERNEL_BAD"
w=0
for v in $TB_VMS; do
	tb_vm_run "$v" 30 <<<'dmesg' >"$TB_RUN/dmesg-$v.txt" 2>&1 ||
		echo "VM $v did not answer (dmesg)" >>"$TB_RUN/dmesg-$v.txt"
	cat "$TB_RUN/$v/console.log" >>"$TB_RUN/dmesg-$v.txt"
	w=$((w + $(grep -cE "$bad|did not answer" "$TB_RUN/dmesg-$v.txt")))
done
check "no KASAN, BUG, WARNING, Oops, ODEBUG or list corruption in any VM's kernel log ($w)" [ "$w" = 0 ]
[ "$w" = 0 ] || grep -hE -B2 -A12 "$bad" "$TB_RUN"/dmesg-*.txt | head -n 60 | sed 's/^/#   /'
echo "debug-vm: took $(( $(date +%s) - start )) s"
