#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DCQCN's reaction point (tools/sim/dcqcn.c): its presets against their
# cited values, each rule against a hand-computed timeline through
# rdma-cc-replay --cc=dcqcn, an independent model of the hpcc and paper
# presets over random traces, the error paths.  DCQCN_RANDOM sets the
# random case count.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/tools/scripts/deps.sh" base || exit 1
make --no-print-directory -s -C "$top/tools" rdma-cc-replay sim-tests || exit 1
"$top/tools/build/dcqcn_test" || echo "not ok dcqcn/dcqcn_test: exit status $?"
python3 "$top/tools/tests/test_dcqcn.py" --random "${DCQCN_RANDOM:-1000}"
exit 0
