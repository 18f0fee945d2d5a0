# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# incast.sh - one N:1 incast of ib_write_bw on a running testbed, with all
# its measurements.  Source it after testbed.sh.
#
#   tb_incast NAME CC DURATION_S [RELOAD]
#   tb_incast_again NAME CC DURATION_S [RELOAD]   (once more if a NIC stalled)
#
# CC=1 loads rdma_cc.ko in the senders first (TB_CC_PARAMS), CC=0 makes
# sure it is not loaded.  RELOAD=1 unloads rdma_cc from the senders a quarter
# into the run and loads it again at half.  Every sender runs one RC
# QP of RDMA WRITEs to its own ib_write_bw server on the receiver.  While
# it runs, a status line per sender is printed every TB_STATUS_S seconds.
# Results land in $TB_RUN/NAME/:
#
#   switch.csv        host-clock samples of the switch (sample-switch.sh)
#   sN-cc.log         rdma_cc's debugfs samples of sender N (host clock)
#   cnp.pcap          the CNPs that crossed the switch (to the senders)
#   ce.pcap           the first CE-marked data packets leaving the switch
#   ecn.pcap          the first 3000 RoCE packets to and from the receiver
#   sN.bw, r.bwN      ib_write_bw's output
#   stats-*.txt       rdma statistic of every VM before and after
#   result            key=value lines: the run's figures (tb_incast_result)

: "${TB_MSG_BYTES:=65536}"
: "${TB_QPS:=8}"
# ib_write_bw's extra flags (-e, sleeping on completion events, is "not
# available on WRITE verb")
: "${TB_BW_FLAGS=}"
: "${TB_TCLASS:=0}"
# the QPs' ACK timeout: 4.096 us << 18 = 1.07 s, above the longest queueing delay
: "${TB_QP_TIMEOUT:=18}"
: "${TB_STATUS_S:=2}"
: "${TB_SAMPLE_S:=0.25}"
# the latency victim: TB_VICTIM_PROG from TB_VICTIM_VM to the receiver
# through the same bottleneck, in rounds of TB_VICTIM_ITERS exchanges of
# TB_VICTIM_BYTES (TB_VICTIM=0: none).  A round's samples are known only
# when it ends, so a round must end within a run even when the buffer is
# full: 50 exchanges at a round trip of ~0.5 s take 25 s (with 2000, no
# round under congestion control ended in a 40 s run)
: "${TB_VICTIM:=1}"
: "${TB_VICTIM_VM:=s1}"
: "${TB_VICTIM_PROG:=ib_send_lat -e}"
: "${TB_VICTIM_BYTES:=64}"
: "${TB_VICTIM_ITERS:=50}"
# TB_VICTIM_NICE: a nice value for the victim's client and server (empty:
# none), so that a polling victim yields the VM's CPU to the bulk QPs
: "${TB_VICTIM_NICE:=}"
TB_VICTIM_PORT=18600
# rdma_cc's parameters for the testbed (Documentation/testbed.rst says why)
: "${TB_CC_PARAMS:=data_rate_mbps=1 control_interval_ns=100000000 line_rate_margin_mbps=0 congestion_probability_weight=64 minimum_rate_percent=10 num_control_loops_per_increase=10 fast_recovery_attempt=1 initial_target_rate_percent=50 number_active_increase_steps=5}"

# The congestion control module: rdma_cc.ko, or a test-only one with the
# same hook (TB_CC_KO=.../fixed_rate.ko, which never reacts).
tb_cc_name() { basename "$TB_CC_KO" .ko; }

# TB_CC_ALGO: the name to write to the device's congestion_control after
# the load (rdma_cc runs a device not written to: empty for it).
tb_cc_load() {
	tb_vm_run "$1" 30 <<-EOS
	if ! grep -q '^$(tb_cc_name) ' /proc/modules; then
		insmod $TB_CC_KO $TB_CC_PARAMS || exit 1
	fi
	$([ -n "${TB_CC_ALGO:-}" ] && echo "echo $TB_CC_ALGO >/sys/kernel/rdma_cc_hook/rxe0/congestion_control || exit 1")
	EOS
}

# A reader of rdma_cc's debugfs (the sampler) holds a reference on the
# module while a file is open: rmmod is retried for a while.
tb_cc_unload() {
	tb_vm_run "$1" 60 <<<"$(tb_cc_unload_script)"
}

