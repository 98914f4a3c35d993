/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_retire.c - rcu_retire(): callbacks run on the thread that
 * retired them, inside its later rcu_retire() or rcu_retire_barrier()
 * calls, never while a reader that began before the retire is inside its
 * section; its own polls find the grace periods (no synchronize_rcu(), no
 * worker); an unregistering or exiting thread's pending callbacks run on
 * the call_rcu worker (rcu_barrier() waits for them); a fork child keeps
 * its thread's pending callbacks.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rcu_test.h"

#define CALL_SECONDS 10.0
/* Enough for several batches of every flavour (memb's are 4096). */
#define RETIRES 20000

struct tracked {
	struct rcu_head head;
	/* The thread expected to run the callback (0: any). */
	pthread_t owner;
	bool check_owner;
	/* Set once the reader the test holds has left; the callback checks
	 * it (NULL: nothing held). */
	_Atomic long *reader_left;
};

static _Atomic long ran;
static _Atomic long ran_elsewhere;
static _Atomic long ran_too_early;

static long ld(_Atomic long *p)
{
	return rcu_atomic_load(p, memory_order_acquire);
}

static void tracked_cb(struct rcu_head *head)
{
	struct tracked *t = caa_container_of(head, struct tracked, head);

	if (t->check_owner && !pthread_equal(t->owner, pthread_self()))
		rcu_atomic_add(&ran_elsewhere, 1, memory_order_relaxed);
	if (t->reader_left != NULL && !test_flag_set(t->reader_left))
		rcu_atomic_add(&ran_too_early, 1, memory_order_relaxed);
	free(t);
	/* Release: pairs with the acquire loads in ld(). */
	rcu_atomic_add(&ran, 1, memory_order_release);
}

static void counters_reset(void)
{
	rcu_atomic_store(&ran, 0, memory_order_relaxed);
	rcu_atomic_store(&ran_elsewhere, 0, memory_order_relaxed);
	rcu_atomic_store(&ran_too_early, 0, memory_order_relaxed);
}

/* Retires one tracked object from the calling thread. */
static void retire_one(bool check_owner, _Atomic long *reader_left)
{
	struct tracked *t = malloc(sizeof(*t));

	ck_assert_ptr_nonnull(t);
	t->owner = pthread_self();
	t->check_owner = check_owner;
	t->reader_left = reader_left;
	rcu_retire(&t->head, tracked_cb);
}

START_TEST(callbacks_run_on_the_retiring_thread_found_by_its_own_polls)
{
	long before_barrier;

	counters_reset();
	rcu_register_thread();
	for (int i = 0; i < RETIRES; i++) {
		retire_one(true, NULL);
		/* QSBR: the thread's own slot holds its targets up until it
		 * announces a quiescent state. */
		if (i % 64 == 0)
			reader_quiescent();
	}
	before_barrier = ld(&ran);
	rcu_retire_barrier();
	ck_assert_int_eq(ld(&ran), RETIRES);
	ck_assert_int_eq(ld(&ran_elsewhere), 0);
	/* Most ran inside rcu_retire() itself, on grace periods its polls
	 * found: nobody else ran one. */
	ck_assert_msg(before_barrier >= RETIRES / 2,
		      "only %ld of %d callbacks ran before rcu_retire_barrier()",
		      before_barrier, RETIRES);
	rcu_unregister_thread();
}
END_TEST

START_TEST(retire_barrier_runs_what_a_batch_does_not_fill)
{
	counters_reset();
	rcu_register_thread();
	for (int i = 0; i < 10; i++)
		retire_one(true, NULL);
	ck_assert_int_eq(ld(&ran), 0);
	rcu_retire_barrier();
	ck_assert_int_eq(ld(&ran), 10);
	ck_assert_int_eq(ld(&ran_elsewhere), 0);
	rcu_unregister_thread();
}
END_TEST

