/* SPDX-License-Identifier: MIT */
/*
 * tests/lfht_test.c - the helpers of lfht_test.h, built once per flavour
 * together with each test source.
 */
#define _GNU_SOURCE
#include "lfht_test.h"

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>

_Atomic(long) test_bad_magic;
_Atomic(long) test_nodes_live;
struct test_alloc test_alloc;

/* ---- entries ----------------------------------------------------------- */

/* The next node id of this thread: a thread number taken once from a
 * shared counter, then a private sequence (no shared write per node). */
static uint64_t next_node_id(void)
{
	static _Atomic(uint64_t) threads;
	static _Thread_local uint64_t thread, seq;

	if (thread == 0)
		thread = rcu_atomic_add(&threads, 1, memory_order_relaxed) + 1;
	return (thread << 40) | ++seq;
}

struct test_node *test_node_new(uint64_t key, uint64_t value)
{
	struct test_node *tn = calloc(1, sizeof(*tn));

	if (tn == NULL)
		abort();	/* also called from worker threads: no ck_assert */
	cds_lfht_node_init(&tn->node);
	tn->key = key;
	tn->value = value;
	tn->id = next_node_id();
	/* Relaxed: the entry is published by the table's own release. */
	rcu_atomic_store(&tn->magic, TEST_MAGIC_LIVE, memory_order_relaxed);
	rcu_atomic_add(&test_nodes_live, 1, memory_order_relaxed);
	return tn;
}

static void node_poison_and_free(struct test_node *tn)
{
	/* Relaxed: a reader that still sees the entry is the bug being shown;
	 * the poison only makes it visible. */
	rcu_atomic_store(&tn->magic, TEST_MAGIC_DEAD, memory_order_relaxed);
	tn->key = UINT64_MAX;
	rcu_atomic_sub(&test_nodes_live, 1, memory_order_relaxed);
	free(tn);
}

void test_node_free_now(struct test_node *tn)
{
	node_poison_and_free(tn);
}

static void node_free_cb(struct rcu_head *head)
{
	node_poison_and_free(caa_container_of(head, struct test_node, rcu));
}

void test_node_free_rcu(struct test_node *tn)
{
	call_rcu(&tn->rcu, node_free_cb);
}

struct test_node *test_node_of(struct cds_lfht_node *node)
{
	struct test_node *tn;

	if (node == NULL)
		return NULL;
	tn = caa_container_of(node, struct test_node, node);
	if (rcu_atomic_load(&tn->magic, memory_order_relaxed) != TEST_MAGIC_LIVE)
		rcu_atomic_add(&test_bad_magic, 1, memory_order_relaxed);
	return tn;
}

unsigned long test_hash(uint64_t key)
{
	uint64_t z = key + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned long)(z ^ (z >> 31));
}

unsigned long test_collide_hash(uint64_t key)
{
	return test_hash(key / TEST_COLLIDE_GROUP);
}

int test_match(struct cds_lfht_node *node, const void *key)
{
	struct test_node *tn = test_node_of(node);

	return tn->key == *(const uint64_t *)key;
}

struct test_node *test_lookup(struct cds_lfht *ht, uint64_t key)
{
	struct cds_lfht_iter iter;

	return test_lookup_iter(ht, key, &iter);
}

struct test_node *test_lookup_iter(struct cds_lfht *ht, uint64_t key, struct cds_lfht_iter *iter)
{
	cds_lfht_lookup(ht, test_hash(key), test_match, &key, iter);
	return test_node_of(cds_lfht_iter_get_node(iter));
}

unsigned long test_count_key(struct cds_lfht *ht, uint64_t key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	cds_lfht_for_each_duplicate(ht, test_hash(key), test_match, &key, &iter, node) {
		if (test_node_of(node)->key == key)
			n++;
	}
	return n;
}

unsigned long test_count_nodes(struct cds_lfht *ht, long *before, long *after)
{
	long b = -1, a = -1;
	unsigned long count = 0;

	rcu_read_lock();
	cds_lfht_count_nodes(ht, &b, &count, &a);
	rcu_read_unlock();
	if (before != NULL)
		*before = b;
	if (after != NULL)
		*after = a;
	return count;
}

unsigned long test_del_all(struct cds_lfht *ht)
{
	unsigned long n = 0;
	long failed = 0;
	bool more = true;

	/* Batches: a full restart from cds_lfht_first per node would walk the
	 * ever longer run of empty buckets at the front each time. */
	while (more) {
		struct cds_lfht_iter iter;
		struct cds_lfht_node *node;
		int batch = 0;

		more = false;
		rcu_read_lock();
		cds_lfht_for_each(ht, &iter, node) {
			struct test_node *tn = test_node_of(node);

			if (cds_lfht_del(ht, node) != 0) {
				failed++;
				continue;
			}
			test_node_free_rcu(tn);	/* call_rcu may be called in a section */
			n++;
			if (++batch == 1024) {
				more = true;
				break;
			}
		}
		rcu_read_unlock();
		quiescent();
	}
	ck_assert_msg(failed == 0, "%ld nodes met in a quiescent table failed to delete",
		      failed);
	return n;
}

