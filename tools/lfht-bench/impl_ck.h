/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench implementation header: Concurrency Kit 0.7's ck_hs, an
 * open-addressing set of pointers, in single-writer many-reader mode
 * (CK_HS_MODE_SPMC | CK_HS_MODE_OBJECT), with ck_epoch for safe reclamation.
 *
 * - Writers are serialised by one pthread mutex (ck_hs allows one writer).
 * - Every thread registers a ck_epoch record; a lookup is one
 *   ck_epoch_begin/end section, as the read side of an RCU table is one
 *   read-side critical section.
 * - A removed or replaced entry, and every bucket array that ck_hs drops
 *   when it grows (its allocator's free with defer set), goes to
 *   ck_epoch_call on the calling thread's record. That thread polls its
 *   record every CK_POLL_EVERY calls (ck_epoch_poll runs what is safe, never
 *   waits), and waits (ck_epoch_barrier) once CK_PENDING_MAX are queued, so
 *   memory stays bounded; always outside the mutex and outside any section.
 * - ck_hs cannot shrink below its entry count and has no bucket count to
 *   resize to, so it cannot run churn (see BENCH_NO_RESIZE); it grows on its
 *   own (doubling once half full), whatever auto_resize says.
 *
 * Hash: bench_hash() of the key, as for every implementation, handed to
 * ck_hs explicitly; the hash callback (used when ck_hs rehashes on growth)
 * computes the same. Entries are malloc'ed, so never NULL (CK_HS_EMPTY) nor
 * ~0 (CK_HS_TOMBSTONE), and pointer-aligned.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ck_epoch.h>
#include <ck_hs.h>

#include "bench_common.h"

#define BENCH_IMPL "ck"
#define BENCH_IMPL_KIND "extra"
#define BENCH_IMPL_HELP \
	"Concurrency Kit 0.7 ck_hs (SPMC, writers behind one mutex) with " \
	"ck_epoch (needs libck-dev)"

#define BENCH_NO_RESIZE "ck_hs cannot shrink below its entry count (open addressing) " \
	"and takes no bucket count to resize to"

/* Poll the caller's epoch record every this many deferred frees, and wait
 * for a grace period when this many are still pending. */
#define CK_POLL_EVERY 64
#define CK_PENDING_MAX 65536

struct bench_entry {
	uint64_t key;		/* first: lookups pass a pointer to a bare key */
	ck_epoch_entry_t epoch;
	void *unused[2];	/* same size as the RCU tables' entries */
};

struct bench_table {
	ck_hs_t hs;
	pthread_mutex_t lock;	/* serialises writers: ck_hs is SPMC */
};

static ck_epoch_t bench_ck_epoch;
static pthread_once_t bench_ck_once = PTHREAD_ONCE_INIT;
static _Thread_local ck_epoch_record_t *bench_ck_self;
static _Thread_local unsigned bench_ck_calls;

static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }

static void bench_ck_init(void)
{
	ck_epoch_init(&bench_ck_epoch);
}

static inline void bt_register(void)
{
	ck_epoch_record_t *rec;

	pthread_once(&bench_ck_once, bench_ck_init);
	rec = ck_epoch_recycle(&bench_ck_epoch, NULL);
	if (!rec) {
		/* Records are never freed (ck_epoch keeps them listed);
		 * recycling bounds them by the number of live threads. */
		rec = aligned_alloc(CK_MD_CACHELINE, (sizeof(*rec) + CK_MD_CACHELINE - 1) /
				    CK_MD_CACHELINE * CK_MD_CACHELINE);
		if (!rec)
			abort();
		ck_epoch_register(&bench_ck_epoch, rec, NULL);
	}
	bench_ck_self = rec;
	bench_ck_calls = 0;
}

/* Runs every callback this thread deferred, then gives the record back. */
static inline void bt_unregister(void)
{
	ck_epoch_barrier(bench_ck_self);
	ck_epoch_unregister(bench_ck_self);
	bench_ck_self = NULL;
}

static inline void bt_barrier(void)
{
	ck_epoch_barrier(bench_ck_self);
}

/* After a deferred free: let the record make progress, bounded. The caller
 * holds no lock and is in no epoch section. */
static inline void ck_maybe_poll(void)
{
	if (++bench_ck_calls % CK_POLL_EVERY)
		return;
	if (!ck_epoch_poll(bench_ck_self) && bench_ck_self->n_pending >= CK_PENDING_MAX)
		ck_epoch_barrier(bench_ck_self);
}

static void ck_free_entry(ck_epoch_entry_t *ent)
{
	free((char *)ent - offsetof(struct bench_entry, epoch));
}

static inline void ck_retire_entry(struct bench_entry *e)
{
	ck_epoch_call(bench_ck_self, &e->epoch, ck_free_entry);
}

/*
 * ck_hs's allocator. Each block carries a header in front holding the
 * epoch entry, so that a bucket array ck_hs drops while readers may still
 * walk it (defer == true) is freed after a grace period.
 */
union ck_block_head {
	ck_epoch_entry_t epoch;
	max_align_t align;
};

static void *ck_block_malloc(size_t size)
{
	union ck_block_head *h = malloc(sizeof(*h) + size);

	return h ? h + 1 : NULL;
}

static void ck_block_free_now(ck_epoch_entry_t *ent)
{
	free((union ck_block_head *)(void *)ent);
}

