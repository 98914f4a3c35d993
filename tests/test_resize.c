/* SPDX-License-Identifier: MIT */
/*
 * tests/test_resize.c - resizing, single-threaded from the test's side:
 * cds_lfht_resize is synchronous and clamps to [min_nr_alloc_buckets,
 * max_nr_buckets], nodes stay findable across grow and shrink, auto-resize
 * grows (and with accounting shrinks) within bounds, and a resize worker
 * that cannot be created leaves the table correct; growing, by hand or by
 * the worker, never waits for a reader. The invariant checker
 * (lfht/check.c) looks at the table after every resize.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lfht_test.h"
#include "test_density.h"

/* cds_lfht_resize(), then the invariant checker. */
static void resize_checked(struct cds_lfht *ht, unsigned long new_size)
{
	cds_lfht_resize(ht, new_size);
	lfht_check_invariants_(ht);
}

/* resize_checked(), after which the table must have want buckets. */
static void resize_expect(struct cds_lfht *ht, unsigned long new_size, unsigned long want)
{
	resize_checked(ht, new_size);
	ck_assert_uint_eq(lfht_nr_buckets(ht), want);
}

START_TEST(resize_is_synchronous_and_reaches_the_size)
{
	struct cds_lfht *ht = test_new_table(1, 0, NULL, 1000);

	for (unsigned long n = 1; n <= (1UL << 14); n <<= 1)
		resize_expect(ht, n, n);
	for (unsigned long n = 1UL << 14; n >= 1; n >>= 1)
		resize_expect(ht, n, n);
	resize_expect(ht, 1UL << 12, 1UL << 12);
	resize_expect(ht, 1, 1);
	ck_assert_uint_eq(test_count_found(ht, 0, 1000), 1000);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(resize_clamps_to_min_and_max_buckets)
{
	struct cds_lfht *ht = cds_lfht_new(8, 4, 64, 0, NULL);

	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 300);
	resize_expect(ht, 1024, 64);
	resize_expect(ht, 1UL << 20, 64);
	resize_expect(ht, 1, 4);
	resize_expect(ht, 2, 4);
	resize_expect(ht, 16, 16);
	ck_assert_uint_eq(test_count_found(ht, 0, 300), 300);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(grow_then_shrink_keeps_every_node_findable)
{
	struct cds_lfht *ht = test_new_table(2, 0, NULL, 3000);
	static const unsigned long sizes[] = { 8192, 4, 1024, 1, 65536, 16, 2 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		long before = -1, after = -1;

		resize_expect(ht, sizes[i], sizes[i]);
		ck_assert_uint_eq(test_count_found(ht, 0, 3000), 3000);
		ck_assert_uint_eq(test_count_found(ht, 3000, 4000), 0);
		ck_assert_uint_eq(test_count_nodes(ht, &before, &after), 3000);
	}
	test_empty_and_destroy(ht);
}
END_TEST

struct bucket_watch {
	struct cds_lfht *ht;
	unsigned long bound;
};

static bool buckets_above(void *arg)
{
	struct bucket_watch *w = arg;

	return lfht_nr_buckets(w->ht) > w->bound;
}

static bool buckets_below(void *arg)
{
	struct bucket_watch *w = arg;

	return lfht_nr_buckets(w->ht) < w->bound;
}

START_TEST(auto_resize_grows_when_chains_get_long)
{
	int flags = CDS_LFHT_AUTO_RESIZE | test_density_flag(_i);
	struct cds_lfht *ht = test_new_table(1, flags, NULL, 0);
	/* Without accounting the load is estimated from chains: the bound
	 * asks for no more than 4 times the density's load. */
	struct bucket_watch w = { .ht = ht, .bound = test_density(_i) * 1024 - 1 };
	bool grew;

	ck_assert_uint_eq(lfht_nr_buckets(ht), 1);
	test_fill(ht, 0, 4000);
	grew = test_wait_until(buckets_above, &w, 20.0);
	fprintf(stderr, "[%s] auto-resize (density %lu) after 4000 adds: %lu buckets\n",
		TEST_FLAVOUR_NAME, test_density(_i), lfht_nr_buckets(ht));
	ck_assert_msg(grew, "density %lu: %lu buckets after 4000 adds", test_density(_i),
		      lfht_nr_buckets(ht));
	lfht_check_invariants_(ht);
	ck_assert_uint_eq(test_count_found(ht, 0, 4000), 4000);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(auto_resize_never_exceeds_max_buckets)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 16, CDS_LFHT_AUTO_RESIZE, NULL);
	struct bucket_watch w = { .ht = ht, .bound = 8 };
	unsigned long highest = 0;

	ck_assert_ptr_nonnull(ht);
	for (uint64_t k = 0; k < 6000; k += 200) {
		unsigned long now;

		test_fill(ht, k, k + 200);
		now = lfht_nr_buckets(ht);
		highest = now > highest ? now : highest;
	}
	ck_assert(test_wait_until(buckets_above, &w, 20.0));
	lfht_check_invariants_(ht);
	for (int i = 0; i < 20; i++) {
		unsigned long now = lfht_nr_buckets(ht);

		highest = now > highest ? now : highest;
		quiescent();
	}
	resize_checked(ht, 1UL << 16);
	highest = lfht_nr_buckets(ht) > highest ? lfht_nr_buckets(ht) : highest;
	ck_assert_uint_le(highest, 16);
	ck_assert_uint_eq(test_count_found(ht, 0, 6000), 6000);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(auto_resize_with_accounting_shrinks_when_emptied)
{
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;
	struct cds_lfht *ht = cds_lfht_new(4, 4, 0, flags, NULL);
	struct bucket_watch w = { .ht = ht, .bound = 64 };
	unsigned long peak, lowest = ~0UL;
	bool shrank;

	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 1 << 14);
	ck_assert_msg(test_wait_until(buckets_above, &w, 20.0),
		      "no growth past 64 buckets after 16384 adds: %lu",
		      lfht_nr_buckets(ht));
	peak = lfht_nr_buckets(ht);
	lfht_check_invariants_(ht);
	ck_assert_uint_eq(test_count_found(ht, 0, 1 << 14), 1 << 14);
	ck_assert_uint_eq(test_del_all(ht), 1 << 14);
	w.bound = peak;
	shrank = test_wait_until(buckets_below, &w, 20.0);
	for (int i = 0; i < 50; i++) {
		unsigned long now = lfht_nr_buckets(ht);

		lowest = now < lowest ? now : lowest;
		quiescent();
	}
	fprintf(stderr, "[%s] auto-resize with accounting: peak %lu, after emptying %lu\n",
		TEST_FLAVOUR_NAME, peak, lfht_nr_buckets(ht));
	ck_assert_msg(shrank, "still %lu buckets 20 s after emptying", lfht_nr_buckets(ht));
	lfht_check_invariants_(ht);
	ck_assert_uint_ge(lowest, 4);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	rcu_barrier();
}
END_TEST

