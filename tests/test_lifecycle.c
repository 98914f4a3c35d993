/* SPDX-License-Identifier: MIT */
/*
 * tests/test_lifecycle.c - the table in a real process: many tables and the
 * threads they cost, tables that share updaters, a resize worker that is
 * frozen while updates go on, QSBR callers that are offline, and a fork
 * child that fills a table with 2M keys and flushes it by restarted
 * iteration within a bound.
 */
#define _GNU_SOURCE
#include "lfht_test.h"

#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WAIT_SECONDS 30.0

/* ---- helpers -------------------------------------------------------------- */

/* Threads of this process, from /proc/self/task. */
static long thread_count(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	long n = 0;

	ck_assert_ptr_nonnull(dir);
	while ((e = readdir(dir)) != NULL)
		n += e->d_name[0] != '.';
	closedir(dir);
	return n;
}

/* The thread id of the resize worker (named "lfht-resize"), or 0. */
static pid_t resize_worker_tid(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	pid_t tid = 0;

	ck_assert_ptr_nonnull(dir);
	while (tid == 0 && (e = readdir(dir)) != NULL) {
		char path[300], name[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && strncmp(name, "lfht-resize", 11) == 0)
			tid = (pid_t)atol(e->d_name);
		fclose(f);
	}
	closedir(dir);
	return tid;
}

/* Whether the table's size is one its load keeps (the auto-resize policy:
 * at most 1 and at least 1/4 node per bucket, within min and max). */
static bool load_settled(void *arg)
{
	struct cds_lfht *ht = arg;
	unsigned long size = lfht_nr_buckets(ht), count;
	long before, after;

	rcu_read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	(void)before;
	(void)after;
	return count <= size && (size == 1 || count >= size / 4);
}

/* ---- many tables ---------------------------------------------------------- */

#define NR_TABLES 10000

START_TEST(ten_thousand_growing_tables_cost_a_handful_of_threads)
{
	struct cds_lfht **tables = calloc(NR_TABLES, sizeof(*tables));
	long threads_before, threads_during;
	unsigned long grown = 0;

	/* The call_rcu worker first (a grow frees the bucket index it
	 * outgrows through call_rcu), and with it any thread a sanitizer
	 * starts at the program's first pthread_create (TSan's): counted in
	 * threads_before, so the bound below is the tables' cost alone. */
	rcu_barrier();
	threads_before = thread_count();
	ck_assert_ptr_nonnull(tables);
	for (unsigned i = 0; i < NR_TABLES; i++) {
		/* At most 64 buckets: auto-resize's floor would give each
		 * 512, and its worker 8 times the bucket links to make. */
		tables[i] = cds_lfht_new(1, 1, 64, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					 NULL);
		ck_assert_ptr_nonnull(tables[i]);
		/* 40 keys: past 1 per bucket, so each table asks to grow,
		 * to its 64. */
		test_fill(tables[i], 0, 40);
	}
	for (unsigned i = 0; i < NR_TABLES; i++) {
		struct test_size_goal g = { tables[i], 64, 64 };

		ck_assert_msg(test_wait_until(test_size_reached, &g, WAIT_SECONDS),
			      "table %u stuck at %lu buckets", i, lfht_nr_buckets(tables[i]));
		grown++;
	}
	threads_during = thread_count();
	fprintf(stderr, "[%s] %u auto-resizing tables, each grown: %ld threads "
		"(before: %ld)\n", TEST_FLAVOUR_NAME, NR_TABLES, threads_during,
		threads_before);
	ck_assert_uint_eq(grown, NR_TABLES);
	/* The shared worker, and one more for leeway (a resize helper, say). */
	ck_assert_int_le(threads_during, threads_before + 2);
	for (unsigned i = 0; i < NR_TABLES; i++) {
		ck_assert_uint_eq(test_count_found(tables[i], 0, 40), 40);
		test_empty_and_destroy(tables[i]);
	}
	/* The last destroy stops the shared worker. */
	ck_assert_int_eq(resize_worker_tid(), 0);
	free(tables);
}
END_TEST

/* ---- tables that share their updaters ------------------------------------ */

