/* SPDX-License-Identifier: MIT */
/*
 * tests/history/qsearch.c - the exact check of a queue or stack round: is
 * there an order of its calls (the drain's included), each at an instant
 * inside its interval, that the sequential queue or stack accepts with
 * the recorded results?
 *
 * Search: Wing & Gong's depth-first search over the minimal calls, with
 * Lowe's memo of the (calls placed, state) pairs explored, as linearize.c
 * does for the table's keys; see its comment for the references. One
 * difference: a queue's or a stack's state after a group of calls depends
 * on their order (two concurrent puts), so the round is not cut into
 * segments; the whole round is one search, bounded (queue.h). Another:
 * the order in which a step tries its candidates (Wing and Gong: the
 * order of invocation). The order changes no verdict, only the time; here
 * a step first tries the call whose response comes first, and when that is
 * a put, the candidate put whose value the history takes first (FIFO) or
 * last (LIFO), then the rest in invocation order. In invocation order a
 * call with a long interval (its thread preempted) was placed first at
 * every step, and two concurrent puts were ordered by chance, a wrong
 * order showing only when their values left, far deeper: some rounds of a
 * busy stack took millions of steps.
 *
 * The state is the sequence of values, held in place and undone on
 * backtrack:
 *   FIFO: slots[head..tail) oldest first; a put writes slots[tail++], a
 *     take checks slots[head++]; head and tail only count the calls
 *     placed, so undoing one moves an index back.
 *   LIFO: slots[0..top) bottom first; a put overwrites slots[top++] and
 *     keeps the value it overwrote in its frame for the undo.
 * Memo key: the set of calls placed (a bitset, exact) and two 64-bit
 * hashes of the sequence (each a xor over its slots of a mix of value and
 * position, updated per call). Equal sequences give equal hashes; two
 * different sequences with one set placed have both hashes equal with a
 * chance of about 2^-128 per pair, which is the search's only inexactness.
 */
#include "queue-internal.h"
#include "history.h"
#include "memo.h"
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

static uint64_t slot_hash(uint64_t value, uint64_t pos, uint64_t seed)
{
	return hist_mix64(hist_mix64(value ^ seed) + pos * 0x9e3779b97f4a7c15ULL);
}

#define SEED1 0x5851f42d4c957f2dULL
#define SEED2 0x14057b7ef767814fULL

struct qs_state {
	enum hq_order order;
	uint64_t *slots;
	uint32_t head, tail;		/* LIFO: tail is the top */
	uint64_t h1, h2;
};

static void hash_slot(struct qs_state *s, uint32_t pos)
{
	s->h1 ^= slot_hash(s->slots[pos], pos, SEED1);
	s->h2 ^= slot_hash(s->slots[pos], pos, SEED2);
}

/* What a placed call changed, to undo it, and where its level's choices
 * stood. */
struct qs_frame {
	uint32_t call;
	uint32_t first;			/* the level's preferred call */
	bool from_first;		/* call was first, tried before the scan */
	uint32_t head, tail;
	uint64_t overwritten;		/* LIFO put: the slot's old value */
	uint64_t h1, h2;
};

/* Applies call to s when the model gives its recorded result; fills f. */
static bool apply(struct qs_state *s, const struct hq_call *call, struct qs_frame *f)
{
	*f = (struct qs_frame){ .head = s->head, .tail = s->tail, .h1 = s->h1, .h2 = s->h2 };
	switch (call->kind) {
	case HQ_PUT:
		f->overwritten = s->slots[s->tail];
		s->slots[s->tail] = call->value;
		hash_slot(s, s->tail++);
		return true;
	case HQ_TAKE:
		if (call->value == 0)
			return s->head == s->tail;
		if (s->head == s->tail)
			return false;
		if (s->order == HQ_FIFO) {
			if (s->slots[s->head] != call->value)
				return false;
			hash_slot(s, s->head++);
		} else {
			if (s->slots[s->tail - 1] != call->value)
				return false;
			hash_slot(s, --s->tail);
		}
		return true;
	default:
		if (s->tail - s->head != call->seq_len)
			return false;
		for (uint32_t i = 0; i < call->seq_len; i++) {
			uint32_t pos = s->order == HQ_FIFO ? s->head + i : s->tail - 1 - i;

			if (s->slots[pos] != call->seq[i])
				return false;
		}
		if (s->order == HQ_FIFO)
			s->head = s->tail;
		else
			s->tail = s->head;
		s->h1 = s->h2 = 0;
		return true;
	}
}

