#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DKMS packaging: dkms add, build, install and remove the module against
# Debian's headers, with Debian's dkms, and check what lands where.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"
bash "$top/tools/scripts/deps.sh" dkms module || exit 1
kdir=$(rcc_kdir) || exit 1
krel=$(rcc_kernel_release "$kdir")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
src=/usr/src/rdma_cc-$ver

cleanup() {
	dkms remove "rdma_cc/$ver" --all >/dev/null 2>&1
	rm -rf "$src"
}
cleanup
log=$(mktemp)
trap 'cleanup; rm -f "$log"' EXIT

step() { # step NAME COMMAND...
	local name=$1
	shift
	if "$@" >"$log" 2>&1; then
		echo "ok dkms/$name"
	else
		echo "not ok dkms/$name"
		tail -n 20 "$log" | sed 's/^/#   /'
		find /var/lib/dkms/rdma_cc -name make.log -exec tail -n 20 {} \; 2>/dev/null |
			sed 's/^/#   make.log: /'
		return 1
	fi
}

mkdir -p "$src"
cp -r "$top/dkms.conf" "$top/Kbuild" "$top/rdma_cc" "$src/"
step add dkms add "rdma_cc/$ver" &&
step build dkms build "rdma_cc/$ver" -k "$krel" --kernelsourcedir "$kdir" &&
step install dkms install "rdma_cc/$ver" -k "$krel" --kernelsourcedir "$kdir" &&
{
	dest=/lib/modules/$krel/updates/dkms
	for m in rdma_cc rdma_cc_hook rdma_cc_dcqcn; do
		f=$(ls "$dest/$m.ko"* 2>/dev/null | head -n 1)
		if [ -n "$f" ] && modinfo -F license "$f" | grep -qx GPL; then
			echo "ok dkms/installed_$m"
		else
			echo "not ok dkms/installed_$m: not in $dest with license GPL"
		fi
	done
	if dkms status "rdma_cc/$ver" 2>/dev/null | grep -q installed; then
		echo "ok dkms/status_installed"
	else
		echo "not ok dkms/status_installed"
	fi
	step remove dkms remove "rdma_cc/$ver" --all &&
	if ls "$dest"/rdma_cc*.ko* >/dev/null 2>&1; then
		echo "not ok dkms/removed_cleanly: module still in $dest"
	else
		echo "ok dkms/removed_cleanly"
	fi
}
exit 0
