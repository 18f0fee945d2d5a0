# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# switch.sh - the testbed's switch: a network namespace on the host holding
# a Linux bridge with one tap port per VM.  The port towards the receiver is
# the bottleneck for RoCEv2 (other traffic has a class of its own): an HTB
# class at TB_BOTTLENECK_MBIT with a byte FIFO of
# TB_BUFFER_BYTES (tail drop) and the ECN marker of switch-ecn.bpf.c on its
# egress (RED-style on the instantaneous queue: TB_KMIN_BYTES,
# TB_KMAX_BYTES, TB_PMAX_PCT).  The host kernel has no sch_red: see
# Documentation/testbed.rst.  Source it (after env.sh).

: "${TB_BOTTLENECK_MBIT:=10}"
: "${TB_BUFFER_BYTES:=262144}"
: "${TB_KMIN_BYTES:=4096}"
: "${TB_KMAX_BYTES:=16384}"
: "${TB_PMAX_PCT:=100}"

# tb_switch_up NS: the namespace and its bridge.
tb_switch_up() {
	local ns=$1
	ip netns add "$ns" || return 1
	ip -n "$ns" link set lo up
	ip -n "$ns" link add br0 type bridge stp_state 0 forward_delay 0 || return 1
	# no learning delay, no aging out during a run
	ip -n "$ns" link set br0 type bridge ageing_time 30000
	ip -n "$ns" link set br0 up
}

# tb_switch_port NS TAP: a tap port on the bridge (qemu attaches to it).
tb_switch_port() {
	local ns=$1 tap=$2
	ip netns exec "$ns" ip tuntap add dev "$tap" mode tap || return 1
	ip -n "$ns" link set "$tap" master br0 || return 1
	ip -n "$ns" link set "$tap" up
}

# tb_switch_bottleneck NS TAP OBJDIR: shape TAP's egress and mark ECN.
tb_switch_bottleneck() {
	local ns=$1 tap=$2 dir=$3 here obj
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	obj=$dir/switch-ecn.o
	clang -O2 -g -Wall -target bpf -I/usr/include/x86_64-linux-gnu \
		-DRCC_RATE_BPS="$((TB_BOTTLENECK_MBIT * 1000000))ULL" \
		-DRCC_KMIN="${TB_KMIN_BYTES}ULL" -DRCC_KMAX="${TB_KMAX_BYTES}ULL" \
		-DRCC_PMAX_PCT="${TB_PMAX_PCT}ULL" -DRCC_LIMIT="${TB_BUFFER_BYTES}ULL" \
		-c "$here/switch-ecn.bpf.c" -o "$obj" ||
		{ rcc_log "switch: compiling the ECN marker failed"; return 1; }
	local t="ip netns exec $ns tc"
	# 1:1 the bottleneck, RoCEv2 only; 1:2 everything else (the marker
	# classifies, switch-ecn.bpf.c), its own 10 Mbit/s, not shared
	$t qdisc add dev "$tap" root handle 1: htb default 2 &&
	$t class add dev "$tap" parent 1: classid 1:1 htb \
		rate "${TB_BOTTLENECK_MBIT}mbit" ceil "${TB_BOTTLENECK_MBIT}mbit" \
		burst 4k cburst 4k quantum 1600 &&
	$t class add dev "$tap" parent 1: classid 1:2 htb \
		rate 10mbit ceil 10mbit burst 16k cburst 16k quantum 1600 prio 0 &&
	$t qdisc add dev "$tap" parent 1:1 handle 10: bfifo limit "$TB_BUFFER_BYTES" &&
	$t qdisc add dev "$tap" clsact &&
	$t filter add dev "$tap" egress bpf direct-action obj "$obj" sec tc ||
		{ rcc_log "switch: setting up the bottleneck on $tap failed"; return 1; }
}

# tb_switch_ecn_map NS TAP: the id of the marker's counter map.
tb_switch_ecn_map() {
	local ns=$1 tap=$2 prog
	prog=$(ip netns exec "$ns" tc filter show dev "$tap" egress |
		sed -n 's/.* id \([0-9][0-9]*\) .*/\1/p' | head -n 1)
	[ -n "$prog" ] || return 1
	bpftool prog show id "$prog" 2>/dev/null |
		sed -n 's/.*map_ids \([0-9][0-9]*\).*/\1/p' | head -n 1
}

# tb_switch_stats NS TAP MAPID: one line of "key=value" counters of the
# bottleneck port: the FIFO's backlog, drops and sent bytes, the tap's own
# drops, and the marker's counters.
tb_switch_stats() {
	local ns=$1 tap=$2 map=$3
	{
		ip netns exec "$ns" tc -s qdisc show dev "$tap" parent 1:1
		echo "--link"
		ip -n "$ns" -s link show dev "$tap"
		echo "--map"
		[ -n "$map" ] && bpftool map dump id "$map" 2>/dev/null
	} | awk '
		/^qdisc bfifo/ { q = 1 }
		q && /Sent/ { sent = $2; pkts = $4; d = $7; sub(/,/, "", d); drops = d }
		q && /backlog/ { b = $2; sub(/b$/, "", b)
			if (b ~ /K$/) { sub(/K$/, "", b); b *= 1000 }
			if (b ~ /M$/) { sub(/M$/, "", b); b *= 1000000 }
			backlog = b; q = 0 }
		/^--link/ { l = 1 }
		l && /TX:/ { getline; tap_drops = $4; l = 0 }
		/^--map/ { m = 1 }
		m && /"(backlog|max_backlog|packets|bytes|marked|ce_already|not_ect|over_limit)":/ {
			k = $1; gsub(/[",:]/, "", k); v = $2; gsub(/,/, "", v); mv[k] = v }
		END {
			printf "backlog=%d sent_bytes=%d sent_pkts=%d drops=%d tap_drops=%d", \
				backlog, sent, pkts, drops, tap_drops
			n = split("marked ce_already not_ect over_limit max_backlog packets", ks, " ")
			for (i = 1; i <= n; i++) printf " %s=%d", ks[i], mv[ks[i]]
			printf "\n"
		}'
}

tb_switch_down() {
	local ns=$1
	ip netns del "$ns" 2>/dev/null || true
}
