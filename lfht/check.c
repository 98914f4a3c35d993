/* SPDX-License-Identifier: MIT */
/*
 * lfht/check.c - the invariant checker of test builds (the LFHT_TEST_HOOKS
 * static library only: not in liblfht, not API).
 *
 * lfht_check_invariants_() takes the table's resize_lock, so that no
 * resize runs, and walks the whole list from bucket 0 inside a read-side
 * section, checking what list.c, buckets.c and count.c promise of a quiet
 * table (no update in flight):
 * - reverse hashes never decrease along the list; a bucket node sorts
 *   before the regular nodes of its reverse hash;
 * - every bucket below size is in its place (order table and index match
 *   its reverse hash, the bucket region agrees), flagged a bucket, not
 *   removed, and met on the walk;
 *   the walk meets no other bucket node;
 * - no removed node is reachable (each del and replace unlinks what it
 *   removed before it returns);
 * - with CDS_LFHT_ACCOUNTING, the split counters add up to the nodes met;
 * - no link's tag overstates what it links to (<lfht/lfht-word.h>),
 *   checked last: a broken order or a lost bucket breaks tags too.
 * A broken invariant prints "lfht: invariant: <what>" and aborts.
 *
 * Also holds the switch of the history checker's mutants (lfht/mutant.h):
 * lfht_test_mutant_ and the broken lookup step lfht_mutant_walk_().
 *
 * Calls sync.c (the lock, offline/online as resize.c does), buckets.c,
 * count.c, the flavour's ops.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

void lfht_check_invariants_(struct cds_lfht *ht);

static _Noreturn void check_failed(const struct cds_lfht_node *node, unsigned long reverse_hash,
				   const char *what)
{
	fprintf(stderr, "lfht: invariant: %s (node %p, reverse hash %#lx)\n", what,
		(const void *)node, reverse_hash);
	fflush(stderr);
	abort();
}

/* The reverse hash of an element whose word is word: a bucket's from its
 * place in the bucket tables (not from its link: the tags are checked on
 * their own), a node's from the node. */
static unsigned long element_rh(struct cds_lfht *ht, const struct cds_lfht_node *node,
				uintptr_t word)
{
	return lfht_is_bucket_(word) ? lfht_bucket_reverse_hash_(&ht->view, node)
				     : node->reverse_hash;
}

/* Walks the list; returns the regular nodes met, counts the buckets. */
static unsigned long check_list(struct cds_lfht *ht, unsigned long size,
				unsigned long *buckets_met)
{
	bool first = true, prev_bucket = false;
	unsigned long nodes = 0, prev_rh = 0;

	*buckets_met = 0;
	for (struct cds_lfht_node *node = &ht->bucket0; node; ) {
		/* Acquire: as a traversal's (lfht_load_next_()): pairs with
		 * the CAS that stored the word. */
		uintptr_t word = rcu_atomic_load(&node->next, memory_order_acquire);
		unsigned long rh = element_rh(ht, node, word);

		if (lfht_is_removed_(word))
			check_failed(node, rh, "a removed node is reachable in a quiet table");
		if (!first && rh < prev_rh)
			check_failed(node, rh, "the list is not sorted by reverse hash");
		if (lfht_is_bucket_(word)) {
			unsigned long index = lfht_reverse_bits_(rh);

			if (rh == ~0UL)
				check_failed(node, rh, "a bucket node lies in no table of the "
					     "orders array");

			if (!first && !prev_bucket && rh == prev_rh)
				check_failed(node, rh, "a bucket node sorts after a regular node "
					     "of its reverse hash");
			if (index >= size)
				check_failed(node, rh, "a bucket node above size is reachable");
			if (lfht_bucket_at(ht, index) != node)
				check_failed(node, rh, "a bucket node is not in its place in the "
					     "bucket tables");
			++*buckets_met;
		} else {
			nodes++;
		}
		first = false;
		prev_rh = rh;
		prev_bucket = lfht_is_bucket_(word);
		node = lfht_ptr_(word);
	}
	return nodes;
}

