/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_cc.h - the module's own objects: a device it controls (struct
 * rcc_dev), a QP it controls (struct rcc_flow), and the calls between the
 * module's files and its KUnit tests.
 */
#ifndef RDMA_CC_H
#define RDMA_CC_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "counters.h"
#include "params.h"
#include "rate_loop.h"
#include "rdma_cc_hook.h"

/* One published, never modified, set of parameters. */
struct rcc_params_snap {
	struct rcu_head rcu;
	struct rcc_params p;
};

/**
 * struct rcc_dev - a device rdma_cc controls (the hook device's cc_priv)
 * @kobj: /sys/kernel/rdma_cc/<name>/
 * @hdev: the driver's device
 * @params: the parameters in force: the device's own written values over
 *	the global ones; replaced whole (RCU), never modified
 * @own: values written to this device's sysfs files
 * @own_mask: which of @own were written (bit per enum rcc_param)
 * @node: in the list of devices, under rcc_params_mutex
 * @flows_lock: protects @flows and @retired
 * @flows: the device's QPs
 * @retired: counters of QPs detached from this device
 * @dbg: /sys/kernel/debug/rdma_cc/<name>/
 * @rcu: for freeing after readers are done
 */
struct rcc_dev {
	struct kobject kobj;
	struct rdma_cc_hook_dev *hdev;
	struct rcc_params_snap __rcu *params;
	u32 own[RCC_NR_PARAMS];
	unsigned long own_mask;
	struct list_head node;
	struct mutex flows_lock;	/* protects flows, retired */
	struct list_head flows;
	struct rcc_counters retired;
	struct dentry *dbg;
	struct rcu_head rcu;
};

/**
 * struct rcc_flow - a QP rdma_cc controls (the hook QP's cc_priv)
 * @lock: serialises events, runs and readers of this QP; irq-safe
 * @dead: set at detach, under @lock: no more events, runs or set_rate
 * @in_episode: @core.congested as of the last event or run, for readers
 *	without @lock (WRITE_ONCE under @lock)
 * @core: the rate loop's state
 * @told_bps: the rate the driver was last told (0 = line rate)
 * @episode_start_ns: when the running episode started
 * @cnt: counters, under @lock (but @cnt.pkts, see @pkts)
 * @pkts: packets reported sent, counted without the lock
 * @timer: runs the loop at @core.next_run_ns while congested
 * @dev: the device
 * @hqp: the driver's QP
 * @node: in @dev->flows
 * @dbg: /sys/kernel/debug/rdma_cc/<dev>/qp<qpn>
 * @rcu: for freeing after the hook's readers are done
 */
struct rcc_flow {
	spinlock_t lock;		/* everything below but pkts */
	bool dead;
	bool in_episode;
	struct rcc_qp core;
	u64 told_bps;
	u64 episode_start_ns;
	struct rcc_counters cnt;
	atomic64_t pkts;
	struct hrtimer timer;
	struct rcc_dev *dev;
	struct rdma_cc_hook_qp *hqp;
	struct list_head node;
	struct dentry *dbg;
	struct rcu_head rcu;
};

/* A consistent copy of a QP's state, for debugfs and tests. */
struct rcc_flow_state {
	struct rcc_qp core;
	struct rcc_counters cnt;	/* congested_ns includes the running episode */
	u64 line_rate_bps;
	u64 told_bps;
	u64 episode_start_ns;
	u64 now_ns;
	bool timer_armed;
};

/* main.c */
extern const struct rdma_cc_cc_ops rcc_cc_ops;
int rcc_start(void);
void rcc_stop(void);

/* qp.c */
extern atomic_t rcc_flows_live;
extern atomic_t rcc_flows_freed_armed;
struct rcc_flow *rcc_flow_create(struct rcc_dev *dev,
				 struct rdma_cc_hook_qp *hqp);
void rcc_flow_destroy(struct rcc_flow *f, bool to_line_rate);
void rcc_flow_cnp(void *priv);
void rcc_flow_tx(void *priv, u32 npkts);
void rcc_flow_state(struct rcc_flow *f, struct rcc_flow_state *st);
void rcc_dev_counters(struct rcc_dev *d, struct rcc_counters *sum,
		      unsigned int *nr_qps, unsigned int *nr_congested);

/* sysfs.c: parameters, global (module parameters) and per device */
extern struct mutex rcc_params_mutex;
extern const struct kernel_param_ops rcc_param_ops;
extern const struct sysfs_ops rcc_dev_sysfs_ops;
int rcc_sysfs_init(void);
void rcc_sysfs_exit(void);
int rcc_dev_sysfs_add(struct rcc_dev *d);
void rcc_dev_sysfs_del(struct rcc_dev *d);
struct attribute *rcc_dev_attr(enum rcc_param id);
u64 rcc_dev_line_rate(struct rcc_dev *d, const struct rcc_params *p);

/* debugfs.c */
struct seq_file;
int rcc_flow_show(struct seq_file *m, void *unused);	/* m->private: flow */
int rcc_dev_show(struct seq_file *m, void *unused);	/* m->private: dev */
void rcc_debugfs_init(void);
void rcc_debugfs_exit(void);
void rcc_debugfs_add_dev(struct rcc_dev *d);
void rcc_debugfs_del_dev(struct rcc_dev *d);
void rcc_debugfs_add_flow(struct rcc_flow *f);
void rcc_debugfs_del_flow(struct rcc_flow *f);

#endif /* RDMA_CC_H */
