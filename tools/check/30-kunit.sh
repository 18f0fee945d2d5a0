#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 30-kunit.sh - rdma_cc's KUnit suites on UML (tools/scripts/kunit.sh):
# one line "ok SUITE.CASE" / "not ok SUITE.CASE" per KUnit test case, from
# KUnit's parsed (JSON) results.  A parameterised case gets one line for
# the case (ok when every parameter passed) and one line per parameter,
# "ok SUITE.CASE[DESC]", each counted.  A case of kunit/*_test.c that did
# not run at all (a crash, a suite missing) is "not ok".  Then one line for
# the kernel log (no sanitizer, lockdep, debug-objects, BUG or WARN report
# while the tests ran) and one that kunit/hostile-writes.txt holds the
# table params_test.c ran.  KUNIT_DEBUG=1 runs make kunit-debug's
# configuration instead (tools/check/32-kunit-debug.sh).  KUNIT_KERNEL=6.12
# runs them on linux-source-6.12 (tools/check/31-kunit-6.12.sh), every line
# named "kunit[6.12]/NAME"; the default is 6.1, names unprefixed.
# KUNIT_SMP=kcsan or kasan runs them in the x86_64 guest with several CPUs
# (kunit.sh --smp, tools/check/33-kunit-smp.sh): a line "kunit-smp: N
# CPUs, sanitizers: ..." first, every line's name prefixed "smp-CFG/", and
# a skipped case of rdma_cc_smp is "not ok" there (it must run on several
# CPUs).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/scripts/env.sh"

mkdir -p "$RDMA_CC_CACHE"
json=$(mktemp "$RDMA_CC_CACHE/kunit-results.XXXXXX.json")
debug=${KUNIT_DEBUG:-0}
kernel=${KUNIT_KERNEL:-6.1}
case $kernel in
6.1) sfx= pfx= ;;
6.12) sfx=-6.12 pfx="kunit[6.12]/" ;;
*) echo "KUNIT_KERNEL=$kernel: KUnit runs on 6.1 or 6.12" >&2; exit 1 ;;
esac
smp=${KUNIT_SMP:-}
log=$RDMA_CC_CACHE/kunit-last$sfx.log
[ "$debug" = 1 ] && log=$RDMA_CC_CACHE/kunit-debug-last$sfx.log
[ -n "$smp" ] && log=$RDMA_CC_CACHE/kunit-smp-$smp-last$sfx.log
[ -n "$smp" ] && pfx="${pfx}smp-$smp/"
trap 'rm -f "$json"' EXIT
opts=(--json "$json" --kernel "$kernel")
[ "$debug" = 1 ] && opts+=(--debug)
[ -n "$smp" ] && opts+=(--smp "$smp")
build=$RDMA_CC_CACHE/kunit-build$sfx
[ "$debug" = 1 ] && build=$RDMA_CC_CACHE/kunit-build-debug$sfx
[ -n "$smp" ] && build=$RDMA_CC_CACHE/kunit-build-smp-$smp$sfx
klog=$build/test.log

start=$(date +%s)
"$top/tools/scripts/kunit.sh" "${opts[@]}" > "$log" 2>&1
rc=$?
echo "kunit.sh exited $rc after $(( $(date +%s) - start )) s (log: $log)"
grep -E 'Testing complete|Elapsed time' "$log" || true

if [ ! -s "$json" ]; then
	tail -n 40 "$log"
	echo "no KUnit results: the UML kernel did not build or run" >&2
	exit 1
fi

