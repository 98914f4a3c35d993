/* SPDX-License-Identifier: MIT */
/*
 * tests/history/fifo.c - the order rules of a queue (queue.h).
 *
 * Between two values: when put(a) precedes put(b), every linearization
 * enqueues a first, so a leaves first; take(b) preceding take(a) is a
 * violation (the VOrd of T. A. Henzinger, A. Sezgin, V. Vafeiadis,
 * "Aspect-oriented linearizability proofs", CONCUR 2013). A value that
 * stays for the drain has its take there, after every call, so "b taken
 * while a stays" is the same rule. Inside one take-all (splice), which
 * takes its values at one instant in queue order: a value listed before
 * another that was put after the other's put completed is a violation.
 *
 * With the values sorted by put invocation (b) and by put response (a),
 * one sweep keeps, among the a put before b began, the one taken last:
 * O(n log n).
 */
#include "queue-internal.h"
#include "history.h"

#include <stdlib.h>

struct fifo_item {
	uint64_t key;
	uint32_t value;		/* index in vals */
};

static int item_cmp(const void *a, const void *b)
{
	const struct fifo_item *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static void pairs(struct hq_ctx *c)
{
	struct fifo_item *by_inv = hist_calloc(c->nr_vals, sizeof(*by_inv));
	struct fifo_item *by_resp = hist_calloc(c->nr_vals, sizeof(*by_resp));
	size_t n = 0, j = 0;
	uint64_t latest = 0;
	uint32_t latest_of = HQ_NONE;

	for (size_t k = 0; k < c->nr_vals; k++) {
		const struct hq_value *v = &c->vals[k];

		/* Values taken twice or never are reported already. */
		if (v->takes != 1)
			continue;
		by_inv[n] = (struct fifo_item){ .key = c->calls[v->put].invoke,
						.value = (uint32_t)k };
		by_resp[n++] = (struct fifo_item){ .key = c->calls[v->put].respond,
						   .value = (uint32_t)k };
	}
	qsort(by_inv, n, sizeof(*by_inv), item_cmp);
	qsort(by_resp, n, sizeof(*by_resp), item_cmp);
	for (size_t k = 0; k < n; k++) {
		const struct hq_value *b = &c->vals[by_inv[k].value];

		/* The a put before b began. */
		for (; j < n && by_resp[j].key < by_inv[k].key; j++) {
			const struct hq_value *a = &c->vals[by_resp[j].value];

			if (latest_of == HQ_NONE || c->calls[a->take].invoke > latest) {
				latest = c->calls[a->take].invoke;
				latest_of = by_resp[j].value;
			}
		}
		if (latest_of != HQ_NONE && c->calls[b->take].respond < latest) {
			const struct hq_value *a = &c->vals[latest_of];
			uint32_t calls[4] = { a->put, b->put, b->take, a->take };

			hq_violation(c, "order: a put before b, yet b taken before a", calls, 4);
		}
	}
	free(by_inv);
	free(by_resp);
}

/* In a take-all's sequence s (oldest first), s[i] before s[j] needs put(s[j])
 * not to precede put(s[i]): from the end, the earliest response of a later
 * listed put. */
static void take_all_order(struct hq_ctx *c, uint32_t call)
{
	const struct hq_call *all = &c->calls[call];
	uint64_t earliest = UINT64_MAX;
	uint32_t earliest_of = HQ_NONE;

	for (uint32_t i = all->seq_len; i-- > 0;) {
		const struct hq_value *v = hq_find(c, all->seq[i]);

		if (v == NULL || v->takes != 1)
			continue;
		if (earliest_of != HQ_NONE && earliest < c->calls[v->put].invoke) {
			uint32_t calls[3] = { c->vals[earliest_of].put, v->put, call };

			hq_violation(c, "order: a splice lists a value before one put earlier",
				     calls, 3);
			return;
		}
		if (c->calls[v->put].respond < earliest) {
			earliest = c->calls[v->put].respond;
			earliest_of = (uint32_t)(v - c->vals);
		}
	}
}

void hq_fifo_order(struct hq_ctx *c)
{
	pairs(c);
	for (size_t k = 0; k < c->nr_calls; k++)
		if (c->calls[k].kind == HQ_TAKE_ALL)
			take_all_order(c, (uint32_t)k);
}
