/* SPDX-License-Identifier: MIT */
/*
 * The benchmark's table interface (bt_*) over the cds_lfht API. Included by
 * impl_lfht_*.h and impl_urcu_*.h after their flavour and table headers: the
 * two libraries share every name used here, so this one file drives both.
 * Entries are freed through call_rcu, as a real user would.
 */
#ifndef BENCH_TABLE_CDS_H
#define BENCH_TABLE_CDS_H

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench_common.h"

struct bench_entry {
	uint64_t key;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

/* A harness wrapper around the library's table (workload.c's memory
 * figures leave it out). */
#define BENCH_TABLE_WRAPPED 1
struct bench_table {
	struct cds_lfht *ht;
};

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
	bt->ht = cds_lfht_new(init_size, 1, 0, flags[auto_resize], NULL);
	if (!bt->ht) {
		free(bt);
		return NULL;
	}
	return bt;
}

/* Empties the table and destroys it; the caller is registered and online. */
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
	ret = cds_lfht_destroy(bt->ht, NULL);
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

static inline int bt_del(struct bench_table *bt, uint64_t key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	int deleted = 0;

	rcu_read_lock();
	cds_lfht_lookup(bt->ht, bench_hash(key), bt_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node && cds_lfht_del(bt->ht, node) == 0) {
		call_rcu(&caa_container_of(node, struct bench_entry, node)->rcu, bt_free_entry);
		deleted = 1;
	}
	rcu_read_unlock();
	return deleted;
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
