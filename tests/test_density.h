/* SPDX-License-Identifier: MIT */
/*
 * tests/test_density.h - the bucket densities (LFHT_BUCKETS_PER_NODE():
 * 1, 2, 4, 8) a test runs over, as a Check loop test: its _i picks one.
 * Included after lfht_test.h.
 */
#ifndef TEST_DENSITY_H
#define TEST_DENSITY_H

#define TEST_NR_DENSITIES 4

/* Buckets per node of loop iteration i. */
static inline unsigned long test_density(int i)
{
	return 1UL << i;
}

static inline int test_density_flag(int i)
{
	return LFHT_BUCKETS_PER_NODE(1 << i);
}

/* As test_add(), once per density. */
static inline void test_add_densities(Suite *s, const char *name, const TTest *test,
				      double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, NULL, test_leave_read_sections);
	tcase_set_timeout(tc, timeout);
	tcase_add_loop_test(tc, test, 0, TEST_NR_DENSITIES);
	suite_add_tcase(s, tc);
}
#define TEST_ADD_DENSITIES(s, fn, timeout) test_add_densities((s), #fn, fn, (timeout))

#endif /* TEST_DENSITY_H */