/* Test builds call it after each grow or shrink step (lfht/resize.c). */
extern void (*lfht_test_step_hook_)(struct cds_lfht *ht, const char *step);

/* When the worker finished its first shrink step (test_now(), in ns; 0:
 * none yet). */
static _Atomic(uint64_t) first_shrink_ns;

static void record_first_shrink(struct cds_lfht *ht, const char *step)
{
	uint64_t none = 0;

	(void)ht;
	if (strcmp(step, "shrink") != 0)
		return;
	/* Relaxed: a time stamp, the only data it carries. */
	rcu_atomic_cas(&first_shrink_ns, &none, (uint64_t)(test_now() * 1e9),
		       memory_order_relaxed, memory_order_relaxed);
}

static bool shrink_recorded(void *arg)
{
	(void)arg;
	/* Relaxed: as above. */
	return rcu_atomic_load(&first_shrink_ns, memory_order_relaxed) != 0;
}

/*
 * A shrink waits until the deletes pause (lfht/resize.c): the worker's
 * first shrink step comes at least 20 ms after the first delete, however
 * fast the deletes are (before, it came as soon as a quarter of the
 * buckets held a node: within a millisecond here). The hook is set before
 * the table (and so the worker's thread) exists and cleared after its
 * destroy has stopped the worker, so the worker never reads it while it
 * changes.
 */
START_TEST(shrink_waits_for_the_deletes_to_pause)
{
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;
	struct cds_lfht *ht;
	struct bucket_watch w;
	double started, deleted, shrunk_at;
	unsigned long peak;

	rcu_atomic_store(&first_shrink_ns, 0, memory_order_relaxed);
	lfht_test_step_hook_ = record_first_shrink;
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	ck_assert_ptr_nonnull(ht);
	w = (struct bucket_watch){ .ht = ht, .bound = 1024 };
	test_fill(ht, 0, 1 << 13);
	ck_assert_msg(test_wait_until(buckets_above, &w, 20.0),
		      "no growth past 1024 buckets after 8192 adds: %lu", lfht_nr_buckets(ht));
	peak = lfht_nr_buckets(ht);
	started = test_now();
	ck_assert_uint_eq(test_del_all(ht), 1 << 13);
	deleted = test_now();
	/* The stamp is the proof: the size itself may still be growing
	 * when peak is read (TSan), and shrinks one order per step. */
	ck_assert_msg(test_wait_until(shrink_recorded, NULL, 20.0),
		      "no shrink step 20 s after emptying: %lu buckets", lfht_nr_buckets(ht));
	shrunk_at = (double)rcu_atomic_load(&first_shrink_ns, memory_order_relaxed) * 1e-9;
	fprintf(stderr, "[%s] %lu buckets emptied in %.1f ms, first shrink step %.1f ms "
		"after the first delete\n", TEST_FLAVOUR_NAME, peak, (deleted - started) * 1e3,
		(shrunk_at - started) * 1e3);
	ck_assert_msg(shrunk_at >= started + 0.020, "shrink began %.1f ms after the first delete",
		      (shrunk_at - started) * 1e3);
	test_empty_and_destroy(ht);
	lfht_test_step_hook_ = NULL;
}
END_TEST

