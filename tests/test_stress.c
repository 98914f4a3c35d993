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
#define MAX_WRITERS 2

struct worker;

/* What the threads of one kind do: step after step, quiescent every
 * `every` steps. */
struct job {
	void (*step)(struct worker *w);
	long every;
};

/* A test's run: its table, who works on it, what they counted. */
struct stress {
	struct cds_lfht *ht;
	/* The threads: a resizer that records nothing (no step: none), then
	 * nr_writers writers, then NR_READERS readers; worker i's generator
	 * starts at seed * (i + 1). */
	struct job resizer, writer, reader;
	int nr_writers;
	uint64_t seed;
	_Atomic(int) stop;
	/* The steps of each kind. */
	_Atomic(long) resizes, writes, reads;
	_Atomic(long) errors;	/* broken invariant seen by a worker */
	_Atomic(long) misses;	/* a key that must be present was not */
	_Atomic(long) size_errors;	/* nr_buckets after a resize != asked */
	struct hist_run hist;		/* the recorded calls of the workers */
	double share;			/* of the stress time the run takes (0: all) */
};

struct worker {
	struct stress *st;
	int id;				/* among the threads of its kind */
	uint64_t seed;
	struct hist_log *log;		/* NULL: a thread that records nothing */
	const struct job *job;
	_Atomic(long) *steps_of_kind;	/* st's counter of the kind's steps */
	/* This thread's tallies, added to st's counters when it stops. */
	long steps, errors, misses;
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

/* Every worker thread: registered, it takes its job's steps until the run
 * stops (the rounds of its log end; st->stop for a thread that records
 * nothing). */
static void *worker_main(void *arg)
{
	struct worker *w = arg;

	rcu_register_thread();
	while (w->log != NULL ? hist_continue(w->log) : !stopped(w->st)) {
		w->job->step(w);
		if (++w->steps % w->job->every == 0)
			quiescent();
	}
	rcu_unregister_thread();
	count_err(w->steps_of_kind, w->steps);
	count_err(&w->st->errors, w->errors);
	count_err(&w->st->misses, w->misses);
	return NULL;
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

/* Starts st's threads, the writers and readers recording their calls on
 * st->ht (logs of ops_per_thread calls: a round ends when one is full, and
 * small logs keep a key with calls always in flight under the checker's
 * bound); runs rounds for st's share of the stress time, checking each
 * (expect_history()); then stops and joins the threads (the recording
 * ones stop with the rounds). */
static void run_workers(struct stress *st, size_t ops_per_thread, const char *what)
{
	int first = st->resizer.step != NULL;	/* thread of the first log */
	int nr = first + st->nr_writers + NR_READERS;
	struct worker workers[1 + MAX_WRITERS + NR_READERS];
	pthread_t threads[1 + MAX_WRITERS + NR_READERS];

	ck_assert_int_le(st->nr_writers, MAX_WRITERS);
	hist_run_init(&st->hist, st->ht, test_hash, nr - first, ops_per_thread, 1 << 20);
	for (int i = 0; i < nr; i++) {
		int log = i - first, reader = log - st->nr_writers;
		struct worker *w = &workers[i];

		*w = (struct worker){ .st = st, .id = log, .seed = st->seed * (uint64_t)(i + 1),
				      .log = log >= 0 ? &st->hist.logs[log] : NULL,
				      .job = &st->writer, .steps_of_kind = &st->writes };
		if (log < 0) {
			w->job = &st->resizer;
			w->steps_of_kind = &st->resizes;
		} else if (reader >= 0) {
			w->id = reader;
			w->job = &st->reader;
			w->steps_of_kind = &st->reads;
		}
		test_start(&threads[i], worker_main, w);
	}
	hist_run_for(&st->hist, test_stress_seconds() * (st->share > 0 ? st->share : 1));
	rcu_atomic_store(&st->stop, 1, memory_order_relaxed);
	for (int i = 0; i < nr; i++)
		test_join(threads[i]);
	expect_history(st, what);
}

static long get(_Atomic(long) *counter)
{
	return rcu_atomic_load(counter, memory_order_relaxed);
}

/* The table holds nr entries and keeps its invariants; then it goes. */
static void expect_nodes_then_destroy(struct cds_lfht *ht, unsigned long nr)
{
	lfht_check_invariants_(ht);
	test_destroy_holding(ht, nr);
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

/* Readers of keys that stay present (replaced, or resized under) found
 * every one, and did work; so did what changed the table: more than
 * min_changes steps in *changes (named what_changes). */
static void expect_found_throughout(struct stress *st, const char *what, _Atomic(long) *changes,
				    const char *what_changes, long min_changes)
{
	fprintf(stderr, "[%s] %s: %ld %s, %ld lookups, %ld misses\n", TEST_FLAVOUR_NAME, what,
		get(changes), what_changes, get(&st->reads), get(&st->misses));
	expect_clean(st);
	ck_assert_int_eq(get(&st->misses), 0);
	ck_assert_int_gt(get(changes), min_changes);
	ck_assert_int_gt(get(&st->reads), 100);
}

/* ---- readers and writers with owner-tracked keys ----------------------- */

#define RW_KEYS 512
#define RW_WRITERS 2

static _Atomic(unsigned char) rw_present[RW_KEYS];

static void rw_read(struct worker *w)
{
	uint64_t key = test_rand(&w->seed) % RW_KEYS;
	struct cds_lfht_iter iter;
	struct test_node *tn;

	rcu_read_lock();
	tn = hist_lookup(w->log, key, &iter);
	if (tn != NULL && tn->key != key)
		w->errors++;
	if (w->steps % 1024 == 0)
		hist_iteration(w->log);
	rcu_read_unlock();
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
			if (hist_del(log, tn) != 0)
				errors++;
			old = tn;
			break;
		case 1:
			/* By key: the writer's own key has tn alone. */
			if (hist_del_key(log, key) != tn)
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

static void rw_write(struct worker *w)
{
	uint64_t r = test_rand(&w->seed);
	/* Keys with key % RW_WRITERS == id belong to this writer. */
	uint64_t key = (r >> 8) % (RW_KEYS / RW_WRITERS) * RW_WRITERS + (uint64_t)w->id;

	w->errors += rw_step(w->log, key, r);
}

/* Once per density (LFHT_BUCKETS_PER_NODE(1 << _i)): the default for the
 * whole stress time, each other density for a third of it. */
START_TEST(readers_and_writers_lose_and_duplicate_no_key)
{
	struct stress st = {
		.ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING |
				   test_density_flag(_i), NULL),
		.writer = { rw_write, 32 }, .nr_writers = RW_WRITERS, .reader = { rw_read, 64 },
		.seed = 0x1234567ULL,
		.share = _i == 0 ? 1.0 : 1.0 / 3,
	};
	unsigned long expected = 0, count, wrong = 0;
	long before, after, ops;

	ck_assert_ptr_nonnull(st.ht);
	for (int k = 0; k < RW_KEYS; k++)
		rcu_atomic_store(&rw_present[k], 0, memory_order_relaxed);
	run_workers(&st, 1 << 16, "readers/writers history");

	rcu_read_lock();
	for (uint64_t k = 0; k < RW_KEYS; k++) {
		unsigned long want = rcu_atomic_load(&rw_present[k], memory_order_relaxed);

		expected += want;
		wrong += test_count_key(st.ht, k) != want;
	}
	rcu_read_unlock();
	count = test_count_nodes(st.ht, &before, &after);
	ops = get(&st.reads) + get(&st.writes);
	fprintf(stderr, "[%s] readers/writers (density %lu): %ld ops, %lu keys present, "
		"%lu buckets\n", TEST_FLAVOUR_NAME, test_density(_i), ops, expected,
		lfht_nr_buckets(st.ht));
	expect_clean(&st);
	ck_assert_int_gt(ops, 1000);
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

/* Each racer adds a node of its own with the round's key. */
static void au_play(struct test_rounds *r, int id, long round)
{
	struct au_race *race = caa_container_of(r, struct au_race, rounds);
	uint64_t key = (uint64_t)round;
	struct test_node *tn = test_node_new(key, (uint64_t)id);

	race->mine[id] = tn;
	rcu_read_lock();
	race->got[id] = cds_lfht_add_unique(race->ht, test_hash(key), test_match, &key,
					    &tn->node);
	rcu_read_unlock();
}

START_TEST(add_unique_race_leaves_one_node_and_losers_get_it)
{
	struct au_race race = {
		.ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL),
	};
	double end = test_now() + test_stress_seconds() / 2;
	long round, bad_rounds = 0;

	ck_assert_ptr_nonnull(race.ht);
	test_rounds_start(&race.rounds, AU_THREADS, au_play);
	for (round = 1; round <= 100000 && (round <= 20 || test_now() < end); round++) {
		int winners = 0, winner = -1, agree = 0;
		unsigned long in_table;

		ck_assert(test_rounds_run(&race.rounds, round));
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
	round--;
	fprintf(stderr, "[%s] add_unique race: %ld rounds\n", TEST_FLAVOUR_NAME, round);
	ck_assert_int_eq(bad_rounds, 0);
	ck_assert_int_ge(round, 20);
	expect_nodes_then_destroy(race.ht, (unsigned long)round);
}
END_TEST

/* ---- replace never missed ---------------------------------------------- */

#define RP_KEYS 16
#define RP_WRITERS 2

/* A lookup of one of keys [0, nr), of which those below present must be
 * found. */
static void lookup_step(struct worker *w, uint64_t nr, uint64_t present)
{
	uint64_t key = test_rand(&w->seed) % nr;
	struct cds_lfht_iter iter;
	struct test_node *tn;

	rcu_read_lock();
	tn = hist_lookup(w->log, key, &iter);
	if (tn == NULL && key < present)
		w->misses++;
	else if (tn != NULL && tn->key != key)
		w->errors++;
	rcu_read_unlock();
}

static void rp_read(struct worker *w)
{
	lookup_step(w, RP_KEYS, RP_KEYS);
}

/* Both writers replace the same keys: a replace that loses to the other
 * writer gets -ENOENT; add_replace always replaces something. */
static void rp_write(struct worker *w)
{
	uint64_t r = test_rand(&w->seed);
	uint64_t key = r % RP_KEYS;
	struct test_node *nw = test_node_new(key, r), *old;
	struct cds_lfht_iter iter;
	bool published = true;

	rcu_read_lock();
	if (r & 0x100) {
		old = hist_add_replace(w->log, nw);
		if (old == NULL)
			w->errors++;	/* the key was always present */
	} else {
		int ret;

		old = hist_lookup(w->log, key, &iter);
		if (old == NULL) {
			w->errors++;
			ret = -ENOENT;
		} else {
			ret = hist_replace(w->log, &iter, nw);
		}
		if (ret != 0) {
			if (ret != -ENOENT)
				w->errors++;
			published = false;
			old = NULL;
		}
	}
	rcu_read_unlock();
	if (old != NULL)
		test_node_free_rcu(old);
	if (!published)
		test_node_free_now(nw);
}

START_TEST(replace_is_never_missed_by_lookup)
{
	struct stress st = {
		.ht = cds_lfht_new(4, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL),
		.writer = { rp_write, 32 }, .nr_writers = RP_WRITERS, .reader = { rp_read, 64 },
		.seed = 0x9876543ULL,
	};
	unsigned long wrong = 0;

	ck_assert_ptr_nonnull(st.ht);
	test_fill(st.ht, 0, RP_KEYS);
	run_workers(&st, 4096, "replace history");
	rcu_read_lock();
	for (uint64_t k = 0; k < RP_KEYS; k++)
		wrong += test_count_key(st.ht, k) != 1;
	rcu_read_unlock();
	expect_found_throughout(&st, "replace", &st.writes, "replaces", 100);
	ck_assert_uint_eq(wrong, 0);
	expect_nodes_then_destroy(st.ht, RP_KEYS);
}
END_TEST

/* ---- resize storm ------------------------------------------------------ */

#define STORM_KEYS 2048		/* always present */
#define STORM_TRANSIENT 256	/* added and deleted by one writer */

static void storm_resize(struct worker *w)
{
	static const unsigned long sizes[] = { 1, 4096, 2, 64, 1 << 14, 8, 512, 1 };
	unsigned long size = sizes[w->steps % (sizeof(sizes) / sizeof(sizes[0]))];

	cds_lfht_resize(w->st->ht, size);
	/* Counted at once: never in a passing run. */
	if (lfht_nr_buckets(w->st->ht) != size)
		count_err(&w->st->size_errors, 1);
}

static void storm_read(struct worker *w)
{
	lookup_step(w, STORM_KEYS + STORM_TRANSIENT, STORM_KEYS);
}

static struct test_node *_Atomic storm_transient[STORM_TRANSIENT];

static void storm_write(struct worker *w)
{
	uint64_t i = test_rand(&w->seed) % STORM_TRANSIENT;
	uint64_t key = STORM_KEYS + i;
	struct test_node *tn = rcu_atomic_load(&storm_transient[i], memory_order_relaxed);

	if (tn == NULL) {
		tn = test_node_new(key, 0);
		rcu_read_lock();
		if (hist_add_unique(w->log, tn) != tn)
			w->errors++;
		rcu_read_unlock();
		rcu_atomic_store(&storm_transient[i], tn, memory_order_relaxed);
	} else {
		rcu_read_lock();
		if (hist_del(w->log, tn) != 0)
			w->errors++;
		rcu_read_unlock();
		test_node_free_rcu(tn);
		rcu_atomic_store(&storm_transient[i], NULL, memory_order_relaxed);
	}
}

START_TEST(lookups_find_present_keys_during_resize_storm)
{
	struct stress st = {
		.ht = cds_lfht_new(1, 1, 0, 0, NULL),
		.resizer = { storm_resize, 1 },
		.writer = { storm_write, 32 }, .nr_writers = 1, .reader = { storm_read, 64 },
		.seed = 0x5555ULL,
	};
	unsigned long transient = 0, wrong = 0;

	ck_assert_ptr_nonnull(st.ht);
	for (int i = 0; i < STORM_TRANSIENT; i++)
		rcu_atomic_store(&storm_transient[i], NULL, memory_order_relaxed);
	test_fill(st.ht, 0, STORM_KEYS);
	run_workers(&st, 1 << 16, "resize storm history");
	rcu_read_lock();
	for (uint64_t k = 0; k < STORM_KEYS + STORM_TRANSIENT; k++) {
		unsigned long want = k < STORM_KEYS ? 1 :
			rcu_atomic_load(&storm_transient[k - STORM_KEYS],
					memory_order_relaxed) != NULL;

		transient += k >= STORM_KEYS && want;
		wrong += test_count_key(st.ht, k) != want;
	}
	rcu_read_unlock();
	expect_found_throughout(&st, "resize storm", &st.resizes, "resizes", 2);
	ck_assert_uint_eq(wrong, 0);
	expect_nodes_then_destroy(st.ht, STORM_KEYS + transient);
}
END_TEST

/* ---- iteration during resize ------------------------------------------ */

#define IT_KEYS 1024

/* Walks the table again and again; the history checker holds each walk
 * to the iteration rule (every key is present throughout: each is
 * returned exactly once), and the count is checked here too. */
static void it_walk(struct worker *w)
{
	rcu_read_lock();
	w->errors += hist_iteration(w->log) != IT_KEYS;
	rcu_read_unlock();
}

START_TEST(iteration_during_resize_sees_each_key_exactly_once)
{
	struct stress st = {
		.ht = cds_lfht_new(1, 1, 0, 0, NULL),
		/* A walk is long: quiescent after each. */
		.resizer = { storm_resize, 1 }, .reader = { it_walk, 1 },
	};

	ck_assert_ptr_nonnull(st.ht);
	test_fill(st.ht, 0, IT_KEYS);
	run_workers(&st, 1 << 16, "iteration history");
	fprintf(stderr, "[%s] iteration during resize: %ld traversals, %ld resizes, "
		"%ld bad traversals\n", TEST_FLAVOUR_NAME,
		get(&st.reads),
		get(&st.resizes),
		get(&st.errors));
	expect_clean(&st);
	ck_assert_int_gt(get(&st.reads), 2);
	ck_assert_int_gt(get(&st.resizes), 2);
	expect_nodes_then_destroy(st.ht, IT_KEYS);
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
