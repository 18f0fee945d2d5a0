/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcqcn.h - DCQCN's reaction point (Zhu et al., "Congestion Control for
 * Large-Scale RDMA Deployments", SIGCOMM 2015), one machine compiled into
 * rdma_cc_dcqcn.ko, KUnit, the simulator and the replay tool (as
 * rate_loop.c is), with named presets:
 *
 *   mlx5   ConnectX firmware as mlx5 documents its knobs (the default);
 *   hpcc   the "Mellanox's version of DCQCN" of the HPCC paper's ns-3 code
 *          (alibaba-edu/High-Precision-Congestion-Control, rdma-hw.cc) with
 *          the values its run.py gives "dcqcn";
 *   paper  the same code with run.py's "dcqcn_paper" timing.
 *
 * Every knob is named as mlx5's /sys/class/net/<dev>/ecn/roce_rp/ file and
 * taken in that file's unit; a preset is a table of such values, and
 * "--dcqcn-NAME=V" overrides one of them whatever the preset.  Each value,
 * its unit and its source: Documentation/sim/dcqcn.rst.
 */
#ifndef RDMA_CC_DCQCN_H
#define RDMA_CC_DCQCN_H

#include "portable.h"

/*
 * The numbers of alpha and of a cut's factor (fractions 0 .. 1).  User
 * space computes them in doubles, as the HPCC ns-3 code does, so that the
 * hpcc and paper presets follow it to the last bit; the kernel has no
 * floating point and uses fixed point: a u64 in units of 2^-62, at least
 * as fine as a double near 1, every product truncated.  The two agree to
 * within a bit/s or two of a rate and 1e-6 of alpha (tools/check/12-dcqcn.sh
 * builds the tools both ways and compares them over random traces);
 * Documentation/sim/dcqcn.rst says why they cannot be equal.  -DDCQCN_FIXED
 * selects the kernel's arithmetic in user space.
 */
#if defined(__KERNEL__) || defined(DCQCN_FIXED)
#define DCQCN_FIXED_POINT	1
#define DCQCN_FRAC_SHIFT	62
#define DCQCN_FRAC_ONE		BIT_ULL(DCQCN_FRAC_SHIFT)
#define dcqcn_frac		u64
#else
#define DCQCN_FIXED_POINT	0
#define dcqcn_frac		double
#endif

#ifndef __KERNEL__
/* A fraction as a double, for printing. */
static inline double dcqcn_frac_double(dcqcn_frac x)
{
#if DCQCN_FIXED_POINT
	return (double)x / (double)DCQCN_FRAC_ONE;
#else
	return x;
#endif
}
#endif

/* A fraction in millionths, truncated (for the kernel's debugfs). */
u64 dcqcn_frac_micro(dcqcn_frac x);

#define DCQCN_NEVER	(~0ULL)

enum dcqcn_preset {
	DCQCN_PRESET_MLX5,
	DCQCN_PRESET_PAPER,
	DCQCN_PRESET_HPCC,
	DCQCN_NR_PRESETS
};

enum dcqcn_param {
	DCQCN_TIME_RESET,
	DCQCN_BYTE_RESET,
	DCQCN_THRESHOLD,
	DCQCN_AI_RATE,
	DCQCN_HAI_RATE,
	DCQCN_GD,
	DCQCN_MIN_DEC_FAC,
	DCQCN_MIN_RATE,
	DCQCN_RATE_ON_FIRST_CNP,
	DCQCN_TCP_G,
	DCQCN_TCP_RTT,
	DCQCN_MONITOR_PERIOD,
	DCQCN_INITIAL_ALPHA,
	DCQCN_CLAMP_TGT,
	DCQCN_CLAMP_TGT_AFTER_TIME_INC,
	DCQCN_NR_PARAMS
};

struct dcqcn_param_desc {
	const char *name;	/* the mlx5 sysfs name */
	const char *unit;
	u32 min, max;
};

extern const struct dcqcn_param_desc dcqcn_param_descs[DCQCN_NR_PARAMS];
extern const char * const dcqcn_preset_names[DCQCN_NR_PRESETS];

/* The machine's settings in its own units, from dcqcn_resolve(). */
struct dcqcn_cfg {
	u64 line_bps;		/* R */
	u64 alpha_ns;		/* alpha update period */
	u64 dec_ns;		/* rate-decrease check period */
	u64 inc_ns;		/* rate-increase timer */
	u64 byte_reset;		/* bytes per byte-counter event; 0: none */
	u32 threshold;		/* F */
	u64 ai_bps, hai_bps;
	u64 min_bps;		/* floor of a cut */
	u64 first_bps;		/* rc = rt on the first CNP; 0: unchanged */
	u32 g;			/* dce_tcp_g, 1/1024 */
	dcqcn_frac g_keep, g_add; /* alpha = g_keep alpha + g_add [CNP came] */
	dcqcn_frac alpha0;	/* alpha on the first CNP */
	u32 gd;			/* a cut is 1 - alpha 1024 / 2^gd */
	dcqcn_frac min_factor;	/* a cut keeps at least this fraction of rc */
	bool clamp;		/* every cut sets rt = rc */
	bool clamp_after_time_inc; /* ... if the timer raised the rate */
	bool release;		/* free the limiter when back at R */
};

