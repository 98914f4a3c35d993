/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench: the implementation. The one file that includes
 * BENCH_IMPL_HEADER (lfht or liburcu on QSBR or memb, Concurrency Kit's
 * ck_hs, the rwlock baseline, or a peer: DPDK's rte_hash, oneTBB's two
 * maps, libcds's SplitListMap), so that the header's inline bt_* are inline
 * in the timed loops below and its static state exists once. The rest of
 * the program reaches the implementation through struct bench_impl, outside
 * the timed loops.
 *
 * A header that lacks something a workload needs defines BENCH_NO_<NEED>
 * to the reason (BENCH_NO_GROW, BENCH_NO_RESIZE, BENCH_NO_ERASE,
 * BENCH_NO_DEFER_FREE; the walk is there when it defines BENCH_HAS_WALK);
 * the table (table.c) says which workloads need what.
 *
 * A header also says what it is, for the driver (--info's "impl"; see
 * struct bench_impl): BENCH_IMPL (its name: the executable is
 * lfht-bench-<name>), BENCH_IMPL_KIND, BENCH_IMPL_HELP, and where they
 * apply BENCH_IMPL_NOTE, BENCH_IMPL_PAIR and BENCH_IMPL_VS. A new peer is
 * then its header (and .cpp file) and one line in meson.build.
 */
#define _GNU_SOURCE

#include <stdlib.h>

#include "bench.h"

#include BENCH_IMPL_HEADER

#ifndef BENCH_IMPL_NOTE
#define BENCH_IMPL_NOTE NULL
#endif
#ifndef BENCH_IMPL_PAIR
#define BENCH_IMPL_PAIR NULL
#endif
#ifndef BENCH_IMPL_VS
#define BENCH_IMPL_VS NULL
#endif

/* 1 when bt_lookup_batch() is the library's own batched lookup. */
#ifndef BENCH_NATIVE_BATCH
#define BENCH_NATIVE_BATCH 0
#endif
#ifndef BENCH_HAS_WALK
#define BENCH_NO_WALK "no whole-table walk inside a read-side section to stall resizes with"
#endif
#ifndef BENCH_NO_GROW
#define BENCH_NO_GROW NULL
#endif
#ifndef BENCH_NO_RESIZE
#define BENCH_NO_RESIZE NULL
#endif
#ifndef BENCH_NO_ERASE
#define BENCH_NO_ERASE NULL
#endif
#ifndef BENCH_NO_WALK
#define BENCH_NO_WALK NULL
#endif
#ifndef BENCH_HAS_ADD_DUP
#define BENCH_NO_DUP_ADD "no add that keeps duplicate keys (cds_lfht_add)"
#else
#define BENCH_NO_DUP_ADD NULL
#endif
#ifdef BENCH_NO_DEFER_FREE
#define BENCH_CAN_DEFER_FREE 0
#else
#define BENCH_CAN_DEFER_FREE 1
#define BENCH_NO_DEFER_FREE NULL
#endif

/* Before a role that deletes to completion returns (its run ends there,
 * harness.c): the frees this thread deferred and runs itself (rcu_retire(),
 * ck_epoch), so that the run's time counts them as it counts the frees of
 * an implementation that frees at once. A call_rcu worker's are not. */
static void flush_own_frees(void)
{
#if BENCH_CAN_DEFER_FREE
	bt_defer_flush();
#endif
}

void role_read(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
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
	w->n.hits += hits;
	w->n.lookups += lookups;
}

/* An update: delete a random present key and add it back (a new entry). */
static void update_one(struct bench_shared *sh, uint64_t r)
{
	uint64_t key = r & (sh->keys - 1);

	bt_del(sh->bt, key);
	bt_add_unique(sh->bt, key);
}

void role_mixed(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	uint64_t mask = 2 * sh->keys - 1;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t r = rng_next(&w->rng);

			if ((r >> 40) % 100 < 10) {
				update_one(sh, r);
				w->n.updates++;
			} else {
				w->n.hits += (unsigned long)bt_lookup(sh->bt, r & mask);
				w->n.lookups++;
			}
		}
		bench_quiescent();
	}
}

void role_writer(struct bench_worker *w)
{
	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++)
			update_one(w->sh, rng_next(&w->rng));
		w->n.updates += BATCH;
		bench_quiescent();
	}
}

/* Adds or deletes random keys of [0, 2N): updates counts both. */
void role_addel(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	uint64_t mask = 2 * sh->keys - 1;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t r = rng_next(&w->rng);

			if (r >> 63)
				bt_add_unique(sh->bt, r & mask);
			else
				bt_del(sh->bt, r & mask);
		}
		w->n.updates += BATCH;
		bench_quiescent();
	}
}

