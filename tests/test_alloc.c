/* SPDX-License-Identifier: MIT */
/*
 * tests/test_alloc.c - the table's memory through lfht_set_allocator(): every
 * failing allocation of cds_lfht_new gives NULL/ENOMEM and leaks nothing, an
 * empty table is small, and allocation failures during a resize leave the
 * table correct and usable; destroy waits for the frees it deferred, or,
 * from a call_rcu callback, leaves the last free to them.
 */
#define _GNU_SOURCE
#include "lfht_test.h"

static long outstanding(void)
{
	return rcu_atomic_load(&test_alloc.bytes_outstanding, memory_order_relaxed);
}

static void set_fail_all(int on)
{
	rcu_atomic_store(&test_alloc.fail_all, on, memory_order_relaxed);
}

static void expect_all_freed(void)
{
	rcu_barrier();
	ck_assert_int_eq(outstanding(), 0);
	ck_assert_int_eq(rcu_atomic_load(&test_alloc.bad_frees, memory_order_relaxed), 0);
	ck_assert_int_eq(rcu_atomic_load(&test_alloc.allocs, memory_order_relaxed),
			 rcu_atomic_load(&test_alloc.frees, memory_order_relaxed));
}

static void new_fails_cleanly_at_every_allocation(unsigned long init, unsigned long min,
						  unsigned long max, int flags)
{
	long n;

	test_alloc_install();
	for (n = 1; n < 10000; n++) {
		struct cds_lfht *ht;

		rcu_atomic_store(&test_alloc.attempts, 0, memory_order_relaxed);
		rcu_atomic_store(&test_alloc.fail_at, n, memory_order_relaxed);
		errno = 0;
		ht = cds_lfht_new(init, min, max, flags, NULL);
		if (ht != NULL) {
			ck_assert_int_lt(rcu_atomic_load(&test_alloc.attempts,
							 memory_order_relaxed), n);
			test_fill(ht, 0, 100);
			ck_assert_uint_eq(test_count_found(ht, 0, 100), 100);
			test_del_all(ht);
			ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
			expect_all_freed();
			break;
		}
		ck_assert_msg(errno == ENOMEM, "allocation %ld failed: errno %d, not ENOMEM",
			      n, errno);
		expect_all_freed();
	}
	test_alloc_uninstall();
	fprintf(stderr, "[%s] new(%lu, %lu, %lu, %d): %ld allocations, each failure clean\n",
		TEST_FLAVOUR_NAME, init, min, max, flags, n - 1);
	ck_assert_int_gt(n, 1);
	ck_assert_int_lt(n, 10000);
}

START_TEST(new_fails_with_enomem_and_leaks_nothing_at_every_allocation)
{
	new_fails_cleanly_at_every_allocation(1, 1, 0, 0);
	new_fails_cleanly_at_every_allocation(1, 1, 0, CDS_LFHT_AUTO_RESIZE);
	new_fails_cleanly_at_every_allocation(
		4, 4, 1024, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	new_fails_cleanly_at_every_allocation(1024, 64, 0, CDS_LFHT_ACCOUNTING);
}
END_TEST

static long heap_cost(int flags)
{
	struct cds_lfht *ht;
	long bytes, allocs;

	test_alloc_install();
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	ck_assert_ptr_nonnull(ht);
	bytes = rcu_atomic_load(&test_alloc.bytes_total, memory_order_relaxed);
	allocs = rcu_atomic_load(&test_alloc.allocs, memory_order_relaxed);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	expect_all_freed();
	test_alloc_uninstall();
	fprintf(stderr, "[%s] empty table heap cost, flags %d: %ld bytes in %ld allocations\n",
		TEST_FLAVOUR_NAME, flags, bytes, allocs);
	return bytes;
}

START_TEST(empty_table_heap_cost_is_at_most_256_bytes)
{
	long bytes = heap_cost(0);

	ck_assert_int_gt(bytes, 0);
	ck_assert_int_le(bytes, 256);
}
END_TEST

START_TEST(empty_table_heap_cost_with_accounting_is_reported)
{
	long bytes = heap_cost(CDS_LFHT_ACCOUNTING);

	ck_assert_int_gt(bytes, 0);
	ck_assert_int_le(bytes, 1L << 20);
	bytes = heap_cost(CDS_LFHT_ACCOUNTING | CDS_LFHT_AUTO_RESIZE);
	ck_assert_int_gt(bytes, 0);
	ck_assert_int_le(bytes, 1L << 20);
}
END_TEST

START_TEST(table_frees_all_its_memory_after_use)
{
	struct cds_lfht *ht;

	test_alloc_install();
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 5000);
	cds_lfht_resize(ht, 4096);
	cds_lfht_resize(ht, 2);
	ck_assert_uint_eq(test_count_found(ht, 0, 5000), 5000);
	ck_assert_uint_eq(test_del_all(ht), 5000);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	expect_all_freed();
	test_alloc_uninstall();
}
END_TEST

