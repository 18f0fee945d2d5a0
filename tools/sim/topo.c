// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - building the fabric from the topology options: nodes and ports,
 * each port's rate, delay, ECN thresholds and PFC headroom, each switch's
 * shared buffer, shortest-path routes with every equal-cost next hop
 * (ECMP), and the flows of a workload (Poisson arrivals, sizes from a CDF).
 *
 * Without --link or --leafspine the fabric is a star: one switch "sw0", the
 * receiver "rx" behind a --link-gbps link, and one sender host of its own
 * per flow behind a --host-gbps link.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* The ECN thresholds at 25 Gbit/s; a port's scale with its rate. */
#define ECN_KMIN_25G	100000ULL
#define ECN_KMAX_25G	400000ULL
#define ECN_PMAX_PPM	200000U
#define RESERVE_BYTES	4096ULL		/* per ingress port */
#define RESUME_OFFSET	3072ULL
#define PFC_FRAME_BYTES	64U

static int topo_err(const char *what, const char *name)
{
	fprintf(stderr, "rdma-cc-sim: topology: %s%s%s\n", what,
		name ? ": " : "", name ? name : "");
	return -1;
}

static int find_node(const struct topo *t, const char *name)
{
	u32 i;

	for (i = 0; i < t->nnodes; i++)
		if (!strcmp(t->nodes[i].name, name))
			return (int)i;
	return -1;
}

static int add_node(struct topo *t, u32 *cap, const char *name, bool sw)
{
	int i = find_node(t, name);

	if (i >= 0) {
		if (sw && !t->nodes[i].is_switch)
			return topo_err("declared a switch after use as a host",
					name);
		return i;
	}
	if (t->nnodes == *cap) {
		u32 c = *cap ? *cap * 2 : 64;
		struct node *n = realloc(t->nodes, sizeof(*n) * c);

		if (!n)
			return topo_err("out of memory", NULL);
		t->nodes = n;
		*cap = c;
	}
	memset(&t->nodes[t->nnodes], 0, sizeof(t->nodes[0]));
	snprintf(t->nodes[t->nnodes].name, SIM_NAME_LEN, "%s", name);
	t->nodes[t->nnodes].is_switch = sw;
	return (int)t->nnodes++;
}

/* The star's links, made from the flows that name no hosts. */
static int build_star(struct sim_config *c)
{
	unsigned int i;
	struct link_spec *l;
	char (*sw)[SIM_NAME_LEN];

	c->links = calloc(c->nflows + 1, sizeof(*c->links));
	sw = calloc(1, sizeof(*sw));
	if (!c->links || !sw)
		return topo_err("out of memory", NULL);
	snprintf(sw[0], SIM_NAME_LEN, "sw0");
	c->switches = sw;
	c->nswitches = 1;
	l = &c->links[c->nlinks++];
	snprintf(l->a, SIM_NAME_LEN, "sw0");
	snprintf(l->b, SIM_NAME_LEN, "rx");
	l->bps = c->link_bps;
	l->prop_ps = SIM_NEVER;
	for (i = 0; i < c->nflows; i++) {
		struct flow_spec *f = &c->flows[i];

		if (f->src_name[0])
			return topo_err("a flow names hosts but there is no --link or --leafspine",
					f->src_name);
		l = &c->links[c->nlinks++];
		snprintf(l->a, SIM_NAME_LEN, "sw0");
		snprintf(l->b, SIM_NAME_LEN, "s%u", i);
		l->bps = c->host_bps;
		l->prop_ps = SIM_NEVER;
		snprintf(f->src_name, SIM_NAME_LEN, "s%u", i);
		snprintf(f->dst_name, SIM_NAME_LEN, "rx");
	}
	return 0;
}

