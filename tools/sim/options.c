// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - parsing and checking the simulator's options.  Every bad
 * value is an error naming the option and what it accepts.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define MAX_DEPTH	4
#define MAX_FLOWS	100000
#define MAX_LINKS	100000
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char *name_buf[64];
/* The folder of the scenario file being read at each depth. */
static char scen_dir[MAX_DEPTH][2048];
static unsigned int name_bufs;

void options_usage(FILE *out)
{
	static const char usage[] =
"usage: rdma-cc-sim [--OPTION=VALUE ...]\n"
"  --scenario=FILE        read options from FILE (one a line, # comments)\n"
"  --name=NAME            scenario name in the output\n"
"  --cc=LIST              reaction points, comma separated: rdma_cc, dcqcn\n"
"                         (the --dcqcn-preset), dcqcn-mlx5, dcqcn-paper,\n"
"                         dcqcn-hpcc, none; all: rdma_cc, every preset, none\n"
"  --link-gbps=G          star: the switch to receiver link [100]\n"
"  --host-gbps=G          each host's NIC rate [= link]\n"
"  --uplink-gbps=G        switch to switch links [= host]\n"
"  --mtu=BYTES            packet size on the wire [4096]\n"
"  --prop-ns=NS           propagation delay of a link [1000]\n"
"  --switch=NAME          a switch (other names in --link are hosts)\n"
"  --link=A,B[,GBPS[,PROP_NS]]   a full-duplex link (0: the default rate)\n"
"  --leafspine=SPINES,LEAVES,HOSTS_PER_LEAF   hosts h0.., leaf0.., spine0..\n"
"  --kmin-kb=KB --kmax-kb=KB --pmax-pct=P   ECN marking on every port\n"
"                         [by port rate: 100, 400 KB, 20 % per 25 Gbit/s]\n"
"  --mark=enqueue|dequeue when the switch marks [enqueue]\n"
"  --buffer-kb=KB         each switch's shared buffer [16 MB per 50 Gbit/s\n"
"                         of its fastest port]\n"
"  --alpha=F              dynamic threshold, 1, 1/2 .. 1/1024 [1/8]\n"
"  --pfc=on|off           lossless (PFC) or lossy (drops, go-back-N) [on]\n"
"  --rto-us=US            sender: retransmit timeout [67108.864]\n"
"  --ack-every=N          receiver: ACK every N packets and the last [1]\n"
"  --cnp-gap-ns=NS        receiver: min time between CNPs per QP [4000]\n"
"  --watch=HOST|SW>PEER   the queue stats follow HOST's downlink, or the\n"
"                         port of switch SW toward PEER\n"
"  --drop=FLOW:PSN        drop that data packet once at its first switch\n"
"  --trace-flow=N         write flow N's sends, NAKs, timeouts (with --out)\n"
"  --dump-flows=FILE      write the flows (SRC DST BYTES START_PS, hosts by\n"
"                         number) after generating them\n"
"  --duration-us=US --sample-us=US   run length, time series step [2000, 1]\n"
"  --flow=[SRC>DST,]START_US[,STOP_US|-[,BYTES]]  one flow (BYTES 0: long);\n"
"                         SRC may be a range hA..hB (one flow from each)\n"
"  --flows=N,[SRC>DST,]START_US[,STOP_US|-[,BYTES]]  N alike flows\n"
"  --victim=SRC>DST,START_US[,STOP_US|-[,BYTES]]  a flow reported as victim\n"
"  --burst=N,START_US,GAP_US,BYTES         N short flows, one every GAP\n"
"  --workload=CDF,LOAD_PCT,FROM_US,TO_US   Poisson flows between all hosts\n"
"  --fair-from-us=US --fair-to-us=US       Jain fairness window\n"
"  --converge-window-us=US --converge-tol-pct=P  fair share test [300, 20]\n"
"  --seed=N               marking coin seed [1]\n"
"  --out=DIR              write DIR/NAME-CC.csv time series\n"
"  --format=text|csv|csv-noheader   summary on stdout [text]\n"
"  --speed                report simulated packets per wall second on stderr\n"
"  --show-params          print the controllers' parameters and exit\n"
"  --PARAM=V              an rdma_cc parameter, by its sysfs name\n"
"  --dcqcn-preset=NAME    DCQCN's values: mlx5 (default), paper or hpcc\n"
"  --dcqcn-PARAM=V        a DCQCN parameter, by its mlx5 sysfs name\n";

	fputs(usage, out);
}

