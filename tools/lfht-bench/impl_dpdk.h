/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench implementation header: DPDK's rte_hash (Debian 12: DPDK 22.11),
 * a cuckoo hash of 8-slot buckets whose 16-bit signatures settle most misses
 * in the bucket's cache line, with lock-free readers
 * (RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF) and its own QSBR RCU
 * (rte_rcu_qsbr) to recycle the key slots of deleted keys.
 *
 * - Fixed capacity: rte_hash never resizes. A table made for N keys holds
 *   2N entries (at least 2^16): as a pre-sized ck_hs, half full with N
 *   keys, and room for addel's up to 2N keys and for deleted slots still
 *   waiting for their grace period (an add that finds no free slot lets a
 *   grace period pass and retries, see rte_bench_full). It cannot run the
 *   workloads that start from one bucket and grow (fill, autoread, pace)
 *   nor resize (churn): BENCH_NO_GROW, BENCH_NO_RESIZE. The memory
 *   workload makes it for the N keys and counts what rte_malloc holds
 *   (bt_heap_extra) from before the table was made.
 * - A lookup holds nothing and writes nothing shared: readers are
 *   lock-free. Every thread is a reader of one rte_rcu_qsbr variable: it
 *   reports a quiescent state where the RCU tables do (bench_quiescent)
 *   and goes offline around waits.
 * - Writers are serialised by one pthread mutex, as for ck_hs: rte_hash's
 *   own multi-writer mode (RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD) keeps its
 *   free-slot caches per EAL lcore and so cannot serve the benchmark's
 *   plain pthreads (non-EAL threads have no lcore id).
 * - Deletes go through the table's defer queue (rte_hash_rcu_qsbr_add, DQ
 *   mode): a key slot is reused only after every reader passed a quiescent
 *   state; the writer reclaims what is due on its own, never waiting.
 * - The item lives in the table: its 8-byte key and 8-byte data word sit in
 *   rte_hash's key store; nothing is allocated per item. add_unique is a
 *   lookup then an add under the writers' mutex (rte_hash_add_key updates
 *   the data of a key that is there); add_replace stores new data.
 * - Hash: bench_hash() of the key, computed by the caller as for every
 *   implementation (the *_with_hash calls; rte_hash uses 32 bits of it).
 *   Batches: rte_hash_lookup_with_hash_bulk_data, 16 keys a call.
 *
 * EAL: started once, at the first table (its memory size depends on the
 * capacity), with --no-huge --no-pci --no-shconf -l 0 and no telemetry.
 * rte_eal_init pins the calling thread to CPU 0 and threads created later
 * inherit that; the affinity the process had is restored right after, so
 * the workers run on every CPU.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "bench_common.h"

#define BENCH_IMPL "dpdk"
#define BENCH_IMPL_KIND "peer"
#define BENCH_IMPL_HELP \
	"DPDK 22.11 rte_hash, fixed capacity 2N entries (at least 2^16) for N " \
	"keys, never resized; lock-free readers (RW_CONCURRENCY_LF) that hold " \
	"nothing, deleted slots recycled through rte_rcu_qsbr; writers behind " \
	"one mutex; key and data word stored in the table; batches: " \
	"rte_hash_lookup_with_hash_bulk_data (needs libdpdk-dev)"
#define BENCH_IMPL_NOTE \
	"rte_hash, FIXED capacity 2N entries (at least 2^16) for a table of N " \
	"keys, never resized; a lookup holds nothing (lock-free readers, key " \
	"slots recycled through rte_rcu_qsbr); writers behind one mutex; batch: " \
	"rte_hash_lookup_with_hash_bulk_data"

#define BENCH_NO_GROW "rte_hash has a fixed capacity: it cannot start at 1 bucket and grow"
#define BENCH_NO_RESIZE "rte_hash has a fixed capacity: it cannot be resized"
#define BENCH_NO_DEFER_FREE "rte_hash has no call_rcu: its defer queue recycles its own key slots " \
	"(measured inside mixed, addel, rw1 and hot10)"

