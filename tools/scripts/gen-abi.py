#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write Documentation/ABI/testing/sysfs-{module,kernel}-rdma_cc from the
parameter list in rdma_cc/param_list.h, and sysfs-module-rdma_cc_dcqcn from
DCQCN's table in rdma_cc/dcqcn.c (names, units, ranges, the mlx5 values)
and the module's descriptions in rdma_cc/dcqcn_main.c, so the ABI text
cannot drift from the code.  --check exits 1 (naming the file) when a
committed file is stale."""
import os
import re
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PARAM = re.compile(r'^RCC_PARAM\(\w+,\s*(\w+),\s*"([^"]*)",\s*(\d+),\s*(\d+),'
                   r'\s*(\d+),\s*"([^"]*)"\)', re.M)


def entries(path, follow):
    src = open(os.path.join(TOP, "rdma_cc", "param_list.h")).read()
    # one line per parameter: join each RCC_PARAM(...)'s continuation lines
    src = re.sub(r"\n\s+", " ", src)
    out = ""
    for name, unit, lo, hi, d, h in PARAM.findall(src):
        if follow:
            extra = ("The value for one RDMA device. Until it is written it "
                     "follows\n\t\tthe global /sys/module/rdma_cc/parameters/"
                     "%s." % name)
        else:
            extra = ("The global value, also settable at load time (insmod "
                     "rdma_cc.ko %s=...)." % name)
        out += ("What:\t\t%s/%s\nDate:\t\tDecember 2026\nKernelVersion:\t6.1\n"
                "Contact:\trdma_cc maintainers\nDescription:\n"
                "\t\t(RW) %s.\n\t\tUnit: %s. Valid: %s .. %s. Default: %s.\n"
                "\t\t%s\n"
                "\t\tA write of anything but plain decimal digits (an optional\n"
                "\t\ttrailing newline allowed) or out of range fails with\n"
                "\t\t-EINVAL and leaves the value unchanged. A change applies\n"
                "\t\tfrom each QP's next run of the loop; the additive step\n"
                "\t\tstays fixed for a running episode.%s\n\n"
                % (path, name, h, unit, lo, hi, d, extra,
                   CALM_PACED if name == "data_rate_mbps" else ""))
    return out


# R below the link's speed paces a QP outside an episode (rdma_cc/qp.c)
CALM_PACED = (" Below the device's link\n"
              "\t\tspeed, a QP outside an episode is paced at R (not left at\n"
              "\t\tline rate); the new value reaches it when its next episode\n"
              "\t\tstarts or ends.")


DCQCN_DESC = re.compile(r'\[(DCQCN_\w+)\]\s*=\s*\{\s*"(\w+)",\s*"([^"]*)",'
                        r'\s*(\w+),\s*(\w+)\s*\}')
DCQCN_PARM = re.compile(r'MODULE_PARM_DESC\((\w+),\s*"([^"]*)"\)')


def dcqcn_entries():
    src = open(os.path.join(TOP, "rdma_cc", "dcqcn.c")).read()
    mod = open(os.path.join(TOP, "rdma_cc", "dcqcn_main.c")).read()
    consts = dict(re.findall(r"#define\s+(\w+)\s+(\d+)", src))
    mlx5 = src[src.index("[DCQCN_PRESET_MLX5] = {"):]
    mlx5 = dict(re.findall(r"\[(DCQCN_\w+)\] = (\d+),",
                           mlx5[:mlx5.index("},")]))
    helps = {n: re.sub(r"\s*\([^()]*range[^()]*\)$", "", h)
             for n, h in DCQCN_PARM.findall(mod)}
    rows = [(n, u, consts.get(lo, lo), consts.get(hi, hi), mlx5[e])
            for e, n, u, lo, hi in DCQCN_DESC.findall(src)]
    mtu = re.search(r"#define DCQCN_MTU_DEFAULT\s+(\d+)", open(os.path.join(
        TOP, "rdma_cc", "dcqcn_mod.h")).read()).group(1)
    rows.append(("mtu", "bytes", "1", "65536", mtu))
    slow_max = re.search(r"#define DCQCN_SLOWDOWN_MAX\s+(\d+)", open(
        os.path.join(TOP, "rdma_cc", "dcqcn.h")).read()).group(1)
    rows.append(("slowdown", "times", "1", slow_max, "1"))
    own = {
        "mtu": "the hook counts packets, this is the bytes\n\t\teach "
               "counts for rpg_byte_reset.",
        "slowdown": "for emulated testbeds, whose links\n\t\tand round "
                    "trips are thousands of times slower than a\n\t\t"
                    "NIC's; 1 on a real fabric.",
    }
    out = ""
    for name, unit, lo, hi, d in rows:
        if name in own:
            what = ("\t\tOur own knob, not mlx5's: %s\n\t\tFor every QP"
                    % own[name])
        else:
            what = ("\t\tDCQCN's knob of the same name and unit as mlx5's\n"
                    "\t\t/sys/class/net/<dev>/ecn/roce_rp/%s (Documentation/"
                    "sim/\n\t\tdcqcn.rst gives the source of every value), "
                    "for every QP" % name)
        out += ("What:\t\t/sys/module/rdma_cc_dcqcn/parameters/%s\n"
                "Date:\t\tDecember 2026\nKernelVersion:\t6.1\n"
                "Contact:\trdma_cc maintainers\nDescription:\n"
                "\t\t(RW) %s.\n\t\tUnit: %s. Valid: %s .. %s. Default: %s%s.\n"
                "%s\n"
                "\t\tunder rdma_cc_dcqcn.ko; also settable at load time\n"
                "\t\t(insmod rdma_cc_dcqcn.ko %s=...).\n"
                "\t\tA write of anything but plain decimal digits (an optional\n"
                "\t\ttrailing newline allowed) or out of range fails with\n"
                "\t\t-EINVAL, logs the valid range and leaves the value\n"
                "\t\tunchanged. A change applies from each QP's next CNP,\n"
                "\t\tpacket or timer; the rates a QP has keep.\n\n"
                % (name, helps[name], unit, lo, hi, d,
                   "" if name in own else " (mlx5's)", what, name))
    return out


def main():
    check = "--check" in sys.argv
    stale = 0
    for fname, path, follow in (
            ("sysfs-module-rdma_cc", "/sys/module/rdma_cc/parameters", False),
            ("sysfs-kernel-rdma_cc", "/sys/kernel/rdma_cc/<device>", True),
            ("sysfs-module-rdma_cc_dcqcn", None, None)):
        f = os.path.join(TOP, "Documentation", "ABI", "testing", fname)
        text = entries(path, follow) if path else dcqcn_entries()
        if check:
            if not os.path.exists(f) or open(f).read() != text:
                print("stale: %s (run tools/scripts/gen-abi.py)" % f)
                stale = 1
        else:
            open(f, "w").write(text)
    return stale


if __name__ == "__main__":
    sys.exit(main())