# The cases the sources define, to catch those that never reported.
expected=$(grep -ho 'KUNIT_CASE\(_PARAM\)\?([a-z0-9_]*' "$top"/kunit/*_test.c |
	   sed 's/.*(//' | sort -u)

# The guest's CPUs (from its boot log) and the sanitizers built in.
if [ -n "$smp" ]; then
	cpus=$(sed -n 's/.*smp: Brought up .* \([0-9]*\) CPUs\?$/\1/p' "$klog" | tail -n 1)
	san=
	for c in KCSAN KASAN UBSAN PROVE_LOCKING DEBUG_OBJECTS_HRTIMERS \
		 DEBUG_OBJECTS_TIMERS DEBUG_ATOMIC_SLEEP PREEMPT; do
		grep -qx "CONFIG_$c=y" "$build/.config" 2>/dev/null && san+=" $c"
	done
	echo "kunit-smp: ${cpus:-?} CPUs, sanitizers:$san (config $smp)"
fi

python3 - "$json" "$expected" "$pfx" "$smp" <<'PY'
import json, sys

results = json.load(open(sys.argv[1]))
expected = set(sys.argv[2].split())
pfx = sys.argv[3]
# In the SMP guest the SMP suite must really run.
no_skip = "rdma_cc_smp" if sys.argv[4] else None
seen = set()

def leaves(group, prefix):
    for case in group.get("test_cases", []):
        yield f'{prefix}[{"_".join(case["name"].split())}]', case["status"]
    for sub in group.get("sub_groups", []):
        yield from leaves(sub, f'{prefix}[{"_".join(sub["name"].split())}]')

for suite in results.get("sub_groups", []):
    for case in suite.get("test_cases", []):
        seen.add(case["name"])
        status = case["status"]
        name = f'{pfx}{suite["name"]}.{case["name"]}'
        if status == "PASS":
            print(f"ok {name}")
        elif status == "SKIP" and suite["name"] == no_skip:
            print(f"not ok {name} (skipped)")
        elif status == "SKIP":
            print(f"ok {name} # SKIP")
        else:
            print(f"not ok {name} ({status})")
    for param_case in suite.get("sub_groups", []):
        seen.add(param_case["name"])
        name = f'{pfx}{suite["name"]}.{param_case["name"]}'
        st = []
        for sub, status in leaves(param_case, name):
            st.append(status)
            if status in ("PASS", "SKIP"):
                print(f"ok {sub}")
            else:
                print(f"not ok {sub} ({status})")
        bad = [s for s in st if s not in ("PASS", "SKIP")]
        if st and not bad:
            print(f"ok {name} ({len(st)} parameters)")
        else:
            print(f"not ok {name} ({len(bad)} of {len(st)} parameters failed)")

for name in sorted(expected - seen):
    print(f"not ok {pfx}{name} (did not run)")
PY

# A lockdep, KASAN, UBSAN or debug-objects report anywhere, or any BUG,
# WARN, oops or hung task once the tests started (UML itself warns once at
# boot, before them, that it has no virtio PCI device), fails the run even
# when every expectation held.
report='KCSAN:|KASAN:|UBSAN:|ODEBUG:|list_(add|del) corruption|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|lock held when returning|bad unlock balance|WARNING: .*drivers/rdma_cc/'
during='BUG:|WARNING:|cut here|Oops|kernel BUG|general protection|Kernel panic|blocked for more than'
# Races inside the kernel itself, no frame of ours in either stack, that
# KCSAN reports now and then whatever runs: printed, not failed on.
#   ktime_get_mono_fast_ns / timekeeping_update: the fast clock reads its
#   copy of the timekeeper under a latch, as designed (SRCU's worker read
#   it while the tick updated it; CI run of Dec 6)
known='BUG: KCSAN: data-race in ktime_get_mono_fast_ns / timekeeping_update$'
# And a KCSAN report that comes after every test has ended (the guest is
# restarting) and names no function of ours: the kernel racing with
# itself on the way down (native_stop_other_cpus reading the online mask
# while another CPU went offline; CI run of Dec 7).  Its header lines:
late_races() {
	awk '/^reboot: Restarting system/ { down = 1 }
	     down && /^BUG: KCSAN:/ { hdr = $0; blk = ""; inblk = 1; next }
	     inblk { blk = blk "\n" $0 }
	     inblk && /^=+$/ { if (blk !~ /rdma_cc|rcc_|dcqcn/) print hdr; inblk = 0 }' "$1"
}
if [ ! -s "$klog" ]; then
	splats="no kernel log at $klog"
else
	grep -E "$known" "$klog" | sed 's/^/# known kernel-internal race, not ours: /'
	late=$(late_races "$klog")
	[ -n "$late" ] && echo "$late" | sed 's/^/# kernel-internal race during the restart after the tests, not ours: /'
	splats=$( { grep -E "$report" "$klog"
		    sed -n '/KTAP version/,$p' "$klog" | grep -E "$during"; } 2>&1 |
		  grep -vE "$known" | grep -vxF -e "${late:-(none)}")
fi
what="kernel log: no KCSAN, KASAN, UBSAN, lockdep, debug-objects, BUG or WARNING report"
if [ -z "$splats" ]; then
	echo "ok ${pfx}rdma_cc_kernel_log ($what)"
else
	echo "$splats" | head -n 40
	echo "not ok ${pfx}rdma_cc_kernel_log ($what)"
fi

# The figures the stress and hostile-input cases print, for the log.
grep -hoE '(stress|hostile sysfs|smp: [a-z ]+): .*' "$klog" 2>/dev/null || true
table=$(grep -cE '^(\*|dev)'$'\t' "$top/kunit/hostile-writes.txt")
ran=$(grep -oE 'table of [0-9]+ writes' "$klog" 2>/dev/null | grep -oE '[0-9]+' | head -n 1)
if [ -n "$ran" ] && [ "$ran" = "$table" ]; then
	echo "ok ${pfx}rdma_cc_hostile_table_file (kunit/hostile-writes.txt: the $table writes KUnit ran)"
else
	echo "not ok ${pfx}rdma_cc_hostile_table_file (kunit/hostile-writes.txt has $table writes, KUnit ran ${ran:-none})"
fi
