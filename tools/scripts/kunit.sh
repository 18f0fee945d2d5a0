#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh [--debug] [--kernel LINE] [--smp kcsan|kasan] [--json FILE] -
# build and run rdma_cc's KUnit suites on UML (make kunit, make
# kunit-debug), or in an x86_64 qemu guest with several CPUs (--smp, make
# kunit-smp).
#
# --kernel LINE picks the kernel: 6.1 (the default, Debian's
# linux-source-6.1) or 6.12 (linux-source-6.12); KVER=6.12 does the same.
# The source is unpacked once into the cache (rcc_linux_source)
# and left untouched: the tests run in a hard-linked copy of it,
# $RDMA_CC_CACHE/kunit-src (kunit-src-6.12 for 6.12), where drivers/Kconfig
# and drivers/Makefile are replaced (never edited in place: the links share content with the pristine
# tree) to take in drivers/rdma_cc/, which holds symlinks to the repo's
# rdma_cc/*.[ch], kunit/*.[ch] and kunit/hostile-writes.txt.  Build output stays in
# $RDMA_CC_CACHE/kunit-build (or kunit-build-debug; -6.12 appended for
# 6.12) for fast reruns.
#
# --debug adds KASAN, lockdep (PROVE_LOCKING), debug objects for timers
# and hrtimers (6.1's DEBUG_OBJECTS_TIMERS covers both; there is no
# DEBUG_OBJECTS_HRTIMERS), RCU heads and frees, and UBSAN.  UML cannot have
# DEBUG_ATOMIC_SLEEP (it selects PREEMPT_COUNT, and UML is ARCH_NO_PREEMPT);
# the fake driver checks that set_rate() comes with interrupts off instead.
#
# --smp CFG runs them in an x86_64 kernel under qemu (TCG, no KVM) with
# RCC_SMP_CPUS (default 4) CPUs and a preemptible kernel: PREEMPT,
# PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, debug objects for timers, hrtimers,
# frees and RCU heads, and either KCSAN (CFG kcsan) or KASAN and UBSAN
# (CFG kasan): KCSAN excludes KASAN.  Build output in
# $RDMA_CC_CACHE/kunit-build-smp-CFG.
set -eu
. "$(dirname "$0")/env.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

debug=0
smp=
json=
line=${KVER:-6.1}
while [ $# -gt 0 ]; do
	case $1 in
	--debug) debug=1 ;;
	--smp) smp=${2:-}; shift
	       case $smp in kcsan|kasan) ;;
	       *) rcc_die "kunit.sh: --smp takes kcsan or kasan, not '$smp'" ;; esac ;;
	--json) json=${2:?--json needs a file}; shift ;;
	--kernel) line=${2:?--kernel needs a kernel line (6.1, 6.12)}; shift ;;
	*) rcc_die "kunit.sh: unknown option '$1' (--debug, --kernel LINE, --smp kcsan|kasan, --json FILE)" ;;
	esac
	shift
done
# UML is built from source: the RT flavour is the same source tree, and a
# release (6.12.118+deb12-amd64) names its line.
case $line in
6.1|6.1.*) line=6.1 sfx= ;;
6.12|6.12-rt|6.12.*) line=6.12 sfx=-6.12 ;;
*) rcc_die "kunit.sh: --kernel $line: KUnit runs on 6.1 or 6.12" ;;
esac

[ "$debug" = 1 ] && [ -n "$smp" ] && rcc_die "kunit.sh: --smp has its own sanitizers; drop --debug"
"$top/tools/scripts/deps.sh" kunit${smp:+ kunit-smp}
src=$(rcc_linux_source "$line")
tree=$RDMA_CC_CACHE/kunit-src$sfx

