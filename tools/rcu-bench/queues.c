/* SPDX-License-Identifier: MIT */
/*
 * queue-bench worker: one workload over one of the concurrent queues and
 * stacks, one result line. The same source text is built against
 * liburcu's headers (liburcu-dev, with and without _LGPL_SOURCE) and
 * against ours through the compatibility layer (<urcu/wfcqueue.h> and the
 * rest from compat/include); QB_QSBR picks the QSBR flavour, else memb,
 * which only the RCU queue (lfq) uses. rcu-bench runs the executables
 * interleaved.
 *
 *   --workload W  wfcq      cds_wfcq_enqueue / cds_wfcq_dequeue_blocking
 *                 wfs       cds_wfs_push / cds_wfs_pop_blocking
 *                 wfs-all   cds_wfs_push / cds_wfs_pop_all_blocking, then a
 *                           walk of what it took (cds_wfs_for_each_blocking_safe)
 *                 lfs       cds_lfs_push / cds_lfs_pop_blocking
 *                 lfs-all   cds_lfs_push / cds_lfs_pop_all_blocking, then a
 *                           walk (cds_lfs_for_each_safe)
 *                 lfq       cds_lfq_enqueue_rcu / cds_lfq_dequeue_rcu, each
 *                           in a read-side section; producers malloc each
 *                           node, consumers free it through call_rcu
 *                 defer     not a queue: liburcu's deferred frees. The
 *                           producers are writers that rcu_xchg_pointer()
 *                           a fresh malloc'd object into one of 1024 slots
 *                           and defer_rcu(free) the old one; the consumers
 *                           are readers that check the canary of the
 *                           object in a slot, each in a read-side section
 *   --threads T   T producers and T consumers
 *   --seconds S   length of the timed run
 *
 * Result: mops = items through the structure per second, in millions
 * (each one push or enqueue and one pop or dequeue), counted by the
 * consumers while the run lasts; for defer, mops = writes (each one
 * defer_rcu()) and reads_mops = reads per second, in millions.
 *
 * Nodes: for every workload but lfq, each producer owns a pool of items
 * and pushes one again only after a consumer handed it back (the item's
 * `busy` flag), so that memory stays bounded and nothing is allocated in
 * the timed loop; a producer that finds its pool all in flight waits.
 * lfq bounds the items in flight with per-thread counters instead.
 * Threads are pinned (pin()).
 * At the end every consumer drains the structure, and the program checks
 * that every item pushed was popped exactly as many times.
 */
#define _GNU_SOURCE

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef QB_QSBR
#include <urcu-qsbr.h>
#else
#include <urcu.h>
#endif
#include <urcu/defer.h>
#include <urcu/lfstack.h>
#include <urcu/rculfqueue.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>

#ifdef QB_QSBR
#define QB_FLAVOUR "qsbr"
static inline void qb_quiescent(void) { rcu_quiescent_state(); }
static inline void qb_offline(void) { rcu_thread_offline(); }
static inline void qb_online(void) { rcu_thread_online(); }
#else
#define QB_FLAVOUR "memb"
static inline void qb_quiescent(void) { }
static inline void qb_offline(void) { }
static inline void qb_online(void) { }
#endif

enum { POOL = 4096, MAX_THREADS = 8, LFQ_IN_FLIGHT = 1 << 16, DEFER_SLOTS = 1024 };

enum workload { W_WFCQ, W_WFS, W_WFS_ALL, W_LFS, W_LFS_ALL, W_LFQ, W_DEFER };
static const char *const workload_names[] = { "wfcq", "wfs", "wfs-all", "lfs", "lfs-all",
					      "lfq", "defer" };

/* One pooled item: a node of each structure (one is used per run) and
 * whether it is in the structure. */
struct item {
	union {
		struct cds_wfcq_node wfcq;
		struct cds_wfs_node wfs;
		struct cds_lfs_node lfs;
	} n;
	/* 1 from the push until a consumer is done with it. */
	atomic_int busy;
	unsigned owner;
};

/* An lfq item: malloc'd by a producer, freed after a grace period. */
struct lfq_item {
	struct cds_lfq_node_rcu node;
	struct rcu_head rcu;
	unsigned owner;
};