static void undo(struct qs_state *s, const struct hq_call *call, const struct qs_frame *f)
{
	if (call->kind == HQ_PUT && s->order == HQ_LIFO)
		s->slots[f->tail] = f->overwritten;
	s->head = f->head;
	s->tail = f->tail;
	s->h1 = f->h1;
	s->h2 = f->h2;
}

/* ---- the search -------------------------------------------------------------- */

/*
 * The candidate tried first at a level: the call whose response comes
 * first in the list (every entry before it is an invocation: those calls
 * are the candidates), unless that is a put, in which case the candidate
 * put whose value the history takes first (FIFO) or last (LIFO): the one
 * that belongs at the head or the bottom. take_at[call]: for a put, when
 * its value's take began (UINT64_MAX: never taken), then the value's
 * place in the sequence when a take-all took it (so that the puts of the
 * values of one splice or pop_all are tried in its order, not by chance:
 * a wrong guess would show only at the take-all).
 */
struct take_key {
	uint64_t at;
	uint32_t pos;
};

static bool key_before(struct take_key a, struct take_key b)
{
	return a.at < b.at || (a.at == b.at && a.pos < b.pos);
}

static uint32_t preferred(const struct hist_timeline *t, const struct hq_ctx *c,
			  const struct take_key *take_at)
{
	const struct hist_event *e = t->e;
	uint32_t i = e[t->head].next, best = UINT32_MAX;

	for (; e[i].is_call; i = e[i].next) {
		uint32_t call = e[i].op;

		if (c->calls[call].kind != HQ_PUT)
			continue;
		if (best == UINT32_MAX ||
		    (c->round->order == HQ_FIFO ? key_before(take_at[call], take_at[best]) :
		     key_before(take_at[best], take_at[call])))
			best = call;
	}
	if (c->calls[e[i].op].kind != HQ_PUT || best == UINT32_MAX)
		return e[i].op;
	return best;
}

/* A failed search: the calls around the response that stopped the deepest
 * attempt, from the earliest invocation left unplaced there. */
static void report_failure(struct hq_ctx *c, size_t depth, uint32_t stop_call,
			   uint64_t from)
{
	enum { MAX_PRINTED = 40 };
	uint32_t calls[MAX_PRINTED];
	size_t n = 0;
	char what[200];
	uint64_t to = c->calls[stop_call].respond;

	for (size_t k = 0; k < c->nr_calls && n < MAX_PRINTED; k++)
		if (c->calls[k].respond >= from && c->calls[k].invoke <= to)
			calls[n++] = (uint32_t)k;
	snprintf(what, sizeof(what), "not linearizable: no order of the round's %zu calls fits "
		 "the model (at most %zu placed; the calls where the deepest attempt stopped "
		 "follow)", c->nr_calls, depth);
	hq_violation(c, what, calls, n);
}

enum hq_search_result hq_search(struct hq_ctx *c)
{
	size_t n = c->nr_calls, words = 2 + (n + 63) / 64, sp = 0, depth = 0;
	uint32_t i, stop_call = 0, first;
	bool first_turn;
	struct hist_timeline t;
	struct hist_event *e;
	/* The memo's key: the sequence's two hashes, then the set placed. */
	uint64_t *key, *bits, placed_hash = 0, stop_from = 0;
	struct take_key *take_at;
	struct qs_frame *stack;
	struct qs_state s;
	struct hist_memo memo;
	unsigned long steps = 0;
	enum hq_search_result result = HQ_SEARCH_VIOLATION;