# The copy: hard links, remade when the pristine tree was unpacked anew.
if [ ! -e "$tree/.rdma_cc-kunit" ] || [ "$src/.rdma_cc-unpacked" -nt "$tree/.rdma_cc-kunit" ]; then
	rcc_log "making the KUnit tree $tree (hard links to $src)"
	rm -rf "$tree" "$tree.tmp"
	cp -al "$src" "$tree.tmp"
	# Replace, not edit: write new files over the links.
	sed '$ s|^endmenu$|source "drivers/rdma_cc/Kconfig"\n\nendmenu|' \
		"$src/drivers/Kconfig" > "$tree.tmp/drivers/Kconfig.new"
	grep -q 'drivers/rdma_cc/Kconfig' "$tree.tmp/drivers/Kconfig.new" ||
		rcc_die "could not wire drivers/rdma_cc into drivers/Kconfig"
	mv -f "$tree.tmp/drivers/Kconfig.new" "$tree.tmp/drivers/Kconfig"
	{ cat "$src/drivers/Makefile"
	  echo 'obj-$(CONFIG_RDMA_CC_KUNIT_TEST) += rdma_cc/'; } \
		> "$tree.tmp/drivers/Makefile.new"
	mv -f "$tree.tmp/drivers/Makefile.new" "$tree.tmp/drivers/Makefile"
	touch "$tree.tmp/.rdma_cc-kunit"
	mv "$tree.tmp" "$tree"
fi

# drivers/rdma_cc/: links to this checkout's sources (only sources: build
# output of an out-of-tree build in the repo must not be seen by make).
d=$tree/drivers/rdma_cc
rm -rf "$d"
mkdir -p "$d/rdma_cc" "$d/kunit"
ln -s "$top/kunit/Kconfig" "$d/Kconfig"
ln -s "$top/kunit/Kbuild.uml" "$d/Makefile"
for f in "$top"/rdma_cc/*.[ch]; do ln -s "$f" "$d/rdma_cc/"; done
for f in "$top"/kunit/*.[ch] "$top"/kunit/hostile-writes.txt; do ln -s "$f" "$d/kunit/"; done

build=$RDMA_CC_CACHE/kunit-build$sfx
args=(--arch=um --kunitconfig="$top/kunit/rdma_cc.kunitconfig"
      --jobs="${RCC_JOBS:-2}" --timeout="${RCC_KUNIT_TIMEOUT:-900}")
if [ "$debug" = 1 ]; then
	build=$RDMA_CC_CACHE/kunit-build-debug$sfx
	for opt in DEBUG_KERNEL=y KASAN=y PROVE_LOCKING=y DEBUG_OBJECTS=y \
		   DEBUG_OBJECTS_TIMERS=y DEBUG_OBJECTS_FREE=y \
		   DEBUG_OBJECTS_RCU_HEAD=y UBSAN=y; do
		args+=(--kconfig_add "CONFIG_$opt")
	done
fi
if [ -n "$smp" ]; then
	build=$RDMA_CC_CACHE/kunit-build-smp-$smp$sfx
	args[0]=--arch=x86_64
	# TCG on a shared host: the stress suite alone takes 140 s or more
	args[3]=--timeout=${RCC_KUNIT_TIMEOUT:-1800}
	args+=(--qemu_args="-smp ${RCC_SMP_CPUS:-4} -m 2048")
	opts=(SMP=y PREEMPT=y HIGH_RES_TIMERS=y DEBUG_KERNEL=y PROVE_LOCKING=y
	      DEBUG_ATOMIC_SLEEP=y DEBUG_OBJECTS=y DEBUG_OBJECTS_TIMERS=y
	      DEBUG_OBJECTS_FREE=y DEBUG_OBJECTS_RCU_HEAD=y)
	case $smp in
	kcsan) opts+=(KCSAN=y) ;;
	kasan) opts+=(KASAN=y UBSAN=y) ;;
	esac
	for opt in "${opts[@]}"; do
		args+=(--kconfig_add "CONFIG_$opt")
	done
fi
[ -n "$json" ] && args+=(--json="$json")
# RCC_KUNIT_FILTER=GLOB (e.g. 'rdma_cc_smp.*') runs only those suites.
[ -n "${RCC_KUNIT_FILTER:-}" ] && args+=("$RCC_KUNIT_FILTER")
mkdir -p "$build"
# The links above point at this checkout; objects built from another
# checkout's files (a clone sharing the cache) are newer than an edit
# made here before that build, so make would keep them: start afresh.
if [ "$(cat "$build/.rdma_cc-checkout" 2>/dev/null)" != "$top" ]; then
	rm -rf "$build/drivers/rdma_cc"
	echo "$top" >"$build/.rdma_cc-checkout"
fi
cd "$tree"
rcc_log "kunit.py run ${args[*]} (build in $build)"
exec python3 tools/testing/kunit/kunit.py run --build_dir="$build" "${args[@]}"
