/* SPDX-License-Identifier: MIT */
/*
 * tests/history/fifo.c - the order rules of a queue (queue.h).
 *
 * Between two values: when put(a) precedes put(b), every linearization
 * enqueues a first, so a leaves first; take(b) preceding take(a) is a
 * violation (the VOrd of T. A. Henzinger, A. Sezgin, V. Vafeiadis,
 * "Aspect-oriented linearizability proofs", CONCUR 2013). A value that
 * stays for the drain has its take there, after every call, so "b taken
 * while a stays" is the same rule. (The order inside a splice: queue.c.)
 *
 * With the values sorted by put invocation (b) and by put response (a),
 * one sweep keeps, among the a put before b began, the one taken last:
 * O(n log n).
 */
#include "queue-internal.h"
#include "history.h"

#include <stdlib.h>

void hq_fifo_order(struct hq_ctx *c)
{
	struct hq_timed *by_inv = hist_calloc(c->nr_vals, sizeof(*by_inv));
	struct hq_timed *by_resp = hist_calloc(c->nr_vals, sizeof(*by_resp));
	size_t n = hq_by_put(c, by_inv, false), j = 0;
	uint64_t latest = 0;
	uint32_t latest_of = HQ_NONE;

	(void)hq_by_put(c, by_resp, true);
	for (size_t k = 0; k < n; k++) {
		const struct hq_value *b = &c->vals[by_inv[k].value];

		/* The a put before b began. */
		for (; j < n && by_resp[j].at < by_inv[k].at; j++) {
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
