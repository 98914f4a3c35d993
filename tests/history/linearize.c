/* SPDX-License-Identifier: MIT */
/*
 * tests/history/linearize.c - whether a round's history is linearizable,
 * one key at a time.
 *
 * The table is a map of independent keys, and linearizability is local
 * (Herlihy & Wing, "Linearizability: a correctness condition for concurrent
 * objects", TOPLAS 1990, theorem 1): a history is linearizable exactly when
 * each key's sub-history is. Walks (duplicates, iteration) are not atomic
 * in the API and are judged by the iteration rule instead (walks.c).
 *
 * The sequential model of one key is the set of its nodes in the table:
 *   add(n)            adds n (duplicates allowed);
 *   add_unique(n)     adds n and returns it when the set is empty, else
 *                     returns a member and changes nothing (first wins);
 *   add_replace(n)    returns NULL and adds n when empty, else removes a
 *                     member m, adds n, returns m;
 *   replace(m, n)     0 when m is a member (m out, n in), else -ENOENT;
 *   del(m)            0 when m is a member (m out), else -ENOENT;
 *   del_key           removes a member and returns it, or NULL only when
 *                     the set is empty;
 *   lookup            a member, or NULL only when the set is empty.
 * Each recorded result fixes what its operation did to the set, so the set
 * after any group of operations that all took effect is the same in every
 * order. Hence a key's state is known at each instant when none of its
 * operations is in flight, and the sub-history is cut there into segments
 * that are checked one after the other; the last state must be the
 * table's content at the end of the round.
 *
 * Search: Wing & Gong's depth-first search over the minimal operations
 * (J. M. Wing and C. Gong, "Testing and verifying concurrent objects",
 * JPDC 17, 1993), with the memoization of G. Lowe ("Testing for
 * linearizability", Concurrency and Computation 29, 2017): a pair (set of
 * operations linearized, model state) already explored is not explored
 * again. The history is a list of call and return entries in time order;
 * an operation may be linearized next while its call precedes the first
 * return left in the list. Bounds in history.h.
 */
#include "history.h"
#include "memo.h"
#include "timeline.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void *hist_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (p == NULL) {
		fprintf(stderr, "history: out of memory\n");
		abort();
	}
	return p;
}

/* ---- the model: a key's set of nodes --------------------------------------- */

/* The slots past n are 0: the memo compares a state word by word. */
struct lin_state {
	uint64_t n;
	uint64_t ids[HIST_MAX_STATE];	/* ascending */
};

enum lin_result { LIN_NO, LIN_YES, LIN_OVERFLOW };

