/* SPDX-License-Identifier: MIT */
/*
 * lfht/lfht-inline.h - the inline fast path of <lfht/lfht.h>: the lookup,
 * and what it reads of a table (the view at its start, the bucket
 * arithmetic, the flags of next words). Included by <lfht/lfht.h>; nothing
 * here is API, and names ending in '_' may change between versions. The
 * library's own files share these inlines (lfht/buckets.c, lfht/iter.c).
 */
#ifndef LFHT_LFHT_INLINE_H
#define LFHT_LFHT_INLINE_H

#ifndef LFHT_LFHT_H
#error "include <lfht/lfht.h>, not <lfht/lfht-inline.h>"
#endif

/*
 * What liblfht exports: every name carries the lfht_ prefix, so that a
 * process may also hold liburcu's cds_lfht (its functions are named
 * cds_lfht_*, which lfht's headers give as static inlines over these).
 */
LFHT_API struct cds_lfht *lfht_new_flavour(unsigned long init_size,
					       unsigned long min_nr_alloc_buckets,
					       unsigned long max_nr_buckets,
					       int flags, pthread_attr_t *attr,
					       const struct rcu_flavour *flavour);
LFHT_API int lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr);
LFHT_API void lfht_resize(struct cds_lfht *ht, unsigned long new_size);
LFHT_API void lfht_count_nodes(struct cds_lfht *ht, long *split_count_before,
				   unsigned long *count, long *split_count_after);
LFHT_API void lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match,
				      const void *key, struct cds_lfht_iter *iter);
LFHT_API void lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter);
LFHT_API void lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter);
LFHT_API void lfht_add(struct cds_lfht *ht, unsigned long hash,
			   struct cds_lfht_node *node);
LFHT_API struct cds_lfht_node *lfht_add_unique(struct cds_lfht *ht, unsigned long hash,
						   cds_lfht_match_fct match,
						   const void *key,
						   struct cds_lfht_node *node);
LFHT_API struct cds_lfht_node *lfht_add_replace(struct cds_lfht *ht, unsigned long hash,
						    cds_lfht_match_fct match,
						    const void *key,
						    struct cds_lfht_node *node);
LFHT_API int lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter,
			      unsigned long hash, cds_lfht_match_fct match,
			      const void *key, struct cds_lfht_node *new_node);
LFHT_API int lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node);
LFHT_API int lfht_is_node_deleted(const struct cds_lfht_node *node);
/* Aborts with "lfht: <call>: <rule>" unless the caller may read ht (QSBR:
 * registered and online; memb: inside rcu_read_lock()). */
LFHT_API void lfht_check_reader_(struct cds_lfht *ht, const char *call);

/* The debug check of the inline lookups: nothing without RCU_DEBUG_CHECKS. */
#ifdef RCU_DEBUG_CHECKS
static inline void lfht_debug_reader_(struct cds_lfht *ht, const char *call)
{
	lfht_check_reader_(ht, call);
}
#else
static inline void lfht_debug_reader_(struct cds_lfht *ht, const char *call)
{
	(void)ht;
	(void)call;
}
#endif

/*
 * Flags in the low bits of cds_lfht_node.next describe the node that holds
 * the word: REMOVED (logically deleted: the word is frozen from then on),
 * BUCKET (a bucket node, never handed to the user), REMOVAL_OWNER (set in
 * the same atomic step as REMOVED by the one del or replace that won).
 */
enum {
	LFHT_REMOVED_ = 1,
	LFHT_BUCKET_ = 2,
	LFHT_REMOVAL_OWNER_ = 4,
	LFHT_FLAGS_ = 7,
};

struct cds_lfht_view_ {
	/* Bucket count, a power of two; stored with release after every
	 * bucket node it covers is linked. */
	RCU_ATOMIC_(unsigned long) size;
	/* orders[j]: bucket nodes 2^(j-1) .. 2^j - 1 (orders[0]: bucket 0).
	 * A new array is published before the size that needs it. */
	RCU_ATOMIC_(RCU_ATOMIC_(struct cds_lfht_node *) *) orders;
};

