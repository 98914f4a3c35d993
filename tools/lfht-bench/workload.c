/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench worker: one workload run, one result line. Built once per
 * implementation from this single source; BENCH_IMPL_HEADER names the
 * header that picks the implementation (lfht or liburcu on QSBR or memb,
 * Concurrency Kit's ck_hs, the rwlock baseline, or a peer: DPDK's
 * rte_hash, oneTBB's two maps, libcds's SplitListMap) and supplies the
 * bt_* table interface (the C++ peers' through impl_extern.h). A header
 * that cannot run a workload defines BENCH_NO_<WORKLOAD> to the reason;
 * the worker then prints "UNSUPPORTED ... reason=..." and exits with
 * status 3. The driver
 * (lfht-bench.py) runs these executables interleaved and compares them.
 *
 *   lfht-bench-<impl> --workload W [--keys N] [--threads T] [--seconds S]
 *                     [--cleanup]
 *   lfht-bench-<impl> --info
 *
 * Output: "RESULT impl=... workload=... keys=... threads=... name=value ..."
 */
#define _GNU_SOURCE

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include BENCH_IMPL_HEADER

#ifndef BENCH_BUILDTYPE
#define BENCH_BUILDTYPE "unknown"
#endif
#ifndef BENCH_DEBUG_CHECKS
#define BENCH_DEBUG_CHECKS "unknown"
#endif
/* 1 when bt_lookup_batch() is the library's own batched lookup. */
#ifndef BENCH_NATIVE_BATCH
#define BENCH_NATIVE_BATCH 0
#endif

/* Operations between two checks of the stop flag and two quiescent states
 * (QSBR readers must announce them; memb ignores the call). */
#define BATCH 256

/* Bound on a fill run (see run_fill). */
#define FILL_LIMIT_SECONDS 20.0

/* Keys per bt_lookup_batch() call in the batch workload. */
#define LOOKUP_BATCH 16

enum kind { K_READ, K_MIXED, K_ADDEL, K_FILL, K_RESIZER, K_WRITER, K_HOT_READ,
	    K_HOT_WRITER, K_BATCH, K_RCUFREE, K_LONG_READ, K_GROW_WRITER, K_HOT1_WRITER };

/* longread: whole-table walks per read-side section (and quiescent state),
 * and the range the writers' random keys come from. */
#define LONG_WALKS 1024
#define LONG_KEY_RANGE 100000000UL

struct shared {
	struct bench_table *bt;
	unsigned long keys;		/* a power of two */
	unsigned threads;		/* fill: how many share the keys */
	double deadline;		/* fill: give up then (a stalled table) */
	atomic_int stop;
	pthread_barrier_t start;
};

/* One cache line pair per worker: the counters are written in the loops,
 * and neighbours sharing a line would slow every implementation down. */
struct worker {
	_Alignas(128) pthread_t tid;
	struct shared *sh;
	enum kind kind;
	unsigned id;
	uint64_t rng;
	unsigned long lookups, hits, updates, resizes;
};

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64*: cheap, and the same sequence for every implementation. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static int stopped(struct shared *sh)
{
	/* Relaxed: a plain flag; the counters are read after pthread_join,
	 * which orders everything the worker did. */
	return atomic_load_explicit(&sh->stop, memory_order_relaxed);
}

static void loop_read(struct worker *w)
{
	struct shared *sh = w->sh;
	uint64_t mask = 2 * sh->keys - 1;	/* half the keys looked up are absent */

	uint64_t rng = w->rng;
	unsigned long hits = 0, lookups = 0;

	/* Locals, so that the loop writes no shared memory of its own. */
	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++)
			hits += (unsigned long)bt_lookup(sh->bt, rng_next(&rng) & mask);
		lookups += BATCH;
		bench_quiescent();
	}
	w->hits += hits;
	w->lookups += lookups;
}

/* An update: delete a random present key and add it back (a new entry). */
static void update_one(struct shared *sh, uint64_t r)
{
	uint64_t key = r & (sh->keys - 1);

	bt_del(sh->bt, key);
	bt_add_unique(sh->bt, key);
}

static void loop_mixed(struct worker *w)
{
	struct shared *sh = w->sh;
	uint64_t mask = 2 * sh->keys - 1;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t r = rng_next(&w->rng);

			if ((r >> 40) % 100 < 10) {
				update_one(sh, r);
				w->updates++;
			} else {
				w->hits += (unsigned long)bt_lookup(sh->bt, r & mask);
				w->lookups++;
			}
		}
		bench_quiescent();
	}
}

