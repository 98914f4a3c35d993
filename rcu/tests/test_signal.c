/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_signal.c - read-side sections entered from signal handlers.
 *
 * A reader thread runs empty read-side sections back to back (QSBR: with a
 * quiescent state after each, so it stays online), and another thread sends
 * it SIGUSR1 as fast as it can, so that handlers land between any two
 * instructions of rcu_read_lock() and rcu_read_unlock(). Each handler runs
 * a read-side section of its own that reads the published object, holds it
 * for a while, and checks it again. A writer replaces the object back to
 * back, waits for a grace period and poisons the old one: a handler whose
 * section the grace period did not wait for sees poison or a reused object.
 *
 * Objects come from a pool and are reused only after poisoning, so reading
 * one is never undefined behaviour. A handler cannot print: it counts.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <signal.h>
#include <string.h>

#define POOL_SIZE 64
/* Busy work inside a handler's section: long enough that grace periods
 * start and end inside it. */
#define HANDLER_HOLD 100000
#define JOIN_SECONDS 20.0
/* Handler sections and grace periods a run must have seen; how long it may
 * go on for them. */
#define MIN_SECTIONS 100
#define MIN_GRACE_PERIODS 10
#define EXTRA_SECONDS 30.0

static struct test_obj pool[POOL_SIZE];
static struct test_obj *published;

static _Atomic long handler_sections;
static _Atomic long handler_bad;
static _Atomic long grace_periods;
static _Atomic long reader_sections;
static _Atomic long stop;
static _Atomic long reader_ready;

static void handler(int sig)
{
	struct test_obj *obj;
	uint64_t seq_begin, seq_end;
	bool ok;

	(void)sig;
	rcu_read_lock();
	obj = rcu_dereference(published);
	ok = test_obj_intact(obj, &seq_begin);
	test_spin(HANDLER_HOLD);
	ok = ok && test_obj_intact(obj, &seq_end) && seq_begin == seq_end;
	rcu_read_unlock();
	/* Relaxed: statistics, read after the joins. */
	if (!ok)
		rcu_atomic_add(&handler_bad, 1, memory_order_relaxed);
	rcu_atomic_add(&handler_sections, 1, memory_order_relaxed);
}

static void *reader_main(void *arg)
{
	long n = 0;

	(void)arg;
	rcu_register_thread();
	/* Relaxed: a start flag; the signaller only needs it eventually. */
	rcu_atomic_store(&reader_ready, 1, memory_order_relaxed);
	while (!rcu_atomic_load(&stop, memory_order_relaxed)) {
		rcu_read_lock();
		rcu_read_lock();
		rcu_read_unlock();
		rcu_read_unlock();
		reader_quiescent();
		n++;
	}
	rcu_atomic_store(&reader_sections, n, memory_order_relaxed);
	rcu_unregister_thread();
	return NULL;
}

static void *writer_main(void *arg)
{
	uint64_t seq = POOL_SIZE;
	unsigned next = 1;

	(void)arg;
	/* Unregistered: synchronize_rcu() may be called from any thread. */
	while (!rcu_atomic_load(&stop, memory_order_relaxed)) {
		struct test_obj *fresh = &pool[next], *old;

		test_obj_fill(fresh, seq++);
		old = rcu_xchg_pointer(&published, fresh);
		synchronize_rcu();
		test_obj_poison(old);
		next = (unsigned)(old - pool);
		rcu_atomic_add(&grace_periods, 1, memory_order_relaxed);
	}
	return NULL;
}

START_TEST(signal_handler_sections_are_protected)
{
	struct sigaction sa;
	pthread_t reader, writer;
	double end;
	long signals = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	for (unsigned i = 0; i < POOL_SIZE; i++)
		test_obj_fill(&pool[i], i);
	rcu_assign_pointer(published, &pool[0]);

	test_start(&reader, reader_main, NULL);
	test_start(&writer, writer_main, NULL);
	ck_assert_msg(test_wait_until(test_flag_set, &reader_ready, 10.0),
		      "reader did not start");
	/* At least the stress time, and until enough handlers and grace
	 * periods ran (both are slow under emulators and sanitizers), within a
	 * bound. */
	end = test_now() + test_stress_seconds();
	while (test_now() < end ||
	       ((rcu_atomic_load(&handler_sections, memory_order_relaxed) < MIN_SECTIONS ||
		 rcu_atomic_load(&grace_periods, memory_order_relaxed) < MIN_GRACE_PERIODS) &&
		test_now() < end + EXTRA_SECONDS)) {
		ck_assert_int_eq(pthread_kill(reader, SIGUSR1), 0);
		signals++;
		test_spin(200);
	}
	rcu_atomic_store(&stop, 1, memory_order_relaxed);
	ck_assert_joined(reader);
	ck_assert_joined(writer);
	signal(SIGUSR1, SIG_IGN);

	{
		long sections = rcu_atomic_load(&handler_sections, memory_order_relaxed);
		long bad = rcu_atomic_load(&handler_bad, memory_order_relaxed);
		long gps = rcu_atomic_load(&grace_periods, memory_order_relaxed);
		long reads = rcu_atomic_load(&reader_sections, memory_order_relaxed);

		fprintf(stderr, "%s: %ld signals, %ld handler sections, %ld reader "
			"sections, %ld grace periods, %ld unprotected\n",
			TEST_FLAVOUR_NAME, signals, sections, reads, gps, bad);
		ck_assert_msg(bad == 0, "%ld of %ld handler sections saw a freed "
			      "object", bad, sections);
		/* Work was done: handlers ran, grace periods overlapped them. */
		ck_assert_int_ge(sections, MIN_SECTIONS);
		ck_assert_int_ge(gps, MIN_GRACE_PERIODS);
		ck_assert_int_ge(reads, 1000);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("signal-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, signal_handler_sections_are_protected, 60);
	return test_main(s);
}
