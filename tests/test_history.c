/* SPDX-License-Identifier: MIT */
/*
 * tests/test_history.c - every operation of a concurrent run judged by the
 * history checker (tests/history/): a contention run on 1 to 10 keys with
 * 4 threads mixing every update kind, lookups (single and batched) and
 * walks, and a grow/shrink
 * churn run; plus the checker's own tests on histories written by hand.
 *
 * Run time: LFHT_HISTORY_SECONDS or --seconds S per run (default: 4x the
 * stress duration, so 8 s natively, less under sanitizers and qemu).
 *
 * With --mutant NAME the program instead breaks one rule of the table
 * (lfht/mutant.h) and runs the contention workload until the checker
 * reports it (exit 0, the offending key's operations printed) or the time
 * is up (exit 1): the mutant-* tests. A round that breaks a rule ends the
 * program at once (tests/history/harness.h): exit 1 in a plain run.
 */
#define _GNU_SOURCE
#include "../lfht/mutant.h"
#include "history/harness.h"
#include "history/record.h"

#include <inttypes.h>
#include <string.h>

static struct hist_args args;

static double run_seconds(void)
{
	const char *s = getenv("LFHT_HISTORY_SECONDS");

	if (args.seconds > 0)
		return args.seconds;
	if (s != NULL && strtod(s, NULL) > 0)
		return strtod(s, NULL);
	return 4 * test_stress_seconds();
}

/* LFHT_HISTORY_DENSITY=n: the tables keep n buckets per node (1, 2, 4, 8). */
static int density_flag(void)
{
	const char *s = getenv("LFHT_HISTORY_DENSITY");

	return s != NULL ? LFHT_BUCKETS_PER_NODE(atoi(s)) : 0;
}

/* ---- contention: a few keys, every kind of call --------------------------- */

#define CT_THREADS 4

struct ct_worker {
	struct hist_log *log;
	uint64_t nr_keys;
	uint64_t seed;
	long ops;
};

/* One step on a random key: a lookup, a walk or an update, the update
 * kinds in about equal shares. */
static void ct_step(struct ct_worker *w)
{
	struct hist_log *log = w->log;
	uint64_t r = test_rand(&w->seed);
	uint64_t key = (r >> 32) % w->nr_keys;
	struct cds_lfht_iter iter;
	struct test_node *found;

	rcu_read_lock();
	switch (r % 16) {
	case 0: case 1:
		(void)hist_lookup(log, key, &iter);
		break;
	case 2: {
		/* A batch of 4: this key, and three others of the few. */
		uint64_t keys[4] = { key, (key + 1) % w->nr_keys, r % w->nr_keys,
				     (r >> 8) % w->nr_keys };

		(void)hist_lookup_batch(log, 4, keys);
		break;
	}
	case 3:
		(void)hist_duplicates(log, key);
		break;
	case 4:
		(void)hist_iteration(log);
		break;
	case 5: case 6:
		(void)hist_add_unique(log, hist_node_new(log, key));
		break;
	case 7:
		/* Duplicates only through races: at most a few per key. */
		if (hist_lookup(log, key, &iter) == NULL)
			hist_add(log, hist_node_new(log, key));
		break;
	case 8: case 9:
		(void)hist_add_replace(log, hist_node_new(log, key));
		break;
	case 10: case 11: case 12:
		if (hist_lookup(log, key, &iter) != NULL)
			(void)hist_replace(log, &iter, hist_node_new(log, key));
		break;
	case 13: case 14:
		found = hist_lookup(log, key, &iter);
		if (found != NULL)
			(void)hist_del(log, found);
		break;
	default:
		(void)hist_del_key(log, key);
		break;
	}
	rcu_read_unlock();
	w->ops++;
}

