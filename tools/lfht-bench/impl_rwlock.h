/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench implementation header: the plain baseline, a chained hash table
 * behind one pthread_rwlock_t. Lookups take the lock shared, updates take it
 * exclusive and free at once (no grace periods needed). With auto-resize it
 * doubles when the load factor passes 2, rehashing under the write lock.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench_common.h"

#define BENCH_IMPL "rwlock"
#define BENCH_IMPL_KIND "extra"
#define BENCH_IMPL_HELP "a chained hash table behind one pthread_rwlock_t"

#define BENCH_NO_DEFER_FREE "frees at once under its write lock: nothing is deferred"

struct bench_entry {
	uint64_t key;
	struct bench_entry *next;
	unsigned long hash;
	void *unused[2];	/* same size as the RCU tables' entries */
};

struct bench_table {
	pthread_rwlock_t lock;
	struct bench_entry **buckets;
	unsigned long size, count;
	int auto_resize;
};

static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
static inline void bt_register(void) { }
static inline void bt_unregister(void) { }
static inline void bt_barrier(void) { }

static inline struct bench_table *bt_new(unsigned long init_size, int auto_resize)
{
	struct bench_table *bt = malloc(sizeof(*bt));

	if (!bt)
		return NULL;
	bt->buckets = calloc(init_size, sizeof(bt->buckets[0]));
	if (!bt->buckets) {
		free(bt);
		return NULL;
	}
	pthread_rwlock_init(&bt->lock, NULL);
	bt->size = init_size;
	bt->count = 0;
	bt->auto_resize = auto_resize;
	return bt;
}

static inline int bt_destroy(struct bench_table *bt)
{
	for (unsigned long i = 0; i < bt->size; i++) {
		struct bench_entry *e = bt->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e);
		}
	}
	pthread_rwlock_destroy(&bt->lock);
	free(bt->buckets);
	free(bt);
	return 0;
}

/* Moves every entry into a new bucket array; write lock held. */
static inline void bt_rehash_locked(struct bench_table *bt, unsigned long size)
{
	struct bench_entry **nb = calloc(size, sizeof(nb[0]));

	if (!nb)
		return;
	for (unsigned long i = 0; i < bt->size; i++) {
		struct bench_entry *e = bt->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = nb[e->hash & (size - 1)];
			nb[e->hash & (size - 1)] = e;
		}
	}
	free(bt->buckets);
	bt->buckets = nb;
	bt->size = size;
}

static inline struct bench_entry **bt_find_locked(struct bench_table *bt, uint64_t key,
						  unsigned long hash)
{
	struct bench_entry **pp = &bt->buckets[hash & (bt->size - 1)];

	while (*pp && (*pp)->key != key)
		pp = &(*pp)->next;
	return pp;
}

static inline int bt_lookup(struct bench_table *bt, uint64_t key)
{
	int found;

	pthread_rwlock_rdlock(&bt->lock);
	found = *bt_find_locked(bt, key, bench_hash(key)) != NULL;
	pthread_rwlock_unlock(&bt->lock);
	return found;
}

/* n lookups under one read lock; returns how many were found. */
static inline unsigned bt_lookup_batch(struct bench_table *bt, unsigned n,
				       const uint64_t *keys)
{
	unsigned found = 0;

	pthread_rwlock_rdlock(&bt->lock);
	for (unsigned i = 0; i < n; i++)
		found += *bt_find_locked(bt, keys[i], bench_hash(keys[i])) != NULL;
	pthread_rwlock_unlock(&bt->lock);
	return found;
}

/* An entry for key, not linked yet. */
static inline struct bench_entry *bt_entry_new(uint64_t key)
{
	struct bench_entry *e = malloc(sizeof(*e));

	if (!e)
		abort();
	e->key = key;
	e->hash = bench_hash(key);
	return e;
}

/* One more entry was linked: counts it, and doubles the table past a load
 * factor of 2 with auto-resize; write lock held. */
static inline void bt_count_added_locked(struct bench_table *bt)
{
	bt->count++;
	if (bt->auto_resize && bt->count > 2 * bt->size)
		bt_rehash_locked(bt, 2 * bt->size);
}

static inline int bt_add_unique(struct bench_table *bt, uint64_t key)
{
	struct bench_entry *e = bt_entry_new(key), **pp;
	int added = 0;

	pthread_rwlock_wrlock(&bt->lock);
	pp = bt_find_locked(bt, key, e->hash);
	if (!*pp) {
		e->next = NULL;
		*pp = e;
		added = 1;
		bt_count_added_locked(bt);
	}
	pthread_rwlock_unlock(&bt->lock);
	if (!added)
		free(e);
	return added;
}

static inline int bt_del(struct bench_table *bt, uint64_t key)
{
	struct bench_entry **pp, *e;

	pthread_rwlock_wrlock(&bt->lock);
	pp = bt_find_locked(bt, key, bench_hash(key));
	e = *pp;
	if (e) {
		*pp = e->next;
		bt->count--;
	}
	pthread_rwlock_unlock(&bt->lock);
	free(e);
	return e != NULL;
}

/* Inserts or replaces; returns 1 when an old entry was replaced. */
static inline int bt_add_replace(struct bench_table *bt, uint64_t key)
{
	struct bench_entry *e = bt_entry_new(key), **pp, *old;

	pthread_rwlock_wrlock(&bt->lock);
	pp = bt_find_locked(bt, key, e->hash);
	old = *pp;
	e->next = old ? old->next : NULL;
	*pp = e;
	if (!old)
		bt_count_added_locked(bt);
	pthread_rwlock_unlock(&bt->lock);
	free(old);
	return old != NULL;
}

static inline void bt_resize(struct bench_table *bt, unsigned long size)
{
	pthread_rwlock_wrlock(&bt->lock);
	bt_rehash_locked(bt, size);
	pthread_rwlock_unlock(&bt->lock);
}
