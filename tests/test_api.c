/* SPDX-License-Identifier: MIT */
/*
 * tests/test_api.c - single-threaded semantics of every cds_lfht API member:
 * argument checks of new, destroy's refusal and attr hand-back, del, the
 * add family, replace, lookup, iteration, duplicates, counting. The two-thread
 * del race lives here too (it pins del's return value).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "lfht_test.h"
#include "test_density.h"

/* Created by main() before any thread registers. */
static struct cds_lfht *early_table;

static struct test_node *add_key(struct cds_lfht *ht, uint64_t key)
{
	struct test_node *tn = test_node_new(key, 0);

	rcu_read_lock();
	cds_lfht_add(ht, test_hash(key), &tn->node);
	rcu_read_unlock();
	return tn;
}

/* ---- cds_lfht_new ------------------------------------------------------ */

START_TEST(new_works_before_any_thread_registers)
{
	struct cds_lfht *ht = early_table;

	ck_assert_ptr_nonnull(ht);
	add_key(ht, 7);
	rcu_read_lock();
	ck_assert_ptr_nonnull(test_lookup(ht, 7));
	rcu_read_unlock();
	test_empty_and_destroy(ht);
	early_table = NULL;
}
END_TEST

static void expect_einval(unsigned long init, unsigned long min, unsigned long max)
{
	struct cds_lfht *ht;

	errno = 0;
	ht = cds_lfht_new(init, min, max, 0, NULL);
	ck_assert_msg(ht == NULL, "new(%lu, %lu, %lu) accepted", init, min, max);
	ck_assert_msg(errno == EINVAL, "new(%lu, %lu, %lu): errno %d, not EINVAL",
		      init, min, max, errno);
}

START_TEST(new_rejects_sizes_not_power_of_two_with_einval)
{
	expect_einval(0, 1, 0);
	expect_einval(3, 1, 0);
	expect_einval(12, 4, 0);
	expect_einval(1, 0, 0);
	expect_einval(1, 3, 0);
	expect_einval(16, 6, 64);
	expect_einval(1, 1, 3);
	expect_einval(4, 4, 100);
}
END_TEST

START_TEST(new_accepts_powers_of_two_and_unlimited_max)
{
	static const unsigned long sizes[][3] = {
		{ 1, 1, 0 }, { 1, 1, 1 }, { 8, 4, 64 }, { 1024, 1, 0 },
		{ 2, 2, 1UL << 20 }, { 64, 64, 0 },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct cds_lfht *ht = cds_lfht_new(sizes[i][0], sizes[i][1],
						   sizes[i][2], 0, NULL);

		ck_assert_msg(ht != NULL, "new(%lu, %lu, %lu) failed", sizes[i][0],
			      sizes[i][1], sizes[i][2]);
		ck_assert_uint_eq(lfht_nr_buckets(ht), sizes[i][0]);
		ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	}
}
END_TEST

START_TEST(new_refuses_density_other_than_1_2_4_8_with_einval)
{
	static const int bad[] = { 0, 3, 5, 6, 7, 9, 16, 32, -1, -4 };
	/* A density field written without the macro's marker bit. */
	int raw = 4 << LFHT_DENSITY_SHIFT_;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (int auto_resize = 0; auto_resize < 2; auto_resize++) {
			int flags = LFHT_BUCKETS_PER_NODE(bad[i]) |
				    (auto_resize ? CDS_LFHT_AUTO_RESIZE : 0);

			errno = 0;
			ck_assert_msg(cds_lfht_new(1, 1, 0, flags, NULL) == NULL,
				      "LFHT_BUCKETS_PER_NODE(%d) accepted", bad[i]);
			ck_assert_int_eq(errno, EINVAL);
		}
	}
	errno = 0;
	ck_assert_ptr_null(cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | raw, NULL));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(new_accepts_densities_1_2_4_8_with_every_flag)
{
	static const int flags[] = {
		0, CDS_LFHT_AUTO_RESIZE, CDS_LFHT_ACCOUNTING,
		CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
	};

	for (int d = 0; d < TEST_NR_DENSITIES; d++) {
		for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
			struct cds_lfht *ht = cds_lfht_new(4, 2, 1UL << 20,
							   flags[f] | test_density_flag(d), NULL);

			ck_assert_msg(ht != NULL, "density %lu, flags %d refused: errno %d",
				      test_density(d), flags[f], errno);
			/* init_size keeps its meaning: buckets, not nodes. */
			ck_assert_uint_eq(lfht_nr_buckets(ht), 4);
			ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
		}
	}
	rcu_barrier();
}
END_TEST

/* Every update and read call on an auto-resized table of density _i,
 * growing from one bucket: the answers do not depend on the density. */
START_TEST(density_table_answers_every_call_as_the_default_does)
{
	enum { NR = 3000 };
	int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING | test_density_flag(_i);
	struct cds_lfht *ht = test_new_table(1, flags, NULL, 0);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long seen = 0, found = 0;
	long before = -1, after = -1;

	for (uint64_t k = 0; k < NR; k++) {
		struct test_node *tn = test_node_new(k, 0), *dup = test_node_new(k, 1);

		rcu_read_lock();
		ck_assert_ptr_eq(cds_lfht_add_unique(ht, test_hash(k), test_match, &k,
						     &tn->node), &tn->node);
		ck_assert_ptr_eq(cds_lfht_add_unique(ht, test_hash(k), test_match, &k,
						     &dup->node), &tn->node);
		rcu_read_unlock();
		test_node_free_now(dup);
		quiescent();
	}
	/* Replace the even keys, delete every third. */
	for (uint64_t k = 0; k < NR; k++) {
		rcu_read_lock();
		cds_lfht_lookup(ht, test_hash(k), test_match, &k, &iter);
		node = cds_lfht_iter_get_node(&iter);
		ck_assert_ptr_nonnull(node);
		if (k % 2 == 0) {
			struct test_node *nw = test_node_new(k, 2);

			ck_assert_int_eq(cds_lfht_replace(ht, &iter, test_hash(k), test_match,
							  &k, &nw->node), 0);
			test_node_free_rcu(test_node_of(node));
		} else if (k % 12 == 3) {
			ck_assert_ptr_eq(lfht_del_key(ht, test_hash(k), test_match, &k), node);
			ck_assert_ptr_null(lfht_del_key(ht, test_hash(k), test_match, &k));
			test_node_free_rcu(test_node_of(node));
		} else if (k % 3 == 0) {
			ck_assert_int_eq(cds_lfht_del(ht, node), 0);
			ck_assert_int_eq(cds_lfht_del(ht, node), -ENOENT);
			test_node_free_rcu(test_node_of(node));
		}
		rcu_read_unlock();
		quiescent();
	}
	rcu_read_lock();
	for (uint64_t k = 0; k < NR + 100; k++) {
		struct test_node *tn = test_lookup(ht, k);
		bool kept = k < NR && (k % 2 == 0 || k % 3 != 0);

		ck_assert_msg((tn != NULL) == kept, "density %lu: key %llu %s",
			      test_density(_i), (unsigned long long)k,
			      kept ? "lost" : "still found");
		if (tn) {
			ck_assert_uint_eq(tn->value, k % 2 == 0 ? 2 : 0);
			found++;
		}
	}
	cds_lfht_for_each(ht, &iter, node)
		seen++;
	rcu_read_unlock();
	ck_assert_uint_eq(seen, found);
	ck_assert_uint_eq(test_count_nodes(ht, &before, &after), found);
	ck_assert_int_eq(before, (long)found);
	fprintf(stderr, "[%s] density %lu: %lu nodes, %lu buckets\n", TEST_FLAVOUR_NAME,
		test_density(_i), found, lfht_nr_buckets(ht));
	test_empty_and_destroy(ht);
}
END_TEST

