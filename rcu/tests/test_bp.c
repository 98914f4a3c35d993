/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_bp.c - what only the bp flavour promises: a thread that
 * never calls rcu_register_thread() registers on its first rcu_read_lock()
 * and is protected from then on, also when that first lock is a signal
 * handler's; its exit unregisters it; fork() keeps working.
 *
 * The registry count (rcu_bp_registry_count_(), a snapshot) is read only
 * while no grace period runs: no test here starts the call_rcu worker
 * before its last count, and the main thread never reads before it counts.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#define CALL_SECONDS 10.0
/* How long a grace period must keep waiting for a held section. */
#define HOLD_SECONDS 0.1
#define EXITING_THREADS 64

/* ---- a held section and a grace period that must wait for it ----------- */

struct hold {
	struct test_obj *obj;
	_Atomic long inside;
	_Atomic long release;
	_Atomic long synced;
	_Atomic long left;
	_Atomic long done;
};

static struct hold *held;

/* The section: entered by whoever calls it, first lock of the thread. */
static void hold_section(struct hold *h)
{
	rcu_read_lock();
	/* Release: pairs with the acquire in test_flag_set(). */
	rcu_atomic_store(&h->inside, 1, memory_order_release);
	test_hold_until(&h->release, h->obj, &h->synced);
	rcu_atomic_store(&h->left, 1, memory_order_release);
	rcu_read_unlock();
}

/* With h's section entered: a grace period begun now waits for it. */
static void check_grace_period_waits_for(struct hold *h)
{
	pthread_t syncer;

	ck_assert_msg(test_wait_until(test_flag_set, &h->inside, CALL_SECONDS),
		      "reader never entered its section");
	test_start(&syncer, test_synchronize_then_flag, &h->synced);
	ck_assert_msg(!test_wait_until(test_flag_set, &h->synced, HOLD_SECONDS),
		      "synchronize_rcu returned while a reader was inside");
	rcu_atomic_store(&h->release, 1, memory_order_release);
	ck_assert_msg(test_wait_until(test_flag_set, &h->synced, CALL_SECONDS),
		      "synchronize_rcu did not return after the reader left");
	ck_assert_msg(test_flag_set(&h->left),
		      "synchronize_rcu returned before the reader left");
	ck_assert_joined(syncer);
}

/* A thread that never registers: reads, then waits to be let go. */
static void *unregistered_reader(void *p)
{
	struct hold *h = p;

	hold_section(h);
	rcu_atomic_store(&h->done, 1, memory_order_release);
	return NULL;
}