START_TEST(two_tables_updated_in_lock_step_both_shrink_when_emptied)
{
	struct cds_lfht *a = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					  NULL);
	struct cds_lfht *b = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					  NULL);
	struct test_size_goal a_grown = { a, 1UL << 13, ~0UL }, b_grown = { b, 1UL << 13, ~0UL };
	/* Emptied, each shrinks to auto-resize's floor. */
	struct test_size_goal a_small = { a, 1, LFHT_RESIZE_FLOOR };
	struct test_size_goal b_small = { b, 1, LFHT_RESIZE_FLOOR };
	const uint64_t nr = 1UL << 16;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	/* A two-way map: every update of one is followed by one of the other. */
	for (uint64_t k = 0; k < nr; k++) {
		test_fill(a, k, k + 1);
		test_fill(b, k, k + 1);
	}
	ck_assert(test_wait_until(test_size_reached, &a_grown, WAIT_SECONDS));
	ck_assert(test_wait_until(test_size_reached, &b_grown, WAIT_SECONDS));
	for (uint64_t k = 0; k < nr; k++) {
		struct test_node *ta, *tb;

		rcu_read_lock();
		ta = test_lookup(a, k);
		tb = test_lookup(b, k);
		ck_assert(ta && tb);
		ck_assert_int_eq(cds_lfht_del(a, &ta->node), 0);
		ck_assert_int_eq(cds_lfht_del(b, &tb->node), 0);
		rcu_read_unlock();
		test_node_free_rcu(ta);
		test_node_free_rcu(tb);
		quiescent();
	}
	ck_assert_msg(test_wait_until(test_size_reached, &a_small, WAIT_SECONDS),
		      "first table kept %lu buckets", lfht_nr_buckets(a));
	ck_assert_msg(test_wait_until(test_size_reached, &b_small, WAIT_SECONDS),
		      "second table kept %lu buckets", lfht_nr_buckets(b));
	fprintf(stderr, "[%s] two tables emptied in lock step: %lu and %lu buckets\n",
		TEST_FLAVOUR_NAME, lfht_nr_buckets(a), lfht_nr_buckets(b));
	test_empty_and_destroy(a);
	test_empty_and_destroy(b);
}
END_TEST

/* ---- a frozen worker ------------------------------------------------------ */

#define FREEZE_UPDATES 100000	/* adds and deletes, per updater */
#define FREEZE_UPDATERS 2
#define FREEZE_CYCLES 20

/* The handler freezes the thread it runs on until thaw_gen reaches the
 * freeze_gen it started with; frozen_gen tells the test it is there. */
static _Atomic(long) freeze_gen, thaw_gen, frozen_gen;

static void freeze_handler(int sig)
{
	/* Relaxed (all): flags polled by both sides until seen. */
	long gen = rcu_atomic_load(&freeze_gen, memory_order_relaxed);
	struct timespec ms = { 0, 1000000 };

	(void)sig;
	rcu_atomic_store(&frozen_gen, gen, memory_order_relaxed);
	while (rcu_atomic_load(&thaw_gen, memory_order_relaxed) < gen)
		nanosleep(&ms, NULL);	/* async-signal-safe */
}

static bool worker_frozen(void *gen)
{
	return rcu_atomic_load(&frozen_gen, memory_order_relaxed) == *(long *)gen;
}

struct updater {
	struct cds_lfht *ht;
	uint64_t first_key;
	struct test_node **nodes;
	_Atomic(long) *phase2;	/* non-zero: do the second half */
	_Atomic(long) done;	/* updates done */
	double slowest;		/* seconds, the slowest add or add + del */
};

/* Adds 2/3 * FREEZE_UPDATES keys and deletes every other one: updates that
 * keep asking the worker to grow. The second half waits for phase2.
 * Deleted nodes are kept until the end: the frozen worker may hold up
 * grace periods. */