static void *ct_main(void *arg)
{
	struct ct_worker *w = arg;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		ct_step(w);
		if (w->ops % 16 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	return NULL;
}

/* Runs the contention workload on nr_keys keys for seconds (a round that
 * breaks a rule ends the program). *run is left for the caller to print
 * and destroy (the table is emptied and destroyed here); what names it. */
static void contention_run(struct hist_run *run, uint64_t nr_keys, double seconds,
			   char (*what)[64], long *ops)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING |
					   density_flag(), NULL);
	struct ct_worker workers[CT_THREADS];
	pthread_t threads[CT_THREADS];

	ck_assert_ptr_nonnull(ht);
	/* Keys share hashes in groups of 4: equal reverse hashes, told
	 * apart by the match function. 1024 operations a thread a round, so
	 * a key never has more than HIST_MAX_SEGMENT_OPS. */
	hist_run_init(run, ht, test_collide_hash, CT_THREADS, 1024, 1024 * 64);
	run->owns_nodes = true;
	snprintf(*what, sizeof(*what), "contention, %" PRIu64 " keys, %d threads", nr_keys,
		 CT_THREADS);
	run->what = *what;
	for (int i = 0; i < CT_THREADS; i++) {
		workers[i] = (struct ct_worker){ .log = &run->logs[i], .nr_keys = nr_keys,
						 .seed = 0x2545f491ULL * (uint64_t)(i + 1) + nr_keys };
		test_start(&threads[i], ct_main, &workers[i]);
	}
	hist_run_for(run, seconds);
	for (int i = 0; i < CT_THREADS; i++) {
		test_join(threads[i]);
		*ops += workers[i].ops;
	}
	test_empty_and_destroy(ht);
}

static void expect_checked(const struct hist_run *run, long ops)
{
	ck_assert_msg(run->clean, "the history checker reported a violation (above)");
	ck_assert_uint_eq(run->verdict.violations, 0);
	ck_assert_msg(run->verdict.unchecked_keys == 0 && run->verdict.unchecked_walks == 0,
		      "%lu keys and %lu walks left unchecked", run->verdict.unchecked_keys,
		      run->verdict.unchecked_walks);
	ck_assert_int_gt(ops, 1000);
	ck_assert_uint_gt(run->verdict.ops, 1000);
	ck_assert_uint_gt(run->verdict.walks, 10);
	ck_assert_uint_gt(run->rounds, 1);
}

START_TEST(contention_on_few_keys_is_linearizable)
{
	static const uint64_t key_counts[] = { 1, 3, 10 };
	double slice = run_seconds() / 3;

	for (size_t k = 0; k < sizeof(key_counts) / sizeof(key_counts[0]); k++) {
		struct hist_run run;
		char what[64];
		long ops = 0;

		contention_run(&run, key_counts[k], slice, &what, &ops);
		hist_run_print(&run, what);
		expect_checked(&run, ops);
		hist_run_destroy(&run);
	}
	ck_assert_int_eq(rcu_atomic_load(&test_nodes_live, memory_order_relaxed), 0);
}
END_TEST

/* ---- grow/shrink churn ------------------------------------------------------- */

#define CH_WRITERS 2
#define CH_WALKERS 2
#define CH_KEYS 4096	/* per writer */

struct ch_worker {
	struct hist_log *log;
	int id;
	uint64_t seed;
	long ops;
	struct test_node **mine;	/* writers: their node of each key */
	_Atomic(long) *phases_done;	/* writers: phases ended, all writers */
};

/* A writer's wait for the other writers to end phase (calling
 * hist_continue(), so that rounds go on); false once the run stopped. */
static bool ch_phase_barrier(struct ch_worker *w, long phase)
{
	/* Relaxed: the writers share nothing but the table. */
	rcu_atomic_add(w->phases_done, 1, memory_order_relaxed);
	while (rcu_atomic_load(w->phases_done, memory_order_relaxed) < (phase + 1) * CH_WRITERS) {
		if (!hist_continue(w->log))
			return false;
		test_spin_pause();
	}
	return true;
}

/* The writers fill their key ranges, then empty them, in step, again and
 * again: the auto-resize grows the table and shrinks it back. */
