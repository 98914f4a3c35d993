/* SPDX-License-Identifier: MIT */
/*
 * lfht/lfht-inline.h - the inline fast path of <lfht/lfht.h>: the lookup,
 * the batch and the duplicate walk, and what they read of a table: the
 * view at its start and the bucket layout in both directions (index to
 * bucket, bucket to reverse hash). It calls nothing in the library: a
 * lookup runs here whole. Next words are read through their codec,
 * <lfht/lfht-word.h>. Included by <lfht/lfht.h>; nothing here is API, and
 * names ending in '_' may change between versions. The library's own
 * files share these inlines (lfht/buckets.c, lfht/list.c, lfht/iter.c).
 */
#ifndef LFHT_LFHT_INLINE_H
#define LFHT_LFHT_INLINE_H

#ifndef LFHT_LFHT_H
#error "include <lfht/lfht.h>, not <lfht/lfht-inline.h>"
#endif

#include <lfht/lfht-word.h>

struct cds_lfht_view_ {
	/* Bucket count, a power of two; stored with release after every
	 * bucket node it covers is linked. */
	RCU_ATOMIC_(unsigned long) size;
	/* orders[j]: the table of bucket nodes 2^(j-1) .. 2^j - 1
	 * (orders[0]: bucket 0). A new array is published before the size
	 * that needs it. Entries 0 .. top hold tables and every entry after
	 * them is NULL, the array's last included (lfht/buckets.c). */
	RCU_ATOMIC_(RCU_ATOMIC_(struct cds_lfht_node *) *) orders;
	/* The bucket region (lfht/region.c): bucket i, for
	 * LFHT_REGION_FIRST_ <= i < LFHT_REGION_FIRST_ + region_len, is word
	 * i from region, so that a walk reaches it with no load of orders.
	 * 0 until the table first grows past LFHT_REGION_FIRST_ buckets with
	 * one; each stored once, before the size that first covers a bucket
	 * in it. The same tables are orders' entries too. */
	RCU_ATOMIC_(uintptr_t) region;
	RCU_ATOMIC_(unsigned long) region_len;
};

/* The first bucket a region may hold: tables of 512 buckets or fewer, as
 * auto-resize's smallest grown tables (LFHT_RESIZE_FLOOR), never reserve
 * one. */
#define LFHT_REGION_FIRST_ 512UL

#if defined(__has_builtin)
#if __has_builtin(__builtin_bitreverse64) && __has_builtin(__builtin_bitreverse32)
#define LFHT_HAVE_BITREVERSE_ 1
#endif
#endif

#if defined(LFHT_HAVE_BITREVERSE_) && LFHT_LONG_BITS_ == 64
/* clang: one rbit on aarch64, a short sequence elsewhere. */
static inline unsigned long lfht_reverse_bits_(unsigned long v)
{
	return __builtin_bitreverse64(v);
}
#elif defined(LFHT_HAVE_BITREVERSE_)
static inline unsigned long lfht_reverse_bits_(unsigned long v)
{
	return __builtin_bitreverse32(v);
}
#elif LFHT_LONG_BITS_ == 64
/* Byte swap, then swap nibbles, pairs and bits inside each byte: no table,
 * no loads, about a dozen ALU operations. */
static inline unsigned long lfht_reverse_bits_(unsigned long v)
{
	uint64_t x = __builtin_bswap64(v);

	x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
	x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
	x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
	return (unsigned long)x;
}
#else
static inline unsigned long lfht_reverse_bits_(unsigned long v)
{
	uint32_t x = __builtin_bswap32(v);

	x = ((x >> 4) & 0x0f0f0f0fU) | ((x & 0x0f0f0f0fU) << 4);
	x = ((x >> 2) & 0x33333333U) | ((x & 0x33333333U) << 2);
	x = ((x >> 1) & 0x55555555U) | ((x & 0x55555555U) << 1);
	return x;
}
#endif

/* The order holding bucket index: 0 for bucket 0, else fls(index). */
static inline unsigned lfht_order_of_index_(unsigned long index)
{
	return index ? (unsigned)(LFHT_LONG_BITS_ - __builtin_clzl(index)) : 0U;
}

/*
 * Buckets. A bucket is its next word alone, 8 bytes (order 0: bucket 0,
 * inside struct cds_lfht); its reverse hash is that of its index, never
 * stored. A walk holds a bucket as a struct cds_lfht_node pointer at the
 * word, and reads only ->next through it, never ->reverse_hash.
 */
typedef RCU_ATOMIC_(uintptr_t) lfht_bucket_word_;

