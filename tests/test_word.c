/* SPDX-License-Identifier: MIT */
/*
 * tests/test_word.c - the codec of next words (<lfht/lfht-word.h>) held
 * against a plain bit-by-bit computation of the layout it documents, over
 * random reverse hashes of every shared-prefix length: the tag written,
 * the lower bound decoded from it (exact from its holder, the same from any
 * later holder), the early stop of a walk, and the address, flags and
 * relinking around it. Flavour-free: no table, no RCU.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <lfht/lfht.h>

/* 200 random pairs of each shared-prefix length 0..64 per check (200,000
 * rounds took 15-19 s under qemu and the sanitizers). */
#define ROUNDS (65 * 200)

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	/* xorshift64*: fixed seed, so a failure repeats. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned bit(unsigned long v, int i)
{
	return (unsigned)(v >> i) & 1U;
}

/* A holder and an element >= it sharing exactly their top d bits (d = 64:
 * equal). */
static void pair_sharing(unsigned d, unsigned long *holder, unsigned long *element)
{
	unsigned long h = (unsigned long)rng(), s = (unsigned long)rng();

	for (int i = 63; i > 63 - (int)d && i >= 0; i--)
		s = (s & ~(1UL << i)) | ((unsigned long)bit(h, i) << i);
	if (d < 64) {
		h &= ~(1UL << (63 - d));
		s |= 1UL << (63 - d);
	}
	*holder = h;
	*element = s;
}

/* ---- the reference: the layout of lfht-word.h's top comment, bit by bit -- */

/* The number of top bits a and b share (64 when equal). */
static unsigned ref_shared(unsigned long a, unsigned long b)
{
	unsigned d = 0;

	while (d < 64 && bit(a, 63 - (int)d) == bit(b, 63 - (int)d))
		d++;
	return d;
}

/* The tag field (16 bits) of a link from holder to element. */
static unsigned long ref_tag(unsigned long holder, unsigned long element)
{
	unsigned d = ref_shared(holder, element);
	unsigned long kept = 0;

	if (d >= 63)
		return 0;	/* equal, or d + 1 = 64 does not fit 6 bits */
	for (int i = 0; i < 10; i++) {
		int at = 62 - (int)d - i;

		kept = kept << 1 | (at >= 0 ? bit(element, at) : 0U);
	}
	return (unsigned long)(d + 1) << 10 | kept;
}

/* The least value that tag allows, decoded from holder. */
static unsigned long ref_floor(unsigned long tag, unsigned long holder)
{
	unsigned d, len = (unsigned)(tag >> 10);
	unsigned long v = 0;

	if (!len)
		return 0;
	d = len - 1;
	for (unsigned i = 0; i < d; i++)
		v |= (unsigned long)bit(holder, 63 - (int)i) << (63 - i);
	v |= 1UL << (63 - d);
	for (int i = 0; i < 10; i++) {
		int at = 62 - (int)d - i;

		if (at >= 0)
			v |= (unsigned long)bit(tag, 9 - i) << at;
	}
	return v;
}

/* Whether the tag proves that the element sorts after key: key shares the
 * holder's top d bits and the element's next 11 bits exceed key's. */
static int ref_after(unsigned long tag, unsigned long holder, unsigned long key)
{
	unsigned len = (unsigned)(tag >> 10), d;
	unsigned long mine = 0, keys = 0;

	if (!len)
		return 0;
	d = len - 1;
	if (ref_shared(holder, key) < d)
		return 0;
	mine = 1UL << 10 | (tag & 0x3ffUL);
	for (int i = 0; i < 11; i++) {
		int at = 63 - (int)d - i;

		keys = keys << 1 | (at >= 0 ? bit(key, at) : 0U);
	}
	return mine > keys;
}

static int tagged(void)
{
	return LFHT_TAG_MASK_ != 0;
}

/* A link's tag field, as a plain number. */
static unsigned long tag_field(uintptr_t link)
{
	return tagged() ? (unsigned long)((uint64_t)link >> 48) : 0;
}

START_TEST(tag_matches_the_bit_by_bit_reference)
{
	unsigned long written = 0;

	for (int r = 0; r < ROUNDS; r++) {
		unsigned long h, s;

		pair_sharing((unsigned)r % 65, &h, &s);
		ck_assert_uint_eq(tag_field(lfht_tag_(h, s)), tagged() ? ref_tag(h, s) : 0);
		ck_assert_uint_eq(lfht_tag_(h, s) & ~LFHT_TAG_MASK_, 0);
		written += lfht_tag_(h, s) != 0;
	}
	/* Every length but 63 and 64 writes a tag. */
	ck_assert_uint_eq(written, tagged() ? ROUNDS - 2 * (ROUNDS / 65) - (ROUNDS % 65 > 63) : 0);
}
END_TEST