START_TEST(no_callback_runs_while_an_earlier_reader_is_inside)
{
	struct test_held_reader r = { 0 };
	pthread_t t;

	counters_reset();
	test_failures_reset();
	rcu_register_thread();
	test_start(&t, test_held_reader_run, &r);
	ck_assert_msg(test_wait_until(test_flag_set, &r.inside, CALL_SECONDS),
		      "reader never entered its section");
	/* Many batches: the oldest go to the call_rcu worker (bounded
	 * memory), which must wait for the reader too. QSBR: offline, so
	 * that the held reader is the only one whose slot holds the polls
	 * up (a poll that skipped it would run a batch: the mutant
	 * poll-skips-reader). */
	reader_offline();
	for (int i = 0; i < RETIRES; i++)
		retire_one(false, &r.left);
	ck_assert_int_eq(ld(&ran), 0);
	rcu_atomic_store(&r.release, 1, memory_order_release);
	reader_online();
	ck_assert_joined(t);
	rcu_retire_barrier();
	/* The handed-over ones ran on the worker, which the barrier
	 * waited for. */
	ck_assert_int_eq(ld(&ran), RETIRES);
	ck_assert_int_eq(ld(&ran_too_early), 0);
	rcu_unregister_thread();
	ck_assert_no_worker_failures();
}
END_TEST

static void *retire_then_exit(void *arg)
{
	bool unregister = *(bool *)arg;

	rcu_register_thread();
	for (int i = 0; i < 1000; i++)
		retire_one(false, NULL);
	if (unregister)
		rcu_unregister_thread();
	/* Else exits registered: the exit hook unregisters it. */
	return NULL;
}

static void check_leaving_thread_hands_over(bool unregister)
{
	pthread_t t;

	counters_reset();
	test_start(&t, retire_then_exit, &unregister);
	ck_assert_joined(t);
	rcu_barrier();
	ck_assert_int_eq(ld(&ran), 1000);
}

START_TEST(unregistering_thread_hands_its_callbacks_to_the_worker)
{
	check_leaving_thread_hands_over(true);
}
END_TEST

START_TEST(exiting_thread_hands_its_callbacks_to_the_worker)
{
	check_leaving_thread_hands_over(false);
}
END_TEST

/* Threads that retire and read at once, until every callback ran. */
#define CONCURRENT_THREADS 3

static void *retire_and_read(void *arg)
{
	(void)arg;
	rcu_register_thread();
	for (int i = 0; i < RETIRES; i++) {
		rcu_read_lock();
		retire_one(true, NULL);
		rcu_read_unlock();
		reader_quiescent();
	}
	/* (A callback that ran on the worker counts in ran_elsewhere.) */
	rcu_retire_barrier();
	rcu_unregister_thread();
	return NULL;
}

START_TEST(concurrent_retiring_threads_each_run_their_own)
{
	pthread_t t[CONCURRENT_THREADS];

	counters_reset();
	for (int i = 0; i < CONCURRENT_THREADS; i++)
		test_start(&t[i], retire_and_read, NULL);
	for (int i = 0; i < CONCURRENT_THREADS; i++)
		ck_assert_joined(t[i]);
	ck_assert_int_eq(ld(&ran), (long)CONCURRENT_THREADS * RETIRES);
	/* A reader preempted inside its section (three threads on fewer
	 * CPUs) holds every poll up; past RETIRE_SEALED batches the oldest
	 * go to the worker. Some still run where they were retired. */
	ck_assert_msg(ld(&ran_elsewhere) < (long)CONCURRENT_THREADS * RETIRES,
		      "%ld of %ld callbacks ran on the worker", ld(&ran_elsewhere),
		      (long)CONCURRENT_THREADS * RETIRES);
}
END_TEST

static void child_runs_pending(void *arg)
{
	(void)arg;
	/* The parent's pending callbacks are this thread's too. */
	rcu_retire_barrier();
	_exit(ld(&ran) == 10 ? 0 : 3);
}

START_TEST(fork_child_keeps_its_threads_pending_callbacks)
{
	struct test_child child;

	counters_reset();
	rcu_register_thread();
	for (int i = 0; i < 10; i++)
		retire_one(true, NULL);
	ck_assert_int_eq(ld(&ran), 0);
	test_run_child(child_runs_pending, NULL, CALL_SECONDS, &child);
	ck_assert_msg(child.finished && WIFEXITED(child.status) &&
		      WEXITSTATUS(child.status) == 0,
		      "child %s; its stderr:\n%s", test_child_describe(&child),
		      test_child_err_tail(&child));
	rcu_retire_barrier();
	ck_assert_int_eq(ld(&ran), 10);
	rcu_unregister_thread();
}
END_TEST