/* Bucket i of the table of order (whose first bucket is first). */
static inline struct cds_lfht_node *lfht_table_bucket_(struct cds_lfht_node *table,
						       unsigned long i)
{
	return (struct cds_lfht_node *)(void *)((lfht_bucket_word_ *)(void *)table + i);
}

/* The first bucket index of order, and its number of buckets. */
static inline unsigned long lfht_order_first_(unsigned order)
{
	return (1UL << order) >> 1;
}

static inline unsigned long lfht_order_len_(unsigned order)
{
	return order ? lfht_order_first_(order) : 1UL;
}

/* Bucket node index in the orders array orders (entry of its order
 * loaded relaxed: the caller knows the order is published, see
 * lfht_view_bucket_()). Shared with lfht/buckets.c. */
static inline struct cds_lfht_node *lfht_bucket_in_(RCU_ATOMIC_(struct cds_lfht_node *) *orders,
						    unsigned long index)
{
	unsigned order = lfht_order_of_index_(index);
	/* Relaxed: lfht_order_publish() stored the entry before the release
	 * store of size that the caller's acquire load of size read (or the
	 * caller is the resizer that published it). */
	struct cds_lfht_node *table =
		rcu_atomic_load(&orders[order], memory_order_relaxed);

	return lfht_table_bucket_(table, index - lfht_order_first_(order));
}

/*
 * The other direction: the reverse hash of a bucket, that of its index,
 * found from its place among the tables of the orders array (never
 * stored). A walk needs it only when it goes past a bucket that a tag does
 * not settle: a bucket of a larger order than the walk's size (a grow or
 * a shrink in progress), or one an iterator's untagged pointer leads to.
 * ~0UL, which no bucket has, if bucket lies in none (never: lfht/check.c
 * and lfht/list.c assert it). Out of line (each includer's own copy, no
 * call into the library), so that the lookups it is inlined into stay
 * short.
 */
static __attribute__((noinline, cold, unused)) unsigned long
lfht_bucket_reverse_hash_(struct cds_lfht_view_ *view, const struct cds_lfht_node *bucket)
{
	/* Acquire: pairs with the release store of view.orders in
	 * lfht_orders_reserve() (lfht/buckets.c). The caller reached bucket
	 * through a link that it acquired, whose CAS (lfht_list_add_bucket())
	 * came after the resizer published the array holding bucket's order
	 * and the entries up to it: this load sees that array or a later
	 * copy. */
	RCU_ATOMIC_(struct cds_lfht_node *) *orders =
		rcu_atomic_load(&view->orders, memory_order_acquire);
	uintptr_t at = (uintptr_t)bucket, table;

	/* Entries up to bucket's order are tables while a walk holds it; the
	 * first NULL ends the array. Relaxed: published before the link, as
	 * the array. */
	for (unsigned j = 0;
	     (table = (uintptr_t)rcu_atomic_load(&orders[j], memory_order_relaxed)) != 0; j++)
		if (at >= table && at < table + lfht_order_len_(j) * sizeof(lfht_bucket_word_))
			return lfht_reverse_bits_(lfht_order_first_(j) +
						  (at - table) / sizeof(lfht_bucket_word_));
	return ~0UL;
}

/* Where a search for hash (whose reverse is key_rh) starts: its bucket,
 * and that bucket's reverse hash in *reverse_hash. */
static inline struct cds_lfht_node *lfht_view_bucket_(struct cds_lfht_view_ *view,
						      unsigned long hash, unsigned long key_rh,
						      unsigned long *reverse_hash)
{
	/* Acquire: pairs with the release stores of size in grow_order()
	 * (lfht/resize.c): every bucket below size is initialised and linked
	 * (and in shrink_order(): buckets below the lowered size stay so). */
	unsigned long size = rcu_atomic_load(&view->size, memory_order_acquire);
	/* Acquire: pairs with the release store of view.orders in
	 * lfht_orders_reserve() (lfht/buckets.c), which comes before the size
	 * store that needs the larger array, so this load sees that array. */
	RCU_ATOMIC_(struct cds_lfht_node *) *orders =
		rcu_atomic_load(&view->orders, memory_order_acquire);
	/* Relaxed (both): stored once, before the release store of the first
	 * size that covers a bucket in the region (lfht/region.c), which the
	 * acquire load of size above reads if index can be one of them. */
	uintptr_t region = rcu_atomic_load(&view->region, memory_order_relaxed);
	unsigned long region_len = rcu_atomic_load(&view->region_len, memory_order_relaxed);
	unsigned long index = hash & (size - 1);

	/* The bucket's reverse hash, that of index = hash & (size - 1): the
	 * top log2(size) bits of key_rh, the rest cleared (no second bit
	 * reversal). */
	*reverse_hash = key_rh & ~(~0UL >> __builtin_ctzl(size));
	if (index - LFHT_REGION_FIRST_ < region_len)
		return (struct cds_lfht_node *)(region + index * sizeof(lfht_bucket_word_));
	return lfht_bucket_in_(orders, index);
}

