#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-sample-cc.sh OUT PERIOD_S - in a sender VM: every PERIOD_S seconds,
# append one line per QP file of /sys/kernel/debug/rdma_cc/*/ to OUT:
#
#	<epoch seconds> <device>/<file> key=value key=value ...
#
# taken from the file's "key: value" lines, whatever keys rdma_cc prints.
# Nothing is written while rdma_cc is not loaded.  Forks nothing per sample.
out=$1
period=${2:-0.25}
mkfifo "/tmp/.sample-tick.$$"
exec 3<>"/tmp/.sample-tick.$$"
shopt -s nullglob
while :; do
	buf=
	for f in /sys/kernel/debug/rdma_cc/*/qp* /sys/kernel/debug/rdma_cc/*/summary; do
		line="$EPOCHREALTIME ${f#/sys/kernel/debug/rdma_cc/}"
		while IFS= read -r kv; do
			k=${kv%%:*}
			v=${kv#*: }
			v=${v// /_}
			line+=" $k=$v"
		done <"$f" 2>/dev/null
		buf+="$line"$'\n'
	done
	[ -n "$buf" ] && printf '%s' "$buf" >>"$out"
	read -r -t "$period" -u 3 _
done
