/* SPDX-License-Identifier: MIT */
/*
 * tests/test_stress.c - bounded concurrency stress (LFHT_STRESS_SECONDS,
 * default 2 s each). Every test counts the work done and checks invariants
 * once the threads have stopped (the table's own with the invariant checker,
 * lfht/check.c); readers check the magic of every entry they
 * get, so a use after free (entries are poisoned when call_rcu frees them)
 * shows as a bad-magic count.
 *
 * Every call of the workers is recorded, and each round of the run is
 * judged by the history checker (tests/history/): linearizable per key,
 * and walks that return each node present throughout exactly once.
 *
 * Worker threads never call ck_assert (Check's no-fork mode jumps back into
 * the main thread's stack): they count, the main thread asserts.
 */
#define _GNU_SOURCE
#include "history/record.h"

#include <string.h>

#include "test_density.h"

#define NR_READERS 2

struct stress {
	struct cds_lfht *ht;
	_Atomic(int) stop;
	_Atomic(long) ops;
	_Atomic(long) errors;	/* broken invariant seen by a worker */
	_Atomic(long) misses;	/* a key that must be present was not */
	_Atomic(long) resizes;
	_Atomic(long) traversals;
	_Atomic(long) size_errors;	/* nr_buckets after a resize != asked */
	struct hist_run hist;		/* the recorded calls of the workers */
	double share;			/* of the stress time the run takes (0: all) */
};

struct worker {
	struct stress *st;
	int id;
	uint64_t seed;
	struct hist_log *log;		/* NULL: a thread that records nothing */
};

static bool stopped(struct stress *st)
{
	return rcu_atomic_load(&st->stop, memory_order_relaxed) != 0;
}

static void count_err(_Atomic(long) *counter, long n)
{
	if (n != 0)
		rcu_atomic_add(counter, n, memory_order_relaxed);
}

/* Records nr_recording workers' calls on st->ht from now on: their logs
 * are st->hist.logs[0 .. nr_recording), of ops_per_thread calls each (a
 * round ends when one is full: small logs keep a key with calls always in
 * flight under the checker's bound). */
static void record_workers(struct stress *st, int nr_recording, size_t ops_per_thread)
{
	hist_run_init(&st->hist, st->ht, test_hash, nr_recording, ops_per_thread, 1 << 20);
}

/* Runs rounds for the stress duration, checking each, then stops and
 * joins the threads (the recording ones stop with the rounds). */
static void run_for_duration(struct stress *st, pthread_t *threads, int nr)
{
	hist_run_for(&st->hist, test_stress_seconds() * (st->share > 0 ? st->share : 1));
	rcu_atomic_store(&st->stop, 1, memory_order_relaxed);
	for (int i = 0; i < nr; i++)
		test_join(threads[i]);
}

/* Every round was clean, and checked. */
static void expect_history(struct stress *st, const char *what)
{
	hist_run_print(&st->hist, what);
	ck_assert_msg(st->hist.clean, "the history checker reported a violation (above)");
	ck_assert_uint_eq(st->hist.verdict.unchecked_keys, 0);
	ck_assert_uint_eq(st->hist.verdict.unchecked_walks, 0);
	ck_assert_uint_gt(st->hist.verdict.ops + st->hist.verdict.walks, 100);
	hist_run_destroy(&st->hist);
}

static long get(_Atomic(long) *counter)
{
	return rcu_atomic_load(counter, memory_order_relaxed);
}

static void expect_clean(struct stress *st)
{
	ck_assert_msg(get(&st->errors) == 0, "%ld broken invariants seen by workers",
		      get(&st->errors));
	ck_assert_msg(get(&st->size_errors) == 0,
		      "%ld resizes ended at another size than asked", get(&st->size_errors));
	ck_assert_msg(get(&test_bad_magic) == 0, "%ld entries seen after being freed",
		      get(&test_bad_magic));
}

/* ---- readers and writers with owner-tracked keys ----------------------- */

#define RW_KEYS 512
#define RW_WRITERS 2

static _Atomic(unsigned char) rw_present[RW_KEYS];

