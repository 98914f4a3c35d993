/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_common.h - what the tests of the RCU core (rcu_test.h) and
 * of the table (tests/lfht_test.h) share, free of any flavour: which
 * sanitizer and debug checks the build has, the clock, the stress time
 * read from the environment, timer stalls, children run with their stderr
 * on a pipe, and a small generator. Built
 * once (test_common.c); lfht's tests take it from this subproject as
 * rcu_test_common_dep.
 *
 * Each test source defines _GNU_SOURCE before including this header.
 */
#ifndef RCU_TEST_COMMON_H
#define RCU_TEST_COMMON_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* Built with ThreadSanitizer or AddressSanitizer (clang or gcc spelling). */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(TEST_TSAN)
#define TEST_TSAN 1
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(TEST_ASAN)
#define TEST_ASAN 1
#endif
#ifdef TEST_TSAN
#define TEST_UNDER_TSAN 1
#else
#define TEST_UNDER_TSAN 0
#endif
#ifdef TEST_ASAN
#define TEST_UNDER_ASAN 1
#else
#define TEST_UNDER_ASAN 0
#endif

/* Whether RCU_DEBUG_CHECKS is on: misuse aborts instead of returning. */
#ifdef RCU_DEBUG_CHECKS
#define TEST_DEBUG_CHECKS 1
#else
#define TEST_DEBUG_CHECKS 0
#endif

/* CLOCK_MONOTONIC, seconds. */
double test_now(void);
/* <prefix>_STRESS_SECONDS (strtod, fractional allowed), default 2 s (0.3 s
 * under an emulator: <prefix>_TEST_EMULATED set), times
 * <prefix>_STRESS_SCALE when that is below 1 (not below 0.3 s). */
double test_stress_seconds_of(const char *prefix);
/* Starts a timer that interrupts the calling thread every
 * TEST_STALL_PERIOD_US with a handler that sleeps TEST_STALL_US (a
 * preemption at any instruction); false if it cannot. timer_delete() it
 * before the thread exits. */
#define TEST_STALL_PERIOD_US 200
#define TEST_STALL_US 20
bool test_stalls_start(timer_t *timer);
/*
 * Children: test_child_start() forks a child that runs fn(arg) with its
 * stderr on a pipe (no core files), then exits 0 if fn returns (fn may
 * _exit() with its own status); it returns the pid and *err_fd, the
 * pipe's end, or -1 (errno set). test_child_finish() reads the child's
 * stderr into child->err and waits for it until test_now() passes
 * deadline, then kills it; it copies the child's whole stderr to ours when
 * it hung or exited non-zero.
 */
struct test_child {
	bool finished;		/* exited or was killed by a signal in time */
	int status;		/* waitpid status when finished */
	char err[8192];		/* its stderr, NUL-terminated (truncated) */
};
pid_t test_child_start(void (*fn)(void *arg), void *arg, int *err_fd);
void test_child_finish(pid_t pid, int err_fd, double deadline, struct test_child *child);
/* "exit 3", "killed by SIGABRT", "still running": for messages. */
const char *test_child_describe(const struct test_child *child);
/* The last few hundred bytes of its stderr, for a Check message (Check
 * limits their length). */
const char *test_child_err_tail(const struct test_child *child);
/* A small per-thread generator (xorshift64*). */
uint64_t test_rand(uint64_t *state);

/* ---- shared with tests/ (issue 36, part A) ---- */

/* The argument of each of a team of threads started on one function: what
 * the team shares, and which member this is (0, 1, ...). */
struct test_member {
	void *team;
	int id;
};

/* ---- shared helpers (issue 36, part B) ---- */

/* A count that worker threads add to, read relaxed: for progress checks and
 * for what a test prints and asserts once it has joined them. */
static inline long test_count(_Atomic long *count)
{
	return atomic_load_explicit(count, memory_order_relaxed);
}

/* The flag worker loops poll until the main thread sets it with
 * test_stop(). */
static inline bool test_stopping(_Atomic long *stop)
{
	/* Acquire: pairs with the release store in test_stop(). */
	return atomic_load_explicit(stop, memory_order_acquire) != 0;
}

static inline void test_stop(_Atomic long *stop)
{
	/* Release: pairs with the acquire load in test_stopping(); what the
	 * main thread did before is visible to a worker that stops. */
	atomic_store_explicit(stop, 1, memory_order_release);
}

#endif /* RCU_TEST_COMMON_H */
