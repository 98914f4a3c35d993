/* SPDX-License-Identifier: MIT */
/*
 * lfht/buckets.c - bucket tables by order: their allocation, the orders
 * array that finds them, its growth and the frees.
 *
 * Owns view.orders (the array of per-order tables) and the tables; the
 * layout they follow, both directions between an index and its bucket, is
 * <lfht/lfht-inline.h>'s, where lookups compute it inline. Order 0
 * is bucket 0 inside struct cds_lfht; order j >= 1 is one allocation of
 * 2^(j-1) buckets of 8 bytes each (a next word alone, <lfht/lfht-inline.h>),
 * never copied or moved while linked: from the allocator, or from the
 * order's place in the table's bucket region (region.c), which holds the
 * orders from LFHT_REGION_FIRST_ buckets on when the table has one.
 *
 * Invariants between atomic steps:
 * - every entry j with 2^j <= view.size points at a table whose nodes are
 *   initialised and linked (resize.c stores size last, with release);
 * - an array replaced by a larger one holds the same entries and stays
 *   readable until a grace period has passed: the grow hands it to
 *   call_rcu (lfht_orders_retire(), outside the resize gate: call_rcu may
 *   take the RCU core's worker lock), so that a grow never waits for
 *   readers; the table counts such
 *   callbacks (rcu_pending) and cds_lfht_destroy() waits for them
 *   (lfht_orders_destroy()) before the allocator's table goes, or, when
 *   it runs in a call_rcu callback itself and cannot wait, leaves the
 *   free of struct cds_lfht to the last of them (ORDERS_DESTROYED);
 * - the entries that hold tables are 0 .. top, none missing below top, and
 *   every entry after them is NULL, entries[cap] always (a grow publishes
 *   the order above the top, a shrink's frees clear every order above
 *   size at once);
 * - only the resizer, under resize_lock, writes the array or its entries;
 * - outside a resize, entries above size are NULL (resize.c frees them
 *   after the grace period that ends a shrink).
 *
 * Calls internal.h (allocator), region.c, the flavour's call_rcu and
 * barrier, and the bucket arithmetic of <lfht/lfht-inline.h>; relies on
 * resize.c for the ordering of the size store against linking and for the
 * grace periods before the frees of shrunk tables.
 */
#define _GNU_SOURCE
#include <limits.h>
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
 * in which the table's idea of its array and the readers' differ.
 * entries[cap] stays NULL: the end of the array for a scan that looks for
 * a bucket's table (lfht_bucket_reverse_hash_() in <lfht/lfht-inline.h>),
 * which relies on the tables being entries 0 .. top with none missing. */
struct lfht_orders_block {
	struct rcu_head rcu;		/* once replaced: its call_rcu */
	struct cds_lfht *ht;		/* whose allocator frees it */
	unsigned cap;
	_Atomic(struct cds_lfht_node *) entries[];	/* cap + 1 */
};

static size_t orders_bytes(unsigned cap)
{
	return sizeof(struct lfht_orders_block) +
	       ((size_t)cap + 1) * sizeof(_Atomic(struct cds_lfht_node *));
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
	block->ht = ht;
	/* Relaxed: nothing else sees the table before cds_lfht_new returns. */
	rcu_atomic_store(&block->entries[0], &ht->bucket0, memory_order_relaxed);
	rcu_atomic_store(&ht->view.orders, block->entries, memory_order_relaxed);
	return 0;
}

/* Added to rcu_pending by a cds_lfht_destroy() that runs in a call_rcu
 * callback, where rcu_barrier() cannot wait for the others: the callback
 * whose decrement leaves exactly this frees struct cds_lfht. */
#define ORDERS_DESTROYED (LONG_MAX / 2 + 1)

static void table_struct_free(struct cds_lfht *ht)
{
	struct lfht_allocator alloc = ht->alloc;

	alloc.free(ht, sizeof(*ht), alloc.ctx);
}

/* call_rcu callback: frees an array replaced a grace period ago. */
static void orders_block_free_rcu(struct rcu_head *head)
{
	struct lfht_orders_block *block =
		caa_container_of(head, struct lfht_orders_block, rcu);
	struct cds_lfht *ht = block->ht;

	lfht_free(ht, block, orders_bytes(block->cap));
	/* Release: our last access to ht (the free through its allocator)
	 * comes before the count drops; pairs with the acquire load in
	 * lfht_orders_destroy(), after which ht may be freed. Acquire: when
	 * we are the last callback of a table destroyed meanwhile, pairs with
	 * the release add of ORDERS_DESTROYED there, so that the destroy's
	 * accesses to ht come before our free of it. */
	if (rcu_atomic_sub(&ht->rcu_pending, 1, memory_order_acq_rel) == ORDERS_DESTROYED + 1)
		table_struct_free(ht);
}

