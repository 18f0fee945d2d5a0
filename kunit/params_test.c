// SPDX-License-Identifier: GPL-2.0
/*
 * params_test.c - the parameters through the module's real sysfs
 * handlers: the per-device store/show of /sys/kernel/rdma_cc/<dev>/ and
 * the module parameters' set/get (/sys/module/rdma_cc/parameters/, insmod).
 * Every bad write fails with -EINVAL and changes nothing; good ones are
 * read back; a device value never written follows the global one.
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "fake_driver.h"

struct param_write {
	enum rcc_param id;
	const char *val;
};

/* Malformed for every parameter. */
static const char * const params_malformed[] = {
	"", "\n", "abc", "-1", "+5", " 5", "5 ", "5\n\n", "0x10", "010x",
	"1e3", "1.5", "5\t", "4294967296", "99999999999999999999", "5\n5",
};

/* Well-formed but out of the spec's range. */
static const struct param_write params_out_of_range[] = {
	{ RCC_DATA_RATE_MBPS, "10000001" },
	{ RCC_CONTROL_INTERVAL_NS, "0" },
	{ RCC_CONTROL_INTERVAL_NS, "1999" },
	{ RCC_CONTROL_INTERVAL_NS, "100000001" },
	{ RCC_CONGESTION_PROBABILITY_WEIGHT, "0" },
	{ RCC_CONGESTION_PROBABILITY_WEIGHT, "1025" },
	{ RCC_INITIAL_CONGESTION_ESTIMATE, "1025" },
	{ RCC_FAST_RECOVERY_ATTEMPT, "65" },
	{ RCC_NUM_CONTROL_LOOPS_PER_INCREASE, "1001" },
	{ RCC_INITIAL_TARGET_RATE_PERCENT, "101" },
	{ RCC_NUMBER_ACTIVE_INCREASE_STEPS, "0" },
	{ RCC_NUMBER_ACTIVE_INCREASE_STEPS, "1001" },
	{ RCC_MINIMUM_RATE_PERCENT, "0" },
	{ RCC_MINIMUM_RATE_PERCENT, "101\n" },
	{ RCC_LINE_RATE_MARGIN_MBPS, "10000001" },
	{ RCC_LINE_RATE_MARGIN_MBPS, "4294967295" },
};

static void param_write_desc(const struct param_write *w, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s=\"%s\"",
		 rcc_param_descs[w->id].name, w->val);
}

KUNIT_ARRAY_PARAM(params_out_of_range, params_out_of_range, param_write_desc);