static u32 mix32(u32 x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

u32 topo_route(const struct topo *t, u32 node, u32 host, u32 hash)
{
	size_t r = (size_t)t->sw_idx[node] * t->nhosts + host;
	u32 cnt = t->route_cnt[r];

	if (cnt == 1)
		return t->route_ports[t->route_off[r]];
	return t->route_ports[t->route_off[r] + mix32(hash ^ (node * 0x9e3779b9U)) % cnt];
}

/* Hop counts from every host (hosts are never transit nodes). */
static int build_routes(struct topo *t)
{
	u32 h, n, k, *dist, *queue, total = 0;

	dist = malloc(sizeof(*dist) * t->nnodes * t->nhosts);
	queue = malloc(sizeof(*queue) * t->nnodes);
	t->sw_idx = malloc(sizeof(*t->sw_idx) * t->nnodes);
	if (!dist || !queue || !t->sw_idx)
		return topo_err("out of memory", NULL);
	t->nsw = 0;
	for (n = 0; n < t->nnodes; n++)
		t->sw_idx[n] = t->nodes[n].is_switch ? t->nsw++ : SIM_NONE;
	for (h = 0; h < t->nhosts; h++) {
		u32 *d = dist + (size_t)h * t->nnodes, qh = 0, qt = 0;

		for (n = 0; n < t->nnodes; n++)
			d[n] = SIM_NONE;
		d[t->hosts[h]] = 0;
		queue[qt++] = t->hosts[h];
		while (qh < qt) {
			const struct node *nd = &t->nodes[queue[qh]];
			u32 cur = queue[qh++];

			if (!nd->is_switch && cur != t->hosts[h])
				continue;
			for (k = 0; k < nd->nports; k++) {
				u32 peer = t->ports[t->ports[nd->first_port + k].peer].node;

				if (d[peer] == SIM_NONE) {
					d[peer] = d[cur] + 1;
					queue[qt++] = peer;
				}
			}
		}
	}
	t->route_off = calloc((size_t)t->nsw * t->nhosts, sizeof(u32));
	t->route_cnt = calloc((size_t)t->nsw * t->nhosts, sizeof(u32));
	t->route_ports = malloc(sizeof(u32) * ((size_t)t->nports * t->nhosts + 1));
	if (!t->route_off || !t->route_cnt || !t->route_ports)
		return topo_err("out of memory", NULL);
	for (n = 0; n < t->nnodes; n++) {
		const struct node *nd = &t->nodes[n];

		if (!nd->is_switch)
			continue;
		for (h = 0; h < t->nhosts; h++) {
			const u32 *d = dist + (size_t)h * t->nnodes;
			size_t r = (size_t)t->sw_idx[n] * t->nhosts + h;

			t->route_off[r] = total;
			if (d[n] == SIM_NONE)
				continue;
			for (k = 0; k < nd->nports; k++) {
				u32 p = nd->first_port + k;
				u32 peer = t->ports[t->ports[p].peer].node;

				if (d[peer] + 1 == d[n] &&
				    (t->nodes[peer].is_switch || peer == t->hosts[h]))
					t->route_ports[total++] = p;
			}
			t->route_cnt[r] = total - t->route_off[r];
		}
	}
	free(dist);
	free(queue);
	return 0;
}

/* What a port's rate gives it: ECN thresholds. */
static void port_thresholds(const struct sim_config *c, struct port *p)
{
	if (c->ecn_set) {
		p->kmin = c->kmin_bytes;
		p->kmax = c->kmax_bytes;
		p->pmax_ppm = c->pmax_ppm;
		return;
	}
	p->kmin = ECN_KMIN_25G * (p->bps / 1000000000ULL) / 25;
	p->kmax = ECN_KMAX_25G * (p->bps / 1000000000ULL) / 25;
	p->pmax_ppm = ECN_PMAX_PPM;
}

static int build_ports(struct sim_config *c, struct topo *t)
{
	u32 *deg = calloc(t->nnodes, sizeof(*deg)), *fill, n, i;

	fill = calloc(t->nnodes, sizeof(*fill));
	t->nports = 2 * c->nlinks;
	t->ports = calloc(t->nports, sizeof(*t->ports));
	if (!deg || !fill || !t->ports)
		return topo_err("out of memory", NULL);
	for (i = 0; i < c->nlinks; i++) {
		deg[find_node(t, c->links[i].a)]++;
		deg[find_node(t, c->links[i].b)]++;
	}
	for (n = 0, i = 0; n < t->nnodes; n++) {
		t->nodes[n].first_port = i;
		t->nodes[n].nports = deg[n];
		i += deg[n];
		if (!t->nodes[n].is_switch && deg[n] != 1)
			return topo_err("a host needs exactly one link",
					t->nodes[n].name);
		if (t->nodes[n].is_switch && !deg[n])
			return topo_err("a switch has no link", t->nodes[n].name);
	}
	for (i = 0; i < c->nlinks; i++) {
		const struct link_spec *l = &c->links[i];
		u32 a = find_node(t, l->a), b = find_node(t, l->b);
		u32 pa = t->nodes[a].first_port + fill[a]++;
		u32 pb = t->nodes[b].first_port + fill[b]++;
		u64 bps = l->bps, prop = l->prop_ps;
		bool core = t->nodes[a].is_switch && t->nodes[b].is_switch;

		if (!bps)
			bps = core && c->uplink_bps ? c->uplink_bps : c->host_bps;
		if (prop == SIM_NEVER)
			prop = c->prop_ps;
		t->ports[pa].node = a;
		t->ports[pb].node = b;
		t->ports[pa].peer = pb;
		t->ports[pb].peer = pa;
		t->ports[pa].bps = t->ports[pb].bps = bps;
		t->ports[pa].prop_ps = t->ports[pb].prop_ps = prop;
	}
	for (i = 0; i < t->nports; i++) {
		struct port *p = &t->ports[i];
		struct node *nd = &t->nodes[p->node];

		port_thresholds(c, p);
		if (!nd->is_switch)
			continue;
		/*
		 * Headroom: what still arrives after we decide to pause --
		 * the bytes on the wire both ways (2 x rate x delay), the
		 * packet our egress is sending before the PFC frame goes
		 * out, the one the peer has started, and the one arriving.
		 */
		p->headroom = (u64)((__uint128_t)2 * p->bps / 8 * p->prop_ps /
				    PS_PER_S) + 3ULL * c->mtu + PFC_FRAME_BYTES;
		nd->total_hdrm += p->headroom;
		nd->total_rsrv += RESERVE_BYTES;
	}
	for (n = 0; n < t->nnodes; n++) {
		struct node *nd = &t->nodes[n];
		u64 fastest = 0;

		if (!nd->is_switch)
			continue;
		for (i = 0; i < nd->nports; i++)
			if (t->ports[nd->first_port + i].bps > fastest)
				fastest = t->ports[nd->first_port + i].bps;
		/* HPCC's run.py: 16 MB per 50 Gbit/s of port speed */
		nd->buffer = c->buffer_bytes ? c->buffer_bytes :
			     16000000ULL * (fastest / 1000000000ULL) / 50;
		if (nd->buffer < nd->total_hdrm + nd->total_rsrv + 4ULL * c->mtu)
			return topo_err("switch buffer smaller than its headroom and reserve (raise --buffer-kb)",
					nd->name);
	}
	free(deg);
	free(fill);
	return 0;
}

static int resolve_host(const struct topo *t, const char *name, u32 *id)
{
	int n = find_node(t, name);

	if (n < 0 || t->nodes[n].is_switch)
		return topo_err("a flow names no such host", name);
	*id = (u32)n;
	return 0;
}

/* Per-flow figures that depend on the topology. */
static int resolve_flows(struct sim_config *c, struct topo *t)
{
	unsigned int i;

	for (i = 0; i < c->nflows; i++) {
		struct flow_spec *f = &c->flows[i];

		if (!f->src_name[0])
			return topo_err("with --link or --leafspine a flow must name SRC>DST",
					NULL);
		if (resolve_host(t, f->src_name, &f->src) ||
		    resolve_host(t, f->dst_name, &f->dst))
			return -1;
		if (f->src == f->dst)
			return topo_err("a flow's source is its destination",
					f->src_name);
	}
	return 0;
}

static int pick_watch(const struct sim_config *c, struct topo *t)
{
	u32 *count, best = 0, h, n;
	unsigned int i;

	if (strchr(c->watch, '>')) {
		char a[SIM_NAME_LEN];
		const char *gt = strchr(c->watch, '>');
		int na, nb;

		snprintf(a, sizeof(a), "%.*s", (int)(gt - c->watch), c->watch);
		na = find_node(t, a);
		nb = find_node(t, gt + 1);
		if (na < 0 || nb < 0 || !t->nodes[na].is_switch)
			return topo_err("--watch=SWITCH>NEIGHBOUR names no such port",
					c->watch);
		for (i = 0; i < t->nodes[na].nports; i++) {
			u32 p = t->nodes[na].first_port + i;

			if (t->ports[t->ports[p].peer].node == (u32)nb) {
				t->watch_port = p;
				return 0;
			}
		}
		return topo_err("--watch=SWITCH>NEIGHBOUR names no such port",
				c->watch);
	} else if (c->watch[0]) {
		int w = find_node(t, c->watch);

		if (w < 0 || t->nodes[w].is_switch)
			return topo_err("--watch names no such host", c->watch);
		n = (u32)w;
	} else {
		count = calloc(t->nnodes, sizeof(*count));
		if (!count)
			return topo_err("out of memory", NULL);
		n = c->nflows ? c->flows[0].dst : t->hosts[0];
		for (i = 0; i < c->nflows; i++)
			count[c->flows[i].dst]++;
		for (h = 0; h < t->nhosts; h++)
			if (count[t->hosts[h]] > best) {
				best = count[t->hosts[h]];
				n = t->hosts[h];
			}
		free(count);
	}
	t->watch_port = t->ports[t->nodes[n].first_port].peer;
	return 0;
}

int topo_build(struct sim_config *c)
{
	struct topo *t = calloc(1, sizeof(*t));
	u32 cap = 0, n;
	unsigned int i;

	if (!t)
		return topo_err("out of memory", NULL);
	c->topo = t;
	t->reserve = RESERVE_BYTES;
	t->resume_offset = RESUME_OFFSET;
	if (!c->nlinks && build_star(c))
		return -1;
	for (i = 0; i < c->nswitches; i++)
		if (add_node(t, &cap, c->switches[i], true) < 0)
			return -1;
	for (i = 0; i < c->nlinks; i++)
		if (add_node(t, &cap, c->links[i].a, false) < 0 ||
		    add_node(t, &cap, c->links[i].b, false) < 0)
			return -1;
	t->hosts = malloc(sizeof(*t->hosts) * t->nnodes);
	if (!t->hosts)
		return topo_err("out of memory", NULL);
	for (n = 0; n < t->nnodes; n++)
		if (!t->nodes[n].is_switch) {
			t->nodes[n].host_idx = t->nhosts;
			t->hosts[t->nhosts++] = n;
		}
	if (t->nhosts < 2)
		return topo_err("need at least two hosts", NULL);
	if (build_ports(c, t) || build_routes(t) || resolve_flows(c, t))
		return -1;
	if (c->has_workload && workload_generate(c))
		return -1;
	if (!c->nflows)
		return topo_err("no flows: give --flow, --flows, --burst or --workload",
				NULL);
	for (i = 0; i < c->nflows; i++) {
		const struct flow_spec *f = &c->flows[i];
		u32 d = f->dst;
		u32 cur = t->ports[t->nodes[f->src].first_port].peer;

		/* every destination must be reachable */
		while (t->ports[cur].node != d) {
			const struct node *nd = &t->nodes[t->ports[cur].node];
			size_t r = (size_t)t->sw_idx[t->ports[cur].node] * t->nhosts +
				   t->nodes[d].host_idx;

			if (!nd->is_switch || !t->route_cnt[r])
				return topo_err("no route to a flow's destination",
						t->nodes[d].name);
			cur = t->ports[t->route_ports[t->route_off[r]]].peer;
		}
	}
	return pick_watch(c, t);
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->ports);
	free(t->hosts);
	free(t->route_off);
	free(t->route_cnt);
	free(t->route_ports);
	free(t->sw_idx);
	free(t);
}