/* A second counting allocator, for one table only. */
static _Atomic(long) own_allocs, own_frees;

static void *own_zalloc(size_t size, void *ctx)
{
	ck_assert_ptr_eq(ctx, &own_allocs);
	rcu_atomic_add(&own_allocs, 1, memory_order_relaxed);
	return calloc(1, size);
}

static void own_free(void *ptr, size_t size, void *ctx)
{
	(void)size;
	ck_assert_ptr_eq(ctx, &own_allocs);
	rcu_atomic_add(&own_frees, 1, memory_order_relaxed);
	free(ptr);
}

START_TEST(per_table_allocator_serves_its_table_only)
{
	const struct lfht_allocator own = { own_zalloc, own_free, &own_allocs };
	const struct lfht_allocator broken = { NULL, own_free, NULL };
	struct cds_lfht *mine, *other;

	test_alloc_install();	/* the default, for the other table */
	mine = lfht_new_with_allocator(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				       NULL, &own);
	other = cds_lfht_new(1, 1, 0, CDS_LFHT_ACCOUNTING, NULL);
	ck_assert_ptr_nonnull(mine);
	ck_assert_ptr_nonnull(other);
	test_fill(mine, 0, 2000);
	cds_lfht_resize(mine, 1024);
	test_fill(other, 0, 10);
	ck_assert_int_gt(rcu_atomic_load(&own_allocs, memory_order_relaxed), 3);
	ck_assert_uint_eq(test_count_found(mine, 0, 2000), 2000);
	test_empty_and_destroy(mine);
	ck_assert_int_eq(rcu_atomic_load(&own_allocs, memory_order_relaxed),
			 rcu_atomic_load(&own_frees, memory_order_relaxed));
	/* The default served the other table, and only it. */
	ck_assert_int_gt(rcu_atomic_load(&test_alloc.allocs, memory_order_relaxed), 0);
	test_empty_and_destroy(other);
	expect_all_freed();
	test_alloc_uninstall();
	errno = 0;
	ck_assert_ptr_null(lfht_new_with_allocator(1, 1, 0, 0, NULL, &broken));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* An allocator whose first block lies above 2^48 (never dereferenced:
 * the table refuses it before use and frees it). */
#define HIGH_BLOCK ((void *)(uintptr_t)(1ULL << 50))
static _Atomic(long) high_allocs, high_frees;

static void *high_zalloc(size_t size, void *ctx)
{
	(void)ctx;
	if (rcu_atomic_add(&high_allocs, 1, memory_order_relaxed) == 0)
		return HIGH_BLOCK;
	return calloc(1, size);
}

static void high_free(void *ptr, size_t size, void *ctx)
{
	(void)size;
	(void)ctx;
	rcu_atomic_add(&high_frees, 1, memory_order_relaxed);
	if (ptr != HIGH_BLOCK)
		free(ptr);
}

/* Tagged links cannot hold memory above 2^48: new refuses it, ENOMEM. */
START_TEST(new_refuses_memory_above_2_48_with_enomem)
{
	const struct lfht_allocator high = { high_zalloc, high_free, NULL };

	errno = 0;
	ck_assert_ptr_null(lfht_new_with_allocator(1, 1, 0, 0, NULL, &high));
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_int_eq(rcu_atomic_load(&high_allocs, memory_order_relaxed), 1);
	ck_assert_int_eq(rcu_atomic_load(&high_frees, memory_order_relaxed), 1);
}
END_TEST

START_TEST(resize_with_failing_allocator_keeps_table_usable_then_reaches_size)
{
	struct cds_lfht *ht;
	unsigned long size_during;

	test_alloc_install();
	ht = cds_lfht_new(1, 1, 0, 0, NULL);
	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 2000);

	set_fail_all(1);
	cds_lfht_resize(ht, 4096);
	size_during = lfht_nr_buckets(ht);
	ck_assert_uint_eq(test_count_found(ht, 0, 2000), 2000);
	test_fill(ht, 2000, 2100);	/* adds still work while allocations fail */
	ck_assert_uint_eq(test_count_found(ht, 0, 2100), 2100);
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 2100);
	set_fail_all(0);
	fprintf(stderr, "[%s] resize to 4096 with every allocation failing: %lu buckets\n",
		TEST_FLAVOUR_NAME, size_during);
	ck_assert_uint_ge(size_during, 1);
	ck_assert_uint_le(size_during, 4096);

	cds_lfht_resize(ht, 4096);
	ck_assert_uint_eq(lfht_nr_buckets(ht), 4096);
	ck_assert_uint_eq(test_count_found(ht, 0, 2100), 2100);

	/* A shrink while allocations fail, then one that may allocate. */
	set_fail_all(1);
	cds_lfht_resize(ht, 8);
	ck_assert_uint_eq(test_count_found(ht, 0, 2100), 2100);
	set_fail_all(0);
	cds_lfht_resize(ht, 8);
	ck_assert_uint_eq(lfht_nr_buckets(ht), 8);
	ck_assert_uint_eq(test_count_found(ht, 0, 2100), 2100);

	ck_assert_uint_eq(test_del_all(ht), 2100);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	expect_all_freed();
	test_alloc_uninstall();
	ck_assert_int_eq(rcu_atomic_load(&test_bad_magic, memory_order_relaxed), 0);
}
END_TEST

