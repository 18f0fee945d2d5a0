#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DKMS packaging: dkms add, then for every supported kernel (6.1, 6.12,
# 6.12-rt; RCC_CHECK_KERNELS narrows it) dkms build and install against
# Debian's headers, with Debian's dkms, and check what lands where
# ("ok dkms[LINE]/..."); then one dkms remove --all that must take the
# modules of every kernel away.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"
bash "$top/tools/scripts/deps.sh" dkms module || exit 1
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
src=/usr/src/rdma_cc-$ver

cleanup() {
	dkms remove "rdma_cc/$ver" --all >/dev/null 2>&1
	rm -rf "$src"
}
cleanup
log=$(mktemp)
trap 'cleanup; rm -f "$log"' EXIT

step() { # step NAME COMMAND...: NAME is "/add" or "[LINE]/build", say
	local name=$1
	shift
	if "$@" >"$log" 2>&1; then
		echo "ok dkms$name"
	else
		echo "not ok dkms$name"
		tail -n 20 "$log" | sed 's/^/#   /'
		find /var/lib/dkms/rdma_cc -name make.log -exec tail -n 20 {} \; 2>/dev/null |
			sed 's/^/#   make.log: /'
		return 1
	fi
}

mkdir -p "$src"
cp -r "$top/dkms.conf" "$top/Kbuild" "$top/rdma_cc" "$src/"
step /add dkms add "rdma_cc/$ver" || exit 0
dests=()
for kline in $(rcc_check_kernels); do
	t="dkms[$kline]"
	if ! kdir=$(KDIR='' KVER=$kline rcc_kdir 2>"$log"); then
		echo "not ok $t/headers"
		sed 's/^/#   /' "$log"
		continue
	fi
	krel=$(rcc_kernel_release "$kdir")
	step "[$kline]/build" dkms build "rdma_cc/$ver" -k "$krel" --kernelsourcedir "$kdir" &&
	step "[$kline]/install" dkms install "rdma_cc/$ver" -k "$krel" --kernelsourcedir "$kdir" || continue
	dest=/lib/modules/$krel/updates/dkms
	dests+=("$dest")
	for m in rdma_cc rdma_cc_hook rdma_cc_dcqcn; do
		f=$(ls "$dest/$m.ko"* 2>/dev/null | head -n 1)
		if [ -n "$f" ] && modinfo -F license "$f" | grep -qx GPL &&
		   [ "$(modinfo -F vermagic "$f" | cut -d' ' -f1)" = "$krel" ]; then
			echo "ok $t/installed_$m"
		else
			echo "not ok $t/installed_$m: not in $dest with license GPL and vermagic $krel"
		fi
	done
	if dkms status "rdma_cc/$ver" -k "$krel" 2>/dev/null | grep -q installed; then
		echo "ok $t/status_installed"
	else
		echo "not ok $t/status_installed"
	fi
done
step /remove dkms remove "rdma_cc/$ver" --all || exit 0
left=
for dest in "${dests[@]}"; do
	ls "$dest"/rdma_cc*.ko* >/dev/null 2>&1 && left+=" $dest"
done
if [ -z "$left" ]; then
	echo "ok dkms/removed_cleanly (${#dests[@]} kernels)"
else
	echo "not ok dkms/removed_cleanly: module still in$left"
fi
exit 0
