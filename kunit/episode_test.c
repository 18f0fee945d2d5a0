// SPDX-License-Identifier: GPL-2.0
/*
 * episode_test.c - whole congestion episodes driven by the module's real
 * hrtimers, checked against a replay of the same events through the core:
 * the same runs and actions, and every rate the driver was told is one the
 * replay told, no earlier than the replay's time and within timer slack.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include "replay.h"

/*
 * How late a told rate may be: timer slack, and UML's timers under load.
 * KASAN and lockdep (make kunit-debug) slow everything down several times;
 * one run was seen 28 ms late there.
 */
#define EPISODE_SLACK_NS	((IS_ENABLED(CONFIG_KASAN) ||		\
				  IS_ENABLED(CONFIG_PROVE_LOCKING) ?	\
				  250 : 20) * NSEC_PER_MSEC)
#define GBPS			1000000000ULL

struct episode_ctx {
	struct fake_dev *fd;
	struct fake_qp *fq;
};

static int episode_init(struct kunit *test)
{
	struct episode_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->fd = fake_dev_new(test, "ep", 400 * GBPS);
	ctx->fq = fake_qp_new(test, ctx->fd, 17);
	test->priv = ctx;
	return 0;
}

static void episode_exit(struct kunit *test)
{
	struct episode_ctx *ctx = test->priv;

	fake_qp_free(ctx->fq);
	fake_dev_free(ctx->fd);
}

/* The module's run and rate history matches the replay's. */
static void episode_check(struct kunit *test, struct fake_qp *fq,
			  const struct replay_result *r,
			  const struct rcc_flow_state *st)
{
	unsigned int i, j = 0, n = min_t(unsigned int, fq->nr_calls,
					  FAKE_RATE_LOG);
	int a;

	KUNIT_EXPECT_FALSE(test, r->congested);
	KUNIT_EXPECT_FALSE(test, st->core.congested);
	KUNIT_EXPECT_FALSE(test, st->timer_armed);
	KUNIT_EXPECT_EQ(test, st->cnt.runs, r->runs);
	for (a = 0; a < RCC_NR_ACTIONS; a++)
		KUNIT_EXPECT_EQ_MSG(test, st->cnt.actions[a], r->actions[a],
				    "action %s", rcc_action_name(a));
	KUNIT_EXPECT_EQ(test, st->cnt.floor_hits, r->floor_hits);
	KUNIT_EXPECT_EQ(test, st->cnt.episodes, r->episodes);
	KUNIT_EXPECT_EQ(test, st->cnt.episodes_ended, r->episodes);
	KUNIT_EXPECT_EQ(test, fq->nr_bad, 0U);
	KUNIT_EXPECT_EQ(test, fq->rate_bps, 0ULL);

	if (st->cnt.runs != r->runs || fq->nr_calls != r->nr_changes) {
		kunit_info(test, "t0 %llu", st->episode_start_ns);
		for (i = 0; i < n; i++)
			kunit_info(test, "told %llu at +%llu", fq->log[i].bps,
				   fq->log[i].t_ns - st->episode_start_ns);
		for (i = 0; i < r->nr_changes; i++)
			kunit_info(test, "replay %llu at +%llu",
				   r->changes[i].bps,
				   r->changes[i].t_ns - st->episode_start_ns);
	}
	/* Late timers run all due runs at once and tell only the last rate. */
	KUNIT_EXPECT_LE(test, fq->nr_calls, r->nr_changes);
	for (i = 0; i < n; i++) {
		while (j < r->nr_changes && r->changes[j].bps != fq->log[i].bps)
			j++;
		KUNIT_ASSERT_LT_MSG(test, j, r->nr_changes,
				    "rate %llu told at call %u is not the replay's",
				    fq->log[i].bps, i);
		KUNIT_EXPECT_GE(test, fq->log[i].t_ns, r->changes[j].t_ns);
		KUNIT_EXPECT_LE_MSG(test, fq->log[i].t_ns - r->changes[j].t_ns,
				    EPISODE_SLACK_NS, "rate %llu told late",
				    fq->log[i].bps);
		j++;
	}
	KUNIT_EXPECT_EQ(test, j, r->nr_changes);
}

