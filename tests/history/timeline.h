/* SPDX-License-Identifier: MIT */
/*
 * tests/history/timeline.h - a history as the list of its calls and
 * returns in time order, which the two linearizability searches
 * (linearize.c, qsearch.c) walk: an operation may be placed next while
 * its call precedes the first return left; placing it unlinks both its
 * entries, backtracking relinks them.
 */
#ifndef LFHT_HISTORY_TIMELINE_H
#define LFHT_HISTORY_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist_event {
	uint32_t prev, next;
	uint32_t op;
	bool is_call;
	uint64_t time;
};

/* e[2n] is the head; e[head].next == head once every operation is placed. */
struct hist_timeline {
	struct hist_event *e;
	uint32_t head;
	uint32_t *call_of, *return_of;	/* an operation's two entries */
};

/* Room for n operations; give each its interval with hist_timeline_set(),
 * then link the list with hist_timeline_link(). */
void hist_timeline_init(struct hist_timeline *t, size_t n);
void hist_timeline_free(struct hist_timeline *t);

static inline void hist_timeline_set(struct hist_timeline *t, uint32_t op, uint64_t invoke,
				     uint64_t respond)
{
	t->e[2 * op] = (struct hist_event){ .op = op, .is_call = true, .time = invoke };
	t->e[2 * op + 1] = (struct hist_event){ .op = op, .time = respond };
}

/* Sorts the entries by time (equal stamps overlap: the call first) and
 * links them. */
void hist_timeline_link(struct hist_timeline *t);

/* Places op: its call and its return leave the list. */
static inline void hist_timeline_place(struct hist_timeline *t, uint32_t op)
{
	struct hist_event *e = t->e;
	uint32_t ends[2] = { t->call_of[op], t->return_of[op] };

	for (int k = 0; k < 2; k++) {
		e[e[ends[k]].prev].next = e[ends[k]].next;
		e[e[ends[k]].next].prev = e[ends[k]].prev;
	}
}

/* Undoes the last hist_timeline_place() still in effect, of op. */
static inline void hist_timeline_unplace(struct hist_timeline *t, uint32_t op)
{
	struct hist_event *e = t->e;
	uint32_t ends[2] = { t->return_of[op], t->call_of[op] };

	for (int k = 0; k < 2; k++) {
		e[e[ends[k]].prev].next = ends[k];
		e[e[ends[k]].next].prev = ends[k];
	}
}

#endif /* LFHT_HISTORY_TIMELINE_H */
