#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-sample-cc.sh OUT PERIOD_S - in a sender VM: every PERIOD_S seconds,
# append one line per QP and per device of /sys/kernel/debug/rdma_cc/*/ to
# OUT:
#
#	<epoch seconds> <device>/qp<qpn> key=value key=value ...
#	<epoch seconds> <device>/summary key=value key=value ...
#
# a QP's from its row of the device's "qps" table (the keys are the
# table's header), a device's from the "key: value" lines of its
# "summary", whatever keys rdma_cc prints.  Nothing is written while
# rdma_cc is not loaded, nor while the file /tmp/sampler.pause exists.
# Every file of a sample is read by one awk; each row of "qps" is one
# consistent copy of its QP (the table resumes by QP number), and
# "summary" fits one read.
#
# rdma_cc_dcqcn's QPs are sampled the same way, from its qp<N> files
# (/sys/kernel/debug/rdma_cc_dcqcn/<device>/qp<N>, "key: value" lines),
# and a device summary line carries their line_rate_bps.
out=$1
period=${2:-0.25}
root=/sys/kernel/debug/rdma_cc
droot=/sys/kernel/debug/rdma_cc_dcqcn
mkfifo "/tmp/.sample-tick.$$"
exec 3<>"/tmp/.sample-tick.$$"
shopt -s nullglob
while :; do
	files=()
	# paused while rdma_cc is being unloaded (an open file pins the module)
	[ -e /tmp/sampler.pause ] || files=("$root"/*/qps "$root"/*/summary)
	if [ ${#files[@]} -gt 0 ]; then
		awk -v now="$EPOCHREALTIME" -v root="$root/" '
		function flush() { if (line != "") print line; line = "" }
		FNR == 1 {
			flush()
			dev = substr(FILENAME, length(root) + 1)
			file = dev; sub("^.*/", "", file); sub("/[^/]*$", "", dev)
			if (file == "qps") { ncol = split($0, col, " "); next }
			line = now " " dev "/summary"
		}
		file == "qps" {
			line = now " " dev "/qp" $1
			for (i = 1; i <= NF && i <= ncol; i++)
				line = line " " col[i] "=" $i
			flush()
			next
		}
		{
			k = $0; sub(/:.*/, "", k)
			v = $0; sub(/^[^:]*: /, "", v); gsub(/ /, "_", v)
			line = line " " k "=" v
		}
		END { flush() }' "${files[@]}" 2>/dev/null >>"$out"
	fi
	files=()
	[ -e /tmp/sampler.pause ] || files=("$droot"/*/qp*)
	if [ ${#files[@]} -gt 0 ]; then
		awk -v now="$EPOCHREALTIME" -v root="$droot/" '
		function flush() { if (line != "") print line; line = "" }
		FNR == 1 {
			flush()
			dev = substr(FILENAME, length(root) + 1)
			qp = dev; sub("^.*/", "", qp); sub("/[^/]*$", "", dev)
			line = now " " dev "/" qp
		}
		{
			k = $0; sub(/:.*/, "", k)
			v = $0; sub(/^[^:]*: /, "", v); gsub(/ /, "_", v)
			line = line " " k "=" v
			if (k == "line_rate_bps") lr[dev] = v
		}
		END { flush(); for (d in lr) print now " " d "/summary line_rate_bps=" lr[d] }' \
			"${files[@]}" 2>/dev/null >>"$out"
	fi
	read -r -t "$period" -u 3 _
done
