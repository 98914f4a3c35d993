/* SPDX-License-Identifier: MIT */
/**
 * \file
 * \brief What lfht offers beyond the `cds_lfht` API: allocators (per table,
 * and a process-wide default; for embedding, and for tests that inject
 * allocation failures), the bucket density of auto-resized tables, and a
 * look at a table's bucket count.
 */
#ifndef LFHT_EXTENSIONS_H
#define LFHT_EXTENSIONS_H

#include <stddef.h>

#include <lfht/lfht.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * \brief Where a table gets its memory: the table itself, its bucket
 * tables, its counters (never the user's entries).
 *
 * Given to one table by lfht_new_with_allocator() or
 * lfht_new_flavour_allocator(), or installed for the tables created
 * afterwards without one of their own by lfht_set_allocator().
 */
struct lfht_allocator {
	/** Returns `size` zero-filled bytes aligned to at least 16, or NULL (the
	 * table call then fails with ENOMEM). Called with #ctx. */
	void *(*zalloc)(size_t size, void *ctx);
	/** Frees memory from #zalloc; receives the size that was asked for and
	 * #ctx. */
	void (*free)(void *ptr, size_t size, void *ctx);
	/** Passed unchanged to both functions. */
	void *ctx;
};

/**
 * \brief Installs the default allocator: the one used by every table
 * created afterwards without an allocator of its own.
 * \param allocator The allocator (copied), or NULL for the built-in default
 * (calloc() and free()).
 *
 * A table frees its memory with the allocator it was created with, so
 * tables created before the call are not affected.
 * \rcustate No requirement.
 * \ordering None (a plain store): not safe against a concurrent table
 * creation. Install it at start-up, before the threads that create tables
 * start, or publish it to them yourself.
 */
LFHT_API void lfht_set_allocator(const struct lfht_allocator *allocator);

/**
 * \brief cds_lfht_new_flavour() with the table's own allocator.
 * \param init_size As for cds_lfht_new().
 * \param min_nr_alloc_buckets As for cds_lfht_new().
 * \param max_nr_buckets As for cds_lfht_new().
 * \param flags As for cds_lfht_new().
 * \param attr As for cds_lfht_new().
 * \param flavour As for cds_lfht_new_flavour().
 * \param allocator The allocator (copied) for all of this table's memory:
 * the table, its bucket tables, its counters; NULL for the default (see
 * lfht_set_allocator()).
 * \return The table, or NULL with errno set: as cds_lfht_new_flavour(), and
 * EINVAL when \p allocator lacks `zalloc` or `free`, ENOMEM when its
 * `zalloc` returns NULL.
 *
 * The shared resize worker, which outlives tables, is not allocated with it.
 * \rcustate As cds_lfht_new(): any thread, registered or not.
 * \ordering As cds_lfht_new().
 */
LFHT_API struct cds_lfht *lfht_new_flavour_allocator(unsigned long init_size,
						     unsigned long min_nr_alloc_buckets,
						     unsigned long max_nr_buckets,
						     int flags, pthread_attr_t *attr,
						     const struct rcu_flavour *flavour,
						     const struct lfht_allocator *allocator);

#ifdef RCU_FLAVOUR_SELECTED
/**
 * \brief cds_lfht_new() with the table's own allocator, for the flavour
 * whose header was included.
 * \param init_size As for cds_lfht_new().
 * \param min_nr_alloc_buckets As for cds_lfht_new().
 * \param max_nr_buckets As for cds_lfht_new().
 * \param flags As for cds_lfht_new().
 * \param attr As for cds_lfht_new().
 * \param allocator As for lfht_new_flavour_allocator().
 * \return As lfht_new_flavour_allocator().
 *
 * \rcustate As cds_lfht_new(): any thread, registered or not.
 * \ordering As cds_lfht_new().
 */
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

/* The density field of cds_lfht_new()'s flags (bits 8 to 12), not API:
 * LFHT_BUCKETS_PER_NODE() writes it, cds_lfht_new() reads it. */
#define LFHT_DENSITY_GIVEN_ (1 << 12)
#define LFHT_DENSITY_SHIFT_ 8
#define LFHT_DENSITY_MASK_ (0xf << LFHT_DENSITY_SHIFT_)

/* A flag of cds_lfht_new() that the liburcu layer (<urcu/rculfhash.h>)
 * sets on each table it makes, not API: the debug checks hold the table's
 * callers to liburcu's rules, under which a thread that alone reaches the
 * table (tearing it down) looks it up, walks and empties it outside any
 * read-side section: such calls are not reported. */
#define LFHT_URCU_RULES_ (1 << 13)

/**
 * \brief A flag for cds_lfht_new(): an auto-resized table keeps at least
 * \p n buckets per node.
 * \param n 1, 2, 4 or 8: buckets per node that #CDS_LFHT_AUTO_RESIZE
 * keeps (1 is the default, the table without this flag). A constant
 * expression when \p n is one; \p n is evaluated more than once.
 * \return A flag to or with the others; with any other \p n,
 * cds_lfht_new() returns NULL with errno EINVAL.
 *
 * A hit costs the bucket's line, the object's line, and half the other
 * nodes of its chain: about 2 + a/2 dependent cache misses at a load of a
 * nodes per bucket, and auto-resize keeps a between 1/(2n) and 1/n. A bucket is
 * 8 bytes, so the table spends 8n to 16n bytes of buckets per entry for
 * it (docs/resizing.md: the lookups each density buys). The table grows
 * once it holds more than one node per n buckets, to n to 2n buckets per
 * node, and (with #CDS_LFHT_ACCOUNTING) shrinks below one node per 4n
 * buckets; growth never waits for a grace period, and a table that cannot
 * get the memory for its next order stays correct at a higher load.
 * \p min_nr_alloc_buckets, \p max_nr_buckets and \p init_size keep
 * their meaning (bucket counts); cds_lfht_resize() sets the size asked.
 * Without #CDS_LFHT_AUTO_RESIZE the flag is accepted and changes nothing.
 * \rcustate None: a constant for cds_lfht_new(), which says where it may
 * be called.
 * \ordering None.
 */
#define LFHT_BUCKETS_PER_NODE(n)					\
	((int)(LFHT_DENSITY_GIVEN_ |					\
	       ((n) >= 1 && (n) <= 8 ? (int)(n) << LFHT_DENSITY_SHIFT_ : 0)))

/**
 * \brief The fewest buckets an automatic grow goes to, and where an
 * automatic shrink stops: 4 KiB of bucket words.
 *
 * Within the table's \p min_nr_alloc_buckets and \p max_nr_buckets, a
 * #CDS_LFHT_AUTO_RESIZE table that grows grows to this many buckets at
 * least, and a shrink leaves it this many (a table that never needs to
 * grow keeps its initial size). In a smaller table the bucket words of its
 * keys share a few cache lines, 8 to a line, and while readers and
 * updaters run on different CPUs each update that links or unlinks the
 * first node of a bucket takes a line from the readers' caches:
 * docs/resizing.md. cds_lfht_resize() sets any size.
 * \rcustate None: a constant.
 * \ordering None.
 */
#define LFHT_RESIZE_FLOOR 512UL

/**
 * \brief The table's current number of buckets (a power of two).
 * \param ht The table.
 * \return The bucket count; exact when no resize is running.
 *
 * \rcustate Registered thread.
 * \ordering An acquire read of the bucket count, so the buckets it covers
 * are initialised.
 */
LFHT_API unsigned long lfht_nr_buckets(struct cds_lfht *ht);

/**
 * \brief Bytes of bucket tables that lfht holds outside the allocator,
 * process-wide.
 * \return The bytes, at this moment.
 *
 * A table made with the default allocator that grows past 512 buckets
 * keeps its larger bucket tables in a region of address space of its own
 * (docs/resizing.md), which malloc's statistics do not see: add this to
 * them to account for every table's memory. Tables with an allocator of
 * their own (lfht_new_with_allocator(), lfht_set_allocator()) allocate
 * every bucket table through it and add nothing here.
 *
 * \rcustate None: any thread, registered or not.
 * \ordering None (a statistic).
 */
LFHT_API unsigned long lfht_region_bytes(void);

/**
 * \brief n lookups at once, their cache misses overlapped.
 * \param ht The table.
 * \param n How many lookups; any number, 0 included.
 * \param hashes The hash of each key (n of them).
 * \param match The key comparison, as for cds_lfht_lookup().
 * \param keys The keys (n of them), each passed to match.
 * \param iters Receives, at i, what cds_lfht_lookup(ht, hashes[i], match,
 * keys[i], &iters[i]) would give.
 *
 * Up to 16 lookups are stepped in turn, one node each, each prefetching the
 * node it visits next, so that on a table larger than the caches their
 * memory latencies overlap instead of adding up. Inline, so that match is
 * inlined too.
 *
 * \rcustate Registered thread, inside a read-side critical section, as for
 * cds_lfht_lookup().
 * \ordering As cds_lfht_lookup(), for each node found.
 */
static inline void lfht_lookup_batch(struct cds_lfht *ht, size_t n, const unsigned long *hashes,
				     cds_lfht_match_fct match, const void *const *keys,
				     struct cds_lfht_iter *iters)
{
	lfht_debug_reader_(ht, "lfht_lookup_batch");
	lfht_lookup_batch_inline_(ht, n, hashes, match, keys, iters);
}

/**
 * \brief Removes a node by its key: cds_lfht_lookup() and cds_lfht_del()
 * in one walk.
 * \param ht The table.
 * \param hash The key's hash.
 * \param match The key comparison, as for cds_lfht_lookup().
 * \param key The key, passed to match.
 * \return The node removed: the first node with the key, the one
 * cds_lfht_lookup() finds; NULL when the table has none (or every node with
 * the key was removed by racing calls before this one removed it).
 *
 * The walk that finds the node also removes it: the node's removal commits
 * on the word the walk read, and the unlink goes on the word that links
 * to it, where cds_lfht_lookup() then cds_lfht_del() walk the chain twice.
 * Free the node returned as after cds_lfht_del(): once a grace period has
 * passed (call_rcu(), rcu_retire(), synchronize_rcu()).
 *
 * \rcustate Registered thread, inside a read-side critical section, as
 * cds_lfht_del().
 * \ordering As cds_lfht_del(): a full memory barrier before and after the
 * removal's commit when it returns a node; none when it returns NULL.
 */
LFHT_API struct cds_lfht_node *lfht_del_key(struct cds_lfht *ht, unsigned long hash,
					   cds_lfht_match_fct match, const void *key);

#ifdef __cplusplus
}
#endif

#endif /* LFHT_EXTENSIONS_H */