/*
 * The slow-down of an emulated fabric: with @slowdown N the machine runs as
 * on a fabric N times slower than the device and the knobs say: the line
 * rate and every rate knob divided by N, every period multiplied by N,
 * byte counts unchanged (at 1/N of the rate, the same bytes take N times
 * as long, as the periods do).  1, the default, is the fabric as it is;
 * only a testbed of emulated hosts sets it (Documentation/testbed.rst).
 */
#define DCQCN_SLOWDOWN_MAX	1000000

struct dcqcn_params {
	enum dcqcn_preset preset;
	u32 v[DCQCN_NR_PARAMS];	/* the preset's values, or overrides */
	u32 overridden;		/* bit i: v[i] came from --dcqcn-NAME */
	u32 slowdown;		/* 1 .. DCQCN_SLOWDOWN_MAX; 1 by default */
	struct dcqcn_cfg cfg;	/* valid after dcqcn_resolve() */
};

void dcqcn_params_default(struct dcqcn_params *p);
u32 dcqcn_preset_value(enum dcqcn_preset k, enum dcqcn_param id);
int dcqcn_param_lookup(const char *name);
/* A plain decimal number of at most @max, nothing around it: 0 or -1. */
int dcqcn_parse_u32(const char *s, u32 max, u32 *out);
/*
 * Apply "NAME=VALUE" (NAME "preset" or a knob): 0 on success, -ENOENT for
 * an unknown NAME, -EINVAL with @err naming the valid range otherwise.
 */
int dcqcn_param_parse(struct dcqcn_params *p, const char *name,
		      const char *value, char *err, size_t errlen);
/*
 * Fill p->cfg for a sender whose device's line rate is @line_bps (R is
 * @line_bps / p->slowdown, at least 1 bit/s when @line_bps is not 0).
 */
void dcqcn_resolve(struct dcqcn_params *p, u64 line_bps);

enum dcqcn_event_kind {
	DCQCN_EV_FIRST_CNP,
	DCQCN_EV_CUT,
	DCQCN_EV_FAST_RECOVERY,
	DCQCN_EV_ACTIVE_INCREASE,
	DCQCN_EV_HYPER_INCREASE,
};

const char *dcqcn_event_name(enum dcqcn_event_kind kind);

struct dcqcn_event {
	u64 t_ns;
	enum dcqcn_event_kind kind;
	u64 rc, rt;		/* after the event */
	dcqcn_frac alpha;
};

/* Where a QP's rate events go (the replay prints them); NULL: nowhere. */
struct dcqcn_sink {
	void (*event)(void *ctx, const struct dcqcn_event *ev);
	void *ctx;
};

enum { DCQCN_T_ALPHA, DCQCN_T_DEC, DCQCN_T_INC, DCQCN_NR_TIMERS };

/* One QP's reaction point. */
struct dcqcn_qp {
	u64 rc, rt;		/* current and target rate, bit/s */
	dcqcn_frac alpha;
	bool limited;		/* a CNP came: the rate limiter is on */
	bool alpha_cnp, dec_cnp; /* "a CNP arrived" for alpha, decrease */
	bool increasing;	/* a cut armed the timer and byte counter */
	u32 t_stage, b_stage;	/* timer and byte-counter events since a cut */
	u64 bytes;		/* sent since the last byte-counter event */
	u64 due[DCQCN_NR_TIMERS];	/* ns, DCQCN_NEVER when not armed */
	u64 armed[DCQCN_NR_TIMERS];	/* arming order: ties go by it */
	u64 arms;
};

void dcqcn_init(struct dcqcn_qp *q, const struct dcqcn_cfg *c);
void dcqcn_cnp(struct dcqcn_qp *q, const struct dcqcn_cfg *c, u64 now_ns,
	       const struct dcqcn_sink *sink);
void dcqcn_tx(struct dcqcn_qp *q, const struct dcqcn_cfg *c, u64 bytes,
	      u64 now_ns, const struct dcqcn_sink *sink);
/* Run the timers due before @t_ns (and at it if @inclusive), in order. */
void dcqcn_run(struct dcqcn_qp *q, const struct dcqcn_cfg *c, u64 t_ns,
	       bool inclusive, const struct dcqcn_sink *sink);
u64 dcqcn_next_ns(const struct dcqcn_qp *q);
/*
 * The earliest time a timer may change rc or rt: the increase timer, or
 * the decrease check if a CNP came since the last cut (the alpha update
 * changes neither, so a kernel timer need not wake for it: dcqcn_run()
 * catches up the alpha updates, in order, when it runs later).
 */
u64 dcqcn_next_change_ns(const struct dcqcn_qp *q);

#endif /* RDMA_CC_DCQCN_H */