void options_default(struct sim_options *o)
{
	struct sim_config *c = &o->cfg;

	memset(o, 0, sizeof(*o));
	c->link_bps = 100000000000ULL;
	c->host_bps = 0;
	c->mtu = 4096;
	c->prop_ps = 1000 * PS_PER_NS;
	c->kmin_bytes = 100000;
	c->kmax_bytes = 400000;
	c->pmax_ppm = 200000;
	c->buffer_bytes = 0;
	c->alpha_shift = 3;
	c->pfc = true;
	/* InfiniBand local ACK timeout 4.096 us x 2^14 (perftest's 14) */
	c->rto_ps = 4096ULL * PS_PER_NS * (1ULL << 14);
	c->ack_every = 1;
	c->cnp_gap_ps = 4 * PS_PER_US;
	c->trace_flow = SIM_NONE;
	c->duration_ps = 2000 * PS_PER_US;
	c->sample_ps = PS_PER_US;
	c->seed = 1;
	c->fair_from_ps = SIM_NEVER;
	c->fair_to_ps = SIM_NEVER;
	c->conv_window_ps = 300 * PS_PER_US;
	c->conv_tol_pct = 20;
	rcc_params_default(&c->rcc);
	dcqcn_params_default(&c->dcqcn);
	o->run[RP_RDMA_CC] = true;
	o->run[RP_DCQCN] = true;
	o->run[RP_NONE] = true;
	o->name = "sim";
	o->header = true;
}

static int bad(const char *opt, const char *what)
{
	fprintf(stderr, "rdma-cc-sim: %s: %s\n", opt, what);
	return -1;
}

/* A plain non-negative decimal number, nothing after it. */
static int parse_num(const char *s, double max, double *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end || !isfinite(*v) || *v < 0 || *v > max)
		return -1;
	return 0;
}

