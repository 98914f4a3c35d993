/* SPDX-License-Identifier: MIT */
/*
 * tests/history/lifo.c - the order rules of a stack (queue.h).
 *
 * Between two values: when put(a) precedes put(b), put(b) precedes take(a)
 * and take(a) precedes take(b), every linearization has b on the stack,
 * above a, from before a is taken until after: taking a is a violation.
 * (A value left for the drain is taken there, after every call.) Inside
 * one pop_all, which takes the whole stack at one instant, top first: a
 * value listed above another whose put began after the first's put
 * completed is a violation.
 *
 * What these rules cannot see, and the exact search (qsearch.c) does:
 * violations that need three values or more, or a value's interval that
 * only a chain of others pins. For example an empty pop during which the
 * stack was never empty only because one value was put (certainly after
 * the pop began) before another left (certainly before it ended), with
 * neither of them present throughout; or a pop of a while b, put after a,
 * could only have been taken before a if c, put after b, had been taken
 * before b. The stack's violations are not all of bounded size (A.
 * Bouajjani, M. Emmi, C. Enea, J. Hamza, "On reducing linearizability to
 * state reachability", ICALP 2015, show how the stack's differ from the
 * queue's), which is why the search is there.
 *
 * The pair rule scans, for each a, the values whose put began after a's
 * put completed and before a's take began: quadratic at worst, in practice
 * the values pushed during a's stay.
 */
#include "queue-internal.h"
#include "history.h"

#include <stdlib.h>

struct lifo_item {
	uint64_t put_invoke;
	uint32_t value;		/* index in vals */
};

static int item_cmp(const void *a, const void *b)
{
	const struct lifo_item *x = a, *y = b;

	return x->put_invoke < y->put_invoke ? -1 : x->put_invoke > y->put_invoke;
}

static void pairs(struct hq_ctx *c)
{
	struct lifo_item *s = hist_calloc(c->nr_vals, sizeof(*s));
	size_t n = 0;

	for (size_t k = 0; k < c->nr_vals; k++)
		if (c->vals[k].takes == 1)
			s[n++] = (struct lifo_item){ .put_invoke = c->calls[c->vals[k].put].invoke,
						     .value = (uint32_t)k };
	qsort(s, n, sizeof(*s), item_cmp);
	for (size_t k = 0; k < n; k++) {
		const struct hq_value *a = &c->vals[s[k].value];
		const struct hq_call *put_a = &c->calls[a->put], *take_a = &c->calls[a->take];
		size_t lo = k + 1, hi = n;

		/* The first b whose put began after put(a) completed. */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (s[mid].put_invoke <= put_a->respond)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo; j < n && s[j].put_invoke < take_a->invoke; j++) {
			const struct hq_value *b = &c->vals[s[j].value];

			if (c->calls[b->put].respond < take_a->invoke &&
			    c->calls[b->take].invoke > take_a->respond) {
				uint32_t calls[4] = { a->put, b->put, a->take, b->take };

				hq_violation(c, "order: a taken while b, put after it, stood above "
					     "it throughout", calls, 4);
				break;
			}
		}
	}
	free(s);
}

/* In a pop_all's sequence s (top first), s[i] above s[j] needs put(s[i])
 * not to precede put(s[j]): from the end, the latest invocation of a lower
 * listed put. */
static void take_all_order(struct hq_ctx *c, uint32_t call)
{
	const struct hq_call *all = &c->calls[call];
	uint64_t latest = 0;
	uint32_t latest_of = HQ_NONE;

	for (uint32_t i = all->seq_len; i-- > 0;) {
		const struct hq_value *v = hq_find(c, all->seq[i]);

		if (v == NULL || v->takes != 1)
			continue;
		if (latest_of != HQ_NONE && c->calls[v->put].respond < latest) {
			uint32_t calls[3] = { v->put, c->vals[latest_of].put, call };

			hq_violation(c, "order: a pop_all lists a value above one pushed later",
				     calls, 3);
			return;
		}
		if (latest_of == HQ_NONE || c->calls[v->put].invoke > latest) {
			latest = c->calls[v->put].invoke;
			latest_of = (uint32_t)(v - c->vals);
		}
	}
}

void hq_lifo_order(struct hq_ctx *c)
{
	pairs(c);
	for (size_t k = 0; k < c->nr_calls; k++)
		if (c->calls[k].kind == HQ_TAKE_ALL)
			take_all_order(c, (uint32_t)k);
}