/*
 * An auto-resized table whose allocations all fail keeps every key at a
 * higher load, then resizes once they succeed; at most_buckets a grow the
 * fill asked the worker for may run only then, and land after ours (3000
 * keys: 4096 buckets at one bucket per node, 16384 at four).
 */
static void failing_allocator_keeps_all_keys(int density_flag, unsigned long most_buckets)
{
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING | density_flag;
	struct cds_lfht *ht;

	test_alloc_install();
	ht = cds_lfht_new(1, 1, 0, flags, NULL);
	ck_assert_ptr_nonnull(ht);
	set_fail_all(1);
	test_fill(ht, 0, 3000);
	ck_assert_uint_eq(test_count_found(ht, 0, 3000), 3000);
	set_fail_all(0);
	cds_lfht_resize(ht, 1024);
	ck_assert_uint_ge(lfht_nr_buckets(ht), 1024);
	ck_assert_uint_le(lfht_nr_buckets(ht), most_buckets);
	ck_assert_uint_eq(test_count_found(ht, 0, 3000), 3000);
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 3000);
	ck_assert_uint_eq(test_del_all(ht), 3000);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	expect_all_freed();
	test_alloc_uninstall();
}

START_TEST(auto_resize_with_failing_allocator_keeps_all_keys)
{
	failing_allocator_keeps_all_keys(0, 4096);
}
END_TEST

/*
 * Orders arrays that a grow replaced are freed by call_rcu callbacks that
 * use the table's allocator: cds_lfht_destroy() returns only once they
 * ran, so the allocator holds nothing of the table afterwards, without an
 * rcu_barrier() by the caller (and ASan sees no callback touch the freed
 * table).
 */
START_TEST(destroy_waits_for_the_frees_a_grow_deferred)
{
	struct cds_lfht *ht;

	test_alloc_install();
	ht = cds_lfht_new(1, 1, 0, 0, NULL);
	ck_assert_ptr_nonnull(ht);
	/* Past 2^3, 2^7 and 2^15 buckets: three arrays replaced. */
	cds_lfht_resize(ht, 1UL << 16);
	ck_assert_uint_eq(lfht_nr_buckets(ht), 1UL << 16);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	ck_assert_int_eq(outstanding(), 0);
	ck_assert_int_eq(rcu_atomic_load(&test_alloc.bad_frees, memory_order_relaxed), 0);
	test_alloc_uninstall();
}
END_TEST

/*
 * cds_lfht_destroy() from a call_rcu callback (liburcu 0.10 and later allow
 * it; BIND destroys tables there): it cannot wait for the callbacks that
 * free the orders arrays a grow replaced, so the last of them frees the
 * table. The destroying callback is queued first, then a reader holds the
 * grace period up while the grow queues three such callbacks behind it:
 * at the destroy they are all pending, the table's memory is still out
 * when it returns, and all of it comes back once they have run.
 */