#if ULONG_MAX > 0xffffffffUL
#define LFHT_LONG_BITS_ 64
#else
#define LFHT_LONG_BITS_ 32
#endif

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

	return lfht_table_bucket_(table, index - ((1UL << order) >> 1));
}

/* Where a search for hash starts: its bucket, and that bucket's reverse
 * hash in *reverse_hash. */
static inline struct cds_lfht_node *lfht_view_bucket_(struct cds_lfht_view_ *view,
						      unsigned long hash,
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
	unsigned long index = hash & (size - 1);

	*reverse_hash = lfht_reverse_bits_(index);
	return lfht_bucket_in_(orders, index);
}

/*
 * Tagged links. On 64-bit builds (unless LFHT_UNTAGGED_LINKS, the build
 * option tagged_links=false) the top 16 bits of a next word, the tag, say
 * where the reverse hash of the element it links to (S, a node or a
 * bucket) leaves that of the word's holder (H): d + 1 in the top 6 bits,
 * where S and H share their top d bits and S has the next one set (the
 * list is sorted: H < S), then the 10 bits of S that follow it. A walk
 * that knows H and its key K learns that S sorts after K without loading
 * S. A tag of 0 tells nothing (H == S, d > 62, or a pointer without one,
 * as an iterator keeps).
 *
 * A tag is never more than a lower bound: decoded from its holder, it
 * gives a value <= S's reverse hash, exact when written from the holder
 * (lfht_tag_()) and a lower bound when copied from an earlier holder
 * (decoding from a later holder H' <= S keeps every bit H' shares with
 * S). So a walk that stops on a tag never stops early.
 *
 * Linux keeps user addresses below 2^48 on x86-64, aarch64 and ppc64le
 * unless a program maps memory above on purpose; the library refuses a
 * node or bucket table above (lfht/table.c, lfht/buckets.c).
 */
#if LFHT_LONG_BITS_ == 64 && !defined(LFHT_UNTAGGED_LINKS)
#define LFHT_TAG_SHIFT_ 48
#define LFHT_TAG_MASK_ (~(uintptr_t)0 << LFHT_TAG_SHIFT_)
#else
#define LFHT_TAG_SHIFT_ 0
#define LFHT_TAG_MASK_ ((uintptr_t)0)
#endif

#if LFHT_TAG_SHIFT_
/* The tag of a link from a holder of reverse hash holder to an element of
 * reverse hash element (>= holder), shifted into place. */
static inline uintptr_t lfht_tag_(unsigned long holder, unsigned long element)
{
	unsigned long diff = holder ^ element;
	unsigned d;

	if (!diff)
		return 0;
	d = (unsigned)__builtin_clzl(diff);
	if (d == 63)
		return 0;
	/* d + 1 above the 10 bits of element after its differing bit. */
	return (uintptr_t)(((unsigned long)(d + 1) << 10) | ((element << (d + 1)) >> 54))
	       << LFHT_TAG_SHIFT_;
}

/*
 * Whether the element that word links to sorts after reverse hash key,
 * read from the tag alone (0 when the tag cannot tell); holder is the
 * reverse hash of the element holding word. With d and the 10 bits b from
 * the tag: S shares H's top d bits, so if K does too, S > K as soon as S's
 * next 11 bits, 1 then b, exceed K's.
 */
static inline int lfht_tag_after_(uintptr_t word, unsigned long holder, unsigned long key)
{
	unsigned long tag = (unsigned long)(word >> LFHT_TAG_SHIFT_);
	unsigned d;

	if (!(tag >> 10))
		return 0;
	d = (unsigned)(tag >> 10) - 1;
	return ((holder ^ key) >> (63 - d) >> 1) == 0 &&
	       ((tag & 0x3ffUL) | 0x400UL) > ((key << d) >> 53);
}
#else
static inline uintptr_t lfht_tag_(unsigned long holder, unsigned long element)
{
	(void)holder;
	(void)element;
	return 0;
}