# tb_cc_unload_senders: tb_cc_unload on every sender, one after the other
# (TB_CC_KO names the module); fails if one of them failed.
tb_cc_unload_senders() {
	local v rc=0
	for v in ${TB_VMS#r }; do tb_cc_unload "$v" || rc=1; done
	return $rc
}

tb_cc_unload_script() {
	sed "s/@CC@/$(tb_cc_name)/g" <<-'EOS'
	touch /tmp/sampler.pause
	trap 'rm -f /tmp/sampler.pause' EXIT
	sleep 0.3
	for i in $(seq 100); do
		grep -q '^@CC@ ' /proc/modules || exit 0
		rmmod @CC@ 2>/dev/null && exit 0
		sleep 0.05
	done
	rmmod @CC@
	EOS
}

# tb_vm_clock_offset VM: the VM's clock minus the host's, in seconds
# (the VM writes its time into the share; the host's file system stamps it).
tb_vm_clock_offset() {
	local f=$TB_RUN/$1/ctl/clock
	rm -f "$f"
	tb_vm_run "$1" 30 <<<'echo "$EPOCHREALTIME" >/mnt/clock' || return 1
	awk -v g="$(cat "$f")" -v h="$(stat -c %.9Y "$f")" \
		'BEGIN { printf "%.3f\n", g - h }'
}

# tb_rdma_stats VM: "key=value ..." of rdma statistic for rxe0/1.
tb_rdma_stats() {
	tb_vm_run "$1" 30 <<<'rdma statistic show link rxe0/1; tc -s qdisc show dev eth0' |
		awk '$1 == "link" { for (i = 3; i < NF; i += 2) printf "%s=%s ", $i, $(i + 1) }
		     $1 == "Sent" { for (i = 1; i < NF; i++) if ($i == "(dropped") { d = $(i + 1); sub(/,$/, "", d); q += d } }
		     END { printf "qdisc_drops=%d\n", q }'
}

# tb_loopback_pair VM: a guest-script fragment that starts an ib_write_bw
# pair with 8 QPs over VM's rxe loopback (both ends in VM) on port $p, a
# variable of the guest script, with their pids in $srv and $cli.
tb_loopback_pair() {
	local bw="ib_write_bw -d rxe0 -x 1 -q 8 -s 4096 -D 60 -u $TB_QP_TIMEOUT"
	cat <<-EOS
	$bw -p \$p >/dev/null 2>&1 & srv=\$!
	for t in \$(seq 100); do ss -ltn | grep -q ":\$p " && break; sleep 0.1; done
	$bw -p \$p $(tb_ip "$1") >/dev/null 2>&1 & cli=\$!
	EOS
}

# tb_destroy_paced VM CYCLES: QPs destroyed with their pacing timers armed.
# CYCLES times a tb_loopback_pair runs in VM for 2 s and both ends are
# killed (SIGKILL: the kernel destroys the QPs with work queued), while
# the congestion control the VM runs paces every QP (fixed_rate, or
# rdma_cc with R below the link).  /proc/timer_list is read just before
# each kill and 2 s after the last.  Prints "cycles=N armed_cycles=N
# armed_timers=N left=N warnings=N": the cycles with a pacing timer armed
# at the kill, the timers summed over them, those left once every QP is
# gone, and the kernel log's warnings over the cycles (a pacing timer
# scheduling a task of a QP with no reference left is a WARN_ON in 6.12's
# rxe_sched_task()).
tb_destroy_paced() {
	local vm=$1 cycles=$2
	tb_vm_run "$vm" $((cycles * 30 + 60)) <<-EOS
	d0=\$(dmesg | wc -l)
	armed_cycles=0 armed=0
	for i in \$(seq $cycles); do
		p=\$((18900 + i))
		$(tb_loopback_pair "$vm")
		sleep 2
		a=\$(grep -c 'rxe_pace_timer' /proc/timer_list)
		armed=\$((armed + a))
		[ "\$a" -gt 0 ] && armed_cycles=\$((armed_cycles + 1))
		kill -9 \$cli \$srv 2>/dev/null
		wait \$cli \$srv 2>/dev/null
	done
	sleep 2
	w=\$(dmesg | tail -n +\$((d0 + 1)) | grep -cE '$TB_KERNEL_BAD')
	echo "cycles=$cycles armed_cycles=\$armed_cycles armed_timers=\$armed left=\$(grep -c 'rxe_pace_timer' /proc/timer_list) warnings=\$w"
	EOS
}

# tb_kv KEY "k=v k=v ...": the value of KEY (0 when absent).
tb_kv() {
	local k=$1 kv
	for kv in $2; do
		[ "${kv%%=*}" = "$k" ] && { echo "${kv#*=}"; return; }
	done
	echo 0
}

# tb_cc_latest FILE [all]: the last sample of an sN-cc.log summed over the
# sender's QPs: "qps=N congested=N rate_bps=SUM cnps=SUM packets=SUM
# episodes=SUM fr_cut=SUM ..." (a QP out of an episode counts at its line
# rate, the summary's line_rate_bps); with "all", the last sample of every QP the log saw, also those
# gone since.  Empty when there is no QP sample.
tb_cc_latest() {
	awk -v all="${2:-}" '$2 ~ /\/summary$/ { for (i = 3; i <= NF; i++) if ($i ~ /^line_rate_bps=/) lr = substr($i, 15) }
	$2 ~ /\/qp[0-9]+$/ {
		if (all == "") { if ($1 != t) { t = $1; n = 0; split("", idx) } }
		if (!($2 in idx)) idx[$2] = ++n
		q = idx[$2]; for (i = 3; i <= NF; i++) { split($i, a, "="); kv[q, a[1]] = a[2] } }
	END { if (!n) exit
		for (q = 1; q <= n; q++) { c += kv[q, "congested"]
			r += kv[q, "congested"] == 1 ? kv[q, "current_bps"] : lr }
		printf "qps=%d congested=%d rate_bps=%d", n, c, r
		split("cnps packets episodes fr_cut ai_cut fr_inc ai_inc floor_hits cuts increases", ks, " ")
		for (j in ks) { s = 0; for (q = 1; q <= n; q++) s += kv[q, ks[j]]; printf " %s=%d", ks[j], s }
		printf "\n" }' "$1" 2>/dev/null
}

# tb_status DIR T0: one line per sender of what is going on right now.
tb_status() {
	local dir=$1 t0=$2 v i=0 line cc rate
	line=$(tail -n 1 "$dir/switch.csv" 2>/dev/null)
	local prev
	prev=$(tail -n "$((4 * ${TB_STATUS_S%.*} + 1))" "$dir/switch.csv" 2>/dev/null | head -n 1)
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		rate=$(awk -F, -v a="$prev" -v i="$i" 'BEGIN { split(a, p, ",") }
			{ dt = $1 - p[1]; if (dt > 0) printf "%.1f", ($(i + 1) - p[i + 1]) * 8 / dt / 1e6; else print "-" }' <<<"$line")
		cc=$(tb_cc_latest "$dir/$v-cc.log")
		if [ -n "$cc" ]; then
			printf '  t=%5.1fs %s: wire %6s Mbit/s  %s: %s QPs, %s congested, rates sum %5.2f Mbit/s, CNPs %s\n' \
				"$(awk -v a="${line%%,*}" -v b="$t0" 'BEGIN { print a - b }')" "$v" "$rate" "${TB_CC_ALGO:-rdma_cc}" \
				"$(tb_kv qps "$cc")" "$(tb_kv congested "$cc")" \
				"$(awk -v r="$(tb_kv rate_bps "$cc")" 'BEGIN { print r / 1e6 }')" "$(tb_kv cnps "$cc")"
		else
			printf '  t=%5.1fs %s: wire %6s Mbit/s  (rdma_cc not loaded)\n' \
				"$(awk -v a="${line%%,*}" -v b="$t0" 'BEGIN { print a - b }')" "$v" "$rate"
		fi
	done
	awk -F, '{ n = split($0, f, ","); split(f[n], kv, " ")
		for (j in kv) { split(kv[j], x, "="); s[x[1]] = x[2] }
		printf "  switch: queue %6.1f KB  marked %d  dropped %d\n", s["backlog"] / 1000, s["marked"], s["drops"] + s["tap_drops"] }' <<<"$line"
}

# tb_traffic_start SWITCH_CSV: when the bottleneck began to carry traffic.
tb_traffic_start() {
	awk -F, '{ n = split($NF, kv, " "); for (j = 1; j <= n; j++) { split(kv[j], x, "=")
		if (x[1] == "sent_bytes") b = x[2] }
		if (NR == 1) b0 = b; else if (b - b0 > 50000) { print $1; exit } }' "$1" 2>/dev/null
}

