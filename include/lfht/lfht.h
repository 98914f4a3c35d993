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
/* The lookup as an exported function (cds_lfht_lookup() is its inline
 * twin), for callers that need its address. */
LFHT_API void lfht_lookup(struct cds_lfht *ht, unsigned long hash,
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

/* The lookup, inline (so that the compiler can inline match), and what it
 * reads of a table: <lfht/lfht-inline.h>, not part of the API. */
#include <lfht/lfht-inline.h>

static inline void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
				   cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	lfht_lookup_inline_(ht, hash, match, key, iter);
}

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