static void *updater_main(void *arg)
{
	struct updater *u = arg;
	long adds = FREEZE_UPDATES / 3 * 2, updates = 0;

	rcu_register_thread();
	for (long i = 0; i < adds; i++) {
		if (i == adds / 2) {
			struct timespec ms = { 0, 1000000 };

			test_offline();
			/* Relaxed: a polled flag. */
			while (!rcu_atomic_load(u->phase2, memory_order_relaxed))
				nanosleep(&ms, NULL);
			test_online();
		}
		double t0;

		u->nodes[i] = test_node_new(u->first_key + (uint64_t)i, 0);
		t0 = test_now();
		rcu_read_lock();
		cds_lfht_add(u->ht, test_hash(u->first_key + (uint64_t)i), &u->nodes[i]->node);
		updates++;
		if (i % 2 == 1) {
			if (cds_lfht_del(u->ht, &u->nodes[i - 1]->node) != 0)
				rcu_atomic_add(&test_bad_magic, 1, memory_order_relaxed);
			updates++;
		}
		rcu_read_unlock();
		if (test_now() - t0 > u->slowest)
			u->slowest = test_now() - t0;
		quiescent();
		/* Relaxed: progress, read by the main thread. */
		rcu_atomic_store(&u->done, updates, memory_order_relaxed);
	}
	rcu_unregister_thread();
	return NULL;
}

static long updates_done(struct updater *u)
{
	long sum = 0;

	for (int k = 0; k < FREEZE_UPDATERS; k++)
		sum += rcu_atomic_load(&u[k].done, memory_order_relaxed);
	return sum;
}

static bool all_updates_done(void *arg)
{
	return updates_done(arg) == (long)FREEZE_UPDATERS * (FREEZE_UPDATES / 3 * 3);
}

static void freeze_worker(pid_t worker, long gen)
{
	rcu_atomic_store(&freeze_gen, gen, memory_order_relaxed);
	ck_assert_int_eq(syscall(SYS_tgkill, getpid(), worker, SIGUSR2), 0);
	ck_assert_msg(test_wait_until(worker_frozen, &gen, WAIT_SECONDS),
		      "the worker did not take the signal");
}

START_TEST(updates_complete_while_the_resize_worker_is_frozen)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					   NULL);
	struct updater u[FREEZE_UPDATERS];
	_Atomic(long) phase2 = 0;
	struct sigaction sa;
	pthread_t threads[FREEZE_UPDATERS];
	uint64_t rng = 0x1234567;
	long gen, before_freeze, kept = 64;
	pid_t worker;

	ck_assert_ptr_nonnull(ht);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = freeze_handler;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR2, &sa, NULL), 0);
	test_fill(ht, 1UL << 40, (1UL << 40) + (uint64_t)kept);
	worker = resize_worker_tid();
	ck_assert_msg(worker != 0, "no thread named lfht-resize");

	for (int k = 0; k < FREEZE_UPDATERS; k++) {
		u[k] = (struct updater){ .ht = ht, .first_key = (uint64_t)k << 32,
					 .phase2 = &phase2 };
		u[k].nodes = calloc(FREEZE_UPDATES, sizeof(*u[k].nodes));
		ck_assert_ptr_nonnull(u[k].nodes);
		test_start(&threads[k], updater_main, &u[k]);
	}
	/* First half: frozen and thawed at random moments, wherever it is
	 * (resizing, holding its locks, asleep). */
	for (gen = 1; gen < FREEZE_CYCLES; gen++) {
		struct timespec pause = { 0, (long)(test_rand(&rng) % 1000000) };

		freeze_worker(worker, gen);
		nanosleep(&pause, NULL);
		rcu_atomic_store(&thaw_gen, gen, memory_order_relaxed);
		nanosleep(&pause, NULL);
	}
	/* Second half: with the worker frozen throughout. */
	freeze_worker(worker, gen);
	before_freeze = updates_done(u);
	rcu_atomic_store(&phase2, 1, memory_order_relaxed);
	ck_assert_msg(test_wait_until(all_updates_done, u, WAIT_SECONDS),
		      "updates stopped while the worker was frozen (%ld of %ld done)",
		      updates_done(u), (long)FREEZE_UPDATERS * (FREEZE_UPDATES / 3 * 3));
	ck_assert(worker_frozen(&gen));
	for (int k = 0; k < FREEZE_UPDATERS; k++)
		test_join(threads[k]);
	fprintf(stderr, "[%s] %ld updates by %d threads, %ld of them while the resize "
		"worker was frozen, after %d freezes at random moments (%lu buckets); "
		"slowest update %.1f us\n",
		TEST_FLAVOUR_NAME, updates_done(u), FREEZE_UPDATERS,
		updates_done(u) - before_freeze, FREEZE_CYCLES - 1, lfht_nr_buckets(ht),
		1e6 * (u[0].slowest > u[1].slowest ? u[0].slowest : u[1].slowest));
	ck_assert_int_ge(updates_done(u) - before_freeze, FREEZE_UPDATES / 2);

	rcu_atomic_store(&thaw_gen, gen, memory_order_relaxed);
	ck_assert_msg(test_wait_until(load_settled, ht, WAIT_SECONDS),
		      "table stuck at %lu buckets after the thaw", lfht_nr_buckets(ht));
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL),
			  (unsigned long)kept + FREEZE_UPDATERS * (FREEZE_UPDATES / 3));
	signal(SIGUSR2, SIG_IGN);
	ck_assert_int_eq(rcu_atomic_load(&test_bad_magic, memory_order_relaxed), 0);
	synchronize_rcu();
	for (int k = 0; k < FREEZE_UPDATERS; k++) {
		for (long i = 0; i < FREEZE_UPDATES / 3 * 2; i += 2)
			test_node_free_now(u[k].nodes[i]);
		free(u[k].nodes);
	}
	test_empty_and_destroy(ht);
}
END_TEST