static void params_malformed_desc(const char * const *v, char *desc)
{
	int i, o = 0;

	for (i = 0; (*v)[i] && o < KUNIT_PARAM_DESC_SIZE - 3; i++)
		o += scnprintf(desc + o, KUNIT_PARAM_DESC_SIZE - o,
			       (*v)[i] == '\n' ? "\\n" :
			       (*v)[i] == '\t' ? "\\t" : "%c", (*v)[i]);
	if (!o)
		strscpy(desc, "(empty)", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(params_malformed, params_malformed, params_malformed_desc);

static struct kernel_param params_kp(enum rcc_param id)
{
	return (struct kernel_param){
		.name = rcc_param_descs[id].name,
		.ops = &rcc_param_ops,
		.perm = 0644,
		.arg = (void *)&rcc_param_descs[id],
	};
}

static int params_global_set(enum rcc_param id, const char *val)
{
	struct kernel_param kp = params_kp(id);

	return rcc_param_ops.set(val, &kp);
}

static u32 params_global_get(enum rcc_param id)
{
	struct kernel_param kp = params_kp(id);
	char *buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	u32 v = U32_MAX;

	if (buf && rcc_param_ops.get(buf, &kp) > 0 && kstrtou32(buf, 10, &v))
		v = U32_MAX;
	kfree(buf);
	return v;
}

static void params_global_restore(void)
{
	char val[16];
	int i;

	for (i = 0; i < RCC_NR_PARAMS; i++) {
		snprintf(val, sizeof(val), "%u", rcc_param_descs[i].def);
		params_global_set(i, val);
	}
}

static int params_init(struct kunit *test)
{
	test->priv = fake_dev_new(test, "par", 100000000000ULL);
	return 0;
}

static void params_exit(struct kunit *test)
{
	fake_dev_free(test->priv);
	params_global_restore();
}

/* A bad write to @id, per device and global, fails and changes nothing. */
static void params_expect_rejected(struct kunit *test, enum rcc_param id,
				   const char *val)
{
	struct fake_dev *fd = test->priv;
	struct rcc_dev *d = fd->hdev.cc_priv;
	u32 dev_before = fake_dev_show(fd, id);
	u32 glob_before = params_global_get(id);
	struct rcc_params_snap *snap;

	snap = rcu_access_pointer(d->params);
	KUNIT_EXPECT_EQ_MSG(test, fake_dev_store(fd, id, val), (ssize_t)-EINVAL,
			    "%s <- \"%s\"", rcc_param_descs[id].name, val);
	KUNIT_EXPECT_EQ_MSG(test, params_global_set(id, val), -EINVAL,
			    "global %s <- \"%s\"", rcc_param_descs[id].name,
			    val);
	KUNIT_EXPECT_EQ(test, fake_dev_show(fd, id), dev_before);
	KUNIT_EXPECT_EQ(test, params_global_get(id), glob_before);
	/* Nothing was published either. */
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(d->params), snap);
	KUNIT_EXPECT_FALSE(test, d->own_mask & BIT(id));
}

static void params_reject_out_of_range(struct kunit *test)
{
	const struct param_write *w = test->param_value;

	params_expect_rejected(test, w->id, w->val);
}

static void params_reject_malformed(struct kunit *test)
{
	const char * const *v = test->param_value;
	int id;

	for (id = 0; id < RCC_NR_PARAMS; id++)
		params_expect_rejected(test, id, *v);
}

/* min, max and default of every parameter are accepted and read back. */
static void params_accept_bounds(struct kunit *test)
{
	struct fake_dev *fd = test->priv;
	const struct rcc_param_desc *desc;
	u32 vals[3];
	char buf[16];
	int id, k;

	for (id = 0; id < RCC_NR_PARAMS; id++) {
		desc = &rcc_param_descs[id];
		vals[0] = desc->min;
		vals[1] = desc->max;
		vals[2] = desc->def;
		for (k = 0; k < 3; k++) {
			snprintf(buf, sizeof(buf), "%u\n", vals[k]);
			KUNIT_EXPECT_EQ(test, fake_dev_store(fd, id, buf),
					(ssize_t)strlen(buf));
			KUNIT_EXPECT_EQ(test, fake_dev_show(fd, id), vals[k]);
			buf[strlen(buf) - 1] = '\0';	/* as insmod passes it */
			KUNIT_EXPECT_EQ(test, params_global_set(id, buf), 0);
			KUNIT_EXPECT_EQ(test, params_global_get(id), vals[k]);
		}
	}
}

/* An unwritten device value follows the global one; a written one not. */
static void params_device_follows_global(struct kunit *test)
{
	struct fake_dev *fd = test->priv;
	struct rcc_params p;

	KUNIT_EXPECT_EQ(test, fake_dev_show(fd, RCC_CONTROL_INTERVAL_NS),
			45000U);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_MINIMUM_RATE_PERCENT,
					     "20"), 2);
	KUNIT_ASSERT_EQ(test, params_global_set(RCC_CONTROL_INTERVAL_NS,
						"90000"), 0);
	KUNIT_ASSERT_EQ(test, params_global_set(RCC_MINIMUM_RATE_PERCENT,
						"30"), 0);
	KUNIT_EXPECT_EQ(test, fake_dev_show(fd, RCC_CONTROL_INTERVAL_NS),
			90000U);
	KUNIT_EXPECT_EQ(test, fake_dev_show(fd, RCC_MINIMUM_RATE_PERCENT), 20U);
	KUNIT_EXPECT_EQ(test, params_global_get(RCC_MINIMUM_RATE_PERCENT), 30U);
	/* The runs' set agrees with what the files show. */
	fake_dev_params(fd, &p);
	KUNIT_EXPECT_EQ(test, p.control_interval_ns, 90000U);
	KUNIT_EXPECT_EQ(test, p.minimum_rate_percent, 20U);

	/* A device registered now starts from the global values. */
	{
		struct fake_dev *fd2 = fake_dev_new(test, "par", 1000000000ULL);

		KUNIT_EXPECT_EQ(test,
				fake_dev_show(fd2, RCC_CONTROL_INTERVAL_NS),
				90000U);
		KUNIT_EXPECT_EQ(test,
				fake_dev_show(fd2, RCC_MINIMUM_RATE_PERCENT),
				30U);
		fake_dev_free(fd2);
	}
}

/* data_rate_mbps overrides the device's link speed; 0 gives it back. */
static void params_data_rate_overrides_link(struct kunit *test)
{
	struct fake_dev *fd = test->priv;
	struct rcc_dev *d = fd->hdev.cc_priv;
	struct rcc_params p;

	fake_dev_params(fd, &p);
	KUNIT_EXPECT_EQ(test, rcc_dev_line_rate(d, &p), 100000000000ULL);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_DATA_RATE_MBPS, "25000"),
			5);
	fake_dev_params(fd, &p);
	KUNIT_EXPECT_EQ(test, rcc_dev_line_rate(d, &p), 25000000000ULL);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_DATA_RATE_MBPS, "0"), 1);
	fake_dev_params(fd, &p);
	KUNIT_EXPECT_EQ(test, rcc_dev_line_rate(d, &p), 100000000000ULL);
}

static struct kunit_case params_cases[] = {
	KUNIT_CASE_PARAM(params_reject_out_of_range,
			 params_out_of_range_gen_params),
	KUNIT_CASE_PARAM(params_reject_malformed, params_malformed_gen_params),
	KUNIT_CASE(params_accept_bounds),
	KUNIT_CASE(params_device_follows_global),
	KUNIT_CASE(params_data_rate_overrides_link),
	{}
};

static struct kunit_suite params_suite = {
	.name = "rdma_cc_params",
	.init = params_init,
	.exit = params_exit,
	.test_cases = params_cases,
};

kunit_test_suite(params_suite);