static int parse_u64(const char *s, u64 max, u64 *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

static struct flow_spec *add_flow(struct sim_options *o)
{
	struct sim_config *c = &o->cfg;

	if (c->nflows >= MAX_FLOWS)
		return NULL;
	if (c->nflows == o->cap_flows) {
		unsigned int cap = o->cap_flows ? o->cap_flows * 2 : 16;
		struct flow_spec *f = realloc(c->flows, sizeof(*f) * cap);

		if (!f)
			return NULL;
		c->flows = f;
		o->cap_flows = cap;
	}
	memset(&c->flows[c->nflows], 0, sizeof(c->flows[0]));
	return &c->flows[c->nflows++];
}

/* Split @s at commas into at most @max fields (modifies @s). */
static int split(char *s, char **field, int max)
{
	int n = 0;

	for (;;) {
		if (n == max)
			return -1;
		field[n++] = s;
		s = strchr(s, ',');
		if (!s)
			return n;
		*s++ = '\0';
	}
}

static int parse_time_us(const char *s, u64 *ps)
{
	double v;

	if (parse_num(s, 1e9, &v))
		return -1;
	*ps = (u64)llround(v * PS_PER_US);
	return 0;
}

static int flow_fields(const char *opt, char **f, int n, int first,
		       struct flow_spec *fs)
{
	fs->stop_ps = SIM_NEVER;
	fs->bytes = 0;
	if (parse_time_us(f[first], &fs->start_ps))
		return bad(opt, "START_US must be a time in microseconds");
	if (n > first + 1 && strcmp(f[first + 1], "-") &&
	    (parse_time_us(f[first + 1], &fs->stop_ps) ||
	     fs->stop_ps <= fs->start_ps))
		return bad(opt, "STOP_US must be '-' or a time after START_US");
	if (n > first + 2 && parse_u64(f[first + 2], 1ULL << 50, &fs->bytes))
		return bad(opt, "BYTES must be a whole number of bytes");
	return 0;
}

/* "SRC>DST", SRC maybe a range hA..hB: the hosts, one flow from each. */
static int parse_ends(const char *opt, const char *v, char names[][SIM_NAME_LEN],
		      char *dst, unsigned int *n)
{
	const char *gt = strchr(v, '>');
	char src[64];
	unsigned long a, b;
	char *end;

	if (!gt || gt == v || !gt[1] || (size_t)(gt - v) >= sizeof(src) ||
	    strlen(gt + 1) >= SIM_NAME_LEN)
		return bad(opt, "expected SRC>DST (host names)");
	memcpy(src, v, gt - v);
	src[gt - v] = '\0';
	strcpy(dst, gt + 1);
	end = strstr(src, "..");
	if (!end) {
		if (strlen(src) >= SIM_NAME_LEN)
			return bad(opt, "host name too long");
		strcpy(names[0], src);
		*n = 1;
		return 0;
	}
	if (src[0] != 'h' || end[2] != 'h')
		return bad(opt, "a range is hA..hB");
	a = strtoul(src + 1, NULL, 10);
	b = strtoul(end + 3, NULL, 10);
	if (b < a || b - a >= 4096)
		return bad(opt, "a range hA..hB needs A <= B, at most 4096 hosts");
	for (*n = 0; a <= b; a++)
		snprintf(names[(*n)++], SIM_NAME_LEN, "h%lu", a);
	return 0;
}

static int parse_flows(struct sim_options *o, const char *opt, const char *v,
		       bool many, bool victim)
{
	static char srcs[4096][SIM_NAME_LEN];
	char buf[256], *f[5], dst[SIM_NAME_LEN] = "";
	u64 count = 1;
	struct flow_spec fs;
	unsigned int nsrc = 1, k;
	int n, first = many ? 1 : 0;
	bool ends;

	if (strlen(v) >= sizeof(buf))
		return bad(opt, "value too long");
	strcpy(buf, v);
	n = split(buf, f, first + 4);
	ends = n > first && strchr(f[first], '>');
	if (victim && !ends)
		return bad(opt, "expected SRC>DST,START_US[,STOP_US[,BYTES]]");
	if (ends) {
		if (parse_ends(opt, f[first], srcs, dst, &nsrc))
			return -1;
		first++;
	} else {
		srcs[0][0] = '\0';
	}
	if (n < first + 1 || n > first + 3)
		return bad(opt, many ? "expected N,[SRC>DST,]START_US[,STOP_US[,BYTES]]" :
				       "expected [SRC>DST,]START_US[,STOP_US[,BYTES]]");
	if (many && (parse_u64(f[0], MAX_FLOWS, &count) || !count))
		return bad(opt, "N must be 1 .. 100000");
	if (flow_fields(opt, f, n, first, &fs))
		return -1;
	fs.victim = victim;
	for (k = 0; k < nsrc; k++) {
		u64 left = count;

		memcpy(fs.src_name, srcs[k], SIM_NAME_LEN);
		memcpy(fs.dst_name, dst, SIM_NAME_LEN);
		while (left--) {
			struct flow_spec *p = add_flow(o);

			if (!p)
				return bad(opt, "too many flows (at most 100000)");
			*p = fs;
		}
	}
	return 0;
}

static int add_link(struct sim_options *o, const char *a, const char *b,
		    u64 bps, u64 prop_ps)
{
	struct sim_config *c = &o->cfg;
	struct link_spec *l;

	if (c->nlinks >= MAX_LINKS)
		return bad("--link", "too many links (at most 100000)");
	if (c->nlinks == o->cap_links) {
		unsigned int cap = o->cap_links ? o->cap_links * 2 : 64;

		l = realloc(c->links, sizeof(*l) * cap);
		if (!l)
			return bad("--link", "out of memory");
		c->links = l;
		o->cap_links = cap;
	}
	l = &c->links[c->nlinks++];
	snprintf(l->a, SIM_NAME_LEN, "%s", a);
	snprintf(l->b, SIM_NAME_LEN, "%s", b);
	l->bps = bps;
	l->prop_ps = prop_ps;
	return 0;
}

static int add_switch(struct sim_options *o, const char *name)
{
	struct sim_config *c = &o->cfg;

	if (!*name || strlen(name) >= SIM_NAME_LEN || strchr(name, ','))
		return bad("--switch", "expected a name of 1-23 characters, no commas");
	if (c->nswitches == o->cap_switches) {
		unsigned int cap = o->cap_switches ? o->cap_switches * 2 : 16;
		char (*sw)[SIM_NAME_LEN] = realloc(c->switches, sizeof(*sw) * cap);

		if (!sw)
			return bad("--switch", "out of memory");
		c->switches = sw;
		o->cap_switches = cap;
	}
	snprintf(c->switches[c->nswitches++], SIM_NAME_LEN, "%s", name);
	return 0;
}

static int parse_link(struct sim_options *o, const char *opt, const char *v)
{
	char buf[256], *f[4];
	double gbps = 0, ns = -1;
	int n;

	if (strlen(v) >= sizeof(buf))
		return bad(opt, "value too long");
	strcpy(buf, v);
	n = split(buf, f, 4);
	if (n < 2 || !*f[0] || !*f[1] || strlen(f[0]) >= SIM_NAME_LEN ||
	    strlen(f[1]) >= SIM_NAME_LEN || !strcmp(f[0], f[1]) ||
	    (n > 2 && parse_num(f[2], 10000, &gbps)) ||
	    (n > 3 && parse_num(f[3], 1e9, &ns)))
		return bad(opt, "expected A,B[,GBPS[,PROP_NS]] (two names, GBPS 0: the default)");
	return add_link(o, f[0], f[1], (u64)llround(gbps * 1e9),
			ns < 0 ? SIM_NEVER : (u64)llround(ns * PS_PER_NS));
}

static int parse_leafspine(struct sim_options *o, const char *opt, const char *v)
{
	char buf[128], *f[3], a[32], b[32];
	u64 sp, lf, h, i, j;

	if (strlen(v) >= sizeof(buf))
		return bad(opt, "value too long");
	strcpy(buf, v);
	if (split(buf, f, 3) != 3 || parse_u64(f[0], 64, &sp) || !sp ||
	    parse_u64(f[1], 256, &lf) || !lf || parse_u64(f[2], 256, &h) || !h)
		return bad(opt, "expected SPINES,LEAVES,HOSTS_PER_LEAF (1-64, 1-256, 1-256)");
	for (i = 0; i < sp; i++) {
		snprintf(a, sizeof(a), "spine%llu", i);
		if (add_switch(o, a))
			return -1;
	}
	for (i = 0; i < lf; i++) {
		snprintf(a, sizeof(a), "leaf%llu", i);
		if (add_switch(o, a))
			return -1;
		for (j = 0; j < sp; j++) {
			snprintf(b, sizeof(b), "spine%llu", j);
			if (add_link(o, a, b, 0, SIM_NEVER))
				return -1;
		}
		for (j = 0; j < h; j++) {
			snprintf(b, sizeof(b), "h%llu", i * h + j);
			if (add_link(o, a, b, 0, SIM_NEVER))
				return -1;
		}
	}
	return 0;
}

static int parse_workload(struct sim_options *o, const char *opt, const char *v,
			  int depth)
{
	struct workload_spec *w = &o->cfg.workload;
	char buf[1100], *f[4];
	double load;

	if (strlen(v) >= sizeof(buf) - 64)
		return bad(opt, "value too long");
	strcpy(buf, v);
	if (split(buf, f, 4) != 4 || !*f[0] || parse_num(f[1], 100, &load) ||
	    load <= 0 || parse_time_us(f[2], &w->from_ps) ||
	    parse_time_us(f[3], &w->to_ps) || w->to_ps <= w->from_ps)
		return bad(opt, "expected CDF_FILE,LOAD_PCT,FROM_US,TO_US (load 0-100, FROM < TO)");
	if (depth > 0 && f[0][0] != '/')
		snprintf(w->cdf_path, sizeof(w->cdf_path), "%s/%s",
			 scen_dir[depth - 1], f[0]);
	else
		snprintf(w->cdf_path, sizeof(w->cdf_path), "%s", f[0]);
	w->load = load / 100;
	o->cfg.has_workload = true;
	return 0;
}

static int parse_burst(struct sim_options *o, const char *opt, const char *v)
{
	char buf[256], *f[4];
	u64 count, start, gap, bytes;

	if (strlen(v) >= sizeof(buf))
		return bad(opt, "value too long");
	strcpy(buf, v);
	if (split(buf, f, 4) != 4 || parse_u64(f[0], MAX_FLOWS, &count) ||
	    !count || parse_time_us(f[1], &start) ||
	    parse_time_us(f[2], &gap) || parse_u64(f[3], 1ULL << 50, &bytes) ||
	    !bytes)
		return bad(opt, "expected N,START_US,GAP_US,BYTES with N, BYTES >= 1");
	while (count--) {
		struct flow_spec *p = add_flow(o);

		if (!p)
			return bad(opt, "too many flows (at most 100000)");
		p->start_ps = start;
		p->stop_ps = SIM_NEVER;
		p->bytes = bytes;
		start += gap;
	}
	return 0;
}

static int parse_cc(struct sim_options *o, const char *opt, const char *v)
{
	static const char what[] =
		"expected a list of rdma_cc, dcqcn, dcqcn-mlx5, dcqcn-paper, dcqcn-hpcc, none, all";
	char buf[128], *f[8];
	int n, i, k;

	if (strlen(v) >= sizeof(buf))
		return bad(opt, "value too long");
	strcpy(buf, v);
	n = split(buf, f, 8);
	if (n < 0)
		return bad(opt, what);
	memset(o->run, 0, sizeof(o->run));
	o->dcqcn_presets = 0;
	for (i = 0; i < n; i++) {
		enum rp_kind kind;

		if (!strcmp(f[i], "all")) {
			o->run[RP_RDMA_CC] = o->run[RP_NONE] = true;
			o->dcqcn_presets = (1u << DCQCN_NR_PRESETS) - 1;
			continue;
		}
		if (!strncmp(f[i], "dcqcn-", 6)) {
			for (k = 0; k < DCQCN_NR_PRESETS; k++)
				if (!strcmp(f[i] + 6, dcqcn_preset_names[k]))
					break;
			if (k == DCQCN_NR_PRESETS)
				return bad(opt, what);
			o->dcqcn_presets |= 1u << k;
			continue;
		}
		if (rp_kind_parse(f[i], &kind))
			return bad(opt, what);
		o->run[kind] = true;
	}
	return 0;
}

static int parse_scenario(struct sim_options *o, const char *name, int depth)
{
	char line[512], path[2048], *slash;
	FILE *fp;
	int lineno = 0, rc = 0;

	if (depth >= MAX_DEPTH)
		return bad(name, "scenarios nested too deep");
	/* a file named inside a scenario is relative to that scenario */
	if (depth > 0 && name[0] != '/')
		snprintf(path, sizeof(path), "%s/%s", scen_dir[depth - 1], name);
	else
		snprintf(path, sizeof(path), "%s", name);
	snprintf(scen_dir[depth], sizeof(scen_dir[depth]), "%s", path);
	slash = strrchr(scen_dir[depth], '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(scen_dir[depth], ".");
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "rdma-cc-sim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (!rc && fgets(line, sizeof(line), fp)) {
		char *s = line, *e;

		lineno++;
		e = strchr(s, '#');
		if (e)
			*e = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == '\n' || e[-1] == ' ' ||
				 e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		if (!*s)
			continue;
		if (options_parse_arg(o, s, depth + 1)) {
			fprintf(stderr, "rdma-cc-sim: %s:%d: bad line\n", path,
				lineno);
			rc = -1;
		}
	}
	fclose(fp);
	return rc;
}

struct num_opt {
	const char *name;
	double max;
	double scale;		/* to the field's unit */
	size_t offset;		/* of a u64, or a u32 if small */
	bool small;
	bool nonzero;
};

#define U64(n, m, sc, f, nz) { n, m, sc, offsetof(struct sim_config, f), \
			       false, nz }
