// SPDX-License-Identifier: GPL-2.0
/*
 * eventq.c - the simulator's pending events: a 4-ary min-heap of 16-byte
 * keys (time; class, insertion order and a payload slot packed in one
 * word) over a slab of payloads, so that sifting moves small entries.
 */
#include <stdlib.h>

#include "eventq.h"

#define SLOT_BITS	24
#define SLOT_MASK	((1ULL << SLOT_BITS) - 1)
#define SEQ_MASK	((1ULL << (62 - SLOT_BITS)) - 1)

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

static inline bool key_before(const struct ev_key *a, const struct ev_key *b)
{
	if (a->t_ps != b->t_ps)
		return a->t_ps < b->t_ps;
	return a->ord < b->ord;
}

int eventq_init(struct eventq *q, u32 cap)
{
	u32 i;

	q->len = 0;
	q->cap = cap < 64 ? 64 : cap;
	q->next_seq = 0;
	q->heap = malloc(sizeof(*q->heap) * q->cap);
	q->slab = malloc(sizeof(*q->slab) * q->cap);
	q->free = malloc(sizeof(*q->free) * q->cap);
	if (!q->heap || !q->slab || !q->free)
		return -1;
	for (i = 0; i < q->cap; i++)
		q->free[i] = q->cap - 1 - i;
	q->nfree = q->cap;
	return 0;
}

void eventq_free(struct eventq *q)
{
	free(q->heap);
	free(q->slab);
	free(q->free);
	q->heap = NULL;
	q->slab = NULL;
	q->free = NULL;
	q->len = 0;
	q->cap = 0;
}

static int grow(struct eventq *q)
{
	u32 cap = q->cap * 2, i;
	struct ev_key *h;
	struct ev_payload *s;
	u32 *f;

	if ((u64)cap > SLOT_MASK + 1)
		return -1;
	h = realloc(q->heap, sizeof(*h) * cap);
	if (!h)
		return -1;
	q->heap = h;
	s = realloc(q->slab, sizeof(*s) * cap);
	if (!s)
		return -1;
	q->slab = s;
	f = realloc(q->free, sizeof(*f) * cap);
	if (!f)
		return -1;
	q->free = f;
	for (i = q->cap; i < cap; i++)
		q->free[q->nfree++] = cap - 1 - (i - q->cap);
	q->cap = cap;
	return 0;
}

int eventq_push(struct eventq *q, u64 t_ps, enum ev_kind kind,
		u32 target, u32 arg, const struct pkt *p)
{
	struct ev_key k;
	struct ev_payload *e;
	u32 i, slot;

	if (!q->nfree && grow(q))
		return -1;
	slot = q->free[--q->nfree];
	e = &q->slab[slot];
	e->target = target;
	e->arg = arg;
	e->kind = kind;
	if (p)
		e->p = *p;
	k.t_ps = t_ps;
	k.ord = (ev_class(kind) << 62) |
		((q->next_seq++ & SEQ_MASK) << SLOT_BITS) | slot;
	i = q->len++;
	while (i > 0) {
		u32 parent = (i - 1) / 4;

		if (!key_before(&k, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = k;
	return 0;
}

bool eventq_pop(struct eventq *q, struct event *ev)
{
	struct ev_key last;
	const struct ev_payload *e;
	u32 i = 0, slot;

	if (!q->len)
		return false;
	slot = (u32)(q->heap[0].ord & SLOT_MASK);
	e = &q->slab[slot];
	ev->t_ps = q->heap[0].t_ps;
	ev->target = e->target;
	ev->arg = e->arg;
	ev->kind = e->kind;
	ev->p = e->p;
	q->free[q->nfree++] = slot;
	last = q->heap[--q->len];
	for (;;) {
		u32 c = 4 * i + 1, best, j, end;

		if (c >= q->len)
			break;
		best = c;
		end = c + 4 < q->len ? c + 4 : q->len;
		for (j = c + 1; j < end; j++)
			if (key_before(&q->heap[j], &q->heap[best]))
				best = j;
		if (!key_before(&q->heap[best], &last))
			break;
		q->heap[i] = q->heap[best];
		i = best;
	}
	if (q->len)
		q->heap[i] = last;
	return true;
}
