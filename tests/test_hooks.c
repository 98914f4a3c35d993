/* SPDX-License-Identifier: MIT */
/*
 * tests/test_hooks.c - tests that look inside the library: linked with a
 * test build of it (LFHT_TEST_HOOKS) that counts the nodes a read walk
 * visits and calls a hook after each resize step.
 *
 * - The duplicate walk's work is the key's run, counted, not timed.
 * - fork() with the shared resize worker idle, paused between two grow
 *   steps of a large table, and paused after a shrink step before its
 *   grace period (holding the table's resize lock and its own): the child
 *   finds every key, grows, shrinks and destroys its table within a bound;
 *   the parent's table then reaches its size with every key.
 * - A destroy from an offline thread while the worker is paused mid-shrink.
 */
#define _GNU_SOURCE
#include "lfht_test.h"
#include "../lfht/internal.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The test build's counters and hook (lfht/iter.c, lfht/resize.c). */
extern _Thread_local unsigned long lfht_test_visits_;
extern void (*lfht_test_step_hook_)(struct cds_lfht *ht, const char *step);

/* ---- the duplicate walk --------------------------------------------------- */

START_TEST(duplicate_walk_visits_only_the_keys_run)
{
	struct cds_lfht *ht = cds_lfht_new(1UL << 16, 1, 0, 0, NULL);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	uint64_t key = 12345;
	unsigned long found = 0, visits;

	ck_assert_ptr_nonnull(ht);
	rcu_read_lock();
	for (int i = 0; i < 3; i++)
		cds_lfht_add(ht, test_hash(key), &test_node_new(key, (uint64_t)i)->node);
	rcu_read_unlock();
	/* Four keys elsewhere, so the table is not quite empty: the run of
	 * key is followed by thousands of bucket nodes before any of them. */
	test_fill(ht, 1, 5);

	rcu_read_lock();
	/* The exported twin of cds_lfht_next_duplicate() (the library's walk
	 * is the one that counts visits). */
	for (cds_lfht_lookup(ht, test_hash(key), test_match, &key, &iter);
	     (node = cds_lfht_iter_get_node(&iter)) != NULL;
	     lfht_next_duplicate(ht, test_match, &key, &iter))
		if (!found++)
			lfht_test_visits_ = 0;
	visits = lfht_test_visits_;
	rcu_read_unlock();
	fprintf(stderr, "[%s] duplicate walk over 3 duplicates in 65536 buckets: "
		"%lu nodes visited by next_duplicate\n", TEST_FLAVOUR_NAME, visits);
	ck_assert_uint_eq(found, 3);
	/* The two later duplicates, then the node that ends the run. */
	ck_assert_uint_le(visits, 3);
	ck_assert_uint_ge(visits, 2);
	test_empty_and_destroy(ht);
}
END_TEST

/* ---- loads per lookup ----------------------------------------------------- */

#define LOAD_KEYS (1UL << 16)

/* Average nodes loaded by the lookups of keys [from, to), one load more
 * each for the bucket node's word. */
static double loads_per_lookup(struct cds_lfht *ht, uint64_t from, uint64_t to,
			       unsigned long *found)
{
	unsigned long visits;

	*found = 0;
	rcu_read_lock();
	lfht_test_visits_ = 0;
	/* The library's lookup (lfht/iter.c), whose walk the hook counts. */
	for (uint64_t k = from; k < to; k++) {
		struct cds_lfht_iter iter;

		lfht_lookup(ht, test_hash(k), test_match, &k, &iter);
		*found += cds_lfht_iter_get_node(&iter) != NULL;
	}
	visits = lfht_test_visits_;
	rcu_read_unlock();
	return 1.0 + (double)visits / (double)(to - from);
}

/*
 * Keys [0, LOAD_KEYS) in a table of LOAD_KEYS / nodes_per_bucket buckets:
 * the nodes loaded per hit (keys present) and per miss (keys absent), the
 * bucket's word counted as one. Tagged links settle a miss at the link to
 * the first larger node, so a miss loads only the nodes of its bucket
 * that sort before it, about nodes_per_bucket / 2; a hit also loads
 * itself. Plain links load the node that ends the walk as well.
 */