static void ck_block_free(void *p, size_t size, bool defer)
{
	union ck_block_head *h = (union ck_block_head *)p - 1;

	(void)size;
	if (!p)
		return;
	if (defer)
		ck_epoch_call(bench_ck_self, &h->epoch, ck_block_free_now);
	else
		free(h);
}

static void *ck_block_realloc(void *p, size_t old_size, size_t new_size, bool defer)
{
	void *q = ck_block_malloc(new_size);

	if (q && p)
		memcpy(q, p, old_size < new_size ? old_size : new_size);
	if (q)
		ck_block_free(p, old_size, defer);
	return q;
}

static struct ck_malloc ck_allocator = {
	.malloc = ck_block_malloc,
	.realloc = ck_block_realloc,
	.free = ck_block_free,
};

static unsigned long ck_hash_cb(const void *object, unsigned long seed)
{
	(void)seed;
	return bench_hash(*(const uint64_t *)object);
}

/* Objects and lookup keys both start with the uint64_t key. */
static bool ck_compare_cb(const void *a, const void *b)
{
	return *(const uint64_t *)a == *(const uint64_t *)b;
}

static inline struct bench_table *bt_new(unsigned long init_size, int auto_resize)
{
	struct bench_table *bt = malloc(sizeof(*bt));

	(void)auto_resize;
	if (!bt)
		return NULL;
	if (!ck_hs_init(&bt->hs, CK_HS_MODE_SPMC | CK_HS_MODE_OBJECT, ck_hash_cb,
			ck_compare_cb, &ck_allocator, init_size, 0)) {
		free(bt);
		return NULL;
	}
	pthread_mutex_init(&bt->lock, NULL);
	return bt;
}

/* No other thread uses the table any more. */
static inline int bt_destroy(struct bench_table *bt)
{
	ck_hs_iterator_t it = CK_HS_ITERATOR_INITIALIZER;
	void *obj;

	while (ck_hs_next(&bt->hs, &it, &obj))
		free(obj);
	ck_hs_destroy(&bt->hs);
	ck_epoch_barrier(bench_ck_self);
	pthread_mutex_destroy(&bt->lock);
	free(bt);
	return 0;
}

static inline int bt_lookup(struct bench_table *bt, uint64_t key)
{
	void *got;

	ck_epoch_begin(bench_ck_self, NULL);
	got = ck_hs_get(&bt->hs, bench_hash(key), &key);
	ck_epoch_end(bench_ck_self, NULL);
	return got != NULL;
}

/* n lookups in one epoch section; returns how many were found. */
static inline unsigned bt_lookup_batch(struct bench_table *bt, unsigned n,
				       const uint64_t *keys)
{
	unsigned found = 0;

	ck_epoch_begin(bench_ck_self, NULL);
	for (unsigned i = 0; i < n; i++)
		found += ck_hs_get(&bt->hs, bench_hash(keys[i]), &keys[i]) != NULL;
	ck_epoch_end(bench_ck_self, NULL);
	return found;
}

static inline struct bench_entry *ck_new_entry(uint64_t key)
{
	struct bench_entry *e = malloc(sizeof(*e));

	if (!e)
		abort();
	e->key = key;
	return e;
}

static inline int bt_add_unique(struct bench_table *bt, uint64_t key)
{
	struct bench_entry *e = ck_new_entry(key);
	bool added;

	pthread_mutex_lock(&bt->lock);
	/* ck_hs_put inserts only when no equal object is there. */
	added = ck_hs_put(&bt->hs, bench_hash(key), e);
	pthread_mutex_unlock(&bt->lock);
	if (!added)
		free(e);
	ck_maybe_poll();
	return added;
}

/* Inserts or replaces; returns 1 when an old entry was replaced. */
static inline int bt_add_replace(struct bench_table *bt, uint64_t key)
{
	struct bench_entry *e = ck_new_entry(key);
	void *old = NULL;

	pthread_mutex_lock(&bt->lock);
	if (!ck_hs_set(&bt->hs, bench_hash(key), e, &old))
		abort();
	pthread_mutex_unlock(&bt->lock);
	if (old)
		ck_retire_entry(old);
	ck_maybe_poll();
	return old != NULL;
}

static inline int bt_del(struct bench_table *bt, uint64_t key)
{
	void *old;

	pthread_mutex_lock(&bt->lock);
	old = ck_hs_remove(&bt->hs, bench_hash(key), &key);
	pthread_mutex_unlock(&bt->lock);
	if (old) {
		ck_retire_entry(old);
		ck_maybe_poll();
	}
	return old != NULL;
}

/* rcufree: the ck_epoch_call equivalent of call_rcu + free. Callbacks run
 * in the queueing thread's own polls (ck_epoch has no callback thread). */
static inline void bt_defer_free_new(void)
{
	struct bench_entry *e = ck_new_entry(0);

	ck_retire_entry(e);
	ck_maybe_poll();
}

/* Runs this thread's pending callbacks (end of an rcufree worker). */
static inline void bt_defer_flush(void)
{
	ck_epoch_barrier(bench_ck_self);
}

/* Unused: churn is not run on ck (BENCH_NO_RESIZE). */
static inline void bt_resize(struct bench_table *bt, unsigned long size)
{
	(void)bt;
	(void)size;
}
