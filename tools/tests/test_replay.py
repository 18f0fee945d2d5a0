#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests that pin tools/rdma-cc-replay (and so rate_loop.c) to the spec.

One test per rule of Documentation/algorithm.rst, the edge settings, the
source's worked example at 400 Gbit/s, invariants over seeded random traces,
agreement with an independent model (model.py) over random parameters and
traces, and the replay tool's error paths.  Prints "ok NAME" or
"not ok NAME" per test, as tools/scripts/check.sh expects.

    test_replay.py [--replay PATH] [--random N] [-k SUBSTRING]
"""
import argparse
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPLAY = os.path.join(HERE, "..", "rdma-cc-replay")
GBPS = 10**9
HEADER = ("t_ns,half,cnp,pkts,estimate,current_bps,target_bps,recovery,"
          "action,congested")


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def run_replay(opts, trace, expect_status=0):
    args = [REPLAY] + ["--%s=%s" % kv for kv in opts.items()]
    p = subprocess.run(args, input=trace, capture_output=True, text=True)
    if p.returncode != expect_status:
        raise Failure("exit %d (expected %d) for %s: %s" % (
            p.returncode, expect_status, " ".join(args[1:]),
            p.stderr.strip()))
    return p


def replay_rows(opts, trace):
    out = run_replay(opts, trace).stdout.splitlines()
    check(out and out[0] == HEADER, "bad header: %r" % out[:1])
    rows = []
    for line in out[1:]:
        f = line.split(",")
        rows.append(dict(t=int(f[0]), half=f[1], cnp=int(f[2]),
                         pkts=int(f[3]), a=float(f[4]), rc=int(f[5]),
                         rt=int(f[6]), k=int(f[7]), action=f[8],
                         congested=int(f[9])))
    return rows


def trace_text(events):
    lines = []
    for ev in events:
        t, kind = ev[0], ev[1]
        lines.append("%d %s %d" % (t, kind, ev[2]) if kind == "tx"
                     else "%d %s" % (t, kind))
    return "\n".join(lines) + "\n"


def R(opts):
    return opts["data_rate_mbps"] * 10**6


TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


# ---------------------------------------------------------------- the rules

@test
def episode_start_runs_at_once_with_a_reduction():
    o = dict(data_rate_mbps=100000, congestion_probability_weight=64)
    rows = replay_rows(o, "1000 cnp\n1000 end\n")
    check(len(rows) == 1, "one run expected at t0, got %d" % len(rows))
    r = rows[0]
    a = (1 - 64 / 1024) * 1 + 64 / 1024 * 1
    check(r["t"] == 1000 and r["half"] == "reduce", "run 0 is a reduction at t0")
    check(r["cnp"] == 1 and r["pkts"] == 0, "run 0 counts the starting CNP")
    check(abs(r["a"] - a) < 1e-6, "estimate %f, expected %f" % (r["a"], a))
    check(r["action"] == "fr_cut" and r["k"] == 0, "first cut is fr_cut")
    check(r["rt"] == R(o), "target = rate at the start of the episode")
    check(r["rc"] == R(o) // 2, "rc = R * (1 - a/2) = R/2 at a = 1")


@test
def runs_alternate_every_half_interval():
    o = dict(data_rate_mbps=1000, control_interval_ns=10001,
             line_rate_margin_mbps=0)
    rows = replay_rows(o, "500 cnp\n60000 end\n")
    check(len(rows) >= 10, "expected many runs")
    for j, r in enumerate(rows):
        check(r["t"] == 500 + (j * 10001) // 2,
              "run %d at %d, expected t0 + floor(j*T/2)" % (j, r["t"]))
        check(r["half"] == ("reduce" if j % 2 == 0 else "increase"),
              "run %d is %s" % (j, r["half"]))


@test
def no_runs_while_not_congested():
    o = dict(data_rate_mbps=1000)
    rows = replay_rows(o, "0 tx 100\n5000 tx 7\n99999999 end\n")
    check(rows == [], "no CNP, no runs: got %d" % len(rows))


@test
def tx_ignored_while_not_congested():
    o = dict(data_rate_mbps=1000)
    rows = replay_rows(o, "0 tx 100\n10 cnp\n10 end\n")
    check(rows[0]["pkts"] == 0, "packets before the episode must not count")


@test
def estimate_follows_the_moving_average():
    w = 256
    o = dict(data_rate_mbps=1000, congestion_probability_weight=w,
             initial_congestion_estimate=512, control_interval_ns=2000)
    # interval counts: run0 cnp=1 pkts=0; then pkts and CNPs in the window
    tr = ("0 cnp\n100 tx 10\n500 cnp\n1500 tx 30\n1600 cnp\n1700 cnp\n"
          "2500 tx 5\n3100 tx 4\n3200 cnp\n3300 cnp\n3400 cnp\n3500 cnp\n"
          "3600 cnp\n4000 end\n")
    rows = replay_rows(o, tr)
    a = 512 / 1024
    wf = w / 1024
    for r in rows:
        if r["pkts"] > 0:
            f = min(1, r["cnp"] / r["pkts"])
        else:
            f = 1 if r["cnp"] > 0 else 0
        a = (1 - wf) * a + wf * f
        check(abs(r["a"] - a) < 2e-6, "t=%d: a=%f expected %f" %
              (r["t"], r["a"], a))
    fs = [(r["cnp"], r["pkts"]) for r in rows]
    check(fs == [(1, 0), (1, 10), (3, 40), (0, 5), (5, 9)],
          "interval counts %s" % fs)


@test
def counts_cleared_after_reduction_halves_only():
    o = dict(data_rate_mbps=1000, control_interval_ns=2000)
    tr = "0 cnp\n100 tx 3\n1100 tx 4\n1200 cnp\n2100 tx 5\n2200 end\n"
    rows = replay_rows(o, tr)
    # run0 (0): 1/0; run1 (1000): 0/3; run2 (2000): 1/7 (both halves); cleared
    got = [(r["t"], r["cnp"], r["pkts"]) for r in rows]
    check(got == [(0, 1, 0), (1000, 0, 3), (2000, 1, 7)], "got %s" % got)
    rows = replay_rows(o, tr.replace("2200 end", "3000 end"))
    check((rows[3]["cnp"], rows[3]["pkts"]) == (0, 5),
          "counts after run 2 start afresh: %s" % rows[3])


@test
def event_at_a_runs_time_is_applied_before_it():
    o = dict(data_rate_mbps=1000, control_interval_ns=2000)
    rows = replay_rows(o, "0 cnp\n1000 cnp\n1000 tx 2\n2000 cnp\n2000 end\n")
    check([(r["t"], r["cnp"], r["pkts"]) for r in rows] ==
          [(0, 1, 0), (1000, 1, 2), (2000, 2, 2)],
          "ties: %s" % [(r["t"], r["cnp"], r["pkts"]) for r in rows])
    rows = replay_rows(o, "0 cnp\n999 end\n")
    check(len(rows) == 1, "end at 999 excludes the run at 1000")
    rows = replay_rows(o, "0 cnp\n1000 end\n")
    check(len(rows) == 2, "end at 1000 includes the run at 1000")


def fr_episode(o, cnp_intervals):
    """CNPs in the reduction halves of the given intervals (run 2i)."""
    T = o.get("control_interval_ns", 45000)
    lines = ["0 cnp"]
    for i in cnp_intervals:
        lines.append("%d cnp" % (i * T - 1))
    return lines


@test
def fast_recovery_cut_then_fast_recovery_increases():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             fast_recovery_attempt=3, congestion_probability_weight=1024,
             initial_congestion_estimate=1024)
    rows = replay_rows(o, "0 cnp\n20000 end\n")
    Rb = R(o)
    check(rows[0]["rc"] == Rb // 2 and rows[0]["action"] == "fr_cut", "cut")
    rc, k = Rb // 2, 0
    for r in rows[1:7:2]:
        rc = (rc + Rb) // 2
        k += 1
        check(r["action"] == "fr_inc" and r["rc"] == rc and r["k"] == k and
              r["rt"] == Rb, "fr_inc halfway, rt unchanged: %s" % r)
    r = rows[7]
    check(r["action"] == "ai_inc" and r["k"] == 3, "then additive: %s" % r)


@test
def additive_increase_raises_target_by_the_step():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             fast_recovery_attempt=0, congestion_probability_weight=1024,
             line_rate_margin_mbps=1)
    rows = replay_rows(o, "0 cnp\n1999 cnp\n2001 end\n")
    step = R(o) * 10 // 100 // 10
    # run2 at 2000 sees the CNP and k=0 >= F=0: additive cut
    r2 = rows[2]
    check(rows[1]["action"] == "ai_inc", "F=0: first increase is additive")
    check(rows[1]["rt"] == R(o), "rt capped at R: %s" % rows[1])
    check(r2["action"] == "ai_cut", "additive cut: %s" % r2)
    check(r2["rt"] == R(o) - step, "rt -= step: %s" % r2)
    check(r2["rc"] == (rows[1]["rc"] + r2["rt"]) // 2, "rc halfway")
    check(r2["k"] == -1, "k -= 1")


@test
def additive_cut_then_back_in_fast_recovery():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             fast_recovery_attempt=2, congestion_probability_weight=1024,
             line_rate_margin_mbps=1)
    # reach additive phase (two fr_inc), then CNPs in two consecutive
    # reduction halves with no increase between them
    tr = "0 cnp\n5999 cnp\n6500 cnp\n7999 cnp\n9000 end\n"
    rows = replay_rows(o, tr)
    acts = [r["action"] for r in rows]
    check(acts[:6] == ["fr_cut", "fr_inc", "none", "fr_inc", "none",
                       "ai_inc"], "start: %s" % acts)
    check(rows[6]["action"] == "ai_cut" and rows[6]["k"] == 1,
          "first cut after FR is additive, k=F-1: %s" % rows[6])
    check(rows[7]["action"] == "none", "increase half with CNP waits: %s"
          % rows[7])
    check(rows[8]["action"] == "fr_cut" and rows[8]["k"] == 0,
          "k < F again: the next cut is fast recovery: %s" % rows[8])


@test
def additive_cut_below_the_target_raises_the_rate():
    # rc halfway to the lowered target is upward while rc < rt - step:
    # the testbed's settings, a CNP, a quiet increase half, then CNPs
    o = dict(data_rate_mbps=2, control_interval_ns=100000000,
             fast_recovery_attempt=1, initial_target_rate_percent=50,
             number_active_increase_steps=5, line_rate_margin_mbps=0)
    rows = replay_rows(o, "0 cnp\n60000000 cnp\n100000000 cnp\n"
                       "100000001 end\n")
    acts = [r["action"] for r in rows]
    check(acts == ["fr_cut", "fr_inc", "ai_cut"], "actions: %s" % acts)
    check([r["rc"] for r in rows] == [1000000, 1500000, 1650000],
          "rc 1.0, 1.5, then 1.65 Mbit/s after the cut: %s" % rows)
    check(rows[2]["rt"] == 1800000, "rt lowered by the step: %s" % rows[2])


@test
def increase_only_every_n_plus_1_halves_under_cnps():
    N = 3
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             num_control_loops_per_increase=N, minimum_rate_percent=50)
    lines = ["0 cnp"] + ["%d cnp" % (i * 1000 + 500) for i in range(60)]
    lines.append("60000 end")
    rows = replay_rows(o, "\n".join(lines) + "\n")
    inc = [r for r in rows if r["half"] == "increase"]
    made = [i for i, r in enumerate(inc) if r["action"] in ("fr_inc", "ai_inc")]
    check(made[:4] == [N, 2 * N + 1, 3 * N + 2, 4 * N + 3],
          "increases at increase halves %s" % made[:6])


@test
def cnp_free_increase_does_not_reset_the_cnp_half_count():
    N = 2
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             num_control_loops_per_increase=N, minimum_rate_percent=50)
    # increase halves at 1000, 3000, 5000, 7000, 9000: CNP-seen in
    # 1000, 3000 (h=1,2), none at 5000 (increase, h stays 2), 7000 (h=3:
    # increase, h=0)
    tr = "0 cnp\n500 cnp\n2500 cnp\n6500 cnp\n7100 end\n"
    rows = replay_rows(o, tr)
    inc = [(r["t"], r["action"]) for r in rows if r["half"] == "increase"]
    check([a != "none" for t, a in inc] == [False, False, True, True],
          "increase halves: %s" % inc)


@test
def reduction_half_without_cnp_leaves_the_rate():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000)
    rows = replay_rows(o, "0 cnp\n3000 end\n")
    r = rows[2]
    check(r["half"] == "reduce" and r["action"] == "none" and
          r["rc"] == rows[1]["rc"] and r["rt"] == rows[1]["rt"],
          "no CNP, no cut: %s" % r)


@test
def rate_never_below_the_floor():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             minimum_rate_percent=30, congestion_probability_weight=1024,
             fast_recovery_attempt=64)
    lines = ["0 cnp"] + ["%d cnp" % (i * 1000 + 1) for i in range(40)]
    rows = replay_rows(o, "\n".join(lines + ["40000 end"]) + "\n")
    floor = R(o) * 30 // 100
    check(min(r["rc"] for r in rows) == floor, "floor reached and held")
    check(all(r["rc"] >= floor for r in rows), "never below the floor")


@test
def episode_ends_within_the_margin_and_restarts():
    o = dict(data_rate_mbps=1000, control_interval_ns=2000,
             line_rate_margin_mbps=100)
    rows = replay_rows(o, "0 cnp\n1000000 cnp\n1000000 end\n")
    ends = [i for i, r in enumerate(rows) if r["congested"] == 0]
    check(len(ends) == 1, "one end expected before the second CNP")
    e = rows[ends[0]]
    prev = rows[ends[0] - 1]
    check(e["action"] in ("fr_inc", "ai_inc") and e["rc"] == R(o),
          "the end is an increase to line rate: %s" % e)
    check(R(o) - (prev["rc"] + e["rt"]) // 2 <= 100 * 10**6,
          "halfway rate was within the margin")
    check(R(o) - prev["rc"] > 100 * 10**6 or prev["half"] == "reduce",
          "not ended earlier")
    check(rows[ends[0] + 1]["t"] == 1000000 and
          rows[ends[0] + 1]["action"] == "fr_cut",
          "next CNP starts a new episode at once")


# ----------------------------------------------------------- edge settings

@test
def edge_fast_recovery_attempt_zero():
    o = dict(data_rate_mbps=1000, control_interval_ns=2000,
             fast_recovery_attempt=0)
    rows = replay_rows(o, "0 cnp\n3999 cnp\n5999 cnp\n7000 end\n")
    acts = [r["action"] for r in rows]
    check(acts[0] == "fr_cut" and acts[1] == "ai_inc", "F=0: %s" % acts)
    check(acts[4] == "ai_cut" and rows[4]["k"] == -1, "ai cut, k=-1")
    check(acts[6] == "fr_cut" and rows[6]["k"] == 0,
          "k=-1 < F=0: next cut is fast recovery: %s" % acts)


@test
def edge_loops_per_increase_zero():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             num_control_loops_per_increase=0, minimum_rate_percent=50)
    lines = ["0 cnp"] + ["%d cnp" % (i * 1000 + 500) for i in range(20)]
    rows = replay_rows(o, "\n".join(lines + ["20000 end"]) + "\n")
    inc = [r for r in rows if r["half"] == "increase"]
    check(all(r["action"] != "none" for r in inc),
          "N=0: every increase half increases")


@test
def edge_one_increase_step():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             number_active_increase_steps=1, initial_target_rate_percent=0,
             fast_recovery_attempt=0)
    rows = replay_rows(o, "0 cnp\n1999 cnp\n3000 end\n")
    floor = R(o) // 10
    check(rows[2]["action"] == "ai_cut" and rows[2]["rt"] == floor,
          "step = R: an additive cut lands on the floor: %s" % rows[2])


@test
def edge_target_percent_100_step_zero():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             initial_target_rate_percent=100, fast_recovery_attempt=0,
             line_rate_margin_mbps=0)
    rows = replay_rows(o, "0 cnp\n1999 cnp\n9000 end\n")
    check(all(r["rt"] == R(o) for r in rows), "step 0: target never moves")


@test
def edge_minimum_percent_100_pins_the_rate():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000,
             minimum_rate_percent=100, line_rate_margin_mbps=0)
    rows = replay_rows(o, "0 cnp\n1999 cnp\n3000 end\n")
    check(rows[0]["rc"] == R(o), "floor = R: the cut is undone")
    check(rows[1]["congested"] == 0, "first increase ends the episode")


def increases_to_end(o):
    """The spec's bound: increases a calm QP needs at most before its
    episode ends (F + 1 fast recovery, ceil((R - floor) / step) additive,
    45 halvings)."""
    p = dict(model.DEFAULTS)
    p.update(o)
    Rb = R(p)
    floor = Rb * p["minimum_rate_percent"] // 100
    step = Rb * (100 - p["initial_target_rate_percent"]) // (
        100 * p["number_active_increase_steps"])
    ai = 0 if step == 0 else -(-(Rb - floor) // step)
    return p["fast_recovery_attempt"] + 1 + ai + 45


def runs_to_end(o):
    """Runs after the last CNP within which the episode must have ended:
    the half that saw the CNP may not increase, then every increase half
    of a calm stretch increases."""
    return 2 * (increases_to_end(o) + 2)


def check_ends_after_calm(o, rows, last_cnp_t, ctx):
    """After the last CNP the episode ended within the bound, on an
    increase, at line rate, and no run came after it."""
    after = [r for r in rows if r["t"] >= last_cnp_t]
    ends = [i for i, r in enumerate(after) if r["congested"] == 0]
    check(ends, "%s: the episode never ended (%d runs after the last CNP)"
          % (ctx, len(after)))
    i = ends[0]
    check(i + 1 <= runs_to_end(o), "%s: ended after %d runs, bound %d"
          % (ctx, i + 1, runs_to_end(o)))
    check(after[i]["rc"] == R(o) and after[i]["half"] == "increase",
          "%s: ends by an increase at R: %s" % (ctx, after[i]))
    check(i == len(after) - 1, "%s: a run after the episode ended: %s"
          % (ctx, after[i + 1:i + 2]))


@test
def edge_margin_zero_ends_at_line_rate():
    o = dict(data_rate_mbps=1000, control_interval_ns=2000,
             line_rate_margin_mbps=0)
    rows = replay_rows(o, "0 cnp\n2000000 end\n")
    check_ends_after_calm(o, rows, -1, "margin 0 at 1 Gbit/s")
    check(rows[-2]["rc"] < R(o), "the last run before the end is below R")


@test
def edge_margin_zero_one_cnp_at_400g_ends():
    # the case of the contract's 2026-12-03 change: one CNP, 400 Gbit/s
    o = dict(data_rate_mbps=400000, line_rate_margin_mbps=0)
    rows = replay_rows(o, "0 cnp\n1000000000 end\n")
    check_ends_after_calm(o, rows, -1, "margin 0 at 400 Gbit/s")
    check(len(rows) < 200, "ended in %d runs" % len(rows))


@test
def edge_margin_above_line_rate_first_increase_ends():
    o = dict(data_rate_mbps=1000, control_interval_ns=2000,
             line_rate_margin_mbps=10_000_000)
    rows = replay_rows(o, "0 cnp\n500 cnp\n1000 cnp\n9000 end\n")
    # the half at 1000 saw CNPs: no increase, and the reduction at 2000
    # still counts them (only reductions clear the counts); the calm
    # increase at 3000 ends the episode
    check([r["action"] for r in rows] == ["fr_cut", "none", "fr_cut",
                                          "fr_inc"],
          "actions: %s" % [r["action"] for r in rows])
    check(rows[-1]["congested"] == 0 and rows[-1]["rc"] == R(o),
          "ended at R: %s" % rows[-1])


@test
def odd_intervals_run_on_whole_nanoseconds():
    for T in (2001, 2003, 45001, 99_999_999):
        o = dict(data_rate_mbps=100000, control_interval_ns=T,
                 line_rate_margin_mbps=0)
        # CNPs exactly on odd runs' times and one just after
        ev = "7 cnp\n%d cnp\n%d cnp\n%d end\n" % (
            7 + T // 2, 7 + (3 * T) // 2 + 1, 7 + 12 * T)
        rows = replay_rows(o, ev)
        for j, r in enumerate(rows):
            check(r["t"] == 7 + (j * T) // 2, "T=%d run %d at %d, not %d"
                  % (T, j, r["t"], 7 + (j * T) // 2))
        check(rows[1]["cnp"] == 1, "T=%d: a CNP at run 1's time is "
              "counted by run 1" % T)
        check(rows[3]["cnp"] == 0 and rows[4]["cnp"] == 1,
              "T=%d: a CNP 1 ns after run 3 counts in run 4" % T)


@test
def events_exactly_on_run_times():
    o = dict(data_rate_mbps=10000, control_interval_ns=2000)
    # tx and CNP on every run's time: each counts in that very run
    ev = ["0 cnp", "0 tx 3", "0 cnp"]
    for j in range(1, 9):
        ev += ["%d tx %d" % (j * 1000, j), "%d cnp" % (j * 1000)]
    rows = replay_rows(o, "\n".join(ev + ["8000 end"]) + "\n")
    check(rows[0]["cnp"] == 1 and rows[0]["pkts"] == 0,
          "run 0 sees only the CNP that started the episode: %s" % rows[0])
    check(rows[1]["cnp"] == 2 and rows[1]["pkts"] == 4,
          "same-time events after run 0 count in run 1: %s" % rows[1])
    for j in range(2, 9):
        r = rows[j]
        # only reductions clear the counts: a reduction sees its own
        # events and the previous increase's
        # (run 2 also sees the CNP and 3 packets that came at 0, after run 0)
        want = (2, j + j - 1) if j % 2 == 0 else (1, j)
        if j == 2:
            want = (3, 6)
        check((r["cnp"], r["pkts"]) == want and r["t"] == j * 1000,
              "run %d: %s, want cnp,pkts=%s" % (j, r, want))


@test
def each_range_end_matches_the_model_and_ends():
    storm = [(0, "cnp", 0)]
    for i in range(1, 40):
        storm += [(i * 1300, "tx", 7), (i * 1300 + 1, "cnp", 0)]
    for name, (lo, hi) in model.RANGES.items():
        for v in (lo, hi):
            o = dict(data_rate_mbps=100000, control_interval_ns=2000)
            o[name] = v
            if name == "control_interval_ns" and v == hi:
                continue   # covered below with a trace scaled to T
            last = storm[-1][0]
            end = last + (runs_to_end(o) + 4) * o["control_interval_ns"]
            ev = storm + [(end, "end", 0)]
            got = replay_rows(o, trace_text(ev))
            compare_rows(got, model.replay(o, ev), "%s=%d" % (name, v))
            check_ends_after_calm(o, got, last, "%s=%d" % (name, v))
    o = dict(data_rate_mbps=100000, control_interval_ns=100_000_000)
    ev = [(0, "cnp", 0), (50_000_000, "cnp", 0), (10**12, "end", 0)]
    got = replay_rows(o, trace_text(ev))
    compare_rows(got, model.replay(o, ev), "T at its maximum")
    check_ends_after_calm(o, got, 50_000_000, "T at its maximum")


@test
def all_parameters_at_their_ends_end_every_episode():
    rng = random.Random(1203)
    names = list(model.RANGES)
    for case in range(60):
        o = {n: rng.choice(model.RANGES[n]) for n in names}
        o["control_interval_ns"] = rng.choice([2000, 2001, 3333, 45001])
        T = o["control_interval_ns"]
        ev = [(rng.randint(0, T), "cnp", 0)]
        t = ev[0][0]
        for _ in range(rng.randint(1, 60)):
            t += rng.choice([0, T // 2, (T + 1) // 2, T, rng.randint(1, 3 * T)])
            ev.append((t, rng.choice(["cnp", "tx"]), rng.randint(1, 9)))
        last = max([e[0] for e in ev if e[1] == "cnp"])
        ev.append((t + (runs_to_end(o) + 4) * T, "end", 0))
        got = replay_rows(o, trace_text(ev))
        compare_rows(got, model.replay(o, ev), "ends case %d %s" % (case, o))
        check_ends_after_calm(o, got, last, "ends case %d %s" % (case, o))


@test
def long_calm_after_a_storm_ends_the_episode():
    o = dict(data_rate_mbps=400000, line_rate_margin_mbps=0,
             num_control_loops_per_increase=1000)
    ev = [(i * 9000, "cnp", 0) for i in range(3000)]
    last = ev[-1][0]
    ev.append((last + 10**10, "end", 0))
    rows = replay_rows(o, trace_text(ev))
    check_ends_after_calm(o, rows, last, "storm of 3000 CNPs, then calm")


@test
def edge_initial_estimate_zero():
    o = dict(data_rate_mbps=1000, initial_congestion_estimate=0,
             congestion_probability_weight=1)
    rows = replay_rows(o, "0 cnp\n0 end\n")
    a = 1 / 1024
    check(abs(rows[0]["a"] - a) < 1e-6, "a = w after run 0")
    check(rows[0]["rc"] == int(R(o) * (1 - a / 2)) or
          abs(rows[0]["rc"] - R(o) * (1 - a / 2)) <= 2, "tiny cut")


# ------------------------------------------- the source's worked example

def example_400g(lines, end):
    o = dict(data_rate_mbps=400000)
    return o, replay_rows(o, "\n".join(lines + ["%d end" % end]) + "\n")


@test
def worked_example_step_4gbps_and_period():
    o, rows = example_400g(["0 cnp"], 3_000_000)
    check(all(r["t"] == j * 22500 for j, r in enumerate(rows)),
          "loop period 22.5 us")
    ai = [r for r in rows if r["action"] == "ai_inc"]
    check(ai, "additive increases expected")
    prev_rt = 400 * GBPS
    rts = [r["rt"] for r in ai]
    check(rts[0] == 400 * GBPS, "target capped at R")
    _, rows2 = example_400g(
        ["0 cnp"] + ["%d cnp" % (t * 45000 - 100) for t in range(6, 12)],
        2_000_000)
    cuts = [r for r in rows2 if r["action"] == "ai_cut"]
    check(cuts, "additive cuts expected")
    check(cuts[0]["rt"] == prev_rt - 4 * GBPS,
          "additive cut lowers the target by 4 Gbps: %d" % cuts[0]["rt"])
    for prev, r in zip(rows2, rows2[1:]):
        if r["action"] == "ai_inc":
            check(r["rt"] == min(prev["rt"] + 4 * GBPS, 400 * GBPS),
                  "additive increase by 4 Gbps: %s after %s" % (r, prev))
        if r["action"] == "ai_cut":
            check(r["rt"] == max(prev["rt"] - 4 * GBPS, 40 * GBPS),
                  "additive cut by 4 Gbps: %s after %s" % (r, prev))
    check(any(r["action"] == "ai_inc" and r["rt"] < 400 * GBPS
              for r in rows2), "an uncapped additive increase is seen")


@test
def worked_example_floor_40gbps():
    o = dict(data_rate_mbps=400000, congestion_probability_weight=1024)
    lines = ["0 cnp"] + ["%d cnp" % (i * 22500 + 1) for i in range(200)]
    rows = replay_rows(o, "\n".join(lines + ["4500000 end"]) + "\n")
    check(min(r["rc"] for r in rows) == 40 * GBPS, "floor is 40 Gbps")
    check(min(r["rt"] for r in rows) >= 40 * GBPS, "target >= floor")


@test
def worked_example_one_increase_per_270us_under_cnps():
    lines = ["0 cnp"] + ["%d cnp" % (i * 22500 + 7) for i in range(400)]
    o, rows = example_400g(lines, 9_000_000)
    inc_t = [r["t"] for r in rows if r["action"] in ("fr_inc", "ai_inc")]
    check(len(inc_t) >= 10, "increases happen under CNPs")
    gaps = {b - a for a, b in zip(inc_t, inc_t[1:])}
    check(gaps == {270000}, "increase spacing %s, expected 270 us" % gaps)


@test
def worked_example_episode_ends_at_399_9gbps():
    o, rows = example_400g(["0 cnp"], 20_000_000)
    end = [r for r in rows if r["congested"] == 0]
    check(len(end) == 1, "the episode ends")
    i = rows.index(end[0])
    before = [r for r in rows[:i] if r["half"] == "increase"]
    check(all(r["rc"] < 399_900_000_000 for r in before),
          "no earlier increase reached 399.9 Gbps")
    last = rows[i - 1]
    half = (last["rc"] + end[0]["rt"]) // 2
    check(half >= 399_900_000_000, "the ending increase reached %d" % half)
    check(end[0]["rc"] == 400 * GBPS and rows[-1] is end[0],
          "back at line rate, loop stopped")


# ---------------------------------------------------- random traces

def random_params(rng, full=True):
    o = {}
    for name, (lo, hi) in model.RANGES.items():
        choice = rng.random()
        if choice < 0.15:
            v = lo
        elif choice < 0.3:
            v = hi
        else:
            # log-uniform over the range, so small values get their share
            v = int(round(lo + (hi - lo) * rng.random() ** 3))
        o[name] = v
    if not full:
        o["data_rate_mbps"] = rng.choice([1000, 25000, 100000, 400000])
    if o["control_interval_ns"] > 1_000_000 and rng.random() < 0.8:
        o["control_interval_ns"] = rng.randint(2000, 200000)
    if o["line_rate_margin_mbps"] > o["data_rate_mbps"] and rng.random() < 0.7:
        o["line_rate_margin_mbps"] = rng.randint(0, o["data_rate_mbps"])
    return o


def random_trace(rng, T, n=None):
    n = n or rng.randint(5, 200)
    t = rng.randint(0, 3 * T)
    ev = []
    p_cnp = rng.random()
    for _ in range(n):
        t += rng.choice([0, 0, rng.randint(0, T // 2), rng.randint(0, 4 * T),
                         T // 2, T, rng.randint(0, 40 * T)])
        if rng.random() < p_cnp:
            ev.append((t, "cnp", 0))
        else:
            ev.append((t, "tx", rng.choice([1, 2, 10, rng.randint(0, 5000)])))
    ev.append((t + rng.randint(0, 60 * T), "end", 0))
    return ev


def compare_rows(got, want, ctx):
    check(len(got) == len(want), "%s: %d runs, model %d" %
          (ctx, len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        same = (g["t"] == w.t_ns and g["half"] == w.half and
                g["cnp"] == w.cnp and g["pkts"] == w.pkts and
                g["k"] == w.recovery and g["action"] == w.action and
                g["congested"] == w.congested)
        tol = max(4, w.current // 10**7)  # 1e-7 relative
        close = (abs(g["a"] - float(w.estimate)) <= 2e-6 and
                 abs(g["rc"] - w.current) <= tol and
                 abs(g["rt"] - w.target) <= tol)
        check(same and close, "%s: run %d differs:\n#   replay %s\n#   model  %s"
              % (ctx, i, g, w.csv()))


@test
def agrees_with_the_independent_model(count=[300]):
    rng = random.Random(20261202)
    for case in range(count[0]):
        o = random_params(rng)
        ev = random_trace(rng, o["control_interval_ns"])
        want = model.replay(o, ev)
        got = replay_rows(o, trace_text(ev))
        compare_rows(got, want, "case %d %s" % (case, o))


@test
def invariants_hold_on_random_traces(count=[300]):
    rng = random.Random(7)
    for case in range(count[0]):
        o = random_params(rng, full=rng.random() < 0.5)
        Rb = R(o)
        floor = Rb * o["minimum_rate_percent"] // 100
        rows = replay_rows(o, trace_text(random_trace(
            rng, o["control_interval_ns"], rng.randint(50, 400))))
        for r in rows:
            ctx = "case %d %s: %s" % (case, o, r)
            check(floor <= r["rc"] <= Rb, "floor <= rc <= R: " + ctx)
            if r["congested"]:
                check(floor <= r["rt"] <= Rb, "floor <= rt <= R: " + ctx)
            else:
                check(r["rc"] == Rb, "rc = R outside episodes: " + ctx)
            check(0 <= r["a"] <= 1, "0 <= a <= 1: " + ctx)
            check(-1 <= r["k"] <= o["fast_recovery_attempt"], "k bound: " + ctx)


@test
def times_near_the_end_of_the_clock_do_not_wrap():
    o = dict(data_rate_mbps=1000, control_interval_ns=2000)
    top = 2**64 - 1
    rows = replay_rows(o, "%d cnp\n%d end\n" % (top - 1500, top))
    check([r["t"] for r in rows] == [top - 1500, top - 500],
          "runs past 2^64 - 1 never come: %s" % [r["t"] for r in rows])


@test
def extreme_rates_do_not_overflow():
    for o in (dict(data_rate_mbps=10_000_000, minimum_rate_percent=1,
                   number_active_increase_steps=1,
                   initial_target_rate_percent=0, fast_recovery_attempt=0,
                   line_rate_margin_mbps=0, control_interval_ns=2000),
              dict(data_rate_mbps=1, minimum_rate_percent=1,
                   number_active_increase_steps=1000,
                   control_interval_ns=100_000_000)):
        ev = [(0, "cnp", 0), (1, "tx", 2**63), (1, "tx", 5),
              (10, "cnp", 0)]
        ev += [(i * 1000 + 20, "cnp", 0) for i in range(30)]
        ev.append((60000, "end", 0))
        got = replay_rows(o, trace_text(ev))
        compare_rows(got, model.replay(o, ev), "extreme %s" % o)


# ------------------------------------------------------- error paths

def expect_error(opts_args, trace, *needles):
    # errors=: a bad value's bytes are echoed in the message as they came
    p = subprocess.run([REPLAY] + opts_args, input=trace,
                       capture_output=True, text=True,
                       errors="surrogateescape")
    check(p.returncode == 2, "%s: exit %d, expected 2" % (opts_args,
                                                          p.returncode))
    check(p.stdout == "", "%s: no output on error, got %r" %
          (opts_args, p.stdout[:80]))
    for n in needles:
        check(n in p.stderr, "%s: %r not in message %r" %
              (opts_args, n, p.stderr))


@test
def error_missing_data_rate():
    expect_error([], "0 cnp\n", "data_rate_mbps", "required")


@test
def error_unknown_and_malformed_options():
    expect_error(["--data_rate_mbps=1000", "--no_such=1"], "", "no_such")
    expect_error(["--data_rate_mbps=1000", "control_interval_ns=5000"], "",
                 "control_interval_ns")
    expect_error(["--data_rate_mbps=1000", "--control_interval_ns"], "",
                 "--NAME=VALUE")
    for bad in ("", "-1", "+5", "0x10", "1e3", " 5", "5 ", "12abc",
                "99999999999999999999"):
        expect_error(["--data_rate_mbps=1000",
                      "--control_interval_ns=" + bad], "",
                     "control_interval_ns", "2000 .. 100000000")


HOSTILE = os.path.join(HERE, "..", "..", "kunit", "hostile-writes.txt")


def hostile_unescape(m):
    g = m.group(1)
    return {b"n": b"\n", b"t": b"\t", b"\\": b"\\"}.get(g) or bytes([int(g[1:], 16)])


def hostile_rows():
    """(where, value) of every row of the one table of bad values (its
    header gives the format): where is "*", "dev" or an option's name,
    value the row's bytes (printf %b escapes decoded) as a str that
    subprocess passes back as those bytes."""
    rows = []
    with open(HOSTILE, "rb") as f:
        for line in f.read().split(b"\n"):
            if not line or line.startswith(b"#"):
                continue
            where, _, esc = line.partition(b"\t")
            val = re.sub(rb"\\(x[0-9a-fA-F]{2}|n|t|\\)", hostile_unescape, esc)
            rows.append((where.decode(), os.fsdecode(val)))
    return rows


@test
def error_every_value_of_the_hostile_table():
    # The same file KUnit and the VM test write to sysfs.  "dev" rows hold
    # a NUL, which a command line cannot carry.
    rows = hostile_rows()
    check(len(rows) > 50, "only %d rows in %s" % (len(rows), HOSTILE))
    tried = 0
    for where, val in rows:
        if where == "dev":
            check("\0" in val, "a dev row without a NUL: %r" % val)
            continue
        names = list(model.RANGES) if where == "*" else [where]
        for name in names:
            check(name in model.RANGES, "no option %r" % name)
            base = [] if name == "data_rate_mbps" else ["--data_rate_mbps=1000"]
            expect_error(base + ["--%s=%s" % (name, val)], "", name)
            tried += 1
    check(tried > 400, "only %d bad options tried" % tried)


@test
def error_every_option_one_past_its_range():
    for name, (lo, hi) in model.RANGES.items():
        base = [] if name == "data_rate_mbps" else ["--data_rate_mbps=1000"]
        expect_error(base + ["--%s=%d" % (name, hi + 1)], "", name,
                     "%d .. %d" % (lo, hi), "out of range")
        if lo > 0:
            expect_error(base + ["--%s=%d" % (name, lo - 1)], "", name,
                         "%d .. %d" % (lo, hi))
        # and the bounds themselves are accepted
        for v in (lo, hi):
            run_replay(dict([("data_rate_mbps", 1000)] + [(name, v)]),
                       "0 cnp\n0 end\n")


@test
def error_malformed_lines_name_their_line():
    good = "# comment\n\n0 cnp\n"
    for bad in ("10 cnp 3", "10 tx", "10 tx -1", "10 tx x", "x cnp",
                "-5 cnp", "10 ack", "10", "10 tx 1 2", "10 end now",
                "1.5 cnp", "10 CNP", "99999999999999999999999 cnp"):
        expect_error(["--data_rate_mbps=1000"], good + bad + "\n",
                     "line 4", "malformed")


@test
def error_time_going_backwards():
    expect_error(["--data_rate_mbps=1000"], "100 cnp\n50 tx 1\n",
                 "line 2", "before")


@test
def trace_syntax_comments_blank_and_whitespace():
    o = dict(data_rate_mbps=1000)
    a = replay_rows(o, "0 cnp\n100 tx 5\n90000 end\n")
    b = replay_rows(o, "# header\n\n  0\tcnp  # first\n\n100   tx 5\r\n"
                       "90000 end # stop\n200000 cnp\n")
    check(a == b, "comments, blanks, tabs, CRLF, lines after end")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--replay", default=REPLAY)
    ap.add_argument("--random", type=int, default=300)
    ap.add_argument("-k", default="")
    args = ap.parse_args()
    globals()["REPLAY"] = args.replay
    agrees_with_the_independent_model.__defaults__[0][0] = args.random
    invariants_hold_on_random_traces.__defaults__[0][0] = args.random
    failed = 0
    for fn in TESTS:
        if args.k not in fn.__name__:
            continue
        try:
            fn()
            print("ok core/%s" % fn.__name__)
        except Failure as e:
            failed += 1
            print("not ok core/%s" % fn.__name__)
            for line in str(e).splitlines():
                print("#   " + line)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
