// SPDX-License-Identifier: GPL-2.0
/*
 * rdma-cc-top - every QP rdma_cc holds, on every device, like top(1).
 *
 *   rdma-cc-top [--sort=rate|cnps|estimate] [--reverse] [--interval=S]
 *               [--count=N] [--once] [--format=table|csv|json|prom]
 *               [--debugfs=DIR] [--sysfs=DIR]
 *
 * Reads rdma_cc's debugfs (/sys/kernel/debug/rdma_cc/<device>/: "qps", a
 * table of the device's QPs, a header line of column names and a line per
 * QP, with the line rate in "summary"; or, from older modules, a
 * "key: value" file per QP, qp<qpn>) and each RDMA port's hw counters
 * (/sys/class/infiniband/<device>/ports/<port>/hw_counters/).  Refreshes
 * every --interval seconds (default 1) until interrupted or --count
 * refreshes; --once prints one snapshot for scripts, as a table, CSV,
 * JSON or the Prometheus text format (for node exporter's textfile
 * collector).  --sort=rate lists the slowest QPs first, cnps and estimate
 * the most congested first; --reverse turns the order round.
 *
 * Exit status: 0 (also when rdma_cc is not loaded: no QPs, the ports'
 * counters still), 1 when debugfs cannot be read, 2 on a bad option.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_KEYS	48
#define MAX_QPS		16384
#define MAX_PORTS	64
#define MAX_CTRS	128
#define ARRAY_SIZE(a)	((int)(sizeof(a) / sizeof((a)[0])))

struct kv {
	char key[40];
	char val[40];
};

struct qp {
	char dev[64];
	int nkv;
	struct kv kv[MAX_KEYS];
};

struct port {
	char dev[64];
	char port[16];
	int n;
	struct kv ctr[MAX_CTRS];
};

static struct qp *qps;
static int nqps;
static struct port ports[MAX_PORTS];
static int nports;

enum sort_key { SORT_RATE, SORT_CNPS, SORT_EST };
static enum sort_key sort_by = SORT_RATE;
static int reverse;
static const char *debugfs = "/sys/kernel/debug/rdma_cc";
static const char *sysfs = "/sys/class/infiniband";
static volatile sig_atomic_t stop;

static const char *get(const struct qp *q, const char *key)
{
	int i;

	for (i = 0; i < q->nkv; i++)
		if (!strcmp(q->kv[i].key, key))
			return q->kv[i].val;
	return NULL;
}

static double num(const struct qp *q, const char *key)
{
	const char *v = get(q, key);

	return v ? strtod(v, NULL) : 0;
}

static void put(struct qp *q, const char *key, const char *val)
{
	struct kv *kv;

	if (q->nkv >= MAX_KEYS || get(q, key))
		return;
	kv = &q->kv[q->nkv++];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val);
}

static struct qp *new_qp(const char *dev)
{
	struct qp *q;

	if (nqps >= MAX_QPS)
		return NULL;
	q = &qps[nqps++];
	memset(q, 0, sizeof(*q));
	snprintf(q->dev, sizeof(q->dev), "%s", dev);
	return q;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* A "key: value" file of one QP (qp<qpn>). */
static int read_qp_file(const char *dev, const char *path)
{
	char line[256], *colon, *v;
	struct qp *q;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -1;	/* the QP just went */
	q = new_qp(dev);
	while (q && fgets(line, sizeof(line), f)) {
		chomp(line);
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		for (v = colon + 1; *v == ' '; v++)
			;
		put(q, line, v);
	}
	fclose(f);
	if (q && !get(q, "qpn"))
		nqps--;
	return 0;
}

/*
 * A table of a device's QPs: a header line of column names, the first
 * "qpn" (a leading '#' is allowed), then one line of values per QP.
 * Returns 1 when @path is such a table, 0 when it is not, -1 on error.
 */