static void *ch_writer_main(void *arg)
{
	struct ch_worker *w = arg;
	uint64_t base = (uint64_t)w->id * CH_KEYS, i = 0;
	long phase = 0;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t key = base + i;

		rcu_read_lock();
		if (phase % 2 == 0) {
			struct test_node *tn = hist_node_new(w->log, key);

			if (hist_add_unique(w->log, tn) == tn)
				w->mine[i] = tn;
		} else if (w->mine[i] != NULL) {
			(void)hist_del(w->log, w->mine[i]);
			w->mine[i] = NULL;
		}
		rcu_read_unlock();
		if (++w->ops % 32 == 0)
			quiescent();
		if (++i == CH_KEYS) {
			i = 0;
			if (!ch_phase_barrier(w, phase++))
				break;
		}
	}
	rcu_unregister_thread();
	return NULL;
}

static void *ch_walker_main(void *arg)
{
	struct ch_worker *w = arg;

	rcu_register_thread();
	while (hist_continue(w->log)) {
		uint64_t r = test_rand(&w->seed);
		uint64_t key = (r >> 16) % (CH_WRITERS * CH_KEYS);
		struct cds_lfht_iter iter;

		rcu_read_lock();
		if (r % 64 == 0)
			(void)hist_iteration(w->log);
		else if (r % 4 == 0)
			(void)hist_duplicates(w->log, key);
		else
			(void)hist_lookup(w->log, key, &iter);
		rcu_read_unlock();
		if (++w->ops % 32 == 0)
			quiescent();
	}
	rcu_unregister_thread();
	return NULL;
}

/* Samples the bucket count until stop: the largest, and how often it fell. */
struct ch_watch {
	struct cds_lfht *ht;
	_Atomic(int) stop;
	_Atomic(unsigned long) most, falls;
};

/* The run goes on until the table grew to 1024 buckets and shrank. */
static bool ch_grown_and_shrunk(void *arg)
{
	struct ch_watch *watch = arg;

	/* Relaxed: a progress report, read by the main thread. */
	return !(rcu_atomic_load(&watch->most, memory_order_relaxed) >= 1024 &&
		 rcu_atomic_load(&watch->falls, memory_order_relaxed) > 0);
}

static void *ch_watch_main(void *arg)
{
	struct ch_watch *watch = arg;
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	unsigned long last = 0;

	rcu_register_thread();
	/* Relaxed: a stop request; the join orders the rest. */
	while (!rcu_atomic_load(&watch->stop, memory_order_relaxed)) {
		unsigned long buckets = lfht_nr_buckets(watch->ht);

		/* Relaxed, both: progress for ch_grown_and_shrunk(). */
		if (buckets > rcu_atomic_load(&watch->most, memory_order_relaxed))
			rcu_atomic_store(&watch->most, buckets, memory_order_relaxed);
		if (buckets < last)
			rcu_atomic_add(&watch->falls, 1, memory_order_relaxed);
		last = buckets;
		test_offline();
		nanosleep(&ms, NULL);
		test_online();
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(grow_shrink_churn_is_linearizable)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING |
					   density_flag(), NULL);
	struct ch_worker workers[CH_WRITERS + CH_WALKERS];
	pthread_t threads[CH_WRITERS + CH_WALKERS], watcher;
	struct test_node *mine[CH_WRITERS][CH_KEYS];
	struct ch_watch watch = { .ht = ht };
	_Atomic(long) phases_done = 0;
	struct hist_run run;
	long ops = 0;

	ck_assert_ptr_nonnull(ht);
	memset(mine, 0, sizeof(mine));
	hist_run_init(&run, ht, test_hash, CH_WRITERS + CH_WALKERS, 16384, 1 << 20);
	run.owns_nodes = true;
	run.what = "grow/shrink churn";
	run.walk_reserve = 2 * CH_WRITERS * CH_KEYS + 64;
	run.more = ch_grown_and_shrunk;
	run.more_arg = &watch;
	test_start(&watcher, ch_watch_main, &watch);
	for (int i = 0; i < CH_WRITERS + CH_WALKERS; i++) {
		workers[i] = (struct ch_worker){ .log = &run.logs[i], .id = i,
						 .seed = 0x9e3779b9ULL * (uint64_t)(i + 1),
						 .mine = i < CH_WRITERS ? mine[i] : NULL,
						 .phases_done = &phases_done };
		test_start(&threads[i], i < CH_WRITERS ? ch_writer_main : ch_walker_main,
			   &workers[i]);
	}
	hist_run_for(&run, run_seconds());
	for (int i = 0; i < CH_WRITERS + CH_WALKERS; i++) {
		test_join(threads[i]);
		ops += workers[i].ops;
	}
	rcu_atomic_store(&watch.stop, 1, memory_order_relaxed);
	test_join(watcher);
	hist_run_print(&run, "grow/shrink churn");
	fprintf(stderr, "[%s] grow/shrink churn: %ld calls, buckets up to %lu, fell %lu times\n",
		TEST_FLAVOUR_NAME, ops, rcu_atomic_load(&watch.most, memory_order_relaxed),
		rcu_atomic_load(&watch.falls, memory_order_relaxed));
	expect_checked(&run, ops);
	ck_assert_uint_ge(rcu_atomic_load(&watch.most, memory_order_relaxed), 1024);
	ck_assert_uint_gt(rcu_atomic_load(&watch.falls, memory_order_relaxed), 0);
	hist_run_destroy(&run);
	test_empty_and_destroy(ht);
}
END_TEST