/* ---- counting allocator ----------------------------------------------- */

/* A header before each block records its size, so free can check it. */
#define ALLOC_HEADER 16

static void *count_zalloc(size_t size, void *ctx)
{
	struct test_alloc *a = ctx;
	long n = rcu_atomic_add(&a->attempts, 1, memory_order_relaxed) + 1;
	long fail_at = rcu_atomic_load(&a->fail_at, memory_order_relaxed);
	unsigned char *p;

	if (rcu_atomic_load(&a->fail_all, memory_order_relaxed) || n == fail_at)
		return NULL;
	/* malloc's alignment (16 on the targets) plus a 16-byte header keeps
	 * the 16-byte alignment the hook promises. */
	p = calloc(1, size + ALLOC_HEADER);
	if (p == NULL)
		return NULL;
	memcpy(p, &size, sizeof(size));
	rcu_atomic_add(&a->allocs, 1, memory_order_relaxed);
	rcu_atomic_add(&a->bytes_total, (long)size, memory_order_relaxed);
	rcu_atomic_add(&a->bytes_outstanding, (long)size, memory_order_relaxed);
	return p + ALLOC_HEADER;
}

static void count_free(void *ptr, size_t size, void *ctx)
{
	struct test_alloc *a = ctx;
	unsigned char *p;
	size_t asked;

	if (ptr == NULL)
		return;
	p = (unsigned char *)ptr - ALLOC_HEADER;
	memcpy(&asked, p, sizeof(asked));
	if (asked != size)
		rcu_atomic_add(&a->bad_frees, 1, memory_order_relaxed);
	rcu_atomic_add(&a->frees, 1, memory_order_relaxed);
	rcu_atomic_sub(&a->bytes_outstanding, (long)asked, memory_order_relaxed);
	free(p);
}

static const struct lfht_allocator count_allocator = {
	.zalloc = count_zalloc,
	.free = count_free,
	.ctx = &test_alloc,
};

void test_alloc_install(void)
{
	rcu_atomic_store(&test_alloc.attempts, 0, memory_order_relaxed);
	rcu_atomic_store(&test_alloc.allocs, 0, memory_order_relaxed);
	rcu_atomic_store(&test_alloc.frees, 0, memory_order_relaxed);
	rcu_atomic_store(&test_alloc.bytes_total, 0, memory_order_relaxed);
	rcu_atomic_store(&test_alloc.bytes_outstanding, 0, memory_order_relaxed);
	rcu_atomic_store(&test_alloc.bad_frees, 0, memory_order_relaxed);
	rcu_atomic_store(&test_alloc.fail_at, 0, memory_order_relaxed);
	rcu_atomic_store(&test_alloc.fail_all, 0, memory_order_relaxed);
	lfht_set_allocator(&count_allocator);
}

void test_alloc_uninstall(void)
{
	lfht_set_allocator(NULL);
}

/* ---- time, threads, waits --------------------------------------------- */

int test_wait_child(pid_t pid, double end)
{
	int status = 0;

	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		struct timespec ms = { 0, 5000000 };

		if (got == pid)
			return status;
		if (got < 0 || test_now() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		test_offline();
		nanosleep(&ms, NULL);
		test_online();
	}
}

bool test_size_reached(void *goal)
{
	struct test_size_goal *g = goal;
	unsigned long n = lfht_nr_buckets(g->ht);

	return n >= g->at_least && n <= g->at_most;
}

bool test_wait_until(bool (*cond)(void *arg), void *arg, double seconds)
{
	double end = test_now() + seconds;
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };

	for (;;) {
		if (cond(arg))
			return true;
		if (test_now() > end)
			return false;
		test_offline();
		nanosleep(&ms, NULL);
		test_online();
	}
}

void test_join(pthread_t thread)
{
	int ret;

	test_offline();
	ret = pthread_join(thread, NULL);
	test_online();
	ck_assert_int_eq(ret, 0);
}

void test_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	ck_assert_int_eq(pthread_create(thread, NULL, fn, arg), 0);
}

void test_spin_pause(void)
{
	quiescent();
	sched_yield();
}

/* Racer side: waits for a round after last; returns it, or -1 to stop. */
static long rounds_wait(struct test_rounds *r, long last)
{
	for (;;) {
		/* Acquire: pairs with the release in test_rounds_run(), so the
		 * round's setup by the main thread is visible. */
		long cur = rcu_atomic_load(&r->round, memory_order_acquire);

		if (cur < 0)
			return -1;
		if (cur > last)
			return cur;
		test_spin_pause();
	}
}