/* The worker's looks at the table (resize_auto) and the bucket count at
 * the end of the last one (0: none yet), kept by the step hook. */
static _Atomic(long) worker_looks;
static _Atomic(unsigned long) size_after_look;

static void note_look(struct cds_lfht *ht, const char *step)
{
	if (strcmp(step, "look") != 0)
		return;
	/* Relaxed (both): a count read after the deletes, a size polled and
	 * read again after. */
	rcu_atomic_add(&worker_looks, 1, memory_order_relaxed);
	rcu_atomic_store(&size_after_look, lfht_nr_buckets(ht), memory_order_relaxed);
}

/*
 * While a shrink window is open the worker looks again by itself every
 * 20 ms (lfht/resize.c, lfht_resize_after_del()), so a burst of deletes
 * does not wake it: before, each look period of the deleting thread (1024
 * deletes at this size) past the shrink threshold woke it for a look of
 * its own, 17-18 of them while the last quarter of 2^16 keys went (debug
 * build, 57-61 ms). Allowed: the look that opens the window, one every
 * 20 ms of the burst and, where that look shrank the table (a slow burst:
 * the sanitizers, qemu), one more from the deletes that opens the next
 * window, and one for a look already under way.
 */
START_TEST(deletes_leave_an_open_shrink_window_to_the_worker)
{
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;
	unsigned long keys = 1UL << 16;
	struct cds_lfht *ht;
	struct bucket_watch w;
	double started, ms;
	long looks;

	lfht_test_step_hook_ = note_look;
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	ck_assert_ptr_nonnull(ht);
	w = (struct bucket_watch){ .ht = ht, .bound = keys / 2 };
	test_fill(ht, 0, keys);
	ck_assert_msg(test_wait_until(buckets_above, &w, 20.0),
		      "no growth past %lu buckets after %lu adds: %lu", keys / 2, keys,
		      lfht_nr_buckets(ht));
	/* Relaxed: the worker's looks from here on. */
	rcu_atomic_store(&worker_looks, 0, memory_order_relaxed);
	started = test_now();
	ck_assert_uint_eq(test_del_all(ht), keys);
	ms = (test_now() - started) * 1e3;
	/* Relaxed: as in note_look(). */
	looks = rcu_atomic_load(&worker_looks, memory_order_relaxed);
	fprintf(stderr, "[%s] %lu deletes in %.1f ms, %ld looks by the worker\n",
		TEST_FLAVOUR_NAME, keys, ms, looks);
	ck_assert_msg(looks <= 3 + (long)(ms / 10.0),
		      "the worker looked %ld times during %.1f ms of deletes", looks, ms);
	test_empty_and_destroy(ht);
	lfht_test_step_hook_ = NULL;
}
END_TEST

/* ---- the bucket region ------------------------------------------------ */

/* Test builds: while set, a table's region reservation fails
 * (lfht/region.c). */
extern _Atomic(int) lfht_test_refuse_region_;

/* Bytes of a table of size buckets in its region: orders from
 * LFHT_REGION_FIRST_ buckets up to the region's end, 2^12 buckets in test
 * builds (lfht/region.c). */
static unsigned long region_bytes_at(unsigned long size)
{
	unsigned long end = size < (1UL << 12) ? size : 1UL << 12;

	return end > LFHT_REGION_FIRST_ ? (end - LFHT_REGION_FIRST_) * sizeof(uintptr_t) : 0;
}

/*
 * A table with the default allocator keeps its tables from
 * LFHT_REGION_FIRST_ buckets on
 * in a region (lookups reach a bucket there with no load of the orders
 * array); a shrink gives the pages back, after its grace period, before
 * cds_lfht_resize() returns; the tables above the region's end go to the
 * allocator. The invariant checker, after every resize, finds every
 * bucket where both the region and the orders array say it is.
 */
START_TEST(large_bucket_tables_live_in_the_region_and_a_shrink_gives_them_back)
{
	unsigned long base = lfht_region_bytes();
	struct cds_lfht *ht = test_new_table(1, 0, NULL, 5000);

	ck_assert_uint_eq(lfht_region_bytes(), base);
	resize_expect(ht, 1UL << 14, 1UL << 14);
	ck_assert_uint_eq(lfht_region_bytes() - base, region_bytes_at(1UL << 14));
	ck_assert_uint_eq(test_count_found(ht, 0, 5000), 5000);
	resize_expect(ht, LFHT_REGION_FIRST_, LFHT_REGION_FIRST_);
	ck_assert_uint_eq(lfht_region_bytes(), base);
	ck_assert_uint_eq(test_count_found(ht, 0, 5000), 5000);
	resize_expect(ht, 1UL << 11, 1UL << 11);
	ck_assert_uint_eq(lfht_region_bytes() - base, region_bytes_at(1UL << 11));
	ck_assert_uint_eq(test_count_found(ht, 0, 5000), 5000);
	test_empty_and_destroy(ht);
	ck_assert_uint_eq(lfht_region_bytes(), base);
}
END_TEST