/* ---- the checker on histories written by hand ---------------------------------- */

#define N(i) ((1ULL << 40) | (uint64_t)(i))	/* node ids */

static struct hist_op op_at(enum hist_kind kind, uint64_t invoke, uint64_t respond,
			    uint64_t node, uint64_t result)
{
	return (struct hist_op){ .kind = (uint16_t)kind, .invoke = invoke, .respond = respond,
				 .key = 7, .node = node, .result = result, .thread = 1 };
}

/* Lines of report that start a violation. */
static unsigned long count_reports(FILE *report)
{
	char line[512];
	unsigned long n = 0;

	rewind(report);
	while (fgets(line, sizeof(line), report))
		n += strncmp(line, "history: ", 9) == 0;
	return n;
}

/* Checks ops on key 7 from before to after (node ids, 0-terminated);
 * returns the verdict. */
static struct hist_verdict judge(const struct hist_op *ops, size_t nr, const uint64_t *before,
				 const uint64_t *after, const uint64_t *walk_ids)
{
	struct hist_node b[8], a[8];
	size_t nb = 0, na = 0;
	struct hist_verdict v = { 0 };
	struct hist_round round;
	FILE *report = tmpfile();

	for (; before && before[nb]; nb++)
		b[nb] = (struct hist_node){ .key = 7, .id = before[nb] };
	for (; after && after[na]; na++)
		a[na] = (struct hist_node){ .key = 7, .id = after[na] };
	round = (struct hist_round){ .ops = ops, .nr_ops = nr, .walk_ids = walk_ids,
				     .before = b, .nr_before = nb, .after = a, .nr_after = na };
	/* The report goes to a file: it must say "history:" once per
	 * violation. */
	ck_assert_ptr_nonnull(report);
	ck_assert_int_eq(hist_check_round(&round, &v, report), v.violations == 0);
	ck_assert_uint_eq(count_reports(report), v.violations);
	fclose(report);
	return v;
}

START_TEST(checker_judges_add_unique_races)
{
	/* Overlapping: the second returns the first's node. */
	struct hist_op ok[] = {
		op_at(HIST_ADD_UNIQUE, 10, 30, N(1), N(1)),
		op_at(HIST_ADD_UNIQUE, 20, 40, N(2), N(1)),
	};
	/* Both won. */
	struct hist_op bad[] = {
		op_at(HIST_ADD_UNIQUE, 10, 30, N(1), N(1)),
		op_at(HIST_ADD_UNIQUE, 20, 40, N(2), N(2)),
	};
	uint64_t one[] = { N(1), 0 }, two[] = { N(1), N(2), 0 };

	ck_assert_uint_eq(judge(ok, 2, NULL, one, NULL).violations, 0);
	ck_assert_uint_eq(judge(bad, 2, NULL, two, NULL).violations, 1);
}
END_TEST