static void *rw_reader_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	long ops = 0, errors = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t key = test_rand(&w->seed) % RW_KEYS;
		struct cds_lfht_iter iter;
		struct test_node *tn;

		rcu_read_lock();
		tn = hist_lookup(w->log, key, &iter);
		if (tn != NULL && tn->key != key)
			errors++;
		if (ops % 1024 == 0)
			hist_iteration(w->log);
		rcu_read_unlock();
		if (++ops % 64 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->ops, ops);
	count_err(&st->errors, errors);
	return NULL;
}

/* One step on a key this writer owns: the writer alone changes it, so the
 * table must agree with rw_present before and after. */
static long rw_step(struct hist_log *log, uint64_t key, uint64_t r)
{
	bool present = rcu_atomic_load(&rw_present[key], memory_order_relaxed);
	struct test_node *tn, *old = NULL, *nw = NULL, *unpublished = NULL;
	struct cds_lfht_iter iter;
	long errors = 0;

	if (!present || r % 4 >= 2)
		nw = test_node_new(key, r);
	rcu_read_lock();
	tn = hist_lookup(log, key, &iter);
	if ((tn != NULL) != present)
		errors++;
	if (!present) {
		if (r % 2 == 0) {
			if (hist_add_unique(log, nw) != nw) {
				errors++;
				unpublished = nw;
			}
		} else {
			hist_add(log, nw);
		}
	} else if (tn != NULL) {
		switch (r % 4) {
		case 0:
		case 1:
			if (hist_del(log, tn) != 0)
				errors++;
			old = tn;
			break;
		case 2:
			if (hist_replace(log, &iter, nw) != 0) {
				errors++;
				unpublished = nw;
			} else {
				old = tn;
			}
			break;
		default:
			old = hist_add_replace(log, nw);
			if (old != tn)
				errors++;
			break;
		}
	}
	rcu_read_unlock();
	if (old != NULL)
		test_node_free_rcu(old);
	if (present && tn == NULL)
		unpublished = nw;	/* table disagreed: nothing was done */
	else if (!present || r % 4 < 2)
		rcu_atomic_store(&rw_present[key], !present, memory_order_relaxed);
	if (unpublished != NULL)
		test_node_free_now(unpublished);
	return errors;
}

static void *rw_writer_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	long ops = 0, errors = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t r = test_rand(&w->seed);
		/* Keys with key % RW_WRITERS == id belong to this writer. */
		uint64_t key = (r >> 8) % (RW_KEYS / RW_WRITERS) * RW_WRITERS + (uint64_t)w->id;

		errors += rw_step(w->log, key, r);
		if (++ops % 32 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->ops, ops);
	count_err(&st->errors, errors);
	return NULL;
}

/* Once per density (LFHT_BUCKETS_PER_NODE(1 << _i)): the default for the
 * whole stress time, each other density for a third of it. */
