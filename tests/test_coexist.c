/* SPDX-License-Identifier: MIT */
/*
 * tests/test_coexist.c - lfht and liburcu in one process: this program uses
 * lfht's table and RCU, and links a shared library written against
 * liburcu's cds_lfht (tests/coexist/urcu_side.c). Each library's table must
 * be served by the library that created it: liblfht exports only lfht_*
 * names, so the plugin's cds_lfht_* calls bind to liburcu-cds.
 */
#define _GNU_SOURCE
#include "lfht_test.h"

/* tests/coexist/urcu_side.c */
long urcu_side_roundtrip(unsigned long n);

START_TEST(lfht_and_liburcu_tables_live_in_one_process)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					   NULL);

	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, 5000);
	/* The plugin's table, with lfht's table alive and its worker running. */
	ck_assert_int_eq(urcu_side_roundtrip(5000), 5000);
	ck_assert_uint_eq(test_count_found(ht, 0, 5000), 5000);
	test_fill(ht, 5000, 6000);
	ck_assert_int_eq(urcu_side_roundtrip(100), 100);
	ck_assert_uint_eq(test_count_found(ht, 0, 6000), 6000);
	test_empty_and_destroy(ht);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("coexist-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, lfht_and_liburcu_tables_live_in_one_process, 60);
	return test_main(s);
}