/* Every bucket below size: flagged a bucket, not removed, and where both
 * ways to it lead (the region's, through lfht_view_bucket_(), and the
 * orders array's). */
static void check_buckets(struct cds_lfht *ht, unsigned long size)
{
	for (unsigned long i = 0; i < size; i++) {
		struct cds_lfht_node *bucket = lfht_bucket_at(ht, i);
		unsigned long i_rh = lfht_reverse_bits_(i), rh;

		if (lfht_view_bucket_(&ht->view, i, i_rh, &rh) != bucket)
			check_failed(bucket, i_rh,
				     "the region and the orders array disagree on a bucket");
		if (rh != i_rh)
			check_failed(bucket, i_rh, "a walk's start gets another bucket's reverse hash");
		/* Relaxed: the resize_lock holder's view; checked, not used. */
		uintptr_t word = rcu_atomic_load(&bucket->next, memory_order_relaxed);

		if (!lfht_is_bucket_(word) || lfht_is_removed_(word))
			check_failed(bucket, i_rh,
				     "a bucket below size is not a live bucket node of its index");
	}
}

/* Every link's tag decodes, from its holder, to no more than the reverse
 * hash of what it links to (exact or a lower bound, <lfht/lfht-word.h>),
 * so no walk stops early on it. */
static void check_tags(struct cds_lfht *ht)
{
	/* Relaxed: walked after check_list(), whose acquire loads of the
	 * same words made the nodes visible. */
	uintptr_t word = rcu_atomic_load(&ht->bucket0.next, memory_order_relaxed);
	const struct cds_lfht_node *holder = &ht->bucket0;
	unsigned long holder_rh = 0;

	for (;;) {
		struct cds_lfht_node *node = lfht_ptr_(word);
		/* Relaxed: as above. */
		uintptr_t next = node ? rcu_atomic_load(&node->next, memory_order_relaxed) : 0;
		unsigned long rh = node ? element_rh(ht, node, next) : 0;
		unsigned long floor = lfht_tag_floor_(word, holder_rh);

		if (floor && (!node || floor > rh))
			check_failed(holder, holder_rh, "a link's tag overstates the reverse "
				     "hash of the element it links to");
		if (!node)
			return;
		holder = node;
		holder_rh = rh;
		word = next;
	}
}

void lfht_check_invariants_(struct cds_lfht *ht)
{
	const struct rcu_flavour *f = ht->flavour;
	bool was_online = lfht_offline_begin(f);
	unsigned long size, buckets_met, nodes;

	/* As resize_lock() in resize.c: offline while blocked, the holder
	 * may wait for a grace period. */
	lfht_lock(&ht->resize_lock);
	f->thread_online();
	f->read_lock();
	/* Relaxed: only the resize_lock holder, now us, stores size. */
	size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);
	check_buckets(ht, size);
	nodes = check_list(ht, size, &buckets_met);
	if (buckets_met != size)
		check_failed(NULL, 0, "a bucket node below size is not reachable from bucket 0");
	if (ht->counters && lfht_counters_sum(ht) != (long)nodes)
		check_failed(NULL, 0, "the split counters do not add up to the nodes in the list");
	check_tags(ht);
	f->read_unlock();
	f->thread_offline();
	lfht_unlock(&ht->resize_lock);
	lfht_offline_end(f, was_online);
}

/* ---- the history checker's mutants (lfht/mutant.h) ------------------------ */

int lfht_test_mutant_;

void lfht_mutant_walk_(uintptr_t *next)
{
	struct cds_lfht_node *successor = lfht_ptr_(*next);

	if (lfht_mutant(LFHT_MUTANT_LOOKUP_SKIP) && lfht_is_removed_(*next) && successor)
		/* Acquire: pairs with the CAS that stored the word, as in
		 * lfht_load_next_(), the step this one replaces. */
		*next = rcu_atomic_load(&successor->next, memory_order_acquire);
}