START_TEST(readers_and_writers_lose_and_duplicate_no_key)
{
	struct stress st = {
		.ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING |
				   test_density_flag(_i), NULL),
		.share = _i == 0 ? 1.0 : 1.0 / 3,
	};
	struct worker workers[NR_READERS + RW_WRITERS];
	pthread_t threads[NR_READERS + RW_WRITERS];
	unsigned long expected = 0, count, wrong = 0;
	long before, after;

	ck_assert_ptr_nonnull(st.ht);
	for (int k = 0; k < RW_KEYS; k++)
		rcu_atomic_store(&rw_present[k], 0, memory_order_relaxed);
	record_workers(&st, NR_READERS + RW_WRITERS, 1 << 16);
	for (int i = 0; i < NR_READERS + RW_WRITERS; i++) {
		workers[i] = (struct worker){ .st = &st, .id = i < RW_WRITERS ? i : 0,
					      .seed = 0x1234567ULL * (uint64_t)(i + 1),
					      .log = &st.hist.logs[i] };
		test_start(&threads[i], i < RW_WRITERS ? rw_writer_main : rw_reader_main,
			   &workers[i]);
	}
	run_for_duration(&st, threads, NR_READERS + RW_WRITERS);
	expect_history(&st, "readers/writers history");

	rcu_read_lock();
	for (uint64_t k = 0; k < RW_KEYS; k++) {
		unsigned long want = rcu_atomic_load(&rw_present[k], memory_order_relaxed);

		expected += want;
		wrong += test_count_key(st.ht, k) != want;
	}
	rcu_read_unlock();
	count = test_count_nodes(st.ht, &before, &after);
	fprintf(stderr, "[%s] readers/writers (density %lu): %ld ops, %lu keys present, "
		"%lu buckets\n", TEST_FLAVOUR_NAME, test_density(_i), get(&st.ops), expected,
		lfht_nr_buckets(st.ht));
	expect_clean(&st);
	ck_assert_int_gt(get(&st.ops), 1000);
	ck_assert_uint_eq(wrong, 0);
	ck_assert_uint_eq(count, expected);
	ck_assert_int_eq(before, (long)expected);
	ck_assert_int_eq(after, (long)expected);
	lfht_check_invariants_(st.ht);
	ck_assert_uint_eq(test_del_all(st.ht), expected);
	ck_assert_int_eq(cds_lfht_destroy(st.ht, NULL), 0);
	rcu_barrier();
	ck_assert_int_eq(get(&test_bad_magic), 0);
}
END_TEST

/* ---- add_unique race -------------------------------------------------- */

#define AU_THREADS 4

struct au_race {
	struct cds_lfht *ht;
	struct test_rounds rounds;
	struct test_node *mine[AU_THREADS];
	struct cds_lfht_node *got[AU_THREADS];
};

struct au_racer {
	struct au_race *race;
	int id;
};

static void *au_racer_main(void *arg)
{
	struct au_racer *me = arg;
	struct au_race *race = me->race;
	long round = 0;

	rcu_register_thread();
	while ((round = test_rounds_wait(&race->rounds, round)) > 0) {
		uint64_t key = (uint64_t)round;
		struct test_node *tn = test_node_new(key, (uint64_t)me->id);

		race->mine[me->id] = tn;
		rcu_read_lock();
		race->got[me->id] = cds_lfht_add_unique(race->ht, test_hash(key), test_match,
							&key, &tn->node);
		rcu_read_unlock();
		test_rounds_report(&race->rounds);
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(add_unique_race_leaves_one_node_and_losers_get_it)
{
	struct au_race race = {
		.ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL),
	};
	struct au_racer racers[AU_THREADS];
	pthread_t threads[AU_THREADS];
	double end = test_now() + test_stress_seconds() / 2;
	long round, bad_rounds = 0;

	ck_assert_ptr_nonnull(race.ht);
	for (int i = 0; i < AU_THREADS; i++) {
		racers[i] = (struct au_racer){ .race = &race, .id = i };
		test_start(&threads[i], au_racer_main, &racers[i]);
	}
	for (round = 1; round <= 100000 && (round <= 20 || test_now() < end); round++) {
		int winners = 0, winner = -1, agree = 0;
		unsigned long in_table;

		ck_assert(test_rounds_run(&race.rounds, round, AU_THREADS));
		for (int i = 0; i < AU_THREADS; i++) {
			if (race.got[i] == &race.mine[i]->node) {
				winners++;
				winner = i;
			}
		}
		for (int i = 0; winner >= 0 && i < AU_THREADS; i++)
			agree += race.got[i] == &race.mine[winner]->node;
		rcu_read_lock();
		in_table = test_count_key(race.ht, (uint64_t)round);
		rcu_read_unlock();
		if (winners != 1 || agree != AU_THREADS || in_table != 1)
			bad_rounds++;
		for (int i = 0; i < AU_THREADS; i++) {
			if (i != winner && race.got[i] != &race.mine[i]->node)
				test_node_free_now(race.mine[i]);	/* never published */
		}
		quiescent();
	}
	test_rounds_stop(&race.rounds);
	for (int i = 0; i < AU_THREADS; i++)
		test_join(threads[i]);
	round--;
	fprintf(stderr, "[%s] add_unique race: %ld rounds\n", TEST_FLAVOUR_NAME, round);
	ck_assert_int_eq(bad_rounds, 0);
	ck_assert_int_ge(round, 20);
	ck_assert_uint_eq(test_count_nodes(race.ht, NULL, NULL), (unsigned long)round);
	lfht_check_invariants_(race.ht);
	test_empty_and_destroy(race.ht);
}
END_TEST

/* ---- replace never missed ---------------------------------------------- */

#define RP_KEYS 16
#define RP_WRITERS 2

static void *rp_reader_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	long ops = 0, misses = 0, errors = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t key = test_rand(&w->seed) % RP_KEYS;
		struct cds_lfht_iter iter;
		struct test_node *tn;

		rcu_read_lock();
		tn = hist_lookup(w->log, key, &iter);
		if (tn == NULL)
			misses++;
		else if (tn->key != key)
			errors++;
		rcu_read_unlock();
		if (++ops % 64 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->ops, ops);
	count_err(&st->misses, misses);
	count_err(&st->errors, errors);
	return NULL;
}

