// SPDX-License-Identifier: GPL-2.0
/*
 * rp.c - the reaction points a flow's sender can run: rdma_cc (the very
 * core the module compiles, driven exactly as the module drives it), DCQCN,
 * or none (line rate).
 */
#include <string.h>

#include "sim.h"

static const char * const rp_names[RP_NR_KINDS] = {
	[RP_RDMA_CC] = "rdma_cc",
	[RP_DCQCN] = "dcqcn",
	[RP_NONE] = "none",
};

const char *rp_kind_name(enum rp_kind kind)
{
	return kind < RP_NR_KINDS ? rp_names[kind] : "?";
}

int rp_kind_parse(const char *name, enum rp_kind *kind)
{
	int k;

	for (k = 0; k < RP_NR_KINDS; k++) {
		if (!strcmp(name, rp_names[k])) {
			*kind = k;
			return 0;
		}
	}
	return -1;
}

static u64 line_bps(const struct sim *s)
{
	return rcc_line_rate_bps(&s->cfg->rcc, s->cfg->host_bps);
}

void rp_start(struct sim *s, struct flow *f)
{
	f->rp.kind = s->kind;
	switch (s->kind) {
	case RP_RDMA_CC:
		rcc_qp_init(&f->rp.rcc, line_bps(s));
		break;
	case RP_DCQCN:
		dcqcn_init(&f->rp.dcqcn, &s->cfg->dcqcn.cfg);
		break;
	default:
		break;
	}
}

/* An event to the rdma_cc core, in the core's own order (rcc_event()). */
static void rcc_sim_event(struct sim *s, struct flow *f,
			  enum rcc_event_kind kind, u64 npkts)
{
	struct rcc_event ev = {
		.t_ns = s->now / PS_PER_NS, .npkts = npkts, .kind = kind,
	};

	rcc_event(&f->rp.rcc, &s->cfg->rcc, line_bps(s), &ev, NULL, NULL);
}

void rp_cnp(struct sim *s, struct flow *f)
{
	switch (f->rp.kind) {
	case RP_RDMA_CC:
		rcc_sim_event(s, f, RCC_EV_CNP, 0);
		break;
	case RP_DCQCN:
		dcqcn_cnp(&f->rp.dcqcn, &s->cfg->dcqcn.cfg, s->now / PS_PER_NS,
			  NULL);
		break;
	default:
		break;
	}
}

void rp_sent(struct sim *s, struct flow *f, u32 bytes)
{
	switch (f->rp.kind) {
	case RP_RDMA_CC:
		rcc_sim_event(s, f, RCC_EV_TX, 1);
		break;
	case RP_DCQCN:
		dcqcn_tx(&f->rp.dcqcn, &s->cfg->dcqcn.cfg, bytes,
			 s->now / PS_PER_NS, NULL);
		break;
	default:
		break;
	}
}

void rp_timer(struct sim *s, struct flow *f)
{
	switch (f->rp.kind) {
	case RP_RDMA_CC:
		/* the runs due now, as the module's hrtimer makes them */
		rcc_advance(&f->rp.rcc, &s->cfg->rcc, line_bps(s),
			    s->now / PS_PER_NS, NULL, NULL);
		break;
	case RP_DCQCN:
		dcqcn_run(&f->rp.dcqcn, &s->cfg->dcqcn.cfg, s->now / PS_PER_NS,
			  true, NULL);
		break;
	default:
		break;
	}
}

u64 rp_rate_bps(const struct sim *s, const struct flow *f)
{
	u64 r;

	switch (f->rp.kind) {
	case RP_RDMA_CC:
		r = f->rp.rcc.current_bps;
		break;
	case RP_DCQCN:
		r = f->rp.dcqcn.rc;
		break;
	default:
		r = s->cfg->host_bps;
		break;
	}
	if (r > s->cfg->host_bps)
		r = s->cfg->host_bps;
	return r ? r : 1;
}

u64 rp_next_timer_ps(const struct sim *s, const struct flow *f)
{
	(void)s;
	switch (f->rp.kind) {
	case RP_RDMA_CC:
		if (!f->rp.rcc.congested)
			return SIM_NEVER;
		return f->rp.rcc.next_run_ns * PS_PER_NS;
	case RP_DCQCN: {
		u64 t = dcqcn_next_ns(&f->rp.dcqcn);

		return t == DCQCN_NEVER ? SIM_NEVER : t * PS_PER_NS;
	}
	default:
		return SIM_NEVER;
	}
}