START_TEST(floor_is_exact_from_the_holder_and_the_same_from_any_later_one)
{
	for (int r = 0; r < ROUNDS; r++) {
		unsigned long h, s, later, floor;
		uintptr_t link;

		pair_sharing((unsigned)r % 65, &h, &s);
		link = lfht_link_to_(h, (struct cds_lfht_node *)(uintptr_t)64, s);
		floor = lfht_tag_floor_(link, h);
		ck_assert_uint_eq(floor, tagged() ? ref_floor(ref_tag(h, s), h) : 0);
		ck_assert_uint_le(floor, s);
		/* A link moved on to a later holder h <= later <= s. */
		later = h + (s - h == ~0UL ? (unsigned long)rng() : (unsigned long)rng() % (s - h + 1));
		ck_assert_uint_eq(lfht_tag_floor_(link, later), floor);
	}
}
END_TEST

START_TEST(tag_after_agrees_with_the_reference_and_never_stops_early)
{
	unsigned long stops = 0;

	for (int r = 0; r < ROUNDS; r++) {
		unsigned long h, s, key = (unsigned long)rng();
		uintptr_t link;
		int after;

		pair_sharing((unsigned)r % 65, &h, &s);
		/* Keys near the element too, where the kept bits decide. */
		if (r & 1)
			key = s ^ (1UL << (rng() % 64)) ^ (rng() % 4 ? 0 : 1UL << (rng() % 64));
		link = lfht_link_to_(h, (struct cds_lfht_node *)(uintptr_t)64, s);
		after = lfht_tag_after_(link, h, key);
		ck_assert_int_eq(after, tagged() ? ref_after(ref_tag(h, s), h, key) : 0);
		if (after)
			ck_assert_uint_gt(s, key);
		stops += (unsigned long)after;
	}
	if (tagged())
		ck_assert_uint_gt(stops, ROUNDS / 50);
}
END_TEST

START_TEST(link_keeps_address_flags_and_tag_apart)
{
	for (int r = 0; r < ROUNDS; r++) {
		uintptr_t addr = (uintptr_t)(rng() & (tagged() ? 0xfffffffffff8ULL : ~7ULL));
		struct cds_lfht_node *node = (struct cds_lfht_node *)addr;
		unsigned long h = (unsigned long)rng(), s = h | (unsigned long)rng();
		uintptr_t link = lfht_link_to_(h, node, s), holder = (uintptr_t)(rng() & 7);
		uintptr_t word = lfht_relink_(holder, link);

		ck_assert_ptr_eq(lfht_ptr_(word), node);
		ck_assert_uint_eq(lfht_link_of_(word), link);
		ck_assert_int_eq(lfht_is_bucket_(word), (holder & LFHT_BUCKET_) != 0);
		ck_assert_int_eq(lfht_is_removed_(word), 0);
		ck_assert_int_eq(lfht_is_live_(word), !(holder & LFHT_BUCKET_));
		ck_assert_int_eq(lfht_is_bucket_(lfht_as_bucket_(link)), 1);
		ck_assert_ptr_eq(lfht_ptr_(lfht_removed_word_(word, r & 1)), node);
		ck_assert_int_eq(lfht_is_removed_(lfht_removed_word_(word, r & 1)), 1);
		ck_assert_int_eq(lfht_is_live_(lfht_removed_word_(word, r & 1)), 0);
		/* The tag survives the flags. */
		ck_assert_uint_eq(lfht_tag_floor_(lfht_removed_word_(word, 1), h),
				  lfht_tag_floor_(link, h));
	}
	/* A never-added node's word is no removal's. */
	ck_assert_uint_ne(lfht_removed_word_(0, 0), lfht_removed_word_(0, 1));
	ck_assert_ptr_null(lfht_ptr_(lfht_removed_word_(0, 0)));
	ck_assert_uint_eq(lfht_link_to_(1, NULL, 5), 0);
}
END_TEST

START_TEST(only_bytes_below_the_tag_are_linkable)
{
	uintptr_t top = tagged() ? (uintptr_t)1 << 48 : 0;

	ck_assert(lfht_below_tag_((void *)(uintptr_t)4096, 16));
	if (tagged()) {
		ck_assert(lfht_below_tag_((void *)(top - 16), 16));
		ck_assert(!lfht_below_tag_((void *)(top - 8), 16));
		ck_assert(!lfht_below_tag_((void *)top, 8));
	} else {
		ck_assert(lfht_below_tag_((void *)((uintptr_t)1 << 50), 16));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lfht-word");
	TCase *tc = tcase_create("codec");
	SRunner *sr;
	int failed;

	if (LFHT_LONG_BITS_ != 64) {
		fprintf(stderr, "the reference computes 64-bit words: skipped\n");
		return 77;
	}
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, tag_matches_the_bit_by_bit_reference);
	tcase_add_test(tc, floor_is_exact_from_the_holder_and_the_same_from_any_later_one);
	tcase_add_test(tc, tag_after_agrees_with_the_reference_and_never_stops_early);
	tcase_add_test(tc, link_keeps_address_flags_and_tag_apart);
	tcase_add_test(tc, only_bytes_below_the_tag_are_linkable);
	suite_add_tcase(s, tc);
	fprintf(stderr, "links: %s\n", tagged() ? "tagged" : "plain pointers");
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