/* Per-thread counters, each on its own cache lines. */
struct counters {
	_Alignas(128) atomic_ulong pushed;
	atomic_ulong popped;	/* in the timed run */
	atomic_ulong drained;	/* after it */
	char pad[128 - 3 * sizeof(atomic_ulong)];
};

static enum workload wl;
static unsigned nthreads;
static struct cds_wfcq_head wfcq_head;
static struct cds_wfcq_tail wfcq_tail;
static struct cds_wfs_stack wfs;
static struct cds_lfs_stack lfs;
static struct cds_lfq_queue_rcu lfq;
static struct item *pools[MAX_THREADS];
static struct counters prod[MAX_THREADS], cons[MAX_THREADS];
static atomic_int ready, go, stop, producers_done;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Spin, then yield: 4 threads may share 2 CPUs. */
static void backoff(unsigned *spins)
{
	if (++*spins < 128) {
		caa_cpu_relax();
	} else {
		*spins = 0;
		qb_quiescent();
		sched_yield();
	}
}

/*
 * Pins the calling thread: producer t on CPU t, consumer t on CPU t + 1
 * (modulo the CPUs this process may use), so that 1 + 1 always runs on two
 * CPUs at once, with 2 + 2 on two CPUs each holds a producer and a
 * consumer (producers contend with producers on the other CPU, consumers
 * with consumers), and every implementation sees the same placement.
 */
static void pin(unsigned slot)
{
	cpu_set_t allowed, one;
	unsigned n = 0, want;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0 || CPU_COUNT(&allowed) < 2)
		return;
	want = slot % (unsigned)CPU_COUNT(&allowed);
	for (unsigned cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		if (n++ == want) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			(void)pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
			return;
		}
	}
}

static void wait_for_go(void)
{
	/* Relaxed: a start signal only; the structures were set up before
	 * the threads were created. */
	atomic_fetch_add_explicit(&ready, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&go, memory_order_relaxed))
		sched_yield();
}

/* A worker's start: pinned to its slot's CPU, registered, released with
 * the others. */
static void worker_start(unsigned slot)
{
	pin(slot);
	rcu_register_thread();
	wait_for_go();
}

static int stopped(void)
{
	/* Relaxed: the stop flag orders nothing. */
	return atomic_load_explicit(&stop, memory_order_relaxed);
}

static void push_item(struct item *it)
{
	switch (wl) {
	case W_WFCQ:
		cds_wfcq_node_init(&it->n.wfcq);
		cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &it->n.wfcq);
		break;
	case W_WFS:
	case W_WFS_ALL:
		cds_wfs_node_init(&it->n.wfs);
		cds_wfs_push(&wfs, &it->n.wfs);
		break;
	default:
		cds_lfs_node_init(&it->n.lfs);
		cds_lfs_push(&lfs, &it->n.lfs);
		break;
	}
}

static void *producer(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg, spins = 0, cur = 0;
	struct item *pool = pools[id];
	unsigned long n = 0;

	worker_start(id);
	while (!stopped()) {
		struct item *it = &pool[cur];

		cur = (cur + 1) % POOL;
		/* Acquire: pairs with the consumer's release store of 0, so
		 * that its last reads of the node come before this reuse. */
		if (atomic_load_explicit(&it->busy, memory_order_acquire)) {
			backoff(&spins);
			continue;
		}
		spins = 0;
		/* Relaxed: the push below publishes the item. */
		atomic_store_explicit(&it->busy, 1, memory_order_relaxed);
		push_item(it);
		n++;
		if (n % 256 == 0)
			qb_quiescent();
	}
	/* Relaxed: read after the threads are joined. */
	atomic_store_explicit(&prod[id].pushed, n, memory_order_relaxed);
	/* Release: pairs with the consumers' acquire load; every push of this
	 * thread comes before it, so a consumer that sees all producers done
	 * and then finds the structure empty has drained it. */
	atomic_fetch_add_explicit(&producers_done, 1, memory_order_release);
	rcu_unregister_thread();
	return NULL;
}

