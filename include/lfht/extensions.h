/* SPDX-License-Identifier: MIT */
/*
 * lfht/extensions.h - what lfht offers beyond the cds_lfht API: allocators
 * (per table, and a process-wide default; for embedding, and for tests
 * that inject allocation failures) and a look at a table's bucket count.
 */
#ifndef LFHT_EXTENSIONS_H
#define LFHT_EXTENSIONS_H

#include <stddef.h>

#include <lfht/lfht.h>

/*
 * Where every table gets its memory: the table itself, bucket tables,
 * counters. zalloc returns zero-filled memory aligned to at least 16 bytes,
 * or NULL; free receives the size that was asked for.
 */
struct lfht_allocator {
	void *(*zalloc)(size_t size, void *ctx);
	void (*free)(void *ptr, size_t size, void *ctx);
	void *ctx;
};

/*
 * Installs the default allocator for all tables created afterwards without
 * one of their own; NULL restores calloc/free. A table frees its memory
 * with the allocator it was created with. Not thread-safe against
 * concurrent table creation: set it at start-up.
 */
LFHT_API void lfht_set_allocator(const struct lfht_allocator *allocator);

/*
 * cds_lfht_new_flavour() with the table's own allocator (NULL: the
 * default), used for all of that table's memory: the table, its bucket
 * tables, its counters. The allocator object is copied. NULL with errno
 * EINVAL also when allocator lacks zalloc or free.
 */
LFHT_API struct cds_lfht *lfht_new_flavour_allocator(unsigned long init_size,
						     unsigned long min_nr_alloc_buckets,
						     unsigned long max_nr_buckets,
						     int flags, pthread_attr_t *attr,
						     const struct rcu_flavour *flavour,
						     const struct lfht_allocator *allocator);

#ifdef RCU_FLAVOUR_SELECTED
/* cds_lfht_new() with the table's own allocator (see above). */
static inline struct cds_lfht *lfht_new_with_allocator(unsigned long init_size,
						       unsigned long min_nr_alloc_buckets,
						       unsigned long max_nr_buckets,
						       int flags, pthread_attr_t *attr,
						       const struct lfht_allocator *allocator)
{
	return lfht_new_flavour_allocator(init_size, min_nr_alloc_buckets, max_nr_buckets,
					  flags, attr, &rcu_flavour, allocator);
}
#endif

/*
 * The table's current number of buckets (a power of two). Exact when no
 * resize runs; the caller must be a registered thread.
 */
LFHT_API unsigned long lfht_nr_buckets(struct cds_lfht *ht);

/*
 * n lookups at once: iters[i] receives what cds_lfht_lookup(ht, hashes[i],
 * match, keys[i], &iters[i]) would give, with the same RCU rule (inside a
 * read-side section) and the same ordering (each found node as by
 * rcu_dereference()). Any n, 0 included. The cache misses of the lookups
 * overlap (each lookup prefetches the node it visits next while the others
 * step), which is what makes it faster than n single lookups on tables
 * larger than the caches. Inline, so that match is inlined too.
 */
static inline void lfht_lookup_batch(struct cds_lfht *ht, size_t n, const unsigned long *hashes,
				     cds_lfht_match_fct match, const void *const *keys,
				     struct cds_lfht_iter *iters)
{
	lfht_lookup_batch_inline_(ht, n, hashes, match, keys, iters);
}

#endif /* LFHT_EXTENSIONS_H */