/* One CNP at the defaults at 400 Gbit/s: the source's worked example. */
static void episode_one_cnp_defaults(struct kunit *test)
{
	struct episode_ctx *ctx = test->priv;
	struct replay_result *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct replay_event ev;
	struct rcc_flow_state st;
	struct rcc_params p;

	KUNIT_ASSERT_NOT_NULL(test, r);
	fake_dev_params(ctx->fd, &p);
	rdma_cc_hook_cnp(&ctx->fq->hqp);

	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	/* Run 0 ran at once, from the CNP's own context. */
	KUNIT_EXPECT_GE(test, st.cnt.runs, 1ULL);
	KUNIT_EXPECT_EQ(test, st.cnt.actions[RCC_ACT_FR_CUT], 1ULL);
	KUNIT_EXPECT_EQ(test, st.core.step_bps, 4 * GBPS);
	KUNIT_EXPECT_GE(test, fake_qp_calls(ctx->fq), 1U);

	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 2000));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	ev.t_ns = st.episode_start_ns;
	ev.npkts = 0;
	replay(&p, 400 * GBPS, &ev, 1, st.now_ns, r);
	episode_check(test, ctx->fq, r, &st);
	KUNIT_EXPECT_EQ(test, st.cnt.congested_ns,
			r->last_run_ns - st.episode_start_ns);
	/* The runs keep to the grid: the last one at t0 + j * T/2. */
	KUNIT_EXPECT_EQ(test, (r->last_run_ns - st.episode_start_ns) %
			(p.control_interval_ns / 2), 0ULL);
}

/* Sleep until @t_ns (CLOCK_MONOTONIC). */
static void episode_sleep_until(u64 t_ns)
{
	u64 now = ktime_get_ns();

	if (t_ns > now + 200 * NSEC_PER_USEC)
		usleep_range((t_ns - now) / NSEC_PER_USEC - 100,
			     (t_ns - now) / NSEC_PER_USEC);
	while (ktime_get_ns() < t_ns)
		cpu_relax();
}

/*
 * Sends one event inside an episode (@npkts packets, or a CNP when 0) with
 * interrupts off, as a driver's hard-irq handler does, and fills @ev with
 * the time the replay gets for it.  The module reads the clock itself,
 * after the test: when a vCPU stalls between the two readings, a run may
 * fall due between them, and the module then applies the event after
 * that run.  The runs it had made by the event say on which side of every
 * run it applied it; some time between the two readings must lie on that
 * side, and the replay gets the first such time.  The thread keeps to
 * one CPU, and so does the QP's timer (pinned to the CPU that arms it):
 * no run comes between the event and the counters read after it.
 */
static void episode_event(struct kunit *test, struct fake_qp *fq, u64 t0,
			  u64 half, u32 npkts, struct replay_event *ev)
{
	struct rcc_flow_state st;
	unsigned long flags;
	u64 before, after, lo, hi;
	bool ok;

	local_irq_save(flags);
	before = ktime_get_ns();
	if (npkts)
		rdma_cc_hook_tx(&fq->hqp, npkts);
	else
		rdma_cc_hook_cnp(&fq->hqp);
	after = ktime_get_ns();
	ok = fake_qp_state(fq, &st);
	local_irq_restore(flags);

	KUNIT_ASSERT_TRUE(test, ok);
	KUNIT_ASSERT_GE(test, st.cnt.runs, 1ULL);
	/* after runs 0 .. m - 1 and before run m: a time in (lo, hi] */
	lo = t0 + (st.cnt.runs - 1) * half;
	hi = t0 + st.cnt.runs * half;
	KUNIT_EXPECT_TRUE_MSG(test, before <= hi && after > lo,
			      "event at +%llu..+%llu applied after %llu runs",
			      before - t0, after - t0, st.cnt.runs);
	ev->t_ns = clamp(before, lo + 1, hi);
	ev->npkts = npkts;
}

/*
 * CNPs and packets inside an episode, each meant a quarter interval away
 * from any run, at T = 10 ms: the replay of the events must agree.
 */