/* Adds this worker's share of keys 0..N-1 (every threads-th key). */
static unsigned long sweep_add_unique(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	unsigned long n = 0;

	for (uint64_t k = w->id; k < sh->keys; k += sh->threads) {
		bt_add_unique(sh->bt, k);
		if (++n % BATCH == 0) {
			bench_quiescent();
			if (bench_now() > sh->deadline)
				break;
		}
	}
	return n;
}

/* Deletes this worker's share of keys 0..N-1. */
static unsigned long sweep_del(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	unsigned long n = 0;

	for (uint64_t k = w->id; k < sh->keys; k += sh->threads) {
		bt_del(sh->bt, k);
		if (++n % BATCH == 0) {
			bench_quiescent();
			if (bench_now() > sh->deadline)
				break;
		}
	}
	return n;
}

/* A sweep: sh->op once on each key of this worker's share. */
void role_sweep(struct bench_worker *w)
{
	if (w->sh->op == OP_DEL) {
		w->n.deletes = sweep_del(w);
		flush_own_frees();
	} else {
		w->n.inserts = sweep_add_unique(w);
	}
}

/* Grows to one bucket per key and shrinks to an eighth, again and again. */
void role_resizer(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	unsigned long small = sh->keys >= 8 ? sh->keys / 8 : 1;

	while (!stopped(sh)) {
		bt_resize(sh->bt, sh->keys);
		bt_resize(sh->bt, small);
		w->n.resizes += 2;
		bench_quiescent();
	}
}

/* hot10: any of the few keys, all present (a key is absent only between a
 * writer's delete and its add). */
void role_hot_read(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	uint64_t rng = w->rng;
	unsigned long hits = 0, lookups = 0;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++)
			hits += (unsigned long)bt_lookup(sh->bt, rng_next(&rng) % sh->keys);
		lookups += BATCH;
		bench_quiescent();
	}
	w->n.hits += hits;
	w->n.lookups += lookups;
}

/* hot10: half replace a key, half delete it and add it back (add_unique). */
void role_hot_writer(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;

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
		w->n.updates += BATCH;
		bench_quiescent();
	}
}

/* batch: LOOKUP_BATCH random keys (half absent) per bt_lookup_batch(). */
void role_batch(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
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
	w->n.hits += hits;
	w->n.lookups += lookups;
}

#ifdef BENCH_HAS_WALK
/* longread: LONG_WALKS walks of the whole table per read-side section. */
void role_long_read(struct bench_worker *w)
{
	while (!stopped(w->sh)) {
		w->n.walked += bt_walk_many(w->sh->bt, LONG_WALKS, &w->sh->stop);
		w->n.sections++;
		bench_quiescent();
	}
}
/* flush: deletes every key by restarted iteration, FLUSH_PASS deletes per
 * read-side section (a quiescent state after each); gives up at the
 * deadline. */
void role_flush(struct bench_worker *w)
{
	unsigned long n;

	do {
		n = bt_flush_pass(w->sh->bt, FLUSH_PASS);
		w->n.deletes += n;
		w->n.sections++;
		bench_quiescent();
	} while (n && bench_now() <= w->sh->deadline);
	flush_own_frees();
}
#else
/* Never run: longread and flush need the walk (refused, see table.c). */
void role_long_read(struct bench_worker *w) { (void)w; }
void role_flush(struct bench_worker *w) { (void)w; }
#endif

/* longread: add_unique random keys of [0, LONG_KEY_RANGE); counts the
 * keys added. */
void role_grow_writer(struct bench_worker *w)
{
	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++)
			w->n.inserts += (unsigned long)bt_add_unique(w->sh->bt,
						rng_next(&w->rng) % LONG_KEY_RANGE);
		bench_quiescent();
	}
}

/* hot1: key 0 only; even writers replace it (add_replace) and delete it,
 * odd ones add it (add_unique) and delete it. A pair counts as one. */
void role_hot1_writer(struct bench_worker *w)
{
	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++) {
			if (w->id % 2)
				bt_add_unique(w->sh->bt, 0);
			else
				bt_add_replace(w->sh->bt, 0);
			bt_del(w->sh->bt, 0);
		}
		w->n.updates += BATCH;
		bench_quiescent();
	}
}

/*
 * The pool workloads (the small-pool shapes of liburcu's test_urcu_hash):
 * readers look up keys of [0, N), the lookup pool, filled before the run;
 * writers work on [N, 2N), the write pool. One lookup per read-side
 * section, as every bt_lookup.
 */
void role_pool_read(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	uint64_t rng = w->rng;
	unsigned long hits = 0, lookups = 0;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++)
			hits += (unsigned long)bt_lookup(sh->bt, (rng_next(&rng) >> 8) % sh->keys);
		lookups += BATCH;
		bench_quiescent();
	}
	w->n.hits += hits;
	w->n.lookups += lookups;
}

