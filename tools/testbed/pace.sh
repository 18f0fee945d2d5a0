#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pace.sh - rxe's pacing measured on the wire in the testbed.
#
# Boots the testbed with one sender, loads the test-only congestion control
# tools/rxe/fixed-rate (every QP at rate_mbps) in s1 instead of rdma_cc,
# and for each rate and each pace_burst_us runs one ib_write_bw from s1 to
# r while dumpcap records s1's RoCE packets as they reach the switch (host
# timestamps, 1 us).  For windows of 1, 10 and 100 ms starting at every
# packet it prints the worst excess of the bytes sent (Ethernet header to
# ICRC, as rxe counts them) over rate x window, in bytes and in packets,
# and the mean rate over the run.  Not part of make check (a few minutes
# of TCG): run it by hand.
#
#   PACE_RATES (Mbit/s, default "5 20"), PACE_BURSTS (us, default "45
#   10000"), PACE_DURATION (s, default 10).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tools/scripts/env.sh"

"$top/tools/scripts/deps.sh" vm >/dev/null || rcc_die "installing the packages failed"
make -C "$top" --no-print-directory modules >/dev/null || rcc_die "make modules failed"
make -C "$top" --no-print-directory rxe >/dev/null || rcc_die "make rxe failed"
fr=$RDMA_CC_CACHE/fixed-rate
rm -rf "$fr"
cp -a "$top/tools/rxe/fixed-rate" "$fr"
make -s -C "$(rcc_kdir)" M="$fr" KCFLAGS="-I$top/rdma_cc" \
	KBUILD_EXTRA_SYMBOLS="$top/Module.symvers" modules >/dev/null 2>&1 ||
	rcc_die "building fixed_rate.ko failed"

TB_SENDERS=1
# the switch is not what is measured: no bottleneck below the rates
: "${TB_BOTTLENECK_MBIT:=100}"
TB_RUN=$RDMA_CC_CACHE/pace/run
rm -rf "$TB_RUN"
. "$here/testbed.sh"
. "$here/incast.sh"
trap tb_down EXIT
trap 'exit 130' INT TERM
tb_rxe_needs_hook || rcc_die "rdma_rxe.ko is not the patched driver"
tb_up || rcc_die "the testbed did not come up (logs in $TB_RUN)"

dur=${PACE_DURATION:-10}
stap=$(tb_tap s1)
printf '%-6s %-9s %-7s %-12s %-12s %-12s %s\n' rate burst_us mbps \
	"excess_1ms" "excess_10ms" "excess_100ms" "(bytes / packets over rate x window)"
for rate in ${PACE_RATES:-5 20}; do
	for burst in ${PACE_BURSTS:-45 10000}; do
		d=$TB_RUN/r$rate-b$burst
		mkdir -p "$d"
		tb_vm_run s1 30 <<-EOS >"$d/load.txt" 2>&1 || rcc_die "loading fixed_rate on s1 failed"
		echo $burst >/sys/module/rdma_rxe/parameters/pace_burst_us
		rmmod fixed_rate 2>/dev/null
		insmod $fr/fixed_rate.ko rate_mbps=$rate
		EOS
		tb_vm_pkill ib_write_bw r s1
		tb_vm_spawn r srv <<-EOS
		exec ib_write_bw -d rxe0 -x 1 -p 18515 -q 1 -F -s $TB_MSG_BYTES -D $dur -u $TB_QP_TIMEOUT
		EOS
		tb_vm_run r 60 <<-'EOS' >/dev/null
		for i in $(seq 300); do ss -ltn | grep -q ':18515 ' && exit 0; sleep 0.2; done
		exit 1
		EOS
		ip netns exec "$TB_NS" dumpcap -q -P -i "$stap" -s 96 \
			-f "udp dst port 4791 and src host $(tb_ip s1)" -w "$d/s1.pcap" >/dev/null 2>&1 &
		cap=$!
		TB_HOST_PIDS+=($cap)
		sleep 1
		tb_vm_run s1 $((dur + 60)) <<-EOS >"$d/bw.txt" 2>&1
		ib_write_bw -d rxe0 -x 1 -p 18515 -q 1 -F -s $TB_MSG_BYTES -D $dur -u $TB_QP_TIMEOUT $(tb_ip r)
		EOS
		sleep 1
		kill "$cap" 2>/dev/null
		wait "$cap" 2>/dev/null
		tb_vm_run s1 30 <<<"rmmod fixed_rate" >/dev/null 2>&1
		# RDMA WRITE packets (BTH opcodes 6..11) only: no ACKs, no CNPs
		tshark -r "$d/s1.pcap" -d udp.port==4791,infiniband -T fields \
			-e frame.time_epoch -e frame.len \
			-Y 'infiniband.bth.opcode >= 6 && infiniband.bth.opcode <= 11' \
			2>/dev/null >"$d/pkts.txt"
		python3 - "$d/pkts.txt" "$rate" "$burst" <<-'PY'
		import sys
		rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
		t = [float(a) for a, _ in rows]
		b = [int(n) for _, n in rows]
		rate = int(sys.argv[2]) * 1e6 / 8  # bytes/s
		out = []
		for w in (0.001, 0.01, 0.1):
		    j = s = 0
		    worst = -1e18
		    for i in range(len(t)):
		        if j < i:
		            j, s = i, 0
		        while j < len(t) and t[j] <= t[i] + w:
		            s += b[j]
		            j += 1
		        worst = max(worst, s - rate * w)
		        s -= b[i]
		    out.append("%.0f/%.1f" % (worst, worst / max(b)) if t else "-")
		mbps = (sum(b[:-1]) * 8 / (t[-1] - t[0]) / 1e6) if len(t) > 1 else 0
		print("%-6s %-9s %-7.2f %-12s %-12s %-12s (%d packets, %d bytes max)"
		      % (sys.argv[2], sys.argv[3], mbps, out[0], out[1], out[2],
		         len(t), max(b) if b else 0))
		PY
	done
done