static void loop_writer(struct worker *w)
{
	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++)
			update_one(w->sh, rng_next(&w->rng));
		w->updates += BATCH;
		bench_quiescent();
	}
}

static void loop_addel(struct worker *w)
{
	struct shared *sh = w->sh;
	uint64_t mask = 2 * sh->keys - 1;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t r = rng_next(&w->rng);

			if (r >> 63)
				bt_add_unique(sh->bt, r & mask);
			else
				bt_del(sh->bt, r & mask);
		}
		w->updates += BATCH;
		bench_quiescent();
	}
}

static void loop_fill(struct worker *w)
{
	struct shared *sh = w->sh;
	unsigned long n = 0;

	for (uint64_t k = w->id; k < sh->keys; k += sh->threads) {
		bt_add_unique(w->sh->bt, k);
		if (++n % BATCH == 0) {
			bench_quiescent();
			if (bench_now() > sh->deadline)
				break;
		}
	}
	w->updates = n;
}

/* Grows to one bucket per key and shrinks to an eighth, again and again. */
static void loop_resizer(struct worker *w)
{
	struct shared *sh = w->sh;
	unsigned long small = sh->keys >= 8 ? sh->keys / 8 : 1;

	while (!stopped(sh)) {
		bt_resize(sh->bt, sh->keys);
		bt_resize(sh->bt, small);
		w->resizes += 2;
		bench_quiescent();
	}
}

/* hot10: any of the few keys, all present (a key is absent only between a
 * writer's delete and its add). */
static void loop_hot_read(struct worker *w)
{
	struct shared *sh = w->sh;
	uint64_t rng = w->rng;
	unsigned long hits = 0, lookups = 0;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++)
			hits += (unsigned long)bt_lookup(sh->bt, rng_next(&rng) % sh->keys);
		lookups += BATCH;
		bench_quiescent();
	}
	w->hits += hits;
	w->lookups += lookups;
}

/* hot10: half replace a key, half delete it and add it back (add_unique). */
static void loop_hot_writer(struct worker *w)
{
	struct shared *sh = w->sh;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t r = rng_next(&w->rng);
			uint64_t key = (r & 0xffffffff) % sh->keys;

			if (r >> 63) {
				bt_add_replace(sh->bt, key);
			} else {
				bt_del(sh->bt, key);
				bt_add_unique(sh->bt, key);
			}
		}
		w->updates += BATCH;
		bench_quiescent();
	}
}

/* batch: LOOKUP_BATCH random keys (half absent) per bt_lookup_batch(). */
static void loop_batch(struct worker *w)
{
	struct shared *sh = w->sh;
	uint64_t mask = 2 * sh->keys - 1;
	uint64_t rng = w->rng, keys[LOOKUP_BATCH];
	unsigned long hits = 0, lookups = 0;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH / LOOKUP_BATCH; i++) {
			for (int j = 0; j < LOOKUP_BATCH; j++)
				keys[j] = rng_next(&rng) & mask;
			hits += bt_lookup_batch(sh->bt, LOOKUP_BATCH, keys);
		}
		lookups += BATCH / LOOKUP_BATCH * LOOKUP_BATCH;
		bench_quiescent();
	}
	w->hits += hits;
	w->lookups += lookups;
}

#ifdef BENCH_HAS_WALK
/* longread: LONG_WALKS walks of the whole table per read-side section. */
static void loop_long_read(struct worker *w)
{
	while (!stopped(w->sh)) {
		w->hits += bt_walk_many(w->sh->bt, LONG_WALKS, &w->sh->stop);
		w->lookups++;
		bench_quiescent();
	}
}
#else
static void loop_long_read(struct worker *w) { (void)w; }
#endif

/* longread: add_unique random keys of [0, LONG_KEY_RANGE); counts the
 * keys added. */
static void loop_grow_writer(struct worker *w)
{
	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++)
			w->updates += (unsigned long)bt_add_unique(w->sh->bt,
						rng_next(&w->rng) % LONG_KEY_RANGE);
		bench_quiescent();
	}
}

/* hot1: key 0 only; even writers replace it (add_replace) and delete it,
 * odd ones add it (add_unique) and delete it. A pair counts as one. */