static void episode_cnps_during_runs(struct kunit *test)
{
	struct episode_ctx *ctx = test->priv;
	struct replay_result *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct replay_event *ev;
	const u64 half = 5 * NSEC_PER_MSEC;
	struct rcc_flow_state st;
	struct rcc_params p;
	unsigned int i, n = 0;
	int cpu;
	u64 t0;

	FAKE_SKIP_ON_RT(test);
	/* this CPU, and so the QP's timer, for the whole episode */
	cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);

	ev = kunit_kcalloc(test, 64, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_CONTROL_INTERVAL_NS,
					     "10000000\n"), 9);
	fake_dev_params(ctx->fd, &p);

	rdma_cc_hook_cnp(&ctx->fq->hqp);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	t0 = st.episode_start_ns;
	ev[n++] = (struct replay_event){ .t_ns = t0 };
	/* CNPs in the first 8 halves, packets in every other one. */
	for (i = 0; i < 8; i++) {
		episode_sleep_until(t0 + i * half + half / 2);
		if (i % 2)
			episode_event(test, ctx->fq, t0, half, 10 * i, &ev[n++]);
		episode_event(test, ctx->fq, t0, half, 0, &ev[n++]);
		if (i == 3)
			episode_event(test, ctx->fq, t0, half, 0, &ev[n++]);
	}
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 5000));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	for (i = 0; i < n; i++)
		kunit_info(test, "event %s at +%llu", ev[i].npkts ? "tx" : "cnp",
			   ev[i].t_ns - t0);
	replay(&p, 400 * GBPS, ev, n, st.now_ns, r);
	episode_check(test, ctx->fq, r, &st);
	KUNIT_EXPECT_EQ(test, st.cnt.cnps, 10ULL);
	KUNIT_EXPECT_EQ(test, st.cnt.pkts, 160ULL);
	KUNIT_EXPECT_GE(test, r->actions[RCC_ACT_FR_CUT], 2ULL);
}

/* A parameter written during an episode applies from the next run; the
 * additive step stays the episode's until the next episode.
 */
static void episode_param_change_applies_next_run(struct kunit *test)
{
	struct episode_ctx *ctx = test->priv;
	struct rcc_flow_state st;
	u64 step;

	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_CONTROL_INTERVAL_NS,
					     "20000000"), 8);
	rdma_cc_hook_cnp(&ctx->fq->hqp);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	step = st.core.step_bps;
	KUNIT_EXPECT_EQ(test, step, 4 * GBPS);
	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd,
					     RCC_NUMBER_ACTIVE_INCREASE_STEPS,
					     "1\n"), 2);
	/* Runs every 10 ms: two runs later the episode keeps its step. */
	msleep(25);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	KUNIT_EXPECT_GE(test, st.cnt.runs, 3ULL);
	KUNIT_EXPECT_TRUE(test, st.core.congested);
	KUNIT_EXPECT_EQ(test, st.core.step_bps, step);
	/* A shorter interval applies from the next run: the episode ends soon. */
	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_CONTROL_INTERVAL_NS,
					     "200000\n"), 7);
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 3000));

	rdma_cc_hook_cnp(&ctx->fq->hqp);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	/* New episode, new step: R * (1 - 90%) / 1. */
	KUNIT_EXPECT_EQ(test, st.core.step_bps, 40 * GBPS);
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 3000));
}

/*
 * A timer that fires late (here: interrupts held off for three halves)
 * does not change what the loop does: a CNP and packets that come after
 * overdue runs are counted after them, as the replay does.  The events
 * are stamped half a half before run 4; halves of 10 ms leave 5 ms for
 * the hooks to take their own times before run 4 comes (KCSAN's delays
 * in a TCG guest took more than the 0.5 ms that 1 ms halves left).
 */
static void episode_late_timer_keeps_event_order(struct kunit *test)
{
	struct episode_ctx *ctx = test->priv;
	struct replay_result *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	const u64 half = 10 * NSEC_PER_MSEC;
	unsigned int nr_qps, nr_congested;
	struct replay_event ev[3];
	struct rcc_flow_state st;
	struct rcc_counters sum;
	struct rcc_params p;
	unsigned long flags;
	u64 t0, done;

	FAKE_SKIP_ON_RT(test);

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_CONTROL_INTERVAL_NS,
					     "20000000"), 8);
	fake_dev_params(ctx->fd, &p);

	local_irq_save(flags);
	rdma_cc_hook_cnp(&ctx->fq->hqp);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	t0 = st.episode_start_ns;
	ev[0] = (struct replay_event){ .t_ns = t0 };
	while (ktime_get_ns() < t0 + 3 * half + half / 2)
		cpu_relax();
	/* Runs 1, 2 and 3 are overdue; their timer could not fire. */
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	KUNIT_EXPECT_EQ(test, st.cnt.runs, 1ULL);
	ev[1].t_ns = ktime_get_ns();
	ev[1].npkts = 50;
	rdma_cc_hook_tx(&ctx->fq->hqp, 50);
	ev[2].t_ns = ktime_get_ns();
	ev[2].npkts = 0;
	rdma_cc_hook_cnp(&ctx->fq->hqp);
	done = ktime_get_ns();
	local_irq_restore(flags);
	/* the interleaving holds only if both hooks were done before run 4 */
	KUNIT_ASSERT_LT_MSG(test, done, t0 + 4 * half,
			    "the hooks took %llu ns after the events' stamps",
			    done - ev[1].t_ns);

	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 3000));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	replay(&p, 400 * GBPS, ev, 3, st.now_ns, r);
	episode_check(test, ctx->fq, r, &st);
	/* late runs are the device's (its only QP's here) */
	rcc_dev_counters(ctx->fd->hdev.cc_priv, &sum, &nr_qps, &nr_congested);
	KUNIT_EXPECT_GE(test, sum.late_runs, 1ULL);
	KUNIT_EXPECT_EQ(test, st.cnt.cnps, 2ULL);
}

