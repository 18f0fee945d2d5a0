// SPDX-License-Identifier: GPL-2.0
/*
 * params_test.c - the parameters through the module's real sysfs
 * handlers: the per-device store/show of /sys/kernel/rdma_cc/<dev>/ and
 * the module parameters' set/get (/sys/module/rdma_cc/parameters/, insmod).
 * Every bad write fails with -EINVAL and changes nothing (the hostile
 * table, to every attribute); good ones are read back; a device value
 * never written follows the global one.
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "fake_driver.h"

struct param_write {
	enum rcc_param id;
	const char *val;
};

/*
 * The hostile table: writes that are bad for every parameter, each tried
 * on every attribute, per device and global.  A value is @head, then @fill
 * repeated @repeat times, then @tail; @head may hold NULs (its length is
 * the literal's), which only the per-device store can receive: a module
 * parameter's set() gets a C string.  kunit/hostile-writes.txt is the same
 * table for replaying through the real files.
 *
 * Decided, not in the table: leading zeros are decimal ("010" is 10, as
 * for kstrtou32 in base 10), and one newline at the end is allowed (echo).
 */
struct hostile_write {
	const char *head;
	size_t head_len;
	char fill;
	unsigned int repeat;
	const char *tail;
};

#define HW(s) { .head = s, .head_len = sizeof(s) - 1, .tail = "" }
#define HW_LONG(h, c, n, t) \
	{ .head = h, .head_len = sizeof(h) - 1, .fill = c, .repeat = n, \
	  .tail = t }

static const struct hostile_write hostile_writes[] = {
	/* empty and whitespace */
	HW(""), HW("\n"), HW(" "), HW("\t"), HW_LONG("", ' ', 2, "\n"),
	HW("\n\n"), HW("\r\n"),
	/* signs */
	HW("-1"), HW("-0"), HW("+5"), HW("+0"), HW("-4294967296"),
	/* spaces, tabs and newlines around or inside */
	HW(" 5"), HW("5 "), HW("\t5"), HW("5\t"), HW("5\n\n"), HW("\n5"),
	HW("5\r\n"), HW("5\n5"), HW("5 5"),
	HW_LONG("5", ' ', 1, "\n"),
	/* other bases and notations */
	HW("0x10"), HW("0X10"), HW("0b1"), HW("0o7"), HW("010x"), HW("1e3"),
	HW("1.5"), HW("5."), HW(".5"), HW("1,000"), HW("1_000"),
	/* words */
	HW("abc"), HW("5abc"), HW("nan"), HW("y"),
	/* too big for u32 or for any parameter */
	HW("4294967295"), HW("4294967296"), HW("4294967296\n"),
	HW("18446744073709551615"), HW("18446744073709551616"),
	HW("99999999999999999999"),
	/* not ASCII digits: Arabic-Indic five, fullwidth five, bytes >= 0x80 */
	HW("\xd9\xa5"), HW("\xef\xbc\x95"), HW("5\x80"), HW("\xff"),
	/* embedded NULs (per device only) */
	HW("\0"), HW("5\0"), HW("5\0junk"), HW("\0005"), HW("5\n\0"),
	/* very long: 4096 digits, a page of spaces */
	HW_LONG("", '9', 4096, ""), HW_LONG("1", '0', 4095, ""),
	HW_LONG("", '0', 4095, "x"), HW_LONG("", ' ', 4096, ""),
	HW_LONG("5", ' ', 4095, ""),
};

static bool hostile_has_nul(const struct hostile_write *w)
{
	return memchr(w->head, '\0', w->head_len);
}

/* The bytes of @w (NUL-terminated after them, as sysfs passes them). */
static char *hostile_bytes(const struct hostile_write *w, size_t *len)
{
	size_t tl = strlen(w->tail);
	char *buf;

	*len = w->head_len + w->repeat + tl;
	buf = kzalloc(*len + 1, GFP_KERNEL);
	if (!buf)
		return NULL;
	memcpy(buf, w->head, w->head_len);
	memset(buf + w->head_len, w->fill, w->repeat);
	memcpy(buf + w->head_len + w->repeat, w->tail, tl);
	return buf;
}

static int hostile_esc(char *d, int size, const char *s, size_t n)
{
	int o = 0;
	size_t i;

	d[0] = '\0';
	for (i = 0; i < n && o < size - 5; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			o += scnprintf(d + o, size - o, "\\n");
		else if (c == '\t')
			o += scnprintf(d + o, size - o, "\\t");
		else if (c == ' ')
			o += scnprintf(d + o, size - o, "\\x20");
		else if (c < 0x20 || c >= 0x7f)
			o += scnprintf(d + o, size - o, "\\x%02x", c);
		else
			o += scnprintf(d + o, size - o, "%c", c);
	}
	return o;
}

static void hostile_desc(const struct hostile_write *w, char *desc)
{
	int o;

	o = hostile_esc(desc, KUNIT_PARAM_DESC_SIZE, w->head, w->head_len);
	if (w->repeat)
		o += scnprintf(desc + o, KUNIT_PARAM_DESC_SIZE - o,
			       "[%u*'%c']%s", w->repeat, w->fill, w->tail);
	if (!o)
		strscpy(desc, "(empty)", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hostile, hostile_writes, hostile_desc);

/* Bad writes tried (per attribute and interface), and those accepted. */
static unsigned int hostile_tried, hostile_accepted;

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
	int o;

	o = scnprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s=",
		      rcc_param_descs[w->id].name);
	hostile_esc(desc + o, KUNIT_PARAM_DESC_SIZE - o, w->val,
		    strlen(w->val));
}

KUNIT_ARRAY_PARAM(params_out_of_range, params_out_of_range, param_write_desc);

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