/* ---- cds_lfht_destroy -------------------------------------------------- */

START_TEST(destroy_non_empty_returns_eperm_and_table_still_works)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 10);

	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), -EPERM);
	rcu_read_lock();
	for (uint64_t k = 0; k < 10; k++)
		ck_assert_ptr_nonnull(test_lookup(ht, k));
	rcu_read_unlock();
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 10);
	ck_assert_uint_eq(test_del_all(ht), 10);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	rcu_barrier();
}
END_TEST

START_TEST(destroy_hands_back_attr)
{
	pthread_attr_t attr;
	pthread_attr_t *back = NULL;
	struct cds_lfht *ht;

	ht = test_new_table(1, CDS_LFHT_AUTO_RESIZE, &attr, 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, &back), 0);
	ck_assert_ptr_eq(back, &attr);

	back = &attr;
	ht = test_new_table(1, 0, NULL, 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, &back), 0);
	ck_assert_ptr_null(back);
	pthread_attr_destroy(&attr);
}
END_TEST

START_TEST(destroy_accepts_null_attr_out)
{
	pthread_attr_t attr;
	struct cds_lfht *ht;

	ht = test_new_table(2, 0, &attr, 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	pthread_attr_destroy(&attr);
}
END_TEST

/* ---- cds_lfht_del ------------------------------------------------------ */

START_TEST(del_returns_zero_then_twice_returns_enoent)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 5);
	struct test_node *tn;
	int first, second;
	unsigned long before, after;

	rcu_read_lock();
	tn = test_lookup(ht, 3);
	ck_assert_ptr_nonnull(tn);
	first = cds_lfht_del(ht, &tn->node);
	second = cds_lfht_del(ht, &tn->node);
	rcu_read_unlock();
	ck_assert_int_eq(first, 0);
	ck_assert_int_eq(second, -ENOENT);
	test_node_free_rcu(tn);

	before = test_count_nodes(ht, NULL, NULL);
	ck_assert_uint_eq(before, 4);
	rcu_read_lock();
	ck_assert_ptr_null(test_lookup(ht, 3));
	rcu_read_unlock();
	after = test_count_nodes(ht, NULL, NULL);
	ck_assert_uint_eq(after, before);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(del_null_returns_enoent_and_table_unchanged)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 5);
	int ret;

	rcu_read_lock();
	ret = cds_lfht_del(ht, NULL);
	rcu_read_unlock();
	ck_assert_int_eq(ret, -ENOENT);
	test_destroy_holding(ht, 5);
}
END_TEST

START_TEST(del_of_replaced_node_returns_enoent)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 3);
	struct test_node *old, *nw = test_node_new(1, 1), *got;
	uint64_t key = 1;
	int ret;

	rcu_read_lock();
	old = test_lookup(ht, 1);
	got = test_node_of(cds_lfht_add_replace(ht, test_hash(key), test_match,
						&key, &nw->node));
	ret = cds_lfht_del(ht, &old->node);
	rcu_read_unlock();
	ck_assert_ptr_eq(got, old);
	ck_assert_int_eq(ret, -ENOENT);
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 3);
	test_node_free_rcu(old);
	test_empty_and_destroy(ht);
}
END_TEST

/* ---- lfht_del_key ------------------------------------------------------ */

START_TEST(del_key_removes_the_node_lookup_finds_then_returns_null)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 5);
	struct test_node *dups[3], *tn;
	uint64_t key = 3, missing = 99, dup_key = 42;

	for (int i = 0; i < 3; i++) {
		dups[i] = test_node_new(dup_key, (uint64_t)i);
		rcu_read_lock();
		cds_lfht_add(ht, test_hash(dup_key), &dups[i]->node);
		rcu_read_unlock();
	}
	rcu_read_lock();
	tn = test_lookup(ht, key);
	ck_assert_ptr_nonnull(tn);
	ck_assert_ptr_eq(lfht_del_key(ht, test_hash(key), test_match, &key), &tn->node);
	ck_assert(cds_lfht_is_node_deleted(&tn->node));
	ck_assert_ptr_null(test_lookup(ht, key));
	ck_assert_ptr_null(lfht_del_key(ht, test_hash(key), test_match, &key));
	ck_assert_ptr_null(lfht_del_key(ht, test_hash(missing), test_match, &missing));
	/* Duplicates go in the order lookups find them. */
	for (int i = 0; i < 3; i++) {
		struct test_node *first = test_lookup(ht, dup_key);

		ck_assert_ptr_nonnull(first);
		ck_assert_ptr_eq(lfht_del_key(ht, test_hash(dup_key), test_match, &dup_key),
				 &first->node);
		test_node_free_rcu(first);
	}
	ck_assert_ptr_null(lfht_del_key(ht, test_hash(dup_key), test_match, &dup_key));
	rcu_read_unlock();
	test_node_free_rcu(tn);
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 4);
	test_empty_and_destroy(ht);
}
END_TEST

struct del_race {
	struct cds_lfht *ht;
	struct test_rounds rounds;
	struct test_node *_Atomic victim;
	_Atomic(int) results[2];
	bool by_key;		/* lfht_del_key(), else cds_lfht_del() */
};