START_TEST(checker_judges_lookups_against_real_time)
{
	uint64_t one[] = { N(1), 0 }, two[] = { N(2), 0 };
	/* A lookup that starts after the del returned still finds the node. */
	struct hist_op stale[] = {
		op_at(HIST_DEL, 10, 20, N(1), HIST_OK),
		op_at(HIST_LOOKUP, 30, 40, 0, N(1)),
	};
	/* The same lookup overlapping the del may find it. */
	struct hist_op racing[] = {
		op_at(HIST_DEL, 10, 20, N(1), HIST_OK),
		op_at(HIST_LOOKUP, 15, 40, 0, N(1)),
	};
	/* Equal stamps overlap. */
	struct hist_op tie[] = {
		op_at(HIST_DEL, 10, 20, N(1), HIST_OK),
		op_at(HIST_LOOKUP, 20, 40, 0, N(1)),
	};
	/* During a replace the key is never missing. */
	struct hist_op replace_miss[] = {
		{ .kind = HIST_REPLACE, .invoke = 10, .respond = 20, .key = 7, .node = N(2),
		  .old = N(1), .result = HIST_OK, .thread = 1 },
		op_at(HIST_LOOKUP, 12, 18, 0, 0),
	};

	ck_assert_uint_eq(judge(stale, 2, one, NULL, NULL).violations, 1);
	ck_assert_uint_eq(judge(racing, 2, one, NULL, NULL).violations, 0);
	ck_assert_uint_eq(judge(tie, 2, one, NULL, NULL).violations, 0);
	ck_assert_uint_eq(judge(replace_miss, 2, one, two, NULL).violations, 1);
	replace_miss[1].result = N(1);
	ck_assert_uint_eq(judge(replace_miss, 2, one, two, NULL).violations, 0);
}
END_TEST

START_TEST(checker_judges_deletes_and_the_end_state)
{
	uint64_t one[] = { N(1), 0 };
	struct hist_op twice[] = {
		op_at(HIST_DEL, 10, 30, N(1), HIST_OK),
		op_at(HIST_DEL, 20, 40, N(1), HIST_OK),
	};
	struct hist_op lost[] = { op_at(HIST_ADD, 10, 20, N(1), 0) };
	/* lfht_del_key(): a node is removed once, and a miss needs the key
	 * empty. */
	struct hist_op by_key[] = {
		op_at(HIST_DEL_KEY, 10, 30, 0, N(1)),
		op_at(HIST_DEL_KEY, 20, 40, 0, N(1)),
	};
	struct hist_op key_miss[] = { op_at(HIST_DEL_KEY, 10, 20, 0, 0) };

	ck_assert_uint_eq(judge(twice, 2, one, NULL, NULL).violations, 1);
	twice[1].result = HIST_ENOENT;
	ck_assert_uint_eq(judge(twice, 2, one, NULL, NULL).violations, 0);
	ck_assert_uint_eq(judge(by_key, 2, one, NULL, NULL).violations, 1);
	by_key[1].result = 0;
	ck_assert_uint_eq(judge(by_key, 2, one, NULL, NULL).violations, 0);
	ck_assert_uint_eq(judge(key_miss, 1, one, one, NULL).violations, 1);
	ck_assert_uint_eq(judge(key_miss, 1, NULL, NULL, NULL).violations, 0);
	/* The table lost a node its history added. */
	ck_assert_uint_eq(judge(lost, 1, NULL, NULL, NULL).violations, 1);
	ck_assert_uint_eq(judge(lost, 1, NULL, one, NULL).violations, 0);
}
END_TEST

