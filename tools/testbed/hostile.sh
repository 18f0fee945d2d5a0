# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# hostile.sh - hostile input against rdma_cc in a running testbed.  Source
# it after testbed.sh and incast.sh.
#
#   hv_sysfs_replay VM TABLE     replay kunit/hostile-writes.txt through the
#                                real files; prints "tried=N wrong=N ..."
#   hv_forge_run FORGER VICTIM   forged CNPs from FORGER to VICTIM's RC QP
#                                (which talks to r); results in
#                                $TB_RUN/forge/result, one "kind ..." a line
#
# The replay runs in the VM with the host's python3 (the VM's root is the
# host's / over 9p): one write(2) per line and attribute, so the errno is
# the one the kernel returned.

# The replayer, run in the VM: TABLE then the directories to write into.
hv_sysfs_replayer() {
	cat <<-'EOS'
	import errno, glob, os, re, sys

	def unescape(s):
	    out = bytearray()
	    i = 0
	    while i < len(s):
	        c = s[i]
	        if c != "\\" or i + 1 == len(s):
	            out += c.encode()
	            i += 1
	            continue
	        n = s[i + 1]
	        if n == "x":
	            m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2:])
	            out.append(int(m.group(0), 16))
	            i += 2 + len(m.group(0))
	            continue
	        out += {"n": b"\n", "t": b"\t", "\\": b"\\"}[n]
	        i += 2
	    return bytes(out)

	def read(path):
	    with open(path, "rb") as f:
	        return f.read()

	table, moddir, devdir = sys.argv[1:4]
	rows = []
	for line in open(table, encoding="utf-8"):
	    line = line.rstrip("\n")
	    if not line or line.startswith("#"):
	        continue
	    where, _, value = line.partition("\t")
	    rows.append((where, unescape(value)))
	files = {"mod": sorted(glob.glob(moddir + "/*")),
	         "dev": sorted(glob.glob(devdir + "/*"))}
	start = {p: read(p) for k in files for p in files[k]}
	tried = wrong = empty = 0
	for where, value in rows:
	    for kind in ("mod", "dev"):
	        if where == "dev" and kind == "mod":
	            continue
	        for path in files[kind]:
	            if where not in ("*", "dev") and os.path.basename(path) != where:
	                continue
	            tried += 1
	            fd = os.open(path, os.O_WRONLY)
	            try:
	                n = os.write(fd, value)
	                res = "returned %d" % n
	                ok = (n == 0 and value == b"")
	                if ok:
	                    empty += 1
	            except OSError as e:
	                res = errno.errorcode.get(e.errno, str(e.errno))
	                ok = e.errno in (errno.EINVAL, errno.ERANGE)
	            finally:
	                os.close(fd)
	            if read(path) != start[path]:
	                ok = False
	                res += ", value changed to %r" % read(path)
	            if not ok:
	                wrong += 1
	                print("WRONG %s %r: %s" % (path, value[:40], res))
	changed = [p for p in start if read(p) != start[p]]
	print("tried=%d wrong=%d empty=%d rows=%d mod_files=%d dev_files=%d changed=%d"
	      % (tried, wrong, empty, len(rows), len(files["mod"]),
	         len(files["dev"]), len(changed)))
	EOS
}

hv_sysfs_replay() {
	local vm=$1 table=$2
	hv_sysfs_replayer >"$TB_RUN/$vm/ctl/replay.py"
	tb_vm_run "$vm" 300 <<-EOS
	python3 /mnt/replay.py $table /sys/module/rdma_cc/parameters /sys/kernel/rdma_cc/rxe0
	EOS
}

# hv_qpn VM: the number of the VM's one attached QP (its row in the
# debugfs table rxe0/qps).
hv_qpn() {
	tb_vm_run "$1" 30 <<<'awk "NR == 2 { print \$1; exit }" /sys/kernel/debug/rdma_cc/rxe0/qps 2>/dev/null'
}

# hv_victim_state VM QPN [KEY TARGET]: one line "k=v ..." of the rxe hw
# counters and the QP's rdma_cc state (congested, cnps, current_bps); with
# KEY TARGET, first wait (in the VM, 60 s at most) for the hw counter KEY
# to reach TARGET.
hv_victim_state() {
	tb_vm_run "$1" 90 <<-EOS
	c=/sys/class/infiniband/rxe0/ports/1/hw_counters
	if [ -n "${3:-}" ]; then
		for i in \$(seq 600); do
			[ "\$(cat \$c/${3:-})" -ge ${4:-0} ] && break
			sleep 0.1
		done
	fi
	for f in rp_cnp_handled rp_cnp_ignored; do printf '%s=%s ' \$f "\$(cat \$c/\$f)"; done
	awk -v q=$2 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		\$1 == q { printf "congested=%s cnps=%s current_bps=%s", \$c["congested"], \$c["cnps"], \$c["current_bps"] }
		END { print "" }' /sys/kernel/debug/rdma_cc/rxe0/qps
	EOS
}

