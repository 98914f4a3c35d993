/* SPDX-License-Identifier: MIT */
/*
 * tests/history/queue.h - concurrent histories of queues and stacks (the
 * rcuds structures: wfcqueue, rculfqueue, wfstack, lfstack) and the checker
 * that judges a round of one against a FIFO or a LIFO model
 * (docs/verification.md, "Queues and stacks").
 *
 * A history holds three kinds of calls: a put (enqueue, push) of a value, a
 * take (dequeue, pop) that returns a value or nothing (empty), and a take of
 * everything (splice, pop_all) that returns a sequence. Values are unique in
 * a round and never 0. A round starts with the structure empty and ends with
 * the test thread draining it alone; what the drain took, in its order, is
 * the round's final content.
 *
 * Time: the table's clock (history.h): an operation precedes another when it
 * responded strictly before the other was invoked.
 *
 * The checker (queue.c) first applies rules, each of which a linearizable
 * history never breaks (so a rule broken is a violation, never a false
 * alarm), on any number of calls in O(n log n) or close:
 *   - fresh: a take returns a value nobody put, or before its put began;
 *   - twice: a value is taken twice (two takes, or a take and the drain);
 *   - lost: a value put and never taken, nor left for the drain;
 *   - order: FIFO (fifo.c): put(a) precedes put(b) but take(b) precedes
 *     take(a); LIFO (lifo.c): put(a) precedes put(b), b was put before a
 *     was taken, and a was taken before b (b stood above a all along);
 *     and the order inside a take-all's sequence;
 *   - empty: a take returns empty, or a take-all leaves a value, though
 *     that value was in the structure during its whole call (put before it
 *     began, taken after it ended).
 * Then, when the rules pass, an exact search (qsearch.c): Wing and Gong's
 * search with Lowe's memo, as for the table (linearize.c), over the whole
 * round against the sequential queue or stack. It settles what the rules
 * cannot see (linearizable or not); a round over its bounds is left
 * unchecked by the search, counted, and still judged by the rules.
 */
#ifndef LFHT_HISTORY_QUEUE_H
#define LFHT_HISTORY_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum hq_order { HQ_FIFO, HQ_LIFO };

enum hq_kind {
	HQ_PUT,		/* enqueue / push of value */
	HQ_TAKE,	/* dequeue / pop: value, or 0 for empty */
	HQ_TAKE_ALL,	/* splice / pop_all: seq_vals[seq_start..+seq_len),
			 * in the order a sequential drain of them gives
			 * (FIFO: oldest first; LIFO: top first) */
	HQ_NR_KINDS
};

struct hq_op {
	uint64_t invoke, respond;	/* ns */
	uint64_t value;
	uint32_t seq_start, seq_len;
	uint16_t kind;
	uint16_t thread;
};

struct hq_round {
	enum hq_order order;
	const struct hq_op *ops;
	size_t nr_ops;
	const uint64_t *seq_vals;	/* the sequences of HQ_TAKE_ALL */
	/* What the drain took after the round, in its order. */
	const uint64_t *after;
	size_t nr_after;
	/* No drain: the round was cut short (a call never returned; only
	 * the calls that did are given). Values not taken are then not
	 * lost, and the search accepts any content at the end. */
	bool open_end;
};

/* The exact search's bounds: a round of more calls (drain included), a
 * search past HQ_MAX_STEPS steps or HQ_MAX_MEMO_BYTES of memo is left to the
 * rules alone, counted in unsearched_rounds. */
#define HQ_MAX_SEARCH_OPS 16384
#define HQ_MAX_STEPS 2000000UL
#define HQ_MAX_MEMO_BYTES (64UL << 20)

struct hq_verdict {
	unsigned long rounds;
	unsigned long ops;		/* calls judged by the rules */
	unsigned long values;		/* values put */
	unsigned long empties;		/* takes that returned empty */
	unsigned long searched_rounds;	/* rounds the exact search settled */
	unsigned long searched_ops;
	unsigned long unsearched_rounds;	/* over a bound of the search */
	unsigned long violations;	/* rules broken, or no linearization */
};

/* Judges round, adds its counts to *v, prints each violation to report
 * (a line "history: <order>: <what>", then the calls involved); returns
 * whether the round is clean. */
bool hq_check_round(const struct hq_round *round, struct hq_verdict *v, FILE *report);

/* Prints "v<thread>.<sequence>" for a value made as (thread << 40) | seq,
 * "empty" for 0. */
void hq_print_value(FILE *out, uint64_t value);
/* Prints op on one line, times relative to t0. */
void hq_print_op(FILE *out, const struct hq_op *op, uint64_t t0, const uint64_t *seq_vals);

#endif /* LFHT_HISTORY_QUEUE_H */
