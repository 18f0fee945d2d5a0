#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 33-kunit-smp.sh - rdma_cc's KUnit suites in an x86_64 qemu guest with 4
# CPUs (make kunit-smp; tools/scripts/kunit.sh --smp), twice, as KCSAN and
# KASAN exclude each other: "kcsan" (KCSAN) and "kasan" (KASAN, UBSAN),
# both with PREEMPT, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP and debug objects
# for timers and hrtimers.  Each prints "kunit-smp: N CPUs, sanitizers:
# ...", one line per case and per parameter (prefixed smp-kcsan/ or
# smp-kasan/), one for the guest's kernel log (no KCSAN, KASAN, UBSAN,
# lockdep, debug-objects, BUG or WARNING report) and the figures of the
# stress and SMP cases (tools/check/30-kunit.sh does the work).
# make check runs the KCSAN configuration (KUNIT_SMP_CONFIGS, default
# "kcsan": the KASAN one has not yet been timed against CI's 90 minutes);
# make kunit-smp runs both.
set -u
rc=0
for cfg in ${KUNIT_SMP_CONFIGS:-kcsan}; do
	KUNIT_SMP=$cfg bash "$(dirname "$0")/30-kunit.sh" || rc=1
done
exit $rc