/* A reservation refused (address space exhausted) leaves every table in
 * the allocator, for the table's whole life: correct, only slower. */
START_TEST(a_refused_region_leaves_every_table_to_the_allocator)
{
	unsigned long base = lfht_region_bytes();
	struct cds_lfht *ht = test_new_table(1, 0, NULL, 5000);

	rcu_atomic_store(&lfht_test_refuse_region_, 1, memory_order_relaxed);
	resize_expect(ht, 1UL << 10, 1UL << 10);
	rcu_atomic_store(&lfht_test_refuse_region_, 0, memory_order_relaxed);
	ck_assert_uint_eq(lfht_region_bytes(), base);
	ck_assert_uint_eq(test_count_found(ht, 0, 5000), 5000);
	/* Refused once, never asked again. */
	resize_expect(ht, LFHT_REGION_FIRST_, LFHT_REGION_FIRST_);
	resize_expect(ht, 1UL << 11, 1UL << 11);
	ck_assert_uint_eq(lfht_region_bytes(), base);
	ck_assert_uint_eq(test_count_found(ht, 0, 5000), 5000);
	test_empty_and_destroy(ht);
}
END_TEST

/* The density _i table: n buckets per node at least once the worker has
 * looked at the final count, after growth (from one bucket: exactly the
 * next power of two of n x count) and after a shrink. */
START_TEST(density_keeps_n_buckets_per_node_after_growth_and_shrink)
{
	enum { NR = 8192, KEPT = 512 };
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING | test_density_flag(_i);
	unsigned long n = test_density(_i);
	struct cds_lfht *ht = test_new_table(1, flags, NULL, NR);
	struct test_size_goal grown = { .ht = ht, .at_least = n * NR, .at_most = n * NR };
	/* A shrink goes to n to 2n buckets per node of the count it saw, and
	 * none follows until the load is below one node per 4n buckets. */
	struct test_size_goal shrunk = { .ht = ht, .at_least = n * KEPT,
					 .at_most = 4 * n * KEPT };
	bool reached;

	reached = test_wait_until(test_size_reached, &grown, 20.0);
	fprintf(stderr, "[%s] density %lu: %d nodes, %lu buckets\n", TEST_FLAVOUR_NAME, n,
		NR, lfht_nr_buckets(ht));
	ck_assert_msg(reached, "density %lu: %lu buckets for %d nodes, not %lu", n,
		      lfht_nr_buckets(ht), NR, n * NR);
	lfht_check_invariants_(ht);
	ck_assert_uint_eq(test_count_found(ht, 0, NR), NR);

	test_del_keys(ht, KEPT, NR, 1);
	reached = test_wait_until(test_size_reached, &shrunk, 20.0);
	fprintf(stderr, "[%s] density %lu: %d nodes left, %lu buckets\n", TEST_FLAVOUR_NAME,
		n, KEPT, lfht_nr_buckets(ht));
	ck_assert_msg(reached, "density %lu: %lu buckets for %d nodes, not %lu to %lu", n,
		      lfht_nr_buckets(ht), KEPT, n * KEPT, 4 * n * KEPT);
	lfht_check_invariants_(ht);
	ck_assert_uint_eq(test_count_found(ht, 0, NR), KEPT);
	test_empty_and_destroy(ht);
}
END_TEST

/* min_nr_alloc_buckets and max_nr_buckets bound a dense table as any. */
START_TEST(density_stays_within_min_and_max_buckets)
{
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING | test_density_flag(_i);
	struct cds_lfht *ht = cds_lfht_new(16, 16, 1024, flags, NULL);
	struct test_size_goal full = { .ht = ht, .at_least = 1024, .at_most = 1024 };
	struct test_size_goal least = { .ht = ht, .at_least = 16, .at_most = 16 };
	unsigned long highest = 0;

	ck_assert_ptr_nonnull(ht);
	for (uint64_t k = 0; k < 2048; k += 128) {
		test_fill(ht, k, k + 128);
		highest = lfht_nr_buckets(ht) > highest ? lfht_nr_buckets(ht) : highest;
	}
	ck_assert_msg(test_wait_until(test_size_reached, &full, 20.0),
		      "density %lu: %lu buckets for 2048 nodes under a max of 1024",
		      test_density(_i), lfht_nr_buckets(ht));
	ck_assert_uint_le(highest, 1024);
	test_del_keys(ht, 0, 2048, 1);
	ck_assert_msg(test_wait_until(test_size_reached, &least, 20.0),
		      "density %lu: %lu buckets once emptied, min 16", test_density(_i),
		      lfht_nr_buckets(ht));
	lfht_check_invariants_(ht);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	rcu_barrier();
}
END_TEST

