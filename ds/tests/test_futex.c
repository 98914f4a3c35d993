/* SPDX-License-Identifier: MIT */
/*
 * test_futex.c - the futex helpers (<rcuds/futex.h>): the immediate
 * returns (a wait on a value the word does not hold, a wake with no
 * waiter, a wait that times out), and two threads that hand a token back
 * and forth many times, each sleeping in FUTEX_WAIT until the other's
 * FUTEX_WAKE (every wait bounded by a timeout, the whole test by a
 * deadline).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>

#include <rcuds/futex.h>

#include "ds_test.h"

START_TEST(futex_wait_on_another_value_returns_eagain)
{
	int32_t word = 1;

	errno = 0;
	ck_assert_int_eq(futex_noasync(&word, FUTEX_WAIT, 0, NULL, NULL, 0), -1);
	ck_assert_int_eq(errno, EAGAIN);
	errno = 0;
	ck_assert_int_eq(futex_async(&word, FUTEX_WAIT, 0, NULL, NULL, 0), -1);
	ck_assert_int_eq(errno, EAGAIN);
}
END_TEST

START_TEST(futex_wake_without_waiters_wakes_none)
{
	int32_t word = 0;

	ck_assert_int_eq(futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0), 0);
	ck_assert_int_eq(futex_async(&word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0), 0);
}
END_TEST

START_TEST(futex_wait_times_out)
{
	int32_t word = 0;
	struct timespec ten_ms = { 0, 10 * 1000 * 1000 };
	double start = ds_now();
	int ret;

	do {
		errno = 0;
		ret = futex_noasync(&word, FUTEX_WAIT, 0, &ten_ms, NULL, 0);
	} while (ret == -1 && errno == EINTR);
	ck_assert_int_eq(ret, -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert(ds_now() - start >= 0.005);
}
END_TEST

/* Ping-pong: turn says whose move it is (0: main, 1: partner). */
#define ROUNDS 2000

static int32_t turn;		/* atomic */
static unsigned long sleeps[2];	/* waits that slept and were woken */

/* Waits until turn == me, sleeping on the futex; false on the deadline. */
static bool wait_turn(int32_t me, double deadline, int (*fx)(int32_t *, int, int32_t,
							  const struct timespec *,
							  int32_t *, int32_t))
{
	struct timespec slice = { 0, 50 * 1000 * 1000 };

	for (;;) {
		/* Acquire: pairs with the other thread's release of turn. */
		int32_t t = __atomic_load_n(&turn, __ATOMIC_ACQUIRE);

		if (t == me)
			return true;
		if (ds_now() > deadline)
			return false;
		if (fx(&turn, FUTEX_WAIT, t, &slice, NULL, 0) == 0)
			sleeps[me]++;
	}
}

static void give_turn(int32_t to, int (*fx)(int32_t *, int, int32_t, const struct timespec *,
					    int32_t *, int32_t))
{
	/* Release: this thread's move before the other's; pairs with the
	 * acquire in its wait_turn(). */
	__atomic_store_n(&turn, to, __ATOMIC_RELEASE);
	DS_CHECK(fx(&turn, FUTEX_WAKE, 1, NULL, NULL, 0) >= 0);
}

static double deadline;
static int partner_moves;

static void *partner_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		if (!wait_turn(1, deadline, futex_async)) {
			DS_CHECK(!"partner: deadline passed");
			return NULL;
		}
		partner_moves++;
		give_turn(0, futex_async);
	}
	return NULL;
}

START_TEST(futex_wakes_a_sleeping_thread_every_round)
{
	pthread_t t;
	int moves = 0;

	turn = 0;
	deadline = ds_now() + 30;
	ck_assert_int_eq(pthread_create(&t, NULL, partner_main, NULL), 0);
	for (int i = 0; i < ROUNDS; i++) {
		if (!wait_turn(0, deadline, futex_noasync))
			break;
		moves++;
		give_turn(1, futex_noasync);
	}
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(ds_failures(), 0);
	ck_assert_int_eq(moves, ROUNDS);
	ck_assert_int_eq(partner_moves, ROUNDS);
	/* With two threads handing one token back and forth, waits that
	 * really slept and were woken happen (far more than this). */
	ck_assert_uint_gt(sleeps[0] + sleeps[1], 0);
	fprintf(stderr, "%d rounds, woken from sleep %lu + %lu times\n", ROUNDS,
		sleeps[0], sleeps[1]);
}
END_TEST

DS_MAIN("rcuds-futex",
	DS_CASE(futex_wait_on_another_value_returns_eagain, 10),
	DS_CASE(futex_wake_without_waiters_wakes_none, 10),
	DS_CASE(futex_wait_times_out, 10),
	DS_CASE(futex_wakes_a_sleeping_thread_every_round, 60))