/* Both writers replace the same keys: a replace that loses to the other
 * writer gets -ENOENT; add_replace always replaces something. */
static void *rp_writer_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	long ops = 0, errors = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t r = test_rand(&w->seed);
		uint64_t key = r % RP_KEYS;
		struct test_node *nw = test_node_new(key, r), *old;
		struct cds_lfht_iter iter;
		bool published = true;

		rcu_read_lock();
		if (r & 0x100) {
			old = hist_add_replace(w->log, nw);
			if (old == NULL)
				errors++;	/* the key was always present */
		} else {
			int ret;

			old = hist_lookup(w->log, key, &iter);
			if (old == NULL) {
				errors++;
				ret = -ENOENT;
			} else {
				ret = hist_replace(w->log, &iter, nw);
			}
			if (ret != 0) {
				if (ret != -ENOENT)
					errors++;
				published = false;
				old = NULL;
			}
		}
		rcu_read_unlock();
		if (old != NULL)
			test_node_free_rcu(old);
		if (!published)
			test_node_free_now(nw);
		if (++ops % 32 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->resizes, ops);	/* counts replaces in this test */
	count_err(&st->errors, errors);
	return NULL;
}

START_TEST(replace_is_never_missed_by_lookup)
{
	struct stress st = { .ht = cds_lfht_new(4, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL) };
	struct worker workers[NR_READERS + RP_WRITERS];
	pthread_t threads[NR_READERS + RP_WRITERS];
	unsigned long wrong = 0;

	ck_assert_ptr_nonnull(st.ht);
	for (uint64_t k = 0; k < RP_KEYS; k++) {
		struct test_node *tn = test_node_new(k, 0);

		rcu_read_lock();
		cds_lfht_add(st.ht, test_hash(k), &tn->node);
		rcu_read_unlock();
	}
	record_workers(&st, NR_READERS + RP_WRITERS, 4096);
	for (int i = 0; i < NR_READERS + RP_WRITERS; i++) {
		workers[i] = (struct worker){ .st = &st, .id = i,
					      .seed = 0x9876543ULL * (uint64_t)(i + 1),
					      .log = &st.hist.logs[i] };
		test_start(&threads[i], i < RP_WRITERS ? rp_writer_main : rp_reader_main,
			   &workers[i]);
	}
	run_for_duration(&st, threads, NR_READERS + RP_WRITERS);
	expect_history(&st, "replace history");
	rcu_read_lock();
	for (uint64_t k = 0; k < RP_KEYS; k++)
		wrong += test_count_key(st.ht, k) != 1;
	rcu_read_unlock();
	fprintf(stderr, "[%s] replace: %ld replaces, %ld lookups, %ld misses\n",
		TEST_FLAVOUR_NAME, get(&st.resizes),
		get(&st.ops),
		get(&st.misses));
	expect_clean(&st);
	ck_assert_int_eq(get(&st.misses), 0);
	ck_assert_int_gt(get(&st.resizes), 100);
	ck_assert_int_gt(get(&st.ops), 100);
	ck_assert_uint_eq(wrong, 0);
	ck_assert_uint_eq(test_count_nodes(st.ht, NULL, NULL), RP_KEYS);
	lfht_check_invariants_(st.ht);
	test_empty_and_destroy(st.ht);
}
END_TEST