u64 topo_ideal_fct_ps(const struct sim_config *c, u32 src, u32 dst,
		      u64 bytes, u32 hash)
{
	const struct topo *t = c->topo;
	u32 p = t->nodes[src].first_port;
	u64 first = bytes < c->mtu ? bytes : c->mtu, slowest = SIM_NEVER;
	u64 ps = 0;

	/*
	 * The flow alone on the empty fabric, paced at the slowest link of
	 * its path: its first packet crosses every hop (serialisation and
	 * propagation), the rest follow at the bottleneck rate.
	 */
	for (;;) {
		const struct port *e = &t->ports[p];
		u32 next = t->ports[e->peer].node;

		ps += e->prop_ps + (first * 8 * PS_PER_S + e->bps - 1) / e->bps;
		if (e->bps < slowest)
			slowest = e->bps;
		if (next == dst)
			break;
		p = topo_route(t, next, t->nodes[dst].host_idx, hash);
	}
	/* 128 bits: a 30 MB flow's bits x 10^12 overflow 64 */
	return ps + (u64)(((__uint128_t)(bytes - first) * 8 * PS_PER_S +
			   slowest - 1) / slowest);
}

/* A flow-size CDF: "BYTES PERCENT" lines, "#" comments. */
struct cdf {
	double x[256], y[256];
	int n;
};

