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

#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t slot_hash(uint64_t value, uint64_t pos, uint64_t seed)
{
	return mix64(mix64(value ^ seed) + pos * 0x9e3779b97f4a7c15ULL);
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

/* ---- memo ------------------------------------------------------------------ */

/* Entries of stride words: key hash, h1, h2, then the placed bitset. */
struct qs_memo {
	size_t words, stride;
	uint64_t *entries;
	size_t nr, cap;
	uint32_t *slots;
	size_t nr_slots;	/* a power of two */
};

static void memo_init(struct qs_memo *m, size_t words)
{
	*m = (struct qs_memo){ .words = words, .stride = 3 + words, .cap = 1024,
			       .nr_slots = 2048 };
	m->entries = hist_calloc(m->cap * m->stride, sizeof(uint64_t));
	m->slots = hist_calloc(m->nr_slots, sizeof(uint32_t));
}

static void memo_free(struct qs_memo *m)
{
	free(m->entries);
	free(m->slots);
}

static void memo_grow_slots(struct qs_memo *m)
{
	free(m->slots);
	m->nr_slots *= 2;
	m->slots = hist_calloc(m->nr_slots, sizeof(uint32_t));
	for (size_t i = 0; i < m->nr; i++) {
		size_t j = m->entries[i * m->stride] & (m->nr_slots - 1);

		while (m->slots[j])
			j = (j + 1) & (m->nr_slots - 1);
		m->slots[j] = (uint32_t)(i + 1);
	}
}

/* 1: new, 0: explored before, -1: over HQ_MAX_MEMO_BYTES. */
static int memo_add(struct qs_memo *m, uint64_t placed_hash, const uint64_t *bits,
		    const struct qs_state *s)
{
	uint64_t key = mix64(placed_hash ^ s->h1) ^ s->h2;
	size_t j = key & (m->nr_slots - 1);
	uint64_t *e;

	for (; m->slots[j]; j = (j + 1) & (m->nr_slots - 1)) {
		e = &m->entries[(m->slots[j] - 1) * m->stride];
		if (e[0] == key && e[1] == s->h1 && e[2] == s->h2 &&
		    memcmp(&e[3], bits, m->words * sizeof(uint64_t)) == 0)
			return 0;
	}
	if (m->nr == m->cap) {
		size_t bytes = 2 * m->cap * m->stride * sizeof(uint64_t);

		if (bytes > HQ_MAX_MEMO_BYTES)
			return -1;
		m->entries = realloc(m->entries, bytes);
		if (m->entries == NULL)
			abort();
		m->cap *= 2;
	}
	e = &m->entries[m->nr * m->stride];
	e[0] = key;
	e[1] = s->h1;
	e[2] = s->h2;
	memcpy(&e[3], bits, m->words * sizeof(uint64_t));
	m->slots[j] = (uint32_t)++m->nr;
	if (2 * m->nr > m->nr_slots)
		memo_grow_slots(m);
	return 1;
}

/* ---- the search -------------------------------------------------------------- */

/* The time-ordered list of invocations and responses; index 2n is the head. */
struct qs_entry {
	uint32_t prev, next;
	uint32_t call;
	bool is_invoke;
	uint64_t time;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct qs_entry *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* Equal stamps overlap: the invocation first. */
	if (x->is_invoke != y->is_invoke)
		return x->is_invoke ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

static void unlink_entry(struct qs_entry *e, uint32_t i)
{
	e[e[i].prev].next = e[i].next;
	e[e[i].next].prev = e[i].prev;
}

static void relink_entry(struct qs_entry *e, uint32_t i)
{
	e[e[i].prev].next = i;
	e[e[i].next].prev = i;
}

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

static uint32_t preferred(const struct qs_entry *e, uint32_t head, const struct hq_ctx *c,
			  const struct take_key *take_at)
{
	uint32_t i = e[head].next, best = UINT32_MAX;

	for (; e[i].is_invoke; i = e[i].next) {
		uint32_t call = e[i].call;

		if (c->calls[call].kind != HQ_PUT)
			continue;
		if (best == UINT32_MAX ||
		    (c->round->order == HQ_FIFO ? key_before(take_at[call], take_at[best]) :
		     key_before(take_at[best], take_at[call])))
			best = call;
	}
	if (c->calls[e[i].call].kind != HQ_PUT || best == UINT32_MAX)
		return e[i].call;
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
	size_t n = c->nr_calls, words = (n + 63) / 64, sp = 0, depth = 0;
	uint32_t head = (uint32_t)(2 * n), i, stop_call = 0, first;
	bool first_turn;
	struct qs_entry *e;
	uint32_t *invoke_of, *respond_of;
	uint64_t *z, *bits, placed_hash = 0, stop_from = 0;
	struct take_key *take_at;
	struct qs_frame *stack;
	struct qs_state s;
	struct qs_memo memo;
	unsigned long steps = 0;
	enum hq_search_result result = HQ_SEARCH_VIOLATION;

	if (n > HQ_MAX_SEARCH_OPS)
		return HQ_SEARCH_UNCHECKED;
	e = hist_calloc(2 * n + 1, sizeof(*e));
	invoke_of = hist_calloc(n, sizeof(*invoke_of));
	respond_of = hist_calloc(n, sizeof(*respond_of));
	z = hist_calloc(n, sizeof(*z));
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
	bits = hist_calloc(words, sizeof(*bits));
	stack = hist_calloc(n, sizeof(*stack));
	s = (struct qs_state){ .order = c->round->order,
			       .slots = hist_calloc(n + 1, sizeof(uint64_t)) };
	for (i = 0; i < n; i++) {
		e[2 * i] = (struct qs_entry){ .call = i, .is_invoke = true,
					      .time = c->calls[i].invoke };
		e[2 * i + 1] = (struct qs_entry){ .call = i, .time = c->calls[i].respond };
		z[i] = mix64(0x9e3779b97f4a7c15ULL * (i + 1));
	}
	qsort(e, 2 * n, sizeof(*e), entry_cmp);
	for (i = 0; i <= head; i++) {
		e[i].prev = i ? i - 1 : head;
		e[i].next = i < head ? i + 1 : 0;
		if (i < head)
			*(e[i].is_invoke ? &invoke_of[e[i].call] : &respond_of[e[i].call]) = i;
	}
	memo_init(&memo, words);

	first = preferred(e, head, c, take_at);
	first_turn = true;
	i = e[head].next;
	while (e[head].next != head) {
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
		} else if (e[i].is_invoke) {
			call = e[i].call;
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
				stop_call = e[i].call;
				stop_from = e[e[head].next].time;
			}
			if (sp == 0)
				break;
			call = stack[--sp].call;
			undo(&s, &c->calls[call], &stack[sp]);
			bits[call / 64] &= ~(1ULL << (call % 64));
			placed_hash ^= z[call];
			relink_entry(e, respond_of[call]);
			relink_entry(e, invoke_of[call]);
			first = stack[sp].first;
			i = stack[sp].from_first ? e[head].next : e[invoke_of[call]].next;
			continue;
		}
		if (apply(&s, &c->calls[call], &f)) {
			bits[call / 64] |= 1ULL << (call % 64);
			added = memo_add(&memo, placed_hash ^ z[call], bits, &s);
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
			placed_hash ^= z[call];
			unlink_entry(e, invoke_of[call]);
			unlink_entry(e, respond_of[call]);
			if (e[head].next == head)
				break;
			first = preferred(e, head, c, take_at);
			first_turn = true;
		} else {
			i = from_first ? e[head].next : e[i].next;
		}
	}
	if (e[head].next == head)
		result = HQ_SEARCH_OK;
	else if (result == HQ_SEARCH_VIOLATION)
		report_failure(c, depth, stop_call, stop_from);
	memo_free(&memo);
	free(e);
	free(invoke_of);
	free(respond_of);
	free(z);
	free(take_at);
	free(bits);
	free(stack);
	free(s.slots);
	return result;
}