/* ---- resize storm ------------------------------------------------------ */

#define STORM_KEYS 2048		/* always present */
#define STORM_TRANSIENT 256	/* added and deleted by one writer */

static void *storm_resizer_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	static const unsigned long sizes[] = { 1, 4096, 2, 64, 1 << 14, 8, 512, 1 };
	long n = 0, errors = 0;

	rcu_register_thread();
	while (!stopped(st)) {
		unsigned long size = sizes[n % (sizeof(sizes) / sizeof(sizes[0]))];

		cds_lfht_resize(st->ht, size);
		if (lfht_nr_buckets(st->ht) != size)
			errors++;
		n++;
		quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->resizes, n);
	count_err(&st->size_errors, errors);
	return NULL;
}

static void *storm_reader_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	long ops = 0, misses = 0, errors = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t key = test_rand(&w->seed) % (STORM_KEYS + STORM_TRANSIENT);
		struct cds_lfht_iter iter;
		struct test_node *tn;

		rcu_read_lock();
		tn = hist_lookup(w->log, key, &iter);
		if (tn == NULL && key < STORM_KEYS)
			misses++;
		else if (tn != NULL && tn->key != key)
			errors++;
		rcu_read_unlock();
		if (++ops % 64 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->ops, ops);
	count_err(&st->misses, misses);
	count_err(&st->errors, errors);
	return NULL;
}

static struct test_node *_Atomic storm_transient[STORM_TRANSIENT];

static void *storm_writer_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	long ops = 0, errors = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t i = test_rand(&w->seed) % STORM_TRANSIENT;
		uint64_t key = STORM_KEYS + i;
		struct test_node *tn = rcu_atomic_load(&storm_transient[i], memory_order_relaxed);

		if (tn == NULL) {
			tn = test_node_new(key, 0);
			rcu_read_lock();
			if (hist_add_unique(w->log, tn) != tn)
				errors++;
			rcu_read_unlock();
			rcu_atomic_store(&storm_transient[i], tn, memory_order_relaxed);
		} else {
			rcu_read_lock();
			if (hist_del(w->log, tn) != 0)
				errors++;
			rcu_read_unlock();
			test_node_free_rcu(tn);
			rcu_atomic_store(&storm_transient[i], NULL, memory_order_relaxed);
		}
		if (++ops % 32 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->errors, errors);
	return NULL;
}

START_TEST(lookups_find_present_keys_during_resize_storm)
{
	struct stress st = { .ht = cds_lfht_new(1, 1, 0, 0, NULL) };
	struct worker workers[NR_READERS + 2];
	pthread_t threads[NR_READERS + 2];
	unsigned long transient = 0, wrong = 0;

	ck_assert_ptr_nonnull(st.ht);
	for (int i = 0; i < STORM_TRANSIENT; i++)
		rcu_atomic_store(&storm_transient[i], NULL, memory_order_relaxed);
	for (uint64_t k = 0; k < STORM_KEYS; k++) {
		struct test_node *tn = test_node_new(k, 0);

		rcu_read_lock();
		cds_lfht_add(st.ht, test_hash(k), &tn->node);
		rcu_read_unlock();
	}
	/* The resizer (worker 0) records nothing. */
	record_workers(&st, NR_READERS + 1, 1 << 16);
	for (int i = 0; i < NR_READERS + 2; i++) {
		workers[i] = (struct worker){ .st = &st, .id = i,
					      .seed = 0x5555ULL * (uint64_t)(i + 3),
					      .log = i ? &st.hist.logs[i - 1] : NULL };
		test_start(&threads[i], i == 0 ? storm_resizer_main :
			   i == 1 ? storm_writer_main : storm_reader_main, &workers[i]);
	}
	run_for_duration(&st, threads, NR_READERS + 2);
	expect_history(&st, "resize storm history");
	rcu_read_lock();
	for (uint64_t k = 0; k < STORM_KEYS + STORM_TRANSIENT; k++) {
		unsigned long want = k < STORM_KEYS ? 1 :
			rcu_atomic_load(&storm_transient[k - STORM_KEYS],
					memory_order_relaxed) != NULL;

		transient += k >= STORM_KEYS && want;
		wrong += test_count_key(st.ht, k) != want;
	}
	rcu_read_unlock();
	fprintf(stderr, "[%s] resize storm: %ld resizes, %ld lookups, %ld misses\n",
		TEST_FLAVOUR_NAME, get(&st.resizes),
		get(&st.ops),
		get(&st.misses));
	expect_clean(&st);
	ck_assert_int_eq(get(&st.misses), 0);
	ck_assert_int_gt(get(&st.resizes), 2);
	ck_assert_int_gt(get(&st.ops), 100);
	ck_assert_uint_eq(wrong, 0);
	ck_assert_uint_eq(test_count_nodes(st.ht, NULL, NULL), STORM_KEYS + transient);
	lfht_check_invariants_(st.ht);
	test_empty_and_destroy(st.ht);
}
END_TEST