/* Both racers delete the round's victim. */
static void del_play(struct test_rounds *r, int id, long round)
{
	struct del_race *race = caa_container_of(r, struct del_race, rounds);
	/* Relaxed: ordered by the acquire in rounds_wait() (lfht_test.c). */
	struct test_node *tn = rcu_atomic_load(&race->victim, memory_order_relaxed);
	int ret;

	(void)round;
	rcu_read_lock();
	if (race->by_key)
		ret = lfht_del_key(race->ht, test_hash(tn->key), test_match, &tn->key) ==
			      &tn->node ? 0 : -ENOENT;
	else
		ret = cds_lfht_del(race->ht, &tn->node);
	rcu_read_unlock();
	rcu_atomic_store(&race->results[id], ret, memory_order_relaxed);
}

static void del_race_run(bool by_key)
{
	struct del_race race = { .ht = cds_lfht_new(8, 1, 0, 0, NULL), .by_key = by_key };
	double end = test_now() + test_stress_seconds() / 4;
	long round, bad = 0;

	ck_assert_ptr_nonnull(race.ht);
	for (uint64_t k = 1000; k < 1016; k++)
		add_key(race.ht, k);	/* neighbours for the victims */
	test_rounds_start(&race.rounds, 2, del_play);
	for (round = 1; round <= 20000 && (round < 20 || test_now() < end); round++) {
		struct test_node *tn = add_key(race.ht, (uint64_t)round % 64);
		int r0, r1;

		rcu_atomic_store(&race.victim, tn, memory_order_relaxed);
		ck_assert(test_rounds_run(&race.rounds, round));
		r0 = rcu_atomic_load(&race.results[0], memory_order_relaxed);
		r1 = rcu_atomic_load(&race.results[1], memory_order_relaxed);
		if (!((r0 == 0 && r1 == -ENOENT) || (r0 == -ENOENT && r1 == 0)))
			bad++;
		test_node_free_rcu(tn);
		quiescent();
	}
	test_rounds_stop(&race.rounds);
	fprintf(stderr, "[%s] %s race: %ld rounds\n", TEST_FLAVOUR_NAME,
		by_key ? "lfht_del_key" : "del", round - 1);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_ge(round - 1, 20);
	test_destroy_holding(race.ht, 16);
}

START_TEST(del_race_of_two_threads_has_exactly_one_winner)
{
	del_race_run(false);
}
END_TEST

START_TEST(del_key_race_of_two_threads_has_exactly_one_winner)
{
	del_race_run(true);
}
END_TEST

/* ---- add family -------------------------------------------------------- */

START_TEST(add_allows_duplicates_and_for_each_duplicate_sees_all)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 0);
	struct test_node *dups[5];
	uint64_t key = 42;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	int seen[5] = { 0 }, total = 0;

	for (int i = 0; i < 5; i++) {
		dups[i] = test_node_new(key, (uint64_t)i);
		rcu_read_lock();
		cds_lfht_add(ht, test_hash(key), &dups[i]->node);
		rcu_read_unlock();
	}
	add_key(ht, 41);
	add_key(ht, 43);
	rcu_read_lock();
	cds_lfht_for_each_duplicate(ht, test_hash(key), test_match, &key, &iter, node) {
		struct test_node *tn = test_node_of(node);

		ck_assert_uint_eq(tn->key, key);
		ck_assert_ptr_eq(dups[tn->value], tn);
		seen[tn->value]++;
		total++;
	}
	rcu_read_unlock();
	ck_assert_int_eq(total, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(seen[i], 1);
	test_destroy_holding(ht, 7);
}
END_TEST

START_TEST(add_unique_returns_node_then_existing_on_conflict)
{
	struct cds_lfht *ht = test_new_table(2, 0, NULL, 0);
	struct test_node *a = test_node_new(5, 1), *b = test_node_new(5, 2);
	struct cds_lfht_node *ra, *rb;
	uint64_t key = 5;

	rcu_read_lock();
	ra = cds_lfht_add_unique(ht, test_hash(key), test_match, &key, &a->node);
	rb = cds_lfht_add_unique(ht, test_hash(key), test_match, &key, &b->node);
	rcu_read_unlock();
	ck_assert_ptr_eq(ra, &a->node);
	ck_assert_ptr_eq(rb, &a->node);
	rcu_read_lock();
	ck_assert_uint_eq(test_count_key(ht, key), 1);
	ck_assert_ptr_eq(test_lookup(ht, key), a);
	rcu_read_unlock();
	test_node_free_now(b);	/* never published */
	test_destroy_holding(ht, 1);
}
END_TEST

START_TEST(add_unique_treats_colliding_hash_with_other_key_as_distinct)
{
	struct cds_lfht *ht = test_new_table(1, 0, NULL, 0);
	struct cds_lfht_node *ret[TEST_COLLIDE_GROUP];
	struct test_node *tn[TEST_COLLIDE_GROUP];

	rcu_read_lock();
	for (uint64_t k = 0; k < TEST_COLLIDE_GROUP; k++) {
		tn[k] = test_node_new(k, 0);
		ret[k] = cds_lfht_add_unique(ht, test_collide_hash(k), test_match, &k,
					     &tn[k]->node);
	}
	rcu_read_unlock();
	for (uint64_t k = 0; k < TEST_COLLIDE_GROUP; k++)
		ck_assert_ptr_eq(ret[k], &tn[k]->node);
	test_destroy_holding(ht, TEST_COLLIDE_GROUP);
}
END_TEST

START_TEST(add_replace_returns_null_then_old_and_lookup_gives_new)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 0);
	struct test_node *a = test_node_new(9, 1), *b = test_node_new(9, 2);
	struct cds_lfht_node *ra, *rb;
	struct test_node *found;
	int a_deleted, b_deleted;
	uint64_t key = 9;

	add_key(ht, 8);
	rcu_read_lock();
	ra = cds_lfht_add_replace(ht, test_hash(key), test_match, &key, &a->node);
	rb = cds_lfht_add_replace(ht, test_hash(key), test_match, &key, &b->node);
	found = test_lookup(ht, key);
	a_deleted = cds_lfht_is_node_deleted(&a->node);
	b_deleted = cds_lfht_is_node_deleted(&b->node);
	rcu_read_unlock();
	ck_assert_ptr_null(ra);
	ck_assert_ptr_eq(rb, &a->node);
	ck_assert_ptr_eq(found, b);
	ck_assert_int_ne(a_deleted, 0);
	ck_assert_int_eq(b_deleted, 0);
	test_node_free_rcu(a);
	rcu_read_lock();
	ck_assert_uint_eq(test_count_key(ht, key), 1);
	rcu_read_unlock();
	test_destroy_holding(ht, 2);
}
END_TEST