# tb_cc_reload_all unload|load DIR NAME: on every sender at once; each
# outcome goes to DIR/reload.log as "WHAT VM TIME ok|failed".
tb_cc_reload_all() {
	local what=$1 dir=$2 name=$3 v
	echo "$what-start all $(date +%s.%N)" >>"$dir/reload.log"
	for v in $TB_SENDERS_LIST; do
		if [ "$what" = unload ]; then
			tb_cc_unload_script | tb_vm_spawn "$v" "$what-$name"
		else
			tb_vm_spawn "$v" "$what-$name" <<<"insmod $TB_CC_KO $TB_CC_PARAMS"
		fi
	done
	for v in $TB_SENDERS_LIST; do
		if tb_vm_join "$v" "$what-$name" 60 >>"$dir/reload-out.txt" 2>&1; then
			echo "$what $v $(date +%s.%N) ok" >>"$dir/reload.log"
		else
			echo "$what $v $(date +%s.%N) failed" >>"$dir/reload.log"
		fi
	done
}

# tb_victim_cmd [SERVER_IP]: the victim's command line (TB_VICTIM_PROG).
tb_victim_cmd() {
	echo "${TB_VICTIM_NICE:+nice -n $TB_VICTIM_NICE }$TB_VICTIM_PROG -d rxe0 -x 1 -p $TB_VICTIM_PORT -s $TB_VICTIM_BYTES" \
		"-n $TB_VICTIM_ITERS -U --tclass=$TB_TCLASS -u $TB_QP_TIMEOUT $*"
}

# tb_victim_start NAME: the victim's server on the receiver and its client
# on TB_VICTIM_VM, each a loop of rounds until /tmp/victim.stop exists.
# The client appends every round's unsorted samples (perftest's half
# round trips, us) and "end <epoch seconds>" when the round ended to
# /tmp/victim.log.
tb_victim_start() {
	local name=$1
	tb_vm_run r 30 <<<'rm -f /tmp/victim.stop' >/dev/null
	tb_vm_spawn r "vsrv-$name" <<-EOS
	while [ ! -e /tmp/victim.stop ]; do
		$(tb_victim_cmd) >/dev/null 2>&1 || sleep 0.2
	done
	EOS
	tb_vm_spawn "$TB_VICTIM_VM" "victim-$name" <<-EOS
	rm -f /tmp/victim.stop /tmp/victim.log /tmp/victim.round
	while [ ! -e /tmp/victim.stop ]; do
		if $(tb_victim_cmd "$(tb_ip r)") >/tmp/victim.round 2>&1; then
			grep -E '^[0-9]+, [0-9.e+]+\$' /tmp/victim.round >>/tmp/victim.log
			echo "end \$EPOCHREALTIME" >>/tmp/victim.log
		else
			sleep 0.5
		fi
	done
	cat /tmp/victim.log
	EOS
	# until its first round has connected (its output shows the peer)
	tb_vm_run "$TB_VICTIM_VM" 120 <<-'EOS' || rcc_log "victim: not connected after 120 s"
	for i in $(seq 600); do
		grep -q 'remote address' /tmp/victim.round 2>/dev/null && exit 0
		sleep 0.2
	done
	exit 1
	EOS
}