/* ---- iteration during resize ------------------------------------------ */

#define IT_KEYS 1024

/* Walks the table again and again; the history checker holds each walk
 * to the iteration rule (every key is present throughout: each is
 * returned exactly once), and the count is checked here too. */
static void *it_reader_main(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	long traversals = 0, errors = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		rcu_read_lock();
		errors += hist_iteration(w->log) != IT_KEYS;
		rcu_read_unlock();
		traversals++;
		quiescent();
	}
	rcu_unregister_thread();
	count_err(&st->traversals, traversals);
	count_err(&st->errors, errors);
	return NULL;
}

START_TEST(iteration_during_resize_sees_each_key_exactly_once)
{
	struct stress st = { .ht = cds_lfht_new(1, 1, 0, 0, NULL) };
	struct worker workers[NR_READERS + 1];
	pthread_t threads[NR_READERS + 1];

	ck_assert_ptr_nonnull(st.ht);
	for (uint64_t k = 0; k < IT_KEYS; k++) {
		struct test_node *tn = test_node_new(k, 0);

		rcu_read_lock();
		cds_lfht_add(st.ht, test_hash(k), &tn->node);
		rcu_read_unlock();
	}
	/* The resizer (worker 0) records nothing. */
	record_workers(&st, NR_READERS, 1 << 16);
	for (int i = 0; i < NR_READERS + 1; i++) {
		workers[i] = (struct worker){ .st = &st, .id = i, .seed = 77,
					      .log = i ? &st.hist.logs[i - 1] : NULL };
		test_start(&threads[i], i == 0 ? storm_resizer_main : it_reader_main,
			   &workers[i]);
	}
	run_for_duration(&st, threads, NR_READERS + 1);
	expect_history(&st, "iteration history");
	fprintf(stderr, "[%s] iteration during resize: %ld traversals, %ld resizes, "
		"%ld bad traversals\n", TEST_FLAVOUR_NAME,
		get(&st.traversals),
		get(&st.resizes),
		get(&st.errors));
	expect_clean(&st);
	ck_assert_int_gt(get(&st.traversals), 2);
	ck_assert_int_gt(get(&st.resizes), 2);
	ck_assert_uint_eq(test_count_nodes(st.ht, NULL, NULL), IT_KEYS);
	lfht_check_invariants_(st.ht);
	test_empty_and_destroy(st.ht);
}
END_TEST

int main(void)
{
	Suite *s = suite_create(TEST_FLAVOUR_NAME);

	TEST_ADD_DENSITIES(s, readers_and_writers_lose_and_duplicate_no_key, 300);
	TEST_ADD(s, add_unique_race_leaves_one_node_and_losers_get_it, 300);
	TEST_ADD(s, replace_is_never_missed_by_lookup, 300);
	TEST_ADD(s, lookups_find_present_keys_during_resize_storm, 300);
	TEST_ADD(s, iteration_during_resize_sees_each_key_exactly_once, 300);
	return test_main(s);
}
