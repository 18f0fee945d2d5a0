# SPDX-License-Identifier: GPL-2.0
"""An independent model of DCQCN's hpcc and paper presets.

Written from the replay contract's text (the HPCC paper's ns-3 DCQCN), not
from tools/sim/dcqcn.c, and shaped differently: an ns-3-like scheduler (a
heap of (time, arming order) entries, cancelled by a token) drives callbacks
the way the ns-3 code does, where the C keeps three timer slots.

    events(trace, rate_mbps, preset="hpcc", **overrides) -> list of rows
    row = (t_ns, event, current_bps, target_bps, alpha_6_decimals)
"""
import heapq
import itertools

PRESETS = {
    # run.py "dcqcn": alpha 1 us, decrease 4 us, increase timer 300 us
    "hpcc": dict(alpha_us=1, dec_us=4, inc_us=300),
    # run.py "dcqcn_paper": 50 us, 50 us, 55 us
    "paper": dict(alpha_us=50, dec_us=50, inc_us=55),
}


class Scheduler:
    def __init__(self):
        self.heap = []
        self.order = itertools.count()

    def at(self, t, fn):
        entry = [t, next(self.order), fn, True]
        heapq.heappush(self.heap, entry)
        return entry

    @staticmethod
    def cancel(entry):
        if entry is not None:
            entry[3] = False

    def run(self, limit, inclusive):
        while self.heap:
            t, _, fn, live = self.heap[0]
            if t > limit or (t == limit and not inclusive):
                return
            heapq.heappop(self.heap)
            if live:
                fn(t)


class Qp:
    def __init__(self, rate_mbps, preset, threshold=1, min_rate_mbps=1000,
                 ai_mbps=None, hai_mbps=None, clamp=False, **timing):
        t = dict(PRESETS[preset])
        t.update(timing)
        self.alpha_ns = t["alpha_us"] * 1000
        self.dec_ns = t["dec_us"] * 1000
        self.inc_ns = t["inc_us"] * 1000
        self.R = rate_mbps * 10**6
        # AI = 5 x (R / 25 Gbit/s) Mbit/s, HAI = 50 x (R / 25 Gbit/s)
        self.ai = ai_mbps * 10**6 if ai_mbps else 5 * 10**6 * self.R // (25 * 10**9)
        self.hai = hai_mbps * 10**6 if hai_mbps else 50 * 10**6 * self.R // (25 * 10**9)
        self.g = 1 / 256
        self.F = threshold
        self.min_rate = min_rate_mbps * 10**6
        self.clamp = clamp
        self.rc = self.R
        self.rt = self.R
        self.alpha = 1.0
        self.first = True
        self.stage = 0
        self.alpha_flag = False
        self.dec_flag = False
        self.inc_timer = None
        self.sched = Scheduler()
        self.rows = []

    def emit(self, t, name):
        self.rows.append((t, name, self.rc, self.rt, "%.6f" % self.alpha))

    def cnp(self, t):
        self.alpha_flag = True
        self.dec_flag = True
        if self.first:
            self.first = False
            self.alpha = 1.0
            self.alpha_flag = False
            self.sched.at(t + self.alpha_ns, self.alpha_update)
            self.sched.at(t + 1 + self.dec_ns, self.decrease_check)
            self.emit(t, "first_cnp")

    def alpha_update(self, t):
        if self.alpha_flag:
            self.alpha = (1 - self.g) * self.alpha + self.g
        else:
            self.alpha = (1 - self.g) * self.alpha
        self.alpha_flag = False
        self.sched.at(t + self.alpha_ns, self.alpha_update)

    def decrease_check(self, t):
        self.sched.at(t + self.dec_ns, self.decrease_check)
        if not self.dec_flag:
            return
        if self.clamp or self.stage != 0:
            self.rt = self.rc
        self.rc = max(self.min_rate, int(self.rc * (1 - self.alpha / 2)))
        self.stage = 0
        self.dec_flag = False
        Scheduler.cancel(self.inc_timer)
        self.inc_timer = self.sched.at(t + self.inc_ns, self.increase)
        self.emit(t, "cut")

    def increase(self, t):
        self.inc_timer = self.sched.at(t + self.inc_ns, self.increase)
        if self.stage < self.F:
            name = "fast_recovery"
        elif self.stage == self.F:
            name = "active_increase"
            self.rt = min(self.rt + self.ai, self.R)
        else:
            name = "hyper_increase"
            self.rt = min(self.rt + self.hai, self.R)
        self.rc = self.rc // 2 + self.rt // 2
        self.stage += 1
        self.emit(t, name)


def events(trace, rate_mbps, preset="hpcc", **overrides):
    """trace: list of (t_ns, "cnp"|"tx"|"end") in time order."""
    qp = Qp(rate_mbps, preset, **overrides)
    last = None
    for t, kind in trace:
        qp.sched.run(t, inclusive=False)
        if kind == "cnp":
            qp.cnp(t)
        last = t
        if kind == "end":
            break
    if last is not None:
        qp.sched.run(last, inclusive=True)
    return qp.rows