# tb_victim_stop NAME DIR OFFSET: end the victim's loops (the round under
# way finishes first) and write DIR/victim.csv: "host_time,latency_us" of
# every sample, its time reconstructed backwards from its round's end.
tb_victim_stop() {
	local name=$1 dir=$2 off=$3
	for v in r "$TB_VICTIM_VM"; do
		tb_vm_run "$v" 30 <<<'touch /tmp/victim.stop' >/dev/null
	done
	# the round's remaining exchanges go at the unloaded round trip; a
	# round that does not end in time is killed and the rounds before it
	# are kept (the guest's log has every finished round)
	tb_vm_join "$TB_VICTIM_VM" "victim-$name" 60 >/dev/null 2>&1 ||
		rcc_log "victim: its last round did not end within 60 s; the rounds before it are kept"
	tb_vm_pkill "${TB_VICTIM_PROG%% *}" r "$TB_VICTIM_VM"
	tb_vm_join r "vsrv-$name" 30 >/dev/null 2>&1
	tb_vm_run "$TB_VICTIM_VM" 30 <<<'cat /tmp/victim.log 2>/dev/null; true' >"$dir/victim.log"
	awk -F'[, ]+' -v o="$off" '
		$1 == "end" { e = $2 - o
			for (i = n; i >= 1; i--) { t[i] = e; e -= 2 * l[i] / 1e6 }
			for (i = 1; i <= n; i++) printf "%.3f,%s\n", t[i], l[i]
			n = 0; next }
		NF == 2 { l[++n] = $2 }' "$dir/victim.log" >"$dir/victim.csv"
}

