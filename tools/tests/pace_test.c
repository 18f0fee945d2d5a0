// SPDX-License-Identifier: GPL-2.0
/*
 * pace_test.c - rxe's pacing arithmetic on a virtual clock.
 *
 * Compiles drivers/infiniband/sw/rxe/rxe_pace_calc.h as the patch series
 * (tools/rxe/patches) creates it (the Makefile extracts it with git apply)
 * and drives it the way rxe_pace.c does: a sender asks how long to wait
 * (rxe_pace_wait_ns), sleeps that long on a virtual clock, possibly late,
 * sends a packet and moves the departure time on (rxe_pace_advance).
 *
 * For packet sizes 58 B to 4 KB (fixed and mixed) and rates 1 Mbit/s to
 * 10 Tbit/s it checks, over every window of one control interval (rdma_cc's
 * default T, and its minimum) starting at a departure:
 *
 *   on time  (the timer fires when asked):
 *            bytes sent <= rate * (window + 1 ns) + one packet;
 *   late     (every wake-up late by up to the default pace_burst_us):
 *            the same bound plus one control interval's worth;
 *   bursty   (idle gaps of up to 100 windows between trains of packets):
 *            the same bound plus one control interval's worth.
 *
 * The last two hold only if the credit a late or idle QP catches up
 * (pace_burst_us) is at most one control interval by default.
 *
 * The 1 ns is the clock's resolution: a packet leaves at a whole ns, up to
 * 1 ns after its exact time, which at 10 Tbit/s is 1250 bytes.  Over each
 * whole run it checks that the QP never got ahead of its rate (a run starts
 * as rxe_pace_set_rate() starts pacing, with no credit), and that it fell
 * behind by no more than 0.03 % plus its lateness (1 ns on time, the
 * pace_burst_us it may catch up late) and one packet.
 *
 * Prints "ok/not ok pace/..." lines and, with -v, the worst excess over
 * rate * window for each rate and size (bytes, and in packets).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "rxe_pace_calc.h"

#define NR_PKTS		200000
#define START_NS	1000000000ULL	/* the clock when the run starts */

static const u64 rates[] = {
	1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
	10000000000ULL, 25000000000ULL, 100000000000ULL, 400000000000ULL,
	1000000000000ULL, 10000000000000ULL,
};
#define NR_RATES (sizeof(rates) / sizeof(rates[0]))

/* 0 = mixed sizes, 58..4096 */
static const unsigned int sizes[] = { 58, 64, 128, 1000, 1262, 1500, 4096, 0 };
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))

enum mode { ON_TIME, LATE, BURSTY, NR_MODES };
static const char *const mode_names[] = { "on-time", "late", "bursty" };

static u64 t[NR_PKTS];
static unsigned int b[NR_PKTS];
static unsigned long long rnd = 88172645463325252ULL;

static u64 xorshift(void)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return rnd;
}

static unsigned int pkt_size(unsigned int size)
{
	static const unsigned int mix[] = { 58, 62, 70, 300, 1082, 1500, 4096,
					    4154 };

	return size ? size : mix[xorshift() % 8];
}

struct result {
	double worst_excess;	/* max over windows: bytes - rate * window */
	unsigned int worst_pkt;	/* the largest packet of that window */
	int window_ok;		/* every window within its bound */
	int rate_ok;		/* never ahead, behind by no more than allowed */
	double rate_ratio;	/* achieved / set, over the run */
};

/*
 * One run: NR_PKTS packets, always backlogged (but for the bursty mode),
 * then every window [t_i, t_i + window] checked against
 * rate * (window + allow_ns) + its largest packet.
 */