/*
 * Makes room for entry order. The old array is not freed here (that would
 * wait for readers, and a grow must never wait for them): it is handed back
 * in *replaced for lfht_orders_retire(), and call_rcu frees it once every
 * reader that may hold it has left.
 */
int lfht_orders_reserve(struct cds_lfht *ht, unsigned order,
			struct lfht_orders_block **replaced)
{
	struct lfht_orders_block *old = orders_block(ht), *block;
	unsigned cap;

	*replaced = NULL;
	if (order < old->cap)
		return 0;
	cap = orders_cap_for(order);
	block = lfht_zalloc(ht, orders_bytes(cap));
	if (!block)
		return -ENOMEM;
	block->cap = cap;
	block->ht = ht;
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
	*replaced = old;
	return 0;
}

void lfht_orders_retire(struct cds_lfht *ht, struct lfht_orders_block *replaced)
{
	if (!replaced)
		return;
	/* Relaxed: the callback's release decrement orders its own use of
	 * ht; this increment comes before the callback (call_rcu orders it:
	 * the callback runs after a grace period that starts later). */
	rcu_atomic_add(&ht->rcu_pending, 1, memory_order_relaxed);
	ht->flavour->call_rcu(&replaced->rcu, orders_block_free_rcu);
}

struct cds_lfht_node *lfht_order_alloc(struct cds_lfht *ht, unsigned order)
{
	unsigned long len = lfht_order_len_(order);
	lfht_bucket_word_ *words;
	bool in_region;

	if (len > SIZE_MAX / sizeof(*words))
		return NULL;
	words = lfht_region_take(ht, order, &in_region);
	if (!in_region)
		words = lfht_zalloc(ht, len * sizeof(*words));
	/* Above the tag no link could hold a bucket (<lfht/lfht-word.h>):
	 * refused as a failed allocation. */
	if (words && !in_region && !lfht_below_tag_(words, len * sizeof(*words))) {
		lfht_free(ht, words, len * sizeof(*words));
		words = NULL;
	}
	if (!words)
		return NULL;
	for (unsigned long i = 0; i < len; i++)
		/* Relaxed: published by the CAS that links the bucket. */
		rcu_atomic_store(&words[i], lfht_as_bucket_(0), memory_order_relaxed);
	return (struct cds_lfht_node *)(void *)words;
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
	if (lfht_region_holds(ht, table))
		lfht_region_give_back(ht, order);
	else
		lfht_free(ht, table, lfht_order_len_(order) * sizeof(lfht_bucket_word_));
}

bool lfht_orders_unused(struct cds_lfht *ht)
{
	struct lfht_orders_block *block = orders_block(ht);
	/* Relaxed: the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	for (unsigned j = lfht_log2(size) + 1; j < block->cap; j++)
		if (lfht_order_table(ht, j))
			return true;
	return false;
}

void lfht_orders_free_unused(struct cds_lfht *ht)
{
	struct lfht_orders_block *block = orders_block(ht);
	/* Relaxed: the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	for (unsigned j = lfht_log2(size) + 1; j < block->cap; j++)
		order_free(ht, block, j);
}

void lfht_orders_destroy(struct cds_lfht *ht)
{
	struct lfht_orders_block *block = orders_block(ht);
	bool in_callback = ht->flavour->thread_state() & RCU_THREAD_IN_CALLBACK;

	/* Replaced arrays still queued for call_rcu free themselves through
	 * ht: wait for them before ht goes. Acquire: pairs with the release
	 * decrement in orders_block_free_rcu(). The barrier runs every
	 * callback queued before it (in a fork() child, the parent's queued
	 * callbacks never run there; their arrays are merely never freed, and
	 * the count stays: the barrier then only costs a grace period). A
	 * callback cannot wait for the others (rcu_barrier() returns at once
	 * there): the last of them frees ht instead. */
	if (!in_callback && rcu_atomic_load(&ht->rcu_pending, memory_order_acquire) != 0)
		ht->flavour->barrier();
	if (block) {
		/* Relaxed: the table is being freed; nothing reads it any more. */
		rcu_atomic_store(&ht->view.size, 1UL, memory_order_relaxed);
		lfht_orders_free_unused(ht);
		lfht_free(ht, block, orders_bytes(block->cap));
		rcu_atomic_store(&ht->view.orders, NULL, memory_order_relaxed);
		lfht_region_unmap(ht);
	}
	/* AcqRel: release orders every access above before the last callback
	 * frees ht (its acquire decrement); acquire pairs with the callbacks'
	 * release decrements, when none is left and we free ht ourselves. */
	if (in_callback &&
	    rcu_atomic_add(&ht->rcu_pending, ORDERS_DESTROYED, memory_order_acq_rel) != 0)
		return;
	table_struct_free(ht);
}
