// SPDX-License-Identifier: GPL-2.0
/*
 * switch-ecn.bpf.c - ECN marking of the testbed switch's bottleneck port.
 *
 * The host kernel this testbed runs on has no RED (nor fq_codel) qdisc and
 * cannot load modules, so the switch's egress port towards the receiver is
 * built from what it has: an HTB class at the bottleneck rate with a
 * byte-limited FIFO (the port buffer, tail drop), and this classifier on the
 * port's clsact egress hook, which runs on every packet just before the HTB
 * enqueues it.
 *
 * It keeps a model of the FIFO's backlog: the queue drains at the
 * bottleneck rate while it is not empty, and each packet adds its length.
 * Only RoCEv2 packets (UDP port 4791) take the bottleneck: the program
 * puts them into the port's HTB class 1:1 and everything else (the TCP
 * connections perftest sets its QPs up over, ARP) into class 1:2, as a
 * RoCE fabric keeps RoCE in a traffic class of its own; so a sender's
 * setup does not wait behind another's congestion.
 *
 * On that instantaneous backlog it marks as a RoCE switch's ECN (WRED with
 * ECN) profile does: never below Kmin, with probability rising linearly to
 * Pmax at Kmax, always above Kmax.  Only ECN-capable packets are marked
 * CE; the others pass untouched and are counted.
 *
 * Parameters are compile-time constants (-D, set by switch.sh):
 *   RCC_RATE_BPS   bottleneck rate, bit/s
 *   RCC_KMIN       bytes
 *   RCC_KMAX       bytes
 *   RCC_PMAX_PCT   marking probability at Kmax, percent
 *   RCC_LIMIT      port buffer, bytes (the FIFO's own limit; the model
 *                  caps its backlog there too)
 *
 * Counters are in the array map rcc_ecn_stats (one struct; switch.sh finds
 * it through the filter's program id).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>

/* HTB classes of the port (switch.sh): skb->priority names one directly */
#define RCC_ROCE_CLASS	0x00010001U	/* 1:1, the bottleneck */
#define RCC_OTHER_CLASS	0x00010002U	/* 1:2, TCP (perftest's setup), ARP */

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name

static long (*bpf_skb_ecn_set_ce)(struct __sk_buff *skb) =
	(void *)BPF_FUNC_skb_ecn_set_ce;
static void *(*bpf_map_lookup_elem)(void *map, const void *key) =
	(void *)BPF_FUNC_map_lookup_elem;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)BPF_FUNC_ktime_get_ns;
static __u32 (*bpf_get_prandom_u32)(void) = (void *)BPF_FUNC_get_prandom_u32;
static long (*bpf_spin_lock)(struct bpf_spin_lock *l) =
	(void *)BPF_FUNC_spin_lock;
static long (*bpf_spin_unlock)(struct bpf_spin_lock *l) =
	(void *)BPF_FUNC_spin_unlock;
static long (*bpf_skb_load_bytes)(const void *skb, __u32 off, void *to,
				  __u32 len) = (void *)BPF_FUNC_skb_load_bytes;

struct rcc_ecn_stats {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 last_ns;		/* time of the model's last update */
	__u64 backlog;		/* model backlog, bytes */
	__u64 max_backlog;
	__u64 packets;		/* IPv4 packets seen */
	__u64 bytes;
	__u64 marked;		/* set to CE here */
	__u64 ce_already;	/* arrived CE */
	__u64 not_ect;		/* would have been marked, not ECN-capable */
	__u64 over_limit;	/* arrived with the model's buffer full */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rcc_ecn_stats);
} rcc_ecn_stats SEC(".maps");

SEC("tc") int rcc_ecn_mark(struct __sk_buff *skb)
{
	struct rcc_ecn_stats *s;
	__u32 key = 0, len = skb->len;
	__u64 now, drained, q;
	__u8 tos, ip[20];
	__u16 dport;
	int mark = 0;

	/* everything but RoCEv2 goes to the port's other class (1:2) */
	skb->priority = RCC_OTHER_CLASS;
	if (skb->protocol != __constant_htons(ETH_P_IP))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, ETH_HLEN, ip, sizeof(ip)) < 0)
		return TC_ACT_OK;
	if ((ip[0] & 0xf) != 5 || ip[9] != IPPROTO_UDP ||
	    bpf_skb_load_bytes(skb, ETH_HLEN + 20 + 2, &dport, 2) < 0 ||
	    dport != __constant_htons(4791))
		return TC_ACT_OK;
	skb->priority = RCC_ROCE_CLASS;
	tos = ip[1];
	s = bpf_map_lookup_elem(&rcc_ecn_stats, &key);
	if (!s)
		return TC_ACT_OK;
	now = bpf_ktime_get_ns();

	bpf_spin_lock(&s->lock);
	if (s->last_ns && now - s->last_ns > 1000000000ULL) {
		s->backlog = 0;		/* idle for a second: long drained */
	} else if (s->last_ns && now > s->last_ns) {
		drained = (now - s->last_ns) * (RCC_RATE_BPS / 8) / 1000000000ULL;
		s->backlog = s->backlog > drained ? s->backlog - drained : 0;
	}
	s->last_ns = now;
	q = s->backlog;
	if (q + len > RCC_LIMIT) {
		s->over_limit++;	/* the FIFO will drop it */
	} else {
		s->backlog = q + len;
		if (s->backlog > s->max_backlog)
			s->max_backlog = s->backlog;
	}
	s->packets++;
	s->bytes += len;
	bpf_spin_unlock(&s->lock);

	if (q >= RCC_KMAX)
		mark = 1;
	else if (q > RCC_KMIN)
		mark = (bpf_get_prandom_u32() % (100ULL * (RCC_KMAX - RCC_KMIN))) <
			(__u64)RCC_PMAX_PCT * (q - RCC_KMIN);
	if (!mark)
		return TC_ACT_OK;

	if ((tos & 3) == 3) {
		__sync_fetch_and_add(&s->ce_already, 1);
	} else if ((tos & 3) == 0) {
		__sync_fetch_and_add(&s->not_ect, 1);
	} else {
		bpf_skb_ecn_set_ce(skb);
		__sync_fetch_and_add(&s->marked, 1);
	}
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