START_TEST(shrink_of_auto_resized_table_stops_at_min_buckets)
{
	struct cds_lfht *ht = cds_lfht_new(16, 16, 0, CDS_LFHT_AUTO_RESIZE, NULL);

	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 2000);
	test_del_all(ht);
	resize_expect(ht, 1, 16);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	rcu_barrier();
}
END_TEST

/* An attr whose stack cannot be mapped: creating the worker fails. */
static void impossible_attr(pthread_attr_t *attr)
{
	ck_assert_int_eq(pthread_attr_init(attr), 0);
	ck_assert_int_eq(pthread_attr_setstacksize(attr, (size_t)1 << (sizeof(size_t) * 8 - 2)),
			 0);
}

START_TEST(unusable_attr_refuses_auto_resize_and_resizes_without_helpers)
{
	pthread_attr_t attr, *back = NULL;
	struct cds_lfht *ht;
	unsigned long nr;

	impossible_attr(&attr);
	/* Auto-resize needs a worker created with attr: refused at once. */
	errno = 0;
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, &attr);
	ck_assert_ptr_null(ht);
	ck_assert_int_ne(errno, 0);
	/* Without it, resizes run in the caller; helpers that cannot start
	 * leave their share to it. */
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_ACCOUNTING, &attr);
	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 3000);
	resize_checked(ht, 1UL << 15);	/* big enough to partition */
	nr = lfht_nr_buckets(ht);
	fprintf(stderr, "[%s] resize to 32768 with an impossible attr: %lu buckets\n",
		TEST_FLAVOUR_NAME, nr);
	ck_assert_uint_eq(nr, 1UL << 15);
	ck_assert_uint_eq(test_count_found(ht, 0, 3000), 3000);
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 3000);
	resize_checked(ht, 2);
	ck_assert_uint_eq(test_count_found(ht, 0, 3000), 3000);
	test_fill(ht, 3000, 3100);
	ck_assert_uint_eq(test_count_found(ht, 0, 3100), 3100);
	ck_assert_uint_eq(test_del_all(ht), 3100);
	ck_assert_int_eq(cds_lfht_destroy(ht, &back), 0);
	ck_assert_ptr_eq(back, &attr);
	rcu_barrier();
	pthread_attr_destroy(&attr);
	ck_assert_int_eq(rcu_atomic_load(&test_bad_magic, memory_order_relaxed), 0);
}
END_TEST

START_TEST(resize_with_default_attr_partitions_and_keeps_nodes)
{
	pthread_attr_t attr;
	struct cds_lfht *ht;

	/* Filled at 4096 buckets: 20000 adds to one bucket walk a chain of
	 * up to 20000 nodes each (13 s under TSan). The grow to 2^16 still
	 * partitions its last two orders (of 2^14 and 2^15 buckets). */
	ht = test_new_table(1UL << 12, 0, &attr, 20000);
	resize_expect(ht, 1UL << 16, 1UL << 16);
	ck_assert_uint_eq(test_count_found(ht, 0, 20000), 20000);
	resize_expect(ht, 4096, 4096);
	ck_assert_uint_eq(test_count_found(ht, 0, 20000), 20000);
	test_empty_and_destroy(ht);
	pthread_attr_destroy(&attr);
}
END_TEST

static _Atomic(long) resizer_stop, resizer_rounds;

