/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_poll.c - polling grace periods: rcu_poll_start() returns
 * without waiting, rcu_poll_done() is false while a reader that began
 * before the start is inside its section, true after a synchronize_rcu()
 * that follows the start, and becomes true on its own (the start asks for a
 * grace period), for every cookie of many concurrent callers.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#define CALL_SECONDS 5.0
/* How long a poll that must not be done is watched: several of the
 * call_rcu worker's gathering delays (10 ms), so that the grace period the
 * start asked for is under way and held up by the reader. */
#define HOLD_SECONDS 0.1

static bool cookie_done(void *p)
{
	return rcu_poll_done(*(struct rcu_poll_cookie *)p);
}

/* Polls for seconds; false as soon as the cookie is done. */
static bool stays_not_done(struct rcu_poll_cookie cookie, double seconds)
{
	double end = test_now() + seconds;
	unsigned long polls = 0;

	while (test_now() < end) {
		if (rcu_poll_done(cookie))
			return false;
		polls++;
		rcu_cpu_relax();
	}
	return polls > 0;
}

static void check_poll_waits_for_reader(bool synchronize)
{
	struct test_held_reader r = { 0 };
	struct rcu_poll_cookie cookie;
	pthread_t t;

	test_failures_reset();
	test_start(&t, test_held_reader_run, &r);
	ck_assert_msg(test_wait_until(test_flag_set, &r.inside, CALL_SECONDS),
		      "reader never entered its section");
	cookie = rcu_poll_start();
	ck_assert_msg(stays_not_done(cookie, HOLD_SECONDS),
		      "rcu_poll_done() true while a reader begun before"
		      " rcu_poll_start() was inside");
	rcu_atomic_store(&r.release, 1, memory_order_release);
	if (synchronize) {
		synchronize_rcu();
		ck_assert_msg(rcu_poll_done(cookie),
			      "not done after synchronize_rcu()");
	} else {
		ck_assert_msg(test_wait_until(cookie_done, &cookie, CALL_SECONDS),
			      "never done after the reader left (no grace period"
			      " started by rcu_poll_start()?)");
	}
	ck_assert_msg(test_flag_set(&r.left), "done before the reader left");
	/* Done stays done. */
	ck_assert(rcu_poll_done(cookie));
	ck_assert_joined(t);
	ck_assert_no_worker_failures();
}

START_TEST(poll_not_done_while_earlier_reader_inside_then_done_after_synchronize_rcu)
{
	check_poll_waits_for_reader(true);
}
END_TEST

START_TEST(poll_not_done_while_earlier_reader_inside_then_done_on_its_own)
{
	check_poll_waits_for_reader(false);
}
END_TEST

START_TEST(poll_done_after_synchronize_rcu_with_no_reader)
{
	struct rcu_poll_cookie cookie = rcu_poll_start();

	synchronize_rcu();
	ck_assert(rcu_poll_done(cookie));
}
END_TEST

/* The caller is the reader: a start inside its own section returns at
 * once, and the poll is not done until the section ends. */
static void start_inside_section(void *arg)
{
	struct rcu_poll_cookie *cookie = arg;

	rcu_register_thread();
	rcu_read_lock();
	*cookie = rcu_poll_start();
	TEST_CHECK(stays_not_done(*cookie, HOLD_SECONDS),
		   "done while the caller itself was inside its section");
	rcu_read_unlock();
	reader_quiescent();
	rcu_unregister_thread();
	synchronize_rcu();
	TEST_CHECK(rcu_poll_done(*cookie), "not done after synchronize_rcu()");
}

START_TEST(poll_start_inside_a_section_returns_and_waits_for_it)
{
	struct rcu_poll_cookie cookie;

	test_failures_reset();
	ck_assert_msg(test_call_within(start_inside_section, &cookie, CALL_SECONDS),
		      "rcu_poll_start() inside a section hung");
	ck_assert_no_worker_failures();
}
END_TEST

#define POLLERS 4
#define POLLS_EACH 20

struct poller {
	_Atomic long done;
};

/* Start, then wait (registered, with quiescent states) until done. */
static void *poller_run(void *p)
{
	struct poller *pl = p;

	rcu_register_thread();
	for (int i = 0; i < POLLS_EACH; i++) {
		struct rcu_poll_cookie cookie = rcu_poll_start();

		TEST_CHECK(test_wait_until(cookie_done, &cookie, CALL_SECONDS),
			   "poll %d never done", i);
		rcu_atomic_add(&pl->done, 1, memory_order_relaxed);
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(every_cookie_of_concurrent_callers_becomes_done)
{
	struct poller pl = { 0 };
	pthread_t t[POLLERS];

	test_failures_reset();
	for (int i = 0; i < POLLERS; i++)
		test_start(&t[i], poller_run, &pl);
	for (int i = 0; i < POLLERS; i++)
		ck_assert_joined(t[i]);
	ck_assert_no_worker_failures();
	ck_assert_int_eq(rcu_atomic_load(&pl.done, memory_order_relaxed),
			 POLLERS * POLLS_EACH);
}
END_TEST

static Suite *poll_suite(void)
{
	Suite *s = suite_create("rcu-poll-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, poll_not_done_while_earlier_reader_inside_then_done_after_synchronize_rcu, 10);
	TEST_ADD(s, poll_not_done_while_earlier_reader_inside_then_done_on_its_own, 10);
	TEST_ADD(s, poll_done_after_synchronize_rcu_with_no_reader, 10);
	TEST_ADD(s, poll_start_inside_a_section_returns_and_waits_for_it, 10);
	TEST_ADD(s, every_cookie_of_concurrent_callers_becomes_done, 30);
	return s;
}

int main(void)
{
	return test_main(poll_suite());
}