START_TEST(checker_judges_walks)
{
	uint64_t both[] = { N(1), N(2), 0 };
	uint64_t ids[] = { N(1), N(2), N(1), N(3) };
	struct hist_op walk = { .kind = HIST_ITERATION, .invoke = 100, .respond = 200,
				.thread = 2 };
	struct hist_op ops[2];

	walk.walk_start = 0;
	walk.walk_len = 2;
	ops[0] = walk;
	ck_assert_uint_eq(judge(ops, 1, both, both, ids).violations, 0);
	/* Missed N(2), present throughout. */
	ops[0].walk_len = 1;
	ck_assert_uint_eq(judge(ops, 1, both, both, ids).violations, 1);
	/* N(1) twice. */
	ops[0].walk_len = 3;
	ck_assert_uint_eq(judge(ops, 1, both, both, ids).violations, 1);
	/* N(3) never added. */
	ops[0].walk_start = 1;
	ops[0].walk_len = 3;
	ck_assert_uint_eq(judge(ops, 1, both, both, ids).violations, 1);
	/* N(2) deleted before the walk began: returning it is wrong ... */
	ops[0] = walk;
	ops[1] = op_at(HIST_DEL, 10, 20, N(2), HIST_OK);
	ck_assert_uint_eq(judge(ops, 2, both, (uint64_t[]){ N(1), 0 }, ids).violations, 1);
	/* ... deleted during the walk, both are right. */
	ops[1] = op_at(HIST_DEL, 150, 160, N(2), HIST_OK);
	ck_assert_uint_eq(judge(ops, 2, both, (uint64_t[]){ N(1), 0 }, ids).violations, 0);
	/* The same through lfht_del_key(). */
	ops[1] = op_at(HIST_DEL_KEY, 10, 20, 0, N(2));
	ck_assert_uint_eq(judge(ops, 2, both, (uint64_t[]){ N(1), 0 }, ids).violations, 1);
	ops[1] = op_at(HIST_DEL_KEY, 150, 160, 0, N(2));
	ck_assert_uint_eq(judge(ops, 2, both, (uint64_t[]){ N(1), 0 }, ids).violations, 0);
	ops[0].walk_len = 1;
	ck_assert_uint_eq(judge(ops, 2, both, (uint64_t[]){ N(1), 0 }, ids).violations, 0);
}
END_TEST

START_TEST(checker_leaves_a_key_over_its_bounds_unchecked)
{
	size_t n = HIST_MAX_SEGMENT_OPS + 1;
	struct hist_op *ops = calloc(n, sizeof(*ops));
	struct hist_verdict v;

	ck_assert_ptr_nonnull(ops);
	/* One segment (every call overlaps the first), one op too many. */
	for (size_t k = 0; k < n; k++)
		ops[k] = op_at(HIST_LOOKUP, 10 + k, 10 + n + 10, 0, 0);
	v = judge(ops, n, NULL, NULL, NULL);
	ck_assert_uint_eq(v.violations, 0);
	ck_assert_uint_eq(v.unchecked_keys, 1);
	ck_assert_uint_eq(v.unchecked_ops, n);
	ck_assert_uint_eq(v.ops, 0);
	free(ops);
}
END_TEST

/*
 * Histories linearizable by construction: a sequential run of the model on
 * 3 keys, each call stretched into a random interval around its instant.
 * The checker must accept every one and reject it once a result is
 * changed.
 */
START_TEST(checker_accepts_every_stretched_sequential_history)
{
	enum { NR = 3000, KEYS = 3 };
	struct hist_op *ops = calloc(NR, sizeof(*ops));
	uint64_t seed = 12345, next_id = 2;
	uint64_t present[KEYS][HIST_MAX_STATE];
	size_t count[KEYS] = { 0 };
	struct hist_node after[KEYS * HIST_MAX_STATE];
	struct hist_round round;
	struct hist_verdict v = { 0 };
	size_t na = 0;

	ck_assert_ptr_nonnull(ops);
	for (size_t i = 0; i < NR; i++) {
		uint64_t r = test_rand(&seed), key = r % KEYS, at = 100 * (i + 10);
		uint64_t *set = present[key];
		size_t *n = &count[key];
		struct hist_op *op = &ops[i];

		*op = (struct hist_op){ .key = key, .invoke = at - (r >> 8) % 250,
					.respond = at + (r >> 20) % 250, .thread = 1 };
		switch ((r >> 40) % 5) {
		case 0:
			op->kind = HIST_LOOKUP;
			op->result = *n ? set[0] : 0;
			break;
		case 1:
			op->kind = HIST_ADD_UNIQUE;
			op->node = N(next_id++);
			op->result = *n ? set[0] : op->node;
			if (*n == 0)
				set[(*n)++] = op->node;
			break;
		case 2:
			op->kind = HIST_ADD_REPLACE;
			op->node = N(next_id++);
			op->result = *n ? set[0] : 0;
			if (*n == 0)
				*n = 1;
			set[0] = op->node;
			break;
		case 3:
			op->kind = HIST_DEL;
			op->node = *n ? set[0] : N(1);
			op->result = *n ? HIST_OK : HIST_ENOENT;
			*n = 0;
			break;
		default:
			op->kind = HIST_REPLACE;
			op->node = N(next_id++);
			op->old = *n ? set[0] : N(1);
			op->result = *n ? HIST_OK : HIST_ENOENT;
			if (*n)
				set[0] = op->node;
			break;
		}
	}
	for (uint64_t k = 0; k < KEYS; k++)
		for (size_t j = 0; j < count[k]; j++)
			after[na++] = (struct hist_node){ .key = k, .id = present[k][j] };
	round = (struct hist_round){ .ops = ops, .nr_ops = NR, .after = after, .nr_after = na };
	ck_assert(hist_check_round(&round, &v, NULL));
	ck_assert_uint_eq(v.ops, NR);
	ck_assert_uint_eq(v.unchecked_keys, 0);
	ck_assert_uint_eq(v.violations, 0);
	ck_assert_uint_gt(v.segments, 3);
	/* A lookup that found its node reports NULL instead. */
	for (size_t i = NR / 2; i < NR; i++) {
		if (ops[i].kind == HIST_LOOKUP && ops[i].result != 0) {
			ops[i].result = 0;
			break;
		}
	}
	memset(&v, 0, sizeof(v));
	ck_assert(!hist_check_round(&round, &v, NULL));
	ck_assert_uint_eq(v.violations, 1);
	free(ops);
}
END_TEST

