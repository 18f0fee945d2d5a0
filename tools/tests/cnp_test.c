// SPDX-License-Identifier: GPL-2.0
/*
 * cnp_test.c - rxe's CNP gap (the series' rxe_cnp_calc.h) on a virtual clock.
 *
 * rxe_cnp_claim(last, now, gap) decides whether a CE-marked packet read at
 * time now is answered with a CNP, given the last CNP's time and the
 * minimum gap (cnp_min_gap_us).  On a host with several CPUs the calls do
 * not arrive in clock order: a CPU reads the clock, is delayed, and by the
 * time it looks at the QP another CPU may have sent a CNP stamped later.
 *
 * Checked, for gaps 0, 1 us, 4 us (mlx5's min_time_between_cnps), 50 us and
 * 1 s, and for reordering of the clock reads by up to 0, 1 us, 10 us and
 * 100 us:
 *
 *   - each call's answer and the stored time are those of a reference
 *     written from the rule itself: a CNP is sent when there was none yet
 *     or at least gap ns have passed since the last one (a last CNP later
 *     than now has not passed: no CNP); the stored time is that of the CNP
 *     sent, and never moves back;
 *   - any two CNPs sent are at least gap apart;
 *   - the named cases below, among them the one a u64 difference gets
 *     wrong (a CNP stamped a little after now underflows to "long ago").
 *
 * Then two threads on real CPUs claim for one QP from the real clock: the
 * CNPs they send are at least gap apart, and none is lost to the race
 * (every claim that saw the gap pass and found the slot unchanged wins).
 *
 * Prints "ok/not ok cnp/..." lines; exits non-zero if any check failed.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/types.h>
#include "rxe_cnp_calc.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define US	1000LL
#define START	1000000000LL		/* the clock at the start of a run */

static int failed;

static void report(bool ok, const char *name)
{
	printf("%s cnp/%s\n", ok ? "ok" : "not ok", name);
	failed |= !ok;
}

/* The rule, from the contract of cnp_min_gap_us, in 128 bits. */
static bool ref_due(s64 last, s64 now, s64 gap)
{
	return !gap || !last || (__int128)now - last >= gap;
}

static void named_cases(void)
{
	atomic64_t last = { 0 };
	bool ok;

	/* the first CNP goes whatever the gap */
	ok = rxe_cnp_claim(&last, START, 50 * US) &&
	     atomic64_read(&last) == START;
	report(ok, "first_cnp_is_sent");

	/* inside the gap: none; at the gap: one */
	ok = !rxe_cnp_claim(&last, START + 50 * US - 1, 50 * US) &&
	     atomic64_read(&last) == START &&
	     rxe_cnp_claim(&last, START + 50 * US, 50 * US) &&
	     atomic64_read(&last) == START + 50 * US;
	report(ok, "gap_boundary");

	/*
	 * CPU A reads now = t; CPU B reads t + 100 ns and sends a CNP; A then
	 * looks at the QP.  A's now - last is -100 ns: inside the gap.  As a
	 * u64 it is 2^64 - 100, a CNP would go and last would move back to t.
	 */
	atomic64_set(&last, START + 200 * US + 100);
	ok = !rxe_cnp_claim(&last, START + 200 * US, 50 * US) &&
	     atomic64_read(&last) == START + 200 * US + 100;
	report(ok, "later_cnp_of_another_cpu_is_inside_the_gap");

	/* the same with no gap: the CNP goes, last stays the later one */
	ok = rxe_cnp_claim(&last, START + 200 * US, 0) &&
	     atomic64_read(&last) == START + 200 * US + 100;
	report(ok, "no_gap_sends_and_last_never_moves_back");

	/* a gap of a whole second (the parameter's maximum) */
	atomic64_set(&last, START);
	ok = !rxe_cnp_claim(&last, START + 999999999LL, 1000000 * US) &&
	     rxe_cnp_claim(&last, START + 1000000000LL, 1000000 * US);
	report(ok, "one_second_gap");
}

static u64 rng = 88172645463325252ULL;

static u64 next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * Marked packets arrive every 0..2 gaps (at least 1 ns apart); each is
 * looked at up to @jitter ns after its clock read, in the order they are
 * looked at, which is not the order of their clock reads.
 */