static void *rounds_racer(void *arg)
{
	struct test_member *me = arg;
	struct test_rounds *r = me->team;
	long round = 0;

	rcu_register_thread();
	while ((round = rounds_wait(r, round)) > 0) {
		r->play(r, me->id, round);
		/* Release: publishes this racer's result; pairs with the
		 * acquire in test_rounds_run(). */
		rcu_atomic_add(&r->done, 1, memory_order_release);
	}
	rcu_unregister_thread();
	return NULL;
}

void test_rounds_start(struct test_rounds *r, int nr,
		       void (*play)(struct test_rounds *r, int id, long round))
{
	ck_assert_int_le(nr, TEST_MAX_RACERS);
	r->play = play;
	r->nr = nr;
	for (int i = 0; i < nr; i++) {
		r->racers[i] = (struct test_member){ .team = r, .id = i };
		test_start(&r->threads[i], rounds_racer, &r->racers[i]);
	}
}

bool test_rounds_run(struct test_rounds *r, long round)
{
	long want = round * r->nr;
	double end = test_now() + 30.0;

	/* Release: publishes the round's setup; pairs with the acquire in
	 * rounds_wait(). */
	rcu_atomic_store(&r->round, round, memory_order_release);
	/* Acquire: pairs with the release in rounds_racer(). */
	while (rcu_atomic_load(&r->done, memory_order_acquire) < want) {
		if (test_now() > end)
			return false;
		test_spin_pause();
	}
	return true;
}

void test_rounds_stop(struct test_rounds *r)
{
	/* Release: pairs with the acquire in rounds_wait(). */
	rcu_atomic_store(&r->round, -1, memory_order_release);
	for (int i = 0; i < r->nr; i++)
		test_join(r->threads[i]);
}

int test_main(Suite *suite)
{
	SRunner *sr = srunner_create(suite);
	int failed;

	rcu_register_thread();
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	rcu_barrier();
	rcu_unregister_thread();
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/*
 * After a failed assertion inside a read-side section (Check jumps out of
 * the test), leave the section so later tests do not wait on this thread.
 */
static void leave_read_sections(void)
{
	test_leave_read_sections();
}

void test_add(Suite *s, const char *name, const TTest *test, double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, NULL, leave_read_sections);

	tcase_set_timeout(tc, timeout);
	tcase_add_test(tc, test);
	suite_add_tcase(s, tc);
}

struct cds_lfht *test_new_table(unsigned long init, int flags, pthread_attr_t *attr,
				uint64_t nr)
{
	struct cds_lfht *ht;

	if (attr != NULL)
		ck_assert_int_eq(pthread_attr_init(attr), 0);
	ht = cds_lfht_new(init, 1, 0, flags, attr);
	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, nr);
	return ht;
}

void test_fill(struct cds_lfht *ht, uint64_t from, uint64_t to)
{
	for (uint64_t k = from; k < to; k++) {
		struct test_node *tn = test_node_new(k, 0);

		rcu_read_lock();
		cds_lfht_add(ht, test_hash(k), &tn->node);
		rcu_read_unlock();
		if (k % 512 == 0)
			quiescent();
	}
}

void test_del_keys(struct cds_lfht *ht, uint64_t from, uint64_t to, uint64_t step)
{
	for (uint64_t k = from; k < to; k += step) {
		struct test_node *tn;
		int ret = -ENOENT;

		rcu_read_lock();
		tn = test_lookup(ht, k);
		if (tn != NULL)
			ret = cds_lfht_del(ht, &tn->node);
		rcu_read_unlock();
		ck_assert_msg(ret == 0, "del of key %llu: %d", (unsigned long long)k, ret);
		test_node_free_rcu(tn);
		if ((k - from) / step % 256 == 0)
			quiescent();
	}
	quiescent();
}

unsigned long test_count_found(struct cds_lfht *ht, uint64_t from, uint64_t to)
{
	unsigned long n = 0;

	rcu_read_lock();
	for (uint64_t k = from; k < to; k++) {
		struct test_node *tn = test_lookup(ht, k);

		n += tn != NULL && tn->key == k;
	}
	rcu_read_unlock();
	return n;
}

void test_empty_and_destroy(struct cds_lfht *ht)
{
	test_del_all(ht);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	rcu_barrier();
	ck_assert_int_eq(rcu_atomic_load(&test_bad_magic, memory_order_relaxed), 0);
}

void test_destroy_holding(struct cds_lfht *ht, unsigned long nr)
{
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), nr);
	test_empty_and_destroy(ht);
}
