/* SPDX-License-Identifier: MIT */
/*
 * test_check.h - CHECK(cond) of the liburcu-style programs (hash_test.h,
 * urcu015_test.h): on failure, prints the file, line, flavour (TEST_FLAVOR,
 * defined by the including program) and condition, and exits 1. Uses
 * liburcu's caa_unlikely() only, so it builds against liburcu and the
 * compatibility layer alike.
 */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <urcu/compiler.h>

#define CHECK(cond)							\
	do {								\
		if (caa_unlikely(!(cond))) {				\
			fprintf(stderr, "%s:%d: [%s] check failed: %s\n", \
				__FILE__, __LINE__, TEST_FLAVOR, #cond); \
			exit(1);					\
		}							\
	} while (0)

#endif /* TEST_CHECK_H */