static void count_loads(unsigned long nodes_per_bucket, double *hit, double *miss)
{
	struct cds_lfht *ht = cds_lfht_new(LOAD_KEYS / nodes_per_bucket, 1, 0, 0, NULL);
	unsigned long found;

	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, LOAD_KEYS);
	*hit = loads_per_lookup(ht, 0, LOAD_KEYS, &found);
	ck_assert_uint_eq(found, LOAD_KEYS);
	*miss = loads_per_lookup(ht, LOAD_KEYS, 2 * LOAD_KEYS, &found);
	ck_assert_uint_eq(found, 0);
	fprintf(stderr, "[%s] %lu nodes per bucket (%s links): %.2f loads per hit, "
		"%.2f per miss, %.2f at 50%% hits\n", TEST_FLAVOUR_NAME, nodes_per_bucket,
		LFHT_TAG_MASK_ ? "tagged" : "plain", *hit, *miss, (*hit + *miss) / 2);
	test_empty_and_destroy(ht);
}

START_TEST(lookups_load_the_nodes_before_the_key_only)
{
	double hit1, miss1, hit4, miss4;

	count_loads(1, &hit1, &miss1);
	count_loads(4, &hit4, &miss4);
	/* A hit loads its bucket, the nodes of its bucket before it (half
	 * of the others, about nodes_per_bucket of them) and itself. */
	ck_assert_double_ge(hit1, 2.0);
	ck_assert_double_le(hit1, 2.0 + 0.5 + 0.1);
	ck_assert_double_le(hit4, 2.0 + 2.0 + 0.1);
	if (LFHT_TAG_MASK_) {
		/* A miss loads no node after its key: its bucket and the
		 * nodes of the bucket that sort before it. */
		ck_assert_double_le(miss1, 1.0 + 0.5 + 0.1);
		ck_assert_double_le(miss4, 1.0 + 2.0 + 0.1);
	} else {
		/* Plain links: the node that ends the walk is loaded too. */
		ck_assert_double_ge(miss1, 2.0);
	}
}
END_TEST

/* ---- fork with the worker at each stage ----------------------------------- */

#define FORK_KEYS (1UL << 17)
#define CHILD_SECONDS 60.0
#define WAIT_SECONDS 30.0

/* The hook: pauses the worker once, at the named step, with the table at
 * least min_size buckets (for "grow") until released. */
static struct {
	const char *step;
	unsigned long min_size;
	_Atomic(int) armed, paused, release;
} pause_at;

static void pause_hook(struct cds_lfht *ht, const char *step)
{
	int armed = 1;

	/* Relaxed (all): flags between this hook and the test thread, each
	 * polled until seen; the table itself is read under its own rules. */
	if (rcu_atomic_load(&pause_at.armed, memory_order_relaxed) == 0 ||
	    strcmp(step, pause_at.step) != 0 || lfht_nr_buckets(ht) < pause_at.min_size ||
	    !rcu_atomic_cas(&pause_at.armed, &armed, 0, memory_order_relaxed,
			    memory_order_relaxed))
		return;
	rcu_atomic_store(&pause_at.paused, 1, memory_order_relaxed);
	while (!rcu_atomic_load(&pause_at.release, memory_order_relaxed)) {
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
	}
}

static void arm_pause(const char *step, unsigned long min_size)
{
	pause_at.step = step;
	pause_at.min_size = min_size;
	rcu_atomic_store(&pause_at.paused, 0, memory_order_relaxed);
	rcu_atomic_store(&pause_at.release, 0, memory_order_relaxed);
	rcu_atomic_store(&pause_at.armed, 1, memory_order_relaxed);
	lfht_test_step_hook_ = pause_hook;
}

static bool worker_paused(void *arg)
{
	(void)arg;
	return rcu_atomic_load(&pause_at.paused, memory_order_relaxed) != 0;
}

/* The child's checks cannot use ck_assert (it would run the rest of the
 * suite in the child): they exit with a message. */
#define CHILD_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "[%s] child: ", TEST_FLAVOUR_NAME); \
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			_exit(1);					\
		}							\
	} while (0)

/* In the child: keys [0, nr_keys) are all there; the table grows, shrinks
 * and is destroyed. */
static void child_uses_table(struct cds_lfht *ht, unsigned long nr_keys)
{
	struct test_size_goal grown = { ht, 1UL << 14, ~0UL }, shrunk = { ht, 1, 64 };
	unsigned long n;

	lfht_test_step_hook_ = NULL;
	n = test_count_found(ht, 0, nr_keys);
	CHILD_CHECK(n == nr_keys, "found %lu of %lu keys", n, nr_keys);
	/* 2^17 keys more: the load asks for 2^18 buckets; at least 2^14
	 * shows the growth. */
	test_fill(ht, 1UL << 40, (1UL << 40) + (1UL << 17));
	CHILD_CHECK(test_wait_until(test_size_reached, &grown, WAIT_SECONDS),
		    "table did not grow: %lu buckets", lfht_nr_buckets(ht));
	n = test_del_all(ht);
	CHILD_CHECK(n == nr_keys + (1UL << 17), "deleted %lu", n);
	CHILD_CHECK(test_wait_until(test_size_reached, &shrunk, WAIT_SECONDS),
		    "table did not shrink: %lu buckets", lfht_nr_buckets(ht));
	CHILD_CHECK(cds_lfht_destroy(ht, NULL) == 0, "destroy failed");
	rcu_barrier();
	CHILD_CHECK(rcu_atomic_load(&test_bad_magic, memory_order_relaxed) == 0,
		    "a reader saw a freed entry");
	_exit(0);
}