tb_incast() {
	local name=$1 cc=$2 dur=$3 reload=${4:-0}
	local dir=$TB_RUN/$name v i port t0 rtap stap_list="" off
	local -A offs
	TB_SENDERS_LIST=${TB_VMS#r }
	rm -rf "$dir"
	mkdir -p "$dir"
	rtap=$(tb_tap r)
	for v in $TB_SENDERS_LIST; do
		stap_list+=${stap_list:+,}$(tb_tap "$v")
		# a fresh rdma_cc (TB_CC_PARAMS, zero counters) for every run,
		# unless TB_CC_KEEP=1 keeps the one the caller loaded (whose
		# tracepoints a trace-cmd already records: a reload makes new
		# events, which no recorder has enabled)
		if [ "$cc" != 1 ] || [ "${TB_CC_KEEP:-0}" != 1 ]; then
			tb_cc_unload "$v" || return 1
		fi
		if [ "$cc" = 1 ] && [ "${TB_CC_KEEP:-0}" != 1 ]; then
			tb_cc_load "$v" || { rcc_log "incast: loading rdma_cc on $v failed"; return 1; }
		fi
		offs[$v]=$(tb_vm_clock_offset "$v") || return 1
	done
	for v in $TB_VMS; do
		tb_rdma_stats "$v" >"$dir/stats-before-$v.txt"
		tb_vm_run "$v" <<<'dmesg | wc -l' >"$dir/dmesg-lines-$v"
	done
	echo "ts $(date +%s.%N) $(tb_switch_stats "$TB_NS" "$rtap" "$TB_ECN_MAP")" >"$dir/switch-before.txt"

	# A server or client a failed run left behind would hold a port or
	# connect to the wrong peer: no ib_write_bw outlives its run.
	tb_vm_pkill ib_write_bw $TB_VMS
	tb_vm_pkill "${TB_VICTIM_PROG%% *}" $TB_VMS
	# Servers first, one port per sender.
	i=0
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		port=$((18514 + i))
		tb_vm_spawn r "srv$i" <<-EOS
		exec ib_write_bw -d rxe0 -x 1 -p $port -q $TB_QPS $TB_BW_FLAGS -F --report_gbits -s $TB_MSG_BYTES -D $dur --tclass=$TB_TCLASS -u $TB_QP_TIMEOUT
		EOS
	done
	# The clients connect over TCP first: wait until every server listens.
	local ports=""
	for ((i = 1; i <= TB_SENDERS; i++)); do ports+=" $((18514 + i))"; done
	tb_vm_run r 90 <<-EOS || rcc_log "incast $name: the servers do not listen"
	for i in \$(seq 300); do
		all=1
		for p in$ports; do ss -ltn | grep -q ":\$p " || all=0; done
		[ \$all = 1 ] && exit 0
		sleep 0.2
	done
	exit 1
	EOS

	tb_host_bg "$tb_here/sample-switch.sh" "$TB_NS" "$stap_list" "$rtap" \
		"$TB_ECN_MAP" "$TB_SAMPLE_S" >"$dir/switch.csv" 2>/dev/null
	TB_CAPTURE_PIDS=()
	ip netns exec "$TB_NS" dumpcap -q -P -i "$rtap" -s 128 \
		-f 'udp dst port 4791 and udp[8] = 0x81' -w "$dir/cnp.pcap" >/dev/null 2>&1 &
	TB_HOST_PIDS+=($!)
	TB_CAPTURE_PIDS+=($!)
	ip netns exec "$TB_NS" dumpcap -q -P -i "$rtap" -s 128 -c 200 \
		-f 'udp dst port 4791 and ip[1] & 3 = 3' -w "$dir/ce.pcap" >/dev/null 2>&1 &
	TB_HOST_PIDS+=($!)
	TB_CAPTURE_PIDS+=($!)
	# the first RoCE packets both ways on the receiver's port, headers
	# only: which of them claim ECN capability (rxe.rst)
	ip netns exec "$TB_NS" dumpcap -q -P -i "$rtap" -s 96 -c 3000 \
		-f 'udp port 4791' -w "$dir/ecn.pcap" >/dev/null 2>&1 &
	TB_HOST_PIDS+=($!)
	TB_CAPTURE_PIDS+=($!)
	for v in $TB_SENDERS_LIST; do
		rm -f "$TB_RUN/$v/ctl/cc-samples.log"
		tb_vm_spawn "$v" sampler <<-EOS
		echo \$\$ >/tmp/sampler.pid
		exec nice -n -10 $tb_here/guest-sample-cc.sh /mnt/cc-samples.log $TB_SAMPLE_S
		EOS
	done
	sleep 1

	# The victim first: it connects (seconds under TCG) before the bulk
	# traffic starts, so that its samples cover the whole window.
	[ "$TB_VICTIM" = 1 ] && tb_victim_start "$name"
	t0=$(date +%s.%N)
	echo "$t0" >"$dir/t0"
	i=0
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		port=$((18514 + i))
		tb_vm_spawn "$v" "bw-$name" <<-EOS
		exec ib_write_bw -d rxe0 -x 1 -p $port -q $TB_QPS $TB_BW_FLAGS -F --report_gbits -s $TB_MSG_BYTES -D $dur --tclass=$TB_TCLASS -u $TB_QP_TIMEOUT $(tb_ip r)
		EOS
	done
	rcc_log "incast $name: ${TB_SENDERS_LIST// /+} -> r for ${dur}s, rdma_cc $([ "$cc" = 1 ] && echo loaded || echo not loaded)"

	# Watch it, and do the reload when asked.
	local end phase=0 now el tstart=
	end=$(awk -v a="$t0" -v d="$dur" 'BEGIN { printf "%.3f", a + d + 90 }')
	while :; do
		sleep "$TB_STATUS_S"
		now=$(date +%s.%N)
		el=$(awk -v a="$now" -v b="$t0" 'BEGIN { printf "%d", a - b }')
		# Follow the VMs' samples with host timestamps.
		for v in $TB_SENDERS_LIST; do
			awk -v o="${offs[$v]}" '{ $1 = sprintf("%.3f", $1 - o); print }' \
				"$TB_RUN/$v/ctl/cc-samples.log" >"$dir/$v-cc.log" 2>/dev/null
		done
		tb_status "$dir" "$t0"
		if [ "$reload" = 1 ] && [ -z "$tstart" ]; then
			tstart=$(tb_traffic_start "$dir/switch.csv")
		fi
		if [ "$reload" = 1 ] && [ -n "$tstart" ]; then
			el=$(awk -v a="$now" -v b="$tstart" 'BEGIN { printf "%d", a - b }')
		fi
		if [ "$reload" = 1 ] && [ -n "$tstart" ] && [ $phase = 0 ] && [ "$el" -ge $((dur / 4)) ]; then
			phase=1
			tb_cc_reload_all unload "$dir" "$name"
			rcc_log "incast $name: rdma_cc unloaded from the senders ${el}s into the traffic"
		elif [ "$reload" = 1 ] && [ $phase = 1 ] && [ "$el" -ge $((dur / 2)) ]; then
			phase=2
			tb_cc_reload_all load "$dir" "$name"
			rcc_log "incast $name: rdma_cc loaded again ${el}s into the traffic"
		fi
		local done_all=1
		for v in $TB_SENDERS_LIST; do
			[ -s "$TB_RUN/$v/ctl/rc/bw-$name" ] || done_all=0
		done
		[ $done_all = 1 ] && break
		awk -v a="$now" -v e="$end" 'BEGIN { exit !(a > e) }' && break
	done

	i=0
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		tb_vm_join "$v" "bw-$name" 30 >"$dir/$v.bw" 2>&1
		echo $? >"$dir/$v.bw.rc"
		tb_vm_join r "srv$i" 30 >"$dir/r.bw$i" 2>&1
		tb_vm_run "$v" <<<'kill "$(cat /tmp/sampler.pid)" 2>/dev/null; true' >/dev/null
	done
	tb_vm_pkill ib_write_bw $TB_VMS
	[ "$TB_VICTIM" = 1 ] && tb_victim_stop "$name" "$dir" "${offs[$TB_VICTIM_VM]}"
	sleep 1
	for v in $TB_SENDERS_LIST; do
		awk -v o="${offs[$v]}" '{ $1 = sprintf("%.3f", $1 - o); print }' \
			"$TB_RUN/$v/ctl/cc-samples.log" >"$dir/$v-cc.log" 2>/dev/null
	done
	# Stop this run's sampler and captures (the last host helpers started).
	local p keep=()
	for p in "${TB_HOST_PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	TB_HOST_PIDS=("${keep[@]}")
	echo "ts $(date +%s.%N) $(tb_switch_stats "$TB_NS" "$rtap" "$TB_ECN_MAP")" >"$dir/switch-after.txt"
	for v in $TB_VMS; do
		tb_rdma_stats "$v" >"$dir/stats-after-$v.txt"
		tb_vm_run "$v" <<<"dmesg | tail -n +\$(( $(cat "$dir/dmesg-lines-$v") + 1 ))" >"$dir/dmesg-$v.txt"
	done
	tb_incast_result "$dir" "$cc" "$dur" >"$dir/result"
}

# tb_window SWITCH_CSV DURATION: "start end" of a run's traffic window
# (host clock), the time every sender sends: from 2 s after the last
# sender's port first received traffic to 2 s before the first sender's
# end (ib_write_bw sends for DURATION after it connected, and connecting
# takes each sender its own few seconds under TCG).
tb_window() {
	# a sender has started when its port received more than 1 Mbit/s
	# over a second (the victim's 64-byte ping-pongs stay far below)
	awk -F, -v d="$2" '{ nf = NF - 2; k++; t[k] = $1
		for (j = k; j > 1 && t[k] - t[j - 1] <= 1.0; j--) ;
		for (i = 1; i <= nf; i++) { b[k, i] = $(i + 1)
			if (!(i in st) && t[k] - t[j] >= 0.5 &&
			    (b[k, i] - b[j, i]) * 8 / (t[k] - t[j]) > 1e6) { st[i] = t[j]; ns++ } } }
		ns == nf && !done { lo = hi = st[1]; for (i in st) { if (st[i] > hi) hi = st[i]; if (st[i] < lo) lo = st[i] }
			done = 1 }
		END { if (done) printf "%.3f %.3f\n", hi + 2, lo + d - 2 }' "$1" 2>/dev/null
}

