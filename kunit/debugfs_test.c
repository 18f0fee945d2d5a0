// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_test.c - /sys/kernel/debug/rdma_cc/<dev>/: the files exist, are
 * root only, and say what the QP's state and counters are.
 */
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fake_driver.h"

/* Run a show function into a buffer, as a read of the file does. */
static char *dbg_show(struct kunit *test, int (*show)(struct seq_file *, void *),
		      void *priv)
{
	struct seq_file m = { .size = PAGE_SIZE, .private = priv };

	m.buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	KUNIT_EXPECT_EQ(test, show(&m, NULL), 0);
	KUNIT_EXPECT_LT(test, m.count, m.size);	/* nothing cut off */
	m.buf[min(m.count, m.size - 1)] = '\0';
	return m.buf;
}

static void dbg_expect_line(struct kunit *test, const char *text,
			    const char *line)
{
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, line), "no \"%s\" in:\n%s",
				  line, text);
}

static void dbg_files_and_content(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "dbg", 25000000000ULL);
	struct fake_qp *fq = fake_qp_new(test, fd, 42);
	struct rcc_dev *d = fd->hdev.cc_priv;
	struct dentry *root, *dir, *file;
	char name[RDMA_CC_HOOK_NAME_MAX];
	struct rcc_flow *f;
	char *text;

	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS,
					     "50000000"), 8);
	root = debugfs_lookup("rdma_cc", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, root);
	dir = debugfs_lookup(fd->hdev.name, root);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dir);
	file = debugfs_lookup("qp42", dir);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	KUNIT_EXPECT_EQ(test, d_inode(file)->i_mode & 0777, 0400);
	dput(file);
	file = debugfs_lookup("summary", dir);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	KUNIT_EXPECT_EQ(test, d_inode(file)->i_mode & 0777, 0400);
	dput(file);

	rdma_cc_hook_tx(&fq->hqp, 9);
	rdma_cc_hook_cnp(&fq->hqp);
	rdma_cc_hook_tx(&fq->hqp, 4);
	f = rcu_access_pointer(fq->hqp.cc_priv);
	text = dbg_show(test, rcc_flow_show, f);
	dbg_expect_line(test, text, "qpn: 42\n");
	dbg_expect_line(test, text, "congested: 1\n");
	dbg_expect_line(test, text, "line_rate_bps: 25000000000\n");
	/* Run 0 cut with a = 1: half the line rate. */
	dbg_expect_line(test, text, "current_bps: 12500000000\n");
	dbg_expect_line(test, text, "estimate: 1.000000\n");
	dbg_expect_line(test, text, "interval_packets: 4\n");
	dbg_expect_line(test, text, "timer_armed: 1\n");
	dbg_expect_line(test, text, "cnps: 1\n");
	dbg_expect_line(test, text, "packets: 13\n");
	dbg_expect_line(test, text, "episodes: 1\n");
	dbg_expect_line(test, text, "fr_cut: 1\n");

	text = dbg_show(test, rcc_dev_show, d);
	dbg_expect_line(test, text, "qps: 1\n");
	dbg_expect_line(test, text, "qps_congested: 1\n");
	dbg_expect_line(test, text, "control_interval_ns: 50000000 (device)\n");
	dbg_expect_line(test, text, "minimum_rate_percent: 10\n");
	dbg_expect_line(test, text, "packets: 13\n");

	fake_qp_free(fq);
	file = debugfs_lookup("qp42", dir);
	KUNIT_EXPECT_NULL(test, file);
	dput(file);
	strscpy(name, fd->hdev.name, sizeof(name));
	fake_dev_free(fd);
	file = debugfs_lookup(name, root);
	dput(dir);
	dput(root);
	KUNIT_EXPECT_NULL(test, file);
	dput(file);
}

static struct kunit_case dbg_cases[] = {
	KUNIT_CASE(dbg_files_and_content),
	{}
};

static struct kunit_suite dbg_suite = {
	.name = "rdma_cc_debugfs",
	.test_cases = dbg_cases,
};

kunit_test_suite(dbg_suite);
