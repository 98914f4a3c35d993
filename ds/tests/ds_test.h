/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/ds_test.h - what the rcuds tests share: the flavour picked at
 * build time for the RCU tests (-DTEST_FLAVOUR_QSBR, _MEMB, _BP or _MB; none
 * for the flavour-free ones), a stress deadline, failure notes from worker
 * threads and the Check runner.
 *
 * Worker threads never call ck_assert (with CK_FORK=no it would longjmp
 * into the main thread's stack): they note failures with DS_CHECK and the
 * main thread asserts ds_failures() == 0 after joining them.
 *
 * Each test source defines _GNU_SOURCE before including this header.
 */
#ifndef DS_TEST_H
#define DS_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(TEST_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#define TEST_FLAVOUR_NAME "qsbr"
/* A QSBR reader announces quiescent states between its sections. */
static inline void reader_quiescent(void) { rcu_quiescent_state(); }
#elif defined(TEST_FLAVOUR_MEMB)
#include <rcu/memb.h>
#define TEST_FLAVOUR_NAME "memb"
static inline void reader_quiescent(void) { }
#elif defined(TEST_FLAVOUR_BP)
#include <rcu/bp.h>
#define TEST_FLAVOUR_NAME "bp"
static inline void reader_quiescent(void) { }
#elif defined(TEST_FLAVOUR_MB)
/* The mb flavour (issue 26), once the 'flavours' option offers it. */
#include <rcu/mb.h>
#define TEST_FLAVOUR_NAME "mb"
static inline void reader_quiescent(void) { }
#else
#define TEST_FLAVOUR_NAME "none"
#endif

#include <check.h>

/* Failures noted by worker threads. */
static int ds_failures_;

#define DS_CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: [%s] check failed: %s\n", \
				__FILE__, __LINE__, TEST_FLAVOUR_NAME, #cond); \
			__atomic_add_fetch(&ds_failures_, 1, __ATOMIC_RELAXED); \
		}							\
	} while (0)

static inline int ds_failures(void)
{
	return __atomic_load_n(&ds_failures_, __ATOMIC_RELAXED);
}

/* Monotonic seconds. */
static inline double ds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* How long a stress test runs: RCUDS_STRESS_SECONDS, else 0.5 s (0.2 s
 * under an emulator: RCUDS_TEST_EMULATED). */
static inline double ds_stress_seconds(void)
{
	const char *s = getenv("RCUDS_STRESS_SECONDS");

	if (s && *s)
		return atof(s);
	return getenv("RCUDS_TEST_EMULATED") ? 0.2 : 0.5;
}

/* Runs the suite built by make_suite; the exit status of main. */
static inline int ds_run(Suite *(*make_suite)(void))
{
	SRunner *sr = srunner_create(make_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Adds a test case holding one test, with a timeout in seconds. */
#define DS_ADD(suite, fn, timeout)					\
	do {								\
		TCase *tc_ = tcase_create(#fn);				\
		tcase_add_test(tc_, fn);				\
		tcase_set_timeout(tc_, (timeout));			\
		suite_add_tcase((suite), tc_);				\
	} while (0)

#endif /* DS_TEST_H */