static int read_qp_table(const char *dev, const char *path)
{
	char line[4096], *cols[MAX_KEYS], *tok, *save, *h;
	char header[4096];
	int ncols = 0, i;
	struct qp *q;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(header, sizeof(header), f)) {
		fclose(f);
		return 0;
	}
	chomp(header);
	for (h = header; *h == '#' || *h == ' '; h++)
		;
	for (tok = strtok_r(h, " \t", &save); tok && ncols < MAX_KEYS;
	     tok = strtok_r(NULL, " \t", &save))
		cols[ncols++] = tok;
	if (!ncols || strcmp(cols[0], "qpn")) {
		fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		chomp(line);
		if (!line[0] || line[0] == '#')
			continue;
		q = new_qp(dev);
		if (!q)
			break;
		i = 0;
		for (tok = strtok_r(line, " \t", &save); tok && i < ncols;
		     tok = strtok_r(NULL, " \t", &save))
			put(q, cols[i++], tok);
	}
	fclose(f);
	return 1;
}

/*
 * A table leaves the line rate, the device's, to its "summary": give it to
 * the device's QPs from @first on.
 */
static void device_line_rate(const char *dev, int first)
{
	char path[1024], line[256];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s/summary", debugfs, dev);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		chomp(line);
		if (strncmp(line, "line_rate_bps: ", 15))
			continue;
		for (i = first; i < nqps; i++)
			put(&qps[i], "line_rate_bps", line + 15);
		break;
	}
	fclose(f);
}

static int is_qp_file(const char *name)
{
	const char *p = name + 2;

	if (strncmp(name, "qp", 2) || !*p)
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in @path, sorted; NULL on error.  Free each and the array. */
static char **list_dir(const char *path, int *n)
{
	char **names = NULL;
	struct dirent *e;
	int cap = 0;
	DIR *d;

	*n = 0;
	d = opendir(path);
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				exit(1);
		}
		names[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (!names)
		names = calloc(1, sizeof(*names));
	qsort(names, *n, sizeof(*names), cmp_name);
	return names;
}

static void free_list(char **names, int n)
{
	while (n--)
		free(names[n]);
	free(names);
}

static int read_qps(void)
{
	char path[1024], **devs, **files;
	int ndev, nf, i, j, err = 0, tables, first;

	nqps = 0;
	devs = list_dir(debugfs, &ndev);
	if (!devs && errno == ENOENT)
		return 0;	/* rdma_cc not loaded: no QPs, the ports still */
	if (!devs) {
		fprintf(stderr, "rdma-cc-top: cannot read %s: %s (rdma_cc loaded? debugfs mounted? root?)\n",
			debugfs, strerror(errno));
		return -1;
	}
	for (i = 0; i < ndev; i++) {
		snprintf(path, sizeof(path), "%s/%s", debugfs, devs[i]);
		files = list_dir(path, &nf);
		if (!files)
			continue;
		tables = 0;
		first = nqps;
		/* a table, if the device has one, else the per-QP files */
		for (j = 0; j < nf; j++) {
			if (is_qp_file(files[j]) || !strcmp(files[j], "summary") ||
			    !strcmp(files[j], "qp_control") ||
			    !strcmp(files[j], "qp"))
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", debugfs,
				 devs[i], files[j]);
			if (read_qp_table(devs[i], path) > 0)
				tables++;
		}
		if (tables)
			device_line_rate(devs[i], first);
		for (j = 0; !tables && j < nf; j++) {
			if (!is_qp_file(files[j]))
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", debugfs,
				 devs[i], files[j]);
			if (read_qp_file(devs[i], path))
				err = -1;
		}
		free_list(files, nf);
	}
	free_list(devs, ndev);
	return err;
}

