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
#include <linux/xarray.h>

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
 * @flows_lock: serialises changes to @flows and @retired, so that a sum of
 *	the device's counters sees each QP once, attached or retired
 * @flows: the device's QPs by QP number; read under RCU
 * @flows_gen: changes of @flows, so that a reader walking it without
 *	@flows_lock can tell it saw a stable set
 * @retired: counters of QPs detached from this device
 * @late_runs: runs of this device's QPs made more than T/2 late
 * @dbg: /sys/kernel/debug/rdma_cc/<name>/
 * @dbg_qpn: the QP number last written to the debugfs file "qp"
 * @rcu: for freeing after readers are done
 */
struct rcc_dev {
	struct kobject kobj;
	struct rdma_cc_hook_dev *hdev;
	struct rcc_params_snap __rcu *params;
	u32 own[RCC_NR_PARAMS];
	unsigned long own_mask;
	struct list_head node;
	struct mutex flows_lock;	/* serialises flows, retired */
	struct xarray flows;
	unsigned long flows_gen;
	struct rcc_counters retired;
	atomic64_t late_runs;
	struct dentry *dbg;
	u32 dbg_qpn;
	struct rcu_head rcu;
};

/*
 * What a QP has of its own, through debugfs' qp_control (control.c):
 * allocated for such QPs only, replaced whole, under the QP's lock.
 */
struct rcc_flow_own {
	unsigned long mask;		/* parameters of its own, bit per enum rcc_param */
	u32 val[RCC_NR_PARAMS];		/* their values, over the device's */
	u64 pinned_bps;			/* the rate the driver is told; 0 = none */
};

/**
 * struct rcc_flow - a QP rdma_cc controls (the hook QP's cc_priv)
 * @hook: the hook's head of the state (first: rdma_cc_hook.h)
 * @lock: serialises events, runs and readers of this QP; irq-safe
 * @dead: set at detach, under @lock: no more events, runs, set_rate or
 *	readers of the state (rcc_flow_state() returns false)
 * @in_episode: @core.congested as of the last event or run, for readers
 *	without @lock (WRITE_ONCE under @lock)
 * @calm_paced: outside an episode, the driver paces the QP at @core's
 *	rate R, which is below the device's link speed (an operator's
 *	data_rate_mbps): "line rate" would let it send at the link's speed.
 *	Set with every tell, under @lock
 * @core: the rate loop's state
 * @episode_start_ns: when the running episode started
 * @cnt: counters, under @lock
 * @pkts: packets reported sent, counted without the lock
 * @timer: runs the loop at @core.next_run_ns while congested
 * @rcu: for freeing after the hook's readers are done; shares @timer's
 *	storage, unused once the QP is dead and its timer cancelled
 * @hqp: the driver's QP; its device's cc_priv is the struct rcc_dev
 * @own: what the QP has of its own (control.c), under @lock; NULL for
 *	nearly every QP: 8 bytes here, the rest only where it is used
 *
 * One a QP, from a kmem_cache of its own, so every byte here is paid
 * 100,000 times on a big host: the rate the driver was last told is
 * derived from @core (rcc_flow_told()), the device from @hqp, the
 * device's QPs are an xarray outside the QP, and struct rcc_flow_counters
 * says which counters are derived.  debugfs keeps nothing per QP.
 */
struct rcc_flow {
	struct rdma_cc_hook_qp_cc hook;
	spinlock_t lock;		/* everything below but pkts */
	bool dead;
	bool in_episode;
	bool calm_paced;
	struct rcc_qp core;
	u64 episode_start_ns;
	struct rcc_flow_counters cnt;
	atomic64_t pkts;
	union {
		struct hrtimer timer;
		struct rcu_head rcu;
	};
	struct rdma_cc_hook_qp *hqp;
	struct rcc_flow_own *own;
};

static inline struct rcc_dev *rcc_flow_dev(const struct rcc_flow *f)
{
	return f->hqp->dev->cc_priv;
}