/* ---- cds_lfht_replace -------------------------------------------------- */

START_TEST(replace_succeeds_and_lookup_gives_new)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 8);
	struct test_node *old, *nw = test_node_new(3, 99), *found;
	struct cds_lfht_iter iter;
	uint64_t key = 3;
	int ret, old_deleted;

	rcu_read_lock();
	old = test_lookup_iter(ht, key, &iter);
	ret = cds_lfht_replace(ht, &iter, test_hash(key), test_match, &key, &nw->node);
	found = test_lookup(ht, key);
	old_deleted = cds_lfht_is_node_deleted(&old->node);
	rcu_read_unlock();
	ck_assert_ptr_nonnull(old);
	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_eq(found, nw);
	ck_assert_int_ne(old_deleted, 0);
	test_node_free_rcu(old);
	test_destroy_holding(ht, 8);
}
END_TEST

START_TEST(replace_of_missing_node_returns_enoent)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 4);
	struct test_node *nw = test_node_new(77, 0);
	struct cds_lfht_iter iter;
	uint64_t key = 77;
	int ret;

	rcu_read_lock();
	ck_assert_ptr_null(test_lookup_iter(ht, key, &iter));
	ret = cds_lfht_replace(ht, &iter, test_hash(key), test_match, &key, &nw->node);
	rcu_read_unlock();
	ck_assert_int_eq(ret, -ENOENT);
	test_node_free_now(nw);
	test_destroy_holding(ht, 4);
}
END_TEST

START_TEST(replace_of_deleted_node_returns_enoent)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 4);
	struct test_node *old, *nw = test_node_new(2, 0);
	struct cds_lfht_iter iter;
	uint64_t key = 2;
	int del, ret;

	rcu_read_lock();
	old = test_lookup_iter(ht, key, &iter);
	del = cds_lfht_del(ht, &old->node);
	ret = cds_lfht_replace(ht, &iter, test_hash(key), test_match, &key, &nw->node);
	rcu_read_unlock();
	ck_assert_int_eq(del, 0);
	ck_assert_int_eq(ret, -ENOENT);
	test_node_free_rcu(old);
	rcu_read_lock();
	ck_assert_ptr_null(test_lookup(ht, key));
	rcu_read_unlock();
	test_node_free_now(nw);
	test_destroy_holding(ht, 3);
}
END_TEST

START_TEST(replace_with_key_mismatch_returns_einval)
{
	struct cds_lfht *ht = test_new_table(1, 0, NULL, 0);
	struct test_node *old = test_node_new(0, 0), *nw = test_node_new(1, 0);
	struct cds_lfht_iter iter;
	uint64_t key0 = 0, key1 = 1;
	int same_hash, other_hash;

	/* Keys 0 and 1 share test_collide_hash(): only the key differs. */
	ck_assert_uint_eq(test_collide_hash(0), test_collide_hash(1));
	rcu_read_lock();
	cds_lfht_add(ht, test_collide_hash(0), &old->node);
	cds_lfht_lookup(ht, test_collide_hash(0), test_match, &key0, &iter);
	ck_assert_ptr_eq(cds_lfht_iter_get_node(&iter), &old->node);
	same_hash = cds_lfht_replace(ht, &iter, test_collide_hash(1), test_match,
				     &key1, &nw->node);
	other_hash = cds_lfht_replace(ht, &iter, test_collide_hash(1) ^ 1, test_match,
				      &key0, &nw->node);
	rcu_read_unlock();
	ck_assert_int_eq(same_hash, -EINVAL);
	ck_assert_int_eq(other_hash, -EINVAL);
	rcu_read_lock();
	ck_assert_int_eq(cds_lfht_is_node_deleted(&old->node), 0);
	cds_lfht_lookup(ht, test_collide_hash(0), test_match, &key0, &iter);
	ck_assert_ptr_eq(cds_lfht_iter_get_node(&iter), &old->node);
	rcu_read_unlock();
	test_node_free_now(nw);
	test_destroy_holding(ht, 1);
}
END_TEST

/* ---- lookup, iteration ------------------------------------------------- */

START_TEST(lookup_hits_and_misses_give_node_or_null)
{
	struct cds_lfht *ht = test_new_table(16, 0, NULL, 100);
	int hits = 0, misses = 0;

	rcu_read_lock();
	for (uint64_t k = 0; k < 200; k++) {
		struct test_node *tn = test_lookup(ht, k);

		if (tn != NULL && tn->key == k)
			hits++;
		if (tn == NULL)
			misses++;
	}
	rcu_read_unlock();
	ck_assert_int_eq(hits, 100);
	ck_assert_int_eq(misses, 100);
	test_empty_and_destroy(ht);
}
END_TEST

/* del and replace of stray (key 5, never added) refuse it; the table is
 * left as it was. */
static void check_stray_refused(struct cds_lfht *ht, struct test_node *stray)
{
	struct test_node *other = test_node_new(5, 1);
	struct cds_lfht_iter iter = { &stray->node, NULL };
	uint64_t key = 5;

	rcu_read_lock();
	ck_assert_int_ne(cds_lfht_is_node_deleted(&stray->node), 0);
	ck_assert_int_eq(cds_lfht_del(ht, &stray->node), -ENOENT);
	/* Its key check passes (an added node would have this reverse hash). */
	stray->node.reverse_hash = lfht_reverse_bits_(test_hash(key));
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, test_hash(key), test_match, &key,
					  &other->node), -ENOENT);
	rcu_read_unlock();
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 100);
	ck_assert_uint_eq(test_count_found(ht, 0, 100), 100);
	test_node_free_now(other);
}

START_TEST(node_init_deleted_reads_deleted_and_del_replace_return_enoent)
{
	struct cds_lfht *ht = test_new_table(16, 0, NULL, 100);
	struct test_node *stray = test_node_new(5, 0), *inited = test_node_new(1000, 0);

	cds_lfht_node_init_deleted(&stray->node);
	check_stray_refused(ht, stray);
	/* Added, such a node is an ordinary one. */
	cds_lfht_node_init_deleted(&inited->node);
	rcu_read_lock();
	ck_assert_int_ne(cds_lfht_is_node_deleted(&inited->node), 0);
	cds_lfht_add(ht, test_hash(1000), &inited->node);
	ck_assert_int_eq(cds_lfht_is_node_deleted(&inited->node), 0);
	ck_assert_ptr_eq(test_lookup(ht, 1000), inited);
	rcu_read_unlock();
	test_node_free_now(stray);
	test_destroy_holding(ht, 101);
}
END_TEST