/*
 * The timer race (the callback waited for the QP's lock while another path
 * queued the timer again): here the interleaving is made by hand.  With
 * interrupts off the queued timer cannot fire; packets after three overdue
 * halves make their runs in the tx path and move next_run_ns on; then the
 * callback runs, as the one that was waiting for the lock would.  It must
 * leave the queued timer alone: not move its expiry (that corrupts the
 * timer queue) and not ask to be restarted.
 */
static void episode_timer_queued_elsewhere_is_left_alone(struct kunit *test)
{
	struct episode_ctx *ctx = test->priv;
	enum hrtimer_restart ret;
	struct rcc_flow_state st;
	struct rcc_flow *f;
	unsigned long flags;
	ktime_t soft, hard;
	u64 t0;

	FAKE_SKIP_ON_RT(test);

	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_CONTROL_INTERVAL_NS,
					     "2000000"), 7);
	local_irq_save(flags);
	rdma_cc_hook_cnp(&ctx->fq->hqp);
	f = rcu_access_pointer(ctx->fq->hqp.cc_priv);
	if (!f || !hrtimer_is_queued(&f->timer)) {
		local_irq_restore(flags);
		KUNIT_FAIL(test, "no timer queued after the first CNP");
		return;
	}
	soft = hrtimer_get_softexpires(&f->timer);
	hard = hrtimer_get_expires(&f->timer);
	t0 = f->core.next_run_ns - NSEC_PER_MSEC;
	while (ktime_get_ns() < t0 + 3 * NSEC_PER_MSEC + NSEC_PER_MSEC / 2)
		cpu_relax();
	rdma_cc_hook_tx(&ctx->fq->hqp, 5);
	ret = f->timer.function(&f->timer);
	KUNIT_EXPECT_EQ(test, (int)ret, (int)HRTIMER_NORESTART);
	KUNIT_EXPECT_TRUE(test, hrtimer_is_queued(&f->timer));
	KUNIT_EXPECT_EQ(test, ktime_to_ns(hrtimer_get_softexpires(&f->timer)),
			ktime_to_ns(soft));
	KUNIT_EXPECT_EQ(test, ktime_to_ns(hrtimer_get_expires(&f->timer)),
			ktime_to_ns(hard));
	local_irq_restore(flags);

	/* The queued timer carries on: the episode still ends. */
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 3000));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	KUNIT_EXPECT_EQ(test, st.cnt.episodes_ended, 1ULL);
}

/*
 * line_rate_margin_mbps = 0 at 400 Gbit/s: one CNP's episode ends at line
 * rate (halfway rounds up), the driver is told line rate and no timer is
 * left; the same after a storm of CNPs followed by calm.
 */