/*
 * A bad write of @len bytes at @val to @id fails with -EINVAL and changes
 * nothing: per device, and (@global) as a module parameter.
 */
static void params_expect_rejected_buf(struct kunit *test, enum rcc_param id,
				       const char *val, size_t len,
				       bool global)
{
	struct fake_dev *fd = test->priv;
	struct rcc_dev *d = fd->hdev.cc_priv;
	u32 dev_before = fake_dev_show(fd, id);
	u32 glob_before = params_global_get(id);
	struct rcc_params_snap *snap;
	const char *name = rcc_param_descs[id].name;
	char shown[48];
	ssize_t ret;
	int err;

	hostile_esc(shown, sizeof(shown), val, len);
	snap = rcu_access_pointer(d->params);
	ret = fake_dev_store_buf(fd, id, val, len);
	hostile_tried++;
	if (ret >= 0)
		hostile_accepted++;
	KUNIT_EXPECT_EQ_MSG(test, ret, (ssize_t)-EINVAL, "%s <- \"%s\" (%zu bytes)",
			    name, shown, len);
	if (global) {
		err = params_global_set(id, val);
		hostile_tried++;
		if (!err)
			hostile_accepted++;
		KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL,
				    "global %s <- \"%s\" (%zu bytes)", name,
				    shown, len);
	}
	KUNIT_EXPECT_EQ(test, fake_dev_show(fd, id), dev_before);
	KUNIT_EXPECT_EQ(test, params_global_get(id), glob_before);
	/* Nothing was published either. */
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(d->params), snap);
	KUNIT_EXPECT_FALSE(test, d->own_mask & BIT(id));
}

static void params_expect_rejected(struct kunit *test, enum rcc_param id,
				   const char *val)
{
	params_expect_rejected_buf(test, id, val, strlen(val), true);
}

static void params_reject_out_of_range(struct kunit *test)
{
	const struct param_write *w = test->param_value;

	params_expect_rejected(test, w->id, w->val);
}

/* One write of the hostile table, to every attribute. */
static void params_reject_hostile(struct kunit *test)
{
	const struct hostile_write *w = test->param_value;
	size_t len;
	char *buf = hostile_bytes(w, &len);
	int id;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (id = 0; id < RCC_NR_PARAMS; id++)
		params_expect_rejected_buf(test, id, buf, len,
					   !hostile_has_nul(w));
	kfree(buf);
}

/* One past each bound of every attribute, with and without a newline. */
static void params_reject_past_bounds(struct kunit *test)
{
	const struct rcc_param_desc *desc;
	char buf[16];
	int id;

	for (id = 0; id < RCC_NR_PARAMS; id++) {
		desc = &rcc_param_descs[id];
		if (desc->min > 0) {
			snprintf(buf, sizeof(buf), "%u", desc->min - 1);
			params_expect_rejected(test, id, buf);
			snprintf(buf, sizeof(buf), "%u\n", desc->min - 1);
			params_expect_rejected(test, id, buf);
		}
		snprintf(buf, sizeof(buf), "%u", desc->max + 1);
		params_expect_rejected(test, id, buf);
		snprintf(buf, sizeof(buf), "%u\n", desc->max + 1);
		params_expect_rejected(test, id, buf);
	}
}

/* Leading zeros are decimal, not octal: "010" is 10. */
static void params_accept_leading_zeros(struct kunit *test)
{
	struct fake_dev *fd = test->priv;
	char *buf = kzalloc(4096, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, fake_dev_store(fd, RCC_FAST_RECOVERY_ATTEMPT,
					     "010"), 3);
	KUNIT_EXPECT_EQ(test, fake_dev_show(fd, RCC_FAST_RECOVERY_ATTEMPT), 10U);
	KUNIT_EXPECT_EQ(test, params_global_set(RCC_FAST_RECOVERY_ATTEMPT,
						"010"), 0);
	KUNIT_EXPECT_EQ(test, params_global_get(RCC_FAST_RECOVERY_ATTEMPT),
			10U);
	/* A page of zeros then "7\n" is 7 (a sysfs write is at most a page). */
	memset(buf, '0', 4093);
	strscpy(buf + 4093, "7\n", 3);
	KUNIT_EXPECT_EQ(test, fake_dev_store(fd, RCC_FAST_RECOVERY_ATTEMPT,
					     buf), 4095);
	KUNIT_EXPECT_EQ(test, fake_dev_show(fd, RCC_FAST_RECOVERY_ATTEMPT), 7U);
	kfree(buf);
}

/* Runs last: how many bad writes the cases above tried. */
static void params_hostile_total(struct kunit *test)
{
	kunit_info(test, "hostile sysfs: %u bad writes tried (table of %zu writes x %d attributes, per device and global, plus one past every bound), %u accepted",
		   hostile_tried, ARRAY_SIZE(hostile_writes), RCC_NR_PARAMS,
		   hostile_accepted);
	KUNIT_EXPECT_EQ(test, hostile_accepted, 0U);
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
	KUNIT_CASE_PARAM(params_reject_hostile, hostile_gen_params),
	KUNIT_CASE(params_reject_past_bounds),
	KUNIT_CASE(params_accept_bounds),
	KUNIT_CASE(params_accept_leading_zeros),
	KUNIT_CASE(params_device_follows_global),
	KUNIT_CASE(params_data_rate_overrides_link),
	KUNIT_CASE(params_hostile_total),
	{}
};

static struct kunit_suite params_suite = {
	.name = "rdma_cc_params",
	.init = params_init,
	.exit = params_exit,
	.test_cases = params_cases,
};

kunit_test_suite(params_suite);