/* A consumer is done with an item: its producer may push it again. */
static void give_back(struct item *it, unsigned long *sum)
{
	*sum += it->owner;
	/* Release: pairs with the producer's acquire load before reuse. */
	atomic_store_explicit(&it->busy, 0, memory_order_release);
}

/* give_back() of what a single pop took (NULL: nothing); 1 or 0. */
static unsigned long give_back_one(struct item *it, unsigned long *sum)
{
	if (it)
		give_back(it, sum);
	return it != NULL;
}

/* The item of a node of each structure (NULL: NULL). */
static struct item *wfcq_item(struct cds_wfcq_node *node)
{
	return node ? caa_container_of(node, struct item, n.wfcq) : NULL;
}

static struct item *wfs_item(struct cds_wfs_node *node)
{
	return node ? caa_container_of(node, struct item, n.wfs) : NULL;
}

static struct item *lfs_item(struct cds_lfs_node *node)
{
	return node ? caa_container_of(node, struct item, n.lfs) : NULL;
}

/* Takes what it can; returns the number of items taken (0: empty). */
static unsigned long take(unsigned long *sum)
{
	switch (wl) {
	case W_WFCQ:
		return give_back_one(wfcq_item(cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail)), sum);
	case W_WFS:
		return give_back_one(wfs_item(cds_wfs_pop_blocking(&wfs)), sum);
	case W_LFS:
		return give_back_one(lfs_item(cds_lfs_pop_blocking(&lfs)), sum);
	case W_WFS_ALL: {
		struct cds_wfs_head *head = cds_wfs_pop_all_blocking(&wfs);
		struct cds_wfs_node *node, *next;
		unsigned long k = 0;

		cds_wfs_for_each_blocking_safe(head, node, next)
			k += give_back_one(wfs_item(node), sum);
		return k;
	}
	case W_LFS_ALL: {
		struct cds_lfs_head *head = cds_lfs_pop_all_blocking(&lfs);
		struct cds_lfs_node *node, *next;
		unsigned long k = 0;

		/* Unlike the wfs walk, cds_lfs_for_each_safe() reads head. */
		if (head)
			cds_lfs_for_each_safe(head, node, next)
				k += give_back_one(lfs_item(node), sum);
		return k;
	}
	default:
		abort();
	}
}

static unsigned long sums[MAX_THREADS];

/* A consumer's end, after the timed run: takes (take_some(): what take()
 * returns) until every producer is done and the structure is empty;
 * returns the number of items taken. */
static unsigned long drain(unsigned long (*take_some)(unsigned long *sum), unsigned long *sum,
			   unsigned *spins)
{
	unsigned long drained = 0;

	for (;;) {
		/* Acquire: pairs with each producer's release increment. */
		int done = atomic_load_explicit(&producers_done, memory_order_acquire) ==
			   (int)nthreads;
		unsigned long k = take_some(sum);

		drained += k;
		if (!k) {
			if (done)
				break;
			backoff(spins);
		}
	}
	return drained;
}

static void *consumer(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg, spins = 0;
	unsigned long n = 0, sum = 0;

	worker_start(id + 1);
	while (!stopped()) {
		unsigned long k = take(&sum);

		if (!k) {
			backoff(&spins);
			continue;
		}
		spins = 0;
		n += k;
	}
	/* Relaxed: read after the threads are joined. */
	atomic_store_explicit(&cons[id].popped, n, memory_order_relaxed);
	atomic_store_explicit(&cons[id].drained, drain(take, &sum, &spins), memory_order_relaxed);
	sums[id] = sum;
	rcu_unregister_thread();
	return NULL;
}

/* ---- lfq: the RCU queue, nodes malloc'd and freed through call_rcu ---- */

static void free_lfq_item(struct rcu_head *head)
{
	free(caa_container_of(head, struct lfq_item, rcu));
}

/* Items dequeued so far by every consumer (the producers' bound). */
static unsigned long lfq_consumed(void)
{
	unsigned long total = 0;

	for (unsigned i = 0; i < nthreads; i++)
		/* Relaxed: a bound on memory, not an ordering. */
		total += atomic_load_explicit(&cons[i].popped, memory_order_relaxed) +
			 atomic_load_explicit(&cons[i].drained, memory_order_relaxed);
	return total;
}