static void loop_hot1_writer(struct worker *w)
{
	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++) {
			if (w->id % 2)
				bt_add_unique(w->sh->bt, 0);
			else
				bt_add_replace(w->sh->bt, 0);
			bt_del(w->sh->bt, 0);
		}
		w->updates += BATCH;
		bench_quiescent();
	}
}

#ifndef BENCH_NO_RCUFREE
/* rcufree: allocate an object and defer its free, as fast as possible. */
static void loop_rcufree(struct worker *w)
{
	unsigned long n = 0;

	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++)
			bt_defer_free_new();
		n += BATCH;
		bench_quiescent();
	}
	bt_defer_flush();
	w->updates = n;
}
#else
static void loop_rcufree(struct worker *w) { (void)w; }
#endif

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	bt_register();
	/* Offline while waiting, so that no grace period waits for us. */
	bench_offline();
	pthread_barrier_wait(&w->sh->start);
	bench_online();
	switch (w->kind) {
	case K_READ: loop_read(w); break;
	case K_MIXED: loop_mixed(w); break;
	case K_ADDEL: loop_addel(w); break;
	case K_FILL: loop_fill(w); break;
	case K_RESIZER: loop_resizer(w); break;
	case K_WRITER: loop_writer(w); break;
	case K_HOT_READ: loop_hot_read(w); break;
	case K_HOT_WRITER: loop_hot_writer(w); break;
	case K_BATCH: loop_batch(w); break;
	case K_RCUFREE: loop_rcufree(w); break;
	case K_LONG_READ: loop_long_read(w); break;
	case K_GROW_WRITER: loop_grow_writer(w); break;
	case K_HOT1_WRITER: loop_hot1_writer(w); break;
	}
	bt_unregister();
	return NULL;
}

struct totals {
	double t0, secs;	/* start (bench_now), timed length */
	unsigned long lookups, hits, updates, resizes;
};

/*
 * Runs the workers (kinds[i] for worker i) on sh->bt: for `seconds`, or
 * until all finish when seconds is 0 (fill). The calling thread is
 * registered and stays offline meanwhile.
 */
static struct totals run_workers(struct shared *sh, const enum kind *kinds, unsigned n,
				 double seconds)
{
	struct worker *ws = aligned_alloc(_Alignof(struct worker), n * sizeof(*ws));
	struct totals t = { 0 };
	double t0;

	if (!ws)
		abort();
	memset(ws, 0, n * sizeof(*ws));
	atomic_store_explicit(&sh->stop, 0, memory_order_relaxed);
	pthread_barrier_init(&sh->start, NULL, n + 1);
	for (unsigned i = 0; i < n; i++) {
		ws[i] = (struct worker){ .sh = sh, .kind = kinds[i], .id = i,
					 .rng = UINT64_C(0x9e3779b97f4a7c15) * (i + 1) };
		if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
			perror("pthread_create");
			exit(1);
		}
	}
	bench_offline();
	pthread_barrier_wait(&sh->start);
	t0 = t.t0 = bench_now();
	if (seconds > 0) {
		struct timespec ts = { (time_t)seconds,
				       (long)((seconds - (double)(time_t)seconds) * 1e9) };

		nanosleep(&ts, NULL);
		atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
		t.secs = bench_now() - t0;
	}
	for (unsigned i = 0; i < n; i++) {
		pthread_join(ws[i].tid, NULL);
		t.lookups += ws[i].lookups;
		t.hits += ws[i].hits;
		t.updates += ws[i].updates;
		t.resizes += ws[i].resizes;
	}
	if (seconds <= 0)
		t.secs = bench_now() - t0;
	bench_online();
	pthread_barrier_destroy(&sh->start);
	free(ws);
	return t;
}

/* Adds keys 0..n-1 from this thread; stops early (and says so) if the
 * table stalls, see run_fill(). Returns how many were added. */
static unsigned long fill_keys(struct bench_table *bt, unsigned long n)
{
	double deadline = bench_now() + FILL_LIMIT_SECONDS;
	uint64_t k;

	for (k = 0; k < n; k++) {
		bt_add_unique(bt, k);
		if (k % BATCH == 0) {
			bench_quiescent();
			if (bench_now() > deadline) {
				fprintf(stderr, "lfht-bench: %s: fill stalled at %lu of %lu keys\n",
					BENCH_IMPL, (unsigned long)k, n);
				break;
			}
		}
	}
	return (unsigned long)k;
}

/* How auto-resizing tables are made: 1 with CDS_LFHT_ACCOUNTING, 2
 * without (--auto-flags acct|plain). */