/* ---- polls beside a sleeping grace period ------------------------------ */

#if defined(TEST_FLAVOUR_QSBR)
#define test_gp rcu_qsbr_gp_
#elif defined(TEST_FLAVOUR_MEMB)
#define test_gp rcu_memb_gp_
#elif defined(TEST_FLAVOUR_MB)
#define test_gp rcu_mb_gp_
#else
#define test_gp rcu_bp_gp_
#endif

/* Polls whose seals advance the counter while a grace period sleeps. */
#define SLEEP_POLLS 12
/* Retires per poll: a batch of every flavour (memb's and bp's are 4096). */
#define SLEEP_POLL_RETIRES 4096

static _Atomic long sleeper_switches = -1;

static bool gp_sleeps(void *arg)
{
	(void)arg;
	/* Relaxed: a hint that the grace period sleeps; the test only
	 * counts what follows. */
	return rcu_atomic_load(&test_gp.futex, memory_order_relaxed) == -1;
}

/* synchronize_rcu(), counting the times it slept (voluntary switches). */
static void *synchronize_counting_sleeps(void *arg)
{
	struct rusage before, after;

	(void)arg;
	getrusage(RUSAGE_THREAD, &before);
	synchronize_rcu();
	getrusage(RUSAGE_THREAD, &after);
	/* Release: pairs with the acquire in ld(). */
	rcu_atomic_store(&sleeper_switches, after.ru_nvcsw - before.ru_nvcsw,
			 memory_order_release);
	return NULL;
}

/*
 * A grace period sleeps waiting for a held reader while another thread,
 * which does not hold it up, retires batch after batch: each seal's poll
 * moves the counter past the sleeper's target, and the thread then ends a
 * read-side section (memb, bp, mb) or announces a quiescent state (QSBR).
 * A reader wakes the sleeper only if it held that target up (gp.c note 5,
 * wait_target): compared with the counter instead, every poll woke it for
 * nothing (11-30 thousand context switches a second in lfht-bench's
 * pools).
 */