#ifdef BENCH_HAS_ADD_DUP
static inline void pool_add_dup(struct bench_table *bt, uint64_t key) { bt_add(bt, key); }
#else
/* Never called: pool-add needs the add with duplicates (refused). */
static inline void pool_add_dup(struct bench_table *bt, uint64_t key) { (void)bt, (void)key; }
#endif

/* A coin per operation: add a random key of the write pool (sh->op says
 * how: add, add_unique or add_replace), or delete one (look it up, delete
 * the node found). Every operation counts in updates, done or not. */
void role_pool_writer(struct bench_worker *w)
{
	struct bench_shared *sh = w->sh;
	uint64_t rng = w->rng;
	unsigned long updates = 0;

	while (!stopped(sh)) {
		for (int i = 0; i < BATCH; i++) {
			uint64_t r = rng_next(&rng);
			uint64_t key = sh->keys + (r >> 8) % sh->keys;

			if (!(r >> 63))
				bt_del(sh->bt, key);
			else if (sh->op == OP_ADD)
				pool_add_dup(sh->bt, key);
			else if (sh->op == OP_ADD_REPLACE)
				bt_add_replace(sh->bt, key);
			else
				bt_add_unique(sh->bt, key);
		}
		updates += BATCH;
		bench_quiescent();
	}
	w->n.updates += updates;
}

#if BENCH_CAN_DEFER_FREE
/* rcufree: allocate an object and defer its free, as fast as possible. */
void role_rcufree(struct bench_worker *w)
{
	unsigned long n = 0;

	while (!stopped(w->sh)) {
		for (int i = 0; i < BATCH; i++)
			bt_defer_free_new();
		n += BATCH;
		bench_quiescent();
	}
	bt_defer_flush();
	w->n.callbacks = n;
}
#else
/* Never run: rcufree needs a deferred free (refused, see table.c). */
void role_rcufree(struct bench_worker *w) { (void)w; }
#endif

/* The bucket count, where the header can tell it (lfht); 0: unknown. */
#ifdef BENCH_HAS_BUCKET_COUNT
static unsigned long bucket_count(struct bench_table *bt) { return bt_bucket_count(bt); }
#else
static unsigned long bucket_count(struct bench_table *bt) { (void)bt; return 0; }
#endif

/* The harness's wrapper around a cds table, taken off the memory figures. */
#ifdef BENCH_TABLE_WRAPPED
#define BENCH_WRAPPER_SIZE sizeof(struct bench_table)
#else
#define BENCH_WRAPPER_SIZE 0
#endif

/* Memory outside malloc's heap, for the memory workload. */
#ifdef BENCH_HAS_HEAP_EXTRA
#define BENCH_HEAP_EXTRA bt_heap_extra
#else
#define BENCH_HEAP_EXTRA NULL
#endif

static void impl_quiescent(void) { bench_quiescent(); }
static void impl_online(void) { bench_online(); }
static void impl_offline(void) { bench_offline(); }
static void impl_register(void) { bt_register(); }
static void impl_unregister(void) { bt_unregister(); }
static void impl_barrier(void) { bt_barrier(); }
static struct bench_table *impl_new(unsigned long init, int mode) { return bt_new(init, mode); }
static int impl_destroy(struct bench_table *bt) { return bt_destroy(bt); }
static int impl_add_unique(struct bench_table *bt, uint64_t key) { return bt_add_unique(bt, key); }

const struct bench_impl bench_impl = {
	.name = BENCH_IMPL,
	.kind = BENCH_IMPL_KIND,
	.help = BENCH_IMPL_HELP,
	.note = BENCH_IMPL_NOTE,
	.pair = BENCH_IMPL_PAIR,
	.vs = BENCH_IMPL_VS,
	.native_batch = BENCH_NATIVE_BATCH,
	.cannot = {
		[NEED_GROW] = BENCH_NO_GROW,
		[NEED_RESIZE] = BENCH_NO_RESIZE,
		[NEED_ERASE] = BENCH_NO_ERASE,
		[NEED_WALK] = BENCH_NO_WALK,
		[NEED_DEFER_FREE] = BENCH_NO_DEFER_FREE,
		[NEED_DUP_ADD] = BENCH_NO_DUP_ADD,
	},
	.entry_size = sizeof(struct bench_entry),
	.wrapper_size = BENCH_WRAPPER_SIZE,
	.heap_extra = BENCH_HEAP_EXTRA,
	.register_thread = impl_register,
	.unregister_thread = impl_unregister,
	.online = impl_online,
	.offline = impl_offline,
	.quiescent = impl_quiescent,
	.barrier = impl_barrier,
	.new_table = impl_new,
	.destroy = impl_destroy,
	.add_unique = impl_add_unique,
	.bucket_count = bucket_count,
};
