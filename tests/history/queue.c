/* SPDX-License-Identifier: MIT */
/*
 * tests/history/queue.c - a round of queue or stack calls judged: the calls
 * gathered with the drain's, the values indexed, the rules every order
 * shares (fresh, twice, lost, empty, the order inside a take-all), the
 * order rules of fifo.c or lifo.c, then the exact search of qsearch.c
 * when no rule is broken.
 *
 * Why each rule is sound (a linearizable history never breaks it): a
 * linearization puts each call at one instant inside its interval, so when
 * call A precedes call B in real time, A's instant is before B's.
 *   - fresh, twice, lost: the sequential model hands out each value put
 *     exactly once, after its put, and the drain empties the structure;
 *   - empty: v put before the take began and taken after it ended is in
 *     the structure at every instant of the take, so the take cannot
 *     return empty, nor a take-all leave v out.
 */
#include "queue-internal.h"
#include "history.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* At most this many violations of a round are printed in full. */
#define HQ_REPORT_MAX 8

static const char *const kind_names[2][HQ_NR_KINDS] = {
	[HQ_FIFO] = { [HQ_PUT] = "enqueue", [HQ_TAKE] = "dequeue", [HQ_TAKE_ALL] = "splice" },
	[HQ_LIFO] = { [HQ_PUT] = "push", [HQ_TAKE] = "pop", [HQ_TAKE_ALL] = "pop_all" },
};

void hq_print_value(FILE *out, uint64_t value)
{
	if (value == 0)
		fprintf(out, "empty");
	else
		fprintf(out, "v%" PRIu64 ".%" PRIu64, value >> 40,
			(uint64_t)(value & ((1ULL << 40) - 1)));
}

static void print_seq(FILE *out, const uint64_t *seq, uint32_t n)
{
	fprintf(out, "[");
	for (uint32_t k = 0; k < n && k < 32; k++) {
		fprintf(out, k ? " " : "");
		hq_print_value(out, seq[k]);
	}
	fprintf(out, "%s]", n > 32 ? " ..." : "");
}

static void print_call(FILE *out, enum hq_order order, const struct hq_call *call,
		       uint64_t t0)
{
	const char *name = call->kind < HQ_NR_KINDS ? kind_names[order][call->kind] : "?";

	if (call->op == NULL) {
		fprintf(out, "    [after the round]            drain: %s", name);
	} else {
		fprintf(out, "    [%10.3f .. %10.3f us] thread %u: %s",
			(double)(call->invoke - t0) / 1e3, (double)(call->respond - t0) / 1e3,
			call->op->thread, name);
	}
	switch (call->kind) {
	case HQ_PUT:
		fprintf(out, "(");
		hq_print_value(out, call->value);
		fprintf(out, ")\n");
		break;
	case HQ_TAKE:
		fprintf(out, " -> ");
		hq_print_value(out, call->value);
		fprintf(out, "\n");
		break;
	default:
		fprintf(out, " -> ");
		print_seq(out, call->seq, call->seq_len);
		fprintf(out, "\n");
		break;
	}
}

void hq_print_op(FILE *out, const struct hq_op *op, uint64_t t0, const uint64_t *seq_vals)
{
	/* The FIFO names; a LIFO report prints through hq_violation(). */
	struct hq_call call = { .invoke = op->invoke, .respond = op->respond, .value = op->value,
				.seq = seq_vals ? seq_vals + op->seq_start : NULL,
				.seq_len = op->seq_len, .kind = op->kind, .op = op };

	print_call(out, HQ_FIFO, &call, t0);
}

static const char *order_name(enum hq_order order)
{
	return order == HQ_FIFO ? "FIFO" : "LIFO";
}

void hq_violation(struct hq_ctx *c, const char *what, const uint32_t *calls, size_t n)
{
	c->violations++;
	if (c->report == NULL)
		return;
	if (c->printed++ >= HQ_REPORT_MAX) {
		fprintf(c->report, "history: %s: %s (calls not printed: over %d reports)\n",
			order_name(c->round->order), what, HQ_REPORT_MAX);
		return;
	}
	fprintf(c->report, "history: %s: %s\n", order_name(c->round->order), what);
	for (size_t k = 0; k < n; k++)
		if (calls[k] != HQ_NONE)
			print_call(c->report, c->round->order, &c->calls[calls[k]], c->t0);
}

/* ---- the calls and the values ------------------------------------------------ */

static int call_cmp(const void *a, const void *b)
{
	const struct hq_call *x = a, *y = b;

	if (x->invoke != y->invoke)
		return x->invoke < y->invoke ? -1 : 1;
	if (x->respond != y->respond)
		return x->respond < y->respond ? -1 : 1;
	/* The drain's calls have distinct stamps; real calls keep their
	 * recorded order. */
	return x->op < y->op ? -1 : x->op > y->op;
}