static unsigned long lfq_produced(void)
{
	unsigned long total = 0;

	for (unsigned i = 0; i < nthreads; i++)
		/* Relaxed: as in lfq_consumed(). */
		total += atomic_load_explicit(&prod[i].pushed, memory_order_relaxed);
	return total;
}

static void *lfq_producer(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg, spins = 0;
	unsigned long n = 0;

	worker_start(id);
	while (!stopped()) {
		struct lfq_item *it;

		if (n % 64 == 0) {
			/* Signed: a consumer may count an item before its
			 * producer does, so consumed may run ahead by one per
			 * producer (unsigned, that read as a huge backlog). */
			long consumed = (long)lfq_consumed();

			qb_quiescent();
			if ((long)lfq_produced() - consumed > LFQ_IN_FLIGHT) {
				backoff(&spins);
				continue;
			}
		}
		it = malloc(sizeof(*it));
		if (!it)
			abort();
		it->owner = id;
		cds_lfq_node_init_rcu(&it->node);
		rcu_read_lock();
		cds_lfq_enqueue_rcu(&lfq, &it->node);
		rcu_read_unlock();
		n++;
		/* Relaxed: the in-flight bound and the final check only. */
		atomic_store_explicit(&prod[id].pushed, n, memory_order_relaxed);
	}
	/* Release: pairs with the consumers' acquire load (as in producer()). */
	atomic_fetch_add_explicit(&producers_done, 1, memory_order_release);
	rcu_unregister_thread();
	return NULL;
}

static unsigned long lfq_take(unsigned long *sum)
{
	struct cds_lfq_node_rcu *node;
	struct lfq_item *it;

	rcu_read_lock();
	node = cds_lfq_dequeue_rcu(&lfq);
	rcu_read_unlock();
	if (!node)
		return 0;
	it = caa_container_of(node, struct lfq_item, node);
	*sum += it->owner;
	call_rcu(&it->rcu, free_lfq_item);
	return 1;
}

static void *lfq_consumer(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg, spins = 0;
	unsigned long n = 0, sum = 0;

	worker_start(id + 1);
	while (!stopped()) {
		if (!lfq_take(&sum)) {
			backoff(&spins);
			continue;
		}
		spins = 0;
		n++;
		/* Relaxed: the producers' in-flight bound only. */
		atomic_store_explicit(&cons[id].popped, n, memory_order_relaxed);
		if (n % 64 == 0)
			qb_quiescent();
	}
	/* Relaxed: read after the threads are joined. */
	atomic_store_explicit(&cons[id].drained, drain(lfq_take, &sum, &spins),
			      memory_order_relaxed);
	sums[id] = sum;
	rcu_unregister_thread();
	return NULL;
}

/* ---- defer: writers defer_rcu() what they replace, readers check ------- */

#define DEFER_CANARY 0x5afe0b1ec7UL

struct defer_obj {
	unsigned long canary;
};

static struct defer_obj *defer_slots[DEFER_SLOTS];
static atomic_ulong defer_bad;	/* reads that found a poisoned object */

/* A slot for the next step: xorshift, per thread. */
static unsigned defer_next_slot(unsigned long *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (unsigned)(*state % DEFER_SLOTS);
}

static struct defer_obj *defer_obj_new(void)
{
	struct defer_obj *o = malloc(sizeof(*o));

	if (!o)
		abort();
	o->canary = DEFER_CANARY;
	return o;
}

/* The deferred free: poisons first, so a reader that still held it
 * would count it in defer_bad. */
static void defer_obj_free(void *p)
{
	struct defer_obj *o = p;

	o->canary = 0;
	free(o);
}

static void *defer_writer(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg;
	unsigned long n = 0, state = 0x9e3779b97f4a7c15UL * (id + 1);

	pin(id);
	rcu_register_thread();
	if (rcu_defer_register_thread())
		abort();
	wait_for_go();
	while (!stopped()) {
		struct defer_obj *old =
			rcu_xchg_pointer(&defer_slots[defer_next_slot(&state)], defer_obj_new());

		defer_rcu(defer_obj_free, old);
		if (++n % 64 == 0)
			qb_quiescent();
	}
	/* Relaxed: read after the threads are joined. */
	atomic_store_explicit(&prod[id].pushed, n, memory_order_relaxed);
	rcu_defer_unregister_thread();
	rcu_unregister_thread();
	return NULL;
}

