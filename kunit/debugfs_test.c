// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_test.c - /sys/kernel/debug/rdma_cc/<dev>/: the three files exist
 * with their modes and nothing per QP; "qps" lists every QP under its
 * header, also when read a few bytes at a time; "qp" shows the QP whose
 * number was written and refuses bad numbers; "summary" sums the device.
 */
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "fake_driver.h"

#define DBG_BUF	8192

static void dbg_expect_line(struct kunit *test, const char *text,
			    const char *line)
{
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, line), "no \"%s\" in:\n%s",
				  line, text);
}

/* A debugfs file of @dir, opened with @fops as the VFS would. */
static struct file *dbg_open(struct kunit *test, struct dentry *dir,
			     const char *name, umode_t mode,
			     const struct file_operations *fops)
{
	struct dentry *de = debugfs_lookup(name, dir);
	struct file *file;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, de);
	KUNIT_EXPECT_EQ(test, d_inode(de)->i_mode & 0777, mode);
	file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, file);
	file->f_mode = FMODE_READ | FMODE_WRITE;
	file->f_inode = d_inode(de);
	KUNIT_ASSERT_EQ(test, fops->open(d_inode(de), file), 0);
	dput(de);
	return file;
}

/*
 * Read @file to its end, @chunk bytes a read (each read resumes where the
 * last stopped), into a NUL-terminated buffer; the read's error, or 0.
 */
static int dbg_read(struct kunit *test, const struct file_operations *fops,
		    struct file *file, size_t chunk, char *out)
{
	size_t len = 0;
	ssize_t n;

	file->f_pos = 0;
	do {
		struct kvec kv = { .iov_base = out + len, .iov_len = chunk };
		struct iov_iter it;
		struct kiocb kiocb;

		KUNIT_ASSERT_LT(test, len + chunk, (size_t)DBG_BUF);
		init_sync_kiocb(&kiocb, file);
		kiocb.ki_pos = file->f_pos;
		iov_iter_kvec(&it, READ, &kv, 1, chunk);
		n = fops->read_iter(&kiocb, &it);
		if (n < 0)
			return n;
		file->f_pos = kiocb.ki_pos;
		len += n;
	} while (n > 0);
	out[len] = '\0';
	return 0;
}

