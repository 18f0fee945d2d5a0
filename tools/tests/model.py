# SPDX-License-Identifier: GPL-2.0
"""An independent model of the rate loop (Documentation/algorithm.rst).

Written from the spec's text alone, in a different shape from rate_loop.c:
exact rational arithmetic for the estimate (fractions.Fraction), run times
t0 + floor(j*T/2) computed from j directly (not by adding gaps), and the
event/run ordering decided by comparing those.  The tests compare rdma-cc-replay's CSV with it.
"""
from fractions import Fraction
import math

DEFAULTS = dict(
    data_rate_mbps=0, control_interval_ns=45000,
    congestion_probability_weight=4, initial_congestion_estimate=1024,
    fast_recovery_attempt=5, num_control_loops_per_increase=5,
    initial_target_rate_percent=90, number_active_increase_steps=10,
    minimum_rate_percent=10, line_rate_margin_mbps=100)

RANGES = dict(
    data_rate_mbps=(1, 10_000_000), control_interval_ns=(2000, 100_000_000),
    congestion_probability_weight=(1, 1024),
    initial_congestion_estimate=(0, 1024), fast_recovery_attempt=(0, 64),
    num_control_loops_per_increase=(0, 1000),
    initial_target_rate_percent=(0, 100),
    number_active_increase_steps=(1, 1000), minimum_rate_percent=(1, 100),
    line_rate_margin_mbps=(0, 10_000_000))


class Row:
    __slots__ = ("t_ns", "half", "cnp", "pkts", "estimate", "current",
                 "target", "recovery", "action", "congested")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)

    def csv(self):
        return "%d,%s,%d,%d,%.6f,%d,%d,%d,%s,%d" % (
            self.t_ns, self.half, self.cnp, self.pkts, float(self.estimate),
            self.current, self.target, self.recovery, self.action,
            self.congested)


class Model:
    def __init__(self, params):
        p = dict(DEFAULTS)
        p.update(params)
        self.R = p["data_rate_mbps"] * 10**6
        self.T = p["control_interval_ns"]
        self.w = Fraction(p["congestion_probability_weight"], 1024)
        self.a0 = Fraction(p["initial_congestion_estimate"], 1024)
        self.F = p["fast_recovery_attempt"]
        self.N = p["num_control_loops_per_increase"]
        self.P = Fraction(p["initial_target_rate_percent"], 100)
        self.S = p["number_active_increase_steps"]
        self.M = Fraction(p["minimum_rate_percent"], 100)
        self.E = p["line_rate_margin_mbps"] * 10**6
        self.floor = math.floor(self.M * self.R)
        self.congested = False
        self.rc = self.R
        self.rows = []

    def run_time(self, j):
        return self.t0 + (j * self.T) // 2

    def cnp(self, t):
        if self.congested:
            self.cnt_cnp += 1
            return
        self.congested = True
        self.t0 = t
        self.rt = self.rc
        self.step = math.floor(self.rt * (1 - self.P) / self.S)
        self.a = self.a0
        self.k = 0
        self.h = 0
        self.cnt_cnp = 1
        self.cnt_pkts = 0
        self.j = 0
        self.run()

    def tx(self, n):
        if self.congested:
            self.cnt_pkts += n

    def halfway(self):
        # rounded toward the target: up when rising, down when falling
        s = self.rc + self.rt
        self.rc = -(-s // 2) if self.rt > self.rc else s // 2

    def increase(self):
        if self.k < self.F:
            self.halfway()
            self.k += 1
            return "fr_inc"
        self.rt = min(self.rt + self.step, self.R)
        self.halfway()
        return "ai_inc"

    def run(self):
        cnp, pkts = self.cnt_cnp, self.cnt_pkts
        if pkts > 0:
            f = min(Fraction(1), Fraction(cnp, pkts))
        else:
            f = Fraction(1 if cnp > 0 else 0)
        self.a = (1 - self.w) * self.a + self.w * f
        # keep the denominators small: 2^-64 is far finer than the core's
        self.a = Fraction(round(self.a * 2**64), 2**64)
        action = "none"
        if self.j % 2 == 0:
            half = "reduce"
            if cnp >= 1:
                if self.j == 0 or self.k < self.F:
                    self.rc = math.floor(self.rc * (1 - self.a / 2))
                    self.k = 0
                    action = "fr_cut"
                else:
                    self.rt = max(self.rt - self.step, self.floor)
                    self.halfway()
                    self.k -= 1
                    action = "ai_cut"
                self.rc = max(self.rc, self.floor)
            self.cnt_cnp = 0
            self.cnt_pkts = 0
        else:
            half = "increase"
            if cnp == 0:
                action = self.increase()
            else:
                self.h += 1
                if self.h >= self.N + 1:
                    action = self.increase()
                    self.h = 0
            if action != "none" and self.R - self.rc <= self.E:
                self.rc = self.R
                self.congested = False
        self.rows.append(Row(
            t_ns=self.run_time(self.j), half=half, cnp=cnp,
            pkts=pkts, estimate=self.a, current=self.rc, target=self.rt,
            recovery=self.k, action=action, congested=int(self.congested)))
        self.j += 1

    def runs_before(self, t, inclusive):
        while self.congested:
            rt = self.run_time(self.j)
            if rt < t or (inclusive and rt == t):
                self.run()
            else:
                break


def replay(params, events):
    """events: list of (t, kind, n).  Returns the model's rows."""
    m = Model(params)
    last = None
    for t, kind, n in events:
        m.runs_before(t, inclusive=False)
        last = t
        if kind == "cnp":
            m.cnp(t)
        elif kind == "tx":
            m.tx(n)
        elif kind == "end":
            break
    if last is not None:
        m.runs_before(last, inclusive=True)
    return m.rows
