# SPDX-License-Identifier: GPL-2.0
#
# rdma_cc: ECN-based congestion control for RoCE queue pairs.
#
#   make            build rdma_cc.ko (and rdma_cc_hook.ko) and the tools
#   make check      run every test; ends with "N passed, N failed"
#
# Other targets: modules, tools, kunit, kunit-debug, kunit-smp, fuzz, rxe,
# demo, bench, bench-module, bench-scale, install, clean.  KVER=6.1, 6.12
# or 6.12-rt picks a supported kernel; KDIR=... builds against any other
# kernel tree.

SCRIPTS := $(CURDIR)/tools/scripts

.PHONY: all modules tools check kunit kunit-debug kunit-smp fuzz rxe demo \
	bench bench-module bench-scale install clean

all: modules tools

modules:
	@$(SCRIPTS)/build-modules.sh modules

install:
	@$(SCRIPTS)/build-modules.sh modules_install

tools:
	@$(MAKE) --no-print-directory -C tools

check:
	@$(SCRIPTS)/check.sh

kunit:
	@$(SCRIPTS)/kunit.sh

kunit-debug:
	@$(SCRIPTS)/kunit.sh --debug

# KUnit in an x86_64 qemu guest with 4 CPUs, under KCSAN, then under KASAN
kunit-smp:
	@KUNIT_SMP_CONFIGS="$${KUNIT_SMP_CONFIGS:-kcsan kasan}" \
		CHECK_ONLY=33-kunit-smp $(SCRIPTS)/check.sh

# the core's libFuzzer target past 10^7 inputs (make check runs 60,000)
fuzz:
	@FUZZ_RUNS=$${FUZZ_RUNS:-11000000} CHECK_ONLY=15-fuzz $(SCRIPTS)/check.sh

rxe:
	@$(SCRIPTS)/build-rxe.sh

demo:
	@$(CURDIR)/tools/testbed/demo.sh

bench:
	@$(SCRIPTS)/bench.sh

# the module's own cost, measured in a VM (about 10 minutes)
bench-module:
	@$(SCRIPTS)/bench-module.sh

# 1,000 to 100,000 QPs: bytes, create/destroy and debugfs cost per QP, in a VM
bench-scale:
	@$(SCRIPTS)/bench-scale.sh

clean:
	@$(SCRIPTS)/build-modules.sh clean || true
	@$(MAKE) --no-print-directory -C tools clean