static struct result run(enum mode mode, u64 rate, unsigned int size,
			 u64 window, u64 credit_ns, u64 allow_ns)
{
	struct rxe_pace_next next = { 0, 0 };
	u64 cost = rxe_pace_byte_cost(rate);
	u64 now = START_NS;
	struct result r = { -1e300, 0, 1, 1, 0 };
	unsigned int i, j, maxp;
	__int128 sum;

	rxe_pace_start(&next, now);	/* as rxe_pace_set_rate() does */

	for (i = 0; i < NR_PKTS; i++) {
		u64 wait = rxe_pace_wait_ns(&next, now);

		if (wait) {
			now += wait;
			if (mode == LATE && credit_ns)
				now += xorshift() % (credit_ns + 1);
		}
		if (mode == BURSTY && xorshift() % 64 == 0)
			now += xorshift() % (100 * window + 1);
		b[i] = pkt_size(size);
		t[i] = now;
		rxe_pace_advance(&next, now, credit_ns, b[i], cost);
	}

	/* every window starting at a departure: i..j-1 inside it */
	sum = 0;
	maxp = 0;
	for (i = 0, j = 0; i < NR_PKTS; i++) {
		__int128 allowed_bits_ns, over;
		unsigned int k;

		if (j < i) {
			j = i;
			sum = 0;
		}
		while (j < NR_PKTS && t[j] <= t[i] + window)
			sum += b[j++];
		maxp = 0;
		for (k = i; k < j && k < i + 64; k++)
			if (b[k] > maxp)
				maxp = b[k];
		if (j - i > 64)		/* mixed sizes: the largest possible */
			maxp = size ? size : 4154;
		/* bytes * 8e9 vs rate * (window + allow) + packet, exactly */
		allowed_bits_ns = (__int128)rate * (window + 1 + allow_ns) +
				  (__int128)maxp * 8 * 1000000000;
		over = sum * 8 * 1000000000 - allowed_bits_ns;
		if (over > 0)
			r.window_ok = 0;
		{
			double ex = (double)sum - (double)rate * window / 8e9;

			if (ex / maxp > (double)r.worst_excess / r.worst_pkt ||
			    !r.worst_pkt) {
				r.worst_excess = ex;
				r.worst_pkt = maxp;
			}
		}
		sum -= b[i];
	}

	/* the rate over the run: every packet but the last, first to last */
	sum = 0;
	for (i = 0; i + 1 < NR_PKTS; i++)
		sum += b[i];
	{
		u64 dur = t[NR_PKTS - 1] - t[0];
		double expect = (double)rate * dur / 8e9;
		double behind = mode == ON_TIME ? 1 : credit_ns;

		r.rate_ratio = (double)sum / expect;
		/* ahead: more than (dur + 1 ns) at the rate, exactly */
		if (sum * 8 * 1000000000 > (__int128)rate * (dur + 1))
			r.rate_ok = 0;
		if (mode != BURSTY &&
		    expect - (double)sum > 3e-4 * expect +
		    (double)rate * behind / 8e9 + 4154)
			r.rate_ok = 0;
	}
	return r;
}

int main(int argc, char **argv)
{
	u64 windows[] = {
		rcc_param_descs[RCC_CONTROL_INTERVAL_NS].def,
		rcc_param_descs[RCC_CONTROL_INTERVAL_NS].min,
	};
	u64 credit = (u64)RXE_PACE_DEFAULT_BURST_US * NSEC_PER_USEC;
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	unsigned int m, ri, si, wi;
	int failed = 0;

	if (verbose)
		printf("# window rate_bps size mode worst_excess_bytes packets rate_reached\n");
	for (m = 0; m < NR_MODES; m++) {
		for (wi = 0; wi < 2; wi++) {
			int ok_win = 1, ok_rate = 1;
			double worst = -1e300;

			for (ri = 0; ri < NR_RATES; ri++) {
				for (si = 0; si < NR_SIZES; si++) {
					u64 allow = m == ON_TIME ? 0 : windows[0];
					struct result r;

					r = run(m, rates[ri], sizes[si],
						windows[wi], credit, allow);
					ok_win &= r.window_ok;
					ok_rate &= r.rate_ok;
					if (r.worst_excess / r.worst_pkt > worst)
						worst = r.worst_excess / r.worst_pkt;
					if (verbose)
						printf("%llu %llu %u %s %.2f %.3f %.6f\n",
						       windows[wi], rates[ri],
						       sizes[si], mode_names[m],
						       r.worst_excess,
						       r.worst_excess / r.worst_pkt,
						       r.rate_ratio);
				}
			}
			printf("%s pace/%s/window-%lluns: bytes <= rate * (window + 1 ns%s) + one packet (worst excess over rate * window: %.3f packets)\n",
			       ok_win ? "ok" : "not ok", mode_names[m],
			       windows[wi], m == ON_TIME ? "" : " + one control interval",
			       worst);
			failed |= !ok_win;
			if (wi)
				continue;
			printf("%s pace/%s/rate: never above the rate%s\n",
			       ok_rate ? "ok" : "not ok", mode_names[m],
			       m == BURSTY ? "" :
			       ", below by at most 0.03 % + its lateness + one packet");
			failed |= !ok_rate;
		}
	}
	return failed;
}