static void read_ports(void)
{
	char path[1024], **devs, **pl, **cl, buf[64];
	int ndev, np, nc, i, j, k;
	struct port *p;
	FILE *f;

	nports = 0;
	devs = list_dir(sysfs, &ndev);
	if (!devs)
		return;
	for (i = 0; i < ndev; i++) {
		snprintf(path, sizeof(path), "%s/%s/ports", sysfs, devs[i]);
		pl = list_dir(path, &np);
		for (j = 0; pl && j < np && nports < MAX_PORTS; j++) {
			snprintf(path, sizeof(path), "%s/%s/ports/%s/hw_counters",
				 sysfs, devs[i], pl[j]);
			cl = list_dir(path, &nc);
			if (!cl)
				continue;
			p = &ports[nports++];
			memset(p, 0, sizeof(*p));
			snprintf(p->dev, sizeof(p->dev), "%s", devs[i]);
			snprintf(p->port, sizeof(p->port), "%s", pl[j]);
			for (k = 0; k < nc && p->n < MAX_CTRS; k++) {
				snprintf(path, sizeof(path),
					 "%s/%s/ports/%s/hw_counters/%s",
					 sysfs, devs[i], pl[j], cl[k]);
				f = fopen(path, "r");
				if (!f)
					continue;
				if (fgets(buf, sizeof(buf), f)) {
					chomp(buf);
					snprintf(p->ctr[p->n].key,
						 sizeof(p->ctr[p->n].key), "%s", cl[k]);
					snprintf(p->ctr[p->n].val,
						 sizeof(p->ctr[p->n].val), "%s", buf);
					p->n++;
				}
				fclose(f);
			}
			free_list(cl, nc);
		}
		if (pl)
			free_list(pl, np);
	}
	free_list(devs, ndev);
}

static const char *port_ctr(const struct port *p, const char *key)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->ctr[i].key, key))
			return p->ctr[i].val;
	return "-";
}

/* The rate a QP sends at: the loop's while congested, else line rate. */
static double rate_of(const struct qp *q)
{
	if (get(q, "current_bps"))
		return num(q, "current_bps");
	return num(q, "line_rate_bps");
}

static int cmp_qp(const void *a, const void *b)
{
	const struct qp *x = a, *y = b;
	double vx, vy;
	int r;

	switch (sort_by) {
	case SORT_CNPS:
		vx = -num(x, "cnps");
		vy = -num(y, "cnps");
		break;
	case SORT_EST:
		vx = -num(x, "estimate");
		vy = -num(y, "estimate");
		break;
	default:
		vx = rate_of(x);
		vy = rate_of(y);
		break;
	}
	r = vx < vy ? -1 : vx > vy;
	if (!r)
		r = strcmp(x->dev, y->dev);
	if (!r)
		r = num(x, "qpn") < num(y, "qpn") ? -1 : num(x, "qpn") > num(y, "qpn");
	return reverse ? -r : r;
}

/* The columns every format shows, in order: name, key in debugfs. */
static const char *const cols[][2] = {
	{ "device", NULL },
	{ "qpn", "qpn" },
	{ "congested", "congested" },
	{ "current_bps", "current_bps" },
	{ "target_bps", "target_bps" },
	{ "line_rate_bps", "line_rate_bps" },
	{ "told_bps", "told_bps" },
	{ "estimate", "estimate" },
	{ "cnps", "cnps" },
	{ "episodes", "episodes" },
	{ "packets", "packets" },
};
#define NCOLS ARRAY_SIZE(cols)

static const char *col(const struct qp *q, int c)
{
	const char *v;

	if (!cols[c][1])
		return q->dev;
	v = get(q, cols[c][1]);
	return v ? v : "";
}

static void print_csv(void)
{
	int i, c;

	for (c = 0; c < NCOLS; c++)
		printf("%s%s", c ? "," : "", cols[c][0]);
	printf("\n");
	for (i = 0; i < nqps; i++)
		for (c = 0; c < NCOLS; c++)
			printf("%s%s%s", c ? "," : "", col(&qps[i], c),
			       c == NCOLS - 1 ? "\n" : "");
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
}

/* A number as a JSON number when it is one, else as a string. */
static void json_val(const char *v)
{
	char *end;

	if (*v) {
		strtod(v, &end);
		if (!*end) {
			fputs(v, stdout);
			return;
		}
	}
	json_str(v);
}

