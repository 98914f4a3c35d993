/* SPDX-License-Identifier: MIT */
/*
 * lfht/resize.c - grow, shrink, the resize worker, partitioning of large
 * steps over helper threads, cds_lfht_resize.
 *
 * Owns view.size and the worker. Every resize runs under resize_lock, taken
 * while offline (QSBR) because its holder waits for grace periods.
 *
 * Invariants between atomic steps:
 * - grow, per order j: the table is allocated and initialised, its entry
 *   published, every bucket linked after its parent (bucket i - 2^(j-1),
 *   always already linked), and only then size = 2^j is stored (release):
 *   a thread that sees a size finds every bucket below it linked;
 * - shrink: size is lowered first (release), then the top orders' buckets
 *   are marked removed and unlinked, a grace period passes, and only then
 *   their tables are freed: a thread that read the old size still walks
 *   valid memory, and an update starting from a removed bucket restarts
 *   with the new size;
 * - the worker sleeps on a condvar (offline) and is woken only when a
 *   request flips `pending` from false to true; the flag is cleared by the
 *   worker before it looks at the table, so no request is lost.
 *
 * Relies on list.c (linking, marking, unlinking), buckets.c (tables),
 * count.c (the sum the decisions use) and table.c (allocator, grace period).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

/* New buckets in one order from which the linking is split over threads. */
#define RESIZE_PARTITION_MIN (1UL << 14)
#define RESIZE_MAX_THREADS 8
/* Buckets linked or unlinked per read-side section. */
#define RESIZE_BATCH 1024UL
/* How soon the worker looks again while the count moves. */
#define RESIZE_RECHECK_NS 20000000L
/* Buckets sampled to estimate the load without counters. */
#define RESIZE_SAMPLES 256UL

struct lfht_worker {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool started;		/* under lock */
	bool stop;		/* under lock */
	_Atomic(bool) pending;	/* a request not yet seen by the worker */
};

static unsigned long pow2_ceil(unsigned long n)
{
	if (n <= 1)
		return 1;
	if (n > 1UL << LFHT_MAX_ORDER)
		return 1UL << LFHT_MAX_ORDER;
	return 1UL << (LFHT_LONG_BITS_ - __builtin_clzl(n - 1));
}

static unsigned long clamp_size(struct cds_lfht *ht, unsigned long n)
{
	n = pow2_ceil(n);
	if (n < ht->min_nr_alloc_buckets)
		n = ht->min_nr_alloc_buckets;
	if (n > ht->max_nr_buckets)
		n = ht->max_nr_buckets;
	return n;
}

/* ---- linking and unlinking ranges ---------------------------------------- */

static void link_range(struct cds_lfht *ht, struct cds_lfht_node *table,
		       unsigned long begin, unsigned long end)
{
	const struct rcu_flavour *f = ht->flavour;

	while (begin < end) {
		unsigned long stop = end - begin > RESIZE_BATCH ? begin + RESIZE_BATCH : end;

		f->read_lock();
		/* Parent of bucket 2^(j-1) + i is bucket i. */
		for (; begin < stop; begin++)
			lfht_list_add_bucket(lfht_bucket_at(ht, begin), &table[begin]);
		f->read_unlock();
		f->quiescent_state();
	}
}

struct resize_part {
	struct cds_lfht *ht;
	struct cds_lfht_node *table;
	unsigned long begin, end;
	pthread_t thread;
	bool running;
};

static void *resize_helper_main(void *arg)
{
	struct resize_part *part = arg;
	const struct rcu_flavour *f = part->ht->flavour;

	f->register_thread();
	link_range(part->ht, part->table, part->begin, part->end);
	f->unregister_thread();
	return NULL;
}

static unsigned resize_nr_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > RESIZE_MAX_THREADS ? RESIZE_MAX_THREADS : (unsigned)n;
}

