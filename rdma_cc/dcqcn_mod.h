/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcqcn_mod.h - rdma_cc_dcqcn.ko's own objects: a device DCQCN controls
 * (struct dcqcn_dev), a QP it controls (struct dcqcn_flow), and the calls
 * between the module's files and its KUnit tests.  The reaction point
 * itself is dcqcn.c, the file the simulator and the replay tool compile.
 */
#ifndef RDMA_CC_DCQCN_MOD_H
#define RDMA_CC_DCQCN_MOD_H

#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "dcqcn.h"
#include "rdma_cc_hook.h"

/* The name the hook lists in available_congestion_control. */
#define DCQCN_CC_NAME	"dcqcn"

/* Bytes a packet the driver reports counts for rpg_byte_reset, default. */
#define DCQCN_MTU_DEFAULT	4096
#define DCQCN_MTU_MAX		65536

/*
 * One published, never modified, set of parameters: the knobs in mlx5's
 * names and units (@p.v, preset mlx5), the slow-down (@p.slowdown) and the
 * packet size.  @gen grows
 * with every write, so a QP sees a new set without keeping a pointer.
 */
struct dcqcn_snap {
	struct rcu_head rcu;
	u64 gen;
	u32 mtu;
	struct dcqcn_params p;
};

/* What a QP under DCQCN did, for debugfs and tests. */
struct dcqcn_counters {
	u64 cnps;
	u64 first_cnps;		/* the rate limiter started */
	u64 cuts;
	u64 increases;		/* fast recovery, active or hyper increase */
	u64 releases;		/* back at line rate: the limiter let go */
	u64 rate_changes;	/* set_rate() calls */
};

/**
 * struct dcqcn_dev - a device DCQCN controls (the hook device's cc_priv)
 * @hdev: the driver's device
 * @flows_lock: protects @flows
 * @flows: the device's QPs
 * @dbg: /sys/kernel/debug/rdma_cc_dcqcn/<name>/
 */
struct dcqcn_dev {
	struct rdma_cc_hook_dev *hdev;
	struct mutex flows_lock;	/* protects flows */
	struct list_head flows;
	struct dentry *dbg;
};

/**
 * struct dcqcn_flow - a QP under DCQCN (the hook QP's cc_priv)
 * @hook: the hook's head of the state (first: rdma_cc_hook.h)
 * @lock: serialises events, timer runs and readers of this QP; irq-safe
 * @dead: set at detach, under @lock: no more events, runs or set_rate
 * @counting: packets matter (a cut started the byte counter), for
 *	dcqcn_flow_tx() without @lock (WRITE_ONCE under @lock)
 * @rp: the reaction point's state (dcqcn.c)
 * @cfg: its settings, resolved from the snapshot @cfg_gen for @cfg_line
 * @cfg_gen: the parameter snapshot @cfg was resolved from
 * @cfg_line: the line rate @cfg was resolved for, bit/s
 * @mtu: bytes a reported packet counts
 * @told_bps: the rate the driver was last told (0 = line rate)
 * @cnt: counters
 * @timer: wakes at the reaction point's next rate change
 * @dev: the device
 * @hqp: the driver's QP
 * @node: in @dev->flows
 * @dbg: /sys/kernel/debug/rdma_cc_dcqcn/<dev>/qp<qpn>
 * @rcu: for freeing after the hook's readers are done
 */
struct dcqcn_flow {
	struct rdma_cc_hook_qp_cc hook;
	spinlock_t lock;		/* everything below */
	bool dead;
	bool counting;
	struct dcqcn_qp rp;
	struct dcqcn_cfg cfg;
	u64 cfg_gen;
	u64 cfg_line;
	u32 mtu;
	u64 told_bps;
	struct dcqcn_counters cnt;
	struct hrtimer timer;
	struct dcqcn_dev *dev;
	struct rdma_cc_hook_qp *hqp;
	struct list_head node;
	struct dentry *dbg;
	struct rcu_head rcu;
};

/* A consistent copy of a QP's state, for debugfs and tests. */
struct dcqcn_flow_state {
	struct dcqcn_qp rp;
	struct dcqcn_counters cnt;
	u64 link_bps;		/* the device's line rate */
	u64 line_bps;		/* R: link_bps / slowdown */
	u64 told_bps;
	bool timer_armed;
};

/* dcqcn_main.c */
extern const struct rdma_cc_cc_ops dcqcn_cc_ops;
#if IS_ENABLED(CONFIG_RDMA_CC_KUNIT_TEST)
/* For the KUnit suites only: QPs alive (as rdma_cc's rcc_flows_live). */
extern atomic_t dcqcn_flows_live;

static inline void dcqcn_test_count_flows(int n)
{
	atomic_add(n, &dcqcn_flows_live);
}
#else
static inline void dcqcn_test_count_flows(int n) {}
#endif
int dcqcn_params_init(void);
void dcqcn_params_exit(void);
struct dcqcn_snap *dcqcn_params_get(void);	/* under rcu_read_lock() */
int dcqcn_param_write(const char *name, const char *val);
u32 dcqcn_param_read(const char *name);
void dcqcn_debugfs_add_flow(struct dcqcn_flow *f);

/* dcqcn_qp.c */
struct dcqcn_flow *dcqcn_flow_create(struct dcqcn_dev *dev,
				     struct rdma_cc_hook_qp *hqp);
void dcqcn_flow_destroy(struct dcqcn_flow *f, bool to_line_rate);
bool dcqcn_flow_cnp(void *priv);
void dcqcn_flow_tx(void *priv, u32 npkts);
void dcqcn_flow_state(struct dcqcn_flow *f, struct dcqcn_flow_state *st);

#endif /* RDMA_CC_DCQCN_MOD_H */
