// SPDX-License-Identifier: GPL-2.0
/*
 * eventq.c - a binary min-heap of simulator events.
 */
#include <stdlib.h>

#include "eventq.h"

/* Controller runs and samples come after everything else at one instant. */
static u64 ev_class(enum ev_kind kind)
{
	switch (kind) {
	case EV_RP_TIMER:
		return 1;
	case EV_SAMPLE:
		return 2;
	default:
		return 0;
	}
}

static bool ev_before(const struct event *a, const struct event *b)
{
	if (a->t_ps != b->t_ps)
		return a->t_ps < b->t_ps;
	return a->seq < b->seq;
}

int eventq_init(struct eventq *q, u32 cap)
{
	q->len = 0;
	q->cap = cap < 16 ? 16 : cap;
	q->next_seq = 0;
	q->heap = malloc(sizeof(*q->heap) * q->cap);
	return q->heap ? 0 : -1;
}

void eventq_free(struct eventq *q)
{
	free(q->heap);
	q->heap = NULL;
	q->len = 0;
	q->cap = 0;
}

int eventq_push(struct eventq *q, u64 t_ps, enum ev_kind kind,
		u32 target, u32 arg, const struct pkt *p)
{
	struct event ev = {
		.t_ps = t_ps, .target = target, .arg = arg, .kind = kind,
		.seq = (ev_class(kind) << 62) | q->next_seq++,
	};
	u32 i;

	if (p)
		ev.p = *p;
	if (q->len == q->cap) {
		struct event *h = realloc(q->heap, sizeof(*h) * q->cap * 2);

		if (!h)
			return -1;
		q->heap = h;
		q->cap *= 2;
	}
	i = q->len++;
	while (i > 0) {
		u32 parent = (i - 1) / 2;

		if (!ev_before(&ev, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = ev;
	return 0;
}

bool eventq_pop(struct eventq *q, struct event *ev)
{
	struct event last;
	u32 i = 0;

	if (!q->len)
		return false;
	*ev = q->heap[0];
	last = q->heap[--q->len];
	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= q->len)
			break;
		if (c + 1 < q->len && ev_before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!ev_before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->len)
		q->heap[i] = last;
	return true;
}