/* Readers of the one rte_rcu_qsbr variable: thread ids below this. */
#define RTE_BENCH_MAX_THREADS 128
#define RTE_MIN_CAPACITY 65536UL

/* The memory workload's "entry alone": what the key store holds per item. */
struct bench_entry {
	uint64_t key;
	uint64_t data;
};

struct bench_table {
	struct rte_hash *h;
	pthread_mutex_t lock;	/* serialises writers (see above) */
};

static pthread_once_t rte_bench_once = PTHREAD_ONCE_INIT;
static struct rte_rcu_qsbr *rte_bench_qsbr;
static atomic_uint_least64_t rte_bench_ids[RTE_BENCH_MAX_THREADS / 64];
static _Thread_local unsigned rte_bench_self = RTE_BENCH_MAX_THREADS;
static atomic_uint rte_bench_tables;
static int rte_bench_eal_up;
static pthread_mutex_t rte_bench_eal_lock = PTHREAD_MUTEX_INITIALIZER;

static inline void bench_quiescent(void) { rte_rcu_qsbr_quiescent(rte_bench_qsbr, rte_bench_self); }
static inline void bench_offline(void) { rte_rcu_qsbr_thread_offline(rte_bench_qsbr, rte_bench_self); }
static inline void bench_online(void) { rte_rcu_qsbr_thread_online(rte_bench_qsbr, rte_bench_self); }

static void rte_bench_die(const char *what)
{
	fprintf(stderr, "lfht-bench-dpdk: %s failed: %s\n", what, rte_strerror(rte_errno));
	exit(1);
}

/* The QSBR variable needs no EAL: plain cache-aligned memory. */
static void rte_bench_init(void)
{
	size_t size = rte_rcu_qsbr_get_memsize(RTE_BENCH_MAX_THREADS);

	rte_bench_qsbr = aligned_alloc(RTE_CACHE_LINE_SIZE,
				       (size + RTE_CACHE_LINE_SIZE - 1) & ~(size_t)(RTE_CACHE_LINE_SIZE - 1));
	if (!rte_bench_qsbr || rte_rcu_qsbr_init(rte_bench_qsbr, RTE_BENCH_MAX_THREADS) != 0)
		rte_bench_die("rte_rcu_qsbr_init");
}

/* Starts EAL once, with memory for a table of `capacity` entries and
 * its defer queue, and gives the caller back its CPUs. */
static void rte_bench_eal(unsigned long capacity)
{
	char mem[32];
	char *argv[] = { "lfht-bench-dpdk", "--no-huge", "--no-pci", "--no-shconf",
			 "--no-telemetry", "-l", "0", "--log-level=4", "-m", mem, NULL };
	cpu_set_t cpus;

	pthread_mutex_lock(&rte_bench_eal_lock);
	if (!rte_bench_eal_up) {
		/* About 80 bytes per entry (key store, buckets, free ring, defer
		 * queue), with room for a second table of the memory workload. */
		snprintf(mem, sizeof(mem), "%lu", 128 + 2 * (capacity * 80 >> 20));
		if (sched_getaffinity(0, sizeof(cpus), &cpus) != 0)
			CPU_ZERO(&cpus);
		if (rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv) < 0)
			rte_bench_die("rte_eal_init");
		if (CPU_COUNT(&cpus) > 0 && sched_setaffinity(0, sizeof(cpus), &cpus) != 0) {
			perror("lfht-bench-dpdk: sched_setaffinity");
			exit(1);
		}
		rte_bench_eal_up = 1;
	}
	pthread_mutex_unlock(&rte_bench_eal_lock);
}