static int state_find(const struct lin_state *s, uint64_t id)
{
	for (uint64_t i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return (int)i;
	return -1;
}

static bool state_remove(struct lin_state *s, uint64_t id)
{
	int i = state_find(s, id);

	if (i < 0)
		return false;
	memmove(&s->ids[i], &s->ids[i + 1], (s->n - (uint64_t)i - 1) * sizeof(s->ids[0]));
	s->ids[--s->n] = 0;
	return true;
}

/* Adds id; LIN_NO if present already (a node is added once). */
static enum lin_result state_insert(struct lin_state *s, uint64_t id)
{
	uint64_t i = 0;

	if (state_find(s, id) >= 0)
		return LIN_NO;
	if (s->n == HIST_MAX_STATE)
		return LIN_OVERFLOW;
	while (i < s->n && s->ids[i] < id)
		i++;
	memmove(&s->ids[i + 1], &s->ids[i], (s->n - i) * sizeof(s->ids[0]));
	s->ids[i] = id;
	s->n++;
	return LIN_YES;
}

/* Applies op to *s: LIN_YES (and *s updated) when the model gives op's
 * recorded result from *s. */
static enum lin_result model_apply(struct lin_state *s, const struct hist_op *op)
{
	bool empty = s->n == 0;

	switch (op->kind) {
	case HIST_ADD:
		return state_insert(s, op->node);
	case HIST_ADD_UNIQUE:
		if (op->result == op->node)
			return empty ? state_insert(s, op->node) : LIN_NO;
		return state_find(s, op->result) >= 0 ? LIN_YES : LIN_NO;
	case HIST_ADD_REPLACE:
		if (op->result == 0)
			return empty ? state_insert(s, op->node) : LIN_NO;
		return state_remove(s, op->result) ? state_insert(s, op->node) : LIN_NO;
	case HIST_REPLACE:
		if (op->result == HIST_ENOENT)
			return state_find(s, op->old) < 0 ? LIN_YES : LIN_NO;
		return state_remove(s, op->old) ? state_insert(s, op->node) : LIN_NO;
	case HIST_DEL:
		if (op->result == HIST_ENOENT)
			return state_find(s, op->node) < 0 ? LIN_YES : LIN_NO;
		return state_remove(s, op->node) ? LIN_YES : LIN_NO;
	case HIST_DEL_KEY:
		if (op->result == 0)
			return empty ? LIN_YES : LIN_NO;
		return state_remove(s, op->result) ? LIN_YES : LIN_NO;
	case HIST_LOOKUP:
		if (op->result == 0)
			return empty ? LIN_YES : LIN_NO;
		return state_find(s, op->result) >= 0 ? LIN_YES : LIN_NO;
	default:
		return LIN_NO;
	}
}

/* ---- the search over one segment ------------------------------------------ */

static uint64_t state_hash(const struct lin_state *s)
{
	uint64_t h = s->n;

	for (uint64_t i = 0; i < s->n; i++)
		h = hist_mix64(h ^ s->ids[i]);
	return h;
}

/* At most this many bytes of memo per segment; past it the key is left
 * unchecked. */
#define MEMO_MAX_BYTES (256UL << 20)

enum seg_verdict { SEG_OK, SEG_VIOLATION, SEG_UNCHECKED };

struct lin_frame {
	uint32_t op;
	struct lin_state state;
};

/*
 * Whether ops[0..n) (sorted by invocation), starting from *state, has a
 * linearization; on SEG_OK *state is the state after it. *depth: the most
 * operations linearized at once, for the report.
 */
static enum seg_verdict check_segment(const struct hist_op *const *ops, size_t n,
				      struct lin_state *state, size_t *depth)
{
	enum { STATE_WORDS = sizeof(struct lin_state) / sizeof(uint64_t) };
	struct lin_frame *stack = hist_calloc(n, sizeof(*stack));
	/* The memo's key: the state after a step, then the set linearized. */
	size_t words = STATE_WORDS + (n + 63) / 64;
	uint64_t *key = hist_calloc(words, sizeof(*key)), *bits = key + STATE_WORDS;
	struct lin_state cur = *state, next;
	enum seg_verdict verdict = SEG_VIOLATION;
	uint64_t h_lin = 0;
	unsigned long steps = 0;
	size_t sp = 0;
	struct hist_timeline t;
	struct hist_event *e;
	struct hist_memo memo;
	uint32_t i;

	hist_timeline_init(&t, n);
	for (i = 0; i < n; i++)
		hist_timeline_set(&t, i, ops[i]->invoke, ops[i]->respond);
	hist_timeline_link(&t);
	e = t.e;
	hist_memo_init(&memo, words, MEMO_MAX_BYTES);
	*depth = 0;

	i = e[t.head].next;
	while (e[t.head].next != t.head) {
		uint32_t op = e[i].op;

		if (++steps > HIST_MAX_STEPS) {
			verdict = SEG_UNCHECKED;
			break;
		}
		if (e[i].is_call) {
			enum lin_result r;
			int added = 0;

			next = cur;
			r = model_apply(&next, ops[op]);
			if (r == LIN_OVERFLOW) {
				verdict = SEG_UNCHECKED;
				break;
			}
			if (r == LIN_YES) {
				bits[op / 64] |= 1ULL << (op % 64);
				memcpy(key, &next, sizeof(next));
				added = hist_memo_add(&memo, h_lin ^ hist_op_hash(op) ^ state_hash(&next),
						      key);
				if (added < 0) {
					verdict = SEG_UNCHECKED;
					break;
				}
				if (added == 0)
					bits[op / 64] &= ~(1ULL << (op % 64));
			}
			if (added > 0) {
				stack[sp++] = (struct lin_frame){ .op = op, .state = cur };
				if (sp > *depth)
					*depth = sp;
				cur = next;
				h_lin ^= hist_op_hash(op);
				hist_timeline_place(&t, op);
				i = e[t.head].next;
			} else {
				i = e[i].next;
			}
			continue;
		}
		/* A return: its operation must come before everything left,
		 * and none of the choices so far allowed that. Backtrack. */
		if (sp == 0)
			break;
		sp--;
		op = stack[sp].op;
		cur = stack[sp].state;
		bits[op / 64] &= ~(1ULL << (op % 64));
		h_lin ^= hist_op_hash(op);
		hist_timeline_unplace(&t, op);
		i = e[t.call_of[op]].next;
	}
	if (e[t.head].next == t.head) {
		verdict = SEG_OK;
		*state = cur;
	}
	hist_memo_free(&memo);
	hist_timeline_free(&t);
	free(stack);
	free(key);
	return verdict;
}

/* ---- reporting --------------------------------------------------------------- */

static const char *const kind_names[HIST_NR_KINDS] = {
	[HIST_ADD] = "add",
	[HIST_ADD_UNIQUE] = "add_unique",
	[HIST_ADD_REPLACE] = "add_replace",
	[HIST_REPLACE] = "replace",
	[HIST_DEL] = "del",
	[HIST_DEL_KEY] = "del_key",
	[HIST_LOOKUP] = "lookup",
	[HIST_DUPLICATES] = "duplicates",
	[HIST_ITERATION] = "iteration",
};

/* Node ids are (thread << 40) | sequence (tests/lfht_test.c); 0 is NULL. */
void hist_print_node(FILE *out, uint64_t id)
{
	if (id == 0)
		fprintf(out, "NULL");
	else
		fprintf(out, "n%" PRIu64 ".%" PRIu64, id >> 40, (uint64_t)(id & ((1ULL << 40) - 1)));
}

void hist_print_op(FILE *out, const struct hist_op *op, uint64_t t0,
		   const uint64_t *walk_ids)
{
	fprintf(out, "    [%10.3f .. %10.3f us] thread %u: %s", (double)(op->invoke - t0) / 1e3,
		(double)(op->respond - t0) / 1e3, op->thread,
		op->kind < HIST_NR_KINDS ? kind_names[op->kind] : "?");
	switch (op->kind) {
	case HIST_ADD:
	case HIST_ADD_UNIQUE:
	case HIST_ADD_REPLACE:
		fprintf(out, "(");
		hist_print_node(out, op->node);
		fprintf(out, ") -> ");
		if (op->kind != HIST_ADD)
			hist_print_node(out, op->result);
		else
			fprintf(out, "void");
		break;
	case HIST_REPLACE:
	case HIST_DEL:
		fprintf(out, "(");
		if (op->kind == HIST_REPLACE) {
			hist_print_node(out, op->old);
			fprintf(out, " by ");
		}
		hist_print_node(out, op->node);
		fprintf(out, ") -> %s", op->result == HIST_OK ? "0" : "-ENOENT");
		break;
	case HIST_DEL_KEY:
	case HIST_LOOKUP:
		fprintf(out, " -> ");
		hist_print_node(out, op->result);
		break;
	default:
		fprintf(out, " -> {");
		for (uint32_t k = 0; k < op->walk_len && k < 64; k++) {
			fprintf(out, k ? " " : "");
			hist_print_node(out, walk_ids[op->walk_start + k]);
		}
		fprintf(out, "%s}%s", op->walk_len > 64 ? " ..." : "",
			op->truncated ? " (truncated)" : "");
		break;
	}
	if (op->kind != HIST_ITERATION)
		fprintf(out, "  key %" PRIu64, op->key);
	fprintf(out, "\n");
}

static void print_state(FILE *out, const char *what, const struct lin_state *s)
{
	fprintf(out, "    %s: {", what);
	for (uint64_t i = 0; i < s->n; i++) {
		fprintf(out, i ? " " : "");
		hist_print_node(out, s->ids[i]);
	}
	fprintf(out, "}\n");
}

/* At most this many operations of an offending key are printed. */
#define REPORT_MAX_OPS 200

static void report_key(FILE *out, const char *rule, uint64_t key,
		       const struct hist_op *const *ops, size_t n, size_t from,
		       const struct lin_state *start, uint64_t t0, const uint64_t *walk_ids)
{
	size_t first = from, last = n;

	if (out == NULL)
		return;
	fprintf(out, "history: key %" PRIu64 ": %s\n", key, rule);
	print_state(out, "state before", start);
	if (last - first > REPORT_MAX_OPS)
		last = first + REPORT_MAX_OPS;
	fprintf(out, "  its operations in invocation order (%zu of %zu):\n", last - first,
		n - from);
	for (size_t k = first; k < last; k++)
		hist_print_op(out, ops[k], t0, walk_ids);
}

/* ---- per key ------------------------------------------------------------------ */

static int op_cmp(const void *a, const void *b)
{
	const struct hist_op *x = *(const struct hist_op *const *)a;
	const struct hist_op *y = *(const struct hist_op *const *)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->invoke != y->invoke)
		return x->invoke < y->invoke ? -1 : 1;
	if (x->respond != y->respond)
		return x->respond < y->respond ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The nodes of key at nodes[*pos..) into *s (advancing *pos); false when
 * they are more than the model holds. */
static bool take_nodes(const struct hist_node *nodes, size_t nr, size_t *pos, uint64_t key,
		       struct lin_state *s)
{
	bool fits = true;

	*s = (struct lin_state){ .n = 0 };
	for (; *pos < nr && nodes[*pos].key == key; (*pos)++) {
		if (s->n < HIST_MAX_STATE)
			s->ids[s->n++] = nodes[*pos].id;
		else
			fits = false;
	}
	return fits;
}

/* Checks one key's operations ops[0..n) (sorted by invocation) from
 * before; compares the result with after. */
static bool check_key(uint64_t key, const struct hist_op *const *ops, size_t n,
		      struct lin_state *before, const struct lin_state *after, bool fits,
		      struct hist_verdict *v, FILE *report, uint64_t t0, const uint64_t *walk_ids)
{
	struct lin_state state = *before, start;
	size_t seg = 0;

	if (!fits) {
		v->unchecked_keys++;
		v->unchecked_ops += n;
		return true;
	}
	v->keys++;
	while (seg < n) {
		uint64_t reach = ops[seg]->respond;
		size_t end = seg + 1, depth;
		enum seg_verdict sv;

		/* The segment ends where an operation starts after every
		 * earlier one responded. */
		while (end < n && ops[end]->invoke <= reach) {
			if (ops[end]->respond > reach)
				reach = ops[end]->respond;
			end++;
		}
		if (end - seg > HIST_MAX_SEGMENT_OPS) {
			v->unchecked_keys++;
			v->unchecked_ops += n - seg;
			return true;
		}
		start = state;
		sv = check_segment(ops + seg, end - seg, &state, &depth);
		if (sv == SEG_UNCHECKED) {
			v->unchecked_keys++;
			v->unchecked_ops += n - seg;
			return true;
		}
		if (sv == SEG_VIOLATION) {
			char rule[160];

			snprintf(rule, sizeof(rule),
				 "not linearizable: no order of operations %zu..%zu fits the "
				 "model (at most %zu of them could be ordered)", seg, end - 1, depth);
			report_key(report, rule, key, ops, end, seg, &start, t0, walk_ids);
			v->violations++;
			return false;
		}
		v->segments++;
		v->ops += end - seg;
		seg = end;
	}
	if (state.n != after->n ||
	    memcmp(state.ids, after->ids, state.n * sizeof(state.ids[0])) != 0) {
		report_key(report, "the table's content at the end of the round is not what "
			   "its operations leave", key, ops, n, 0, before, t0, walk_ids);
		if (report) {
			print_state(report, "operations leave", &state);
			print_state(report, "table holds", after);
		}
		v->violations++;
		return false;
	}
	return true;
}

bool hist_check_round(const struct hist_round *round, struct hist_verdict *v, FILE *report)
{
	const struct hist_op **ops = hist_calloc(round->nr_ops, sizeof(*ops));
	size_t n = 0, i = 0, b = 0, a = 0;
	uint64_t t0 = UINT64_MAX;
	bool clean = true;

	for (size_t k = 0; k < round->nr_ops; k++) {
		if (round->ops[k].invoke < t0)
			t0 = round->ops[k].invoke;
		if (round->ops[k].kind < HIST_DUPLICATES)
			ops[n++] = &round->ops[k];
	}
	qsort(ops, n, sizeof(*ops), op_cmp);
	/* Every key that has operations or nodes at either end. */
	while (i < n || b < round->nr_before || a < round->nr_after) {
		uint64_t key = UINT64_MAX;
		struct lin_state before, after;
		bool fits;
		size_t j;

		if (i < n)
			key = ops[i]->key;
		if (b < round->nr_before && round->before[b].key < key)
			key = round->before[b].key;
		if (a < round->nr_after && round->after[a].key < key)
			key = round->after[a].key;
		fits = take_nodes(round->before, round->nr_before, &b, key, &before);
		fits &= take_nodes(round->after, round->nr_after, &a, key, &after);
		for (j = i; j < n && ops[j]->key == key; j++)
			;
		clean &= check_key(key, ops + i, j - i, &before, &after, fits, v, report, t0,
				   round->walk_ids);
		i = j;
	}
	free(ops);
	clean &= hist_check_walks(round, v, report);
	return clean;
}