START_TEST(first_read_lock_registers_and_is_waited_for)
{
	struct hold h = { .obj = test_obj_new(1) };
	unsigned long before = test_registry_count();
	pthread_t reader;

	test_failures_reset();
	test_start(&reader, unregistered_reader, &h);
	check_grace_period_waits_for(&h);
	ck_assert_joined(reader);
	ck_assert_msg(test_flag_set(&h.done), "reader did not finish");
	ck_assert_uint_eq(test_registry_count(), before);
	test_obj_free(h.obj);
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- exit unregisters ------------------------------------------------- */

struct lingerer {
	_Atomic long read;
	_Atomic long go;
};

/*
 * Until the main thread lets go: bounded from the moment all the threads
 * have read, and sleeping a millisecond between looks. Bounded from each
 * thread's own start and polling every 50 us, 64 waiting threads under
 * qemu-aarch64 on a loaded 2-CPU host slowed the start of the others until
 * the first ones gave up and exited before the count was taken (46 of 64
 * registered, in a clean-clone CI run).
 */
static bool linger_until_go(struct lingerer *l)
{
	const struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	double start = test_now(), deadline = 0;

	while (!test_flag_set(&l->go)) {
		double now = test_now();

		/* Acquire: pairs with the release adds of the others. */
		if (deadline == 0 &&
		    rcu_atomic_load(&l->read, memory_order_acquire) == EXITING_THREADS)
			deadline = now + CALL_SECONDS;
		if ((deadline != 0 && now > deadline) || now > start + 6 * CALL_SECONDS)
			return test_flag_set(&l->go);
		nanosleep(&ms, NULL);
	}
	return true;
}

/* Reads once (registering), then waits before exiting. */
static void *read_then_linger(void *p)
{
	struct lingerer *l = p;

	rcu_read_lock();
	rcu_read_unlock();
	rcu_atomic_add(&l->read, 1, memory_order_release);
	TEST_CHECK(linger_until_go(l), "never let go");
	return NULL;
}

static void sync_once(void *arg)
{
	(void)arg;
	synchronize_rcu();
}

START_TEST(thread_exit_unregisters_it)
{
	struct lingerer l = { 0 };
	struct test_count_goal all = { &l.read, EXITING_THREADS };
	pthread_t t[EXITING_THREADS];
	unsigned long before = test_registry_count();

	test_failures_reset();
	for (int i = 0; i < EXITING_THREADS; i++)
		test_start(&t[i], read_then_linger, &l);
	ck_assert_msg(test_wait_until(test_count_reached, &all, CALL_SECONDS),
		      "the threads did not read");
	ck_assert_uint_eq(test_registry_count(), before + EXITING_THREADS);
	rcu_atomic_store(&l.go, 1, memory_order_release);
	for (int i = 0; i < EXITING_THREADS; i++)
		ck_assert_joined(t[i]);
	/* pthread_join() returns after the key destructors ran. */
	ck_assert_uint_eq(test_registry_count(), before);
	ck_assert_msg(test_call_within(sync_once, NULL, CALL_SECONDS),
		      "synchronize_rcu after the exits hung");
	ck_assert_no_worker_failures();
}
END_TEST

START_TEST(register_and_unregister_are_allowed_and_harmless)
{
	unsigned long before = test_registry_count();

	rcu_register_thread();
	rcu_register_thread();
	ck_assert_uint_eq(test_registry_count(), before + 1);
	rcu_read_lock();
	ck_assert(rcu_read_ongoing());
	rcu_read_unlock();
	rcu_unregister_thread();
	rcu_unregister_thread();
	ck_assert_uint_eq(test_registry_count(), before);
	/* Reading again registers again. */
	rcu_read_lock();
	rcu_read_unlock();
	ck_assert_uint_eq(test_registry_count(), before + 1);
	ck_assert(rcu_flavour.thread_state() & RCU_THREAD_REGISTERED);
	rcu_unregister_thread();
	ck_assert_uint_eq(test_registry_count(), before);
	/* A thread that never read counts as registered for thread_state. */
	ck_assert(rcu_flavour.thread_state() & RCU_THREAD_REGISTERED);
}
END_TEST

/* ---- a signal handler's first read lock -------------------------------- */

static void holding_handler(int sig)
{
	(void)sig;
	hold_section(held);
}

/*
 * Never reads itself: its handler's section is its first. It sends the
 * signal to itself, so the handler runs before pthread_kill() returns:
 * sent from another thread, the signal reached the handler only when
 * ThreadSanitizer chose to deliver it, which under load was after the
 * test's bound ("reader never entered its section"). Signals that land
 * inside a registration are handlers_inside_registration_register_once's.
 */
static void *signalled_thread(void *p)
{
	struct hold *h = p;

	TEST_CHECK(pthread_kill(pthread_self(), SIGUSR1) == 0, "pthread_kill failed");
	TEST_CHECK(test_spin_until(test_flag_set, &h->done, CALL_SECONDS),
		   "never told to finish");
	return NULL;
}

static void install_handler(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
}

START_TEST(signal_handler_first_read_lock_registers_and_is_waited_for)
{
	struct hold h = { .obj = test_obj_new(2) };
	unsigned long before = test_registry_count();
	pthread_t t;

	test_failures_reset();
	held = &h;
	install_handler(holding_handler);
	test_start(&t, signalled_thread, &h);
	check_grace_period_waits_for(&h);
	ck_assert_uint_eq(test_registry_count(), before + 1);
	rcu_atomic_store(&h.done, 1, memory_order_release);
	ck_assert_joined(t);
	ck_assert_uint_eq(test_registry_count(), before);
	signal(SIGUSR1, SIG_IGN);
	test_obj_free(h.obj);
	ck_assert_no_worker_failures();
}
END_TEST

/*
 * Fresh threads register by their first read lock while another thread
 * sends them signals whose handlers read too, so handlers land inside the
 * registration: each thread must be registered exactly once.
 */
static _Atomic long handler_reads;

static void reading_handler(int sig)
{
	(void)sig;
	rcu_read_lock();
	rcu_read_unlock();
	/* Relaxed: a statistic, read after the joins. */
	rcu_atomic_add(&handler_reads, 1, memory_order_relaxed);
}

struct racer {
	/* Busy work before the first read lock: varies the moment. */
	unsigned delay;
	_Atomic long started;
	_Atomic long firing;
	_Atomic long read;
	_Atomic long go;
};

static void *racing_reader(void *p)
{
	struct racer *r = p;

	rcu_atomic_store(&r->started, 1, memory_order_release);
	TEST_CHECK(test_spin_until(test_flag_set, &r->firing, CALL_SECONDS),
		   "signals never came");
	test_spin(r->delay);
	rcu_read_lock();
	rcu_read_unlock();
	rcu_atomic_store(&r->read, 1, memory_order_release);
	TEST_CHECK(test_spin_until(test_flag_set, &r->go, CALL_SECONDS),
		   "never let go");
	return NULL;
}

START_TEST(handlers_inside_registration_register_once)
{
	unsigned long before = test_registry_count();
	long rounds = 0;

	test_failures_reset();
	rcu_atomic_store(&handler_reads, 0, memory_order_relaxed);
	install_handler(reading_handler);
	for (double end = test_now() + 0.5; test_now() < end || rounds < 20; rounds++) {
		struct racer r = { .delay = (unsigned)(rounds * 997 % 20000) };
		pthread_t t;

		test_start(&t, racing_reader, &r);
		ck_assert_msg(test_wait_until(test_flag_set, &r.started, CALL_SECONDS),
			      "thread did not start");
		rcu_atomic_store(&r.firing, 1, memory_order_release);
		for (double end = test_now() + CALL_SECONDS;
		     !test_flag_set(&r.read) && test_now() < end;)
			ck_assert_int_eq(pthread_kill(t, SIGUSR1), 0);
		ck_assert_msg(test_flag_set(&r.read), "thread did not read");
		ck_assert_uint_eq(test_registry_count(), before + 1);
		rcu_atomic_store(&r.go, 1, memory_order_release);
		ck_assert_joined(t);
		ck_assert_uint_eq(test_registry_count(), before);
	}
	signal(SIGUSR1, SIG_IGN);
	ck_assert_msg(rcu_atomic_load(&handler_reads, memory_order_relaxed) > 0,
		      "no handler ran in %ld rounds", rounds);
	printf("%ld threads, %ld handler sections\n", rounds,
	       rcu_atomic_load(&handler_reads, memory_order_relaxed));
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- fork ------------------------------------------------------------- */

static void count_cb(struct rcu_head *head)
{
	free(head);
}

/* The child: the forking thread registered (it read before forking); a
 * new thread that never registers reads and is waited for; callbacks run. */
static void child_reads_from_new_thread(void *arg)
{
	struct hold h = { .obj = test_obj_new(3) };
	struct rcu_head *head = malloc(sizeof(*head));
	pthread_t reader, syncer;

	(void)arg;
	if (test_registry_count() != 1)
		_exit(2);
	test_start(&reader, unregistered_reader, &h);
	if (!test_wait_until(test_flag_set, &h.inside, CALL_SECONDS))
		_exit(3);
	test_start(&syncer, test_synchronize_then_flag, &h.synced);
	if (test_wait_until(test_flag_set, &h.synced, HOLD_SECONDS))
		_exit(4);
	rcu_atomic_store(&h.release, 1, memory_order_release);
	if (!test_join_within(syncer, CALL_SECONDS) ||
	    !test_join_within(reader, CALL_SECONDS))
		_exit(5);
	if (!test_flag_set(&h.left) || test_registry_count() != 1)
		_exit(6);
	call_rcu(head, count_cb);
	rcu_barrier();
	test_obj_free(h.obj);
	if (test_failures() != 0)
		_exit(7);
}

START_TEST(fork_child_registers_new_readers)
{
	struct lingerer l = { 0 };
	struct test_count_goal one = { &l.read, 1 };
	struct test_child child;
	pthread_t other;

	test_failures_reset();
	/* The parent: the forking thread and one more registered reader. */
	rcu_read_lock();
	rcu_read_unlock();
	test_start(&other, read_then_linger, &l);
	ck_assert_msg(test_wait_until(test_count_reached, &one, CALL_SECONDS),
		      "the other thread did not read");
	test_run_child(child_reads_from_new_thread, NULL, 30.0, &child);
	ck_assert_msg(child.finished && WIFEXITED(child.status) &&
		      WEXITSTATUS(child.status) == 0,
		      "child %s; its stderr:\n%s", test_child_describe(&child),
		      test_child_err_tail(&child));
	rcu_atomic_store(&l.go, 1, memory_order_release);
	ck_assert_joined(other);
	rcu_unregister_thread();
	ck_assert_no_worker_failures();
}
END_TEST

static Suite *bp_suite(void)
{
	Suite *s = suite_create("rcu-bp");

	TEST_ADD(s, first_read_lock_registers_and_is_waited_for, 20);
	TEST_ADD(s, thread_exit_unregisters_it, 20);
	TEST_ADD(s, register_and_unregister_are_allowed_and_harmless, 20);
	TEST_ADD(s, signal_handler_first_read_lock_registers_and_is_waited_for, 20);
	TEST_ADD(s, handlers_inside_registration_register_once, 30);
	/* Same limits as test_fork.c: qemu-user cannot start threads in the
	 * child of a multi-threaded process; TSan and GCC's ASan do not
	 * support it reliably. */
	if (getenv("RCU_TEST_EMULATED") == NULL && !TEST_UNDER_TSAN &&
	    !TEST_UNDER_ASAN)
		TEST_ADD(s, fork_child_registers_new_readers, 40);
	return s;
}

int main(void)
{
	return test_main(bp_suite());
}
