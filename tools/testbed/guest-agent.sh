#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-agent.sh DIR - the VM side of the testbed's control channel.
#
# DIR is a 9p share with the host.  The host writes a script as
# DIR/req/ID.sh (renamed into place whole); the agent moves it to
# DIR/run/ID.sh and runs it with bash in the background, its stdout and
# stderr going to DIR/out/ID; when it ends its exit status appears as
# DIR/rc/ID (renamed into place whole).  Commands run concurrently.
# DIR/ready is written once the agent serves.
dir=$1
mkdir -p "$dir/req" "$dir/run" "$dir/out" "$dir/rc"
# A sleep that forks nothing: read with a timeout on a private fifo.
mkfifo /tmp/.agent-tick
exec 3<>/tmp/.agent-tick
uname -r >"$dir/ready"
shopt -s nullglob
while :; do
	for req in "$dir"/req/*.sh; do
		id=${req##*/}
		id=${id%.sh}
		mv "$req" "$dir/run/$id.sh" || continue
		(
			cd /tmp && bash "$dir/run/$id.sh" >"$dir/out/$id" 2>&1 </dev/null
			echo $? >"$dir/rc/$id.tmp"
			mv "$dir/rc/$id.tmp" "$dir/rc/$id"
		) &
	done
	read -r -t 0.1 -u 3 _
done
