#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-sample-cc.sh OUT PERIOD_S - in a sender VM: every PERIOD_S seconds,
# append one line per QP file of /sys/kernel/debug/rdma_cc/*/ to OUT:
#
#	<epoch seconds> <device>/<file> key=value key=value ...
#
# taken from the file's "key: value" lines, whatever keys rdma_cc prints.
# Nothing is written while rdma_cc is not loaded, nor while the file
# /tmp/sampler.pause exists.  All files are read by
# one grep per sample: each file in one read, a consistent copy (reading a
# changing seq_file line by line, with seeks, can tear it).
out=$1
period=${2:-0.25}
root=/sys/kernel/debug/rdma_cc
mkfifo "/tmp/.sample-tick.$$"
exec 3<>"/tmp/.sample-tick.$$"
shopt -s nullglob
while :; do
	files=()
	# paused while rdma_cc is being unloaded (an open file pins the module)
	[ -e /tmp/sampler.pause ] || files=("$root"/*/qp* "$root"/*/summary)
	if [ ${#files[@]} -gt 0 ]; then
		now=$EPOCHREALTIME
		buf=
		cur=
		while IFS= read -r l; do
			f=${l%%:*}
			kv=${l#*:}
			if [ "$f" != "$cur" ]; then
				[ -n "$cur" ] && buf+=$'\n'
				cur=$f
				buf+="$now ${f#"$root"/}"
			fi
			v=${kv#*: }
			buf+=" ${kv%%:*}=${v// /_}"
		done < <(grep -H '' "${files[@]}" 2>/dev/null)
		[ -n "$buf" ] && printf '%s\n' "$buf" >>"$out"
	fi
	read -r -t "$period" -u 3 _
done
