/* SPDX-License-Identifier: MIT */
/*
 * lfht/region.c - a table's bucket region: one reservation of address
 * space in which every order from LFHT_REGION_ORDER on keeps its table at
 * the place of its first bucket, so that bucket i is word i from the
 * region's start and a walk reaches it with no load of the orders array
 * (lfht_view_bucket_() in <lfht/lfht-inline.h>).
 *
 * Owns view.region, view.region_len and the reservation. It is made at
 * the first allocation of order LFHT_REGION_ORDER (a table that never
 * grows past LFHT_REGION_FIRST_ buckets never has one) with no access:
 * it costs address space, not memory. An order's pages get read and write
 * access when a grow takes its table, and lose it and their memory when a
 * shrink gives the table back, after the grace period that any freed
 * table waits for (resize.c). A table with its own allocator, or whose
 * reservation failed, keeps every table in the allocator, as all tables
 * did before: the region changes where tables lie, never what works.
 *
 * Invariants:
 * - region and region_len are stored once, by the resizer or the creator,
 *   before the release store of the first size that covers a bucket in
 *   the region (resize.c; table_populate() before the table is shared),
 *   and never change until destroy;
 * - the region exists at every allocation of an order from
 *   LFHT_REGION_ORDER on, or at none: so every such order below the
 *   region's end has its table there, and orders' entries and the region
 *   agree on every bucket (lfht/check.c checks it).
 *
 * Calls mmap, mprotect and munmap only; relies on buckets.c to call it
 * under resize_lock or at creation and destroy.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* The first order a region holds (its first bucket is LFHT_REGION_FIRST_),
 * and its end: 2^25 buckets, 256 MiB of address space (orders above keep
 * their tables in the allocator). Test builds end it at 2^12 buckets, so
 * that their tables cross the end. */
#define LFHT_REGION_ORDER 10U
#ifdef LFHT_TEST_HOOKS
#define LFHT_REGION_MAX_ORDER 12U
#else
#define LFHT_REGION_MAX_ORDER 25U
#endif
_Static_assert(LFHT_REGION_FIRST_ == 1UL << (LFHT_REGION_ORDER - 1),
	       "a region starts at the first bucket of its first order");
_Static_assert(LFHT_REGION_FIRST_ >= LFHT_RESIZE_FLOOR,
	       "tables at auto-resize's floor reserve no region (an address-space "
	       "reservation and two mappings each)");

/* Bytes of tables in regions, process-wide: lfht_region_bytes(). */
static _Atomic(unsigned long) region_in_use;

#ifdef LFHT_TEST_HOOKS
/* Test builds: while set, every reservation fails (tests/test_resize.c).
 * Relaxed: a switch the test sets before the resize that reads it. */
_Atomic(int) lfht_test_refuse_region_;
#define REGION_REFUSED_BY_TEST() \
	(rcu_atomic_load(&lfht_test_refuse_region_, memory_order_relaxed) != 0)
#else
#define REGION_REFUSED_BY_TEST() false
#endif

static uintptr_t page_down(uintptr_t at)
{
	return at & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
}

static uintptr_t page_up(uintptr_t at)
{
	return page_down(at + (uintptr_t)sysconf(_SC_PAGESIZE) - 1);
}

/* The buckets a region of ht holds, 0 .. the region's end. */
static unsigned long region_buckets(struct cds_lfht *ht)
{
	unsigned long buckets = 1UL << LFHT_REGION_MAX_ORDER;

	return ht->max_nr_buckets < buckets ? ht->max_nr_buckets : buckets;
}

static size_t region_size(struct cds_lfht *ht)
{
	return region_buckets(ht) * sizeof(lfht_bucket_word_);
}

/* Reserves the region: 0, or -1 when the address space is refused. */
static int region_reserve(struct cds_lfht *ht)
{
	unsigned long buckets = region_buckets(ht);
	size_t bytes = region_size(ht);
	void *at;

	if (REGION_REFUSED_BY_TEST())
		return -1;
	at = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (at == MAP_FAILED)
		return -1;
	/* Above the tag no link could hold a bucket (<lfht/lfht-word.h>). */
	if (!lfht_below_tag_(at, bytes)) {
		munmap(at, bytes);
		return -1;
	}
	/* Relaxed (both): published by the release store of the first size
	 * that covers a bucket in the region (grow_order()), or by whatever
	 * hands the table to other threads (table_populate()). */
	rcu_atomic_store(&ht->view.region, (uintptr_t)at, memory_order_relaxed);
	rcu_atomic_store(&ht->view.region_len, buckets - LFHT_REGION_FIRST_, memory_order_relaxed);
	return 0;
}

/* The region's start, 0 when the table has none. */
static uintptr_t region_start(struct cds_lfht *ht)
{
	/* Relaxed: stored by this thread or before it held resize_lock. */
	return rcu_atomic_load(&ht->view.region, memory_order_relaxed);
}

lfht_bucket_word_ *lfht_region_take(struct cds_lfht *ht, unsigned order, bool *in_region)
{
	uintptr_t start, first, end;

	*in_region = false;
	if (order < LFHT_REGION_ORDER || !ht->region_allowed)
		return NULL;
	if (order == LFHT_REGION_ORDER && !region_start(ht) && region_reserve(ht))
		ht->region_allowed = false;
	start = region_start(ht);
	first = start + lfht_order_first_(order) * sizeof(lfht_bucket_word_);
	end = first + lfht_order_len_(order) * sizeof(lfht_bucket_word_);
	if (!start || end > start + region_size(ht))
		return NULL;
	*in_region = true;
	if (mprotect((void *)page_down(first), page_up(end) - page_down(first),
		     PROT_READ | PROT_WRITE))
		return NULL;
	/* Relaxed: a statistic. */
	rcu_atomic_add(&region_in_use, end - first, memory_order_relaxed);
	return (lfht_bucket_word_ *)first;
}

bool lfht_region_holds(struct cds_lfht *ht, const void *table)
{
	uintptr_t start = region_start(ht), at = (uintptr_t)table;

	return start && at >= start && at < start + region_size(ht);
}

void lfht_region_give_back(struct cds_lfht *ht, unsigned order)
{
	uintptr_t start = region_start(ht);
	uintptr_t first = start + lfht_order_first_(order) * sizeof(lfht_bucket_word_);
	uintptr_t end = first + lfht_order_len_(order) * sizeof(lfht_bucket_word_);
	/* Whole pages only: the page that order shares with the order below
	 * stays (that order's buckets are live). The pages above are the
	 * next order's, freed with this one or never taken. */
	uintptr_t from = page_up(first), to = page_up(end);

	/* Relaxed: a statistic. */
	rcu_atomic_sub(&region_in_use, end - first, memory_order_relaxed);
	if (to > start + region_size(ht))
		to = start + region_size(ht);
	/* A fresh mapping without access: the memory goes back at once. If
	 * the kernel refuses (too many mappings), the pages merely stay. */
	if (from < to)
		(void)mmap((void *)from, to - from, PROT_NONE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

void lfht_region_unmap(struct cds_lfht *ht)
{
	uintptr_t start = region_start(ht);

	if (start)
		munmap((void *)start, region_size(ht));
	/* Relaxed: the table is being freed; nothing reads it any more. */
	rcu_atomic_store(&ht->view.region, 0, memory_order_relaxed);
	rcu_atomic_store(&ht->view.region_len, 0, memory_order_relaxed);
}

unsigned long lfht_region_bytes(void)
{
	/* Relaxed: a statistic. */
	return rcu_atomic_load(&region_in_use, memory_order_relaxed);
}
