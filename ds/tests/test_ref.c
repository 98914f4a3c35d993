/* SPDX-License-Identifier: MIT */
/*
 * test_ref.c - the reference counts (<rcuds/ref.h>): the count each call
 * leaves, the overflow and zero rules, the aborts (in a forked child), and
 * urcu_ref_get_unless_zero() racing with the last urcu_ref_put(): the
 * release function runs exactly once per object, and no get succeeds after
 * it has started.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rcu/flavour.h>	/* caa_container_of */
#include <rcuds/ref.h>

#include "ds_test.h"

static int releases;

static void count_release(struct urcu_ref *ref)
{
	(void)ref;
	releases++;
}

static long count_of(struct urcu_ref *ref)
{
	return __atomic_load_n(&ref->refcount, __ATOMIC_RELAXED);
}

START_TEST(ref_init_get_put_count_and_last_put_releases_once)
{
	struct urcu_ref ref;

	releases = 0;
	urcu_ref_init(&ref);
	ck_assert_int_eq(count_of(&ref), 1);
	urcu_ref_get(&ref);
	ck_assert(urcu_ref_get_safe(&ref));
	ck_assert(urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(count_of(&ref), 4);
	for (int i = 0; i < 3; i++)
		urcu_ref_put(&ref, count_release);
	ck_assert_int_eq(releases, 0);
	urcu_ref_put(&ref, count_release);
	ck_assert_int_eq(releases, 1);
	ck_assert_int_eq(count_of(&ref), 0);
	urcu_ref_set(&ref, 7);
	ck_assert_int_eq(count_of(&ref), 7);
}
END_TEST

START_TEST(ref_get_safe_fails_at_long_max_and_leaves_the_count)
{
	struct urcu_ref ref;

	urcu_ref_set(&ref, LONG_MAX - 1);
	ck_assert(urcu_ref_get_safe(&ref));
	ck_assert_int_eq(count_of(&ref), LONG_MAX);
	ck_assert(!urcu_ref_get_safe(&ref));
	ck_assert_int_eq(count_of(&ref), LONG_MAX);
	ck_assert(!urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(count_of(&ref), LONG_MAX);
	/* As in liburcu, get_safe does not refuse a count of zero. */
	urcu_ref_set(&ref, 0);
	ck_assert(urcu_ref_get_safe(&ref));
	ck_assert_int_eq(count_of(&ref), 1);
}
END_TEST

START_TEST(ref_get_unless_zero_refuses_zero)
{
	struct urcu_ref ref;

	urcu_ref_set(&ref, 0);
	ck_assert(!urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(count_of(&ref), 0);
	urcu_ref_init(&ref);
	ck_assert(urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(count_of(&ref), 2);
}
END_TEST

/* Runs fn in a forked child; returns the signal that ended it, or 0. */
static int child_signal(void (*fn)(void))
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* No core file for the expected abort. */
		signal(SIGABRT, SIG_DFL);
		fn();
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static void get_at_long_max(void)
{
	struct urcu_ref ref;

	urcu_ref_set(&ref, LONG_MAX);
	urcu_ref_get(&ref);
}

static void put_at_zero(void)
{
	struct urcu_ref ref;

	urcu_ref_set(&ref, 0);
	urcu_ref_put(&ref, count_release);
}

static void get_below_long_max(void)
{
	struct urcu_ref ref;

	urcu_ref_set(&ref, LONG_MAX - 1);
	urcu_ref_get(&ref);
}

START_TEST(ref_get_aborts_on_overflow_and_put_on_underflow)
{
	ck_assert_int_eq(child_signal(get_at_long_max), SIGABRT);
	ck_assert_int_eq(child_signal(put_at_zero), SIGABRT);
	ck_assert_int_eq(child_signal(get_below_long_max), 0);
}
END_TEST

/* ---- get_unless_zero racing with the last put. */

#define RACERS 3

struct object {
	struct urcu_ref ref;
	int released;		/* atomic: release() calls */
};

struct race {
	struct object *obj;	/* atomic: this round's object */
	int round;		/* atomic: the round the racers may start */
	int done[RACERS];	/* atomic: last round each racer finished */
	int started;		/* atomic: racers started, all rounds */
	int stop;		/* atomic */
	unsigned long got, refused, capped;	/* atomic: totals */
};

static struct race race;

/* Waiting for another thread: let it run (the machine may have fewer CPUs
 * than threads). */
static void spin_wait(void)
{
	sched_yield();
}

/* Set by a racer around its puts: whether a racer made the last one. */
static _Thread_local bool racer_putting;
static unsigned long racer_releases;	/* atomic */

static void object_release(struct urcu_ref *ref)
{
	struct object *o = caa_container_of(ref, struct object, ref);

	if (racer_putting)
		__atomic_add_fetch(&racer_releases, 1, __ATOMIC_RELAXED);

	/* Relaxed: the racers' acquire in a successful get would see it,
	 * ordered by the acq_rel decrements. */
	__atomic_add_fetch(&o->released, 1, __ATOMIC_RELAXED);
}

static void *racer_main(void *p)
{
	int id = (int)(intptr_t)p;
	int seen = 0;
	unsigned long got = 0, refused = 0, capped = 0;

	for (;;) {
		int round;

		/* Acquire: pairs with the main thread's release of round, after
		 * it set up the round's object. */
		while ((round = __atomic_load_n(&race.round, __ATOMIC_ACQUIRE)) == seen) {
			if (__atomic_load_n(&race.stop, __ATOMIC_RELAXED))
				goto out;
			spin_wait();
		}
		seen = round;
		struct object *o = __atomic_load_n(&race.obj, __ATOMIC_RELAXED);

		/* The owner still holds its reference (it waits for started):
		 * this get succeeds. */
		DS_CHECK(urcu_ref_get_unless_zero(&o->ref));
		got++;
		__atomic_add_fetch(&race.started, 1, __ATOMIC_RELAXED);
		/* Put and get again until refused: the owner puts its reference
		 * meanwhile, and one of the puts, here or the owner's, is the
		 * last. */
		for (long i = 0;; i++) {
			racer_putting = true;
			urcu_ref_put(&o->ref, object_release);
			racer_putting = false;
			/* A bound, should the racers keep the count up for long. */
			if (i == 100000) {
				capped++;
				break;
			}
			if (!urcu_ref_get_unless_zero(&o->ref)) {
				refused++;
				break;
			}
			/* After a successful get the object was not released. */
			DS_CHECK(__atomic_load_n(&o->released, __ATOMIC_RELAXED) == 0);
			got++;
		}
		/* Release: this racer is done with the round's object; pairs with
		 * the main thread's acquire before it checks and reuses it. */
		__atomic_store_n(&race.done[id], round, __ATOMIC_RELEASE);
	}
out:
	__atomic_add_fetch(&race.got, got, __ATOMIC_RELAXED);
	__atomic_add_fetch(&race.refused, refused, __ATOMIC_RELAXED);
	__atomic_add_fetch(&race.capped, capped, __ATOMIC_RELAXED);
	return NULL;
}

START_TEST(ref_get_unless_zero_never_succeeds_after_the_last_put)
{
	static struct object obj;
	pthread_t t[RACERS];
	int rounds = 0;
	double end = ds_now() + ds_stress_seconds();

	for (int i = 0; i < RACERS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, racer_main, (void *)(intptr_t)i), 0);
	while (rounds < 20 || (ds_now() < end && rounds < 100000)) {
		urcu_ref_init(&obj.ref);
		obj.released = 0;
		__atomic_store_n(&race.obj, &obj, __ATOMIC_RELAXED);
		/* Release: the object is set up before the racers start on it;
		 * pairs with their acquire of round. */
		__atomic_store_n(&race.round, ++rounds, __ATOMIC_RELEASE);
		/* The owner's put races with the racers' gets: it waits until
		 * they are all at it. */
		while (__atomic_load_n(&race.started, __ATOMIC_RELAXED) < rounds * RACERS)
			spin_wait();
		urcu_ref_put(&obj.ref, object_release);
		for (int i = 0; i < RACERS; i++) {
			/* Acquire: pairs with the racer's release of done. */
			while (__atomic_load_n(&race.done[i], __ATOMIC_ACQUIRE) != rounds)
				spin_wait();
		}
		ck_assert_int_eq(__atomic_load_n(&obj.released, __ATOMIC_RELAXED), 1);
		ck_assert_int_eq(count_of(&obj.ref), 0);
	}
	__atomic_store_n(&race.stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < RACERS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_int_eq(ds_failures(), 0);
	/* Each racer's first get of each round succeeds, and each racer
	 * ends each round refused (or, rarely, at its bound). */
	ck_assert_uint_ge(race.got, (unsigned long)rounds * RACERS);
	ck_assert_uint_eq(race.refused + race.capped, (unsigned long)rounds * RACERS);
	fprintf(stderr, "%d rounds: %lu gets, %lu refused, %lu at the bound; the last "
		"put was a racer's in %lu rounds, the owner's in the others\n", rounds,
		race.got, race.refused, race.capped, racer_releases);
}
END_TEST

DS_MAIN("rcuds-ref",
	DS_CASE(ref_init_get_put_count_and_last_put_releases_once, 10),
	DS_CASE(ref_get_safe_fails_at_long_max_and_leaves_the_count, 10),
	DS_CASE(ref_get_unless_zero_refuses_zero, 10),
	DS_CASE(ref_get_aborts_on_overflow_and_put_on_underflow, 30),
	DS_CASE(ref_get_unless_zero_never_succeeds_after_the_last_put, 60))
