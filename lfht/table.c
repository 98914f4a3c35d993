/* SPDX-License-Identifier: MIT */
/*
 * lfht/table.c - the public entry points: new/destroy (with the default,
 * process-wide allocator), the updates, count_nodes.
 *
 * Owns struct cds_lfht's lifetime and the process-wide allocator. The
 * entry points are thin: they call list.c (the updates), iter.c (the
 * walks), count.c (the counting), resize.c (the triggers), worker.c (the
 * shared worker), buckets.c (the bucket tables).
 *
 * Invariant: a table never calls RCU before cds_lfht_new returns (it may be
 * created before any thread registers); every allocation of the table's
 * own memory goes through the allocator recorded in the table (the shared
 * worker, which outlives tables, is malloc'ed).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "internal.h"

/* ---- allocator ------------------------------------------------------------ */

static void *default_zalloc(size_t size, void *ctx)
{
	(void)ctx;
	return calloc(1, size);
}

static void default_free(void *ptr, size_t size, void *ctx)
{
	(void)size;
	(void)ctx;
	free(ptr);
}

static const struct lfht_allocator default_allocator = {
	.zalloc = default_zalloc,
	.free = default_free,
	.ctx = NULL,
};

/* Documented as set while no table exists: a plain copy suffices. */
static struct lfht_allocator current_allocator = {
	.zalloc = default_zalloc,
	.free = default_free,
	.ctx = NULL,
};

void lfht_set_allocator(const struct lfht_allocator *allocator)
{
	current_allocator = allocator ? *allocator : default_allocator;
}

/* ---- new / destroy -------------------------------------------------------- */

static bool is_pow2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/* The density field of flags (LFHT_BUCKETS_PER_NODE()): false unless it is
 * absent (shift 0) or names 1, 2, 4 or 8 buckets per node. */
static bool density_shift_of(int flags, unsigned *shift)
{
	unsigned n = ((unsigned)flags & LFHT_DENSITY_MASK_) >> LFHT_DENSITY_SHIFT_;

	*shift = 0;
	if (!(flags & LFHT_DENSITY_GIVEN_))
		return n == 0;
	if (n > 8 || !is_pow2(n))
		return false;
	*shift = lfht_log2(n);
	return true;
}

/* Frees ht, or (in a call_rcu callback, with replaced orders arrays still
 * queued) leaves its last free to the last of their callbacks. */
static void table_free(struct cds_lfht *ht)
{
	lfht_worker_detach(ht);
	lfht_counters_destroy(ht);
	lfht_orders_destroy(ht);
}

/* Links the initial buckets; nothing else sees the table yet. */
static int table_populate(struct cds_lfht *ht, unsigned long init_size)
{
	for (unsigned order = 1; order <= lfht_log2(init_size); order++) {
		struct cds_lfht_node *table = lfht_order_alloc(ht, order);
		unsigned long len = lfht_order_len_(order);

		if (!table)
			return -ENOMEM;
		lfht_order_publish(ht, order, table);
		for (unsigned long i = 0; i < len; i++)
			lfht_list_add_bucket(ht, len + i);
	}
	/* Relaxed: published to other threads by whatever hands them ht
	 * (the caller's own synchronization), as are the buckets. */
	rcu_atomic_store(&ht->view.size, init_size, memory_order_relaxed);
	return 0;
}

