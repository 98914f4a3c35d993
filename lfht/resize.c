/* SPDX-License-Identifier: MIT */
/*
 * lfht/resize.c - grow, shrink, partitioning of large steps over helper
 * threads, the automatic resize triggers and decisions, cds_lfht_resize.
 *
 * Owns view.size. Every resize runs under the table's resize_lock (a
 * struct lfht_lock, taken while offline: a shrinking holder waits for a
 * grace period; a growing one never waits for readers: the orders array it
 * outgrows goes to call_rcu, buckets.c), and each step that changes the list or the bucket tables runs
 * inside the resize gate (sync.c), so fork() finds them between steps.
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
 * - outside a resize, no order above size has a table, except in the child
 *   of a fork() that came while a shrink waited for its grace period:
 *   resize_finish_shrink() frees those first.
 *
 * Holds all resize policy: when to grow or shrink and to what size.
 *
 * Calls list.c (linking, removing buckets), iter.c (the load estimate),
 * buckets.c (tables), count.c (the sum the decisions use), queue.c (the
 * requests), sync.c (locks, gate, waits).
 */
#define _GNU_SOURCE
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* New buckets in one order from which the linking is split over threads. */
#define RESIZE_PARTITION_MIN (1UL << 14)
#define RESIZE_MAX_THREADS 8
/* Buckets linked or unlinked per read-side section. */
#define RESIZE_BATCH 1024UL
/* Buckets sampled to estimate the load without counters. */
#define RESIZE_SAMPLES 256UL

/*
 * The load policy, relative to the density n = 2^density_shift
 * (LFHT_BUCKETS_PER_NODE(); 1 by default). Auto-resize grows a table
 * holding more than one node per n buckets, to n to 2n buckets per node,
 * and (with accounting) shrinks one holding less than one node per 4n
 * buckets, to n to 2n. A bucket is its next word, 8 bytes: 8n to 16n
 * bytes per entry, and a lookup in the default table costs what it costs
 * in one sized for its keys (docs/performance.md, docs/resizing.md).
 */
static bool load_too_high(struct cds_lfht *ht, unsigned long count, unsigned long size)
{
	return count > size >> ht->density_shift;
}

static bool load_too_low(struct cds_lfht *ht, unsigned long count, unsigned long size)
{
	return count < size >> (ht->density_shift + 2);
}

static uint64_t resize_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A shrink waits until the deletes pause: the look that first wants one
 * opens a window (the count, the time), and the shrink happens at a look
 * at least LFHT_RECHECK_NS later that still wants it, provided the count
 * never fell meanwhile by more than a quarter of the shrink threshold
 * (size/16 at density 1) below the window's: a fall that large opens the
 * window again, at the lower count. A burst of deletes (a table emptied
 * in milliseconds) so runs without the worker removing buckets beside it
 * (lfht-bench delonly, 2^16 keys: 0.57 of ck_hs, bimodal, before; 0.78,
 * steady, after; docs/performance.md), and the table shrinks once, to the
 * size for what is left; a table that fills and empties every few
 * milliseconds keeps its size; a slower drain shrinks as it goes. The
 * worker looks again within the period (*again in lfht_resize_auto()).
 * Returns whether a shrink wanted at this look may run now.
 */
static bool shrink_after_quiet(struct cds_lfht *ht, unsigned long count, unsigned long size)
{
	uint64_t now = resize_now_ns();
	/* Relaxed: written only under resize_lock, which we hold. */
	uint64_t since = rcu_atomic_load(&ht->quiet_since_ns, memory_order_relaxed);

	if (since == 0 || count + (size >> (ht->density_shift + 4)) < ht->quiet_count) {
		ht->quiet_count = count;
		/* Relaxed: deletes read it as a hint (lfht_resize_after_del()). */
		rcu_atomic_store(&ht->quiet_since_ns, now, memory_order_relaxed);
		return false;
	}
	return now - since >= (uint64_t)LFHT_RECHECK_NS;
}

/* An add that walked past this many nodes in its bucket asks the worker
 * to look: 2 + log2(size)/4 at one bucket per node (longer chains are
 * normal in larger tables at the same load); that over n, not below 3,
 * at n buckets per node (a chain of 2 is common even then). */
static unsigned chain_limit(struct cds_lfht *ht, unsigned long size)
{
	unsigned limit = 2 + lfht_log2(size) / 4;

	if (!ht->density_shift)
		return limit;
	limit >>= ht->density_shift;
	return limit < 3 ? 3 : limit;
}

