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
		dcqcn_init(&f->rp.dcqcn, (double)s->cfg->host_bps);
		break;
	default:
		break;
	}
}

/* Runs of the loop due at or before now, as the module's hrtimer does. */
static void rcc_catch_up(struct sim *s, struct flow *f)
{
	struct rcc_qp *qp = &f->rp.rcc;

	while (qp->congested && qp->next_run_ns * PS_PER_NS <= s->now)
		rcc_run(qp, &s->cfg->rcc, line_bps(s), NULL);
}

void rp_cnp(struct sim *s, struct flow *f)
{
	switch (f->rp.kind) {
	case RP_RDMA_CC:
		if (rcc_cnp(&f->rp.rcc, &s->cfg->rcc, line_bps(s),
			    s->now / PS_PER_NS))
			rcc_run(&f->rp.rcc, &s->cfg->rcc, line_bps(s), NULL);
		break;
	case RP_DCQCN:
		dcqcn_cnp(&f->rp.dcqcn, &s->cfg->dcqcn,
			  (double)s->cfg->host_bps, s->now);
		break;
	default:
		break;
	}
}

void rp_sent(struct sim *s, struct flow *f, u32 bytes)
{
	switch (f->rp.kind) {
	case RP_RDMA_CC:
		rcc_tx(&f->rp.rcc, 1);
		break;
	case RP_DCQCN:
		dcqcn_sent(&f->rp.dcqcn, &s->cfg->dcqcn,
			   (double)s->cfg->host_bps, bytes);
		break;
	default:
		break;
	}
}

void rp_timer(struct sim *s, struct flow *f)
{
	switch (f->rp.kind) {
	case RP_RDMA_CC:
		rcc_catch_up(s, f);
		break;
	case RP_DCQCN:
		dcqcn_timer(&f->rp.dcqcn, &s->cfg->dcqcn,
			    (double)s->cfg->host_bps, s->now);
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
		r = (u64)f->rp.dcqcn.rc;
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
	case RP_DCQCN:
		return dcqcn_next_timer_ps(&f->rp.dcqcn);
	default:
		return SIM_NEVER;
	}
}