	if (n > HQ_MAX_SEARCH_OPS)
		return HQ_SEARCH_UNCHECKED;
	take_at = hist_calloc(n, sizeof(*take_at));
	for (i = 0; i < n; i++)
		take_at[i] = (struct take_key){ .at = UINT64_MAX };
	for (size_t k = 0; k < c->nr_vals; k++)
		if (c->vals[k].take != HQ_NONE)
			take_at[c->vals[k].put].at = c->calls[c->vals[k].take].invoke;
	for (i = 0; i < n; i++) {
		for (uint32_t q = 0; c->calls[i].kind == HQ_TAKE_ALL && q < c->calls[i].seq_len; q++) {
			const struct hq_value *v = hq_find(c, c->calls[i].seq[q]);

			if (v != NULL)
				take_at[v->put].pos = q;
		}
	}
	key = hist_calloc(words, sizeof(*key));
	bits = key + 2;
	stack = hist_calloc(n, sizeof(*stack));
	s = (struct qs_state){ .order = c->round->order,
			       .slots = hist_calloc(n + 1, sizeof(uint64_t)) };
	hist_timeline_init(&t, n);
	for (i = 0; i < n; i++)
		hist_timeline_set(&t, i, c->calls[i].invoke, c->calls[i].respond);
	hist_timeline_link(&t);
	e = t.e;
	hist_memo_init(&memo, words, HQ_MAX_MEMO_BYTES);

	first = preferred(&t, c, take_at);
	first_turn = true;
	i = e[t.head].next;
	while (e[t.head].next != t.head) {
		uint32_t call;
		bool from_first = first_turn;
		struct qs_frame f;
		int added = 0;

		if (++steps > HQ_MAX_STEPS) {
			result = HQ_SEARCH_UNCHECKED;
			break;
		}
		if (first_turn) {
			call = first;
			first_turn = false;
		} else if (e[i].is_call) {
			call = e[i].op;
			if (call == first) {
				i = e[i].next;
				continue;
			}
		} else {
			/* first's response: first must be placed before
			 * everything left, and no choice so far allowed it.
			 * Backtrack. */
			if (sp >= depth) {
				depth = sp;
				stop_call = e[i].op;
				stop_from = e[e[t.head].next].time;
			}
			if (sp == 0)
				break;
			call = stack[--sp].call;
			undo(&s, &c->calls[call], &stack[sp]);
			bits[call / 64] &= ~(1ULL << (call % 64));
			placed_hash ^= hist_op_hash(call);
			hist_timeline_unplace(&t, call);
			first = stack[sp].first;
			i = stack[sp].from_first ? e[t.head].next : e[t.call_of[call]].next;
			continue;
		}
		if (apply(&s, &c->calls[call], &f)) {
			uint64_t h = placed_hash ^ hist_op_hash(call);

			bits[call / 64] |= 1ULL << (call % 64);
			key[0] = s.h1;
			key[1] = s.h2;
			added = hist_memo_add(&memo, hist_mix64(h ^ s.h1) ^ s.h2, key);
			if (added < 0) {
				result = HQ_SEARCH_UNCHECKED;
				break;
			}
			if (added == 0) {
				bits[call / 64] &= ~(1ULL << (call % 64));
				undo(&s, &c->calls[call], &f);
			}
		}
		if (added > 0) {
			f.call = call;
			f.first = first;
			f.from_first = from_first;
			stack[sp++] = f;
			placed_hash ^= hist_op_hash(call);
			hist_timeline_place(&t, call);
			if (e[t.head].next == t.head)
				break;
			first = preferred(&t, c, take_at);
			first_turn = true;
		} else {
			i = from_first ? e[t.head].next : e[i].next;
		}
	}
	if (e[t.head].next == t.head)
		result = HQ_SEARCH_OK;
	else if (result == HQ_SEARCH_VIOLATION)
		report_failure(c, depth, stop_call, stop_from);
	hist_memo_free(&memo);
	hist_timeline_free(&t);
	free(take_at);
	free(key);
	free(stack);
	free(s.slots);
	return result;
}