#ifdef LFHT_TEST_HOOKS
/* Test builds: called after each grow or shrink step, outside the gate
 * (tests/test_hooks.c pauses the worker there to fork), and after each of
 * the worker's looks ("look", tests/test_resize.c counts them). */
void (*lfht_test_step_hook_)(struct cds_lfht *ht, const char *step);

static void resize_step_done(struct cds_lfht *ht, const char *step)
{
	if (lfht_test_step_hook_)
		lfht_test_step_hook_(ht, step);
}
#else
static inline void resize_step_done(struct cds_lfht *ht, const char *step)
{
	(void)ht;
	(void)step;
}
#endif

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

/*
 * The floor of auto-resize (<lfht/extensions.h>): a grow goes to
 * LFHT_RESIZE_FLOOR buckets at least (within min_nr_alloc_buckets and
 * max_nr_buckets), and a shrink stops there. Below it, a small table's
 * bucket words share a few cache lines, 8 to a line, and while readers
 * and updaters run on different CPUs every update that links or unlinks
 * the first node of a bucket takes the line from the readers: lfht-bench's
 * 10-key pools, a reader and a writer pinned to the two CPUs, updated at
 * 5-8 M/s in the 16 to 32 buckets that 20 keys hold by the load alone, and
 * at 17-22 M/s at 512 (docs/resizing.md). Test builds set it (1 unless a
 * test says otherwise), so that their few keys still cross every order.
 */
#ifdef LFHT_TEST_HOOKS
/* Relaxed: a test sets it before the tables whose resizes read it. */
_Atomic(unsigned long) lfht_test_resize_floor_ = 1;
#define RESIZE_FLOOR rcu_atomic_load(&lfht_test_resize_floor_, memory_order_relaxed)
#else
#define RESIZE_FLOOR LFHT_RESIZE_FLOOR
#endif

static unsigned long resize_floor(struct cds_lfht *ht)
{
	return clamp_size(ht, RESIZE_FLOOR);
}

/* An automatic target for a table of size buckets, floored: a grow to the
 * floor at once, a shrink no further (none below it). */
static unsigned long floored(struct cds_lfht *ht, unsigned long size, unsigned long target)
{
	unsigned long floor = resize_floor(ht);

	if (target >= floor || target == size)
		return target;
	if (target > size)
		return floor;
	return size < floor ? size : floor;
}

/* The bucket count for count nodes at n to 2n buckets per node (at least
 * one bucket), saturating at the largest order. */
static unsigned long buckets_for(struct cds_lfht *ht, unsigned long count)
{
	if (count > (1UL << LFHT_MAX_ORDER) >> ht->density_shift)
		return 1UL << LFHT_MAX_ORDER;
	return pow2_ceil(count << ht->density_shift);
}

/* What auto-resize makes of a table of size buckets holding count nodes:
 * buckets_for() within the bounds, floored. */
static unsigned long auto_size_for(struct cds_lfht *ht, unsigned long size, unsigned long count)
{
	return floored(ht, size, clamp_size(ht, buckets_for(ht, count)));
}

/* ---- linking ranges, over helper threads when large ---------------------- */

static void link_range(struct cds_lfht *ht, unsigned long first,
		       unsigned long begin, unsigned long end)
{
	const struct rcu_flavour *f = ht->flavour;

	while (begin < end) {
		unsigned long stop = end - begin > RESIZE_BATCH ? begin + RESIZE_BATCH : end;

		f->read_lock();
		/* Parent of bucket 2^(j-1) + i is bucket i. */
		for (; begin < stop; begin++)
			lfht_list_add_bucket(ht, first + begin);
		f->read_unlock();
		f->quiescent_state();
	}
}

/*
 * Helpers are started and registered before the resizer enters the gate,
 * and inside it only link: registering (the RCU core's registry lock, which
 * fork() takes) and joining happen outside, so fork() never waits on them.
 */
struct resize_crew {
	struct cds_lfht *ht;
	unsigned long first;		/* the order's first bucket, set before go */
	_Atomic(uint32_t) go;		/* 0 wait, 1 link, 2 quit */
	_Atomic(uint32_t) left;		/* helpers still linking */
};

struct resize_part {
	struct resize_crew *crew;
	unsigned long begin, end;
	pthread_t thread;
	bool running;
};

