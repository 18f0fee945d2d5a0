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
#include <linux/string.h>

#include "fake_driver.h"

struct param_write {
	enum rcc_param id;
	const char *val;
};

/*
 * The hostile table is kunit/hostile-writes.txt itself (its header says the
 * format), built into this file: Kbuild.uml passes its path as
 * RCC_HOSTILE_FILE.  The VM test (tools/testbed/hostile.sh) and the replay
 * tool's tests (tools/tests/test_replay.py) read the same file, so a bad
 * input added there is tried by all three.  Rows "*" and "dev" are tried on
 * every attribute (a "dev" value holds a NUL, which only the per-device
 * store can receive: a module parameter's set() gets a C string), rows
 * naming an attribute on that attribute.
 *
 * Decided, not in the table: leading zeros are decimal ("010" is 10, as
 * for kstrtou32 in base 10), and one newline at the end is allowed (echo).
 */
asm(".pushsection .rodata, \"a\"\n"
	".global rcc_kunit_hostile_txt\n"
	"rcc_kunit_hostile_txt:\n"
	".incbin \"" RCC_HOSTILE_FILE "\"\n"
	".byte 0\n"
	".popsection\n");

#define HOSTILE_MAX_ROWS	256
#define HOSTILE_ALL		-1	/* "*" */
#define HOSTILE_DEV		-2	/* "dev" */

struct hostile_write {
	int where;		/* HOSTILE_ALL, HOSTILE_DEV or an enum rcc_param */
	unsigned int line;	/* in the file */
	const char *bytes;	/* NUL-terminated after @len, as sysfs passes */
	size_t len;
};

static struct hostile_write hostile_rows[HOSTILE_MAX_ROWS];
static unsigned int hostile_nr, hostile_nr_all;
static int hostile_err;		/* the file's first bad line, negated */
static char hostile_pool[64 * 1024];

static int hostile_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One line's value, printf %b escapes decoded, at *@o of the pool. */
static int hostile_decode(const char *s, const char *end, size_t *o)
{
	while (s < end) {
		char c = *s++;

		if (c == '\\') {
			if (s >= end)
				return -EINVAL;
			c = *s++;
			if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (c == 'x') {
				if (end - s < 2 || hostile_hex(s[0]) < 0 ||
				    hostile_hex(s[1]) < 0)
					return -EINVAL;
				c = hostile_hex(s[0]) << 4 | hostile_hex(s[1]);
				s += 2;
			} else if (c != '\\') {
				return -EINVAL;
			}
		}
		if (*o + 1 >= sizeof(hostile_pool))
			return -ENOSPC;
		hostile_pool[(*o)++] = c;
	}
	hostile_pool[(*o)++] = '\0';
	return 0;
}

/* Read the built-in file, once; a bad line sets hostile_err. */
static void hostile_load(void)
{
	const char *s = rcc_kunit_hostile_txt;
	unsigned int line = 0;
	size_t o = 0;

	if (hostile_nr || hostile_err)
		return;
	for (; *s; s = *s ? s + 1 : s) {
		const char *end = strchrnul(s, '\n'), *tab;
		struct hostile_write *w = &hostile_rows[hostile_nr];
		char where[40];
		size_t start;

		line++;
		if (*s == '#' || s == end) {
			s = end;
			continue;
		}
		tab = memchr(s, '\t', end - s);
		if (!tab || tab - s >= sizeof(where) ||
		    hostile_nr == HOSTILE_MAX_ROWS) {
			hostile_err = -line;
			return;
		}
		memcpy(where, s, tab - s);
		where[tab - s] = '\0';
		if (!strcmp(where, "*"))
			w->where = HOSTILE_ALL;
		else if (!strcmp(where, "dev"))
			w->where = HOSTILE_DEV;
		else
			w->where = rcc_param_lookup(where);
		start = o;
		if (w->where == -EINVAL || hostile_decode(tab + 1, end, &o)) {
			hostile_err = -line;
			return;
		}
		w->line = line;
		w->bytes = hostile_pool + start;
		w->len = o - start - 1;
		hostile_nr++;
		if (w->where < 0)
			hostile_nr_all++;
		s = end;
	}
}

static bool hostile_has_nul(const struct hostile_write *w)
{
	return memchr(w->bytes, '\0', w->len);
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

	o = scnprintf(desc, KUNIT_PARAM_DESC_SIZE, "line %u: ", w->line);
	o += hostile_esc(desc + o, KUNIT_PARAM_DESC_SIZE - 16 - o, w->bytes,
			 w->len);
	scnprintf(desc + o, KUNIT_PARAM_DESC_SIZE - o, " (%zu bytes)", w->len);
}

/* The file's "*" and "dev" rows, one case each. */
static const void *hostile_gen_params(const void *prev, char *desc)
{
	const struct hostile_write *w = prev;

	hostile_load();
	for (w = w ? w + 1 : hostile_rows; w < hostile_rows + hostile_nr; w++) {
		if (w->where < 0) {
			hostile_desc(w, desc);
			return w;
		}
	}
	return NULL;
}

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
	int id;

	for (id = 0; id < RCC_NR_PARAMS; id++)
		params_expect_rejected_buf(test, id, w->bytes, w->len,
					   !hostile_has_nul(w));
}

/*
 * The table's rows for one attribute; and one past each bound of every
 * attribute, with and without a newline.
 */
static void params_reject_past_bounds(struct kunit *test)
{
	const struct rcc_param_desc *desc;
	unsigned int i, named = 0;
	char buf[16];
	int id;

	hostile_load();
	KUNIT_ASSERT_EQ_MSG(test, hostile_err, 0,
			    "kunit/hostile-writes.txt: bad line %d", -hostile_err);
	for (i = 0; i < hostile_nr; i++) {
		if (hostile_rows[i].where < 0)
			continue;
		params_expect_rejected(test, hostile_rows[i].where,
				       hostile_rows[i].bytes);
		named++;
	}
	KUNIT_EXPECT_GE(test, named, (unsigned int)RCC_NR_PARAMS);

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
	hostile_load();
	KUNIT_EXPECT_EQ_MSG(test, hostile_err, 0,
			    "kunit/hostile-writes.txt: bad line %d", -hostile_err);
	KUNIT_EXPECT_GT(test, hostile_nr_all, 0U);
	kunit_info(test, "hostile sysfs: %u bad writes tried (table of %u writes x %d attributes, per device and global, plus its %u for one attribute and one past every bound), %u accepted",
		   hostile_tried, hostile_nr_all, RCC_NR_PARAMS,
		   hostile_nr - hostile_nr_all, hostile_accepted);
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
