/* SPDX-License-Identifier: MIT */
/*
 * The benchmark's table interface (bt_*) over the cds_lfht API. Included by
 * impl_lfht_*.h and impl_urcu_*.h after their flavour and table headers: the
 * two libraries share every name used here, so this one file drives both.
 * Entries are freed through call_rcu, as a real user would, or, where the
 * implementation header defines BENCH_DEFER_RETIRE (lfht's default
 * implementations), through lfht's rcu_retire(): callbacks on the thread
 * that retired them (bt_defer()).
 */
#ifndef BENCH_TABLE_CDS_H
#define BENCH_TABLE_CDS_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench_common.h"

struct bench_entry {
	uint64_t key;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

/* A harness wrapper around the library's table (runs.c's memory
 * figures leave it out). */
#define BENCH_TABLE_WRAPPED 1
struct bench_table {
	struct cds_lfht *ht;
};

/* The bucket count (lfht; liburcu: 0, unknown), for harness.c's wait
 * for growth to end. */
#define BENCH_HAS_BUCKET_COUNT 1
static inline unsigned long bt_bucket_count(struct bench_table *bt)
{
	unsigned long n;

	rcu_read_lock();
	n = bench_nr_buckets(bt->ht);
	rcu_read_unlock();
	return n;
}

static inline void bt_register(void) { rcu_register_thread(); }
static inline void bt_unregister(void) { rcu_unregister_thread(); }
static inline void bt_barrier(void) { rcu_barrier(); }

static int bt_match(struct cds_lfht_node *node, const void *key)
{
	const struct bench_entry *e = caa_container_of(node, struct bench_entry, node);

	return e->key == *(const uint64_t *)key;
}

static void bt_free_entry(struct rcu_head *head)
{
	free(caa_container_of(head, struct bench_entry, rcu));
}

/* A removed entry's free, after a grace period. */
#ifdef BENCH_DEFER_RETIRE
static inline void bt_defer(struct rcu_head *head) { rcu_retire(head, bt_free_entry); }
/* The calling thread's retired callbacks, before it stops. */
static inline void bt_defer_flush(void) { rcu_retire_barrier(); }
#else
static inline void bt_defer(struct rcu_head *head) { call_rcu(head, bt_free_entry); }
/* Nothing per thread: the main thread's rcu_barrier() waits for all. */
static inline void bt_defer_flush(void) { }
#endif

/*
 * An lfht built with BENCH_LFHT_DENSITY (impl_lfht_*.h) keeps that many
 * buckets per node: or'ed into every table's flags, and a table sized for
 * N keys starts with that many times N buckets.
 */
#ifdef BENCH_LFHT_DENSITY
#define BENCH_DENSITY_FLAG LFHT_BUCKETS_PER_NODE(BENCH_LFHT_DENSITY)
#define BENCH_DENSITY BENCH_LFHT_DENSITY
#else
#define BENCH_DENSITY_FLAG 0
#define BENCH_DENSITY 1
#endif

/*
 * auto_resize: 0 none, 1 CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING (the
 * default: liburcu 0.13 grows on chain length alone only up to a point, and
 * fills of 2^22 keys then crawl), 2 CDS_LFHT_AUTO_RESIZE alone.
 */
static inline struct bench_table *bt_new(unsigned long init_size, int auto_resize)
{
	static const int flags[3] = { 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				      CDS_LFHT_AUTO_RESIZE };

	struct bench_table *bt = malloc(sizeof(*bt));

	if (!bt)
		return NULL;
	bt->ht = cds_lfht_new(init_size * BENCH_DENSITY, 1, 0,
			      flags[auto_resize] | BENCH_DENSITY_FLAG, NULL);
	if (!bt->ht) {
		free(bt);
		return NULL;
	}
	return bt;
}

/* Empties the table and destroys it; the caller is registered and online,
 * and is again when it returns. */
static inline int bt_destroy(struct bench_table *bt)
{
	struct cds_lfht_iter iter;
	struct bench_entry *e;
	int ret;

	rcu_read_lock();
	cds_lfht_for_each_entry(bt->ht, &iter, e, node) {
		if (cds_lfht_del(bt->ht, &e->node) == 0)
			call_rcu(&e->rcu, bt_free_entry);
	}
	rcu_read_unlock();
	rcu_barrier();
	/* Offline (QSBR): liburcu's destroy waits for a resize in progress,
	 * which may wait for a grace period that an online caller holds up
	 * (seen after longread: a hang). lfht allows either. */
	bench_offline();
	ret = cds_lfht_destroy(bt->ht, NULL);
	bench_online();
	free(bt);
	return ret;
}

/* One read-side critical section per lookup, as most users write it. */
static inline int bt_lookup(struct bench_table *bt, uint64_t key)
{
	struct cds_lfht_iter iter;
	int found;

	rcu_read_lock();
	cds_lfht_lookup(bt->ht, bench_hash(key), bt_match, &key, &iter);
	found = cds_lfht_iter_get_node(&iter) != NULL;
	rcu_read_unlock();
	return found;
}

/*
 * n lookups in one read-side critical section; returns how many were found.
 * lfht_lookup_batch() when the lfht being built has it (BENCH_LFHT_BATCH,
 * set by impl_lfht_*.h), else one cds_lfht_lookup per key: the baseline
 * that liburcu and an lfht without it run.
 */
#define BENCH_BATCH_MAX 64

#ifdef BENCH_LFHT_BATCH
#define BENCH_NATIVE_BATCH 1
static inline unsigned bt_lookup_n(struct cds_lfht *ht, unsigned n, const uint64_t *keys)
{
	unsigned long hashes[BENCH_BATCH_MAX];
	const void *key_ptrs[BENCH_BATCH_MAX];
	struct cds_lfht_iter iters[BENCH_BATCH_MAX];
	unsigned found = 0;

	for (unsigned i = 0; i < n; i++) {
		hashes[i] = bench_hash(keys[i]);
		key_ptrs[i] = &keys[i];
	}
	lfht_lookup_batch(ht, n, hashes, bt_match, key_ptrs, iters);
	for (unsigned i = 0; i < n; i++)
		found += cds_lfht_iter_get_node(&iters[i]) != NULL;
	return found;
}
#else
#define BENCH_NATIVE_BATCH 0
static inline unsigned bt_lookup_n(struct cds_lfht *ht, unsigned n, const uint64_t *keys)
{
	struct cds_lfht_iter iter;
	unsigned found = 0;

	for (unsigned i = 0; i < n; i++) {
		cds_lfht_lookup(ht, bench_hash(keys[i]), bt_match, &keys[i], &iter);
		found += cds_lfht_iter_get_node(&iter) != NULL;
	}
	return found;
}
#endif

static inline unsigned bt_lookup_batch(struct bench_table *bt, unsigned n,
				       const uint64_t *keys)
{
	unsigned found;

	rcu_read_lock();
	found = bt_lookup_n(bt->ht, n, keys);
	rcu_read_unlock();
	return found;
}

static inline int bt_add_unique(struct bench_table *bt, uint64_t key)
{
	struct bench_entry *e = malloc(sizeof(*e));
	struct cds_lfht_node *got;

	if (!e)
		abort();
	e->key = key;
	cds_lfht_node_init(&e->node);
	rcu_read_lock();
	got = cds_lfht_add_unique(bt->ht, bench_hash(key), bt_match, &key, &e->node);
	rcu_read_unlock();
	if (got != &e->node) {
		free(e);
		return 0;
	}
	return 1;
}

/* Removes the entry of key and returns it, or NULL: in one walk where the
 * implementation deletes by key (lfht_del_key()), else as liburcu code
 * does, a lookup then a del. Inside a read-side section. */
static inline struct cds_lfht_node *bt_remove(struct bench_table *bt, uint64_t key)
{
#ifdef BENCH_DEL_KEY
	return lfht_del_key(bt->ht, bench_hash(key), bt_match, &key);
#else
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(bt->ht, bench_hash(key), bt_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	return node && cds_lfht_del(bt->ht, node) == 0 ? node : NULL;
#endif
}

static inline int bt_del(struct bench_table *bt, uint64_t key)
{
	struct cds_lfht_node *node;

	rcu_read_lock();
	node = bt_remove(bt, key);
	if (node)
		bt_defer(&caa_container_of(node, struct bench_entry, node)->rcu);
	rcu_read_unlock();
	return node != NULL;
}

/* Adds a new entry, even where the key is there already (a duplicate). */
#define BENCH_HAS_ADD_DUP 1
static inline void bt_add(struct bench_table *bt, uint64_t key)
{
	struct bench_entry *e = malloc(sizeof(*e));

	if (!e)
		abort();
	e->key = key;
	cds_lfht_node_init(&e->node);
	rcu_read_lock();
	cds_lfht_add(bt->ht, bench_hash(key), &e->node);
	rcu_read_unlock();
}

/* Inserts or replaces; returns 1 when an old entry was replaced. */
static inline int bt_add_replace(struct bench_table *bt, uint64_t key)
{
	struct bench_entry *e = malloc(sizeof(*e));
	struct cds_lfht_node *old;

	if (!e)
		abort();
	e->key = key;
	cds_lfht_node_init(&e->node);
	rcu_read_lock();
	old = cds_lfht_add_replace(bt->ht, bench_hash(key), bt_match, &key, &e->node);
	rcu_read_unlock();
	if (old)
		bt_defer(&caa_container_of(old, struct bench_entry, node)->rcu);
	return old != NULL;
}

/*
 * longread: walks the whole table up to walks times inside one read-side
 * critical section, stopping early once *stop is set; returns the nodes
 * seen. A reader that holds grace periods up for a long time.
 */
#define BENCH_HAS_WALK 1
static inline unsigned long bt_walk_many(struct bench_table *bt, unsigned walks,
					 atomic_int *stop)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long seen = 0;

	rcu_read_lock();
	/* Relaxed: a plain flag (bench.h's stopped()). */
	for (unsigned i = 0; i < walks && !atomic_load_explicit(stop, memory_order_relaxed);
	     i++)
		cds_lfht_for_each(bt->ht, &iter, node)
			seen++;
	rcu_read_unlock();
	return seen;
}

/*
 * flush: one pass of a flush by restarted iteration. Inside one read-side
 * section, from cds_lfht_first(), deletes every node it meets up to max
 * (freed through call_rcu); returns how many it deleted. The caller starts
 * again from the first node until a pass deletes nothing: each pass walks
 * over whatever the earlier ones emptied.
 */
static inline unsigned long bt_flush_pass(struct bench_table *bt, unsigned long max)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	rcu_read_lock();
	cds_lfht_first(bt->ht, &iter);
	while (n < max && (node = cds_lfht_iter_get_node(&iter)) != NULL) {
		if (cds_lfht_del(bt->ht, node) == 0) {
			bt_defer(&caa_container_of(node, struct bench_entry, node)->rcu);
			n++;
		}
		cds_lfht_next(bt->ht, &iter);
	}
	rcu_read_unlock();
	return n;
}

/* rcufree: a fresh object to a callback that frees it. */
static inline void bt_defer_free_new(void)
{
	struct bench_entry *e = malloc(sizeof(*e));

	if (!e)
		abort();
	e->key = 0;
	bt_defer(&e->rcu);
}

/*
 * Resizes and returns once the table has the new size. liburcu's resize is
 * synchronous; lfht's may finish in its worker, so wait (bounded) until the
 * bucket count shows it, passing quiescent states meanwhile.
 */
static inline void bt_resize(struct bench_table *bt, unsigned long size)
{
	double deadline = bench_now() + 5.0;
	unsigned long now_size;

	cds_lfht_resize(bt->ht, size);
	for (;;) {
		rcu_read_lock();
		now_size = bench_nr_buckets(bt->ht);
		rcu_read_unlock();
		if (now_size == 0 || now_size == size || bench_now() > deadline)
			break;
		bench_quiescent();
		sched_yield();
	}
}

#endif /* BENCH_TABLE_CDS_H */