# tb_pctl PREFIX SUFFIX: of the numbers on stdin, PREFIX_samples and the
# median, 90th and 99th percentiles (nearest rank) and maximum as
# PREFIX_p50SUFFIX...
tb_pctl() {
	sort -g | awk -v p="$1" -v u="$2" '{ v[++n] = $1 }
		END { printf "%s_samples=%d\n", p, n; if (!n) exit
		      printf "%s_p50%s=%.0f\n%s_p90%s=%.0f\n%s_p99%s=%.0f\n%s_max%s=%.0f\n", \
			p, u, v[int(n * 0.5 + 0.999999)], p, u, v[int(n * 0.9 + 0.999999)], \
			p, u, v[int(n * 0.99 + 0.999999)], p, u, v[n] }'
}

# tb_bulk_qps DIR: "sN:qpQPN ..." of every bulk QP (from ib_write_bw's
# output on each sender: its local QPNs), the names tb_cc_rates keys on.
tb_bulk_qps() {
	local v
	for v in $TB_SENDERS_LIST; do
		awk -v v="$v" '/local address:.* QPN 0x/ { for (i = 1; i < NF; i++) if ($i == "QPN")
			printf "%s:qp%d ", v, strtonum_hex($(i + 1)) }
			function strtonum_hex(h,   n, c, k) { h = tolower(substr(h, 3)); n = 0
				for (k = 1; k <= length(h); k++) n = n * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1
				return n }' "$1/$v.bw" 2>/dev/null
	done
}

# tb_cc_rates DIR START END: from the senders' rdma_cc samples over the
# second half of START..END (the first is convergence), for the bulk QPs
# (tb_bulk_qps): how many were sampled, the share of their samples in an
# episode, and over those samples each QP's mean rate: their sum, Jain's
# fairness across the QPs and the mean as a multiple of the fair share
# (bottleneck / bulk QPs).  Out of an episode a QP is not paced at all.
tb_cc_rates() {
	local dir=$1 ts=$2 te=$3 v
	for v in $TB_SENDERS_LIST; do
		[ -s "$dir/$v-cc.log" ] && sed "s|^\([^ ]*\) [^ ]*/|\1 $v:|" "$dir/$v-cc.log"
	done | awk -v ts="$ts" -v te="$te" -v b="$TB_BOTTLENECK_MBIT" -v bulk="$(tb_bulk_qps "$dir")" '
		BEGIN { nb = split(bulk, x, " "); for (i = 1; i <= nb; i++) isbulk[x[i]] = 1 }
		!($2 in isbulk) { next }
		$1 < ts + (te - ts) / 2 || $1 > te { next }
		{ for (i = 3; i <= NF; i++) { split($i, a, "="); kv[a[1]] = a[2] }
		  q = $2; all[q]++; tot++
		  if (kv["congested"] == 1) { s[q] += kv["current_bps"]; n[q]++; cong++ } }
		END { for (q in all) k++
			printf "cc_qps=%d\ncc_bulk_qps=%d\n", k, nb
			if (!k) exit
			printf "cc_congested_pct=%.0f\n", 100 * cong / tot
			for (q in n) { m = s[q] / n[q] / 1e6; kc++; sum += m; sq += m * m }
			if (!kc) exit
			printf "cc_rate_sum_mbps=%.2f\ncc_rate_jain=%.3f\ncc_rate_per_fair_share=%.2f\n", \
				sum * nb / kc, sum * sum / (kc * sq), sum / kc / (b / nb) }'
}