/* A consistent copy of a QP's state, for debugfs and tests. */
struct rcc_flow_state {
	u32 qpn;
	struct rcc_qp core;
	/*
	 * congested_ns includes the running episode; late_runs is 0 (the
	 * device counts them)
	 */
	struct rcc_counters cnt;
	u64 line_rate_bps;
	u64 told_bps;
	u64 pinned_bps;
	unsigned long own_mask;
	u64 episode_start_ns;
	u64 now_ns;
	bool timer_armed;
};

/* main.c */
extern const struct rdma_cc_cc_ops rcc_cc_ops;
int rcc_start(void);
void rcc_stop(void);

/* qp.c */
#if IS_ENABLED(CONFIG_RDMA_CC_KUNIT_TEST)
/* For the KUnit suites only: QPs alive, QPs freed with a timer armed. */
extern atomic_t rcc_flows_live;
extern atomic_t rcc_flows_freed_armed;

static inline void rcc_test_count_flows(int n)
{
	atomic_add(n, &rcc_flows_live);
}

static inline void rcc_test_count_freed_armed(void)
{
	atomic_inc(&rcc_flows_freed_armed);
}
#else
static inline void rcc_test_count_flows(int n) {}
static inline void rcc_test_count_freed_armed(void) {}
#endif
int rcc_flow_cache_init(void);
void rcc_flow_cache_exit(void);
struct rcc_flow *rcc_flow_create(struct rcc_dev *dev,
				 struct rdma_cc_hook_qp *hqp);
void rcc_flow_destroy(struct rcc_flow *f, bool to_line_rate);
bool rcc_flow_cnp(void *priv);
void rcc_flow_tx(void *priv, u32 npkts);
bool rcc_flow_state(struct rcc_flow *f, struct rcc_flow_state *st);
struct rcc_flow_own *rcc_flow_set_own(struct rcc_flow *f,
				      struct rcc_flow_own *own);
bool rcc_dev_flow_state(struct rcc_dev *d, unsigned long *qpn,
			struct rcc_flow_state *st);
void rcc_dev_counters(struct rcc_dev *d, struct rcc_counters *sum,
		      unsigned int *nr_qps, unsigned int *nr_congested);

/* sysfs.c: parameters, global (module parameters) and per device */
extern struct mutex rcc_params_mutex;
extern const struct kernel_param_ops rcc_param_ops;
extern const struct sysfs_ops rcc_dev_sysfs_ops;
int rcc_sysfs_init(void);
void rcc_sysfs_exit(void);
void rcc_sysfs_wait_released(void);
int rcc_dev_sysfs_add(struct rcc_dev *d);
void rcc_dev_sysfs_del(struct rcc_dev *d);
struct attribute *rcc_dev_attr(enum rcc_param id);
u64 rcc_dev_line_rate(struct rcc_dev *d, const struct rcc_params *p);

/* control.c: per-QP parameters and pinned rates; the drivers' snapshot */
void rcc_control_add_dev(struct rcc_dev *d);
int rcc_control_command(struct rcc_dev *d, char *buf, size_t count);
void rcc_flow_snapshot(void *priv, struct rdma_cc_qp_snapshot *snap);

/* debugfs.c: reads QPs only through rcc_flow_state() */
struct seq_file;
void rcc_flow_show(struct seq_file *m, const struct rcc_flow_state *st);
void rcc_flow_row(struct seq_file *m, const struct rcc_flow_state *st);
int rcc_dev_show(struct seq_file *m, void *unused);	/* m->private: dev */
void rcc_debugfs_init(void);
void rcc_debugfs_exit(void);
void rcc_debugfs_add_dev(struct rcc_dev *d);
void rcc_debugfs_del_dev(struct rcc_dev *d);
/* the files "qps" and "qp", and a write to "qp", for KUnit */
struct file;
extern const struct file_operations rcc_qps_fops, rcc_qp_file_fops;
int rcc_qp_file_select(struct file *file, const char *buf);

#endif /* RDMA_CC_H */