static void *resize_back_and_forth(void *arg)
{
	struct cds_lfht *ht = arg;
	long rounds = 0;

	rcu_register_thread();
	while (!rcu_atomic_load(&resizer_stop, memory_order_relaxed)) {
		resize_checked(ht, rounds % 2 ? 1 : 1UL << 14);
		rounds++;
		rcu_atomic_store(&resizer_rounds, rounds, memory_order_relaxed);
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(lookup_batch_during_resizes_finds_every_key_and_no_other)
{
	/* Filled at the resizer's larger size, not in one bucket (a
	 * quadratic fill: 13 s under TSan). */
	struct cds_lfht *ht = test_new_table(1UL << 14, 0, NULL, 20000);
	uint64_t keys[48];
	unsigned long hashes[48];
	const void *key_ptrs[48];
	struct cds_lfht_iter iters[48];
	uint64_t rng = 42;
	pthread_t resizer;
	long batches = 0, wrong = 0;
	double end;

	rcu_atomic_store(&resizer_stop, 0, memory_order_relaxed);
	test_start(&resizer, resize_back_and_forth, ht);
	end = test_now() + test_stress_seconds();
	while (test_now() < end) {
		for (int i = 0; i < 48; i++) {
			keys[i] = test_rand(&rng) % 40000;	/* half are misses */
			hashes[i] = test_hash(keys[i]);
			key_ptrs[i] = &keys[i];
		}
		rcu_read_lock();
		lfht_lookup_batch(ht, 48, hashes, test_match, key_ptrs, iters);
		for (int i = 0; i < 48; i++) {
			struct cds_lfht_node *node = cds_lfht_iter_get_node(&iters[i]);
			struct test_node *tn = node ? test_node_of(node) : NULL;

			wrong += (keys[i] < 20000) != (tn != NULL) || (tn && tn->key != keys[i]);
		}
		rcu_read_unlock();
		quiescent();
		batches++;
	}
	rcu_atomic_store(&resizer_stop, 1, memory_order_relaxed);
	test_join(resizer);
	fprintf(stderr, "[%s] %ld batches of 48 lookups during %ld resizes: %ld wrong\n",
		TEST_FLAVOUR_NAME, batches,
		rcu_atomic_load(&resizer_rounds, memory_order_relaxed), wrong);
	ck_assert_int_eq(wrong, 0);
	ck_assert_int_gt(batches, 10);
	ck_assert_int_ge(rcu_atomic_load(&resizer_rounds, memory_order_relaxed), 2);
	test_empty_and_destroy(ht);
}
END_TEST

/* Seconds for one shrink from size to 1 of a table holding size / 4 keys
 * (best of three). */
static double shrink_seconds(unsigned long size)
{
	double best = 1e9;

	for (int run = 0; run < 3; run++) {
		struct cds_lfht *ht = test_new_table(size, 0, NULL, size / 4);
		double t0, t;

		t0 = test_now();
		resize_checked(ht, 1);
		t = test_now() - t0;
		best = t < best ? t : best;
		ck_assert_uint_eq(lfht_nr_buckets(ht), 1);
		/* Grown back first: lookups in one bucket of size / 4 keys
		 * would make the check itself quadratic. */
		resize_checked(ht, size);
		ck_assert_uint_eq(test_count_found(ht, 0, size / 4), size / 4);
		test_empty_and_destroy(ht);
	}
	return best;
}

/*
 * Shrinking 16x more buckets holding 16x more keys must cost about 16x,
 * not 256x: a shrink that unlinks every removed bucket by walking from the
 * final (smallest) bucket table is quadratic. One order at a time, each
 * removed bucket is unlinked from its parent, next to it: buckets + keys/2
 * steps per order removed, 19x here; caches (and TSan's shadow memory)
 * make a step of the larger table up to 3x dearer (measured: 25x natively,
 * 30-53x under TSan). The bound, 128x, leaves 2x to either side.
 * Ratio-based, so slow hosts (qemu, sanitizers) do not matter; the small
 * time is floored at 5 ms so fixed costs (grace periods) cannot make the
 * ratio noisy.
 */
START_TEST(shrink_cost_is_linear_in_table_size)
{
	double small = shrink_seconds(1UL << 12);
	double large = shrink_seconds(1UL << 16);
	double ratio = large / (small > 0.005 ? small : 0.005);

	fprintf(stderr, "[%s] shrink to 1: 4096 buckets %.4f s, 65536 buckets %.4f s "
		"(ratio %.1f)\n", TEST_FLAVOUR_NAME, small, large, ratio);
	ck_assert_msg(ratio < 128.0, "shrink 65536->1 took %.1fx shrink 4096->1 "
		      "(%.4f s vs %.4f s): quadratic", ratio, large, small);
}
END_TEST

/* ---- growth never waits for readers ------------------------------------- */

/* What a grower thread did while the test thread stayed in its section. */
struct grower {
	struct cds_lfht *ht;
	unsigned long sizes[4];
	_Atomic(int) done;
};

static void *grow_through_sizes(void *arg)
{
	struct grower *g = arg;

	rcu_register_thread();
	for (int i = 0; i < 4; i++)
		cds_lfht_resize(g->ht, g->sizes[i]);
	/* Release: pairs with the acquire load in the waiting test thread,
	 * which then checks the size the resizes left. */
	rcu_atomic_store(&g->done, 1, memory_order_release);
	rcu_unregister_thread();
	return NULL;
}

/* Polls cond for up to seconds without a quiescent state or leaving the
 * read-side section (test_wait_until() goes offline between polls). */
static bool wait_inside_section(bool (*cond)(void *arg), void *arg, double seconds)
{
	double end = test_now() + seconds;
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };

	while (!cond(arg)) {
		if (test_now() > end)
			return false;
		nanosleep(&ms, NULL);
	}
	return true;
}

static bool grower_done(void *arg)
{
	struct grower *g = arg;

	/* Acquire: pairs with the release store in grow_through_sizes(). */
	return rcu_atomic_load(&g->done, memory_order_acquire) != 0;
}

/*
 * Each grow past 2^3, 2^7, 2^15 buckets replaces the bucket orders array.
 * A grow must never wait for a grace period (nothing freed on the grow
 * path may be waited for): the test thread stays in one read-side section
 * (QSBR: online, no quiescent state) while another thread grows the table
 * four times and finds every key in it. Before replaced arrays went to
 * call_rcu, the second resize waited in synchronize_rcu() for this reader.
 */
START_TEST(grow_proceeds_while_a_reader_stays_in_its_section)
{
	struct cds_lfht *ht = test_new_table(1, 0, NULL, 2000);
	struct grower g = { .ht = ht, .sizes = { 16, 256, 1UL << 16, 1UL << 17 } };
	unsigned long found_before = 0, found_after = 0, buckets;
	pthread_t thread;
	bool finished;

	rcu_read_lock();
	for (uint64_t k = 0; k < 2000; k++)
		found_before += test_lookup(ht, k) != NULL;
	test_start(&thread, grow_through_sizes, &g);
	finished = wait_inside_section(grower_done, &g, 30.0);
	buckets = lfht_nr_buckets(ht);
	for (uint64_t k = 0; k < 2000; k++)
		found_after += test_lookup(ht, k) != NULL;
	rcu_read_unlock();
	test_join(thread);
	fprintf(stderr, "[%s] four grows while one reader stays in its section: %s, "
		"%lu buckets\n", TEST_FLAVOUR_NAME, finished ? "done" : "blocked", buckets);
	ck_assert_msg(finished, "the grows waited for a reader inside its read-side section");
	ck_assert_uint_eq(buckets, 1UL << 17);
	ck_assert_uint_eq(found_before, 2000);
	ck_assert_uint_eq(found_after, 2000);
	lfht_check_invariants_(ht);
	test_empty_and_destroy(ht);
}
END_TEST

/*
 * The same through the shared resize worker: an auto-resizing table grows
 * from 1 bucket past 2^10 (the orders array replaced twice) while the test
 * thread stays in one read-side section and another thread adds keys.
 */
struct auto_grower {
	struct cds_lfht *ht;
	_Atomic(int) done;
};

static void *fill_auto_table(void *arg)
{
	struct auto_grower *g = arg;

	rcu_register_thread();
	test_fill(g->ht, 0, 1UL << 14);
	/* Release: pairs with the acquire load in auto_grower_done(). */
	rcu_atomic_store(&g->done, 1, memory_order_release);
	rcu_unregister_thread();
	return NULL;
}

static bool auto_grown(void *arg)
{
	struct auto_grower *g = arg;

	/* Acquire: pairs with the release store in fill_auto_table(). */
	return rcu_atomic_load(&g->done, memory_order_acquire) != 0 &&
	       lfht_nr_buckets(g->ht) > 1024;
}

START_TEST(auto_resize_grows_while_a_reader_stays_in_its_section)
{
	struct auto_grower g = {
		.ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | test_density_flag(_i), NULL),
	};
	unsigned long buckets;
	pthread_t thread;
	bool grew;

	ck_assert_ptr_nonnull(g.ht);
	rcu_read_lock();
	test_start(&thread, fill_auto_table, &g);
	grew = wait_inside_section(auto_grown, &g, 30.0);
	buckets = lfht_nr_buckets(g.ht);
	rcu_read_unlock();
	test_join(thread);
	fprintf(stderr, "[%s] auto-resize while one reader stays in its section: "
		"%lu buckets\n", TEST_FLAVOUR_NAME, buckets);
	ck_assert_msg(grew, "the resize worker waited for a reader inside its read-side "
		      "section: %lu buckets for 16384 keys", buckets);
	ck_assert_uint_eq(test_count_found(g.ht, 0, 1UL << 14), 1UL << 14);
	lfht_check_invariants_(g.ht);
	test_empty_and_destroy(g.ht);
}
END_TEST