struct destroy_in_callback {
	struct rcu_head head;
	struct cds_lfht *ht;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int reader_in, grown, destroyed, destroy_ret;
	long outstanding_after;
};

static void destroy_in_callback_cb(struct rcu_head *head)
{
	struct destroy_in_callback *d = caa_container_of(head, struct destroy_in_callback, head);

	d->destroy_ret = cds_lfht_destroy(d->ht, NULL);
	d->outstanding_after = outstanding();
	pthread_mutex_lock(&d->lock);
	d->destroyed = 1;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
}

static void *grace_period_holder(void *arg)
{
	struct destroy_in_callback *d = arg;

	rcu_register_thread();
	rcu_read_lock();
	pthread_mutex_lock(&d->lock);
	d->reader_in = 1;
	pthread_cond_broadcast(&d->cond);
	while (!d->grown)
		pthread_cond_wait(&d->cond, &d->lock);
	pthread_mutex_unlock(&d->lock);
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

START_TEST(destroy_from_a_call_rcu_callback_leaves_the_last_free_to_the_callbacks)
{
	struct destroy_in_callback d = { .lock = PTHREAD_MUTEX_INITIALIZER,
					 .cond = PTHREAD_COND_INITIALIZER };
	pthread_t reader;

	test_alloc_install();
	d.ht = cds_lfht_new(1, 1, 0, 0, NULL);
	ck_assert_ptr_nonnull(d.ht);
	ck_assert_int_eq(pthread_create(&reader, NULL, grace_period_holder, &d), 0);
	pthread_mutex_lock(&d.lock);
	while (!d.reader_in)
		pthread_cond_wait(&d.cond, &d.lock);
	pthread_mutex_unlock(&d.lock);
	call_rcu(&d.head, destroy_in_callback_cb);
	/* Past 2^3, 2^7 and 2^15 buckets: three arrays replaced, their
	 * callbacks queued behind the destroy's. */
	cds_lfht_resize(d.ht, 1UL << 16);
	ck_assert_uint_eq(lfht_nr_buckets(d.ht), 1UL << 16);
	/* QSBR: offline while blocked, or the grace period waits for us. */
	test_offline();
	pthread_mutex_lock(&d.lock);
	d.grown = 1;
	pthread_cond_broadcast(&d.cond);
	while (!d.destroyed)
		pthread_cond_wait(&d.cond, &d.lock);
	pthread_mutex_unlock(&d.lock);
	test_online();
	ck_assert_int_eq(pthread_join(reader, NULL), 0);
	ck_assert_int_eq(d.destroy_ret, 0);
	ck_assert_int_gt(d.outstanding_after, 0);
	expect_all_freed();
	test_alloc_uninstall();
}
END_TEST

/* The same at 4 buckets per node: a dense table that cannot get its next
 * order stays correct at a higher load. */
START_TEST(density_table_with_failing_allocator_keeps_all_keys)
{
	failing_allocator_keeps_all_keys(LFHT_BUCKETS_PER_NODE(4), 16384);
}
END_TEST

int main(void)
{
	Suite *s = suite_create(TEST_FLAVOUR_NAME);

	TEST_ADD(s, new_fails_with_enomem_and_leaks_nothing_at_every_allocation, 60);
	TEST_ADD(s, empty_table_heap_cost_is_at_most_256_bytes, 30);
	TEST_ADD(s, empty_table_heap_cost_with_accounting_is_reported, 30);
	TEST_ADD(s, table_frees_all_its_memory_after_use, 60);
	TEST_ADD(s, per_table_allocator_serves_its_table_only, 60);
	if (LFHT_TAG_MASK_)
		TEST_ADD(s, new_refuses_memory_above_2_48_with_enomem, 30);
	TEST_ADD(s, resize_with_failing_allocator_keeps_table_usable_then_reaches_size, 60);
	TEST_ADD(s, auto_resize_with_failing_allocator_keeps_all_keys, 60);
	TEST_ADD(s, destroy_waits_for_the_frees_a_grow_deferred, 30);
	TEST_ADD(s, destroy_from_a_call_rcu_callback_leaves_the_last_free_to_the_callbacks, 30);
	TEST_ADD(s, density_table_with_failing_allocator_keeps_all_keys, 60);
	return test_main(s);
}