static void print_json(void)
{
	int i, c;

	printf("{\"time\":%ld,\"qps\":[", (long)time(NULL));
	for (i = 0; i < nqps; i++) {
		printf("%s{", i ? "," : "");
		for (c = 0; c < NCOLS; c++) {
			printf("%s", c ? "," : "");
			json_str(cols[c][0]);
			putchar(':');
			if (c)
				json_val(col(&qps[i], c));
			else
				json_str(col(&qps[i], c));
		}
		printf("}");
	}
	printf("],\"ports\":[");
	for (i = 0; i < nports; i++) {
		printf("%s{\"device\":", i ? "," : "");
		json_str(ports[i].dev);
		printf(",\"port\":%s,\"hw_counters\":{", ports[i].port);
		for (c = 0; c < ports[i].n; c++) {
			printf("%s", c ? "," : "");
			json_str(ports[i].ctr[c].key);
			putchar(':');
			json_val(ports[i].ctr[c].val);
		}
		printf("}}");
	}
	printf("]}\n");
}

/* The Prometheus text format, for node exporter's textfile collector. */
static void print_prom(void)
{
	static const char *const gauges[][2] = {
		{ "congested", "1 while the QP is in a congestion episode" },
		{ "current_bps", "the rate rdma_cc's loop holds the QP to (bit/s)" },
		{ "target_bps", "the loop's target rate (bit/s)" },
		{ "line_rate_bps", "the rate the QP recovers to (bit/s)" },
		{ "estimate", "the congestion estimate (0..1)" },
	};
	static const char *const counters[][2] = {
		{ "cnps", "CNPs the QP received" },
		{ "episodes", "congestion episodes the QP started" },
		{ "packets", "packets the QP sent" },
	};
	int i, c;

	printf("# HELP rdma_port_hw_counter An RDMA port's hw counter (hw_counters/, rdma statistic).\n");
	printf("# TYPE rdma_port_hw_counter untyped\n");
	for (i = 0; i < nports; i++)
		for (c = 0; c < ports[i].n; c++)
			printf("rdma_port_hw_counter{device=\"%s\",port=\"%s\",counter=\"%s\"} %s\n",
			       ports[i].dev, ports[i].port, ports[i].ctr[c].key,
			       ports[i].ctr[c].val);
	for (c = 0; c < ARRAY_SIZE(gauges); c++) {
		printf("# HELP rdma_cc_qp_%s %s.\n", gauges[c][0], gauges[c][1]);
		printf("# TYPE rdma_cc_qp_%s gauge\n", gauges[c][0]);
		for (i = 0; i < nqps; i++)
			if (get(&qps[i], gauges[c][0]))
				printf("rdma_cc_qp_%s{device=\"%s\",qpn=\"%s\"} %s\n",
				       gauges[c][0], qps[i].dev, get(&qps[i], "qpn"),
				       get(&qps[i], gauges[c][0]));
	}
	for (c = 0; c < ARRAY_SIZE(counters); c++) {
		printf("# HELP rdma_cc_qp_%s_total %s.\n", counters[c][0], counters[c][1]);
		printf("# TYPE rdma_cc_qp_%s_total counter\n", counters[c][0]);
		for (i = 0; i < nqps; i++)
			if (get(&qps[i], counters[c][0]))
				printf("rdma_cc_qp_%s_total{device=\"%s\",qpn=\"%s\"} %s\n",
				       counters[c][0], qps[i].dev, get(&qps[i], "qpn"),
				       get(&qps[i], counters[c][0]));
	}
}

static void mbps(char *buf, size_t n, double bps)
{
	snprintf(buf, n, "%.2f", bps / 1e6);
}