static int read_cdf(const char *path, struct cdf *d)
{
	char line[256];
	FILE *fp = fopen(path, "r");
	int lineno = 0;

	if (!fp)
		return topo_err("cannot open the workload's CDF", path);
	d->n = 0;
	while (fgets(line, sizeof(line), fp)) {
		char *h = strchr(line, '#');
		double x, y;
		char extra;

		lineno++;
		if (h)
			*h = '\0';
		if (sscanf(line, " %lf %lf %c", &x, &y, &extra) != 2) {
			if (sscanf(line, " %c", &extra) == 1)
				goto bad;
			continue;
		}
		if (d->n == 256 || x < 0 || y < 0 || y > 100 ||
		    (d->n && (x <= d->x[d->n - 1] || y <= d->y[d->n - 1])))
			goto bad;
		d->x[d->n] = x;
		d->y[d->n++] = y;
	}
	fclose(fp);
	if (d->n < 2 || d->y[0] != 0 || d->y[d->n - 1] != 100)
		return topo_err("a CDF must rise from 0 to 100 percent", path);
	return 0;
bad:
	fclose(fp);
	fprintf(stderr, "rdma-cc-sim: %s:%d: expected BYTES PERCENT, both rising\n",
		path, lineno);
	return -1;
}

/* The mean, as the piecewise-linear CDF gives it. */
static double cdf_mean(const struct cdf *d)
{
	double s = 0;
	int i;

	for (i = 1; i < d->n; i++)
		s += (d->x[i] + d->x[i - 1]) / 2 * (d->y[i] - d->y[i - 1]);
	return s / 100;
}