static void episode_margin_zero_ends_and_timer_is_gone(struct kunit *test)
{
	struct episode_ctx *ctx = test->priv;
	struct rcc_flow_state st;
	int i;

	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_LINE_RATE_MARGIN_MBPS,
					     "0"), 1);
	KUNIT_ASSERT_EQ(test, fake_dev_store(ctx->fd, RCC_CONTROL_INTERVAL_NS,
					     "2000"), 4);
	rdma_cc_hook_cnp(&ctx->fq->hqp);
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 3000));
	usleep_range(2000, 3000);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	KUNIT_EXPECT_FALSE(test, st.core.congested);
	KUNIT_EXPECT_FALSE(test, st.timer_armed);
	KUNIT_EXPECT_EQ(test, st.core.current_bps, 400 * GBPS);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(ctx->fq), 0ULL);
	KUNIT_EXPECT_EQ(test, st.cnt.episodes_ended, 1ULL);

	/* with the driver's QP lock held: lockdep checks the lock order */
	for (i = 0; i < 2000; i++) {
		fake_qp_cnp(ctx->fq);
		fake_qp_tx(ctx->fq, 3);
		if (i % 50 == 0)
			usleep_range(5, 20);
	}
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(ctx->fq, 5000));
	usleep_range(2000, 3000);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(ctx->fq, &st));
	KUNIT_EXPECT_FALSE(test, st.timer_armed);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(ctx->fq), 0ULL);
	KUNIT_EXPECT_EQ(test, st.cnt.episodes, st.cnt.episodes_ended);
	KUNIT_EXPECT_EQ(test, st.cnt.cnps, 2001ULL);
}

/*
 * R below the link's speed (an operator's data_rate_mbps): outside an
 * episode the QP is paced at R, not left at line rate, where it would send
 * at the link's speed while rc says R.  From its attach, again when its
 * episode ends, and back to line rate when rdma_cc lets go of it.
 */
static void episode_r_below_link_is_paced_outside_episodes(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "calm", GBPS);
	struct rcc_flow_state st;
	struct fake_qp *fq;

	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_DATA_RATE_MBPS, "100"), 3);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS,
					     "2000"), 4);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_LINE_RATE_MARGIN_MBPS,
					     "0"), 1);
	fq = fake_qp_new(test, fd, 5);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 100000000ULL);
	KUNIT_EXPECT_EQ(test, fake_qp_calls(fq), 1U);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.told_bps, 100000000ULL);

	fake_qp_cnp(fq);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(fq, &st));
	KUNIT_EXPECT_TRUE(test, !st.core.congested ||
			  fake_qp_rate(fq) == st.core.current_bps);
	KUNIT_EXPECT_GT(test, fake_qp_calls(fq), 1U);
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(fq, 3000));
	KUNIT_ASSERT_TRUE(test, fake_qp_state(fq, &st));
	KUNIT_EXPECT_EQ(test, st.core.current_bps, 100000000ULL);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 100000000ULL);
	KUNIT_EXPECT_EQ(test, st.told_bps, 100000000ULL);
	KUNIT_EXPECT_EQ(test, fq->nr_bad, 0U);

	/* rdma_cc lets go (the device to "none"): line rate */
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "none"), 0);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 0ULL);
	/* and takes it on again: what it tells is what the driver has */
	KUNIT_ASSERT_EQ(test, rdma_cc_hook_set_dev_cc(&fd->hdev, "rdma_cc"), 0);
	KUNIT_ASSERT_TRUE(test, fake_qp_state(fq, &st));
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), st.told_bps);

	/* R at the link's speed: line rate from the next episode's end */
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_DATA_RATE_MBPS, "0"), 1);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS,
					     "2000"), 4);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_LINE_RATE_MARGIN_MBPS,
					     "0"), 1);
	fake_qp_cnp(fq);
	KUNIT_ASSERT_TRUE(test, fake_qp_wait_uncongested(fq, 3000));
	KUNIT_EXPECT_EQ(test, fake_qp_rate(fq), 0ULL);
	KUNIT_EXPECT_EQ(test, fq->nr_bad, 0U);
	fake_qp_free(fq);
	fake_dev_free(fd);
}

static struct kunit_case episode_cases[] = {
	KUNIT_CASE(episode_one_cnp_defaults),
	KUNIT_CASE(episode_cnps_during_runs),
	KUNIT_CASE(episode_param_change_applies_next_run),
	KUNIT_CASE(episode_late_timer_keeps_event_order),
	KUNIT_CASE(episode_timer_queued_elsewhere_is_left_alone),
	KUNIT_CASE(episode_margin_zero_ends_and_timer_is_gone),
	KUNIT_CASE(episode_r_below_link_is_paced_outside_episodes),
	{}
};

static struct kunit_suite episode_suite = {
	.name = "rdma_cc_episode",
	.init = episode_init,
	.exit = episode_exit,
	.test_cases = episode_cases,
};

kunit_test_suite(episode_suite);