static int auto_mode = 1;

static struct bench_table *new_table(unsigned long init, int auto_resize)
{
	struct bench_table *bt = bt_new(init, auto_resize ? auto_mode : 0);

	if (!bt) {
		fprintf(stderr, "lfht-bench: cannot create a table\n");
		exit(1);
	}
	return bt;
}

static void finish(struct bench_table *bt, int cleanup)
{
	if (cleanup && bt_destroy(bt) != 0) {
		fprintf(stderr, "lfht-bench: destroy failed\n");
		exit(1);
	}
}

struct options {
	const char *workload;
	unsigned long keys;
	unsigned threads;
	double seconds;
	int cleanup;
};

static void print_head(const struct options *o)
{
	printf("RESULT impl=%s workload=%s keys=%lu threads=%u", BENCH_IMPL, o->workload,
	       o->keys, o->threads);
}

static long heap_settled(void);

/* The bucket count, where the header can tell it (lfht); 0: unknown. */
#ifndef BENCH_HAS_BUCKET_COUNT
static inline unsigned long bt_bucket_count(struct bench_table *bt)
{
	(void)bt;
	return 0;
}
#endif

/*
 * After a fill from one bucket, lets growth finish before lookups are
 * timed: a resize running in a worker (lfht) would be measured with them.
 * The heap stops changing once the bucket arrays are allocated; where the
 * bucket count is known, also wait (offline, bounded) until it has stayed
 * the same for 0.2 s, since the buckets are linked in after allocation.
 */
static void growth_settled(struct bench_table *bt)
{
	unsigned long last = bt_bucket_count(bt), now;
	double deadline = bench_now() + 10.0;
	int same = 0;

	(void)heap_settled();
	while (last && same < 10 && bench_now() < deadline) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		bench_offline();
		nanosleep(&ts, NULL);
		bench_online();
		now = bt_bucket_count(bt);
		same = now == last ? same + 1 : 0;
		last = now;
	}
}

/* Steady-state workloads: the table starts with one bucket per key, or
 * (grown) at one bucket, auto-resized as the keys go in. */
static void run_steady(const struct options *o, enum kind kind, int resizer, int grown)
{
	struct shared sh = { .keys = o->keys, .threads = o->threads };
	enum kind kinds[1025];
	unsigned n = o->threads;
	struct totals t;
	unsigned long filled;

	sh.bt = grown ? new_table(1, 1) : new_table(o->keys, !resizer);
	filled = fill_keys(sh.bt, o->keys);
	if (grown)
		growth_settled(sh.bt);
	for (unsigned i = 0; i < n; i++)
		kinds[i] = kind;
	if (resizer)
		kinds[n++] = K_RESIZER;
	t = run_workers(&sh, kinds, n, o->seconds);
	print_head(o);
	printf(" secs=%.3f", t.secs);
	if (kind == K_ADDEL) {
		printf(" ops_per_s=%.6g", (double)t.updates / t.secs);
	} else {
		printf(" lookups_per_s=%.6g hit_ratio=%.3f", (double)t.lookups / t.secs,
		       t.lookups ? (double)t.hits / (double)t.lookups : 0.0);
		if (kind == K_MIXED)
			printf(" updates_per_s=%.6g", (double)t.updates / t.secs);
		if (resizer)
			printf(" resizes_per_s=%.6g", (double)t.resizes / t.secs);
	}
	/* A table grown from one bucket whose fill stalled is a broken table:
	 * the driver lists it under the table. */
	if (grown)
		printf(" stalled=%d", filled < o->keys);
	printf("\n");
	finish(sh.bt, o->cleanup);
}

/* Fill from one bucket with auto-resize; the rate is keys over wall time. */
static void run_fill(const struct options *o)
{
	struct shared sh = { .keys = o->keys, .threads = o->threads };
	enum kind kinds[1024];
	struct totals t;

	sh.bt = new_table(1, 1);
	for (unsigned i = 0; i < o->threads; i++)
		kinds[i] = K_FILL;
	/* A table whose growth stalls turns every add into a list walk; stop
	 * after a bound and report the rate reached and the stall. */
	sh.deadline = bench_now() + FILL_LIMIT_SECONDS;
	t = run_workers(&sh, kinds, o->threads, 0);
	print_head(o);
	printf(" secs=%.3f inserts_per_s=%.6g inserted=%lu stalled=%d\n", t.secs,
	       (double)t.updates / t.secs, t.updates, t.updates < o->keys);
	finish(sh.bt, o->cleanup && t.updates == o->keys);
}

