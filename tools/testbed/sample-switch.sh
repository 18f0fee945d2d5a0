#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sample-switch.sh NETNS RX_TAPS TX_TAP MAPID PERIOD_S - print, every
# PERIOD_S seconds, one CSV line of the switch's counters (host clock):
#
#	t,<rx bytes of each RX_TAP (comma-separated list)>,<key=value of
#	tb_switch_stats for TX_TAP>
#
# RX_TAPS are the senders' ports (what each sender put on the wire), TX_TAP
# the bottleneck port.  Runs inside NETNS until killed.
ns=$1 rx=$2 tx=$3 map=$4 period=${5:-0.25}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/env.sh"
. "$here/switch.sh"
IFS=, read -r -a taps <<<"$rx"
exec ip netns exec "$ns" bash -c '
	. "$1/../scripts/env.sh"; . "$1/switch.sh"
	ns=$2 tx=$3 map=$4 period=$5; shift 5
	while :; do
		line=$EPOCHREALTIME
		for t in "$@"; do
			line+=",$(cat /sys/class/net/$t/statistics/rx_bytes)"
		done
		line+=",$(tb_switch_stats "$ns" "$tx" "$map")"
		echo "$line"
		sleep "$period"
	done' sampler "$here" "$ns" "$tx" "$map" "$period" "${taps[@]}"