static void *defer_reader(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg;
	unsigned long n = 0, bad = 0, state = 0xc2b2ae3d27d4eb4fUL * (id + 1);

	worker_start(id + 1);
	while (!stopped()) {
		struct defer_obj *o;

		rcu_read_lock();
		o = rcu_dereference(defer_slots[defer_next_slot(&state)]);
		bad += o->canary != DEFER_CANARY;
		rcu_read_unlock();
		if (++n % 256 == 0)
			qb_quiescent();
	}
	/* Relaxed: read after the threads are joined. */
	atomic_store_explicit(&cons[id].popped, n, memory_order_relaxed);
	atomic_fetch_add_explicit(&defer_bad, bad, memory_order_relaxed);
	rcu_unregister_thread();
	return NULL;
}

static void setup(void)
{
	switch (wl) {
	case W_WFCQ:
		cds_wfcq_init(&wfcq_head, &wfcq_tail);
		break;
	case W_WFS:
	case W_WFS_ALL:
		cds_wfs_init(&wfs);
		break;
	case W_LFS:
	case W_LFS_ALL:
		cds_lfs_init(&lfs);
		break;
	case W_LFQ:
		cds_lfq_init_rcu(&lfq, call_rcu);
		return;
	case W_DEFER:
		for (unsigned i = 0; i < DEFER_SLOTS; i++)
			defer_slots[i] = defer_obj_new();
		return;
	}
	for (unsigned t = 0; t < nthreads; t++) {
		pools[t] = calloc(POOL, sizeof(struct item));
		if (!pools[t])
			abort();
		for (unsigned i = 0; i < POOL; i++)
			pools[t][i].owner = t;
	}
}

/* Empty structures are destroyed; a failure is reported. */
static int teardown(void)
{
	int bad = 0;

	switch (wl) {
	case W_WFCQ:
		bad = !cds_wfcq_empty(&wfcq_head, &wfcq_tail);
		cds_wfcq_destroy(&wfcq_head, &wfcq_tail);
		break;
	case W_WFS:
	case W_WFS_ALL:
		bad = !cds_wfs_empty(&wfs);
		cds_wfs_destroy(&wfs);
		break;
	case W_LFS:
	case W_LFS_ALL:
		bad = !cds_lfs_empty(&lfs);
		cds_lfs_destroy(&lfs);
		break;
	case W_LFQ:
		bad = cds_lfq_destroy_rcu(&lfq) != 0;
		return bad;
	case W_DEFER:
		for (unsigned i = 0; i < DEFER_SLOTS; i++)
			free(defer_slots[i]);
		/* Relaxed: the threads are joined. */
		return atomic_load_explicit(&defer_bad, memory_order_relaxed) != 0;
	}
	for (unsigned t = 0; t < nthreads; t++) {
		for (unsigned i = 0; i < POOL; i++)
			/* Relaxed: the threads are joined. */
			bad |= atomic_load_explicit(&pools[t][i].busy, memory_order_relaxed);
		free(pools[t]);
	}
	return bad;
}

static int usage(void)
{
	fprintf(stderr, "usage: queue-bench-%s [--workload wfcq|wfs|wfs-all|lfs|lfs-all|lfq|defer]"
			" [--threads T] [--seconds S] | --info\n", QB_IMPL);
	return 2;
}

