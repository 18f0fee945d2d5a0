/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - rdma_cc's tracepoints: rdma_cc:run, rdma_cc:episode_start and
 * rdma_cc:episode_end of one class, and rdma_cc:cnp (trace-cmd record -e
 * rdma_cc, perf record -e 'rdma_cc:*'; tools/rdma-cc-plot draws them).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdma_cc

#if !defined(RDMA_CC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RDMA_CC_TRACE_H

#include <linux/tracepoint.h>

#include "compat.h"
#include "rate_loop.h"

TRACE_EVENT(run,
	    TP_PROTO(const char *dev, u32 qpn, const struct rcc_report *rep,
		     u64 late_ns),
	    TP_ARGS(dev, qpn, rep, late_ns),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(u32, qpn)
			     __field(u64, t_ns)
			     __field(u64, late_ns)
			     __field(u64, pkts)
			     __field(u64, current_bps)
			     __field(u64, target_bps)
			     __field(u32, cnp)
			     __field(u32, estimate)
			     __field(s32, recovery)
			     __field(u8, half)
			     __field(u8, action)
			     __field(bool, floor_hit)
			     __field(bool, congested)),
	    TP_fast_assign(rcc_assign_str(dev, dev);
			   __entry->qpn = qpn;
			   __entry->t_ns = rep->t_ns;
			   __entry->late_ns = late_ns;
			   __entry->pkts = rep->pkts;
			   __entry->current_bps = rep->current_bps;
			   __entry->target_bps = rep->target_bps;
			   __entry->cnp = rep->cnp;
			   __entry->estimate = rep->estimate;
			   __entry->recovery = rep->recovery;
			   __entry->half = rep->half;
			   __entry->action = rep->action;
			   __entry->floor_hit = rep->floor_hit;
			   __entry->congested = rep->congested;),
	    TP_printk("%s qp %u t %llu late %llu %s cnp %u pkts %llu est %u/2^31 rc %llu rt %llu k %d %s%s%s",
		      __get_str(dev), __entry->qpn, __entry->t_ns, __entry->late_ns,
		      __entry->half == RCC_HALF_REDUCE ? "reduce" : "increase",
		      __entry->cnp, __entry->pkts, __entry->estimate,
		      __entry->current_bps, __entry->target_bps,
		      __entry->recovery,
		      __print_symbolic(__entry->action,
				       { RCC_ACT_NONE, "none" },
				       { RCC_ACT_FR_CUT, "fr_cut" },
				       { RCC_ACT_AI_CUT, "ai_cut" },
				       { RCC_ACT_FR_INC, "fr_inc" },
				       { RCC_ACT_AI_INC, "ai_inc" }),
		      __entry->floor_hit ? " floor" : "",
		      __entry->congested ? "" : " end")
);

/*
 * An episode's start and end share their fields: the QP, the time, the
 * episode's line rate and step; the end adds its duration and whether it
 * recovered (or a detach cut it short).  One class; the end has its own
 * format.
 */
DECLARE_EVENT_CLASS(rcc_episode,
		    TP_PROTO(const char *dev, u32 qpn, u64 t_ns, u64 line_rate_bps,
			     u64 step_bps, u64 duration_ns, bool recovered),
		    TP_ARGS(dev, qpn, t_ns, line_rate_bps, step_bps, duration_ns,
			    recovered),
		    TP_STRUCT__entry(__string(dev, dev)
				     __field(u32, qpn)
				     __field(u64, t_ns)
				     __field(u64, line_rate_bps)
				     __field(u64, step_bps)
				     __field(u64, duration_ns)
				     __field(bool, recovered)),
		    TP_fast_assign(rcc_assign_str(dev, dev);
				   __entry->qpn = qpn;
				   __entry->t_ns = t_ns;
				   __entry->line_rate_bps = line_rate_bps;
				   __entry->step_bps = step_bps;
				   __entry->duration_ns = duration_ns;
				   __entry->recovered = recovered;),
		    TP_printk("%s qp %u t %llu line_rate %llu step %llu",
			      __get_str(dev), __entry->qpn, __entry->t_ns,
			      __entry->line_rate_bps, __entry->step_bps)
);

/* The CNP that started an episode (duration 0, recovered false). */
DEFINE_EVENT(rcc_episode, episode_start,
	     TP_PROTO(const char *dev, u32 qpn, u64 t_ns, u64 line_rate_bps,
		      u64 step_bps, u64 duration_ns, bool recovered),
	     TP_ARGS(dev, qpn, t_ns, line_rate_bps, step_bps, duration_ns,
		     recovered)
);

/* The run that recovered to line rate, or the detach that cut it short. */
DEFINE_EVENT_PRINT(rcc_episode, episode_end,
		   TP_PROTO(const char *dev, u32 qpn, u64 t_ns, u64 line_rate_bps,
			    u64 step_bps, u64 duration_ns, bool recovered),
		   TP_ARGS(dev, qpn, t_ns, line_rate_bps, step_bps, duration_ns,
			   recovered),
		   TP_printk("%s qp %u t %llu duration %llu %s",
			     __get_str(dev), __entry->qpn, __entry->t_ns,
			     __entry->duration_ns,
			     __entry->recovered ? "recovered" : "detached")
);

/* A CNP arrived for the QP (before the loop sees it). */
TRACE_EVENT(cnp,
	    TP_PROTO(const char *dev, u32 qpn),
	    TP_ARGS(dev, qpn),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(u32, qpn)),
	    TP_fast_assign(rcc_assign_str(dev, dev);
			   __entry->qpn = qpn;),
	    TP_printk("%s qp %u", __get_str(dev), __entry->qpn)
);

#endif /* RDMA_CC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
