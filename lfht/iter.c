/* SPDX-License-Identifier: MIT */
/*
 * lfht/iter.c - every read walk: lookup and next_duplicate (the exported
 * twins of the inline ones, whose walk never leaves the key's run), first,
 * next, is_node_deleted, and the counting walks (the node
 * count, the emptiness check of destroy, the load estimate of resize.c).
 *
 * Owns nothing and writes nothing shared. A traversal follows next words,
 * removed or not (a removed node's word is frozen and still leads forward),
 * and reports only nodes that are neither bucket nodes nor removed. Because
 * nodes never move, and a node can only leave the list behind a traversal's
 * position by being removed, every node present for the whole traversal is
 * reported exactly once, resize or not.
 *
 * All walks step with lfht_load_next_() (<lfht/lfht-inline.h>), shared
 * with the inline lookup. Relies on list.c's invariants; calls buckets.c
 * for bucket nodes.
 */
#ifdef LFHT_TEST_HOOKS
/* Test builds count the nodes the read walks of this file visit. */
extern _Thread_local unsigned long lfht_test_visits_;
#define LFHT_VISIT_HOOK_() (lfht_test_visits_++)
#endif

#include "internal.h"

#ifdef LFHT_TEST_HOOKS
_Thread_local unsigned long lfht_test_visits_;
#endif

void lfht_lookup(struct cds_lfht *ht, unsigned long hash, cds_lfht_match_fct match,
		 const void *key, struct cds_lfht_iter *iter)
{
	lfht_call_reader(ht, "lfht_lookup");
	lfht_lookup_inline_(ht, hash, match, key, iter);
	lfht_call_end(ht);
}

/* Reports the first live node from node on. */
static void iter_settle(struct cds_lfht_iter *iter, struct cds_lfht_node *node)
{
	uintptr_t word;

	while (node && !lfht_load_next_(node, &word))
		node = lfht_ptr_(word);
	iter->node = node;
	iter->next = node ? lfht_ptr_(word) : NULL;
}

static struct cds_lfht_node *first_node(struct cds_lfht *ht)
{
	uintptr_t word;

	(void)lfht_load_next_(&ht->bucket0, &word);
	return lfht_ptr_(word);
}

void lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	lfht_call_reader(ht, "cds_lfht_first");
	iter_settle(iter, first_node(ht));
	lfht_call_end(ht);
}

/* LFHT_MUTANT_ITER_RESTART: where a broken cds_lfht_next() goes on. */
static struct cds_lfht_node *restart_point(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	unsigned long bucket_rh;
	uintptr_t word;

	if (!lfht_mutant(LFHT_MUTANT_ITER_RESTART) || !iter->node ||
	    lfht_load_next_(iter->node, &word))
		return iter->next;
	(void)lfht_load_next_(lfht_view_bucket_(&ht->view,
						lfht_reverse_bits_(iter->node->reverse_hash),
						&bucket_rh),
			      &word);
	return lfht_ptr_(word);
}

void lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	lfht_call_reader(ht, "cds_lfht_next");
	iter_settle(iter, restart_point(ht, iter));
	lfht_call_end(ht);
}

void lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match,
			 const void *key, struct cds_lfht_iter *iter)
{
	lfht_call_reader(ht, "cds_lfht_next_duplicate");
	lfht_next_duplicate_inline_(ht, match, key, iter);
	lfht_call_end(ht);
}

int lfht_is_node_deleted(const struct cds_lfht_node *node)
{
	/* Relaxed: a snapshot; the caller's read-side section keeps node. */
	return lfht_is_removed_(rcu_atomic_load((_Atomic(uintptr_t) *)&node->next,
					       memory_order_relaxed));
}

/* Live nodes after from, up to limit, stopping at the next bucket node
 * when in_bucket. */
static unsigned long count_live(struct cds_lfht_node *from, bool in_bucket,
				unsigned long limit)
{
	unsigned long n = 0;
	uintptr_t word;

	(void)lfht_load_next_(from, &word);
	for (struct cds_lfht_node *node = lfht_ptr_(word); node && n < limit;
	     node = lfht_ptr_(word)) {
		n += (unsigned long)lfht_load_next_(node, &word);
		if (in_bucket && lfht_is_bucket_(word))
			break;
	}
	return n;
}

bool lfht_iter_empty(struct cds_lfht *ht)
{
	return count_live(&ht->bucket0, false, 1) == 0;
}

unsigned long lfht_iter_count(struct cds_lfht *ht)
{
	return count_live(&ht->bucket0, false, ULONG_MAX);
}

unsigned long lfht_iter_estimate_count(struct cds_lfht *ht, unsigned long size,
				       unsigned long samples)
{
	unsigned long seen = 0, x = 0x9e3779b97f4a7c15UL ^ size;

	if (samples > size)
		samples = size;
	for (unsigned long s = 0; s < samples; s++) {
		unsigned long index = s;

		if (samples < size) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			index = x & (size - 1);
		}
		seen += count_live(lfht_bucket_at(ht, index), true, ULONG_MAX);
	}
	/* seen / samples * size, without overflow for large tables. */
	return samples == size ? seen : seen * (size / samples);
}