/*
 * The step of every read walk: loads node's next word into *next and
 * returns whether node is live (neither a bucket node nor removed).
 */
static inline int lfht_load_next_(struct cds_lfht_node *node, uintptr_t *next)
{
	/* Acquire: the rcu_dereference of the list; pairs with the CAS that
	 * stored the word: list_commit() and the release CASes of
	 * lfht_list_add_bucket() and help_unlink() (lfht/list.c), so the
	 * node it points at has its fields visible. */
	*next = rcu_atomic_load(&node->next, memory_order_acquire);
	return lfht_is_live_(*next);
}

/* Counts one node visited by a read walk; test builds of the library
 * define it (tests/test_hooks.c). */
#ifndef LFHT_VISIT_HOOK_
#define LFHT_VISIT_HOOK_() ((void)0)
#endif

/* Breaks the walk on purpose in the history checker's mutant test
 * (lfht/mutant.h); nothing elsewhere. */
#ifndef LFHT_WALK_MUTANT_
#define LFHT_WALK_MUTANT_(next) ((void)0)
#endif

/*
 * One step of the walk shared by lookups, cds_lfht_next_duplicate() and
 * batches, for reverse hash key and the key match accepts, at the element
 * that *word links to (held by an element of reverse hash *holder).
 * Returns 0 to go on (*word and *holder moved one element on), 1 when the
 * walk ends without a match (the element sorts after key, or the list
 * ends), 2 when the element is a live node of reverse hash key that match
 * accepts (*found; *word then holds its next word). A bucket's reverse
 * hash is never loaded: the tag settles it, or its index gives it.
 */
static inline int lfht_walk_step_(struct cds_lfht_view_ *view, uintptr_t *word,
				  unsigned long *holder, unsigned long reverse_hash,
				  cds_lfht_match_fct match, const void *key,
				  struct cds_lfht_node **found)
{
	struct cds_lfht_node *node = lfht_ptr_(*word);
	uintptr_t next;

	if (node == NULL || lfht_tag_after_(*word, *holder, reverse_hash))
		return 1;
	LFHT_VISIT_HOOK_();
	if (lfht_load_next_(node, &next)) {
		*holder = node->reverse_hash;
		if (*holder == reverse_hash && match(node, key)) {
			*found = node;
			*word = next;
			return 2;
		}
	} else if (!lfht_is_bucket_(next)) {
		*holder = node->reverse_hash;
	} else {
		/* A bucket after an element of the key's reverse hash sorts
		 * after it (buckets come first among equals): the end of
		 * cds_lfht_next_duplicate()'s untagged start. */
		if (*holder == reverse_hash)
			return 1;
		*holder = lfht_bucket_reverse_hash_(view, node);
	}
	if (*holder > reverse_hash)
		return 1;
	LFHT_WALK_MUTANT_(next);
	*word = next;
	return 0;
}

/*
 * The walk of lookups and cds_lfht_next_duplicate(): from the element
 * that word links to on (word held by an element of reverse hash holder),
 * the first live node whose reverse hash is reverse_hash and which match
 * accepts. It stops at the first element, of any kind, whose reverse hash
 * is larger, without loading it when the link's tag tells: the list is
 * sorted, so the walk never leaves the key's run.
 */
static inline void lfht_find_from_(struct cds_lfht_view_ *view, uintptr_t word,
				   unsigned long holder, unsigned long reverse_hash,
				   cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *found = NULL;
	int step;

	while ((step = lfht_walk_step_(view, &word, &holder, reverse_hash, match, key,
				       &found)) == 0)
		;
	iter->node = step == 2 ? found : NULL;
	iter->next = step == 2 ? lfht_ptr_(word) : NULL;
}

/* The lookup, inline so that the compiler can inline match. */
static inline void lfht_lookup_inline_(struct cds_lfht *ht, unsigned long hash,
				       cds_lfht_match_fct match, const void *key,
				       struct cds_lfht_iter *iter)
{
	struct cds_lfht_view_ *view = (struct cds_lfht_view_ *)(void *)ht;
	unsigned long holder, reverse_hash = lfht_reverse_bits_(hash);
	struct cds_lfht_node *bucket = lfht_view_bucket_(view, hash, reverse_hash, &holder);
	uintptr_t first;