/* A free reader id; registered and online. */
static inline void bt_register(void)
{
	pthread_once(&rte_bench_once, rte_bench_init);
	for (unsigned i = 0; i < RTE_BENCH_MAX_THREADS; i++) {
		atomic_uint_least64_t *word = &rte_bench_ids[i / 64];
		uint64_t bit = UINT64_C(1) << (i % 64);

		/* Relaxed: the id is only a slot number; rte_rcu_qsbr orders
		 * its own registration. */
		if (!(atomic_fetch_or_explicit(word, bit, memory_order_relaxed) & bit)) {
			rte_bench_self = i;
			break;
		}
	}
	if (rte_bench_self == RTE_BENCH_MAX_THREADS) {
		fprintf(stderr, "lfht-bench-dpdk: more than %d threads\n", RTE_BENCH_MAX_THREADS);
		exit(1);
	}
	rte_rcu_qsbr_thread_register(rte_bench_qsbr, rte_bench_self);
	rte_rcu_qsbr_thread_online(rte_bench_qsbr, rte_bench_self);
}

static inline void bt_unregister(void)
{
	unsigned i = rte_bench_self;

	rte_rcu_qsbr_thread_offline(rte_bench_qsbr, i);
	rte_rcu_qsbr_thread_unregister(rte_bench_qsbr, i);
	atomic_fetch_and_explicit(&rte_bench_ids[i / 64], ~(UINT64_C(1) << (i % 64)),
				  memory_order_relaxed);
	rte_bench_self = RTE_BENCH_MAX_THREADS;
}

/* Unused: rcufree and memory are refused. */
static inline void bt_barrier(void) { }

static uint32_t rte_bench_hash_cb(const void *key, uint32_t len, uint32_t init)
{
	uint64_t k;

	(void)len;
	(void)init;
	memcpy(&k, key, sizeof(k));
	return (uint32_t)bench_hash(k);
}

static int rte_bench_cmp_cb(const void *a, const void *b, size_t len)
{
	(void)len;
	return *(const uint64_t *)a != *(const uint64_t *)b;
}