START_TEST(polls_beside_a_sleeping_grace_period_do_not_wake_it)
{
	struct test_held_reader r = { 0 };
	pthread_t holder, sleeper;
	long switches, ran_while_held;
	int woken_by = -1;
	bool emulated = getenv("RCU_TEST_EMULATED") != NULL;

	counters_reset();
	test_failures_reset();
	rcu_atomic_store(&sleeper_switches, -1, memory_order_relaxed);
	rcu_register_thread();
	test_start(&holder, test_held_reader_run, &r);
	ck_assert_msg(test_wait_until(test_flag_set, &r.inside, CALL_SECONDS),
		      "reader never entered its section");
	reader_offline();
	test_start(&sleeper, synchronize_counting_sleeps, NULL);
	ck_assert_msg(test_wait_until(gp_sleeps, NULL, CALL_SECONDS),
		      "the grace period never slept");
	/* Online again (QSBR) at the sleeper's target or later: this thread
	 * holds nothing up. Failures are noted, not asserted, until the held
	 * reader is released and joined (an assertion leaves the test at
	 * once, and the reader would go on reading this stack frame). */
	reader_online();
	for (int i = 0; i < SLEEP_POLLS && woken_by < 0; i++) {
		rcu_read_lock();
		for (int j = 0; j < SLEEP_POLL_RETIRES; j++)
			retire_one(false, &r.left);
		rcu_read_unlock();
		reader_quiescent();
		/* Only this thread could wake the sleeper (the held reader
		 * stays in its section). A wake-up swaps futex to 0, which
		 * this load sees unless the sleeper has already rescanned and
		 * stored -1 again; the sleep count below sees every wake-up,
		 * but not under qemu, whose own locks add sleeps. */
		if (!gp_sleeps(NULL))
			woken_by = i;
	}
	reader_offline();
	ran_while_held = ld(&ran);
	rcu_atomic_store(&r.release, 1, memory_order_release);
	ck_assert_joined(holder);
	ck_assert_joined(sleeper);
	reader_online();
	rcu_retire_barrier();
	ck_assert_msg(woken_by < 0,
		      "poll %d's unlock or quiescent state woke the sleeping "
		      "grace period",
		      woken_by);
	ck_assert_int_eq(ran_while_held, 0);
	switches = ld(&sleeper_switches);
	/* Once for the held reader, and a few for the registry lock or a
	 * stray wake-up; one per poll woke it before. */
	ck_assert_msg(emulated || (switches >= 1 && switches < SLEEP_POLLS / 2),
		      "synchronize_rcu() slept %ld times beside %d polls", switches,
		      SLEEP_POLLS);
	ck_assert_int_eq(ld(&ran), SLEEP_POLLS * SLEEP_POLL_RETIRES);
	ck_assert_int_eq(ld(&ran_too_early), 0);
	rcu_unregister_thread();
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- retire_defer_(): the liburcu layer's defer_rcu(fct, p) ---------- */

#if defined(TEST_FLAVOUR_QSBR)
#define test_retire_defer rcu_qsbr_retire_defer_
#elif defined(TEST_FLAVOUR_MEMB)
#define test_retire_defer rcu_memb_retire_defer_
#elif defined(TEST_FLAVOUR_MB)
#define test_retire_defer rcu_mb_retire_defer_
#else
#define test_retire_defer rcu_bp_retire_defer_
#endif

/* A deferred call's argument: a tracked object, its head unused. */
static void tracked_call(void *p)
{
	tracked_cb(&((struct tracked *)p)->head);
}

static void defer_one(bool check_owner)
{
	struct tracked *t = malloc(sizeof(*t));

	ck_assert_ptr_nonnull(t);
	t->owner = pthread_self();
	t->check_owner = check_owner;
	t->reader_left = NULL;
	test_retire_defer(tracked_call, t);
}

START_TEST(deferred_calls_run_on_the_deferring_thread)
{
	counters_reset();
	rcu_register_thread();
	/* Twice: the second round takes its records from the pool that the
	 * first round's batches refilled (the ASan leg checks that the pool
	 * is freed when the thread unregisters). */
	for (int round = 1; round <= 2; round++) {
		for (int i = 0; i < RETIRES; i++) {
			defer_one(true);
			if (i % 64 == 0)
				reader_quiescent();
		}
		rcu_retire_barrier();
		ck_assert_int_eq(ld(&ran), (long)round * RETIRES);
	}
	ck_assert_int_eq(ld(&ran_elsewhere), 0);
	rcu_unregister_thread();
}
END_TEST

static void *defer_unregistered(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++)
		defer_one(true);
	return NULL;
}

START_TEST(an_unregistered_threads_deferred_calls_run_on_the_worker)
{
	pthread_t t;

	counters_reset();
	test_start(&t, defer_unregistered, NULL);
	ck_assert_joined(t);
	rcu_barrier();
	ck_assert_int_eq(ld(&ran), 10);
	ck_assert_int_eq(ld(&ran_elsewhere), 10);
}
END_TEST

static Suite *retire_suite(void)
{
	Suite *s = suite_create("rcu-retire-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, callbacks_run_on_the_retiring_thread_found_by_its_own_polls, 30);
	TEST_ADD(s, retire_barrier_runs_what_a_batch_does_not_fill, 10);
	TEST_ADD(s, no_callback_runs_while_an_earlier_reader_is_inside, 30);
	TEST_ADD(s, polls_beside_a_sleeping_grace_period_do_not_wake_it, 30);
	TEST_ADD(s, unregistering_thread_hands_its_callbacks_to_the_worker, 10);
	TEST_ADD(s, exiting_thread_hands_its_callbacks_to_the_worker, 10);
	TEST_ADD(s, concurrent_retiring_threads_each_run_their_own, 30);
	TEST_ADD(s, deferred_calls_run_on_the_deferring_thread, 30);
	TEST_ADD(s, an_unregistered_threads_deferred_calls_run_on_the_worker, 10);
	/* qemu-user crashes in some forks of multi-threaded processes
	 * (test_fork.c). */
	if (getenv("RCU_TEST_EMULATED") == NULL)
		TEST_ADD(s, fork_child_keeps_its_threads_pending_callbacks, 30);
	return s;
}

int main(void)
{
	return test_main(retire_suite());
}