static void dbg_files_and_content(struct kunit *test)
{
	struct fake_dev *fd = fake_dev_new(test, "dbg", 25000000000ULL);
	struct fake_qp *fq = fake_qp_new(test, fd, 42);
	struct fake_qp *fq2 = fake_qp_new(test, fd, 7);
	struct rcc_dev *d = fd->hdev.cc_priv;
	char *text = kunit_kzalloc(test, DBG_BUF, GFP_KERNEL);
	char *whole = kunit_kzalloc(test, DBG_BUF, GFP_KERNEL);
	struct file *qps, *qp;
	struct dentry *root, *dir, *de;
	char name[RDMA_CC_HOOK_NAME_MAX];
	int n;

	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_NOT_NULL(test, whole);
	KUNIT_ASSERT_EQ(test, fake_dev_store(fd, RCC_CONTROL_INTERVAL_NS,
					     "50000000"), 8);
	root = debugfs_lookup("rdma_cc", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, root);
	dir = debugfs_lookup(fd->hdev.name, root);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dir);
	/* nothing per QP */
	de = debugfs_lookup("qp42", dir);
	KUNIT_EXPECT_NULL(test, de);
	dput(de);
	qps = dbg_open(test, dir, "qps", 0400, &rcc_qps_fops);
	qp = dbg_open(test, dir, "qp", 0600, &rcc_qp_file_fops);
	de = debugfs_lookup("summary", dir);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, de);
	KUNIT_EXPECT_EQ(test, d_inode(de)->i_mode & 0777, 0400);
	dput(de);

	rdma_cc_hook_tx(&fq->hqp, 9);
	rdma_cc_hook_cnp(&fq->hqp);
	rdma_cc_hook_tx(&fq->hqp, 4);

	/* the table: the header, then QP 7 (idle), then QP 42 */
	KUNIT_ASSERT_EQ(test, dbg_read(test, &rcc_qps_fops, qps, PAGE_SIZE,
				       whole), 0);
	KUNIT_EXPECT_EQ(test, strncmp(whole, "qpn congested current_bps ", 26),
			0);
	dbg_expect_line(test, whole, " ai_inc floor_hits congested_ns\n");
	/* QP 7: at line rate, nothing counted; QP 42: as "qp" shows below */
	dbg_expect_line(test, whole, "\n7 0 25000000000 25000000000 0 0.000000 0 0 0 0 0 0 none ");
	dbg_expect_line(test, whole, " none 0 0 0 0 0 0 0 0 0 0 0 0 0\n42 1 ");
	dbg_expect_line(test, whole, "\n42 1 12500000000 25000000000 12500000000 1.000000 0 ");
	/* three lines, the last QP 42's */
	KUNIT_EXPECT_EQ(test, (int)strlen(strchr(strchr(strchr(whole, '\n') + 1,
							'\n') + 1, '\n')), 1);
	/*
	 * Read 5 bytes at a time: the same table (QP 42's timer may have run
	 * in between: compare up to its row).
	 */
	KUNIT_ASSERT_EQ(test, dbg_read(test, &rcc_qps_fops, qps, 5, text), 0);
	n = strstr(whole, "\n42 ") - whole;
	KUNIT_EXPECT_EQ(test, strncmp(text, whole, n), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\n42 1 "));
	KUNIT_EXPECT_EQ(test, text[strlen(text) - 1], '\n');

	/* the detail: before any write there is no QP 0 */
	KUNIT_EXPECT_EQ(test, dbg_read(test, &rcc_qp_file_fops, qp, PAGE_SIZE,
				       text), -ENODATA);
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, "42\n"), 0);
	KUNIT_ASSERT_EQ(test, dbg_read(test, &rcc_qp_file_fops, qp, PAGE_SIZE,
				       text), 0);
	dbg_expect_line(test, text, "qpn: 42\n");
	dbg_expect_line(test, text, "congested: 1\n");
	dbg_expect_line(test, text, "line_rate_bps: 25000000000\n");
	/* Run 0 cut with a = 1: half the line rate. */
	dbg_expect_line(test, text, "current_bps: 12500000000\n");
	dbg_expect_line(test, text, "told_bps: 12500000000\n");
	dbg_expect_line(test, text, "estimate: 1.000000\n");
	dbg_expect_line(test, text, "interval_packets: 4\n");
	dbg_expect_line(test, text, "timer_armed: 1\n");
	dbg_expect_line(test, text, "cnps: 1\n");
	dbg_expect_line(test, text, "packets: 13\n");
	dbg_expect_line(test, text, "episodes: 1\n");
	dbg_expect_line(test, text, "runs: 1\n");
	dbg_expect_line(test, text, "fr_cut: 1\n");
	/* bad numbers change nothing */
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, "0x7"), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, "7 "), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, "4294967296"), -EINVAL);
	KUNIT_ASSERT_EQ(test, dbg_read(test, &rcc_qp_file_fops, qp, PAGE_SIZE,
				       text), 0);
	dbg_expect_line(test, text, "qpn: 42\n");
	/* a QP that is not there */
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, "8"), 0);
	KUNIT_EXPECT_EQ(test, dbg_read(test, &rcc_qp_file_fops, qp, PAGE_SIZE,
				       text), -ENODATA);
	KUNIT_EXPECT_EQ(test, rcc_qp_file_select(qp, "7"), 0);
	KUNIT_ASSERT_EQ(test, dbg_read(test, &rcc_qp_file_fops, qp, PAGE_SIZE,
				       text), 0);
	dbg_expect_line(test, text, "qpn: 7\n");
	dbg_expect_line(test, text, "next_run_ns: none\n");
	/* a new open starts at the number last written by anyone */
	rcc_qp_file_fops.release(qp->f_inode, qp);
	qp = dbg_open(test, dir, "qp", 0600, &rcc_qp_file_fops);
	KUNIT_ASSERT_EQ(test, dbg_read(test, &rcc_qp_file_fops, qp, PAGE_SIZE,
				       text), 0);
	dbg_expect_line(test, text, "qpn: 7\n");

	/* the summary */
	{
		struct seq_file m = { .size = PAGE_SIZE, .private = d };

		m.buf = text;
		KUNIT_EXPECT_EQ(test, rcc_dev_show(&m, NULL), 0);
		KUNIT_EXPECT_LT(test, m.count, m.size);
		text[min(m.count, m.size - 1)] = '\0';
	}
	dbg_expect_line(test, text, "qps: 2\n");
	dbg_expect_line(test, text, "qps_congested: 1\n");
	dbg_expect_line(test, text, "control_interval_ns: 50000000 (device)\n");
	dbg_expect_line(test, text, "minimum_rate_percent: 10\n");
	dbg_expect_line(test, text, "packets: 13\n");

	/* a QP that goes leaves the table */
	fake_qp_free(fq);
	KUNIT_ASSERT_EQ(test, dbg_read(test, &rcc_qps_fops, qps, PAGE_SIZE,
				       whole), 0);
	KUNIT_EXPECT_NULL(test, strstr(whole, "\n42 "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(whole, "\n7 0 "));
	rcc_qps_fops.release(qps->f_inode, qps);
	rcc_qp_file_fops.release(qp->f_inode, qp);
	fake_qp_free(fq2);

	strscpy(name, fd->hdev.name, sizeof(name));
	fake_dev_free(fd);
	de = debugfs_lookup(name, root);
	dput(dir);
	dput(root);
	KUNIT_EXPECT_NULL(test, de);
	dput(de);
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
