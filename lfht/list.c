/* SPDX-License-Identifier: MIT */
/*
 * lfht/list.c - the split-ordered list: insert, logical delete, unlink and
 * helping.
 *
 * Owns every node's next word. One singly linked list holds all nodes,
 * sorted by reverse hash; a bucket node sorts before regular nodes of equal
 * reverse hash, regular nodes of equal reverse hash keep insertion order.
 *
 * Invariants between atomic steps:
 * - a node whose next word has REMOVED is frozen: no CAS ever succeeds on
 *   it again (every CAS expects a word without REMOVED), so its successor
 *   stays valid for readers that still hold it;
 * - a node without REMOVED that was linked is reachable from bucket 0;
 * - a node leaves the list only by a CAS on its predecessor's unremoved
 *   word, and nothing links it again (links expect that exact word);
 * - linking a node is one seq_cst CAS of its predecessor's word (a release
 *   CAS for a bucket node), after the node's own fields are written (the
 *   CAS publishes them; docs/memory-ordering.md lists every pairing).
 *
 * Relies on buckets.c for the start bucket of a hash (which is always
 * linked: resize.c stores the size after linking on grow and before
 * removing on shrink, so a restart finds a live bucket).
 */
#include "internal.h"

/*
 * Tries to unlink cur (removed; cur_word is its frozen word) from prev,
 * whose word was *prev_word. On failure *prev_word holds the word seen.
 */
static bool list_help_unlink(struct cds_lfht_node *prev, uintptr_t *prev_word,
			     uintptr_t cur_word)
{
	uintptr_t desired = (uintptr_t)lfht_ptr(cur_word) | (*prev_word & LFHT_BUCKET_);

	/* Release: pairs with the acquire ->next loads of traversals that
	 * read the new word. Our acquire load of cur's word synchronized with
	 * the link of cur's successor, so the release hands its fields on to
	 * those readers, and keeps our reads of cur before the unlink.
	 * Acquire on failure: pairs with the CAS that changed prev's word, as
	 * for a traversal. */
	if (rcu_atomic_cas(&prev->next, prev_word, desired, memory_order_release,
			   memory_order_acquire)) {
		*prev_word = desired;
		return true;
	}
	return false;
}

struct cds_lfht_node *lfht_list_add(struct cds_lfht *ht, unsigned long hash,
				    struct cds_lfht_node *node, enum lfht_add_mode mode,
				    cds_lfht_match_fct match, const void *key,
				    unsigned *chain)
{
	unsigned long reverse_hash = node->reverse_hash;
	struct cds_lfht_node *prev, *cur;
	uintptr_t prev_word, cur_word;
	unsigned long size;

restart:
	prev = lfht_bucket_for_hash(ht, hash, &size);
	*chain = 0;
	/* Acquire (all ->next loads here): pairs with the CAS that stored
	 * the word (the seq_cst commits here and in cds_lfht_replace(), the
	 * release CASes of lfht_list_add_bucket() and list_help_unlink()), so
	 * the successor's reverse_hash and next are visible. A word with
	 * REMOVED from a bucket that a shrink marked also makes the lowered
	 * size visible (release half of the mark in lfht_list_mark_removed(),
	 * after the size store in resize_shrink()): the restart sees it. */
	prev_word = rcu_atomic_load(&prev->next, memory_order_acquire);
	for (;;) {
		if (lfht_is_removed(prev_word))
			goto restart;	/* a shrink removed prev: new size */
		cur = lfht_ptr(prev_word);
		if (cur) {
			cur_word = rcu_atomic_load(&cur->next, memory_order_acquire);
			if (lfht_is_removed(cur_word)) {
				list_help_unlink(prev, &prev_word, cur_word);
				continue;
			}
			if (cur->reverse_hash <= reverse_hash) {
				if (mode != LFHT_ADD_DUP && !lfht_is_bucket(cur_word) &&
				    cur->reverse_hash == reverse_hash && match(cur, key)) {
					if (mode == LFHT_ADD_UNIQUE)
						return cur;
					/* Replace: one CAS freezes cur pointing at
					 * node, node pointing at cur's successor. */
					/* Relaxed: published by the
					 * commit CAS below. */
					rcu_atomic_store(&node->next, cur_word,
							 memory_order_relaxed);
					lfht_commit_fence();
					/* Seq_cst: the commit; publishes node
					 * (pairs with the acquire ->next loads of
					 * readers) and orders with racing dels
					 * and replaces (lfht_list_mark_removed(),
					 * cds_lfht_replace()): all CAS cur's word
					 * expecting it without REMOVED, so one
					 * wins. Relaxed on failure: the loop
					 * reloads cur's word with acquire. */
					if (rcu_atomic_cas(&cur->next, &cur_word,
							   (uintptr_t)node | LFHT_REMOVED_ |
							   LFHT_REMOVAL_OWNER_,
							   memory_order_seq_cst,
							   memory_order_relaxed)) {
						lfht_commit_fence();
						lfht_list_unlink_removed(ht, hash);
						return cur;
					}
					/* cur changed: look at prev again. */
					continue;
				}
				if (!lfht_is_bucket(cur_word))
					++*chain;
				prev = cur;
				prev_word = cur_word;
				continue;
			}
		}
		/* Link node between prev and cur. Relaxed: published by the
		 * commit CAS below. */
		rcu_atomic_store(&node->next, (uintptr_t)cur, memory_order_relaxed);
		lfht_commit_fence();
		/* Seq_cst: the commit; publishes node's fields (pairs with the
		 * acquire ->next loads of traversals: lfht_lookup_inline_(),
		 * iter.c, the loads above). Acquire on failure: pairs with the
		 * CAS that changed prev's word; the new successor is traversed
		 * next. */
		if (rcu_atomic_cas(&prev->next, &prev_word,
				   (uintptr_t)node | (prev_word & LFHT_BUCKET_),
				   memory_order_seq_cst, memory_order_acquire)) {
			lfht_commit_fence();
			return mode == LFHT_ADD_REPLACE ? NULL : node;
		}
		/* prev's word changed: continue from prev (restart if removed). */
	}
}

