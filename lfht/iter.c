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
 * reported exactly once, resize or not. cds_lfht_first() finds where to
 * start by reading bucket words from the bucket tables (first_start()),
 * which skips a run of emptied buckets without walking it node by node.
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

/* Buckets the scan of first_start() asks the memory for ahead of the one
 * it checks. */
#define SCAN_AHEAD 16UL

/* The bucket at place pos in list order among 2^bits buckets. */
static struct cds_lfht_node *bucket_at_place(RCU_ATOMIC_(struct cds_lfht_node *) *orders,
					     unsigned long pos, unsigned bits)
{
	return lfht_bucket_in_(orders,
			       bits ? lfht_reverse_bits_(pos) >> (LFHT_LONG_BITS_ - bits) : 0);
}

/*
 * Where cds_lfht_first() starts its walk: the successor of the first
 * bucket, in list order, whose range may hold a node. A table that was
 * emptied from the front (a flush by restarted iteration) keeps a run of
 * empty buckets there; the list walks them one dependent miss at a time,
 * the scan reads their words from the bucket tables, SCAN_AHEAD misses in
 * flight.
 *
 * Bucket b (place pos, size 2^bits) is empty when its word, not removed,
 * links to the bucket at place pos + 1 (the end of the list for the last):
 * at that load nothing sorted between them. A node present for the whole
 * traversal sorts in some bucket's range, so it is in the list when that
 * bucket is checked, and the first bucket found not empty has it at or
 * after its successor: starting there is the walk from bucket 0 reaching
 * that bucket at that load (b, below size, is linked and not removed, so
 * it is reachable). Buckets of a grow in progress (above size) sort inside
 * ranges and make them look not empty: the walk goes through them. A
 * removed bucket (a shrink in progress) ends the scan: the walk then
 * starts from bucket 0, as it always did.
 */
static struct cds_lfht_node *first_start(struct cds_lfht *ht)
{
	/* Acquire, size then orders: as in lfht_view_bucket_() (lfht.h), so
	 * every bucket below size is linked and its table published. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_acquire);
	RCU_ATOMIC_(struct cds_lfht_node *) *orders =
		rcu_atomic_load(&ht->view.orders, memory_order_acquire);
	unsigned bits = lfht_log2(size);
	struct cds_lfht_node *bucket = bucket_at_place(orders, 0, bits), *succ;
	uintptr_t word;

	for (unsigned long pos = 0; pos < size; pos++, bucket = succ) {
		if (pos + SCAN_AHEAD < size)
			__builtin_prefetch(bucket_at_place(orders, pos + SCAN_AHEAD, bits));
		succ = pos + 1 < size ? bucket_at_place(orders, pos + 1, bits) : NULL;
		LFHT_VISIT_HOOK_();
		(void)lfht_load_next_(bucket, &word);
		if (lfht_is_removed_(word))
			return first_node(ht);
		if (lfht_ptr_(word) != succ)
			return lfht_ptr_(word);
	}
	return NULL;
}

void lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	lfht_call_reader(ht, "cds_lfht_first");
	iter_settle(iter, first_start(ht));
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
