# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# image.sh - the testbed VMs' kernel and initramfs, prepared in the cache.
# Source it (after tools/scripts/env.sh).
#
# tb_image prints the directory of Debian's linux-image-<release> unpacked
# with dpkg -x, <release> being that of the headers rdma_rxe.ko and rdma_cc.ko
# are built against (rcc_kdir), so the VM kernel always matches the modules.
# The package is fetched with apt-get download and never installed.
#
# tb_initramfs prints the path of a busybox initramfs that loads virtio and
# 9p, mounts the host's / read-only over 9p and hands over to
# tools/testbed/guest-init.sh on it.

# The modules the initramfs needs to reach the 9p root; their dependencies
# are added in load order from the image's modules.dep.
TB_INITRAMFS_MODULES="virtio_pci 9pnet_virtio 9p"

# tb_module_order IMAGE RELEASE NAME...: the module files (relative to
# lib/modules/RELEASE) that load NAME..., dependencies first, each once.
tb_module_order() {
	local img=$1 rel=$2
	shift 2
	awk -v want="$*" '
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) need[w[i]] = 1 }
	{
		mod = $1; sub(/:$/, "", mod)
		base = mod; sub(/^.*\//, "", base); sub(/\.ko(\.[a-z]+)?$/, "", base)
		if (!(base in need)) next
		for (i = NF; i >= 2; i--) if (!seen[$i]++) print $i
		if (!seen[mod]++) print mod
	}' "$img/lib/modules/$rel/modules.dep"
}

# The release the modules are built for: UTS_RELEASE of the headers (their
# include/config/kernel.release holds only the upstream version on Debian).
tb_release() {
	local kdir r
	kdir=$(rcc_kdir) || return 1
	r=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$kdir/include/generated/utsrelease.h" 2>/dev/null)
	[ -n "$r" ] || r=${kdir##*/linux-headers-}
	echo "$r"
}

tb_image() {
	local rel dir deb
	rel=$(tb_release) || return 1
	dir=$RDMA_CC_CACHE/vm/$rel
	if [ ! -e "$dir/.unpacked" ]; then
		mkdir -p "$dir"
		(
			cd "$dir" || exit 1
			rm -f linux-image-*.deb
			rcc_log "testbed: fetching linux-image-$rel"
			apt-get download -q "linux-image-$rel" >&2 2>/dev/null ||
				apt-get download -q "linux-image-$rel" >&2
		) || rcc_die "apt-get download linux-image-$rel failed"
		deb=$(ls "$dir"/linux-image-"$rel"_*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] || rcc_die "no linux-image-$rel package downloaded"
		rm -rf "$dir/image"
		dpkg -x "$deb" "$dir/image" || rcc_die "dpkg -x $deb failed"
		depmod -b "$dir/image" "$rel" || rcc_die "depmod for $rel failed"
		rm -f "$deb"
		touch "$dir/.unpacked"
	fi
	[ -f "$dir/image/boot/vmlinuz-$rel" ] ||
		rcc_die "$dir/image has no boot/vmlinuz-$rel"
	echo "$dir/image"
}

tb_initramfs() {
	local rel img out stage bb m here
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	rel=$(tb_release) || return 1
	img=$(tb_image) || return 1
	out=$RDMA_CC_CACHE/vm/$rel/initramfs.cpio.gz
	if [ -s "$out" ] && [ "$out" -nt "$here/initramfs-init" ] &&
	   [ "$out" -nt "$here/image.sh" ]; then
		echo "$out"
		return
	fi
	bb=/bin/busybox
	[ -x "$bb" ] || rcc_die "no $bb: deps.sh vm installs busybox-static"
	stage=$(mktemp -d)
	mkdir -p "$stage"/{bin,dev,proc,sys,newroot,modules}
	cp "$bb" "$stage/bin/busybox"
	# empty for a kernel with virtio and 9p built in (debug-kernel.sh)
	: >"$stage/modules/order"
	for m in $(tb_module_order "$img" "$rel" $TB_INITRAMFS_MODULES); do
		[ -f "$img/lib/modules/$rel/$m" ] ||
			rcc_die "linux-image-$rel lacks $m"
		cp "$img/lib/modules/$rel/$m" "$stage/modules/"
		basename "$m" >>"$stage/modules/order"
	done
	cp "$here/initramfs-init" "$stage/init"
	chmod 755 "$stage/init"
	(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp" ||
		rcc_die "building the initramfs failed"
	mv "$out.tmp" "$out"
	rm -rf "$stage"
	echo "$out"
}