static inline int lfht_tag_after_(uintptr_t word, unsigned long holder, unsigned long key)
{
	(void)word;
	(void)holder;
	(void)key;
	return 0;
}
#endif

/* A link from a holder of reverse hash holder to element (NULL: the end),
 * of reverse hash element_rh, without flags. */
static inline uintptr_t lfht_link_to_(unsigned long holder, const struct cds_lfht_node *element,
				      unsigned long element_rh)
{
	return element ? (uintptr_t)element | lfht_tag_(holder, element_rh) : 0;
}

/* A link from a holder of reverse hash holder to node, a node. */
static inline uintptr_t lfht_link_(unsigned long holder, const struct cds_lfht_node *node)
{
	return lfht_link_to_(holder, node, node ? node->reverse_hash : 0);
}

static inline struct cds_lfht_node *lfht_ptr_(uintptr_t word)
{
	return (struct cds_lfht_node *)(word & ~(LFHT_TAG_MASK_ | (uintptr_t)LFHT_FLAGS_));
}

/* The reverse hash of a bucket: its index's, found by its place in the
 * table's bucket tables (lfht/buckets.c). A walk needs it only when it
 * goes past a bucket, which a tag does not settle: a bucket of a larger
 * order than the walk's size (a grow or a shrink in progress), or one an
 * iterator's untagged pointer leads to. */
LFHT_API unsigned long lfht_bucket_reverse_hash_(struct cds_lfht_view_ *view,
						  const struct cds_lfht_node *bucket);

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
	return !(*next & (LFHT_REMOVED_ | LFHT_BUCKET_));
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
	} else if (!(next & LFHT_BUCKET_)) {
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
	unsigned long holder;
	struct cds_lfht_node *bucket = lfht_view_bucket_(view, hash, &holder);
	uintptr_t first;

	(void)lfht_load_next_(bucket, &first);
	lfht_find_from_(view, first, holder, lfht_reverse_bits_(hash), match, key, iter);
}

/* Lookups in flight at once in lfht_lookup_batch_inline_(). */
#define LFHT_BATCH_WINDOW_ 16

/*
 * Up to LFHT_BATCH_WINDOW_ lookups stepped in turn, one element each per
 * round, each step prefetching the element the lookup visits next: the
 * cache misses of the lookups overlap instead of queueing. Each lookup
 * walks as lfht_find_from_() does and ends where it would.
 */
static inline void lfht_lookup_window_(struct cds_lfht_view_ *view,
				       struct cds_lfht_node *const *buckets,
				       const unsigned long *bucket_hashes, size_t m,
				       const unsigned long *hashes, cds_lfht_match_fct match,
				       const void *const *keys, struct cds_lfht_iter *iters)
{
	uintptr_t cur[LFHT_BATCH_WINDOW_];
	unsigned long holders[LFHT_BATCH_WINDOW_];
	unsigned long reverse_hashes[LFHT_BATCH_WINDOW_];
	unsigned long walking = 0;
	size_t k;

	for (k = 0; k < m; k++) {
		(void)lfht_load_next_(buckets[k], &cur[k]);
		holders[k] = bucket_hashes[k];
		__builtin_prefetch(lfht_ptr_(cur[k]));
		reverse_hashes[k] = lfht_reverse_bits_(hashes[k]);
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
				__builtin_prefetch(lfht_ptr_(cur[k]));
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

	for (size_t base = 0; base < n; base += LFHT_BATCH_WINDOW_) {
		size_t m = n - base < LFHT_BATCH_WINDOW_ ? n - base : LFHT_BATCH_WINDOW_;

		for (size_t k = 0; k < m; k++) {
			buckets[k] = lfht_view_bucket_(view, hashes[base + k], &bucket_hashes[k]);
			__builtin_prefetch(buckets[k]);
		}
		lfht_lookup_window_(view, buckets, bucket_hashes, m, hashes + base, match,
				    keys + base, iters + base);
	}
}

#endif /* LFHT_LFHT_INLINE_H */