/* With debug checks the same calls abort (tests/test_misuse.c). */
START_TEST(node_never_added_del_replace_return_enoent_without_debug_checks)
{
	struct cds_lfht *ht;
	struct test_node *stray;

	if (TEST_DEBUG_CHECKS) {
		fprintf(stderr, "[%s] debug checks on: del of a node never added aborts "
			"(test_misuse.c); skipped\n", TEST_FLAVOUR_NAME);
		return;
	}
	ht = test_new_table(16, 0, NULL, 100);
	stray = test_node_new(5, 0);	/* cds_lfht_node_init() */
	check_stray_refused(ht, stray);
	test_node_free_now(stray);
	test_empty_and_destroy(ht);
}
END_TEST

/* Batched lookups of keys[0..n) give what single lookups give. */
static void check_batch_against_single(struct cds_lfht *ht, const uint64_t *keys, size_t n,
				       unsigned long (*hash)(uint64_t))
{
	unsigned long hashes[64];
	const void *key_ptrs[64];
	struct cds_lfht_iter batch[64], single;

	ck_assert_uint_le(n, 64);
	for (size_t i = 0; i < n; i++) {
		hashes[i] = hash(keys[i]);
		key_ptrs[i] = &keys[i];
	}
	rcu_read_lock();
	lfht_lookup_batch(ht, n, hashes, test_match, key_ptrs, batch);
	for (size_t i = 0; i < n; i++) {
		cds_lfht_lookup(ht, hashes[i], test_match, &keys[i], &single);
		ck_assert_ptr_eq(batch[i].node, single.node);
		ck_assert_ptr_eq(batch[i].next, single.next);
	}
	rcu_read_unlock();
}

START_TEST(lookup_batch_gives_what_single_lookups_give)
{
	struct cds_lfht *ht = test_new_table(16, 0, NULL, 1000);
	struct cds_lfht *dups = cds_lfht_new(4, 1, 0, 0, NULL);
	uint64_t keys[64];
	struct cds_lfht_iter iter;
	unsigned long found = 0, expected = 0;

	/* Hits and misses mixed, more than one window (16), odd sizes. */
	for (size_t i = 0; i < 64; i++)
		keys[i] = (i * 37) % 2000;
	for (size_t n = 0; n <= 64; n += 7)
		check_batch_against_single(ht, keys, n, test_hash);
	rcu_read_lock();
	for (size_t i = 0; i < 64; i++) {
		unsigned long h = test_hash(keys[i]);
		const void *k = &keys[i];

		lfht_lookup_batch(ht, 1, &h, test_match, &k, &iter);
		found += cds_lfht_iter_get_node(&iter) != NULL;
		expected += keys[i] < 1000;
	}
	rcu_read_unlock();
	ck_assert_uint_gt(expected, 0);
	ck_assert_uint_lt(expected, 64);
	ck_assert_uint_eq(found, expected);

	/* Removed nodes: deleted keys are misses for both. */
	test_del_keys(ht, 0, 1000, 3);
	check_batch_against_single(ht, keys, 64, test_hash);

	/* Duplicates and colliding hashes: the first of a key's run. */
	ck_assert_ptr_nonnull(dups);
	rcu_read_lock();
	for (uint64_t k = 0; k < 32; k++) {
		cds_lfht_add(dups, test_collide_hash(k), &test_node_new(k, 1)->node);
		cds_lfht_add(dups, test_collide_hash(k), &test_node_new(k, 2)->node);
	}
	rcu_read_unlock();
	check_batch_against_single(dups, keys, 64, test_collide_hash);
	test_empty_and_destroy(dups);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(lookup_of_colliding_hash_with_other_key_misses)
{
	struct cds_lfht *ht = test_new_table(2, 0, NULL, 0);
	struct test_node *tn = test_node_new(1, 0);
	struct cds_lfht_iter iter;
	uint64_t k1 = 1, k2 = 2;
	struct cds_lfht_node *hit, *miss;

	rcu_read_lock();
	cds_lfht_add(ht, test_collide_hash(k1), &tn->node);
	cds_lfht_lookup(ht, test_collide_hash(k1), test_match, &k1, &iter);
	hit = cds_lfht_iter_get_node(&iter);
	cds_lfht_lookup(ht, test_collide_hash(k2), test_match, &k2, &iter);
	miss = cds_lfht_iter_get_node(&iter);
	rcu_read_unlock();
	ck_assert_ptr_eq(hit, &tn->node);
	ck_assert_ptr_null(miss);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(first_of_empty_table_is_null)
{
	struct cds_lfht *ht = test_new_table(64, 0, NULL, 0);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	int n = 0;

	rcu_read_lock();
	cds_lfht_first(ht, &iter);
	ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	cds_lfht_for_each(ht, &iter, node)
		n++;
	rcu_read_unlock();
	ck_assert_int_eq(n, 0);
	ck_assert_uint_eq(test_count_nodes(ht, NULL, NULL), 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
}
END_TEST

#define ITER_KEYS 300

START_TEST(first_next_visit_every_node_once_never_a_bucket)
{
	/* Many buckets per key. */
	struct cds_lfht *ht = test_new_table(256, 0, NULL, ITER_KEYS);
	struct cds_lfht_iter iter;
	int seen[ITER_KEYS] = { 0 }, total = 0, foreign = 0;

	rcu_read_lock();
	for (cds_lfht_first(ht, &iter); cds_lfht_iter_get_node(&iter) != NULL;
	     cds_lfht_next(ht, &iter)) {
		struct test_node *tn = test_node_of(cds_lfht_iter_get_node(&iter));

		if (tn->key < ITER_KEYS)
			seen[tn->key]++;
		else
			foreign++;
		total++;
		if (total > 2 * ITER_KEYS)
			break;
	}
	rcu_read_unlock();
	ck_assert_int_eq(foreign, 0);
	ck_assert_int_eq(rcu_atomic_load(&test_bad_magic, memory_order_relaxed), 0);
	ck_assert_int_eq(total, ITER_KEYS);
	for (int k = 0; k < ITER_KEYS; k++)
		ck_assert_int_eq(seen[k], 1);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(for_each_and_for_each_entry_visit_every_node_once)
{
	struct cds_lfht *ht = test_new_table(8, 0, NULL, ITER_KEYS);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct test_node *pos;
	int seen[ITER_KEYS] = { 0 }, seen_entry[ITER_KEYS] = { 0 };
	int total = 0, total_entry = 0;

	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		struct test_node *tn = test_node_of(node);

		if (tn->key < ITER_KEYS)
			seen[tn->key]++;
		total++;
	}
	cds_lfht_for_each_entry(ht, &iter, pos, node) {
		test_node_of(&pos->node);
		if (pos->key < ITER_KEYS)
			seen_entry[pos->key]++;
		total_entry++;
	}
	rcu_read_unlock();
	ck_assert_int_eq(total, ITER_KEYS);
	ck_assert_int_eq(total_entry, ITER_KEYS);
	for (int k = 0; k < ITER_KEYS; k++) {
		ck_assert_int_eq(seen[k], 1);
		ck_assert_int_eq(seen_entry[k], 1);
	}
	ck_assert_int_eq(rcu_atomic_load(&test_bad_magic, memory_order_relaxed), 0);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(iteration_skips_deleted_nodes)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 50);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	int total = 0, odd = 0;

	test_del_keys(ht, 0, 50, 2);
	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		total++;
		odd += (int)(test_node_of(node)->key & 1);
	}
	rcu_read_unlock();
	ck_assert_int_eq(total, 25);
	ck_assert_int_eq(odd, 25);
	test_empty_and_destroy(ht);
}
END_TEST

/* Keys 0..15 in 4 groups sharing a hash; key 5 three more times. */
static struct cds_lfht *fill_collisions(void)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 0);

	rcu_read_lock();
	for (uint64_t k = 0; k < 16; k++) {
		struct test_node *tn = test_node_new(k, 0);

		cds_lfht_add(ht, test_collide_hash(k), &tn->node);
	}
	for (uint64_t i = 1; i <= 3; i++) {
		struct test_node *tn = test_node_new(5, i);

		cds_lfht_add(ht, test_collide_hash(5), &tn->node);
	}
	rcu_read_unlock();
	return ht;
}