int main(int argc, char **argv)
{
	pthread_t prods[MAX_THREADS], conss[MAX_THREADS];
	double seconds = 0.3, t0, t1;
	unsigned long pushed = 0, popped = 0, drained = 0, sum = 0, want = 0;
	int found = 0;

	nthreads = 1;
	wl = W_WFCQ;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			seconds = strtod(argv[++i], NULL);
		} else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
			nthreads = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--workload") && i + 1 < argc) {
			const char *w = argv[++i];

			found = 0;
			for (unsigned k = 0; k < sizeof(workload_names) / sizeof(workload_names[0]); k++)
				if (!strcmp(w, workload_names[k])) {
					wl = (enum workload)k;
					found = 1;
				}
			if (!found)
				return usage();
		} else if (!strcmp(argv[i], "--info")) {
			printf("INFO impl=%s flavour=%s\n", QB_IMPL, QB_FLAVOUR);
			return 0;
		} else {
			return usage();
		}
	}
	if (seconds <= 0)
		seconds = 0.3;
	if (nthreads < 1 || nthreads > MAX_THREADS)
		return usage();

	setup();
	rcu_register_thread();
	qb_offline();
	for (unsigned t = 0; t < nthreads; t++) {
		void *arg = (void *)(uintptr_t)t;

		void *(*cons_fn)(void *) = wl == W_LFQ ? lfq_consumer
					   : wl == W_DEFER ? defer_reader : consumer;
		void *(*prod_fn)(void *) = wl == W_LFQ ? lfq_producer
					   : wl == W_DEFER ? defer_writer : producer;

		if (pthread_create(&conss[t], NULL, cons_fn, arg) ||
		    pthread_create(&prods[t], NULL, prod_fn, arg))
			abort();
	}
	/* Relaxed: start and stop signals only (see wait_for_go()). */
	while (atomic_load_explicit(&ready, memory_order_relaxed) < (int)(2 * nthreads))
		sched_yield();
	t0 = now();
	atomic_store_explicit(&go, 1, memory_order_relaxed);
	{
		struct timespec ts = { (time_t)seconds,
				       (long)((seconds - (double)(time_t)seconds) * 1e9) };

		nanosleep(&ts, NULL);
	}
	atomic_store_explicit(&stop, 1, memory_order_relaxed);
	t1 = now();
	for (unsigned t = 0; t < nthreads; t++) {
		pthread_join(prods[t], NULL);
		pthread_join(conss[t], NULL);
	}
	qb_online();
	if (wl == W_LFQ)
		rcu_barrier();	/* every item freed */
	if (wl == W_DEFER) {
		rcu_defer_barrier();	/* every replaced object freed */
		rcu_barrier();
	}
	for (unsigned t = 0; t < nthreads; t++) {
		/* Relaxed: the threads are joined. */
		pushed += atomic_load_explicit(&prod[t].pushed, memory_order_relaxed);
		popped += atomic_load_explicit(&cons[t].popped, memory_order_relaxed);
		drained += atomic_load_explicit(&cons[t].drained, memory_order_relaxed);
		sum += sums[t];
	}
	if (wl == W_DEFER) {
		unsigned long writes = pushed;

		if (teardown() || !writes || !popped) {
			fprintf(stderr, "queue-bench-%s: defer: %lu writes, %lu reads, %lu reads"
					" of a freed object\n", QB_IMPL, writes, popped,
				/* Relaxed: the threads are joined. */
				atomic_load_explicit(&defer_bad, memory_order_relaxed));
			return 1;
		}
		rcu_unregister_thread();
		printf("RESULT impl=%s workload=defer threads=%u mops=%.4g reads_mops=%.4g\n",
		       QB_IMPL, nthreads, (double)writes / (t1 - t0) / 1e6,
		       (double)popped / (t1 - t0) / 1e6);
		return 0;
	}
	for (unsigned t = 0; t < nthreads; t++)
		want += (unsigned long)t * atomic_load_explicit(&prod[t].pushed,
								memory_order_relaxed);
	if (teardown() || pushed != popped + drained || sum != want || popped == 0) {
		fprintf(stderr, "queue-bench-%s: %s: pushed %lu, popped %lu + %lu after the run,"
				" owner sum %lu (want %lu)%s\n", QB_IMPL, workload_names[wl], pushed,
			popped, drained, sum, want, popped ? "" : ", nothing popped");
		return 1;
	}
	rcu_unregister_thread();
	printf("RESULT impl=%s workload=%s threads=%u mops=%.4g\n", QB_IMPL, workload_names[wl],
	       nthreads, (double)popped / (t1 - t0) / 1e6);
	return 0;
}