/* ---- the mutants ------------------------------------------------------------------- */

static const char *const mutant_names[LFHT_NR_MUTANTS] = {
	[LFHT_MUTANT_UNIQUE_NO_RECHECK] = "unique-no-recheck",
	[LFHT_MUTANT_DEL_TWICE] = "del-twice",
	[LFHT_MUTANT_REPLACE_AS_DEL_ADD] = "replace-as-del-add",
	[LFHT_MUTANT_LOOKUP_SKIP] = "lookup-skip",
	[LFHT_MUTANT_ITER_RESTART] = "iter-restart",
};

/* Runs the contention workload on 1, 2, 4 keys in turn until the checker
 * reports the mutant (which ends the program, exit 0), at most the run
 * time. */
START_TEST(mutant_is_reported_by_the_checker)
{
	static const uint64_t key_counts[] = { 1, 2, 4 };
	double end = test_now() + run_seconds();
	unsigned long rounds = 0;
	long ops = 0;

	lfht_test_mutant_ = args.mutant;
	for (size_t k = 0; test_now() < end; k = (k + 1) % 3) {
		struct hist_run run;
		char what[64];

		contention_run(&run, key_counts[k], 1.0, &what, &ops);
		rounds += run.rounds;
		hist_run_destroy(&run);
	}
	lfht_test_mutant_ = LFHT_MUTANT_NONE;
	ck_abort_msg("mutant %s [%s]: NOT reported in %.0f s (%lu rounds, %ld calls)",
		     mutant_names[args.mutant], TEST_FLAVOUR_NAME, run_seconds(), rounds, ops);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create(TEST_FLAVOUR_NAME);

	args = (struct hist_args){ .mutants = mutant_names, .nr_mutants = LFHT_NR_MUTANTS };
	hist_args_parse(&args, argc, argv);
	if (args.mutant != LFHT_MUTANT_NONE) {
		TEST_ADD(s, mutant_is_reported_by_the_checker, 3 * run_seconds() + 60);
		return test_main(s);
	}

	TEST_ADD(s, checker_judges_add_unique_races, 30);
	TEST_ADD(s, checker_judges_lookups_against_real_time, 30);
	TEST_ADD(s, checker_judges_deletes_and_the_end_state, 30);
	TEST_ADD(s, checker_judges_walks, 30);
	TEST_ADD(s, checker_leaves_a_key_over_its_bounds_unchecked, 60);
	TEST_ADD(s, checker_accepts_every_stretched_sequential_history, 60);
	TEST_ADD(s, contention_on_few_keys_is_linearizable, 600);
	TEST_ADD(s, grow_shrink_churn_is_linearizable, 600);
	return test_main(s);
}
