// SPDX-License-Identifier: GPL-2.0
/*
 * eventq.c - a binary min-heap of simulator events.
 */
#include <stdlib.h>

#include "eventq.h"

/* Controller runs and samples come after everything else at one instant. */
static uint64_t ev_class(enum ev_kind kind)
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

int eventq_init(struct eventq *q, uint32_t cap)
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
	q->len = q->cap = 0;
}

int eventq_push(struct eventq *q, uint64_t t_ps, enum ev_kind kind,
		uint32_t flow, uint32_t arg, bool ce)
{
	struct event ev = {
		.t_ps = t_ps, .flow = flow, .arg = arg, .kind = kind, .ce = ce,
		.seq = (ev_class(kind) << 62) | q->next_seq++,
	};
	uint32_t i;

	if (q->len == q->cap) {
		struct event *h = realloc(q->heap, sizeof(*h) * q->cap * 2);

		if (!h)
			return -1;
		q->heap = h;
		q->cap *= 2;
	}
	i = q->len++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

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
	uint32_t i = 0;

	if (!q->len)
		return false;
	*ev = q->heap[0];
	last = q->heap[--q->len];
	for (;;) {
		uint32_t c = 2 * i + 1;

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
