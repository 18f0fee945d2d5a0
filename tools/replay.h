/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - the replay tool's trace and its reader (replay.c), shared by
 * the reaction points it can replay (replay.c: rdma_cc; replay_dcqcn.c:
 * DCQCN).
 */
#ifndef RDMA_CC_TOOLS_REPLAY_H
#define RDMA_CC_TOOLS_REPLAY_H

#include <stdio.h>

#include "compiler.h"
#include "portable.h"

#define EXIT_USAGE 2

enum event_kind { EV_CNP, EV_TX, EV_END };

struct event {
	u64 t_ns;
	u64 npkts;
	enum event_kind kind;
};

struct trace {
	struct event *ev;
	size_t len;
	size_t cap;
};

/* Print "rdma-cc-replay: MESSAGE" on stderr and exit with EXIT_USAGE. */
__noreturn __printf(1, 2) void fail(const char *fmt, ...);
/* Read and check the whole trace; a bad line is fail()ed by number. */
void read_trace(FILE *in, struct trace *tr);

/* replay_dcqcn.c: true if the arguments pick --cc=dcqcn (fails a bad --cc) */
bool replay_cc_is_dcqcn(int argc, char **argv);
int replay_dcqcn_main(int argc, char **argv);

#endif /* RDMA_CC_TOOLS_REPLAY_H */