	(void)lfht_load_next_(bucket, &first);
	lfht_find_from_(view, first, holder, reverse_hash, match, key, iter);
}

/* cds_lfht_next_duplicate(), inline for the same reason: the key's run
 * only, from the node iter is at (its successor as seen with it); the walk
 * stops at the first larger reverse hash, buckets and removed nodes
 * included. */
static inline void lfht_next_duplicate_inline_(struct cds_lfht *ht, cds_lfht_match_fct match,
					       const void *key, struct cds_lfht_iter *iter)
{
	if (iter->node)
		lfht_find_from_((struct cds_lfht_view_ *)(void *)ht, (uintptr_t)iter->next,
				iter->node->reverse_hash, iter->node->reverse_hash, match, key,
				iter);
}

/* Lookups in flight at once in lfht_lookup_batch_inline_(). */
#define LFHT_BATCH_WINDOW_ 16

/* Prefetches the node that word links to, both of its fields: a node
 * inside a user's structure may straddle two cache lines (at 56 bytes into
 * a line, for one in four of 16-byte aligned structures that hold it at
 * offset 8), and the step loads both. */
static inline void lfht_prefetch_node_(uintptr_t word)
{
	/* In integers: the end of the list (0) is prefetched too, which
	 * never faults, with no branch and no pointer arithmetic on NULL. */
	uintptr_t node = (uintptr_t)lfht_ptr_(word);

	__builtin_prefetch((const void *)node);
	__builtin_prefetch((const void *)(node + offsetof(struct cds_lfht_node, reverse_hash)));
}

/*
 * Up to LFHT_BATCH_WINDOW_ lookups stepped in turn, one element each per
 * round, each step prefetching the element the lookup visits next: the
 * cache misses of the lookups overlap instead of queueing. Each lookup
 * walks as lfht_find_from_() does and ends where it would.
 */
static inline void lfht_lookup_window_(struct cds_lfht_view_ *view,
				       struct cds_lfht_node *const *buckets,
				       const unsigned long *bucket_hashes, size_t m,
				       const unsigned long *reverse_hashes, cds_lfht_match_fct match,
				       const void *const *keys, struct cds_lfht_iter *iters)
{
	uintptr_t cur[LFHT_BATCH_WINDOW_];
	unsigned long holders[LFHT_BATCH_WINDOW_];
	unsigned long walking = 0;
	size_t k;

	for (k = 0; k < m; k++) {
		(void)lfht_load_next_(buckets[k], &cur[k]);
		holders[k] = bucket_hashes[k];
		lfht_prefetch_node_(cur[k]);
		walking |= 1UL << k;
	}
	while (walking) {
		for (k = 0; k < m; k++) {
			struct cds_lfht_node *found = NULL;
			int step;

			if (!(walking & (1UL << k)))
				continue;
			step = lfht_walk_step_(view, &cur[k], &holders[k], reverse_hashes[k], match,
					       keys[k], &found);
			if (step == 0) {
				lfht_prefetch_node_(cur[k]);
				continue;
			}
			iters[k].node = step == 2 ? found : NULL;
			iters[k].next = step == 2 ? lfht_ptr_(cur[k]) : NULL;
			walking &= ~(1UL << k);
		}
	}
}

static inline void lfht_lookup_batch_inline_(struct cds_lfht *ht, size_t n,
					     const unsigned long *hashes,
					     cds_lfht_match_fct match,
					     const void *const *keys,
					     struct cds_lfht_iter *iters)
{
	struct cds_lfht_view_ *view = (struct cds_lfht_view_ *)(void *)ht;
	struct cds_lfht_node *buckets[LFHT_BATCH_WINDOW_];
	unsigned long bucket_hashes[LFHT_BATCH_WINDOW_];
	unsigned long reverse_hashes[LFHT_BATCH_WINDOW_];

	for (size_t base = 0; base < n; base += LFHT_BATCH_WINDOW_) {
		size_t m = n - base < LFHT_BATCH_WINDOW_ ? n - base : LFHT_BATCH_WINDOW_;

		for (size_t k = 0; k < m; k++) {
			reverse_hashes[k] = lfht_reverse_bits_(hashes[base + k]);
			buckets[k] = lfht_view_bucket_(view, hashes[base + k], reverse_hashes[k],
						       &bucket_hashes[k]);
			__builtin_prefetch(buckets[k]);
		}
		lfht_lookup_window_(view, buckets, bucket_hashes, m, reverse_hashes, match,
				    keys + base, iters + base);
	}
}

#endif /* LFHT_LFHT_INLINE_H */