static void print_table(int screen, int rows)
{
	static const char *const shown[] = { "np_ecn_marked_roce_packets",
		"np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored", "paced_ns" };
	char cur[32], tgt[32], line[32];
	int i, c, congested = 0;
	time_t now = time(NULL);

	for (i = 0; i < nqps; i++)
		congested += num(&qps[i], "congested") != 0;
	printf("rdma-cc-top - %.24s  %d QPs, %d congested, sorted by %s%s\n",
	       ctime(&now), nqps, congested,
	       sort_by == SORT_CNPS ? "CNPs" : sort_by == SORT_EST ? "estimate" : "rate",
	       reverse ? " (reversed)" : "");
	for (i = 0; i < nports; i++) {
		printf("%s/%s:", ports[i].dev, ports[i].port);
		for (c = 0; c < ARRAY_SIZE(shown); c++)
			printf(" %s %s", shown[c], port_ctr(&ports[i], shown[c]));
		printf("\n");
	}
	printf("\n%-8s %6s %4s %10s %10s %10s %9s %10s %8s %12s\n", "DEVICE", "QPN",
	       "CONG", "RATE_Mbps", "TARGET", "LINE", "ESTIMATE", "CNPS", "EPISODES",
	       "PACKETS");
	for (i = 0; i < nqps; i++) {
		const struct qp *q = &qps[i];

		if (screen && i >= rows)
			break;
		mbps(cur, sizeof(cur), rate_of(q));
		mbps(tgt, sizeof(tgt), get(q, "target_bps") ? num(q, "target_bps") : rate_of(q));
		mbps(line, sizeof(line), num(q, "line_rate_bps"));
		printf("%-8s %6s %4s %10s %10s %10s %9s %10s %8s %12s\n", q->dev,
		       col(q, 1), num(q, "congested") ? "yes" : "-", cur, tgt, line,
		       col(q, 7), col(q, 8), col(q, 9), col(q, 10));
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rdma-cc-top [--sort=rate|cnps|estimate] [--reverse] [--interval=S]\n"
		"                   [--count=N] [--once] [--format=table|csv|json|prom]\n"
		"                   [--debugfs=DIR] [--sysfs=DIR]\n");
}

int main(int argc, char **argv)
{
	const char *format = "table";
	double interval = 1;
	long count = -1, n;
	int once = 0, i, err;
	char *end;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--once")) {
			once = 1;
		} else if (!strcmp(a, "--reverse")) {
			reverse = 1;
		} else if (!strncmp(a, "--sort=", 7)) {
			if (!strcmp(a + 7, "rate"))
				sort_by = SORT_RATE;
			else if (!strcmp(a + 7, "cnps"))
				sort_by = SORT_CNPS;
			else if (!strcmp(a + 7, "estimate"))
				sort_by = SORT_EST;
			else
				goto bad;
		} else if (!strncmp(a, "--format=", 9)) {
			format = a + 9;
			if (strcmp(format, "table") && strcmp(format, "csv") &&
			    strcmp(format, "json") && strcmp(format, "prom"))
				goto bad;
		} else if (!strncmp(a, "--interval=", 11)) {
			interval = strtod(a + 11, &end);
			if (*end || !(interval > 0) || interval > 3600)
				goto bad;
		} else if (!strncmp(a, "--count=", 8)) {
			count = strtol(a + 8, &end, 10);
			if (*end || count < 1)
				goto bad;
		} else if (!strncmp(a, "--debugfs=", 10)) {
			debugfs = a + 10;
		} else if (!strncmp(a, "--sysfs=", 8)) {
			sysfs = a + 8;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else {
			goto bad;
		}
	}
	if (strcmp(format, "table") && !once && count < 0)
		once = 1;	/* csv, json, prom: one snapshot */
	qps = calloc(MAX_QPS, sizeof(*qps));
	if (!qps)
		return 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (n = 0; !stop; n++) {
		err = read_qps();
		read_ports();
		if (err && once)
			return 1;
		qsort(qps, nqps, sizeof(*qps), cmp_qp);
		if (!once && isatty(STDOUT_FILENO))
			printf("\033[H\033[2J");
		if (!strcmp(format, "csv"))
			print_csv();
		else if (!strcmp(format, "json"))
			print_json();
		else if (!strcmp(format, "prom"))
			print_prom();
		else
			print_table(!once && isatty(STDOUT_FILENO), 40);
		fflush(stdout);
		if (once || (count > 0 && n + 1 >= count))
			break;
		if (strcmp(format, "table") || !isatty(STDOUT_FILENO))
			printf("\n");
		usleep((useconds_t)(interval * 1e6));
	}
	return 0;
bad:
	fprintf(stderr, "rdma-cc-top: bad option '%s'\n", argv[i]);
	usage(stderr);
	return 2;
}
