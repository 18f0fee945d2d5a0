# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# incast.sh - one N:1 incast of ib_write_bw on a running testbed, with all
# its measurements.  Source it after testbed.sh.
#
#   tb_incast NAME CC DURATION_S [RELOAD]
#
# CC=1 loads rdma_cc.ko in the senders first (TB_CC_PARAMS), CC=0 makes
# sure it is not loaded.  RELOAD=1 unloads rdma_cc from the senders a third
# into the run and loads it again at two thirds.  Every sender runs one RC
# QP of RDMA WRITEs to its own ib_write_bw server on the receiver.  While
# it runs, a status line per sender is printed every TB_STATUS_S seconds.
# Results land in $TB_RUN/NAME/:
#
#   switch.csv        host-clock samples of the switch (sample-switch.sh)
#   sN-cc.log         rdma_cc's debugfs samples of sender N (host clock)
#   cnp.pcap          the CNPs that crossed the switch (to the senders)
#   ce.pcap           the first CE-marked data packets leaving the switch
#   sN.bw, r.bwN      ib_write_bw's output
#   stats-*.txt       rdma statistic of every VM before and after
#   result            key=value lines: the run's figures (tb_incast_result)

: "${TB_MSG_BYTES:=65536}"
: "${TB_TCLASS:=0}"
# the QPs' ACK timeout: 4.096 us << 18 = 1.07 s, above the longest queueing delay
: "${TB_QP_TIMEOUT:=18}"
: "${TB_STATUS_S:=2}"
: "${TB_SAMPLE_S:=0.25}"
# rdma_cc's parameters for the testbed (Documentation/testbed.rst says why)
: "${TB_CC_PARAMS:=data_rate_mbps=20 control_interval_ns=100000000 line_rate_margin_mbps=1 congestion_probability_weight=64}"

tb_cc_load() {
	tb_vm_run "$1" 30 <<-EOS
	if ! grep -q '^rdma_cc ' /proc/modules; then
		insmod $TB_CC_KO $TB_CC_PARAMS || exit 1
	fi
	EOS
}

# A reader of rdma_cc's debugfs (the sampler) holds a reference on the
# module while a file is open: rmmod is retried for a while.
tb_cc_unload() {
	tb_vm_run "$1" 60 <<<"$(tb_cc_unload_script)"
}

tb_cc_unload_script() {
	cat <<-'EOS'
	touch /tmp/sampler.pause
	trap 'rm -f /tmp/sampler.pause' EXIT
	sleep 0.3
	for i in $(seq 100); do
		grep -q '^rdma_cc ' /proc/modules || exit 0
		rmmod rdma_cc 2>/dev/null && exit 0
		sleep 0.05
	done
	rmmod rdma_cc
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
	tb_vm_run "$1" 30 <<<'rdma statistic show link rxe0/1' |
		awk '{ for (i = 3; i < NF; i += 2) printf "%s=%s ", $i, $(i + 1) } END { print "" }'
}

# tb_kv KEY "k=v k=v ...": the value of KEY (0 when absent).
tb_kv() {
	local k=$1 kv
	for kv in $2; do
		[ "${kv%%=*}" = "$k" ] && { echo "${kv#*=}"; return; }
	done
	echo 0
}

# tb_cc_latest FILE: the last sample line of the busiest QP in an sN-cc.log.
tb_cc_latest() {
	awk '$2 ~ /\/qp[0-9]+$/ { last[$2] = $0; for (i = 3; i <= NF; i++)
		if ($i ~ /^packets=/) { split($i, a, "="); p[$2] = a[2] } }
	END { best = ""; for (q in last) if (best == "" || p[q] > p[best]) best = q
		if (best != "") print last[best] }' "$1" 2>/dev/null
}

