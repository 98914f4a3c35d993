/* SPDX-License-Identifier: MIT */
/*
 * tests/history/queue-internal.h - what the files of the queue and stack
 * checker share (queue.c: the round, the common rules and the reports;
 * fifo.c and lifo.c: the order rules; qsearch.c: the exact search). Not for
 * the tests: they use queue.h.
 */
#ifndef LFHT_HISTORY_QUEUE_INTERNAL_H
#define LFHT_HISTORY_QUEUE_INTERNAL_H

#include "queue.h"

#define HQ_NONE UINT32_MAX

/* A call of the round, or of the drain that follows it (op NULL; its takes
 * are sequential, after every call of the round, and a last take returns
 * empty). */
struct hq_call {
	uint64_t invoke, respond;
	uint64_t value;			/* HQ_PUT, HQ_TAKE (0: empty) */
	const uint64_t *seq;		/* HQ_TAKE_ALL */
	uint32_t seq_len;
	uint16_t kind;
	const struct hq_op *op;		/* NULL: the drain's */
};

/* A value put in the round, and what became of it. */
struct hq_value {
	uint64_t value;
	uint32_t put;			/* its put (a call index) */
	uint32_t take;			/* its first take, or HQ_NONE */
	uint32_t takes;			/* how many calls took it */
};

struct hq_ctx {
	const struct hq_round *round;
	struct hq_call *calls;		/* in invocation order */
	size_t nr_calls;
	struct hq_value *vals;		/* sorted by value */
	size_t nr_vals;
	FILE *report;
	uint64_t t0;
	unsigned long violations;
	unsigned long printed;		/* violations printed in full */
};

/* A value (its index in vals) at a time: what the rules sort and sweep. */
struct hq_timed {
	uint64_t at;
	uint32_t value;
};

/* The values taken once (those taken twice or never are reported already),
 * each at its put's invocation, or response when at_respond, sorted by
 * that time into s (room for c->nr_vals); returns how many. */
size_t hq_by_put(const struct hq_ctx *c, struct hq_timed *s, bool at_respond);
/* The first index in [lo, hi) of sorted s whose time is t or later (hi
 * when none). */
size_t hq_timed_first(const struct hq_timed *s, size_t lo, size_t hi, uint64_t t);

/* The value record of value, or NULL when nobody put it. */
struct hq_value *hq_find(const struct hq_ctx *c, uint64_t value);

/* Counts a violation and prints it: "history: <order>: what", then the
 * calls named in calls[0..n) (HQ_NONE entries skipped). */
void hq_violation(struct hq_ctx *c, const char *what, const uint32_t *calls, size_t n);

/* The order rules between two values, FIFO and LIFO (the order inside a
 * take-all is queue.c's): each counts and prints what it finds. */
void hq_fifo_order(struct hq_ctx *c);
void hq_lifo_order(struct hq_ctx *c);

enum hq_search_result { HQ_SEARCH_OK, HQ_SEARCH_VIOLATION, HQ_SEARCH_UNCHECKED };

/* The exact search over every call of c (drain included); on
 * HQ_SEARCH_VIOLATION it prints the calls where the deepest attempt
 * stopped. */
enum hq_search_result hq_search(struct hq_ctx *c);

#endif /* LFHT_HISTORY_QUEUE_INTERNAL_H */