static inline struct bench_table *bt_new(unsigned long init_size, int auto_resize)
{
	unsigned long capacity = 2 * init_size > RTE_MIN_CAPACITY ? 2 * init_size : RTE_MIN_CAPACITY;
	struct bench_table *bt;
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters params = {
		.name = name,
		.entries = (uint32_t)capacity,
		.key_len = sizeof(uint64_t),
		.hash_func = rte_bench_hash_cb,
		.socket_id = SOCKET_ID_ANY,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	struct rte_hash_rcu_config rcu = {
		.v = rte_bench_qsbr,
		.mode = RTE_HASH_QSBR_MODE_DQ,
	};

	(void)auto_resize;
	rte_bench_eal(capacity);
	bt = malloc(sizeof(*bt));
	if (!bt)
		return NULL;
	/* Names are unique per EAL instance. */
	snprintf(name, sizeof(name), "lfht-bench-%u",
		 atomic_fetch_add_explicit(&rte_bench_tables, 1, memory_order_relaxed));
	bt->h = rte_hash_create(&params);
	if (!bt->h)
		rte_bench_die("rte_hash_create");
	rte_hash_set_cmp_func(bt->h, rte_bench_cmp_cb);
	if (rte_hash_rcu_qsbr_add(bt->h, &rcu) != 0)
		rte_bench_die("rte_hash_rcu_qsbr_add");
	pthread_mutex_init(&bt->lock, NULL);
	return bt;
}

/* The memory workload: the table's memory is EAL's (rte_malloc), not
 * malloc's; what rte_malloc holds is counted into the heap as malloc's
 * is. 0 before EAL starts. */
#define BENCH_HAS_HEAP_EXTRA 1
static inline long bt_heap_extra(void)
{
	struct rte_malloc_socket_stats st;
	long bytes = 0;
	int up;

	pthread_mutex_lock(&rte_bench_eal_lock);
	up = rte_bench_eal_up;
	pthread_mutex_unlock(&rte_bench_eal_lock);
	if (!up)
		return 0;
	for (unsigned i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
			bytes += (long)st.heap_allocsz_bytes;
	return bytes;
}

static inline int bt_destroy(struct bench_table *bt)
{
	rte_hash_free(bt->h);
	pthread_mutex_destroy(&bt->lock);
	free(bt);
	return 0;
}

static inline int bt_lookup(struct bench_table *bt, uint64_t key)
{
	void *data;

	return rte_hash_lookup_with_hash_data(bt->h, &key, (hash_sig_t)bench_hash(key), &data) >= 0;
}

/* n (at most RTE_HASH_LOOKUP_BULK_MAX) lookups in one call. */
static inline unsigned bt_lookup_batch(struct bench_table *bt, unsigned n, const uint64_t *keys)
{
	const void *key_ptrs[RTE_HASH_LOOKUP_BULK_MAX];
	hash_sig_t sigs[RTE_HASH_LOOKUP_BULK_MAX];
	void *data[RTE_HASH_LOOKUP_BULK_MAX];
	uint64_t hits;

	for (unsigned i = 0; i < n; i++) {
		key_ptrs[i] = &keys[i];
		sigs[i] = (hash_sig_t)bench_hash(keys[i]);
	}
	return (unsigned)rte_hash_lookup_with_hash_bulk_data(bt->h, key_ptrs, sigs, n, &hits, data);
}

/*
 * A full table: deleted keys' slots come back one grace period after their
 * delete, and a writer that adds faster than the readers pass quiescent
 * states finds none free. Called without the mutex: pass a quiescent state
 * of our own (this thread holds no reference between two calls) and let
 * the others pass theirs; a table still full after a while is too small.
 */
static inline void rte_bench_full(struct bench_table *bt, int ret, double *since)
{
	if (ret != -ENOSPC) {
		fprintf(stderr, "lfht-bench-dpdk: rte_hash_add_key_with_hash_data: %s\n",
			strerror(-ret));
		exit(1);
	}
	if (*since == 0) {
		*since = bench_now();
	} else if (bench_now() - *since > 5.0) {
		fprintf(stderr, "lfht-bench-dpdk: rte_hash full for 5 s (capacity %d entries)\n",
			rte_hash_max_key_id(bt->h));
		exit(1);
	}
	bench_quiescent();
	sched_yield();
}

static inline int rte_bench_add(struct bench_table *bt, uint64_t key, hash_sig_t sig)
{
	return rte_hash_add_key_with_hash_data(bt->h, &key, sig, (void *)(uintptr_t)(key + 1));
}

static inline int bt_add_unique(struct bench_table *bt, uint64_t key)
{
	hash_sig_t sig = (hash_sig_t)bench_hash(key);
	double since = 0;
	int ret;

	for (;;) {
		pthread_mutex_lock(&bt->lock);
		ret = rte_hash_lookup_with_hash(bt->h, &key, sig) >= 0 ? 1 : rte_bench_add(bt, key, sig);
		pthread_mutex_unlock(&bt->lock);
		if (ret >= 0)
			return ret == 0;
		rte_bench_full(bt, ret, &since);
	}
}

/* Inserts or replaces (the data word); returns 1 when the key was there. */
static inline int bt_add_replace(struct bench_table *bt, uint64_t key)
{
	hash_sig_t sig = (hash_sig_t)bench_hash(key);
	double since = 0;
	int there, ret;

	for (;;) {
		pthread_mutex_lock(&bt->lock);
		there = rte_hash_lookup_with_hash(bt->h, &key, sig) >= 0;
		ret = rte_bench_add(bt, key, sig);
		pthread_mutex_unlock(&bt->lock);
		if (ret >= 0)
			return there;
		rte_bench_full(bt, ret, &since);
	}
}

static inline int bt_del(struct bench_table *bt, uint64_t key)
{
	int32_t pos;

	pthread_mutex_lock(&bt->lock);
	pos = rte_hash_del_key_with_hash(bt->h, &key, (hash_sig_t)bench_hash(key));
	pthread_mutex_unlock(&bt->lock);
	return pos >= 0;
}

/* Unused: churn is refused. */
static inline void bt_resize(struct bench_table *bt, unsigned long size)
{
	(void)bt;
	(void)size;
}
