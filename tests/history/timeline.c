/* SPDX-License-Identifier: MIT */
/*
 * tests/history/timeline.c - building the time-ordered list of calls and
 * returns (timeline.h).
 */
#include "timeline.h"
#include "history.h"

#include <stdlib.h>

void hist_timeline_init(struct hist_timeline *t, size_t n)
{
	*t = (struct hist_timeline){ .head = (uint32_t)(2 * n) };
	t->e = hist_calloc(2 * n + 1, sizeof(*t->e));
	t->call_of = hist_calloc(n, sizeof(*t->call_of));
	t->return_of = hist_calloc(n, sizeof(*t->return_of));
}

void hist_timeline_free(struct hist_timeline *t)
{
	free(t->e);
	free(t->call_of);
	free(t->return_of);
}

static int event_cmp(const void *a, const void *b)
{
	const struct hist_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* Equal stamps overlap: the call first. */
	if (x->is_call != y->is_call)
		return x->is_call ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

void hist_timeline_link(struct hist_timeline *t)
{
	struct hist_event *e = t->e;
	uint32_t head = t->head;

	qsort(e, head, sizeof(*e), event_cmp);
	for (uint32_t i = 0; i <= head; i++) {
		e[i].prev = i ? i - 1 : head;
		e[i].next = i < head ? i + 1 : 0;
		if (i < head)
			*(e[i].is_call ? &t->call_of[e[i].op] : &t->return_of[e[i].op]) = i;
	}
}
