// SPDX-License-Identifier: GPL-2.0
/*
 * control_test.c - per-QP control (qp_control) and the drivers' snapshot:
 * a QP's own parameters are the ones its runs use, a pinned rate is what
 * the driver is told, every bad command is refused and changes nothing,
 * and rdma_cc_hook_qp_snapshot() shows it all.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fake_driver.h"

#define R_BPS	25000000000ULL

/* The command @cmd, as a write of qp_control makes it. */
static int ctl(struct kunit *test, struct fake_dev *fd, const char *cmd)
{
	size_t n = strlen(cmd);
	char *buf = kunit_kzalloc(test, n + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, cmd, n);
	return rcc_control_command(fd->hdev.cc_priv, buf, n);
}

struct ctl_seen {
	unsigned long own_mask;
	u64 pinned_bps;
	u64 line_rate_bps;
	u64 told;
	unsigned int calls;
};

static void ctl_look(struct kunit *test, struct fake_qp *fq, struct ctl_seen *s)
{
	struct rcc_flow_state st;

	KUNIT_ASSERT_TRUE(test, fake_qp_state(fq, &st));
	s->own_mask = st.own_mask;
	s->pinned_bps = st.pinned_bps;
	s->line_rate_bps = st.line_rate_bps;
	s->told = fake_qp_rate(fq);
	s->calls = fake_qp_calls(fq);
}

static void ctl_set_and_clear(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "ctl", R_BPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 42);
	struct fake_qp *other = fake_qp_new(test, fd, 43);
	struct rdma_cc_qp_snapshot snap;
	struct ctl_seen s;

	/*
	 * Runs every 50 ms: the episode the CNP below starts lasts seconds,
	 * so it is still running when the test looks, however slow the CPU
	 * (at the default 45 us it can end between two lines under KCSAN).
	 */
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS,
					     "100000000"), 9);

	/* a pin is told to the driver at once */
	KUNIT_EXPECT_EQ(test, ctl(test, fd, "42 pin_mbps=5\n"), 0);
	ctl_look(test, fq, &s);
	KUNIT_EXPECT_EQ(test, s.pinned_bps, 5000000ULL);
	KUNIT_EXPECT_EQ(test, s.told, 5000000ULL);
	KUNIT_EXPECT_EQ(test, fake_qp_rate(other), 0ULL);

	/* the QP's own line rate is the one its loop uses */
	KUNIT_EXPECT_EQ(test, ctl(test, fd, "42  data_rate_mbps=1000\tminimum_rate_percent=20"), 0);
	ctl_look(test, fq, &s);
	KUNIT_EXPECT_EQ(test, s.line_rate_bps, 1000000000ULL);
	KUNIT_EXPECT_EQ(test, s.own_mask,
			BIT(RCC_DATA_RATE_MBPS) | BIT(RCC_MINIMUM_RATE_PERCENT));
	KUNIT_EXPECT_EQ(test, s.pinned_bps, 5000000ULL);

	/* a CNP: the loop runs, the driver still hears the pin */
	fake_qp_cnp(fq);
	ctl_look(test, fq, &s);
	KUNIT_EXPECT_EQ(test, s.told, 5000000ULL);

	KUNIT_EXPECT_EQ(test, rdma_cc_hook_qp_snapshot(&fq->hqp, &snap), 0);
	KUNIT_EXPECT_EQ(test, snap.pinned_bps, 5000000ULL);
	KUNIT_EXPECT_TRUE(test, snap.params_own);
	KUNIT_EXPECT_TRUE(test, snap.congested);
	KUNIT_EXPECT_EQ(test, snap.line_rate_bps, 1000000000ULL);
	KUNIT_EXPECT_EQ(test, snap.cnps, 1ULL);
	KUNIT_EXPECT_EQ(test, snap.episodes, 1ULL);
	KUNIT_EXPECT_LE(test, snap.current_bps, R_BPS);
	KUNIT_EXPECT_LE(test, snap.estimate_ppm, 1000000U);

	/* unpin: the loop's rate, at once */
	KUNIT_EXPECT_EQ(test, ctl(test, fd, "42 unpin"), 0);
	ctl_look(test, fq, &s);
	KUNIT_EXPECT_EQ(test, s.pinned_bps, 0ULL);
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_qp_snapshot(&fq->hqp, &snap), 0);
	KUNIT_EXPECT_TRUE(test, snap.congested);
	KUNIT_EXPECT_EQ(test, s.told, snap.current_bps);

	/* one value back to the device's, then everything */
	KUNIT_EXPECT_EQ(test, ctl(test, fd, "42 data_rate_mbps=device"), 0);
	ctl_look(test, fq, &s);
	KUNIT_EXPECT_EQ(test, s.own_mask, BIT(RCC_MINIMUM_RATE_PERCENT));
	KUNIT_EXPECT_EQ(test, s.line_rate_bps, R_BPS);
	/* "clear" drops what the QP had; the same command's words then apply */
	KUNIT_EXPECT_EQ(test, ctl(test, fd, "42 pin_mbps=7 clear"), 0);
	ctl_look(test, fq, &s);
	KUNIT_EXPECT_EQ(test, s.own_mask, 0UL);
	KUNIT_EXPECT_EQ(test, s.pinned_bps, 7000000ULL);
	KUNIT_EXPECT_EQ(test, ctl(test, fd, "42 clear"), 0);
	ctl_look(test, fq, &s);
	KUNIT_EXPECT_EQ(test, s.own_mask, 0UL);
	KUNIT_EXPECT_EQ(test, s.pinned_bps, 0ULL);

	fake_qp_free(other);
	fake_qp_free(fq);
	fake_dev_free(fd);
}

