# SPDX-License-Identifier: GPL-2.0
#
# sim.mk - the simulator, included by tools/Makefile ("-include sim.mk"):
# rdma-cc-sim runs the very rate_loop.c the module compiles.  Build it with
# "make -C tools sim" (or "make tools", whose "all" includes $(SIM_BINS)).

# Included before the Makefile's own "all": keep "all" the default goal.
.DEFAULT_GOAL := all

SIM_SRCS := sim/main.c sim/options.c sim/net.c sim/topo.c sim/rp.c \
	    sim/eventq.c sim/stats.c
SIM_HDRS := $(wildcard sim/*.h) $(wildcard ../rdma_cc/*.h)
SIM_CORE := ../rdma_cc/rate_loop.c ../rdma_cc/params.c ../rdma_cc/dcqcn.c

SIM_BINS += rdma-cc-sim

.PHONY: sim
sim: rdma-cc-sim

rdma-cc-sim: $(SIM_SRCS) $(SIM_CORE) $(SIM_HDRS)
	$(CC) $(CFLAGS) -I../rdma_cc -Isim -o $@ $(SIM_SRCS) $(SIM_CORE) \
		$(LDFLAGS) -lm

# DCQCN's C-interface test, run by tools/check/12-dcqcn.sh, with both
# arithmetics (dcqcn.h).
DCQCN_DEPS := sim/dcqcn_test.c ../rdma_cc/dcqcn.c ../rdma_cc/dcqcn.h \
	      ../rdma_cc/portable.h
.PHONY: sim-tests
sim-tests: build/dcqcn_test build/dcqcn_test_fixed build/rdma-cc-replay-fixed

build/dcqcn_test: $(DCQCN_DEPS)
	@mkdir -p build
	$(CC) $(CFLAGS) -I../rdma_cc -o $@ sim/dcqcn_test.c ../rdma_cc/dcqcn.c \
		$(LDFLAGS) -lm

build/dcqcn_test_fixed: $(DCQCN_DEPS)
	@mkdir -p build
	$(CC) $(CFLAGS) -DDCQCN_FIXED -I../rdma_cc -o $@ sim/dcqcn_test.c \
		../rdma_cc/dcqcn.c $(LDFLAGS) -lm