#define U32(n, m, sc, f, nz) { n, m, sc, offsetof(struct sim_config, f), \
			       true, nz }

static const struct num_opt num_opts[] = {
	U64("link-gbps", 10000, 1e9, link_bps, true),
	U64("host-gbps", 10000, 1e9, host_bps, true),
	U64("uplink-gbps", 10000, 1e9, uplink_bps, true),
	U32("mtu", 9216, 1, mtu, true),
	U64("prop-ns", 1e9, PS_PER_NS, prop_ps, false),
	U64("kmin-kb", 1e7, 1000, kmin_bytes, false),
	U64("kmax-kb", 1e7, 1000, kmax_bytes, true),
	U32("pmax-pct", 100, 10000, pmax_ppm, false),
	U64("buffer-kb", 1e7, 1000, buffer_bytes, true),
	U64("rto-us", 1e7, PS_PER_US, rto_ps, true),
	U32("ack-every", 1e6, 1, ack_every, true),
	U64("cnp-gap-ns", 1e9, PS_PER_NS, cnp_gap_ps, false),
	U64("duration-us", 1e7, PS_PER_US, duration_ps, true),
	U64("sample-us", 1e6, PS_PER_US, sample_ps, true),
	U64("seed", 1e15, 1, seed, false),
	U64("fair-from-us", 1e7, PS_PER_US, fair_from_ps, false),
	U64("fair-to-us", 1e7, PS_PER_US, fair_to_ps, true),
	U64("converge-window-us", 1e6, PS_PER_US, conv_window_ps, true),
	U32("converge-tol-pct", 100, 1, conv_tol_pct, true),
};