static void *resize_helper_main(void *arg)
{
	struct resize_part *part = arg;
	struct resize_crew *crew = part->crew;
	const struct rcu_flavour *f = crew->ht->flavour;
	uint32_t go;

	f->register_thread();
	f->thread_offline();
	/* Acquire: pairs with the release store of go in crew_link(), which
	 * publishes crew->first and the published order. */
	while ((go = rcu_atomic_load(&crew->go, memory_order_acquire)) == 0)
		lfht_futex_wait(&crew->go, 0, 0);
	f->thread_online();
	if (go == 1) {
		link_range(crew->ht, crew->first, part->begin, part->end);
		/* Release: our links before the resizer's size store; pairs
		 * with its acquire load of left. */
		if (rcu_atomic_sub(&crew->left, 1, memory_order_release) == 1)
			lfht_futex_wake(&crew->left, 1);
	}
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

/* Starts helpers for the order's len buckets (none for small orders);
 * returns how many parts the work is split into (parts[0]: the caller). */
static unsigned crew_start(struct cds_lfht *ht, struct resize_crew *crew,
			   struct resize_part *parts, unsigned long len)
{
	unsigned nr = len >= RESIZE_PARTITION_MIN ? resize_nr_threads() : 1, running = 0;

	*crew = (struct resize_crew){ .ht = ht };
	for (unsigned k = 0; k < nr; k++) {
		parts[k] = (struct resize_part){
			.crew = crew,
			.begin = len / nr * k,
			.end = k + 1 == nr ? len : len / nr * (k + 1),
		};
		/* A helper that cannot start is done by the caller. */
		if (k > 0)
			parts[k].running = pthread_create(&parts[k].thread, ht->attr,
							  resize_helper_main, &parts[k]) == 0;
		running += parts[k].running;
	}
	/* Relaxed: the helpers read it after the release store of go. */
	rcu_atomic_store(&crew->left, running, memory_order_relaxed);
	return nr;
}

/* Inside the gate: links every bucket of the published order. */
static void crew_link(struct resize_crew *crew, struct resize_part *parts, unsigned nr,
		      unsigned order)
{
	uint32_t left;

	crew->first = lfht_order_first_(order);
	/* Release: publishes first (and the order published before it) to
	 * the helpers; pairs with their acquire load of go. */
	rcu_atomic_store(&crew->go, 1, memory_order_release);
	lfht_futex_wake(&crew->go, RESIZE_MAX_THREADS);
	for (unsigned k = 0; k < nr; k++)
		if (!parts[k].running)
			link_range(crew->ht, crew->first, parts[k].begin, parts[k].end);
	/* Acquire: pairs with the helpers' release decrements, so their links
	 * come before our size store. Only lock-free linking is waited for;
	 * offline meanwhile, so grace periods need not wait for it (QSBR). */
	crew->ht->flavour->thread_offline();
	while ((left = rcu_atomic_load(&crew->left, memory_order_acquire)) != 0)
		lfht_futex_wait(&crew->left, left, 0);
	crew->ht->flavour->thread_online();
}

/* Outside the gate: lets helpers that never linked go, and joins all. */
static void crew_finish(struct resize_crew *crew, struct resize_part *parts, unsigned nr)
{
	const struct rcu_flavour *f = crew->ht->flavour;
	uint32_t quit = 2, wait = 0;

	/* Relaxed: nothing to publish when telling them to quit; a CAS
	 * so that a crew that linked keeps go == 1. */
	if (rcu_atomic_cas(&crew->go, &wait, quit, memory_order_relaxed,
			   memory_order_relaxed))
		lfht_futex_wake(&crew->go, RESIZE_MAX_THREADS);
	if (nr == 1)
		return;
	/* Offline while joining: a helper may wait in register_thread for
	 * the registry lock that a grace period waiting for us holds. */
	f->thread_offline();
	for (unsigned k = 1; k < nr; k++)
		if (parts[k].running)
			pthread_join(parts[k].thread, NULL);
	f->thread_online();
}

/* ---- grow and shrink (resize_lock held, online) ------------------------- */

/* Grows by one order; false when memory ran out (a later resize retries). */
static bool grow_order(struct cds_lfht *ht, unsigned order)
{
	struct resize_part parts[RESIZE_MAX_THREADS];
	struct lfht_orders_block *replaced;
	struct resize_crew crew;
	struct cds_lfht_node *table;
	unsigned nr = crew_start(ht, &crew, parts, lfht_order_len_(order));

	lfht_gate_enter();
	table = lfht_orders_reserve(ht, order, &replaced) ? NULL : lfht_order_alloc(ht, order);
	if (table) {
		lfht_order_publish(ht, order, table);
		crew_link(&crew, parts, nr, order);
		lfht_assert(rcu_atomic_load(&ht->view.size, memory_order_relaxed) ==
			    lfht_order_first_(order) && lfht_order_table(ht, order) == table,
			    "resize.c: grow publishes one order above size, then stores size");
		/* Release: every bucket of the order is linked (the helpers'
		 * links by the acquire of left) and its entry published; pairs
		 * with the acquire loads of size in lfht_view_bucket_()
		 * (lfht.h) and lfht_nr_buckets(). */
		rcu_atomic_store(&ht->view.size, 1UL << order, memory_order_release);
	}
	lfht_gate_leave();
	/* Outside the gate: call_rcu may wait for the RCU core's worker lock,
	 * which its own fork handler holds while fork() waits for the gate. A
	 * fork() in between leaves the child this array unfreed, no more. */
	lfht_orders_retire(ht, replaced);
	crew_finish(&crew, parts, nr);
	ht->flavour->quiescent_state();
	return table != NULL;
}

static void resize_grow(struct cds_lfht *ht, unsigned long size, unsigned long target)
{
	for (unsigned order = lfht_log2(size) + 1; order <= lfht_log2(target); order++) {
		if (!grow_order(ht, order))
			return;
		resize_step_done(ht, "grow");
	}
}

/* Lowers size below order and unlinks the order's buckets; one gate step. */
static void shrink_order(struct cds_lfht *ht, unsigned order)
{
	const struct rcu_flavour *f = ht->flavour;
	unsigned long first = lfht_order_first_(order), len = lfht_order_len_(order);
	struct cds_lfht_node *table = lfht_order_table(ht, order);

	/* Relaxed: only the resize_lock holder stores size. */
	lfht_assert(rcu_atomic_load(&ht->view.size, memory_order_relaxed) == 1UL << order &&
		    table != NULL,
		    "resize.c: shrink removes the top order, whose table is there");
	lfht_gate_enter();
	/* Release: pairs with the same acquire loads as in grow_order();
	 * buckets below stay linked. Stored before the marks below: an
	 * update that sees a bucket's REMOVED (acquire, pairing with the
	 * removal's commit in lfht_list_remove_bucket()) restarts and reads
	 * this size or a later one. */
	rcu_atomic_store(&ht->view.size, first, memory_order_release);
	for (unsigned long i = 0; i < len; ) {
		unsigned long stop = len - i > RESIZE_BATCH ? i + RESIZE_BATCH : len;

		f->read_lock();
		for (; i < stop; i++) {
			lfht_list_remove_bucket(ht, lfht_table_bucket_(table, i), first + i);
			/* Relaxed: our own commit. */
			lfht_assert(lfht_is_removed_(rcu_atomic_load(&lfht_table_bucket_(table, i)->next,
								    memory_order_relaxed)),
				    "resize.c: shrink marks each bucket of the order removed");
		}
		f->read_unlock();
		f->quiescent_state();
	}
	lfht_gate_leave();
}

/*
 * Frees the tables of the orders above size (unlinked by shrink_order()),
 * after a grace period: threads that read the old size may still walk them
 * (docs/memory-ordering.md, "Shrink"). Only a shrink leaves such tables, so
 * a grow never waits here, except to finish a shrink that a fork()
 * interrupted during that wait (the child's first resize).
 */
static void resize_finish_shrink(struct cds_lfht *ht)
{
	if (!lfht_orders_unused(ht))
		return;
	lfht_wait_grace_period(ht->flavour);
	lfht_gate_enter();
	lfht_orders_free_unused(ht);
	lfht_gate_leave();
}

static void resize_shrink(struct cds_lfht *ht, unsigned long size, unsigned long target)
{
	/* One order at a time, so that each bucket is unlinked starting from
	 * its parent, next to it in the list (linear, not size x nodes). */
	for (unsigned order = lfht_log2(size); order > lfht_log2(target); order--) {
		shrink_order(ht, order);
		resize_step_done(ht, "shrink");
	}
	resize_finish_shrink(ht);
}

static void resize_to(struct cds_lfht *ht, unsigned long target)
{
	/* Relaxed: only the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	if (target > size)
		resize_grow(ht, size, target);
	else if (target < size)
		resize_shrink(ht, size, target);
}

/*
 * Takes resize_lock (offline while blocked: the holder may be waiting for a
 * grace period) and returns online for the work; resize_unlock() leaves the
 * thread online or offline as it was before (QSBR).
 */
static bool resize_lock(struct cds_lfht *ht)
{
	bool was_online = lfht_offline_begin(ht->flavour);

	lfht_lock(&ht->resize_lock);
	ht->flavour->thread_online();
	/* A fork() child may find a shrink of its parent's unfinished. */
	resize_finish_shrink(ht);
	return was_online;
}

/* Whether no order above size has a table. */
static bool no_table_above_size(struct cds_lfht *ht)
{
	/* Relaxed: only the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	for (unsigned j = lfht_log2(size) + 1; j <= LFHT_MAX_ORDER; j++)
		if (lfht_order_table(ht, j))
			return false;
	return true;
}

static void resize_unlock(struct cds_lfht *ht, bool was_online)
{
	lfht_assert(no_table_above_size(ht),
		    "resize.c: outside a resize, no order above size has a table");
	ht->flavour->thread_offline();
	lfht_unlock(&ht->resize_lock);
	lfht_offline_end(ht->flavour, was_online);
}

void lfht_resize(struct cds_lfht *ht, unsigned long new_size)
{
	bool was_online;

	lfht_call_outside(ht, "cds_lfht_resize");
	was_online = resize_lock(ht);
	resize_to(ht, clamp_size(ht, new_size));
	resize_unlock(ht, was_online);
	lfht_call_end(ht);
}

/* ---- automatic decisions -------------------------------------------------- */

/* The size this look resizes to, before clamping (size itself: none);
 * *again when a wanted shrink waits for a later look. A shrink that the
 * clamp would cancel opens no window. */
static unsigned long resize_auto_target(struct cds_lfht *ht, unsigned long size, bool *again)
{
	unsigned long count, target;

	if (ht->counters) {
		count = lfht_counters_count(ht);
		target = load_too_high(ht, count, size) || load_too_low(ht, count, size) ?
			 auto_size_for(ht, size, count) : size;
		if (target < size && !shrink_after_quiet(ht, count, size)) {
			*again = true;
			return size;
		}
		/* A grow, no change or the shrink itself: the window closes.
		 * Relaxed: as in shrink_after_quiet(). */
		rcu_atomic_store(&ht->quiet_since_ns, 0, memory_order_relaxed);
		return target;
	}
	ht->flavour->read_lock();
	count = lfht_iter_estimate_count(ht, size, RESIZE_SAMPLES);
	ht->flavour->read_unlock();
	return load_too_high(ht, count, size) ? auto_size_for(ht, size, count) : size;
}

long lfht_resize_auto(struct cds_lfht *ht, bool *again)
{
	bool was_online = resize_lock(ht);
	/* Relaxed: only the resize_lock holder stores size. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);
	long count;

	resize_to(ht, clamp_size(ht, resize_auto_target(ht, size, again)));
	count = lfht_counters_sum(ht);
	resize_unlock(ht, was_online);
	resize_step_done(ht, "look");
	return count;
}

/* A slot looks at the sum every (mask + 1) of its updates, an eighth of
 * the nodes the size is meant for: often for small tables, every 1024 for
 * large ones (a sum reads every slot). */
static unsigned long look_period_mask(struct cds_lfht *ht, unsigned long size)
{
	unsigned long period = size >> (ht->density_shift + 3);

	if (period > 1024)
		period = 1024;
	return period ? period - 1 : 0;
}

void lfht_resize_after_add(struct cds_lfht *ht, unsigned chain, unsigned long ops)
{
	/* Relaxed: a hint; the worker decides with the size it holds. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	if (!(ht->flags & CDS_LFHT_AUTO_RESIZE))
		return;
	if (chain >= chain_limit(ht, size) ||
	    (ops && !(ops & look_period_mask(ht, size)) &&
	     load_too_high(ht, lfht_counters_count(ht), size)))
		lfht_queue_request(ht->request);
}

/*
 * While a shrink window is open the worker looks again within the period
 * by itself (shrink_after_quiet()), and a fall of the count only moves the
 * window, which that look does: a delete neither sums the counters nor
 * wakes the worker then. Before, a burst of deletes woke it every look
 * period for nothing (lfht-bench delonly, 2^16 keys: a futex wake and a
 * look beside the deletes every 1024 of them, 5% of the sweep).
 */
void lfht_resize_after_del(struct cds_lfht *ht, unsigned long ops)
{
	/* Relaxed: as above. */
	unsigned long size = rcu_atomic_load(&ht->view.size, memory_order_relaxed);

	if ((ht->flags & CDS_LFHT_AUTO_RESIZE) && ops && !(ops & look_period_mask(ht, size)) &&
	    size > resize_floor(ht) &&
	    /* Relaxed: a hint; a window that closes meanwhile was the
	     * worker's own look, and the next period's look asks again. */
	    !rcu_atomic_load(&ht->quiet_since_ns, memory_order_relaxed) &&
	    load_too_low(ht, lfht_counters_count(ht), size))
		lfht_queue_request(ht->request);
}