/*
 * Auto-resize keeps pace: fill from one bucket, then at once one reader
 * and one writer. A table whose growth lags leaves long chains behind and
 * the lookup rate shows it; the driver runs this 8 times and compares.
 */
static void run_pace(const struct options *o)
{
	struct shared sh = { .keys = o->keys, .threads = 2 };
	const enum kind kinds[2] = { K_READ, K_WRITER };
	struct totals t;

	unsigned long filled;

	sh.bt = new_table(1, 1);
	filled = fill_keys(sh.bt, o->keys);
	t = run_workers(&sh, kinds, 2, o->seconds);
	printf("RESULT impl=%s workload=pace keys=%lu threads=2 secs=%.3f lookups_per_s=%.6g"
	       " updates_per_s=%.6g stalled=%d\n", BENCH_IMPL, o->keys, t.secs,
	       (double)t.lookups / t.secs, (double)t.updates / t.secs, filled < o->keys);
	finish(sh.bt, o->cleanup && filled == o->keys);
}

/*
 * rw1: one reader and one writer on a table of N keys. The writer adds or
 * deletes random keys of [0, 2N), add or delete decided by a bit of the
 * random word that the key does not use, so the table keeps changing
 * around N keys; the reader looks up keys of [0, 2N).
 */
static void run_rw1(const struct options *o)
{
	struct shared sh = { .keys = o->keys, .threads = 2 };
	const enum kind kinds[2] = { K_READ, K_ADDEL };
	struct totals t;

	sh.bt = new_table(o->keys, 1);
	(void)fill_keys(sh.bt, o->keys);
	t = run_workers(&sh, kinds, 2, o->seconds);
	printf("RESULT impl=%s workload=rw1 keys=%lu threads=2 secs=%.3f lookups_per_s=%.6g"
	       " hit_ratio=%.3f updates_per_s=%.6g\n", BENCH_IMPL, o->keys, t.secs,
	       (double)t.lookups / t.secs, t.lookups ? (double)t.hits / (double)t.lookups : 0.0,
	       (double)t.updates / t.secs);
	finish(sh.bt, o->cleanup);
}

/*
 * hot10: a table of a few keys (10 by default) in one bucket, without
 * auto-resize, so that every operation meets on one chain: T readers look
 * them up, T writers replace them (add_replace) or delete and re-add them
 * (add_unique). updates_per_s counts writer operations (a replace, or a
 * delete + add pair).
 */
static void run_hot10(const struct options *o)
{
	struct shared sh = { .keys = o->keys, .threads = o->threads };
	enum kind kinds[2048];
	unsigned n = 2 * o->threads;
	struct totals t;

	sh.bt = new_table(1, 0);
	(void)fill_keys(sh.bt, o->keys);
	for (unsigned i = 0; i < n; i++)
		kinds[i] = i < o->threads ? K_HOT_READ : K_HOT_WRITER;
	t = run_workers(&sh, kinds, n, o->seconds);
	print_head(o);
	printf(" secs=%.3f lookups_per_s=%.6g hit_ratio=%.3f updates_per_s=%.6g\n", t.secs,
	       (double)t.lookups / t.secs, t.lookups ? (double)t.hits / (double)t.lookups : 0.0,
	       (double)t.updates / t.secs);
	finish(sh.bt, o->cleanup);
}

/*
 * hot1: one key, T writers (4 by default) and no reader, one bucket, no
 * resize: half replace the key and delete it, half add it (add_unique) and
 * delete it. updates_per_s counts pairs.
 */
static void run_hot1(const struct options *o)
{
	struct shared sh = { .keys = 1, .threads = o->threads };
	enum kind kinds[1024];
	struct totals t;

	sh.bt = new_table(1, 0);
	(void)bt_add_unique(sh.bt, 0);
	for (unsigned i = 0; i < o->threads; i++)
		kinds[i] = K_HOT1_WRITER;
	t = run_workers(&sh, kinds, o->threads, o->seconds);
	print_head(o);
	printf(" secs=%.3f updates_per_s=%.6g\n", t.secs, (double)t.updates / t.secs);
	finish(sh.bt, o->cleanup);
}

/*
 * longread: growth under long readers. T readers each walk the whole table
 * LONG_WALKS times per read-side section (a quiescent state after each
 * section), while 2 writers add_unique random keys of [0, LONG_KEY_RANGE)
 * to an auto-resizing table that starts at 1 bucket. A resize that waits
 * for a grace period stalls behind the readers, chains grow and the adds
 * slow down: inserts_per_s counts the keys added.
 */