/* Forks; the child runs child_uses_table(); waits for it, bounded. */
static void fork_and_check_child(struct cds_lfht *ht, unsigned long nr_keys)
{
	double end = test_now() + CHILD_SECONDS;
	int status = 0;
	pid_t pid;

	fflush(stderr);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		child_uses_table(ht, nr_keys);
	status = test_wait_child(pid, end);
	if (status < 0) {
		rcu_atomic_store(&pause_at.release, 1, memory_order_relaxed);
		ck_abort_msg("child did not finish within %.0f s (hang)", CHILD_SECONDS);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		/* The parent's worker must not stay paused for later tests. */
		rcu_atomic_store(&pause_at.release, 1, memory_order_relaxed);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed (status 0x%x, see stderr)", status);
}

static bool fork_tests_skip(void)
{
#if defined(TEST_TSAN)
	fprintf(stderr, "[%s] fork test skipped under ThreadSanitizer\n", TEST_FLAVOUR_NAME);
	return true;
#elif defined(TEST_ASAN)
	/* GCC 12's AddressSanitizer does not hold its allocator's locks across
	 * fork(): a thread the child starts can wait for ever on one (see
	 * rcu/tests/test_fork.c). */
	if (getenv("LFHT_TEST_FORK_UNDER_ASAN") == NULL) {
		fprintf(stderr, "[%s] fork test skipped under AddressSanitizer\n",
			TEST_FLAVOUR_NAME);
		return true;
	}
	return false;
#else
	if (getenv("LFHT_TEST_EMULATED")) {
		/* qemu-user 7.2 crashes when the child of a multithreaded
		 * process creates a thread. */
		fprintf(stderr, "[%s] fork test skipped under an emulator\n", TEST_FLAVOUR_NAME);
		return true;
	}
	return false;
#endif
}

/* After the child: the parent's table reaches a size its load allows and
 * keeps every key. */
static void parent_table_intact(struct cds_lfht *ht, unsigned long nr_keys,
				unsigned long at_least, unsigned long at_most)
{
	struct test_size_goal goal = { ht, at_least, at_most };

	rcu_atomic_store(&pause_at.release, 1, memory_order_relaxed);
	ck_assert_msg(test_wait_until(test_size_reached, &goal, WAIT_SECONDS),
		      "parent table stuck at %lu buckets", lfht_nr_buckets(ht));
	ck_assert_uint_eq(test_count_found(ht, 0, nr_keys), nr_keys);
	lfht_test_step_hook_ = NULL;
	test_empty_and_destroy(ht);
}

static struct cds_lfht *new_auto_table(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0,
					   CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);

	ck_assert_ptr_nonnull(ht);
	return ht;
}

START_TEST(fork_with_worker_idle_child_grows_shrinks_destroys)
{
	struct cds_lfht *ht;
	struct test_size_goal settled;

	if (fork_tests_skip())
		return;
	ht = new_auto_table();
	test_fill(ht, 0, 1000);
	/* At most one node per bucket: 1024 buckets. */
	settled = (struct test_size_goal){ ht, 1024, 1024 };
	ck_assert(test_wait_until(test_size_reached, &settled, WAIT_SECONDS));
	fork_and_check_child(ht, 1000);
	parent_table_intact(ht, 1000, 1024, 1024);
}
END_TEST

START_TEST(fork_with_worker_mid_grow_child_grows_shrinks_destroys)
{
	struct cds_lfht *ht;

	if (fork_tests_skip())
		return;
	ht = new_auto_table();
	/* Paused between two grow steps of a table already past 2^12
	 * buckets, with the resize lock held; the fill goes on. */
	arm_pause("grow", 1UL << 12);
	test_fill(ht, 0, FORK_KEYS);
	ck_assert_msg(test_wait_until(worker_paused, NULL, WAIT_SECONDS),
		      "worker never reached the grow step");
	fprintf(stderr, "[%s] fork mid-grow at %lu buckets, %lu keys\n",
		TEST_FLAVOUR_NAME, lfht_nr_buckets(ht), FORK_KEYS);
	fork_and_check_child(ht, FORK_KEYS);
	parent_table_intact(ht, FORK_KEYS, FORK_KEYS / 4, FORK_KEYS * 4);
}
END_TEST

