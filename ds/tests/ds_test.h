/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/ds_test.h - what the rcuds tests share: the flavour picked at
 * build time for the RCU tests (-DTEST_FLAVOUR_QSBR, _MEMB, _BP or _MB; none
 * for the flavour-free ones), a stress deadline, failure notes from worker
 * threads, and main: DS_MAIN builds the suite from a list of DS_CASEs and
 * runs it.
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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* reader_quiescent: a reader's quiescent state between its sections;
 * reader_offline/_online: around a registered thread's long wait (a join,
 * synchronize_rcu, rcu_barrier). Only QSBR needs them; the others: no-ops. */
#if defined(TEST_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#define TEST_FLAVOUR_NAME "qsbr"
static inline void reader_quiescent(void) { rcu_quiescent_state(); }
static inline void reader_offline(void) { rcu_thread_offline(); }
static inline void reader_online(void) { rcu_thread_online(); }
#elif defined(TEST_FLAVOUR_MEMB) || defined(TEST_FLAVOUR_BP) || defined(TEST_FLAVOUR_MB)
#if defined(TEST_FLAVOUR_MEMB)
#include <rcu/memb.h>
#define TEST_FLAVOUR_NAME "memb"
#elif defined(TEST_FLAVOUR_BP)
#include <rcu/bp.h>
#define TEST_FLAVOUR_NAME "bp"
#else
#include <rcu/mb.h>
#define TEST_FLAVOUR_NAME "mb"
#endif
static inline void reader_quiescent(void) { }
static inline void reader_offline(void) { }
static inline void reader_online(void) { }
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

/* One test of a suite: its name, the test, its timeout in seconds. */
struct ds_case {
	const char *name;
	const TTest *test;
	double timeout;
};

#define DS_CASE(fn, timeout) { #fn, fn, (timeout) }

/* Runs suite `name`, each case in a test case of its own; the exit status
 * of main. */
static inline int ds_run_cases(const char *name, const struct ds_case *cases, size_t n)
{
	Suite *s = suite_create(name);
	SRunner *sr;
	int failed;

	for (size_t i = 0; i < n; i++) {
		TCase *tc = tcase_create(cases[i].name);

		tcase_add_test(tc, cases[i].test);
		tcase_set_timeout(tc, cases[i].timeout);
		suite_add_tcase(s, tc);
	}
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The test source's main: DS_MAIN("suite", DS_CASE(test, seconds), ...). */
#define DS_MAIN(name, ...)						\
	int main(void)							\
	{								\
		const struct ds_case cases_[] = { __VA_ARGS__ };	\
									\
		return ds_run_cases((name), cases_,			\
				    sizeof(cases_) / sizeof(cases_[0])); \
	}

#endif /* DS_TEST_H */