# hv_forge_send FORGER KIND SRC DST QPN COUNT
hv_forge_send() {
	tb_vm_run "$1" 60 <<-EOS
	python3 $tb_top/tools/forge/roce_forge.py send --kind $2 --src $3 --dst $4 --qpn $5 --count $6 --gap-us 2000
	EOS
}

# hv_forge_run FORGER VICTIM: the victim runs ib_write_lat to r (one RC QP,
# one message in flight: no queue, so no real CNP); the forger sends each
# hostile kind; each kind's line in $TB_RUN/forge/result:
#   KIND n=SENT rcvd=+X ignored=+Y congested=C cnps=+Z
# The last kind, "control_peer", is a well-formed CNP spoofed from the
# victim's real peer: it must be taken (the check can see a change).
hv_forge_run() {
	local f=$1 v=$2 d=$TB_RUN/forge st0 st1 s0 s1 qpn n=20 kind src qp
	local vip rip fip cnps0
	vip=$(tb_ip "$v")
	rip=$(tb_ip r)
	fip=$(tb_ip "$f")
	rm -rf "$d"
	mkdir -p "$d"
	tb_vm_spawn r forge-srv <<<"exec ib_write_lat -d rxe0 -x 1 -p 18600 -D 400 -F"
	sleep 2
	tb_vm_spawn "$v" forge-cli <<<"exec ib_write_lat -d rxe0 -x 1 -p 18600 -D 400 -F $rip"
	local i
	for ((i = 0; i < 240; i++)); do
		qpn=$(hv_qpn "$v")
		[ -n "$qpn" ] && break
		sleep 0.5
	done
	[ -n "$qpn" ] || { echo "no QP on $v" >"$d/error"; return 1; }
	# wait for the QP to carry traffic (RTS, packets counted)
	for ((i = 0; i < 240; i++)); do
		tb_vm_run "$v" 30 <<<"awk -v q=$qpn 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$1 == q && \$c[\"packets\"] > 0 { f = 1 } END { exit !f }' /sys/kernel/debug/rdma_cc/rxe0/qps" && break
		sleep 0.5
	done
	echo "victim $v qpn=$qpn" >"$d/victim"
	tb_vm_run "$v" 30 <<<"rdma resource show qp lqpn $qpn" >>"$d/victim" 2>&1
	tb_vm_run "$v" 30 <<<'dmesg | wc -l' >"$d/dmesg-lines"
	: >"$d/result"
	# KIND SRC QPN: the forged packets, each from the forger's VM
	for spec in \
		"cnp unknown_qp $rip 777777" \
		"cnp wrong_source $fip $qpn" \
		"cnp wrong_source_other 198.18.1.99 $qpn" \
		"bad_icrc bad_icrc $rip $qpn" \
		"bad_tver bad_tver $rip $qpn" \
		"bad_pkey bad_pkey $rip $qpn" \
		"short_payload short_payload $rip $qpn" \
		"no_icrc no_icrc $rip $qpn" \
		"truncated_bth truncated_bth $rip $qpn" \
		"cnp control_peer $rip $qpn"; do
		read -r kind name src qp <<<"$spec"
		local cnt=$n key=rp_cnp_ignored
		[ "$name" = control_peer ] && { cnt=1; key=rp_cnp_handled; }
		st0=$(hv_victim_state "$v" "$qpn")
		hv_forge_send "$f" "$kind" "$src" "$vip" "$qp" "$cnt" >>"$d/forge.log" 2>&1
		# wait until rxe has counted them.  truncated_bth is dropped
		# before any CNP counter (rxe_rcv: shorter than a BTH): one
		# CNP to an unknown QP follows it on the same path, and once
		# that one is counted ignored the truncated ones were handled
		local want=$cnt
		if [ "$name" = truncated_bth ]; then
			hv_forge_send "$f" cnp "$rip" "$vip" 777777 1 >>"$d/forge.log" 2>&1
			want=1
		fi
		st1=$(hv_victim_state "$v" "$qpn" $key $(( $(tb_kv $key "$st0") + want )))
		echo "$name n=$cnt rcvd=+$(( $(tb_kv rp_cnp_handled "$st1") - $(tb_kv rp_cnp_handled "$st0") )) ignored=+$(( $(tb_kv rp_cnp_ignored "$st1") - $(tb_kv rp_cnp_ignored "$st0") )) congested=$(tb_kv congested "$st1") cnps=+$(( $(tb_kv cnps "$st1") - $(tb_kv cnps "$st0") )) rate0=$(tb_kv current_bps "$st0") rate1=$(tb_kv current_bps "$st1")" >>"$d/result"
	done
	tb_vm_run "$v" 30 <<<"exec 3<>/sys/kernel/debug/rdma_cc/rxe0/qp; echo $qpn >&3; cat <&3" >"$d/qp-after.txt"
	for kind in $TB_VMS; do
		tb_vm_run "$kind" 30 <<<'dmesg' >"$d/dmesg-$kind.txt"
	done
	tb_vm_pkill ib_write_lat "$v" r
	tb_vm_join "$v" forge-cli 30 >"$d/cli.txt" 2>&1
	tb_vm_join r forge-srv 30 >"$d/srv.txt" 2>&1
	return 0
}
