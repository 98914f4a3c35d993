/* SPDX-License-Identifier: MIT */
/*
 * lfht/buckets.c - bucket tables by order and bucket lookup by hash.
 *
 * Owns view.orders (the array of per-order tables) and the tables. Order 0
 * is bucket 0 inside struct cds_lfht; order j >= 1 is one allocation of
 * 2^(j-1) bucket nodes, never copied or moved while linked.
 *
 * Invariants between atomic steps:
 * - every entry j with 2^j <= view.size points at a table whose nodes are
 *   initialised and linked (resize.c stores size last, with release);
 * - an array replaced by a larger one holds the same entries and stays
 *   readable until a grace period has passed (kept on the retired chain);
 * - only the resizer, under resize_lock, writes the array or its entries;
 * - outside a resize, entries above size are NULL (resize.c frees them
 *   after the grace period that ends a shrink).
 *
 * Calls internal.h (allocator) and the bucket arithmetic of
 * <lfht/lfht-inline.h>; relies on resize.c for the ordering of the size
 * store against linking and for the grace periods before the frees.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct cds_lfht_node *lfht_bucket_at(struct cds_lfht *ht, unsigned long index)
{
	/* Acquire: pairs with the release in lfht_orders_reserve(). The
	 * caller knows (from an acquire load of size, which pairs with the
	 * release store of size after lfht_order_publish(), or from holding
	 * resize_lock, or from being a link helper that the holder let go,
	 * with a release, after publishing) that the order is published. */
	return lfht_bucket_in_(rcu_atomic_load(&ht->view.orders, memory_order_acquire), index);
}

/* One orders array; view.orders points at its entries, and the block is
 * found from there: one store publishes a new array, so no state exists
 * in which the table's idea of its array and the readers' differ. */
struct lfht_orders_block {
	struct lfht_orders_block *retired;	/* older arrays, still readable */
	unsigned cap;
	_Atomic(struct cds_lfht_node *) entries[];
};

static size_t orders_bytes(unsigned cap)
{
	return sizeof(struct lfht_orders_block) +
	       (size_t)cap * sizeof(_Atomic(struct cds_lfht_node *));
}

/* The current block; resize_lock holder or destroyer only. */
static struct lfht_orders_block *orders_block(struct cds_lfht *ht)
{
	/* Relaxed: only the resize_lock holder stores view.orders. */
	_Atomic(struct cds_lfht_node *) *entries =
		rcu_atomic_load(&ht->view.orders, memory_order_relaxed);

	return entries ? caa_container_of(entries, struct lfht_orders_block, entries)
		       : NULL;
}

/* Capacity rounded up so that the array is replaced only a few times. */
static unsigned orders_cap_for(unsigned order)
{
	unsigned cap = 4;

	while (cap <= order)
		cap *= 2;
	return cap > LFHT_MAX_ORDER + 1 ? LFHT_MAX_ORDER + 1 : cap;
}

int lfht_orders_init(struct cds_lfht *ht, unsigned long init_size)
{
	unsigned cap = orders_cap_for(lfht_log2(init_size));
	struct lfht_orders_block *block = lfht_zalloc(ht, orders_bytes(cap));

	if (!block)
		return -ENOMEM;
	block->cap = cap;
	/* Relaxed: nothing else sees the table before cds_lfht_new returns. */
	rcu_atomic_store(&block->entries[0], &ht->bucket0, memory_order_relaxed);
	rcu_atomic_store(&ht->view.orders, block->entries, memory_order_relaxed);
	return 0;
}

/*
 * Makes room for entry order. The old array is not freed here (that would
 * wait for readers, and a grow must never wait for them): it is kept on the
 * retired chain until lfht_orders_free_unused(), after a grace period.
 */