static int parse_num_opt(struct sim_options *o, const struct num_opt *n,
			 const char *opt, const char *v)
{
	char *field = (char *)&o->cfg + n->offset;
	char what[96];
	double d;

	snprintf(what, sizeof(what), "expected a number%s up to %g",
		 n->nonzero ? " above 0" : "", n->max);
	if (parse_num(v, n->max, &d) || (n->nonzero && d <= 0))
		return bad(opt, what);
	d = round(d * n->scale);
	if (n->nonzero && d < 1)
		return bad(opt, what);
	if (n->small)
		*(u32 *)field = (u32)d;
	else
		*(u64 *)field = (u64)d;
	if (!strncmp(n->name, "kmin", 4) || !strncmp(n->name, "kmax", 4) ||
	    !strncmp(n->name, "pmax", 4))
		o->cfg.ecn_set = true;
	return 0;
}

static int parse_param(struct sim_options *o, const char *opt,
		       const char *key, const char *v)
{
	int id = rcc_param_lookup(key);
	u32 val;

	if (id >= 0) {
		const struct rcc_param_desc *d = &rcc_param_descs[id];
		char what[128];

		if (rcc_param_parse(id, v, &val)) {
			snprintf(what, sizeof(what), "expected %u .. %u (%s)",
				 d->min, d->max, d->unit);
			return bad(opt, what);
		}
		rcc_param_set(&o->cfg.rcc, id, val);
		return 0;
	}
	if (!strncmp(key, "dcqcn-", 6)) {
		char what[160];
		int rc = dcqcn_param_parse(&o->cfg.dcqcn, key + 6, v, what,
					   sizeof(what));

		if (rc != -ENOENT)
			return rc ? bad(opt, what) : 0;
	}
	return bad(opt, "unknown option (see --help)");
}

