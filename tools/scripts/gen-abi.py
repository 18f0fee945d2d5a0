#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write Documentation/ABI/testing/sysfs-{module,kernel}-rdma_cc from the
parameter table in rdma_cc/params.c, so the ABI text cannot drift from the
code.  --check exits 1 (naming the file) when a committed file is stale."""
import os
import re
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PARAM = re.compile(r'PARAM\(RCC_\w+,\s*(\w+),\s*"([^"]*)",\s*(\d+),\s*(\d+),'
                   r'\s*(\d+),\s*"([^"]*)"\)')


def entries(path, follow):
    src = open(os.path.join(TOP, "rdma_cc", "params.c")).read()
    src = re.sub(r'"\s+"', "", src.replace("\n", " "))
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
                "\t\tstays fixed for a running episode.\n\n"
                % (path, name, h, unit, lo, hi, d, extra))
    return out


def main():
    check = "--check" in sys.argv
    stale = 0
    for fname, path, follow in (
            ("sysfs-module-rdma_cc", "/sys/module/rdma_cc/parameters", False),
            ("sysfs-kernel-rdma_cc", "/sys/kernel/rdma_cc/<device>", True)):
        f = os.path.join(TOP, "Documentation", "ABI", "testing", fname)
        text = entries(path, follow)
        if check:
            if not os.path.exists(f) or open(f).read() != text:
                print("stale: %s (run tools/scripts/gen-abi.py)" % f)
                stale = 1
        else:
            open(f, "w").write(text)
    return stale


if __name__ == "__main__":
    sys.exit(main())
