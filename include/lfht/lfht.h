/* SPDX-License-Identifier: MIT */
/*
 * lfht/lfht.h - RCU-protected, lock-free, resizable hash table (the cds_lfht
 * API). Include a flavour header (<rcu/qsbr.h> or <rcu/memb.h>) first: the
 * table then uses that flavour. liblfht itself is flavour-agnostic.
 */
#ifndef LFHT_LFHT_H
#define LFHT_LFHT_H

#include <limits.h>
#include <pthread.h>
#include <stdint.h>

#include <rcu/atomic.h>
#include <rcu/flavour.h>

#if defined(__GNUC__) || defined(__clang__)
#define LFHT_API __attribute__((visibility("default")))
#else
#define LFHT_API
#endif

/*
 * The node a user embeds in each entry: two words. next holds the successor
 * with flags in its low three bits (hence the alignment); reverse_hash is the
 * bit-reversed hash, the list's sort key. Both belong to the table.
 */
struct cds_lfht_node {
	_Alignas(8) _Atomic(uintptr_t) next;
	unsigned long reverse_hash;
};

/* Traversal state: the current node and the successor seen with it. */
struct cds_lfht_iter {
	struct cds_lfht_node *node, *next;
};

struct cds_lfht;

/* Returns non-zero when key matches the entry that holds node. */
typedef int (*cds_lfht_match_fct)(struct cds_lfht_node *node, const void *key);

enum {
	CDS_LFHT_AUTO_RESIZE = (1U << 0),
	CDS_LFHT_ACCOUNTING = (1U << 1),
};

static inline void cds_lfht_node_init(struct cds_lfht_node *node)
{
	(void)node;
}

static inline struct cds_lfht_node *cds_lfht_iter_get_node(struct cds_lfht_iter *iter)
{
	return iter->node;
}

/* The constructor behind cds_lfht_new(), for a given flavour. */
LFHT_API struct cds_lfht *cds_lfht_new_flavour(unsigned long init_size,
					       unsigned long min_nr_alloc_buckets,
					       unsigned long max_nr_buckets,
					       int flags, pthread_attr_t *attr,
					       const struct rcu_flavour *flavour);

#ifdef RCU_FLAVOUR_SELECTED
/*
 * A new table using the flavour whose header was included. May be called
 * before any thread is registered. NULL with errno EINVAL for a size that is
 * not a power of two, ENOMEM when memory runs out, or (CDS_LFHT_AUTO_RESIZE)
 * pthread_create()'s error when the resize worker cannot be started.
 *
 * attr (or NULL) is used for exactly the threads that run this table's
 * resizes: the resize worker, one thread shared by every CDS_LFHT_AUTO_RESIZE
 * table of the same flavour and the same attr pointer (created by the first
 * such cds_lfht_new(), stopped by the destroy of the last), and the helper
 * threads that split a large resize of this table. It must stay valid until
 * cds_lfht_destroy(), which hands it back. Updates never wait for the worker:
 * they flag the table and wake it, lock-free. The worker survives fork(): in
 * the child it is started again.
 */
static inline struct cds_lfht *cds_lfht_new(unsigned long init_size,
					    unsigned long min_nr_alloc_buckets,
					    unsigned long max_nr_buckets,
					    int flags, pthread_attr_t *attr)
{
	return cds_lfht_new_flavour(init_size, min_nr_alloc_buckets,
				    max_nr_buckets, flags, attr, &rcu_flavour);
}
#endif

LFHT_API int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr);
LFHT_API void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size);
LFHT_API void cds_lfht_count_nodes(struct cds_lfht *ht, long *split_count_before,
				   unsigned long *count, long *split_count_after);
LFHT_API void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
			      cds_lfht_match_fct match, const void *key,
			      struct cds_lfht_iter *iter);
LFHT_API void cds_lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match,
				      const void *key, struct cds_lfht_iter *iter);
LFHT_API void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter);
LFHT_API void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter);
LFHT_API void cds_lfht_add(struct cds_lfht *ht, unsigned long hash,
			   struct cds_lfht_node *node);
LFHT_API struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht, unsigned long hash,
						   cds_lfht_match_fct match,
						   const void *key,
						   struct cds_lfht_node *node);
LFHT_API struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht, unsigned long hash,
						    cds_lfht_match_fct match,
						    const void *key,
						    struct cds_lfht_node *node);
LFHT_API int cds_lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter,
			      unsigned long hash, cds_lfht_match_fct match,
			      const void *key, struct cds_lfht_node *new_node);
LFHT_API int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node);
LFHT_API int cds_lfht_is_node_deleted(const struct cds_lfht_node *node);

/*
 * ---- Internal, do not touch -------------------------------------------------
 * What the inline lookup below reads: a table begins with this view. Nothing
 * here is part of the API; names ending in '_' may change between versions.
 *
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
	_Atomic(unsigned long) size;
	/* orders[j]: bucket nodes 2^(j-1) .. 2^j - 1 (orders[0]: bucket 0).
	 * A new array is published before the size that needs it. */
	_Atomic(_Atomic(struct cds_lfht_node *) *) orders;
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