/* ---- the floor of auto-resize --------------------------------------------- */

/* Test builds: auto-resize's floor, 1 unless a test sets it
 * (lfht/resize.c). */
extern _Atomic(unsigned long) lfht_test_resize_floor_;

static bool look_settled(void *arg)
{
	struct bucket_watch *w = arg;

	/* Relaxed: as in note_look(). */
	return rcu_atomic_load(&size_after_look, memory_order_relaxed) == w->bound;
}

/* Waits for a look of the worker to end with want buckets (a resize goes
 * an order at a time, so a size seen on the way proves nothing). */
static void expect_look_ends_at(struct cds_lfht *ht, unsigned long want, const char *what)
{
	struct bucket_watch w = { .ht = ht, .bound = want };

	ck_assert_msg(test_wait_until(look_settled, &w, 20.0), "%s: %lu buckets, not %lu",
		      what, lfht_nr_buckets(ht), want);
	ck_assert_uint_eq(lfht_nr_buckets(ht), want);
}

/* Fills 20 keys into a table of at most max buckets (0: no limit) at a
 * density and expects auto-resize to settle it at want buckets. */
static void floor_expect(unsigned long max, unsigned long want, int density)
{
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING | test_density_flag(density);
	struct cds_lfht *ht = cds_lfht_new(1, 1, max, flags, NULL);
	char what[64];

	ck_assert_ptr_nonnull(ht);
	rcu_atomic_store(&size_after_look, 0, memory_order_relaxed);
	test_fill(ht, 0, 20);
	snprintf(what, sizeof(what), "density %lu, max %lu, 20 keys", test_density(density),
		 max);
	expect_look_ends_at(ht, want, what);
	lfht_check_invariants_(ht);
	ck_assert_uint_eq(test_count_found(ht, 0, 20), 20);
	test_empty_and_destroy(ht);
}

