/* SPDX-License-Identifier: MIT */
/*
 * lfht/iter.c - read-side traversals: lookup (the exported symbol behind the
 * inline one), first, next, next_duplicate (the inline lookup's walk, which
 * never leaves the key's run), is_node_deleted.
 *
 * Owns nothing and writes nothing shared. A traversal follows next words,
 * removed or not (a removed node's word is frozen and still leads forward),
 * and reports only nodes that are neither bucket nodes nor removed. Because
 * nodes never move, and a node can only leave the list behind a traversal's
 * position by being removed, every node present for the whole traversal is
 * reported exactly once, resize or not.
 *
 * Relies on list.c's invariants and on buckets.c for the start bucket.
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

void (cds_lfht_lookup)(struct cds_lfht *ht, unsigned long hash,
		       cds_lfht_match_fct match, const void *key,
		       struct cds_lfht_iter *iter)
{
	lfht_lookup_inline_(ht, hash, match, key, iter);
}

/* Reports the first regular, unremoved node from node on. */
static void iter_settle(struct cds_lfht_iter *iter, struct cds_lfht_node *node)
{
	while (node) {
		/* Acquire: pairs with the CAS that linked node's successor
		 * (rcu_dereference of the node handed to the caller). */
		uintptr_t word = rcu_atomic_load(&node->next, memory_order_acquire);

		if (!(word & (LFHT_REMOVED_ | LFHT_BUCKET_))) {
			iter->node = node;
			iter->next = lfht_ptr(word);
			return;
		}
		node = lfht_ptr(word);
	}
	iter->node = NULL;
	iter->next = NULL;
}

void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	/* Acquire: pairs with the CAS that linked bucket 0's successor. */
	iter_settle(iter, lfht_ptr(rcu_atomic_load(&ht->bucket0.next,
						   memory_order_acquire)));
}

void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	(void)ht;
	iter_settle(iter, iter->next);
}

void cds_lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match,
			     const void *key, struct cds_lfht_iter *iter)
{
	(void)ht;
	if (!iter->node)
		return;
	/* The key's run only: the walk stops at the first larger reverse
	 * hash, bucket and removed nodes included. */
	lfht_find_from_(iter->next, iter->node->reverse_hash, match, key, iter);
}

int cds_lfht_is_node_deleted(const struct cds_lfht_node *node)
{
	/* Relaxed: a snapshot; the caller's read-side section keeps node. */
	return lfht_is_removed(rcu_atomic_load((_Atomic(uintptr_t) *)&node->next,
					       memory_order_relaxed));
}