#ifdef BENCH_HAS_WALK
static void run_longread(const struct options *o)
{
	struct shared sh = { .keys = LONG_KEY_RANGE, .threads = o->threads };
	enum kind kinds[1026];
	unsigned n = o->threads + 2;
	struct totals t;

	sh.bt = new_table(1, 1);
	for (unsigned i = 0; i < n; i++)
		kinds[i] = i < o->threads ? K_LONG_READ : K_GROW_WRITER;
	t = run_workers(&sh, kinds, n, o->seconds);
	print_head(o);
	/* buckets: how far the resizes kept up (0 where the table keeps its
	 * bucket count private: liburcu). */
	printf(" secs=%.3f inserts_per_s=%.6g inserts=%lu sections_per_s=%.6g"
	       " walked_per_s=%.6g buckets=%lu\n", t.secs, (double)t.updates / t.secs,
	       t.updates, (double)t.lookups / t.secs, (double)t.hits / t.secs,
	       bench_nr_buckets(sh.bt->ht));
	finish(sh.bt, o->cleanup);
}
#else
/* Never called (refused below): the header has no walk to stall with. */
static void run_longread(const struct options *o) { (void)o; }
#endif

/* batch: T threads look up LOOKUP_BATCH keys at a time, in one read-side
 * section per batch (see bt_lookup_batch). */
static void run_batch(const struct options *o)
{
	struct shared sh = { .keys = o->keys, .threads = o->threads };
	enum kind kinds[1024];
	struct totals t;

	sh.bt = new_table(o->keys, 1);
	(void)fill_keys(sh.bt, o->keys);
	for (unsigned i = 0; i < o->threads; i++)
		kinds[i] = K_BATCH;
	t = run_workers(&sh, kinds, o->threads, o->seconds);
	print_head(o);
	printf(" secs=%.3f lookups_per_s=%.6g hit_ratio=%.3f batch=%d native_batch=%d\n",
	       t.secs, (double)t.lookups / t.secs,
	       t.lookups ? (double)t.hits / (double)t.lookups : 0.0, LOOKUP_BATCH,
	       BENCH_NATIVE_BATCH);
	finish(sh.bt, o->cleanup);
}

/*
 * rcufree: T threads each malloc an object and queue a callback that frees
 * it (call_rcu, or ck_epoch_call), for the run's length; then every queued
 * callback is waited for (rcu_barrier, or each thread's ck_epoch_barrier).
 * The rate is callbacks over the whole time, the wait included: what the
 * reclamation sustains, not what the queue swallows.
 */
#ifndef BENCH_NO_RCUFREE
static void run_rcufree(const struct options *o)
{
	struct shared sh = { .keys = o->keys, .threads = o->threads };
	enum kind kinds[1024];
	struct totals t;
	double total;

	for (unsigned i = 0; i < o->threads; i++)
		kinds[i] = K_RCUFREE;
	t = run_workers(&sh, kinds, o->threads, o->seconds);
	bt_barrier();
	total = bench_now() - t.t0;
	print_head(o);
	printf(" secs=%.3f callbacks_per_s=%.6g callbacks=%lu\n", total,
	       (double)t.updates / total, t.updates);
}
#endif

/* Bytes in use on the heap, mmapped chunks included, all arenas. */
static long heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (long)(mi.uordblks + mi.hblkhd);
}

/* Resident bytes: sees what the allocator maps outside malloc too (liburcu
 * maps its bucket tables with mmap). Page-grained, hence large counts. */
static long rss_bytes(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * sysconf(_SC_PAGESIZE);
}

/* Waits (bounded) until the heap stops changing: deferred frees and an
 * asynchronous resize must be over before the count means anything. */
static long heap_settled(void)
{
	long last = -1, now;
	int same = 0;

	for (int i = 0; i < 100 && same < 3; i++) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		bt_barrier();
		bench_offline();
		nanosleep(&ts, NULL);
		bench_online();
		now = heap_in_use();
		same = now == last ? same + 1 : 0;
		last = now;
	}
	return last;
}

/*
 * cds tables: the wrapper struct bench_table is the harness's, not the
 * table's; its glibc chunk (usable size plus the 8-byte header) is taken
 * off the table's figures. mallinfo2 cannot see it: small chunks come from
 * the tcache, which mallinfo2 already counts as in use.
 */