/* Links the len buckets of one order, over several threads when large. */
static void link_order(struct cds_lfht *ht, struct cds_lfht_node *table, unsigned long len)
{
	struct resize_part parts[RESIZE_MAX_THREADS];
	unsigned nr = len >= RESIZE_PARTITION_MIN ? resize_nr_threads() : 1;

	for (unsigned k = 0; k < nr; k++) {
		parts[k] = (struct resize_part){
			.ht = ht, .table = table,
			.begin = len / nr * k,
			.end = k + 1 == nr ? len : len / nr * (k + 1),
		};
		/* A helper that cannot start is done by this thread below. */
		if (k > 0)
			parts[k].running = pthread_create(&parts[k].thread, ht->attr,
							  resize_helper_main, &parts[k]) == 0;
	}
	link_range(ht, table, parts[0].begin, parts[0].end);
	for (unsigned k = 1; k < nr; k++)
		if (!parts[k].running)
			link_range(ht, table, parts[k].begin, parts[k].end);
	if (nr > 1) {
		/* Offline while joining: a helper may wait in register_thread
		 * for a grace period that would otherwise wait for us. */
		ht->flavour->thread_offline();
		for (unsigned k = 1; k < nr; k++)
			if (parts[k].running)
				pthread_join(parts[k].thread, NULL);
		ht->flavour->thread_online();
	}
}

static void resize_grow(struct cds_lfht *ht, unsigned long size, unsigned long target)
{
	for (unsigned order = lfht_log2(size) + 1; order <= lfht_log2(target); order++) {
		struct cds_lfht_node *table;

		/* Out of memory: stop at the last complete order; a later
		 * request tries again. */
		if (lfht_orders_reserve(ht, order))
			return;
		table = lfht_order_alloc(ht, order);
		if (!table)
			return;
		lfht_order_publish(ht, order, table);
		link_order(ht, table, lfht_order_len(order));
		/* Release: every bucket of the order is linked (the helpers'
		 * links by their join) and its entry published; pairs with the
		 * acquire loads of size in lfht_view_bucket_() (lfht.h),
		 * lfht_bucket_for_hash() and lfht_nr_buckets(). */
		rcu_atomic_store(&ht->view.size, 1UL << order, memory_order_release);
		ht->flavour->quiescent_state();
	}
}

static void resize_shrink(struct cds_lfht *ht, unsigned long size, unsigned long target)
{
	const struct rcu_flavour *f = ht->flavour;
	_Atomic(struct cds_lfht_node *) *orders;

	/* Relaxed: only the resize_lock holder (this thread) stores it. */
	orders = rcu_atomic_load(&ht->view.orders, memory_order_relaxed);
	/* One order at a time, so that each bucket is unlinked starting from
	 * its parent, next to it in the list (linear, not size x nodes). */
	for (unsigned order = lfht_log2(size); order > lfht_log2(target); order--) {
		/* Relaxed: the resizer itself published the entry. */
		struct cds_lfht_node *table =
			rcu_atomic_load(&orders[order], memory_order_relaxed);
		unsigned long first = (1UL << order) >> 1, len = lfht_order_len(order);

		/* Release: pairs with the same acquire loads as in
		 * resize_grow(); buckets below stay linked. Stored before the
		 * marks below: an update that sees a bucket's REMOVED (acquire,
		 * pairing with the mark's seq_cst CAS) restarts and reads this
		 * size or a later one. */
		rcu_atomic_store(&ht->view.size, first, memory_order_release);

		for (unsigned long i = 0; i < len; ) {
			unsigned long stop = len - i > RESIZE_BATCH ? i + RESIZE_BATCH : len;

			f->read_lock();
			for (; i < stop; i++) {
				lfht_list_mark_removed(&table[i], true);
				lfht_list_unlink_removed(ht, first + i);
			}
			f->read_unlock();
			f->quiescent_state();
		}
	}
	/* Threads that read the old size may still walk the removed buckets:
	 * the grace period orders their read-side sections before the frees
	 * (docs/memory-ordering.md, "Shrink"). */
	lfht_wait_grace_period(ht);
	lfht_orders_free_retired(ht);
	for (unsigned order = lfht_log2(size); order > lfht_log2(target); order--)
		lfht_order_free(ht, order);
}