/*
 * A grow goes to LFHT_RESIZE_FLOOR buckets at once, within the table's
 * max_nr_buckets, at any density: 20 keys, which their load alone holds in
 * 16 to 32 buckets (64 to 128 at 4 per node), get the floor, whose bucket
 * words a reader and a writer on different CPUs share far less (pools:
 * 5-8 M/s of updates at 16-32 buckets, 17-22 at 512, docs/resizing.md).
 */
START_TEST(auto_resize_grows_to_the_floor_within_max_buckets)
{
	rcu_atomic_store(&lfht_test_resize_floor_, LFHT_RESIZE_FLOOR, memory_order_relaxed);
	lfht_test_step_hook_ = note_look;
	floor_expect(0, LFHT_RESIZE_FLOOR, _i);
	floor_expect(128, 128, _i);
	lfht_test_step_hook_ = NULL;
	rcu_atomic_store(&lfht_test_resize_floor_, 1, memory_order_relaxed);
}
END_TEST

/* A shrink stops at the floor: 10 keys left of 8192, the table shrinks to
 * LFHT_RESIZE_FLOOR (16 buckets without it) and stays there. */
START_TEST(auto_resize_shrinks_no_further_than_the_floor)
{
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;
	struct cds_lfht *ht;

	rcu_atomic_store(&lfht_test_resize_floor_, LFHT_RESIZE_FLOOR, memory_order_relaxed);
	lfht_test_step_hook_ = note_look;
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 8192);
	expect_look_ends_at(ht, 8192, "8192 keys");
	test_del_keys(ht, 10, 8192, 1);
	expect_look_ends_at(ht, LFHT_RESIZE_FLOOR, "10 keys left");
	test_del_keys(ht, 0, 10, 1);
	ck_assert_uint_eq(lfht_nr_buckets(ht), LFHT_RESIZE_FLOOR);
	lfht_check_invariants_(ht);
	test_empty_and_destroy(ht);
	lfht_test_step_hook_ = NULL;
	rcu_atomic_store(&lfht_test_resize_floor_, 1, memory_order_relaxed);
}
END_TEST

int main(void)
{
	Suite *s = suite_create(TEST_FLAVOUR_NAME);

	TEST_ADD(s, resize_is_synchronous_and_reaches_the_size, 60);
	TEST_ADD(s, resize_clamps_to_min_and_max_buckets, 30);
	TEST_ADD(s, grow_then_shrink_keeps_every_node_findable, 60);
	TEST_ADD_DENSITIES(s, auto_resize_grows_when_chains_get_long, 120);
	TEST_ADD_DENSITIES(s, density_keeps_n_buckets_per_node_after_growth_and_shrink, 120);
	TEST_ADD_DENSITIES(s, density_stays_within_min_and_max_buckets, 120);
	TEST_ADD(s, auto_resize_never_exceeds_max_buckets, 60);
	TEST_ADD(s, auto_resize_with_accounting_shrinks_when_emptied, 60);
	TEST_ADD(s, shrink_waits_for_the_deletes_to_pause, 60);
	TEST_ADD(s, deletes_leave_an_open_shrink_window_to_the_worker, 60);
	TEST_ADD(s, shrink_of_auto_resized_table_stops_at_min_buckets, 30);
	TEST_ADD_DENSITIES(s, auto_resize_grows_to_the_floor_within_max_buckets, 60);
	TEST_ADD(s, auto_resize_shrinks_no_further_than_the_floor, 60);
	TEST_ADD(s, large_bucket_tables_live_in_the_region_and_a_shrink_gives_them_back, 30);
	TEST_ADD(s, a_refused_region_leaves_every_table_to_the_allocator, 30);
	TEST_ADD(s, unusable_attr_refuses_auto_resize_and_resizes_without_helpers, 60);
	TEST_ADD(s, resize_with_default_attr_partitions_and_keeps_nodes, 60);
	TEST_ADD(s, shrink_cost_is_linear_in_table_size, 120);
	TEST_ADD(s, lookup_batch_during_resizes_finds_every_key_and_no_other, 60);
	TEST_ADD(s, grow_proceeds_while_a_reader_stays_in_its_section, 60);
	TEST_ADD_DENSITIES(s, auto_resize_grows_while_a_reader_stays_in_its_section, 120);
	return test_main(s);
}