static long wrapper_bytes(void)
{
#ifdef BENCH_TABLE_WRAPPED
	void *wrapper = malloc(sizeof(struct bench_table));
	long bytes;

	if (!wrapper)
		abort();
	bytes = (long)(malloc_usable_size(wrapper) + sizeof(size_t));
	free(wrapper);
	return bytes;
#else
	return 0;
#endif
}

static void run_memory(const struct options *o)
{
	struct bench_table *bt;
	void **blocks;
	long m0, m1, m2, m3, m4, m5, m6, r1, r2, wrapper = wrapper_bytes();
	unsigned long filled;
	double entry;

	/* Warm-up: one-time allocations (worker threads, queues, per-thread
	 * state) must not be charged to the table measured next. */
	bt = new_table(1, 1);
	fill_keys(bt, 1024);
	finish(bt, 1);

	/* An empty table without flags (no counters, no worker). */
	m5 = heap_settled();
	bt = new_table(1, 0);
	m6 = heap_settled();
	finish(bt, 1);

	m0 = heap_settled();
	bt = new_table(1, 1);
	m1 = heap_settled();
	r1 = rss_bytes();
	filled = fill_keys(bt, o->keys);
	m2 = heap_settled();
	r2 = rss_bytes();
	/* Not emptied: the process ends here, and a stalled table is one long
	 * chain whose emptying would be quadratic. */

	/* What the entries alone cost, measured the same way. */
	blocks = malloc(o->keys * sizeof(*blocks));
	if (!blocks)
		abort();
	m3 = heap_in_use();
	for (unsigned long i = 0; i < o->keys; i++)
		blocks[i] = malloc(sizeof(struct bench_entry));
	m4 = heap_in_use();
	for (unsigned long i = 0; i < o->keys; i++)
		free(blocks[i]);
	free(blocks);

	entry = (double)(m4 - m3) / (double)o->keys;
	print_head(o);
	printf(" empty_plain_table_bytes=%ld empty_table_bytes=%ld heap_bytes_per_entry=%.2f"
	       " table_bytes_per_entry=%.2f entry_bytes=%.2f rss_bytes_per_entry=%.2f"
	       " stalled=%d\n", (m6 - m5) - wrapper, (m1 - m0) - wrapper,
	       (double)(m2 - m1) / (double)filled, (double)(m2 - m1) / (double)filled - entry,
	       entry, (double)(r2 - r1) / (double)filled, filled < o->keys);
}

static void usage(void)
{
	fprintf(stderr, "usage: lfht-bench-%s --workload read|autoread|mixed|addel|fill|churn|pace"
		"|memory|rw1|hot10|hot1|longread|batch|rcufree [--keys N] [--threads T] [--seconds S]"
		" [--auto-flags acct|plain] [--cleanup] | --info\n"
		"  N: a power of two (hot10: any count; hot1, longread: unused)\n"
		"  T: threads (hot10: readers and as many writers; hot1: writers;"
		" longread: readers, beside 2 writers)\n", BENCH_IMPL);
	exit(2);
}

/* The header cannot run this workload: say why, exit 3 (the driver skips). */
static void unsupported(const struct options *o, const char *reason)
{
	printf("UNSUPPORTED impl=%s workload=%s reason=%s\n", BENCH_IMPL, o->workload, reason);
	fflush(stdout);
	exit(3);
}

static void run_read(const struct options *o) { run_steady(o, K_READ, 0, 0); }
static void run_autoread(const struct options *o) { run_steady(o, K_READ, 0, 1); }
static void run_mixed(const struct options *o) { run_steady(o, K_MIXED, 0, 0); }
static void run_addel(const struct options *o) { run_steady(o, K_ADDEL, 0, 0); }
static void run_churn(const struct options *o) { run_steady(o, K_READ, 1, 0); }
#ifdef BENCH_NO_RCUFREE
/* Never called (refused below); the header has no deferred free to run. */
static void run_rcufree(const struct options *o) { (void)o; }
#endif

/* A workload the header cannot run has BENCH_NO_<WORKLOAD> defined to the
 * reason; NULL: it runs. */