/* ---- offline QSBR callers -------------------------------------------------- */

static _Atomic(long) offline_called, offline_release;

static bool flag_set(void *flag)
{
	return rcu_atomic_load((_Atomic(long) *)flag, memory_order_relaxed) != 0;
}

static void *offline_resizer(void *arg)
{
	struct cds_lfht *ht = arg;
	struct timespec ms = { 0, 1000000 };

	rcu_register_thread();
	test_offline();
	cds_lfht_resize(ht, 1024);
	cds_lfht_resize(ht, 2);
	/* Relaxed: polled flags. */
	rcu_atomic_store(&offline_called, 1, memory_order_relaxed);
	/* Blocks, as an offline thread may. */
	while (!rcu_atomic_load(&offline_release, memory_order_relaxed))
		nanosleep(&ms, NULL);
	test_online();
	rcu_unregister_thread();
	return NULL;
}

static void synchronize_once(void *arg)
{
	(void)arg;
	synchronize_rcu();
}

static void *synchronizer(void *arg)
{
	_Atomic(long) *done = arg;

	synchronize_once(NULL);
	rcu_atomic_store(done, 1, memory_order_relaxed);
	return NULL;
}

START_TEST(offline_caller_of_resize_stays_offline)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, 0, NULL);
	_Atomic(long) synced = 0;
	pthread_t resizer, sync_thread;

	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 100);
	test_start(&resizer, offline_resizer, ht);
	ck_assert(test_wait_until(flag_set, &offline_called, WAIT_SECONDS));
	/* Unregistered thread: its grace period waits for every online
	 * reader, the sleeping resizer among them if it came back online. */
	test_start(&sync_thread, synchronizer, &synced);
	ck_assert_msg(test_wait_until(flag_set, &synced, WAIT_SECONDS),
		      "synchronize_rcu waited for the offline caller of cds_lfht_resize");
	rcu_atomic_store(&offline_release, 1, memory_order_relaxed);
	test_join(resizer);
	test_join(sync_thread);
	ck_assert_uint_eq(lfht_nr_buckets(ht), 2);
	ck_assert_uint_eq(test_count_found(ht, 0, 100), 100);
	test_empty_and_destroy(ht);
}
END_TEST

/* ---- a flush by restarted iteration, in a fork child ------------------- */

/* Keys the flush test adds: 2M natively; under a sanitizer or an emulator,
 * where every access costs tens of times more, 128K (the shape is the
 * same: a table grown from one bucket, emptied from the front). */
#define FLUSH_KEYS (1UL << 21)
#define FLUSH_KEYS_SLOW (1UL << 17)
/* Deletes per read-side section, as liburcu users write a flush. */
#define FLUSH_PASS 4096
/* The bound on the child's fill and flush (natively 3 to 10 s here, 25 s on
 * a loaded machine). */
#define FLUSH_CHILD_SECONDS 60.0

/* Deletes every node of ht: from cds_lfht_first, up to FLUSH_PASS per
 * read-side section, then again from the first. Returns the deletes; stops
 * at the deadline. */
