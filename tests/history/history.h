/* SPDX-License-Identifier: MIT */
/*
 * tests/history/history.h - concurrent histories of table operations: what
 * a test thread records of each call (record.c), the rounds that bound a
 * history in memory, and the checker that judges a round's history
 * (linearize.c: each key against the sequential model; walks.c: the
 * iteration rule). docs/verification.md says what is covered. The queues
 * and stacks have their own checker: queue.h.
 *
 * Time: CLOCK_MONOTONIC in nanoseconds, read between two full fences
 * (record.c, hist_clock(), says why this orders events across CPUs). An
 * operation A precedes B only when A responded strictly before B was
 * invoked; equal stamps count as overlapping, which can only make the
 * checker more lenient, never report a correct run.
 */
#ifndef LFHT_HISTORY_H
#define LFHT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum hist_kind {
	HIST_ADD,		/* cds_lfht_add(node) */
	HIST_ADD_UNIQUE,	/* result: node, or the node already there */
	HIST_ADD_REPLACE,	/* result: the node replaced, or 0 */
	HIST_REPLACE,		/* old by node; result HIST_OK or HIST_ENOENT */
	HIST_DEL,		/* node; result HIST_OK or HIST_ENOENT */
	HIST_DEL_KEY,		/* lfht_del_key(); result: the node removed, or 0 */
	HIST_LOOKUP,		/* result: a node of key, or 0 */
	HIST_DUPLICATES,	/* lookup + next_duplicate walk: nodes of key */
	HIST_ITERATION,		/* cds_lfht_for_each: every node */
	HIST_NR_KINDS
};

/* del and replace results; node ids are never 0 or 1. */
#define HIST_OK 0
#define HIST_ENOENT 1

/* Node ids: unique in a process, never reused (struct test_node.id). */
struct hist_op {
	uint64_t invoke, respond;	/* ns */
	uint64_t key;			/* unused by HIST_ITERATION */
	uint64_t node;			/* added, deleted, or replace's new node */
	uint64_t old;			/* replace's old node */
	uint64_t result;
	uint32_t walk_start;		/* walks: their ids in hist_round.walk_ids */
	uint32_t walk_len;
	uint16_t kind;
	uint16_t thread;
	uint32_t truncated;		/* a walk longer than the room left to log it */
};

/* A node present at a quiescent point: (key, id). */
struct hist_node {
	uint64_t key, id;
};

/* One round: the operations of every thread between two quiescent points,
 * and the table's content at both points. */
struct hist_round {
	const struct hist_op *ops;
	size_t nr_ops;
	const uint64_t *walk_ids;
	const struct hist_node *before;	/* sorted by key, then id */
	size_t nr_before;
	const struct hist_node *after;	/* sorted by key, then id */
	size_t nr_after;
};

/*
 * The checker's bounds. A key's sub-history is cut at each instant when
 * none of its operations is in flight (the model's state there is the same
 * for every linearization, see linearize.c); a piece longer than
 * HIST_MAX_SEGMENT_OPS, a state with more than HIST_MAX_STATE nodes of one
 * key, or a search past HIST_MAX_STEPS leaves the key unchecked, counted,
 * never passed.
 */
#define HIST_MAX_SEGMENT_OPS 4096
#define HIST_MAX_STATE 16
#define HIST_MAX_STEPS 20000000UL

struct hist_verdict {
	unsigned long ops;		/* point operations checked (not walks) */
	unsigned long keys;		/* keys checked */
	unsigned long segments;		/* pieces the keys were cut into */
	unsigned long walks;		/* walks checked against the iteration rule */
	unsigned long walk_nodes;	/* nodes those walks returned */
	unsigned long unchecked_keys;	/* over a bound: not judged */
	unsigned long unchecked_ops;
	unsigned long unchecked_walks;	/* truncated walks */
	unsigned long violations;	/* keys or walks that broke a rule */
};

/* Judges round; adds its counts to *v. Prints each violation to report:
 * the rule, then the offending key's operations in invocation order.
 * Returns whether the round is clean (no violation; unchecked parts are
 * counted in *v, not failed). */
bool hist_check_round(const struct hist_round *round, struct hist_verdict *v, FILE *report);

/* The iteration rule (walks.c), called by hist_check_round(). */
bool hist_check_walks(const struct hist_round *round, struct hist_verdict *v, FILE *report);

/* Prints op (times relative to t0) on one line, and a node id as
 * n<thread>.<sequence>; walks.c and linearize.c. */
void hist_print_op(FILE *out, const struct hist_op *op, uint64_t t0,
		   const uint64_t *walk_ids);
void hist_print_node(FILE *out, uint64_t id);

/* calloc that aborts with a message when memory runs out (the checker and
 * the recorder run in test threads, which cannot fail a Check test). */
void *hist_calloc(size_t n, size_t size);

#endif /* LFHT_HISTORY_H */
