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

/*
 * The index of the bucket after bucket index in list order, among
 * mask + 1 buckets (a power of two), or mask + 1 after the last: list
 * order is that of the reversed index, so add one to the reversed index,
 * the carry running from the top bit down.
 */
static unsigned long next_in_list(unsigned long index, unsigned long mask)
{
	unsigned long zeros = ~index & mask;
	unsigned long top;

	if (!zeros)
		return mask + 1;
	/* The highest clear bit: set it, clear the ones above it. */
	top = 1UL << (LFHT_LONG_BITS_ - 1 - __builtin_clzl(zeros));
	return (index & (top - 1)) | top;
}

/*
 * Whether the bucket of index index (among mask + 1 buckets,
 * shift = LFHT_LONG_BITS_ - log2(mask + 1)) was empty at the load of its
 * word: 1 yes, 0 no (*start: the element its word links to), -1 removed
 * (a shrink in progress). Empty: not removed, and its word links to an
 * element that sorts at or after the next place's reverse hash, read from
 * the link's tag when it tells, else from the link being the next
 * bucket's address (or NULL after the last).
 */
static int bucket_empty(RCU_ATOMIC_(struct cds_lfht_node *) *orders,
			struct cds_lfht_node *bucket, unsigned long index, unsigned long mask,
			unsigned shift, struct cds_lfht_node **start)
{
	/* Its reverse hash, and the last of its range. */
	unsigned long holder = lfht_reverse_bits_(index);
	unsigned long last = shift < LFHT_LONG_BITS_ ? holder | ((1UL << shift) - 1) : ~0UL;
	unsigned long next;
	uintptr_t word;

	LFHT_VISIT_HOOK_();
	(void)lfht_load_next_(bucket, &word);
	if (lfht_is_removed_(word))
		return -1;
	if (lfht_tag_after_(word, holder, last))
		return 1;
	next = next_in_list(index, mask);
	if (lfht_ptr_(word) == (next <= mask ? lfht_bucket_in_(orders, next) : NULL))
		return 1;
	*start = lfht_ptr_(word);
	return 0;
}

/* Buckets 8m .. 8m + 7 (one group) hold places p + j * size/8 for j < 8,
 * p the place of bucket 8m: bucket 8m + group_slot[j] holds the j-th. */
static const unsigned char group_slot[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };

/*
 * Where cds_lfht_first() starts its walk: the successor of the first
 * bucket, in list order, whose range may hold a node. A table that was
 * emptied from the front (a flush by restarted iteration) keeps a run of
 * empty buckets there, which the list would walk one dependent miss at a
 * time; the scan reads their words from the bucket tables instead.
 *
 * Why any order of checks is right: a node present for the whole
 * traversal sorts in the range of some bucket, so it is in the list when
 * that one is checked, which then is not found empty; the first bucket (in
 * list order) found not empty therefore has every such node at or after
 * its successor, and starting there is the walk from bucket 0 reaching
 * that bucket at its load (a bucket below size, linked and not removed, is
 * reachable). Buckets of a grow in progress (above size) sort inside
 * ranges and make them look not empty: the walk goes through them. A
 * removed bucket (a shrink in progress) ends the scan: the walk then
 * starts from bucket 0, as it always did.
 *
 * The order of the checks: buckets 8m .. 8m + 7 share a line of a bucket
 * table and hold places p + j * size/8, so the scan goes over the first
 * eighth of the places (SCAN_AHEAD groups asked for ahead) and checks, at
 * each, the places of its group that lie before the best start found: a
 * table emptied up to any place costs at most a line or two per group.
 */
static struct cds_lfht_node *first_start(struct cds_lfht *ht)
{
	/* Acquire, size then orders: as in lfht_view_bucket_() (lfht-inline.h), so
	 * every bucket below size is linked and its table published. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_acquire);
	RCU_ATOMIC_(struct cds_lfht_node *) *orders =
		rcu_atomic_load(&ht->view.orders, memory_order_acquire);
	unsigned long mask = size - 1, best = size, eighth, gmask, m = 0, ahead = 0;
	unsigned shift = LFHT_LONG_BITS_ - lfht_log2(size);
	struct cds_lfht_node *start = NULL;

	if (size < 64) {
		/* Small: every place in list order. */
		for (unsigned long pos = 0, index = 0; pos < size;
		     pos++, index = next_in_list(index, mask)) {
			int empty = bucket_empty(orders, lfht_bucket_in_(orders, index), index,
						 mask, shift, &start);

			if (empty < 0)
				return first_node(ht);
			if (!empty)
				return start;
		}
		return NULL;
	}
	eighth = size >> 3;
	gmask = eighth - 1;
	for (unsigned long k = 0; k < SCAN_AHEAD; k++)
		ahead = next_in_list(ahead, gmask);
	for (unsigned long p = 0; p < eighth && best > p; p++, m = next_in_list(m, gmask)) {
		lfht_bucket_word_ *group;

		if (ahead <= gmask) {
			/* A group is one line, or two when the table is not
			 * line-aligned. */
			group = (lfht_bucket_word_ *)(void *)lfht_bucket_in_(orders, ahead << 3);
			__builtin_prefetch(group);
			__builtin_prefetch(group + 7);
			ahead = next_in_list(ahead, gmask);
		}
		/* Group 0 spans orders 0..3; any other lies in one table. */
		group = m ? (lfht_bucket_word_ *)(void *)lfht_bucket_in_(orders, m << 3) : NULL;
		for (unsigned j = 0; j < 8; j++) {
			unsigned long pos = p + j * eighth, index = m << 3 | group_slot[j];
			struct cds_lfht_node *bucket, *found = NULL;
			int empty;

			if (pos >= best)
				break;
			bucket = group ? (struct cds_lfht_node *)(void *)(group + group_slot[j])
				       : lfht_bucket_in_(orders, index);
			empty = bucket_empty(orders, bucket, index, mask, shift, &found);
			if (empty < 0)
				return first_node(ht);
			if (!empty) {
				best = pos;
				start = found;
				break;
			}
		}
	}
	return start;
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
						iter->node->reverse_hash, &bucket_rh),
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