/* Caller holds resize_lock, is online and outside a read-side section. */
static void resize_to(struct cds_lfht *ht, unsigned long target)
{
	/* Relaxed: only the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	if (target > size)
		resize_grow(ht, size, target);
	else if (target < size)
		resize_shrink(ht, size, target);
}

static void resize_lock(struct cds_lfht *ht)
{
	/* Offline while blocked: the holder may be waiting for a grace
	 * period (QSBR). */
	ht->flavour->thread_offline();
	pthread_mutex_lock(&ht->resize_lock);
	ht->flavour->thread_online();
}

void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size)
{
	resize_lock(ht);
	resize_to(ht, clamp_size(ht, new_size));
	pthread_mutex_unlock(&ht->resize_lock);
}

/* ---- automatic decisions -------------------------------------------------- */

/* Nodes per bucket, estimated from a pseudo-random sample of buckets. */
static unsigned long resize_estimate_count(struct cds_lfht *ht, unsigned long size)
{
	unsigned long samples = size < RESIZE_SAMPLES ? size : RESIZE_SAMPLES;
	unsigned long seen = 0, x = 0x9e3779b97f4a7c15UL ^ size;

	ht->flavour->read_lock();
	for (unsigned long s = 0; s < samples; s++) {
		unsigned long index;
		struct cds_lfht_node *node;

		if (samples == size) {
			index = s;
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			index = x & (size - 1);
		}
		node = lfht_bucket_at(ht, index);
		/* Acquire: pairs with the CAS that linked each successor. */
		node = lfht_ptr(rcu_atomic_load(&node->next, memory_order_acquire));
		while (node) {
			uintptr_t word = rcu_atomic_load(&node->next, memory_order_acquire);

			if (lfht_is_bucket(word))
				break;
			if (!lfht_is_removed(word))
				seen++;
			node = lfht_ptr(word);
		}
	}
	ht->flavour->read_unlock();
	/* seen / samples * size, without overflow for large tables. */
	return samples == size ? seen : seen * (size / samples);
}

static unsigned long resize_auto_target(struct cds_lfht *ht, unsigned long size)
{
	unsigned long count;

	if (ht->counters) {
		count = lfht_counters_count(ht);
		if (lfht_load_too_high(count, size))
			return pow2_ceil(count / LFHT_LOAD);
		/* Shrink below a quarter node per bucket, to one to two. */
		if (lfht_load_too_low(count, size))
			return count > 1 ? pow2_ceil(count) >> 1 : 1;
		return size;
	}
	count = resize_estimate_count(ht, size);
	return lfht_load_too_high(count, size) ? pow2_ceil(count / LFHT_LOAD) : size;
}

/*
 * Sleeps until a request or stop. With counters, while the count still
 * moved since the last look, sleeps at most RESIZE_RECHECK_NS and then
 * looks again: the tail of a mass deletion sends no more requests.
 */
static void worker_wait(struct lfht_worker *w, bool moving)
{
	struct timespec deadline;

	if (!moving || clock_gettime(CLOCK_REALTIME, &deadline)) {
		/* Relaxed: the lock orders the flag with the requester. */
		while (!w->stop && !rcu_atomic_load(&w->pending, memory_order_relaxed))
			pthread_cond_wait(&w->cond, &w->lock);
		return;
	}
	deadline.tv_nsec += RESIZE_RECHECK_NS;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	/* Relaxed: as above. */
	while (!w->stop && !rcu_atomic_load(&w->pending, memory_order_relaxed))
		if (pthread_cond_timedwait(&w->cond, &w->lock, &deadline) == ETIMEDOUT) {
			/* Relaxed: under w->lock, as above; re-arms the look
			 * that worker_main() takes next. */
			rcu_atomic_store(&w->pending, true, memory_order_relaxed);
			return;
		}
}