struct cds_lfht *lfht_new_flavour_allocator(unsigned long init_size,
					   unsigned long min_nr_alloc_buckets,
					   unsigned long max_nr_buckets,
					   int flags, pthread_attr_t *attr,
					   const struct rcu_flavour *flavour,
					   const struct lfht_allocator *allocator)
{
	struct lfht_allocator alloc = allocator ? *allocator : current_allocator;
	struct cds_lfht *ht;
	unsigned density_shift;

	if (!flavour || (allocator && (!allocator->zalloc || !allocator->free)) ||
	    !density_shift_of(flags, &density_shift) ||
	    !is_pow2(init_size) || !is_pow2(min_nr_alloc_buckets) ||
	    (max_nr_buckets && !is_pow2(max_nr_buckets)) ||
	    (max_nr_buckets && max_nr_buckets < min_nr_alloc_buckets)) {
		errno = EINVAL;
		return NULL;
	}
	if (!max_nr_buckets || max_nr_buckets > 1UL << LFHT_MAX_ORDER)
		max_nr_buckets = 1UL << LFHT_MAX_ORDER;
	if (min_nr_alloc_buckets > max_nr_buckets)
		min_nr_alloc_buckets = max_nr_buckets;
	if (init_size < min_nr_alloc_buckets)
		init_size = min_nr_alloc_buckets;
	if (init_size > max_nr_buckets)
		init_size = max_nr_buckets;

	ht = alloc.zalloc(sizeof(*ht), alloc.ctx);
	/* Bucket 0 lies in ht: above 2^48 no link could hold it
	 * (require_linkable()), which is memory the table cannot use. */
	if (ht && !lfht_below_tag_(ht, sizeof(*ht))) {
		alloc.free(ht, sizeof(*ht), alloc.ctx);
		ht = NULL;
	}
	if (!ht) {
		errno = ENOMEM;
		return NULL;
	}
	ht->alloc = alloc;
	ht->flavour = flavour;
	ht->min_nr_alloc_buckets = min_nr_alloc_buckets;
	ht->max_nr_buckets = max_nr_buckets;
	ht->attr = attr;
	ht->flags = flags;
	ht->density_shift = density_shift;
	/* A bucket region (region.c) holds memory outside any allocator the
	 * user gave, so only tables with the default one take it. */
	ht->region_allowed = alloc.zalloc == default_zalloc && LFHT_LONG_BITS_ == 64;
	/* Relaxed: nothing else sees the table yet. */
	rcu_atomic_store(&ht->bucket0.next, lfht_as_bucket_(0), memory_order_relaxed);
	rcu_atomic_store(&ht->view.size, 1UL, memory_order_relaxed);
	if (lfht_orders_init(ht, init_size) ||
	    ((flags & CDS_LFHT_ACCOUNTING) && lfht_counters_create(ht)) ||
	    table_populate(ht, init_size)) {
		table_free(ht);
		errno = ENOMEM;
		return NULL;
	}
	/* Last: once attached, the worker may look at the table. An attr
	 * with which no thread can be created is refused here, not found
	 * out at the first resize. */
	if (flags & CDS_LFHT_AUTO_RESIZE) {
		int err = lfht_worker_attach(ht);

		if (err) {
			table_free(ht);
			errno = err;
			return NULL;
		}
	}
	return ht;
}

struct cds_lfht *lfht_new_flavour(unsigned long init_size,
				  unsigned long min_nr_alloc_buckets,
				  unsigned long max_nr_buckets,
				  int flags, pthread_attr_t *attr,
				  const struct rcu_flavour *flavour)
{
	return lfht_new_flavour_allocator(init_size, min_nr_alloc_buckets, max_nr_buckets,
					  flags, attr, flavour, NULL);
}

int lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	const struct rcu_flavour *f = ht->flavour;
	bool empty, went_online;

	lfht_call_destroy(ht, "cds_lfht_destroy");
	/* The walk reads bucket nodes, which a shrink the worker finishes
	 * meanwhile frees after a grace period: a QSBR caller that came in
	 * offline must be online for its section to hold that up. */
	went_online = lfht_online_begin(f);
	f->read_lock();
	empty = lfht_iter_empty(ht);
	f->read_unlock();
	lfht_online_end(f, went_online);
	if (!empty)
		return -EPERM;
	if (attr)
		*attr = ht->attr;
	table_free(ht);
	return 0;
}

unsigned long lfht_nr_buckets(struct cds_lfht *ht)
{
	/* Acquire: pairs with the release stores of size in grow_order()
	 * and shrink_order() (resize.c). */
	return rcu_atomic_load(&ht->view.size, memory_order_acquire);
}

/* ---- updates -------------------------------------------------------------- */

/* A link holds a node's address below its tag (<lfht/lfht-word.h>):
 * a node above 2^48 cannot be linked, in any build. */
static void require_linkable(const struct cds_lfht_node *node, const char *call)
{
	if (!lfht_below_tag_(node, sizeof(*node)))
		lfht_misuse(call, "the node lies above 2^48, where a link keeps its tag "
			    "(build lfht with -Dtagged_links=false)");
}

