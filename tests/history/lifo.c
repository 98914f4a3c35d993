/* SPDX-License-Identifier: MIT */
/*
 * tests/history/lifo.c - the order rules of a stack (queue.h).
 *
 * Between two values: when put(a) precedes put(b), put(b) precedes take(a)
 * and take(a) precedes take(b), every linearization has b on the stack,
 * above a, from before a is taken until after: taking a is a violation.
 * (A value left for the drain is taken there, after every call. The order
 * inside a pop_all: queue.c.)
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

void hq_lifo_order(struct hq_ctx *c)
{
	struct hq_timed *s = hist_calloc(c->nr_vals, sizeof(*s));
	size_t n = hq_by_put(c, s, false);

	for (size_t k = 0; k < n; k++) {
		const struct hq_value *a = &c->vals[s[k].value];
		const struct hq_call *put_a = &c->calls[a->put], *take_a = &c->calls[a->take];
		/* The first b whose put began after put(a) completed. */
		size_t lo = hq_timed_first(s, k + 1, n, put_a->respond + 1);

		for (size_t j = lo; j < n && s[j].at < take_a->invoke; j++) {
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