static void *worker_main(void *arg)
{
	struct cds_lfht *ht = arg;
	const struct rcu_flavour *f = ht->flavour;
	/* Acquire: pairs with the release CAS in worker_get() that installed
	 * the worker (pthread_create orders it too). */
	struct lfht_worker *w = rcu_atomic_load(&ht->worker, memory_order_acquire);
	long last_count = 0;
	bool moving = false;

	f->register_thread();
	f->thread_offline();
	pthread_mutex_lock(&w->lock);
	for (;;) {
		worker_wait(w, moving);
		if (w->stop)
			break;
		/* Relaxed: under w->lock; cleared before looking, so later
		 * requests re-arm. The flag carries no data: the decision below
		 * reads counters and chains anew. */
		rcu_atomic_store(&w->pending, false, memory_order_relaxed);
		pthread_mutex_unlock(&w->lock);

		pthread_mutex_lock(&ht->resize_lock);	/* offline: see resize_lock() */
		f->thread_online();
		{
			/* Relaxed: only the resize_lock holder stores size. */
			unsigned long size = rcu_atomic_load(&ht->view.size,
							     memory_order_relaxed);

			long count;

			resize_to(ht, clamp_size(ht, resize_auto_target(ht, size)));
			count = lfht_counters_sum(ht);
			moving = ht->counters && count != last_count;
			last_count = count;
		}
		f->thread_offline();
		pthread_mutex_unlock(&ht->resize_lock);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	f->thread_online();
	f->unregister_thread();
	return NULL;
}

static struct lfht_worker *worker_get(struct cds_lfht *ht)
{
	/* Acquire: pairs with the release CAS below, by whichever thread won
	 * (the worker's mutex and condvar are initialised). */
	struct lfht_worker *w = rcu_atomic_load(&ht->worker, memory_order_acquire);
	struct lfht_worker *expected = NULL;

	if (w)
		return w;
	w = lfht_zalloc(ht, sizeof(*w));
	if (!w)
		return NULL;
	if (pthread_mutex_init(&w->lock, NULL)) {
		lfht_free(ht, w, sizeof(*w));
		return NULL;
	}
	if (pthread_cond_init(&w->cond, NULL)) {
		pthread_mutex_destroy(&w->lock);
		lfht_free(ht, w, sizeof(*w));
		return NULL;
	}
	/* Release: publishes the initialised worker; pairs with the acquire
	 * loads above and in worker_main(). Acquire on failure: pairs with
	 * the winner's release. */
	if (rcu_atomic_cas(&ht->worker, &expected, w, memory_order_release,
			   memory_order_acquire))
		return w;
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	lfht_free(ht, w, sizeof(*w));
	return expected;
}

void lfht_resize_request(struct cds_lfht *ht, unsigned long target)
{
	struct lfht_worker *w;

	(void)target;
	if (!(ht->flags & CDS_LFHT_AUTO_RESIZE))
		return;
	w = worker_get(ht);
	/* Out of memory: the next trigger tries again. Relaxed: a hint; the
	 * exchange decides who signals. */
	if (!w || rcu_atomic_load(&w->pending, memory_order_relaxed) ||
	    rcu_atomic_xchg(&w->pending, true, memory_order_relaxed))
		return;
	pthread_mutex_lock(&w->lock);
	if (!w->started && !w->stop) {
		w->started = pthread_create(&w->thread, ht->attr, worker_main, ht) == 0;
		/* No thread: disarm, so that a later trigger retries. Relaxed:
		 * under w->lock, a hint like the exchange above. */
		if (!w->started)
			rcu_atomic_store(&w->pending, false, memory_order_relaxed);
	}
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void lfht_resize_check_chain(struct cds_lfht *ht, unsigned long size, unsigned chain)
{
	/* Longer chains are normal in larger tables at the same load. */
	if (chain >= 2 * LFHT_LOAD + lfht_log2(size) / 4)
		lfht_resize_request(ht, 0);
}

void lfht_worker_stop(struct cds_lfht *ht)
{
	/* Relaxed: destroy runs after every other user of the table is done,
	 * and the caller's own synchronization with them (a join, a lock)
	 * orders their worker_get() before this load. */
	struct lfht_worker *w = rcu_atomic_load(&ht->worker, memory_order_relaxed);
	bool started;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	started = w->started;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	if (started) {
		/* Offline: the worker may be waiting for a grace period. */
		ht->flavour->thread_offline();
		pthread_join(w->thread, NULL);
		ht->flavour->thread_online();
	}
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	lfht_free(ht, w, sizeof(*w));
	/* Relaxed: the worker has been joined; no other thread looks. */
	rcu_atomic_store(&ht->worker, NULL, memory_order_relaxed);
}