int lfht_orders_reserve(struct cds_lfht *ht, unsigned order)
{
	struct lfht_orders_block *old = orders_block(ht), *block;
	unsigned cap;

	if (order < old->cap)
		return 0;
	cap = orders_cap_for(order);
	block = lfht_zalloc(ht, orders_bytes(cap));
	if (!block)
		return -ENOMEM;
	block->cap = cap;
	block->retired = old;
	/* Relaxed (loads and stores): only the resize_lock holder writes
	 * entries, so this thread wrote (or, under the lock, saw) the ones it
	 * copies; the new array is not reachable yet. */
	for (unsigned i = 0; i < old->cap; i++)
		rcu_atomic_store(&block->entries[i],
				 rcu_atomic_load(&old->entries[i], memory_order_relaxed),
				 memory_order_relaxed);
	/* Release: publishes the copied entries; pairs with the acquire loads
	 * of view.orders in lfht_view_bucket_() and lfht_bucket_at(). */
	rcu_atomic_store(&ht->view.orders, block->entries, memory_order_release);
	return 0;
}

struct cds_lfht_node *lfht_order_alloc(struct cds_lfht *ht, unsigned order)
{
	unsigned long len = lfht_order_len(order);
	unsigned long first = (1UL << order) >> 1;
	struct cds_lfht_node *table;

	if (len > SIZE_MAX / sizeof(*table))
		return NULL;
	table = lfht_zalloc(ht, len * sizeof(*table));
	if (!table)
		return NULL;
	for (unsigned long i = 0; i < len; i++) {
		table[i].reverse_hash = lfht_reverse_bits_(first + i);
		/* Relaxed: published by the CAS that links the node. */
		rcu_atomic_store(&table[i].next, (uintptr_t)LFHT_BUCKET_,
				 memory_order_relaxed);
	}
	return table;
}

void lfht_order_publish(struct cds_lfht *ht, unsigned order, struct cds_lfht_node *table)
{
	/* Relaxed: readers reach the entry only through a size stored later
	 * with release (grow_order(); table_populate() before the table is
	 * shared), which their acquire load of size pairs with. */
	rcu_atomic_store(&orders_block(ht)->entries[order], table, memory_order_relaxed);
}

struct cds_lfht_node *lfht_order_table(struct cds_lfht *ht, unsigned order)
{
	struct lfht_orders_block *block = orders_block(ht);

	/* Relaxed: the resize_lock holder (or the destroyer) published it. */
	return order < block->cap ?
	       rcu_atomic_load(&block->entries[order], memory_order_relaxed) : NULL;
}

/* Frees order's table; the caller has unlinked it and waited a grace
 * period (or the table is being destroyed). */
static void order_free(struct cds_lfht *ht, struct lfht_orders_block *block, unsigned order)
{
	/* Relaxed (both): the resize_lock holder (or the destroyer) wrote
	 * the entry itself; no reader reaches it any more: size was lowered
	 * below the order and a grace period has passed since. */
	struct cds_lfht_node *table =
		rcu_atomic_load(&block->entries[order], memory_order_relaxed);

	if (order == 0 || !table)
		return;
	rcu_atomic_store(&block->entries[order], NULL, memory_order_relaxed);
	lfht_free(ht, table, lfht_order_len(order) * sizeof(*table));
}

bool lfht_orders_unused(struct cds_lfht *ht)
{
	struct lfht_orders_block *block = orders_block(ht);
	/* Relaxed: the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	if (block->retired)
		return true;
	for (unsigned j = lfht_log2(size) + 1; j < block->cap; j++)
		if (lfht_order_table(ht, j))
			return true;
	return false;
}

void lfht_orders_free_unused(struct cds_lfht *ht)
{
	struct lfht_orders_block *block = orders_block(ht), *retired = block->retired;
	/* Relaxed: the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	block->retired = NULL;
	while (retired) {
		struct lfht_orders_block *older = retired->retired;

		lfht_free(ht, retired, orders_bytes(retired->cap));
		retired = older;
	}
	for (unsigned j = lfht_log2(size) + 1; j < block->cap; j++)
		order_free(ht, block, j);
}

void lfht_orders_destroy(struct cds_lfht *ht)
{
	struct lfht_orders_block *block = orders_block(ht);

	if (!block)
		return;
	/* Relaxed: the table is being freed; nothing reads it any more. */
	rcu_atomic_store(&ht->view.size, 1UL, memory_order_relaxed);
	lfht_orders_free_unused(ht);
	lfht_free(ht, block, orders_bytes(block->cap));
	rcu_atomic_store(&ht->view.orders, NULL, memory_order_relaxed);
}