# tb_incast_result DIR CC DURATION: the figures of a finished run.
tb_incast_result() {
	local dir=$1 cc=$2 dur=$3 v i=0 gp list="" sb sa
	echo "cc=$cc"
	echo "duration_s=$dur"
	echo "senders=$TB_SENDERS"
	echo "qps_per_sender=$TB_QPS"
	echo "bottleneck_mbit=$TB_BOTTLENECK_MBIT"
	echo "buffer_bytes=$TB_BUFFER_BYTES"
	echo "kmin_bytes=$TB_KMIN_BYTES"
	echo "kmax_bytes=$TB_KMAX_BYTES"
	echo "cc_params=$TB_CC_PARAMS"
	echo "cc_algo=$([ "$cc" = 1 ] && echo "${TB_CC_ALGO:-$(tb_cc_name)}" || echo none)"
	echo "bulk_qps=$(tb_bulk_qps "$dir")"
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		# messages completed in perftest's measured period, the middle
		# DURATION - 2 * (DURATION / 4) seconds of its run (timed by
		# alarm(), the guest's kernel clock, not by its imprecise TSC)
		gp=$(awk -v d="$dur" '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+/ {
			printf "%.2f", $1 * $2 * 8 / (d - 2 * int(d / 4)) / 1e6 }' "$dir/$v.bw")
		echo "goodput_mbps_$v=${gp:-0}"
		echo "bw_rc_$v=$(cat "$dir/$v.bw.rc")"
		list+=" ${gp:-0}"
	done
	awk -v l="$list" 'BEGIN { n = split(l, x, " "); for (i = 1; i <= n; i++) { s += x[i]; q += x[i] * x[i] }
		printf "goodput_mbps_total=%.2f\n", s }'
	sb=$(cat "$dir/switch-before.txt")
	sa=$(cat "$dir/switch-after.txt")
	for k in marked drops tap_drops not_ect over_limit; do
		echo "switch_$k=$(( $(tb_kv "$k" "$sa") - $(tb_kv "$k" "$sb") ))"
	done
	echo "switch_max_backlog=$(tb_kv max_backlog "$sa")"
	# The traffic window: from 2 s after the bottleneck first carried
	# traffic (ib_write_bw connects over TCP first, slowly under TCG) to
	# 2 s before the senders' end.  In it: the bottleneck's utilisation,
	# the queue's mean, median, 99th percentile and maximum, each sender's
	# rate on the wire (what its switch port received) and Jain's fairness
	# of those rates.
	local ws we
	read -r ws we < <(tb_window "$dir/switch.csv" "$dur")
	echo "window_start=${ws:-0}"
	echo "window_end=${we:-0}"
	awk -F, -v ts="${ws:-0}" -v te="${we:-0}" -v r="$((TB_BOTTLENECK_MBIT * 1000000))" '
		{ n = split($NF, kv, " "); for (j = 1; j <= n; j++) { split(kv[j], x, "="); s[x[1]] = x[2] }
		  k++; t[k] = $1; sb[k] = s["sent_bytes"]; q[k] = s["backlog"]; nf = NF - 2
		  for (i = 1; i <= nf; i++) rx[k, i] = $(i + 1) }
		END {
			for (i = 1; i <= k; i++) {
				if (t[i] < ts || t[i] > te) continue
				if (!a) a = i; z = i; qs += q[i]; qn++; if (q[i] > qm) qm = q[i]
			}
			if (!a || z <= a) { print "utilisation_pct=0"; print "window_s=0"; exit }
			dt = t[z] - t[a]
			printf "window_s=%.1f\n", dt
			printf "utilisation_pct=%.1f\n", (sb[z] - sb[a]) * 8 / dt / r * 100
			printf "queue_mean_bytes=%d\nqueue_max_bytes=%d\n", qs / qn, qm
			for (f = 1; f <= nf; f++) {
				w = (rx[z, f] - rx[a, f]) * 8 / dt / 1e6
				printf "wire_mbps_s%d=%.2f\n", f, w; sum += w; sq += w * w
			}
			printf "wire_mbps_total=%.2f\n", sum
			printf "jain=%.3f\n", (sq > 0) ? sum * sum / (nf * sq) : 0
		}' "$dir/switch.csv"
	awk -F, -v ts="${ws:-0}" -v te="${we:-0}" '{ n = split($NF, kv, " ")
		for (j = 1; j <= n; j++) { split(kv[j], x, "="); if (x[1] == "backlog") b = x[2] }
		if ($1 >= ts && $1 <= te) print b }' "$dir/switch.csv" | tb_pctl queue _bytes
	# The victim's samples in the window.
	[ -s "$dir/victim.csv" ] &&
		awk -F, -v ts="${ws:-0}" -v te="${we:-0}" '$1 >= ts && $1 <= te { print $2 }' \
			"$dir/victim.csv" | tb_pctl victim _us
	# The rate rdma_cc gave each bulk QP over the window's second half
	# (the first is convergence), against the fair share.
	tb_cc_rates "$dir" "$ws" "$we"
	local before after key tot
	for key in qdisc_drops np_ecn_marked_roce_packets np_cnp_sent rp_cnp_handled rp_cnp_ignored paced_ns completer_retry_err rcvd_seq_err retry_exceeded_err out_of_seq_request duplicate_request; do
		tot=0
		for v in $TB_VMS; do
			before=$(tb_kv "$key" "$(cat "$dir/stats-before-$v.txt")")
			after=$(tb_kv "$key" "$(cat "$dir/stats-after-$v.txt")")
			tot=$((tot + after - before))
		done
		echo "rxe_$key=$tot"
		[ "$key" = paced_ns ] && echo "rxe_paced_ms=$((tot / 1000000))"
	done
	local cnps=0
	[ -s "$dir/cnp.pcap" ] && cnps=$(tshark -r "$dir/cnp.pcap" -d udp.port==4791,infiniband \
		-Y 'infiniband.bth.opcode == 0x81' 2>/dev/null | wc -l)
	echo "wire_cnps=$cnps"
	for v in $TB_SENDERS_LIST; do
		local last
		last=$(tb_cc_latest "$dir/$v-cc.log" all)
		for key in cnps episodes fr_cut ai_cut fr_inc ai_inc floor_hits cuts increases; do
			echo "cc_${key}_$v=$(tb_kv "$key" "$last")"
		done
	done
	local w=0
	for v in $TB_VMS; do
		w=$((w + $(grep -cE "$TB_KERNEL_BAD|NETDEV WATCHDOG" "$dir/dmesg-$v.txt")))
	done
	echo "dmesg_warnings=$w"
	echo "nic_stalled=$(tb_nic_stalled "$dir" | tr '\n' ' ')"
}