#ifndef BENCH_NO_READ
#define BENCH_NO_READ NULL
#endif
#ifndef BENCH_NO_AUTOREAD
#define BENCH_NO_AUTOREAD NULL
#endif
#ifndef BENCH_NO_MIXED
#define BENCH_NO_MIXED NULL
#endif
#ifndef BENCH_NO_ADDEL
#define BENCH_NO_ADDEL NULL
#endif
#ifndef BENCH_NO_FILL
#define BENCH_NO_FILL NULL
#endif
#ifndef BENCH_NO_CHURN
#define BENCH_NO_CHURN NULL
#endif
#ifndef BENCH_NO_PACE
#define BENCH_NO_PACE NULL
#endif
#ifndef BENCH_NO_MEMORY
#define BENCH_NO_MEMORY NULL
#endif
#ifndef BENCH_NO_RW1
#define BENCH_NO_RW1 NULL
#endif
#ifndef BENCH_NO_HOT10
#define BENCH_NO_HOT10 NULL
#endif
#ifndef BENCH_NO_HOT1
#define BENCH_NO_HOT1 NULL
#endif
#ifndef BENCH_HAS_WALK
#define BENCH_NO_LONGREAD "no whole-table walk inside a read-side section to stall resizes with"
#endif
#ifndef BENCH_NO_LONGREAD
#define BENCH_NO_LONGREAD NULL
#endif
#ifndef BENCH_NO_BATCH
#define BENCH_NO_BATCH NULL
#endif
#ifndef BENCH_NO_RCUFREE
#define BENCH_NO_RCUFREE NULL
#endif

static const struct workload {
	const char *name;
	void (*run)(const struct options *o);
	const char *refused;	/* why this implementation cannot, or NULL */
} workloads[] = {
	{ "read", run_read, BENCH_NO_READ },
	{ "autoread", run_autoread, BENCH_NO_AUTOREAD },
	{ "mixed", run_mixed, BENCH_NO_MIXED },
	{ "addel", run_addel, BENCH_NO_ADDEL },
	{ "churn", run_churn, BENCH_NO_CHURN },
	{ "rw1", run_rw1, BENCH_NO_RW1 },
	{ "hot10", run_hot10, BENCH_NO_HOT10 },
	{ "hot1", run_hot1, BENCH_NO_HOT1 },
	{ "longread", run_longread, BENCH_NO_LONGREAD },
	{ "batch", run_batch, BENCH_NO_BATCH },
	{ "rcufree", run_rcufree, BENCH_NO_RCUFREE },
	{ "fill", run_fill, BENCH_NO_FILL },
	{ "pace", run_pace, BENCH_NO_PACE },
	{ "memory", run_memory, BENCH_NO_MEMORY },
};

int main(int argc, char **argv)
{
	struct options o = { .workload = NULL, .keys = 1UL << 16, .threads = 1,
			     .seconds = 1.0, .cleanup = 0 };
	const struct workload *w;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--info")) {
			printf("INFO impl=%s buildtype=%s debug_checks=%s native_batch=%d\n",
			       BENCH_IMPL, BENCH_BUILDTYPE, BENCH_DEBUG_CHECKS, BENCH_NATIVE_BATCH);
			return 0;
		} else if (!strcmp(a, "--cleanup")) {
			o.cleanup = 1;
		} else if (!v) {
			usage();
		} else if (!strcmp(a, "--workload")) {
			o.workload = v, i++;
		} else if (!strcmp(a, "--keys")) {
			o.keys = strtoul(v, NULL, 0), i++;
		} else if (!strcmp(a, "--threads")) {
			o.threads = (unsigned)strtoul(v, NULL, 0), i++;
		} else if (!strcmp(a, "--auto-flags")) {
			auto_mode = strcmp(v, "plain") ? 1 : 2, i++;
		} else if (!strcmp(a, "--seconds")) {
			o.seconds = strtod(v, NULL), i++;
		} else {
			usage();
		}
	}
	if (!o.workload || o.keys == 0 || o.threads == 0 || o.threads > 1024 || o.seconds <= 0 ||
	    ((o.keys & (o.keys - 1)) && strcmp(o.workload, "hot10")))
		usage();

	for (w = workloads; w < workloads + sizeof(workloads) / sizeof(workloads[0]); w++)
		if (!strcmp(o.workload, w->name))
			break;
	if (w == workloads + sizeof(workloads) / sizeof(workloads[0]))
		usage();
	/* Refused before bt_register(): a header's set-up (DPDK's EAL) is
	 * not paid for a workload that does not run. */
	if (w->refused)
		unsupported(&o, w->refused);
	bt_register();
	w->run(&o);
	fflush(stdout);
	bt_unregister();
	return 0;
}