START_TEST(fork_with_worker_mid_shrink_child_grows_shrinks_destroys)
{
	struct cds_lfht *ht;
	struct test_size_goal grown;

	if (fork_tests_skip())
		return;
	ht = new_auto_table();
	test_fill(ht, 0, FORK_KEYS);
	grown = (struct test_size_goal){ ht, FORK_KEYS / 4, ~0UL };
	ck_assert(test_wait_until(test_size_reached, &grown, WAIT_SECONDS));
	/* Paused after the first shrink step: size lowered, the top order's
	 * buckets unlinked, its table not yet freed (that waits for a grace
	 * period after the steps). */
	arm_pause("shrink", 1);
	ck_assert_uint_eq(test_del_all(ht), FORK_KEYS);
	ck_assert_msg(test_wait_until(worker_paused, NULL, WAIT_SECONDS),
		      "worker never reached the shrink step");
	fprintf(stderr, "[%s] fork mid-shrink at %lu buckets\n", TEST_FLAVOUR_NAME,
		lfht_nr_buckets(ht));
	fork_and_check_child(ht, 0);
	parent_table_intact(ht, 0, 1, 64);
}
END_TEST

/* ---- destroy from an offline thread during a shrink ---------------------- */

#define OFFLINE_DESTROY_KEYS (1UL << 13)
#define OFFLINE_DESTROY_MAX_ROUNDS 400

/*
 * cds_lfht_destroy() may be called offline (QSBR). Its emptiness walk must
 * still hold up a shrink the worker finishes meanwhile: the shrink frees
 * bucket tables after a grace period, which an offline thread's read-side
 * section (empty in QSBR) does not delay. Each round grows a table and
 * empties it; the hook pauses the worker after the first order of the
 * shrink (size halved, the tables above the final size not yet freed)
 * until this thread, offline, releases it and destroys the table at once,
 * so that every destroy meets a shrink in progress (a first form looked
 * for the size's first fall and counted the rounds that met one: 0 of 12
 * in one debug run of mb). ThreadSanitizer once saw the walk race the free
 * (tests/urcu-style, which destroys offline).
 */
START_TEST(destroy_from_an_offline_thread_during_a_shrink_is_safe)
{
	double end = test_now() + test_stress_seconds();
	unsigned long rounds = 0;

	while (rounds < OFFLINE_DESTROY_MAX_ROUNDS && (rounds < 5 || test_now() < end)) {
		struct cds_lfht *ht;
		struct test_size_goal grown;

		/* Armed before the table, and so its worker, exists (the last
		 * round's stopped with its destroy): the worker never reads
		 * the hook while it changes. */
		arm_pause("shrink", 1);
		ht = new_auto_table();
		grown = (struct test_size_goal){ ht, OFFLINE_DESTROY_KEYS / 8, ~0UL };
		test_fill(ht, 0, OFFLINE_DESTROY_KEYS);
		ck_assert(test_wait_until(test_size_reached, &grown, WAIT_SECONDS));
		ck_assert_uint_eq(test_del_all(ht), OFFLINE_DESTROY_KEYS);
		test_offline();
		ck_assert_msg(test_wait_until(worker_paused, NULL, WAIT_SECONDS),
			      "no shrink after emptying: %lu buckets", lfht_nr_buckets(ht));
		/* Relaxed: as in the hook. */
		rcu_atomic_store(&pause_at.release, 1, memory_order_relaxed);
		ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
		test_online();
		rounds++;
	}
	test_offline();
	rcu_barrier();
	test_online();
	lfht_test_step_hook_ = NULL;
	fprintf(stderr, "[%s] %lu tables destroyed offline, each mid-shrink\n",
		TEST_FLAVOUR_NAME, rounds);
}
END_TEST

/* This binary's own list of tests: the test binaries' mains are alike in
 * form only. */
int main(void)
{
	Suite *s = suite_create("hooks-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, duplicate_walk_visits_only_the_keys_run, 30);
	TEST_ADD(s, lookups_load_the_nodes_before_the_key_only, 60);
	TEST_ADD(s, fork_with_worker_idle_child_grows_shrinks_destroys, 120);
	TEST_ADD(s, fork_with_worker_mid_grow_child_grows_shrinks_destroys, 120);
	TEST_ADD(s, fork_with_worker_mid_shrink_child_grows_shrinks_destroys, 120);
	TEST_ADD(s, destroy_from_an_offline_thread_during_a_shrink_is_safe, 60);
	return test_main(s);
}