# tb_status DIR T0: one line per sender of what is going on right now.
tb_status() {
	local dir=$1 t0=$2 v i=0 line cc rate est cnps
	line=$(tail -n 1 "$dir/switch.csv" 2>/dev/null)
	local prev
	prev=$(tail -n "$((4 * ${TB_STATUS_S%.*} + 1))" "$dir/switch.csv" 2>/dev/null | head -n 1)
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		rate=$(awk -F, -v a="$prev" -v i="$i" 'BEGIN { split(a, p, ",") }
			{ dt = $1 - p[1]; if (dt > 0) printf "%.1f", ($(i + 1) - p[i + 1]) * 8 / dt / 1e6; else print "-" }' <<<"$line")
		cc=$(tb_cc_latest "$dir/$v-cc.log")
		if [ -n "$cc" ]; then
			est=$(tb_kv estimate "$cc")
			cnps=$(tb_kv cnps "$cc")
			printf '  t=%5.1fs %s %s: wire %6s Mbit/s  rdma_cc rate %6.1f Mbit/s  estimate %s  CNPs %s%s\n' \
				"$(awk -v a="${line%%,*}" -v b="$t0" 'BEGIN { print a - b }')" "$v" \
				"$(awk '{ print $2 }' <<<"$cc")" \
				"$rate" "$(awk -v r="$(tb_kv current_bps "$cc")" 'BEGIN { print r / 1e6 }')" \
				"$est" "$cnps" \
				"$([ "$(tb_kv congested "$cc")" = 1 ] && echo "  (congested)")"
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
		if [ "$cc" = 1 ]; then
			tb_cc_load "$v" || { rcc_log "incast: loading rdma_cc on $v failed"; return 1; }
		else
			tb_cc_unload "$v" || return 1
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
	# Servers first, one port per sender.
	i=0
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		port=$((18514 + i))
		tb_vm_spawn r "srv$i" <<-EOS
		exec ib_write_bw -d rxe0 -x 1 -p $port -q 1 -F --report_gbits -s $TB_MSG_BYTES -D $dur --tclass=$TB_TCLASS -u $TB_QP_TIMEOUT
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
	for v in $TB_SENDERS_LIST; do
		rm -f "$TB_RUN/$v/ctl/cc-samples.log"
		tb_vm_spawn "$v" sampler <<-EOS
		echo \$\$ >/tmp/sampler.pid
		exec $tb_here/guest-sample-cc.sh /mnt/cc-samples.log $TB_SAMPLE_S
		EOS
	done
	sleep 1

	t0=$(date +%s.%N)
	echo "$t0" >"$dir/t0"
	i=0
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		port=$((18514 + i))
		tb_vm_spawn "$v" "bw-$name" <<-EOS
		exec ib_write_bw -d rxe0 -x 1 -p $port -q 1 -F --report_gbits -s $TB_MSG_BYTES -D $dur --tclass=$TB_TCLASS -u $TB_QP_TIMEOUT $(tb_ip r)
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

# tb_incast_result DIR CC DURATION: the figures of a finished run.
tb_incast_result() {
	local dir=$1 cc=$2 dur=$3 v i=0 gp list="" sb sa
	echo "cc=$cc"
	echo "duration_s=$dur"
	for v in $TB_SENDERS_LIST; do
		i=$((i + 1))
		gp=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+/ { printf "%.2f", $4 * 1000 }' "$dir/$v.bw")
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
	# the queue's mean and maximum, each sender's rate on the wire (what
	# its switch port received) and Jain's fairness of those rates.
	awk -F, -v d="$dur" -v r="$((TB_BOTTLENECK_MBIT * 1000000))" '
		{ n = split($NF, kv, " "); for (j = 1; j <= n; j++) { split(kv[j], x, "="); s[x[1]] = x[2] }
		  k++; t[k] = $1; sb[k] = s["sent_bytes"]; q[k] = s["backlog"]; nf = NF - 2
		  for (i = 1; i <= nf; i++) rx[k, i] = $(i + 1) }
		END {
			for (i = 1; i <= k && sb[i] - sb[1] < 50000; i++) ;
			ts = t[i] + 2; te = t[i] + d - 2
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
	local before after key tot
	for key in np_ecn_marked_roce_packets np_cnp_sent rp_cnp_handled rp_cnp_ignored paced_ns completer_retry_err out_of_seq_request duplicate_request; do
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
		last=$(tb_cc_latest "$dir/$v-cc.log")
		for key in cnps episodes fr_cut ai_cut fr_inc ai_inc floor_hits; do
			echo "cc_${key}_$v=$(tb_kv "$key" "$last")"
		done
	done
	local w=0
	for v in $TB_VMS; do
		w=$((w + $(grep -cE 'WARNING|BUG|Oops|general protection|RIP:' "$dir/dmesg-$v.txt")))
	done
	echo "dmesg_warnings=$w"
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
	tb_table_row "rdma_cc loaded" cc
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
	tb_table_row "queue max (bytes)" queue_max_bytes
	tb_table_row "CE marked by the switch" switch_marked
	tb_table_row "drops (switch FIFO + port)" "switch_drops+switch_tap_drops"
	tb_table_row "CNPs on the wire (tshark)" wire_cnps
	tb_table_row "CNPs sent (receiver rxe)" rxe_np_cnp_sent
	tb_table_row "CNPs ignored (rxe)" rxe_rp_cnp_ignored
	tb_table_row "retransmit events (rxe)" rxe_completer_retry_err
	tb_table_row "duplicate packets at receiver" rxe_duplicate_request
	tb_table_row "time paced (ms, all senders)" rxe_paced_ms
	for v in $TB_SENDERS_LIST; do
		tb_table_row "rdma_cc episodes $v" "cc_episodes_$v"
		tb_table_row "rdma_cc cuts $v" "cc_fr_cut_$v+cc_ai_cut_$v"
		tb_table_row "rdma_cc increases $v" "cc_fr_inc_$v+cc_ai_inc_$v"
	done
	tb_table_row "kernel warnings (dmesg)" dmesg_warnings
}