void lfht_list_add_bucket(struct cds_lfht_node *start, struct cds_lfht_node *bucket)
{
	unsigned long reverse_hash = bucket->reverse_hash;
	struct cds_lfht_node *prev = start, *cur;
	uintptr_t prev_word, cur_word;

	/* start is never removed while the resizer links buckets after it:
	 * only the resizer removes bucket nodes. Acquire (this load and the
	 * two reloads from start below): pairs with the CAS that stored the
	 * word (the seq_cst commits of lfht_list_add() and cds_lfht_replace(),
	 * the release CASes here and in list_help_unlink()), so the
	 * successor's reverse_hash and next are visible. */
	prev_word = rcu_atomic_load(&prev->next, memory_order_acquire);
	for (;;) {
		cur = lfht_ptr(prev_word);
		if (cur) {
			/* Acquire: as above, for cur's word (the link of cur's
			 * successor). */
			cur_word = rcu_atomic_load(&cur->next, memory_order_acquire);
			if (lfht_is_removed(cur_word)) {
				if (!list_help_unlink(prev, &prev_word, cur_word) &&
				    lfht_is_removed(prev_word)) {
					prev = start;
					/* Acquire: as above. */
					prev_word = rcu_atomic_load(&prev->next,
								    memory_order_acquire);
				}
				continue;
			}
			if (cur->reverse_hash < reverse_hash) {
				prev = cur;
				prev_word = cur_word;
				continue;
			}
		}
		/* Relaxed: published by the release CAS below. */
		rcu_atomic_store(&bucket->next, (uintptr_t)cur | LFHT_BUCKET_,
				 memory_order_relaxed);
		/* Release: publishes the bucket's fields; pairs with the acquire
		 * ->next loads of traversals (lfht_lookup_inline_(), iter.c,
		 * lfht_list_add()). Acquire on failure: pairs with the CAS that
		 * changed prev's word, as above. */
		if (rcu_atomic_cas(&prev->next, &prev_word,
				   (uintptr_t)bucket | (prev_word & LFHT_BUCKET_),
				   memory_order_release, memory_order_acquire))
			return;
		if (lfht_is_removed(prev_word)) {
			prev = start;
			/* Acquire: as above. */
			prev_word = rcu_atomic_load(&prev->next, memory_order_acquire);
		}
	}
}

void lfht_list_unlink_removed(struct cds_lfht *ht, unsigned long hash)
{
	unsigned long reverse_hash = lfht_reverse_bits_(hash);
	struct cds_lfht_node *prev, *cur;
	uintptr_t prev_word, cur_word;
	unsigned long size;

restart:
	prev = lfht_bucket_for_hash(ht, hash, &size);
	/* Acquire (all ->next loads here): pairs with the CAS that stored
	 * the word, as in lfht_list_add() (a REMOVED bucket word also brings
	 * the lowered size for the restart). */
	prev_word = rcu_atomic_load(&prev->next, memory_order_acquire);
	for (;;) {
		if (lfht_is_removed(prev_word))
			goto restart;
		cur = lfht_ptr(prev_word);
		if (!cur)
			return;
		cur_word = rcu_atomic_load(&cur->next, memory_order_acquire);
		if (lfht_is_removed(cur_word)) {
			list_help_unlink(prev, &prev_word, cur_word);
			continue;
		}
		if (cur->reverse_hash > reverse_hash)
			return;
		prev = cur;
		prev_word = cur_word;
	}
}

bool lfht_list_mark_removed(struct cds_lfht_node *node, bool bucket)
{
	uintptr_t flags = bucket ? LFHT_REMOVED_ : LFHT_REMOVED_ | LFHT_REMOVAL_OWNER_;
	/* Relaxed: the CAS below validates the value. */
	uintptr_t word = rcu_atomic_load(&node->next, memory_order_relaxed);

	do {
		if (lfht_is_removed(word))
			return false;
		/* Seq_cst: the commit of a del (or, bucket, of a shrink's
		 * removal); the winner of racing dels and replaces (the replace
		 * commits of lfht_list_add() and cds_lfht_replace() CAS the same
		 * word) is the one whose CAS sets REMOVED. Its release half
		 * pairs with the acquire ->next loads that see REMOVED: for a
		 * bucket, they also see the lowered size stored before it in
		 * resize_shrink(). Relaxed on failure: the loop re-tests the
		 * word seen, and nothing is read through it. */
	} while (!rcu_atomic_cas(&node->next, &word, word | flags,
				 memory_order_seq_cst, memory_order_relaxed));
	return true;
}