static const char *const ctl_bad[] = {
	"", "\n", " ", "42", "42 ", "x unpin", "-42 unpin", "42x unpin",
	"4294967296 unpin", "42 bogus", "42 bogus=1", "42 minimum_rate_percent",
	"42 minimum_rate_percent=", "42 minimum_rate_percent=0",
	"42 minimum_rate_percent=101", "42 minimum_rate_percent=5x",
	"42 minimum_rate_percent=-1", "42 minimum_rate_percent=+5",
	"42 minimum_rate_percent=0x10", "42 control_interval_ns=1999",
	"42 control_interval_ns=100000001", "42 data_rate_mbps=10000001",
	"42 pin_mbps=0", "42 pin_mbps=10000001", "42 pin_mbps=", "42 pin_mbps=3 unpin",
	"42 unpin pin_mbps=3", "42 pin_mbps=3 bogus=1",
	"42 minimum_rate_percent=20 control_interval_ns=1",
	"42 MINIMUM_RATE_PERCENT=20", "42 unpin=1", "42 clear=1", "42 =5",
	"42 minimum_rate_percent=device=1", "42 minimum_rate_percent=20\n\n",
};

/* Every bad command fails and leaves the QP as it was. */
static void ctl_refuses(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "ctlbad", R_BPS);
	struct fake_qp *fq = fake_qp_new(test, fd, 42);
	struct ctl_seen before, after;
	char nul[] = "42 clear\0junk";
	unsigned int i;
	char *big;

	KUNIT_ASSERT_EQ(test, ctl(test, fd, "42 pin_mbps=3 number_active_increase_steps=7"), 0);
	ctl_look(test, fq, &before);
	for (i = 0; i < ARRAY_SIZE(ctl_bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ctl(test, fd, ctl_bad[i]), -EINVAL,
				    "\"%s\" was taken", ctl_bad[i]);
		ctl_look(test, fq, &after);
		KUNIT_EXPECT_EQ_MSG(test, after.own_mask, before.own_mask, "%s", ctl_bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, after.pinned_bps, before.pinned_bps, "%s", ctl_bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, after.calls, before.calls, "%s", ctl_bad[i]);
	}
	/* a QP the device does not have */
	KUNIT_EXPECT_EQ(test, ctl(test, fd, "43 unpin"), -ENOENT);
	/* bytes after a NUL, and a command that is too long */
	KUNIT_EXPECT_EQ(test, rcc_control_command(fd->hdev.cc_priv, nul,
						  sizeof(nul) - 1), -EINVAL);
	big = kunit_kzalloc(test, 600, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, ' ', 599);
	memcpy(big, "42 clear", 8);
	KUNIT_EXPECT_EQ(test, rcc_control_command(fd->hdev.cc_priv, big, 599), -EINVAL);
	ctl_look(test, fq, &after);
	KUNIT_EXPECT_EQ(test, after.own_mask, BIT(RCC_NUMBER_ACTIVE_INCREASE_STEPS));
	KUNIT_EXPECT_EQ(test, after.pinned_bps, 3000000ULL);
	KUNIT_EXPECT_EQ(test, after.calls, before.calls);

	fake_qp_free(fq);
	fake_dev_free(fd);
}

/* A QP no congestion control holds has no snapshot. */
static void ctl_snapshot_without_cc(struct kunit *test)
{
	struct rdma_cc_hook_qp *hqp = kunit_kzalloc(test, sizeof(*hqp), GFP_KERNEL);
	struct rdma_cc_qp_snapshot snap;

	KUNIT_ASSERT_NOT_NULL(test, hqp);
	memset(&snap, 0xff, sizeof(snap));
	KUNIT_EXPECT_EQ(test, rdma_cc_hook_qp_snapshot(hqp, &snap), -ENODATA);
	KUNIT_EXPECT_EQ(test, snap.current_bps, 0ULL);
	KUNIT_EXPECT_FALSE(test, snap.congested);
}

static struct kunit_case ctl_cases[] = {
	KUNIT_CASE(ctl_set_and_clear),
	KUNIT_CASE(ctl_refuses),
	KUNIT_CASE(ctl_snapshot_without_cc),
	{}
};

static struct kunit_suite ctl_suite = {
	.name = "rdma_cc_control",
	.test_cases = ctl_cases,
};

kunit_test_suite(ctl_suite);