START_TEST(next_duplicate_gives_exactly_matching_nodes_among_colliding_keys)
{
	struct cds_lfht *ht = fill_collisions();
	struct cds_lfht_iter iter;
	uint64_t key = 5;
	int values[4] = { 0 }, n = 0, wrong = 0;

	rcu_read_lock();
	cds_lfht_lookup(ht, test_collide_hash(key), test_match, &key, &iter);
	while (cds_lfht_iter_get_node(&iter) != NULL) {
		struct test_node *tn = test_node_of(cds_lfht_iter_get_node(&iter));

		if (tn->key != key || tn->value > 3)
			wrong++;
		else
			values[tn->value]++;
		n++;
		cds_lfht_next_duplicate(ht, test_match, &key, &iter);
	}
	rcu_read_unlock();
	ck_assert_int_eq(wrong, 0);
	ck_assert_int_eq(n, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(values[i], 1);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(for_each_duplicate_and_entry_duplicate_see_only_the_key)
{
	struct cds_lfht *ht = fill_collisions();
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct test_node *pos;

	for (uint64_t key = 0; key < 17; key++) {
		unsigned long want = key == 5 ? 4 : key < 16 ? 1 : 0;
		unsigned long n = 0, n_entry = 0, wrong = 0;

		rcu_read_lock();
		cds_lfht_for_each_duplicate(ht, test_collide_hash(key), test_match,
					    &key, &iter, node) {
			wrong += test_node_of(node)->key != key;
			n++;
		}
		cds_lfht_for_each_entry_duplicate(ht, test_collide_hash(key), test_match,
						  &key, &iter, pos, node) {
			wrong += pos->key != key;
			n_entry++;
		}
		rcu_read_unlock();
		ck_assert_uint_eq(wrong, 0);
		ck_assert_msg(n == want && n_entry == want,
			      "key %llu: %lu and %lu nodes, want %lu",
			      (unsigned long long)key, n, n_entry, want);
	}
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(is_node_deleted_is_zero_in_table_nonzero_after_del)
{
	struct cds_lfht *ht = test_new_table(4, 0, NULL, 4);
	struct test_node *tn;
	int in_table, after;

	rcu_read_lock();
	tn = test_lookup(ht, 1);
	in_table = cds_lfht_is_node_deleted(&tn->node);
	ck_assert_int_eq(cds_lfht_del(ht, &tn->node), 0);
	after = cds_lfht_is_node_deleted(&tn->node);
	rcu_read_unlock();
	ck_assert_int_eq(in_table, 0);
	ck_assert_int_ne(after, 0);
	test_node_free_rcu(tn);
	test_empty_and_destroy(ht);
}
END_TEST

START_TEST(iter_get_node_gives_the_node_of_lookup_and_first)
{
	struct cds_lfht *ht = test_new_table(1, 0, NULL, 0);
	struct test_node *tn = add_key(ht, 11);
	struct cds_lfht_iter iter;
	uint64_t key = 11;
	struct cds_lfht_node *a, *b;

	rcu_read_lock();
	cds_lfht_lookup(ht, test_hash(key), test_match, &key, &iter);
	a = cds_lfht_iter_get_node(&iter);
	cds_lfht_first(ht, &iter);
	b = cds_lfht_iter_get_node(&iter);
	cds_lfht_next(ht, &iter);
	ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	rcu_read_unlock();
	ck_assert_ptr_eq(a, &tn->node);
	ck_assert_ptr_eq(b, &tn->node);
	test_empty_and_destroy(ht);
}
END_TEST

/* ---- count_nodes -------------------------------------------------------- */

/* count_nodes gives nr, and both split counts (before and after it) give
 * split. */
static void expect_counts(struct cds_lfht *ht, unsigned long nr, long split)
{
	long before = -1, after = -1;

	ck_assert_uint_eq(test_count_nodes(ht, &before, &after), nr);
	ck_assert_int_eq(before, split);
	ck_assert_int_eq(after, split);
}

START_TEST(count_nodes_is_exact_and_split_counts_zero_without_accounting)
{
	struct cds_lfht *ht = test_new_table(8, 0, NULL, 123);

	expect_counts(ht, 123, 0);
	ck_assert_uint_eq(test_del_all(ht), 123);
	expect_counts(ht, 0, 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
}
END_TEST

START_TEST(count_nodes_split_counts_track_adds_and_dels_with_accounting)
{
	struct cds_lfht *ht = test_new_table(8, CDS_LFHT_ACCOUNTING, NULL, 3000);
	struct test_node *nw = test_node_new(10, 1), *replaced;
	uint64_t key = 10;
	int del_null;

	expect_counts(ht, 3000, 3000);
	test_del_keys(ht, 0, 1000, 1);
	expect_counts(ht, 2000, 2000);

	/* Replace changes nothing; a failed del changes nothing. */
	key = 2000;
	nw->key = key;
	rcu_read_lock();
	replaced = test_node_of(cds_lfht_add_replace(ht, test_hash(key), test_match,
						     &key, &nw->node));
	del_null = cds_lfht_del(ht, NULL);
	rcu_read_unlock();
	ck_assert_ptr_nonnull(replaced);
	ck_assert_int_eq(del_null, -ENOENT);
	test_node_free_rcu(replaced);
	expect_counts(ht, 2000, 2000);

	ck_assert_uint_eq(test_del_all(ht), 2000);
	expect_counts(ht, 0, 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	rcu_barrier();
}
END_TEST

/*
 * Split counts with more updaters than owned counters (lfht/count.c): a
 * table gives each registry number up to count_owned() a counter that only
 * its holder changes, with a plain load and store; the other threads add
 * to per-CPU counters. count_owned() + 4 threads registered at once, in
 * waves whose numbers the next wave takes over,
 * each add their own keys, delete every other one, and (under contention
 * on 2 CPUs, with preemption between a load and its store) the sums must
 * still be exact. Two holders of one counter would lose counts here.
 */
#define COUNT_WAVES 3
/* Keys per thread: 8000 at the full stress length (2 s: a count.c that let
 * two threads share an owned counter failed 15 runs in 15; 4000: 5 in 6),
 * fewer in the shorter runs of the sanitizer and emulator legs. */
static uint64_t count_keys(void)
{
	double s = test_stress_seconds();

	return s >= 2 ? 8000 : s >= 1 ? 4000 : 2000;
}

static struct cds_lfht *count_table;
static unsigned count_nr_owned;
static uint64_t count_nr_keys;
static pthread_barrier_t count_registered;
static _Atomic unsigned count_owned_seen, count_unowned_seen;

/* The owned counters of a table, as lfht/count.c sizes them: the CPUs
 * rounded up to a power of two, at least 8. */
static unsigned count_owned(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned nr = 1;

	while ((long)nr < cpus && nr < 4096)
		nr <<= 1;
	return nr < 8 ? 8 : nr;
}

static void *count_user(void *arg)
{
	uint64_t base = (uint64_t)(uintptr_t)arg * count_nr_keys;
	unsigned slot;

	rcu_register_thread();
	slot = rcu_flavour.thread_slot();
	/* Every user of the wave registered: their numbers are all taken. */
	pthread_barrier_wait(&count_registered);
	rcu_atomic_add(slot != 0 && slot <= count_nr_owned ? &count_owned_seen : &count_unowned_seen, 1,
		       memory_order_relaxed);
	test_fill(count_table, base, base + count_nr_keys);
	test_del_keys(count_table, base, base + count_nr_keys, 2);
	test_leave_read_sections();
	rcu_unregister_thread();
	return NULL;
}

START_TEST(split_counts_stay_exact_with_more_updaters_than_owned_counters)
{
	unsigned nr_users;
	pthread_t *users;
	unsigned long nr;

	count_nr_owned = count_owned();
	count_nr_keys = count_keys();
	nr_users = count_nr_owned + 4;
	users = calloc(nr_users, sizeof(*users));
	nr = (unsigned long)COUNT_WAVES * nr_users * count_nr_keys / 2;

	ck_assert_ptr_nonnull(users);
	count_table = test_new_table(1, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL, 0);
	ck_assert_int_eq(pthread_barrier_init(&count_registered, NULL, nr_users), 0);
	test_offline();
	for (unsigned w = 0; w < COUNT_WAVES; w++) {
		for (unsigned i = 0; i < nr_users; i++)
			test_start(&users[i], count_user, (void *)(uintptr_t)(w * nr_users + i));
		for (unsigned i = 0; i < nr_users; i++)
			test_join(users[i]);
	}
	test_online();
	free(users);
	ck_assert_int_eq(pthread_barrier_destroy(&count_registered), 0);
#if !defined(TEST_FLAVOUR_BP)
	/* Both kinds of counter did work (bp's threads hold no numbers). */
	ck_assert_uint_gt(rcu_atomic_load(&count_owned_seen, memory_order_relaxed), 0);
#endif
	ck_assert_uint_gt(rcu_atomic_load(&count_unowned_seen, memory_order_relaxed), 0);
	expect_counts(count_table, nr, (long)nr);
	ck_assert_uint_eq(test_del_all(count_table), nr);
	expect_counts(count_table, 0, 0);
	ck_assert_int_eq(cds_lfht_destroy(count_table, NULL), 0);
	rcu_barrier();
}
END_TEST

START_TEST(node_init_leaves_node_usable_and_nodes_are_reclaimed)
{
	struct cds_lfht *ht = test_new_table(2, 0, NULL, 10);

	test_empty_and_destroy(ht);
	/* Every entry of every test so far has gone through call_rcu. */
	ck_assert_int_eq(rcu_atomic_load(&test_nodes_live, memory_order_relaxed), 0);
}
END_TEST

/* ---- bp: threads that never register ------------------------------------ */

#if defined(TEST_FLAVOUR_BP)
#define BP_USERS 4
#define BP_KEYS 256

static struct cds_lfht *bp_table;
static _Atomic long bp_found[BP_USERS];

/*
 * Never calls rcu_register_thread(): its first read lock (in test_fill)
 * registers it. Adds its own keys, finds them, deletes the even ones (freed
 * by call_rcu) and exits, which unregisters it.
 */
static void *bp_unregistered_user(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	uint64_t base = (uint64_t)idx * BP_KEYS;

	test_fill(bp_table, base, base + BP_KEYS);
	rcu_atomic_store(&bp_found[idx],
			 (long)test_count_found(bp_table, base, base + BP_KEYS),
			 memory_order_relaxed);
	rcu_read_lock();
	for (uint64_t k = base; k < base + BP_KEYS; k += 2) {
		struct test_node *tn = test_lookup(bp_table, k);

		if (tn != NULL && cds_lfht_del(bp_table, &tn->node) == 0)
			test_node_free_rcu(tn);
	}
	rcu_read_unlock();
	return NULL;
}

START_TEST(threads_that_never_register_use_a_table)
{
	pthread_t users[BP_USERS];
	long before, after;

	bp_table = test_new_table(1, CDS_LFHT_AUTO_RESIZE, NULL, 0);
	for (unsigned i = 0; i < BP_USERS; i++)
		test_start(&users[i], bp_unregistered_user, (void *)(uintptr_t)i);
	for (unsigned i = 0; i < BP_USERS; i++)
		test_join(users[i]);
	for (unsigned i = 0; i < BP_USERS; i++)
		ck_assert_int_eq(rcu_atomic_load(&bp_found[i], memory_order_relaxed),
				 BP_KEYS);
	ck_assert_uint_eq(test_count_nodes(bp_table, &before, &after),
			  BP_USERS * BP_KEYS / 2);
	/* The users are gone: a grace period does not wait for them. */
	synchronize_rcu();
	test_empty_and_destroy(bp_table);
}
END_TEST

static void add_flavour_tests(Suite *s)
{
	TEST_ADD(s, threads_that_never_register_use_a_table, 60);
}
#else
static void add_flavour_tests(Suite *s)
{
	(void)s;
}
#endif

/*
 * cds_lfht_first() skips the buckets emptied at the front of the list
 * (lfht/iter.c scans their words in groups): deleting the first node again
 * and again must hand out every node, in list order (reverse hashes never
 * going down), in tables small and large (from 64 buckets the scan goes by groups),
 * with holes made elsewhere first.
 */
START_TEST(first_after_deletes_from_the_front_gives_the_least_remaining_node)
{
	static const unsigned long sizes[] = { 1, 2, 8, 32, 64, 128, 1024, 4096 };

	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned long size = sizes[s], nr = size < 4 ? 8 : 2 * size, seen = 0;
		struct cds_lfht *ht = cds_lfht_new(size, size, size, 0, NULL);
		unsigned long last_rh = 0;
		uint64_t rng = 0x1234 + s;

		ck_assert_ptr_nonnull(ht);
		test_fill(ht, 0, nr);
		/* Holes: about one key in eight, anywhere. */
		rcu_read_lock();
		for (unsigned long i = 0; i < nr / 8; i++) {
			struct test_node *tn = test_lookup(ht, test_rand(&rng) % nr);

			if (tn && cds_lfht_del(ht, &tn->node) == 0) {
				test_node_free_rcu(tn);
				seen++;
			}
		}
		rcu_read_unlock();
		for (;;) {
			struct cds_lfht_iter iter;
			struct cds_lfht_node *node;

			rcu_read_lock();
			cds_lfht_first(ht, &iter);
			node = cds_lfht_iter_get_node(&iter);
			if (node != NULL) {
				ck_assert_msg(node->reverse_hash >= last_rh,
					      "size %lu: first() went back in list order", size);
				last_rh = node->reverse_hash;
				ck_assert_int_eq(cds_lfht_del(ht, node), 0);
				test_node_free_rcu(test_node_of(node));
				seen++;
			}
			rcu_read_unlock();
			quiescent();
			if (node == NULL)
				break;
		}
		ck_assert_uint_eq(seen, nr);
		test_destroy_holding(ht, 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create(TEST_FLAVOUR_NAME);

	/* Before test_main() registers this thread. */
	early_table = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				   NULL);

	TEST_ADD(s, new_works_before_any_thread_registers, 30);
	TEST_ADD(s, new_rejects_sizes_not_power_of_two_with_einval, 30);
	TEST_ADD(s, new_accepts_powers_of_two_and_unlimited_max, 30);
	TEST_ADD(s, new_refuses_density_other_than_1_2_4_8_with_einval, 30);
	TEST_ADD(s, new_accepts_densities_1_2_4_8_with_every_flag, 30);
	TEST_ADD_DENSITIES(s, density_table_answers_every_call_as_the_default_does, 60);
	TEST_ADD(s, destroy_non_empty_returns_eperm_and_table_still_works, 30);
	TEST_ADD(s, destroy_hands_back_attr, 30);
	TEST_ADD(s, destroy_accepts_null_attr_out, 30);
	TEST_ADD(s, del_returns_zero_then_twice_returns_enoent, 30);
	TEST_ADD(s, del_null_returns_enoent_and_table_unchanged, 30);
	TEST_ADD(s, del_of_replaced_node_returns_enoent, 30);
	TEST_ADD(s, del_race_of_two_threads_has_exactly_one_winner, 60);
	TEST_ADD(s, del_key_removes_the_node_lookup_finds_then_returns_null, 30);
	TEST_ADD(s, del_key_race_of_two_threads_has_exactly_one_winner, 60);
	TEST_ADD(s, add_allows_duplicates_and_for_each_duplicate_sees_all, 30);
	TEST_ADD(s, add_unique_returns_node_then_existing_on_conflict, 30);
	TEST_ADD(s, add_unique_treats_colliding_hash_with_other_key_as_distinct, 30);
	TEST_ADD(s, add_replace_returns_null_then_old_and_lookup_gives_new, 30);
	TEST_ADD(s, replace_succeeds_and_lookup_gives_new, 30);
	TEST_ADD(s, replace_of_missing_node_returns_enoent, 30);
	TEST_ADD(s, replace_of_deleted_node_returns_enoent, 30);
	TEST_ADD(s, replace_with_key_mismatch_returns_einval, 30);
	TEST_ADD(s, lookup_hits_and_misses_give_node_or_null, 30);
	TEST_ADD(s, first_after_deletes_from_the_front_gives_the_least_remaining_node, 60);
	TEST_ADD(s, lookup_of_colliding_hash_with_other_key_misses, 30);
	TEST_ADD(s, first_of_empty_table_is_null, 30);
	TEST_ADD(s, first_next_visit_every_node_once_never_a_bucket, 30);
	TEST_ADD(s, for_each_and_for_each_entry_visit_every_node_once, 30);
	TEST_ADD(s, iteration_skips_deleted_nodes, 30);
	TEST_ADD(s, next_duplicate_gives_exactly_matching_nodes_among_colliding_keys, 30);
	TEST_ADD(s, for_each_duplicate_and_entry_duplicate_see_only_the_key, 30);
	TEST_ADD(s, is_node_deleted_is_zero_in_table_nonzero_after_del, 30);
	TEST_ADD(s, iter_get_node_gives_the_node_of_lookup_and_first, 30);
	TEST_ADD(s, count_nodes_is_exact_and_split_counts_zero_without_accounting, 30);
	TEST_ADD(s, count_nodes_split_counts_track_adds_and_dels_with_accounting, 30);
	TEST_ADD(s, split_counts_stay_exact_with_more_updaters_than_owned_counters, 60);
	TEST_ADD(s, node_init_leaves_node_usable_and_nodes_are_reclaimed, 30);
	TEST_ADD(s, lookup_batch_gives_what_single_lookups_give, 30);
	TEST_ADD(s, node_init_deleted_reads_deleted_and_del_replace_return_enoent, 30);
	TEST_ADD(s, node_never_added_del_replace_return_enoent_without_debug_checks, 30);
	add_flavour_tests(s);
	return test_main(s);
}