static double cdf_sample(const struct cdf *d, double u)
{
	double y = u * 100;
	int i;

	for (i = 1; i < d->n; i++)
		if (y <= d->y[i])
			return d->x[i - 1] + (d->x[i] - d->x[i - 1]) /
			       (d->y[i] - d->y[i - 1]) * (y - d->y[i - 1]);
	return d->x[d->n - 1];
}

static u64 wl_rng(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double wl_uniform(u64 *s)
{
	return ((wl_rng(s) >> 11) + 0.5) / 9007199254740992.0;
}

#define MAX_GENERATED	2000000U

/*
 * Every host starts flows as a Poisson process whose mean gap carries
 * load x its NIC rate in the CDF's mean size, each to a destination drawn
 * uniformly among the other hosts (as HPCC's traffic_gen.py does).
 */
int workload_generate(struct sim_config *c)
{
	const struct workload_spec *w = &c->workload;
	const struct topo *t = c->topo;
	struct cdf d;
	double mean, gap_ps;
	u64 rng = c->seed * 0x9e3779b97f4a7c15ULL + 12345;
	u32 h, n = c->nflows, cap = c->nflows;
	struct flow_spec *fl = c->flows;

	if (read_cdf(w->cdf_path, &d))
		return -1;
	mean = cdf_mean(&d);
	gap_ps = mean * 8 / (c->host_bps * w->load) * PS_PER_S;
	for (h = 0; h < t->nhosts; h++) {
		double at = (double)w->from_ps - log(wl_uniform(&rng)) * gap_ps;

		while (at < (double)w->to_ps) {
			struct flow_spec *f;
			u32 dst = (u32)(wl_rng(&rng) % (t->nhosts - 1));
			double size = cdf_sample(&d, wl_uniform(&rng));

			if (n == MAX_GENERATED)
				return topo_err("the workload makes more than 2,000,000 flows",
						NULL);
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				fl = realloc(fl, sizeof(*fl) * cap);
				if (!fl)
					return topo_err("out of memory", NULL);
				c->flows = fl;
			}
			f = &fl[n++];
			memset(f, 0, sizeof(*f));
			f->start_ps = (u64)at;
			f->stop_ps = SIM_NEVER;
			f->bytes = size < 1 ? 1 : (u64)size;
			f->src = t->hosts[h];
			f->dst = t->hosts[dst >= h ? dst + 1 : dst];
			at -= log(wl_uniform(&rng)) * gap_ps;
		}
	}
	c->nflows = n;
	return 0;
}