int options_parse_arg(struct sim_options *o, const char *arg, int depth)
{
	char key[64];
	const char *eq, *v, *a = arg;
	size_t i, klen;

	if (!strncmp(a, "--", 2))
		a += 2;
	if (!strcmp(a, "speed")) {
		o->speed = true;
		return 0;
	}
	if (!strcmp(a, "show-params")) {
		o->show_params = true;
		return 0;
	}
	eq = strchr(a, '=');
	if (!eq)
		return bad(arg, "expected --OPTION=VALUE (see --help)");
	klen = eq - a;
	if (klen >= sizeof(key))
		return bad(arg, "unknown option (see --help)");
	memcpy(key, a, klen);
	key[klen] = '\0';
	v = eq + 1;
	for (i = 0; i < ARRAY_SIZE(num_opts); i++)
		if (!strcmp(key, num_opts[i].name))
			return parse_num_opt(o, &num_opts[i], arg, v);
	if (!strcmp(key, "scenario"))
		return parse_scenario(o, v, depth);
	if (!strcmp(key, "flow"))
		return parse_flows(o, arg, v, false, false);
	if (!strcmp(key, "flows"))
		return parse_flows(o, arg, v, true, false);
	if (!strcmp(key, "victim"))
		return parse_flows(o, arg, v, false, true);
	if (!strcmp(key, "link"))
		return parse_link(o, arg, v);
	if (!strcmp(key, "switch"))
		return add_switch(o, v);
	if (!strcmp(key, "leafspine"))
		return parse_leafspine(o, arg, v);
	if (!strcmp(key, "workload"))
		return parse_workload(o, arg, v, depth);
	if (!strcmp(key, "pfc")) {
		if (!strcmp(v, "on"))
			o->cfg.pfc = true;
		else if (!strcmp(v, "off"))
			o->cfg.pfc = false;
		else
			return bad(arg, "expected on or off");
		return 0;
	}
	if (!strcmp(key, "alpha")) {
		double a;
		unsigned int k;

		if (!strncmp(v, "1/", 2)) {
			if (parse_num(v + 2, 1024, &a) || a < 1)
				return bad(arg, "expected 1, 1/2, 1/4 .. 1/1024");
			a = 1 / a;
		} else if (parse_num(v, 1, &a) || a <= 0) {
			return bad(arg, "expected 1, 1/2, 1/4 .. 1/1024");
		}
		for (k = 0; k <= 10; k++)
			if (fabs(a - 1.0 / (1 << k)) < 1e-12)
				break;
		if (k > 10)
			return bad(arg, "expected 1, 1/2, 1/4 .. 1/1024 (a power of two)");
		o->cfg.alpha_shift = k;
		return 0;
	}
	if (!strcmp(key, "drop")) {
		unsigned long fl, psn;
		char *end;

		fl = strtoul(v, &end, 10);
		if (end == v || *end != ':' || o->cfg.ndrops == 16)
			return bad(arg, "expected FLOW:PSN (at most 16)");
		psn = strtoul(end + 1, &end, 10);
		if (*end || fl > MAX_FLOWS || psn > 0xffffffffUL)
			return bad(arg, "expected FLOW:PSN (at most 16)");
		o->cfg.drop_flow[o->cfg.ndrops] = (u32)fl;
		o->cfg.drop_psn[o->cfg.ndrops++] = (u32)psn;
		return 0;
	}
	if (!strcmp(key, "trace-flow")) {
		u64 fl;

		if (parse_u64(v, MAX_FLOWS, &fl))
			return bad(arg, "expected a flow number");
		o->cfg.trace_flow = (u32)fl;
		return 0;
	}
	if (!strcmp(key, "watch")) {
		if (!*v || strlen(v) >= SIM_NAME_LEN)
			return bad(arg, "expected a host name");
		snprintf(o->cfg.watch, SIM_NAME_LEN, "%s", v);
		return 0;
	}
	if (!strcmp(key, "burst"))
		return parse_burst(o, arg, v);
	if (!strcmp(key, "cc"))
		return parse_cc(o, arg, v);
	if (!strcmp(key, "mark")) {
		if (!strcmp(v, "enqueue"))
			o->cfg.mark_on_dequeue = false;
		else if (!strcmp(v, "dequeue"))
			o->cfg.mark_on_dequeue = true;
		else
			return bad(arg, "expected enqueue or dequeue");
		return 0;
	}
	if (!strcmp(key, "format")) {
		if (!strcmp(v, "text")) {
			o->csv_summary = false;
		} else if (!strcmp(v, "csv") || !strcmp(v, "csv-noheader")) {
			o->csv_summary = true;
			o->header = !strcmp(v, "csv");
		} else {
			return bad(arg, "expected text, csv or csv-noheader");
		}
		return 0;
	}
	if (!strcmp(key, "dump-flows")) {
		if (!*v)
			return bad(arg, "expected a file name");
		o->dump_flows = strdup(v);
		return o->dump_flows ? 0 : bad(arg, "out of memory");
	}
	if (!strcmp(key, "name") || !strcmp(key, "out")) {
		char *copy;

		if (!*v || strchr(v, ',') || name_bufs == 64)
			return bad(arg, "expected a non-empty value without commas");
		copy = strdup(v);
		if (!copy)
			return bad(arg, "out of memory");
		name_buf[name_bufs++] = copy;
		if (key[0] == 'n')
			o->name = copy;
		else
			o->out_dir = copy;
		return 0;
	}
	return parse_param(o, arg, key, v);
}