# tb_nic_stalled DIR: the VMs whose emulated NIC stopped sending during the
# run in DIR: the guest's netdev watchdog fired (a virtio TX queue that got
# no completion for seconds).  CI saw it once, on the receiver of a 6.1
# testbed 20 s after a reload, its TX queue then stuck for minutes while
# three TCG guests shared two loaded cores (the queue belongs to
# virtio_net and qemu; rxe only hands it packets).
tb_nic_stalled() {
	local v
	for v in $TB_VMS; do
		grep -q "NETDEV WATCHDOG" "$1/dmesg-$v.txt" 2>/dev/null && echo "$v"
	done
}

# tb_incast_again NAME CC DURATION [RELOAD]: tb_incast, and when a VM's
# emulated NIC stalled during it, say so, reboot the testbed and run it
# once more.  A run whose NIC stalls again keeps its warnings, which the
# suites count.
tb_incast_again() {
	tb_incast "$@"
	local rc=$? stalled
	stalled=$(tb_nic_stalled "$TB_RUN/$1")
	[ -n "$stalled" ] || return $rc
	rcc_log "incast $1: the emulated NIC of ${stalled//$'\n'/ } stalled (NETDEV WATCHDOG in the guest); testbed rebooted, run repeated"
	echo "$1: NIC stalled on ${stalled//$'\n'/ }" >>"$TB_RUN/repeated-runs"
	tb_down
	tb_up || return 1
	tb_incast "$@"
}

# tb_table NAME...: the runs' figures side by side.
tb_table() {
	local n k v row
	local -a dirs=("$@")
	printf '%-34s' "run"
	for n in "${dirs[@]}"; do printf ' %14s' "$n"; done
	printf '\n'
	tb_table_row() {
		local label=$1 expr=$2 n r
		printf '%-34s' "$label"
		for n in "${dirs[@]}"; do
			r=$(awk -F= -v e="$expr" '
				{ v[$1] = $2 }
				END { split(e, parts, "+"); s = 0; have = 0
				      for (i in parts) if (parts[i] in v) { s += v[parts[i]]; have = 1 }
				      if (have) print s; else print "-" }' "$TB_RUN/$n/result" 2>/dev/null)
			printf ' %14s' "${r:--}"
		done
		printf '\n'
	}
	tb_table_row "congestion control loaded" cc
	for v in $TB_SENDERS_LIST; do
		tb_table_row "goodput $v (Mbit/s, perftest)" "goodput_mbps_$v"
	done
	tb_table_row "goodput total (Mbit/s, perftest)" goodput_mbps_total
	for v in $TB_SENDERS_LIST; do
		tb_table_row "wire rate $v (Mbit/s, switch)" "wire_mbps_$v"
	done
	tb_table_row "Jain fairness (wire rates)" jain
	tb_table_row "bottleneck utilisation (%)" utilisation_pct
	tb_table_row "queue mean (bytes)" queue_mean_bytes
	tb_table_row "queue p50 (bytes)" queue_p50_bytes
	tb_table_row "queue p99 (bytes)" queue_p99_bytes
	tb_table_row "queue max (bytes)" queue_max_bytes
	tb_table_row "CE marked by the switch" switch_marked
	tb_table_row "drops (switch FIFO + port)" "switch_drops+switch_tap_drops"
	tb_table_row "CNPs on the wire (tshark)" wire_cnps
	tb_table_row "CNPs sent (receiver rxe)" rxe_np_cnp_sent
	tb_table_row "dropped by the VMs' qdiscs" rxe_qdisc_drops
	tb_table_row "CNPs ignored (rxe)" rxe_rp_cnp_ignored
	tb_table_row "retransmit events (rxe)" rxe_completer_retry_err
	tb_table_row "NAKs for a lost PSN (rxe)" rxe_rcvd_seq_err
	tb_table_row "out of sequence at receiver" rxe_out_of_seq_request
	tb_table_row "duplicate packets at receiver" rxe_duplicate_request
	tb_table_row "victim samples (in the window)" victim_samples
	tb_table_row "victim p50 (us, half RTT)" victim_p50_us
	tb_table_row "victim p90 (us, half RTT)" victim_p90_us
	tb_table_row "victim p99 (us, half RTT)" victim_p99_us
	tb_table_row "victim max (us, half RTT)" victim_max_us
	tb_table_row "bulk QPs (sampled by rdma_cc)" cc_bulk_qps
	tb_table_row "bulk QPs sampled" cc_qps
	tb_table_row "of their samples in an episode (%)" cc_congested_pct
	tb_table_row "their rates' sum (Mbit/s, in episodes)" cc_rate_sum_mbps
	tb_table_row "their rates' Jain fairness" cc_rate_jain
	tb_table_row "mean rate / fair share" cc_rate_per_fair_share
	tb_table_row "time paced (ms, all senders)" rxe_paced_ms
	for v in $TB_SENDERS_LIST; do
		tb_table_row "rdma_cc episodes $v" "cc_episodes_$v"
		tb_table_row "rdma_cc cuts $v" "cc_fr_cut_$v+cc_ai_cut_$v"
		tb_table_row "rdma_cc increases $v" "cc_fr_inc_$v+cc_ai_inc_$v"
	done
	local dcqcn=0
	for n in "${dirs[@]}"; do
		grep -qs '^cc_algo=dcqcn$' "$TB_RUN/$n/result" && dcqcn=1
	done
	if [ $dcqcn = 1 ]; then
		for v in $TB_SENDERS_LIST; do
			tb_table_row "DCQCN cuts $v" "cc_cuts_$v"
			tb_table_row "DCQCN increases $v" "cc_increases_$v"
		done
	fi
	tb_table_row "kernel warnings (dmesg)" dmesg_warnings
}