static unsigned long flush_by_restarts(struct cds_lfht *ht, unsigned long *passes,
				       double deadline)
{
	unsigned long total = 0, n;

	*passes = 0;
	do {
		struct cds_lfht_iter iter;
		struct cds_lfht_node *node;

		n = 0;
		rcu_read_lock();
		cds_lfht_first(ht, &iter);
		while (n < FLUSH_PASS && (node = cds_lfht_iter_get_node(&iter)) != NULL) {
			struct test_node *tn = test_node_of(node);

			if (cds_lfht_del(ht, node) == 0) {
				test_node_free_rcu(tn);
				n++;
			}
			cds_lfht_next(ht, &iter);
		}
		rcu_read_unlock();
		quiescent();
		total += n;
		(*passes)++;
	} while (n && test_now() < deadline);
	return total;
}

/* The child (or, where fork is unsafe, the test itself): fill, flush,
 * check. Returns 0 on success, else prints why and returns 1. */
static int fill_and_flush(unsigned long nr_keys, double deadline)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					   NULL);
	unsigned long deleted, passes;
	double t0, t1, t2;

	if (ht == NULL) {
		fprintf(stderr, "flush: cds_lfht_new failed\n");
		return 1;
	}
	t0 = test_now();
	test_fill(ht, 0, nr_keys);
	t1 = test_now();
	deleted = flush_by_restarts(ht, &passes, deadline);
	t2 = test_now();
	fprintf(stderr, "[%s] %lu keys: fill %.2f s, flush %.2f s (%lu passes)\n",
		TEST_FLAVOUR_NAME, nr_keys, t1 - t0, t2 - t1, passes);
	if (deleted != nr_keys || test_count_nodes(ht, NULL, NULL) != 0) {
		fprintf(stderr, "flush: %lu of %lu keys deleted by %.0f s\n", deleted,
			nr_keys, deadline - t0);
		return 1;
	}
	test_offline();
	if (cds_lfht_destroy(ht, NULL) != 0) {
		test_online();
		fprintf(stderr, "flush: destroy failed\n");
		return 1;
	}
	rcu_barrier();
	test_online();
	if (rcu_atomic_load(&test_bad_magic, memory_order_relaxed) != 0) {
		fprintf(stderr, "flush: a reader saw a freed entry\n");
		return 1;
	}
	return 0;
}

START_TEST(fork_child_fills_and_flushes_two_million_keys_in_bounded_time)
{
	double end = test_now() + FLUSH_CHILD_SECONDS;
	int status = 0;
	pid_t pid;

#if defined(TEST_TSAN) || defined(TEST_ASAN)
	/* Fork with threads is not safe under these sanitizers (see
	 * test_hooks.c): the same fill and flush, smaller, in the test. */
	ck_assert_int_eq(fill_and_flush(FLUSH_KEYS_SLOW, end), 0);
	return;
#endif
	if (getenv("LFHT_TEST_EMULATED")) {
		/* qemu-user crashes when a fork child of a threaded process
		 * starts a thread (test_hooks.c). */
		ck_assert_int_eq(fill_and_flush(FLUSH_KEYS_SLOW, end), 0);
		return;
	}
	/* Threads first (the call_rcu worker, a resize worker): the child
	 * starts again the ones the library owns. */
	rcu_barrier();
	fflush(stderr);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(fill_and_flush(FLUSH_KEYS, end));
	status = test_wait_child(pid, end);
	if (status < 0)
		ck_abort_msg("child did not fill and flush %lu keys within %.0f s", FLUSH_KEYS,
			     FLUSH_CHILD_SECONDS);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed (status 0x%x, see stderr)", status);
}
END_TEST

/* This binary's own list of tests: the test binaries' mains are alike in
 * form only. */
int main(void)
{
	Suite *s = suite_create("lifecycle-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, ten_thousand_growing_tables_cost_a_handful_of_threads, 120);
	TEST_ADD(s, two_tables_updated_in_lock_step_both_shrink_when_emptied, 60);
	TEST_ADD(s, updates_complete_while_the_resize_worker_is_frozen, 60);
	TEST_ADD(s, offline_caller_of_resize_stays_offline, 60);
	TEST_ADD(s, fork_child_fills_and_flushes_two_million_keys_in_bounded_time, 120);
	return test_main(s);
}