static int value_cmp(const void *a, const void *b)
{
	const struct hq_value *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

struct hq_value *hq_find(const struct hq_ctx *c, uint64_t value)
{
	struct hq_value key = { .value = value };

	return bsearch(&key, c->vals, c->nr_vals, sizeof(key), value_cmp);
}

/* The round's calls, then the drain's: one take per value it found, and a
 * last take that found the structure empty, each after the one before and
 * after every call of the round. */
static void gather_calls(struct hq_ctx *c)
{
	const struct hq_round *r = c->round;
	uint64_t end = 0;
	size_t n = 0;

	c->calls = hist_calloc(r->nr_ops + r->nr_after + 1, sizeof(*c->calls));
	c->t0 = UINT64_MAX;
	for (size_t k = 0; k < r->nr_ops; k++) {
		const struct hq_op *op = &r->ops[k];

		c->calls[n++] = (struct hq_call){
			.invoke = op->invoke, .respond = op->respond, .value = op->value,
			.seq = op->kind == HQ_TAKE_ALL ? r->seq_vals + op->seq_start : NULL,
			.seq_len = op->kind == HQ_TAKE_ALL ? op->seq_len : 0,
			.kind = op->kind, .op = op };
		if (op->respond > end)
			end = op->respond;
		if (op->invoke < c->t0)
			c->t0 = op->invoke;
	}
	for (size_t k = 0; !r->open_end && k <= r->nr_after; k++) {
		uint64_t at = end + 1 + k;

		c->calls[n++] = (struct hq_call){ .invoke = at, .respond = at, .kind = HQ_TAKE,
						  .value = k < r->nr_after ? r->after[k] : 0 };
	}
	c->nr_calls = n;
	qsort(c->calls, n, sizeof(*c->calls), call_cmp);
	if (c->t0 == UINT64_MAX)
		c->t0 = 0;
}

/* Every value put, with its put; a value put twice breaks the test's own
 * rule (values are unique in a round) and is reported. */
static void index_values(struct hq_ctx *c)
{
	size_t n = 0;

	c->vals = hist_calloc(c->nr_calls, sizeof(*c->vals));
	for (size_t k = 0; k < c->nr_calls; k++)
		if (c->calls[k].kind == HQ_PUT)
			c->vals[n++] = (struct hq_value){ .value = c->calls[k].value,
							  .put = (uint32_t)k, .take = HQ_NONE };
	qsort(c->vals, n, sizeof(*c->vals), value_cmp);
	c->nr_vals = 0;
	for (size_t k = 0; k < n; k++) {
		if (c->nr_vals > 0 && c->vals[c->nr_vals - 1].value == c->vals[k].value) {
			uint32_t both[2] = { c->vals[c->nr_vals - 1].put, c->vals[k].put };

			hq_violation(c, "one value put twice (the test must put unique values)",
				     both, 2);
			continue;
		}
		c->vals[c->nr_vals++] = c->vals[k];
	}
}

/* fresh and twice, value by value as the takes name them. */
static void note_take(struct hq_ctx *c, uint64_t value, uint32_t call)
{
	struct hq_value *v = hq_find(c, value);
	uint32_t pair[2] = { HQ_NONE, call };

	if (v == NULL) {
		hq_violation(c, "fresh: a take returned a value nobody put", pair, 2);
		return;
	}
	pair[0] = v->put;
	if (c->calls[call].respond < c->calls[v->put].invoke)
		hq_violation(c, "fresh: a value was taken before its put began", pair, 2);
	if (v->takes++ == 0) {
		v->take = call;
		return;
	}
	{
		uint32_t three[3] = { v->put, v->take, call };

		hq_violation(c, "twice: one value taken by two calls", three, 3);
	}
}

static void check_takes(struct hq_ctx *c)
{
	for (size_t k = 0; k < c->nr_calls; k++) {
		const struct hq_call *call = &c->calls[k];

		if (call->kind == HQ_TAKE && call->value != 0)
			note_take(c, call->value, (uint32_t)k);
		if (call->kind == HQ_TAKE_ALL)
			for (uint32_t i = 0; i < call->seq_len; i++)
				note_take(c, call->seq[i], (uint32_t)k);
	}
	for (size_t k = 0; k < c->nr_vals; k++) {
		if (c->vals[k].takes == 0 && !c->round->open_end) {
			uint32_t put = c->vals[k].put;

			hq_violation(c, "lost: a value put was never taken, nor left for the drain",
				     &put, 1);
		}
	}
}

static int timed_cmp(const void *a, const void *b)
{
	const struct hq_timed *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

size_t hq_by_put(const struct hq_ctx *c, struct hq_timed *s, bool at_respond)
{
	size_t n = 0;

	for (size_t k = 0; k < c->nr_vals; k++) {
		const struct hq_call *put = &c->calls[c->vals[k].put];

		if (c->vals[k].takes == 1)
			s[n++] = (struct hq_timed){ .at = at_respond ? put->respond : put->invoke,
						    .value = (uint32_t)k };
	}
	qsort(s, n, sizeof(*s), timed_cmp);
	return n;
}

size_t hq_timed_first(const struct hq_timed *s, size_t lo, size_t hi, uint64_t t)
{
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s[mid].at < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* empty: a take that returned empty, or a take-all, during which some
 * value it did not take was in the structure throughout (put before the
 * call began, taken after it ended). With the values sorted by the
 * response of their put, the latest take among those put before a call
 * began answers for all of them. */
static void check_empties(struct hq_ctx *c)
{
	struct hq_timed *s = hist_calloc(c->nr_vals, sizeof(*s));
	uint64_t *latest = hist_calloc(c->nr_vals, sizeof(*latest));
	uint32_t *latest_of = hist_calloc(c->nr_vals, sizeof(*latest_of));
	size_t n = hq_by_put(c, s, true);

	for (size_t k = 0; k < n; k++) {
		uint64_t take_invoke = c->calls[c->vals[s[k].value].take].invoke;
		bool later = k == 0 || take_invoke > latest[k - 1];

		latest[k] = later ? take_invoke : latest[k - 1];
		latest_of[k] = later ? s[k].value : latest_of[k - 1];
	}
	for (size_t k = 0; k < c->nr_calls; k++) {
		const struct hq_call *call = &c->calls[k];
		size_t lo;

		if (!(call->kind == HQ_TAKE && call->value == 0) && call->kind != HQ_TAKE_ALL)
			continue;
		/* The values put before the call began: s[0..lo). */
		lo = hq_timed_first(s, 0, n, call->invoke);
		if (lo > 0 && latest[lo - 1] > call->respond) {
			const struct hq_value *v = &c->vals[latest_of[lo - 1]];
			uint32_t three[3] = { v->put, (uint32_t)k, v->take };

			hq_violation(c, call->kind == HQ_TAKE ?
				     "empty: a take returned empty while a value was in the "
				     "structure throughout" :
				     "empty: a take-all left out a value that was in the "
				     "structure throughout", three, 3);
		}
	}
	free(s);
	free(latest);
	free(latest_of);
}

/* order, inside one take-all (splice, pop_all), which takes its values
 * at one instant: listed oldest first (a splice's sequence as it is, a
 * pop_all's, top first, backwards), a value listed before another whose
 * put began after the first's put completed is a violation. From the
 * newest listed: the earliest response of a put listed later. */
static void take_all_order(struct hq_ctx *c, uint32_t call)
{
	const struct hq_call *all = &c->calls[call];
	bool top_first = c->round->order == HQ_LIFO;
	uint64_t earliest = UINT64_MAX;
	uint32_t earliest_of = HQ_NONE;

	for (uint32_t k = 0; k < all->seq_len; k++) {
		const struct hq_value *v = hq_find(c, all->seq[top_first ? k : all->seq_len - 1 - k]);

		if (v == NULL || v->takes != 1)
			continue;
		if (earliest_of != HQ_NONE && earliest < c->calls[v->put].invoke) {
			uint32_t calls[3] = { c->vals[earliest_of].put, v->put, call };

			hq_violation(c, top_first ?
				     "order: a pop_all lists a value above one pushed later" :
				     "order: a splice lists a value before one put earlier", calls, 3);
			return;
		}
		if (c->calls[v->put].respond < earliest) {
			earliest = c->calls[v->put].respond;
			earliest_of = (uint32_t)(v - c->vals);
		}
	}
}

bool hq_check_round(const struct hq_round *round, struct hq_verdict *v, FILE *report)
{
	struct hq_ctx c = { .round = round, .report = report };

	gather_calls(&c);
	index_values(&c);
	check_takes(&c);
	check_empties(&c);
	if (round->order == HQ_FIFO)
		hq_fifo_order(&c);
	else
		hq_lifo_order(&c);
	for (size_t k = 0; k < c.nr_calls; k++)
		if (c.calls[k].kind == HQ_TAKE_ALL)
			take_all_order(&c, (uint32_t)k);
	v->rounds++;
	v->ops += round->nr_ops;
	v->values += c.nr_vals;
	for (size_t k = 0; k < round->nr_ops; k++)
		v->empties += round->ops[k].kind == HQ_TAKE && round->ops[k].value == 0;
	if (c.violations == 0) {
		switch (hq_search(&c)) {
		case HQ_SEARCH_OK:
			v->searched_rounds++;
			v->searched_ops += round->nr_ops;
			break;
		case HQ_SEARCH_UNCHECKED:
			v->unsearched_rounds++;
			break;
		case HQ_SEARCH_VIOLATION:
			break;
		}
	}
	v->violations += c.violations;
	free(c.calls);
	free(c.vals);
	return c.violations == 0;
}