int options_finish(struct sim_options *o)
{
	struct sim_config *c = &o->cfg;
	int k, any = 0;

	if (!c->host_bps)
		c->host_bps = c->link_bps;
	if (!c->nflows && !c->has_workload)
		return bad("flows", "no flows: give --flow, --flows, --burst or --workload");
	if (c->mtu < 256)
		return bad("--mtu", "must be at least 256 bytes");
	if (c->kmin_bytes >= c->kmax_bytes)
		return bad("--kmin-kb", "must be below --kmax-kb");
	if (c->buffer_bytes && c->mtu > c->buffer_bytes)
		return bad("--buffer-kb", "must hold at least one packet");
	if (c->fair_from_ps != SIM_NEVER && c->fair_to_ps != SIM_NEVER &&
	    c->fair_from_ps >= c->fair_to_ps)
		return bad("--fair-from-us", "must be before --fair-to-us");
	if (c->conv_window_ps < c->sample_ps)
		return bad("--converge-window-us", "must be at least --sample-us");
	if (c->rcc.data_rate_mbps &&
	    c->rcc.data_rate_mbps * 1000000ULL > c->host_bps)
		return bad("--data_rate_mbps", "must not exceed --host-gbps");
	dcqcn_resolve(&c->dcqcn, c->host_bps);
	for (k = 0; k < RP_NR_KINDS; k++)
		any |= o->run[k];
	any |= o->dcqcn_presets != 0;
	if (!any)
		return bad("--cc", "no reaction point to run");
	return topo_build(c) ? -1 : 0;
}