/* The bucket node where a search for hash starts. */
static inline struct cds_lfht_node *lfht_view_bucket_(struct cds_lfht_view_ *view,
						      unsigned long hash)
{
	/* Acquire: pairs with the release stores of size in resize_grow()
	 * (lfht/resize.c): every bucket below size is initialised and linked
	 * (and in resize_shrink(): buckets below the lowered size stay so). */
	unsigned long size = rcu_atomic_load(&view->size, memory_order_acquire);
	/* Acquire: pairs with the release store of view.orders in
	 * lfht_orders_reserve() (lfht/buckets.c), which comes before the size
	 * store that needs the larger array, so this load sees that array. */
	_Atomic(struct cds_lfht_node *) *orders =
		rcu_atomic_load(&view->orders, memory_order_acquire);
	unsigned long index = hash & (size - 1);
	unsigned order = lfht_order_of_index_(index);
	/* Relaxed: lfht_order_publish() stored the entry before the release
	 * store of size that the acquire load above read. */
	struct cds_lfht_node *table =
		rcu_atomic_load(&orders[order], memory_order_relaxed);

	return table + (index - ((1UL << order) >> 1));
}

/* Counts one node visited by a read walk; test builds of the library
 * define it (tests/test_hooks.c). */
#ifndef LFHT_VISIT_HOOK_
#define LFHT_VISIT_HOOK_() ((void)0)
#endif

/*
 * The read walk shared by lookups and cds_lfht_next_duplicate(): from node
 * on, the first node that is neither a bucket nor removed, whose reverse
 * hash is reverse_hash and which match accepts. It stops at the first node,
 * of any kind, whose reverse hash is larger: the list is sorted, so the
 * walk never leaves the key's run.
 */
static inline void lfht_find_from_(struct cds_lfht_node *node, unsigned long reverse_hash,
				   cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	uintptr_t next = 0;

	for (; node != NULL; node = (struct cds_lfht_node *)(next & ~(uintptr_t)LFHT_FLAGS_)) {
		LFHT_VISIT_HOOK_();
		if (node->reverse_hash > reverse_hash) {
			node = NULL;
			break;
		}
		/* Acquire: the rcu_dereference of the list; pairs with the CAS
		 * that stored the word: the seq_cst commits of lfht_list_add()
		 * and cds_lfht_replace(), the release CASes of
		 * lfht_list_add_bucket() and list_help_unlink() (lfht/list.c),
		 * so the node it points at has its fields visible. */
		next = rcu_atomic_load(&node->next, memory_order_acquire);
		if (!(next & (LFHT_REMOVED_ | LFHT_BUCKET_)) &&
		    node->reverse_hash == reverse_hash && match(node, key))
			break;
	}
	iter->node = node;
	iter->next = node ? (struct cds_lfht_node *)(next & ~(uintptr_t)LFHT_FLAGS_) : NULL;
}

/* The lookup, inline so that the compiler can inline match. */
static inline void lfht_lookup_inline_(struct cds_lfht *ht, unsigned long hash,
				       cds_lfht_match_fct match, const void *key,
				       struct cds_lfht_iter *iter)
{
	struct cds_lfht_node *bucket =
		lfht_view_bucket_((struct cds_lfht_view_ *)(void *)ht, hash);
	/* Acquire: as in lfht_find_from_(), for the bucket's successor. */
	uintptr_t first = rcu_atomic_load(&bucket->next, memory_order_acquire);

	lfht_find_from_((struct cds_lfht_node *)(first & ~(uintptr_t)LFHT_FLAGS_),
			lfht_reverse_bits_(hash), match, key, iter);
}

/* Calls go to the inline version; &cds_lfht_lookup is the exported one. */
#define cds_lfht_lookup(ht, hash, match, key, iter)			\
	lfht_lookup_inline_((ht), (hash), (match), (key), (iter))

/* ---- end of internals ------------------------------------------------------ */

#define cds_lfht_for_each(ht, iter, node)				\
	for (cds_lfht_first(ht, iter),					\
		     node = cds_lfht_iter_get_node(iter);		\
	     node != NULL;						\
	     cds_lfht_next(ht, iter),					\
		     node = cds_lfht_iter_get_node(iter))

#define cds_lfht_for_each_duplicate(ht, hash, match, key, iter, node)	\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
		     node = cds_lfht_iter_get_node(iter);		\
	     node != NULL;						\
	     cds_lfht_next_duplicate(ht, match, key, iter),		\
		     node = cds_lfht_iter_get_node(iter))

/* The entry holding the iterator's node, or NULL at the end (no arithmetic
 * on a null pointer). */
#define cds_lfht_iter_entry_(iter, pos, member)			\
	(cds_lfht_iter_get_node(iter) ?					\
	 caa_container_of(cds_lfht_iter_get_node(iter),			\
			  __typeof__(*(pos)), member) : NULL)

#define cds_lfht_for_each_entry(ht, iter, pos, member)			\
	for (cds_lfht_first(ht, iter),					\
		     pos = cds_lfht_iter_entry_(iter, pos, member);	\
	     pos != NULL;						\
	     cds_lfht_next(ht, iter),					\
		     pos = cds_lfht_iter_entry_(iter, pos, member))

#define cds_lfht_for_each_entry_duplicate(ht, hash, match, key,	\
					  iter, pos, member)		\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
		     pos = cds_lfht_iter_entry_(iter, pos, member);	\
	     pos != NULL;						\
	     cds_lfht_next_duplicate(ht, match, key, iter),		\
		     pos = cds_lfht_iter_entry_(iter, pos, member))

#endif /* LFHT_LFHT_H */
