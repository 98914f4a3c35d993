/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/rcu_test.h - what every RCU core test shares: the flavour picked
 * at build time (-DTEST_FLAVOUR_QSBR, _MEMB, _BP or _MB) behind
 * flavour-neutral helpers, a test object with a magic word and a sequence
 * number that are poisoned when it is freed, bounded waits and joins,
 * failure notes from worker threads, and the Check runner; with what
 * every test of rcu and of the table shares (test_common.h).
 *
 * Worker threads never call ck_assert (in CK_NOFORK mode it would longjmp
 * into the main thread's stack); they note failures with TEST_CHECK and the
 * main thread asserts test_failures() == 0 after joining them.
 *
 * Each test source defines _GNU_SOURCE before including this header.
 */
#ifndef RCU_TEST_H
#define RCU_TEST_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(TEST_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#define TEST_FLAVOUR_NAME "qsbr"
#define TEST_IS_QSBR 1
#define TEST_IS_BP 0
#define TEST_IS_MB 0
/* QSBR has no fence mode: a variable that is never set. */
#define TEST_FORCE_FENCES_ENV ""
/* A QSBR reader announces quiescent states itself; memb needs nothing. */
static inline void reader_quiescent(void) { rcu_quiescent_state(); }
static inline void reader_offline(void) { rcu_thread_offline(); }
static inline void reader_online(void) { rcu_thread_online(); }
/* Goes offline if online (a QSBR thread blocking online stalls every grace
 * period); returns whether it did, for reader_resume(). */
static inline bool reader_pause(void)
{
	if (!rcu_read_ongoing())
		return false;
	rcu_thread_offline();
	return true;
}
static inline void reader_resume(bool was_online)
{
	if (was_online)
		rcu_thread_online();
}
/* memb, bp, mb: whether readers run full fences (not part of the API). */
static inline int test_memb_fence_mode(void) { return -1; }
/* The number of threads on the registry (not part of the API). */
static inline unsigned long test_registry_count(void)
{
	return rcu_qsbr_registry_count_();
}
#elif defined(TEST_FLAVOUR_MEMB) || defined(TEST_FLAVOUR_BP) || \
	defined(TEST_FLAVOUR_MB)
#if defined(TEST_FLAVOUR_MEMB)
#include <rcu/memb.h>
#define TEST_FLAVOUR_NAME "memb"
#define TEST_IS_BP 0
#define TEST_IS_MB 0
#define TEST_FORCE_FENCES_ENV "RCU_MEMB_FORCE_FENCES"
#define test_gp_ rcu_memb_gp_
#define test_registry_count_ rcu_memb_registry_count_
#elif defined(TEST_FLAVOUR_MB)
/* mb: memb's registration and grace periods, readers always on fences. */
#include <rcu/mb.h>
#define TEST_FLAVOUR_NAME "mb"
#define TEST_IS_BP 0
#define TEST_IS_MB 1
/* mb has no variable to force fences: one that is never set. */
#define TEST_FORCE_FENCES_ENV ""
#define test_gp_ rcu_mb_gp_
#define test_registry_count_ rcu_mb_registry_count_
#else
/* bp: memb's read side and grace periods, registration by the first
 * rcu_read_lock(); the tests' register calls are allowed no-ops. */
#include <rcu/bp.h>
#define TEST_FLAVOUR_NAME "bp"
#define TEST_IS_BP 1
#define TEST_IS_MB 0
#define TEST_FORCE_FENCES_ENV "RCU_BP_FORCE_FENCES"
#define test_gp_ rcu_bp_gp_
#define test_registry_count_ rcu_bp_registry_count_
#endif
#define TEST_IS_QSBR 0
static inline void reader_quiescent(void) { }
static inline void reader_offline(void) { }
static inline void reader_online(void) { }
static inline bool reader_pause(void) { return false; }
static inline void reader_resume(bool was_online) { (void)was_online; }
static inline int test_memb_fence_mode(void)
{
	return rcu_atomic_load(&test_gp_.use_fences, memory_order_relaxed);
}
static inline unsigned long test_registry_count(void)
{
	return test_registry_count_();
}
#else
#error "build with -DTEST_FLAVOUR_QSBR, -DTEST_FLAVOUR_MEMB, -DTEST_FLAVOUR_BP or -DTEST_FLAVOUR_MB"
#endif

#include "test_common.h"

#include <rcu/atomic.h>

#include <check.h>

/* ---- test objects ------------------------------------------------------ */

#define TEST_MAGIC_LIVE 0x52435521u	/* "RCU!" */
#define TEST_MAGIC_POISON 0xdeadbeefu
#define TEST_POISON_WORD 0x5a5a5a5a5a5a5a5aull
#define TEST_PAYLOAD_WORDS 4
/* retired value of an object still published. */
#define TEST_NOT_RETIRED UINT64_MAX

/*
 * Every field is atomic (relaxed), so a reader that races with a poisoning
 * writer, which only a broken grace period allows, is a logic failure the
 * checks report, not undefined behaviour in the test itself.
 */
struct test_obj {
	_Atomic uint32_t magic;
	_Atomic uint64_t seq;
	_Atomic uint64_t payload[TEST_PAYLOAD_WORDS];
	/* Age clock value when unpublished, or TEST_NOT_RETIRED. */
	_Atomic uint64_t retired;
	struct rcu_head head;
};

/* Makes obj live with sequence number seq (before publishing it). */
void test_obj_fill(struct test_obj *obj, uint64_t seq);
/* Overwrites everything with poison (after a grace period). */
void test_obj_poison(struct test_obj *obj);
/* Whether obj is live and consistent; *seq receives its sequence number. */
bool test_obj_intact(struct test_obj *obj, uint64_t *seq);
struct test_obj *test_obj_new(uint64_t seq);
/* Poisons, then frees (after a grace period). */
void test_obj_free(struct test_obj *obj);
/* A call_rcu callback: test_obj_free() of the object of head. */
void test_obj_free_cb(struct rcu_head *head);

/* ---- failures noted by worker threads ---------------------------------- */

/* Counts a failure and prints the first few with where they happened. */
void test_note_failure(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
long test_failures(void);
/* Resets the count at the start of a test. */
void test_failures_reset(void);
#define TEST_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			test_note_failure(__FILE__, __LINE__, __VA_ARGS__); \
	} while (0)
/* Main thread, after joining the workers. */
#define ck_assert_no_worker_failures()					\
	ck_assert_msg(test_failures() == 0,				\
		      "%ld failure(s) noted by worker threads (see stderr)", \
		      test_failures())

/* ---- time, waits, threads ---------------------------------------------- */

/* RCU_STRESS_SECONDS, default 2 s (0.3 s under an emulator), times
 * RCU_STRESS_SCALE when that is below 1 (see test_common.h). */
static inline double test_stress_seconds(void)
{
	return test_stress_seconds_of("RCU");
}
/* Polls cond(arg) for up to seconds; true once it holds. Goes offline for
 * the wait if this is an online QSBR thread (never call it inside a
 * read-side section: use test_spin_until there). */
bool test_wait_until(bool (*cond)(void *arg), void *arg, double seconds);
/* Same without going offline, for waits inside a read-side section. */
bool test_spin_until(bool (*cond)(void *arg), void *arg, double seconds);
/* Condition helpers: *(_Atomic long *)arg != 0, and >= a target. */
bool test_flag_set(void *flag);
struct test_count_goal {
	_Atomic long *count;
	long goal;
};
bool test_count_reached(void *goal);
/* Busy work of about n steps that the compiler keeps. */
void test_spin(unsigned n);
/* Called inside a read-side section: until *release is set, notes a
 * failure if obj stops being intact or *synced gets set (a grace period
 * begun meanwhile must wait for the section). */
void test_hold_until(_Atomic long *release, struct test_obj *obj,
		     _Atomic long *synced);
/* A thread body (arg: a struct test_held_reader): registers, enters a
 * read-side section, sets inside, stays in it until release is set (at
 * most TEST_HOLD_SECONDS), sets left while still inside, then leaves and
 * unregisters. */
struct test_held_reader {
	_Atomic long inside;
	_Atomic long release;
	_Atomic long left;
};
#define TEST_HOLD_SECONDS 5.0
void *test_held_reader_run(void *reader);
/* A thread body: synchronize_rcu(), then sets *(_Atomic long *)synced. */
void *test_synchronize_then_flag(void *synced);

void test_start(pthread_t *thread, void *(*fn)(void *), void *arg);
/* Joins within seconds (offline for the wait); false on timeout, when the
 * thread is left running (the test then fails). */
bool test_join_within(pthread_t thread, double seconds);
#define TEST_JOIN_SECONDS 10.0
#define ck_assert_joined(thread)					\
	ck_assert_msg(test_join_within((thread), TEST_JOIN_SECONDS),	\
		      "thread did not finish within %.0f s (hang?)",	\
		      TEST_JOIN_SECONDS)
/* Runs fn(arg) on a new thread and waits for it within seconds; false on
 * timeout (the call is taken to hang). */
bool test_call_within(void (*fn)(void *arg), void *arg, double seconds);
/* Runs fn(arg) in a child (test_child_start()) and waits for it at most
 * seconds, offline meanwhile (test_child_finish()). */
void test_run_child(void (*fn)(void *arg), void *arg, double seconds,
		    struct test_child *child);

/* ---- runner ------------------------------------------------------------ */

/* Appends a test case of one test; the timeout only matters in fork mode,
 * the meson timeout bounds the whole binary. */
void test_add(Suite *s, const char *name, const TTest *test, double timeout);
#define TEST_ADD(s, fn, timeout) test_add((s), #fn, fn, (timeout))
/* Runs suite in CK_NOFORK mode (threads exist before Check could fork);
 * the exit status of every test binary's main. */
int test_main(Suite *suite);
/* test_main() of a suite that holds one test. */
int test_main_one(const char *suite_name, const char *name, const TTest *test, double timeout);
#define TEST_MAIN_ONE(suite_name, fn, timeout) test_main_one((suite_name), #fn, fn, (timeout))

#endif /* RCU_TEST_H */