static bool random_run(s64 gap, s64 jitter, int n, char *why, size_t len)
{
	s64 *reads = malloc(sizeof(*reads) * n), *at = malloc(sizeof(*at) * n);
	int *order = malloc(sizeof(*order) * n);
	atomic64_t last = { 0 };
	s64 ref_last = 0, prev_sent = 0, t = START;
	bool ok = true;
	int i, j;

	for (i = 0; i < n; i++) {
		t += 1 + (s64)(next_rand() % (u64)(2 * (gap ? gap : US) + 1));
		reads[i] = t;
		at[i] = t + (jitter ? (s64)(next_rand() % (u64)(jitter + 1)) : 0);
		order[i] = i;
	}
	/* insertion sort by the time each call looks at the QP */
	for (i = 1; i < n; i++) {
		int k = order[i];

		for (j = i - 1; j >= 0 && at[order[j]] > at[k]; j--)
			order[j + 1] = order[j];
		order[j + 1] = k;
	}
	for (i = 0; ok && i < n; i++) {
		s64 now = reads[order[i]], before = atomic64_read(&last);
		bool want = ref_due(ref_last, now, gap);
		bool got = rxe_cnp_claim(&last, now, gap);

		/* with no gap every CNP goes, but last only moves forward */
		if (want && (gap || now > ref_last))
			ref_last = now;
		if (got != want) {
			snprintf(why, len, "call %d at %lld, last %lld: %s, want %s",
				 i, now, before, got ? "sent" : "none",
				 want ? "sent" : "none");
			ok = false;
		} else if (atomic64_read(&last) != ref_last) {
			snprintf(why, len, "call %d: last %lld, want %lld", i,
				 atomic64_read(&last), ref_last);
			ok = false;
		} else if (atomic64_read(&last) < before) {
			snprintf(why, len, "call %d: last moved back", i);
			ok = false;
		} else if (got && gap && prev_sent && now - prev_sent < gap) {
			snprintf(why, len, "CNPs at %lld and %lld: under the gap",
				 prev_sent, now);
			ok = false;
		}
		if (got && gap)
			prev_sent = now;
	}
	free(reads);
	free(at);
	free(order);
	return ok;
}

struct racer {
	atomic64_t *last;
	s64 gap;
	int n;
	s64 *sent;
	int nr_sent;
	int lost;
};

static s64 clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *race(void *arg)
{
	struct racer *r = arg;
	int i;

	for (i = 0; i < r->n; i++) {
		s64 now = clock_ns();
		s64 before = atomic64_read(r->last);

		if (rxe_cnp_claim(r->last, now, r->gap))
			r->sent[r->nr_sent++] = now;
		else if (before == atomic64_read(r->last) &&
			 (!before || now - before >= r->gap))
			r->lost++;	/* nobody else sent, yet it did not */
	}
	return NULL;
}

static int cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

static void threads(s64 gap)
{
	enum { N = 2000000 };
	atomic64_t last = { 0 };
	struct racer r[2];
	pthread_t tid[2];
	s64 *all;
	int i, n = 0, close = 0, lost = 0;
	char name[64];

	for (i = 0; i < 2; i++) {
		r[i] = (struct racer){ &last, gap, N, malloc(sizeof(s64) * N),
				       0, 0 };
		pthread_create(&tid[i], NULL, race, &r[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	all = malloc(sizeof(s64) * (r[0].nr_sent + r[1].nr_sent));
	for (i = 0; i < 2; i++) {
		int k;

		for (k = 0; k < r[i].nr_sent; k++)
			all[n++] = r[i].sent[k];
		lost += r[i].lost;
		free(r[i].sent);
	}
	qsort(all, n, sizeof(*all), cmp_s64);
	for (i = 1; i < n; i++)
		close += all[i] - all[i - 1] < gap;
	snprintf(name, sizeof(name), "two_cpus_gap_%lldns", gap);
	report(n > 0 && !close && !lost, name);
	if (close || lost || !n)
		printf("# %d CNPs, %d closer than %lld ns, %d lost\n", n, close,
		       gap, lost);
	free(all);
}

int main(void)
{
	static const s64 gaps[] = { 0, 1 * US, 4 * US, 50 * US, 1000000 * US };
	static const s64 jitters[] = { 0, 1 * US, 10 * US, 100 * US };
	unsigned int g, j;

	named_cases();
	for (g = 0; g < ARRAY_SIZE(gaps); g++)
		for (j = 0; j < ARRAY_SIZE(jitters); j++) {
			char name[96], why[160] = "";
			bool ok = random_run(gaps[g], jitters[j], 200000, why,
					     sizeof(why));

			snprintf(name, sizeof(name),
				 "random_gap_%lldns_reordered_%lldns",
				 gaps[g], jitters[j]);
			report(ok, name);
			if (!ok)
				printf("# %s\n", why);
		}
	threads(4 * US);
	threads(50 * US);
	return failed;
}