/*
 * The three additions, each the entry point call (for the debug checks):
 * lfht_list_add() returns node when it linked node as a new entry (dup,
 * unique) and NULL when replace found nothing to replace; only then the
 * table grew by one.
 */
static struct cds_lfht_node *table_add(struct cds_lfht *ht, const char *call,
				       unsigned long hash, struct cds_lfht_node *node,
				       enum lfht_add_mode mode, cds_lfht_match_fct match,
				       const void *key)
{
	struct cds_lfht_node *ret;
	unsigned chain;

	lfht_call_reader(ht, call);
	require_linkable(node, call);
	node->reverse_hash = lfht_reverse_bits_(hash);
	ret = lfht_list_add(ht, hash, node, mode, match, key, &chain);
	if (ret == (mode == LFHT_ADD_REPLACE ? NULL : node))
		lfht_resize_after_add(ht, chain, lfht_count_add(ht));
	lfht_call_end(ht);
	return ret;
}

void lfht_add(struct cds_lfht *ht, unsigned long hash, struct cds_lfht_node *node)
{
	(void)table_add(ht, "cds_lfht_add", hash, node, LFHT_ADD_DUP, NULL, NULL);
}

struct cds_lfht_node *lfht_add_unique(struct cds_lfht *ht, unsigned long hash,
				      cds_lfht_match_fct match, const void *key,
				      struct cds_lfht_node *node)
{
	return table_add(ht, "cds_lfht_add_unique", hash, node, LFHT_ADD_UNIQUE, match, key);
}

struct cds_lfht_node *lfht_add_replace(struct cds_lfht *ht, unsigned long hash,
				       cds_lfht_match_fct match, const void *key,
				       struct cds_lfht_node *node)
{
	return table_add(ht, "cds_lfht_add_replace", hash, node, LFHT_ADD_REPLACE, match, key);
}

static int table_replace(struct cds_lfht *ht, struct cds_lfht_node *old,
			 unsigned long hash, cds_lfht_match_fct match, const void *key,
			 struct cds_lfht_node *new_node)
{
	if (!old)
		return -ENOENT;
	new_node->reverse_hash = lfht_reverse_bits_(hash);
	if (old->reverse_hash != new_node->reverse_hash || !match(old, key))
		return -EINVAL;
	return lfht_list_replace(ht, hash, old, new_node);
}

int lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter,
		 unsigned long hash, cds_lfht_match_fct match, const void *key,
		 struct cds_lfht_node *new_node)
{
	int ret;

	lfht_call_reader(ht, "cds_lfht_replace");
	lfht_call_node_added(old_iter->node, "cds_lfht_replace");
	require_linkable(new_node, "cds_lfht_replace");
	ret = table_replace(ht, old_iter->node, hash, match, key, new_node);
	lfht_call_end(ht);
	return ret;
}

static int table_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	if (!node || !lfht_list_del(ht, node))
		return -ENOENT;
	lfht_resize_after_del(ht, lfht_count_del(ht));
	return 0;
}

int lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	int ret;

	lfht_call_reader(ht, "cds_lfht_del");
	lfht_call_node_added(node, "cds_lfht_del");
	ret = table_del(ht, node);
	lfht_call_end(ht);
	return ret;
}

struct cds_lfht_node *lfht_del_key(struct cds_lfht *ht, unsigned long hash,
				   cds_lfht_match_fct match, const void *key)
{
	struct cds_lfht_node *node;

	lfht_call_reader(ht, "lfht_del_key");
	node = lfht_list_del_key(ht, hash, match, key);
	if (node)
		lfht_resize_after_del(ht, lfht_count_del(ht));
	lfht_call_end(ht);
	return node;
}

void lfht_count_nodes(struct cds_lfht *ht, long *split_count_before,
		      unsigned long *count, long *split_count_after)
{
	lfht_call_reader(ht, "cds_lfht_count_nodes");
	*split_count_before = lfht_counters_sum(ht);
	*count = lfht_iter_count(ht);
	*split_count_after = lfht_counters_sum(ht);
	lfht_call_end(ht);
}
