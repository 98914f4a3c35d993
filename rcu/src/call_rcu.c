/* SPDX-License-Identifier: MIT */
/*
 * call_rcu.c - deferred callbacks of one flavour: wait-free MPSC queues,
 * one per queueing thread plus a global one, the worker thread that drains
 * them all in batches behind one grace period each, and rcu_barrier().
 *
 * A queue is a singly linked list through rcu_head.next from its stub node
 * to its tail. A producer swaps its node into the tail, then links the
 * previous tail to it: wait-free, two atomic steps. The one consumer (the
 * worker) takes everything at once: it reads the first node behind the
 * stub, empties the stub and swaps the tail back to the stub; the nodes from
 * first to the old tail are its batch.
 *
 * Queues. Each thread that calls call_rcu() gets a queue of its own (struct
 * cb_queue, one cache line), taken from the list cb_queues: a queue whose
 * thread has exited (cb_queue_release(), a pthread key's destructor), or a
 * new one. Queues are never freed, so the list only grows, to the most
 * threads that ever queued at once. The owner's swap is on a line no other
 * producer writes: under contention the shared tail cost a cache-line
 * transfer per call (a third of a 4-writer update benchmark's time). A
 * queue is safe for any number of producers, so a thread still queueing
 * after its key's destructor, or two threads that claim one queue, are only
 * slower. rcu_barrier() and a thread whose queue cannot be allocated use
 * the global queue, cb_global.
 *
 * Announcing. A producer tells the worker about work through cb_q.pending
 * (on a line of its own), not on every call: when its swap finds its queue
 * empty (the stub was the tail: the worker took everything before), and
 * every CB_ANNOUNCE calls after that. A node that did not announce follows,
 * in its queue, one that did and that the worker has not taken yet (the
 * take swaps the stub back in, so the next swap announces): it goes in the
 * same take.
 *
 * Gathering. A grace period costs the same for one callback as for
 * thousands (memb: a membarrier() with IPIs to every CPU running the
 * process), so the worker does not start one as soon as it sees work: it
 * first waits, on a futex with a deadline, up to CB_GATHER_NS for more
 * callbacks, then takes every queue behind one grace period. A producer
 * that brings cb_q.pending (callbacks announced since the worker's last
 * take) to CB_BATCH_WAKE wakes it early, which bounds the memory waiting
 * (to that, plus CB_ANNOUNCE per thread); rcu_barrier() counts its
 * completion callback as CB_BATCH_WAKE, so a barrier never waits out the
 * delay (only a grace period and the callbacks before it).
 *
 * cb_q.futex is the worker's state: CB_RUNNING, CB_IDLE (asleep with
 * nothing announced: any announcement wakes it) or CB_GATHERING (waiting
 * out the delay: an announcement that brings pending to CB_BATCH_WAKE wakes
 * it). A producer that sees either swaps in CB_RUNNING and, if it saw a
 * sleeper, wakes it, so one producer pays for the syscall.
 *
 * Invariants between atomic steps:
 * - every node from a stub up to its tail is linked, except that a
 *   producer between its swap and its link leaves prev->next == NULL for a
 *   moment; the consumer then waits for that link (cb_wait_next), the only
 *   wait in the queue, and a short one: the producer's next instruction.
 * - a batch's last node never gets a next link from a producer: a producer
 *   that swapped after it did so before the consumer's swap, which then
 *   returned that producer's node as the last one instead. The worker
 *   links the batches of one pass into one chain through those links.
 * - pending counts announcements after their swaps; the worker zeroes
 *   pending before its takes. So every node is taken by the first pass that
 *   starts after its announcement (or its announced predecessor's), and an
 *   announcement counted after a zeroing at worst makes a pass early or
 *   empty.
 * - rcu_barrier(): a callback queued before the barrier's node (by any
 *   thread, on any queue) was swapped into its queue before the barrier's
 *   swap into cb_global; the worker takes cb_global first and every other
 *   queue after, so it takes that callback in the same pass or an earlier
 *   one, and a pass runs cb_global's batch last. Callbacks of one queue
 *   run in queue order.
 * - no lost wake-up: the worker stores its sleeping state, then re-reads
 *   pending; an announcing producer adds to pending, then reads the state;
 *   all seq_cst, so one of the two sees the other.
 * - QSBR: the worker is online only while it runs callbacks; it holds no
 *   RCU reference between batches, so no grace period waits for it there.
 *
 * struct rcu_head is a public plain struct (rcu/flavour.h), so its next
 * link is accessed through the GCC/clang __atomic builtins, as rcu/pointer.h
 * does for RCU pointers.
 *
 * Owns: the queues (cb_global, cb_queues), the announcement line (cb_q),
 * the worker and its start-up state. call_rcu() and rcu_barrier() are
 * call_rcu_queue() and call_rcu_barrier() (their exported names are
 * lifecycle.c's). A thread's first call_rcu() allocates its queue (or
 * reuses an exited thread's) and the process's first starts the worker;
 * after that call_rcu() neither allocates nor locks.
 *
 * Relies on: gp.c (gp_synchronize_rcu()), thread.c (the worker registers
 * as any thread), qsbr.c / memb.c (the quiescent-state ops and the wait
 * hooks), futex.h (plus one futex wait with a deadline of its own here),
 * debug.c. The worker calls them directly, not through the flavour object
 * (which is above this file, lifecycle.c): the same functions.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "futex.h"
#include "internal.h"

/* Polls of pending before the worker sleeps, and spins on a missing link
 * before yielding. */
#define CB_IDLE_POLLS 200
#define CB_LINK_SPINS 100
#define CB_BARRIER_SPINS 1000
/* QSBR: callbacks between the worker's quiescent states, so a long batch
 * does not hold up grace periods (a callback holds no RCU reference once it
 * has returned). */
#define CB_QS_INTERVAL 32
/* The longest the worker gathers callbacks before a grace period, and the
 * count that cuts it short. At 2M call_rcu/s (two threads deleting), 16384
 * is about 8 ms: some 120 grace periods a second, as liburcu's worker (which
 * sleeps 10 ms between batches) makes; 1000 made 1000 a second, each one a
 * membarrier IPI to every busy CPU, and halved memb update rates. */
#define CB_GATHER_NS 10000000L
#define CB_BATCH_WAKE 16384
/* A thread's calls between announcements while its queue holds work. */
#define CB_ANNOUNCE 256

/* The worker's states in cb_q.futex. */
#define CB_RUNNING 0
#define CB_IDLE (-1)
#define CB_GATHERING 1

struct cb_queue {
	_Alignas(64) _Atomic(struct rcu_head *) tail;
	struct rcu_head stub;
	/* The next queue in cb_queues; set before the queue is published. */
	struct cb_queue *next_queue;
	/* A thread uses it (a hint: any producer may use any queue). */
	_Atomic int owned;
};

/* rcu_barrier()'s queue, and that of threads without one of their own. */
static struct cb_queue cb_global = { .tail = &cb_global.stub };
/* Every per-thread queue, newest first; push-only. */
static _Atomic(struct cb_queue *) cb_queues;
static _Thread_local struct cb_queue *cb_own_queue RCU_TLS_MODEL_;
/* Calls since this thread last announced. */
static _Thread_local unsigned cb_unannounced RCU_TLS_MODEL_;
static pthread_key_t cb_queue_key;
static pthread_once_t cb_queue_key_once = PTHREAD_ONCE_INIT;
/* What announcing producers touch, on one cache line of its own. */
static struct {
	/* Callbacks announced (barriers count CB_BATCH_WAKE) since the last
	 * take. */
	_Alignas(64) _Atomic size_t pending;
	/* CB_RUNNING / CB_IDLE / CB_GATHERING, see above. */
	_Atomic int32_t futex;
} cb_q;
/* Whether the worker runs; changes under cb_worker_mutex. */
static _Atomic int cb_worker_started;
static pthread_mutex_t cb_worker_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Set on the worker while it runs callbacks. */
static _Thread_local bool cb_in_callback RCU_TLS_MODEL_;

static struct rcu_head *cb_load_next(struct rcu_head *n)
{
	/* Acquire: pairs with the release link store in cb_enqueue(); the
	 * linked node's func and NULL next are visible. */
	return __atomic_load_n(&n->next, __ATOMIC_ACQUIRE);
}

/* n is not the batch's last node: its link is there or about to be. */
static struct rcu_head *cb_wait_next(struct rcu_head *n)
{
	struct rcu_head *next;

	for (unsigned i = 0; (next = cb_load_next(n)) == NULL; i++) {
		if (i < CB_LINK_SPINS)
			rcu_cpu_relax();
		else
			sched_yield();
	}
	return next;
}

/* Takes every callback queued on q; false when q is empty. */
static bool cb_take_batch(struct cb_queue *q, struct rcu_head **first,
			  struct rcu_head **last)
{
	struct rcu_head *f = cb_load_next(&q->stub);

	if (f == NULL) {
		/* Acquire: pairs with the producers' release swaps in
		 * cb_enqueue(). */
		if (rcu_atomic_load(&q->tail, memory_order_acquire) == &q->stub)
			return false;
		f = cb_wait_next(&q->stub);
	}
	/* Relaxed: published to the next producer that links to the stub by
	 * the release half of the swap below. */
	__atomic_store_n(&q->stub.next, NULL, __ATOMIC_RELAXED);
	/* Acq_rel: acquire pairs with the producers' swaps in cb_enqueue()
	 * (their nodes' fields); release orders the stub reset before later
	 * links to it (a producer whose swap returns the stub acquires this
	 * swap before its release link store). */
	*last = rcu_atomic_xchg(&q->tail, &q->stub, memory_order_acq_rel);
	*first = f;
	return true;
}

/* Appends the batch first..last to the chain *chain..*chain_last. */
static void cb_chain_append(struct rcu_head **chain, struct rcu_head **chain_last,
			    struct rcu_head *first, struct rcu_head *last)
{
	/* Relaxed: the worker's own links, read only by itself. */
	if (*chain_last != NULL)
		__atomic_store_n(&(*chain_last)->next, first, __ATOMIC_RELAXED);
	else
		*chain = first;
	*chain_last = last;
}

/* Takes every queue's batch into one chain, cb_global's last (see the top
 * comment: rcu_barrier()); false when all were empty. */
static bool cb_take_all(struct rcu_head **first, struct rcu_head **last)
{
	struct rcu_head *gfirst, *glast, *f, *l;
	bool global = cb_take_batch(&cb_global, &gfirst, &glast);
	struct cb_queue *q;

	*first = *last = NULL;
	/* Acquire: pairs with the release push in cb_queue_claim(); a queue
	 * pushed before a barrier's swap that the take above saw is found
	 * (that swap released it, the take acquired it). */
	for (q = rcu_atomic_load(&cb_queues, memory_order_acquire); q != NULL;
	     q = q->next_queue)
		if (cb_take_batch(q, &f, &l))
			cb_chain_append(first, last, f, l);
	if (global)
		cb_chain_append(first, last, gfirst, glast);
	return *last != NULL;
}

static void cb_run_batch(struct rcu_head *n, struct rcu_head *last)
{
	cb_in_callback = true;
	for (unsigned i = 1;; i++) {
		/* Read the link first: the callback frees the node. */
		struct rcu_head *next = n == last ? NULL : cb_wait_next(n);

		/* The next node was written on the producer's CPU: fetch it
		 * while this callback runs rather than after. */
		if (next != NULL)
			__builtin_prefetch(next);
		n->func(n);
		if (next == NULL)
			break;
		if (i % CB_QS_INTERVAL == 0)
			flavour_op_quiescent_state();
		n = next;
	}
	cb_in_callback = false;
}

bool call_rcu_in_callback(void)
{
	return cb_in_callback;
}

/* Sleeps while *addr == val, until the CLOCK_MONOTONIC time end at most. */
static void cb_futex_wait_until(_Atomic int32_t *addr, int32_t val,
				const struct timespec *end)
{
	/* WAIT_BITSET: its timeout is absolute, on CLOCK_MONOTONIC. */
	(void)syscall(SYS_futex, addr, FUTEX_WAIT_BITSET_PRIVATE, val, end,
		      NULL, FUTEX_BITSET_MATCH_ANY);
}

static bool cb_time_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Nothing is announced: poll a little, then sleep. */
static void cb_sleep(void)
{
	for (unsigned i = 0; i < CB_IDLE_POLLS; i++) {
		/* Relaxed: only a hint; the worker's zeroing re-reads. */
		if (rcu_atomic_load(&cb_q.pending, memory_order_relaxed) != 0)
			return;
		rcu_cpu_relax();
	}
	/* Seq_cst store then seq_cst load of pending: with cb_announce()'s
	 * seq_cst add then seq_cst load of the state, one of us sees the
	 * other. */
	rcu_atomic_store(&cb_q.futex, CB_IDLE, memory_order_seq_cst);
	/* Relaxed state load: only whether a producer already swapped in
	 * CB_RUNNING (its wake may have come before our sleep). */
	while (rcu_atomic_load(&cb_q.pending, memory_order_seq_cst) == 0 &&
	       rcu_atomic_load(&cb_q.futex, memory_order_relaxed) == CB_IDLE)
		futex_wait(&cb_q.futex, CB_IDLE);
	/* Relaxed: the state orders nothing; the queue's atomics do. */
	rcu_atomic_store(&cb_q.futex, CB_RUNNING, memory_order_relaxed);
}

/* Work is queued: let more come, for CB_GATHER_NS or until pending reaches
 * CB_BATCH_WAKE (a barrier gets there at once). */
static void cb_gather(void)
{
	struct timespec now, end;

	/* Relaxed: only a shortcut; the seq_cst load below decides. */
	if (rcu_atomic_load(&cb_q.pending, memory_order_relaxed) >= CB_BATCH_WAKE)
		return;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += CB_GATHER_NS;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	/* Seq_cst store then seq_cst load of pending: with cb_enqueue()'s
	 * seq_cst add then seq_cst load of the state, one of us sees the
	 * other. */
	rcu_atomic_store(&cb_q.futex, CB_GATHERING, memory_order_seq_cst);
	/* Relaxed state load: as in cb_sleep(). */
	while (rcu_atomic_load(&cb_q.pending, memory_order_seq_cst) < CB_BATCH_WAKE &&
	       rcu_atomic_load(&cb_q.futex, memory_order_relaxed) == CB_GATHERING) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (!cb_time_before(&now, &end))
			break;
		cb_futex_wait_until(&cb_q.futex, CB_GATHERING, &end);
	}
	/* Relaxed: the state orders nothing; the queue's atomics do. */
	rcu_atomic_store(&cb_q.futex, CB_RUNNING, memory_order_relaxed);
}

static void *cb_worker(void *arg)
{
	struct rcu_head *first, *last;
	char name[16];

	(void)arg;
	/* A name of its own: a new thread inherits its creator's, and the
	 * first call_rcu() may come from any thread (a library's named
	 * worker, say, which tools and tests then find twice). */
	snprintf(name, sizeof(name), "rcu-cb-%s", FLAVOUR_NAME);
	pthread_setname_np(pthread_self(), name);
	thread_register();
	/* QSBR: offline except around callbacks (see the top comment). */
	flavour_op_thread_offline();
	for (;;) {
		/* Relaxed: a hint; cb_sleep() and the zeroing re-read. */
		if (rcu_atomic_load(&cb_q.pending, memory_order_relaxed) == 0) {
			cb_sleep();
			continue;
		}
		cb_gather();
		/* Acquire: pairs with the seq_cst add in cb_announce(); the
		 * swap of a node announced in what this zeroing reads happened
		 * before the takes below. */
		(void)rcu_atomic_xchg(&cb_q.pending, 0, memory_order_acquire);
		if (!cb_take_all(&first, &last))
			continue;
		/* The worker is offline: the grace period waits for others. */
		gp_synchronize_rcu();
		flavour_op_thread_online();
		cb_run_batch(first, last);
		/* QSBR: the callbacks' own read-side accesses are over. */
		flavour_op_thread_offline();
	}
	return NULL;
}

static void cb_start_worker(void)
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	int err;

	/* Acquire: pairs with the release store below (cheap re-test). */
	if (rcu_atomic_load(&cb_worker_started, memory_order_acquire))
		return;
	pthread_mutex_lock(&cb_worker_mutex);
	/* Relaxed: under cb_worker_mutex, which every store of it holds. */
	if (!rcu_atomic_load(&cb_worker_started, memory_order_relaxed)) {
		/* The worker takes no signals meant for the program. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		err = pthread_create(&thread, &attr, cb_worker, NULL);
		pthread_attr_destroy(&attr);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (err != 0) {
			fprintf(stderr, "rcu: call_rcu: cannot start the callback worker: %s\n",
				strerror(err));
			abort();
		}
		/* Release: pairs with the acquire test above. */
		rcu_atomic_store(&cb_worker_started, 1, memory_order_release);
	}
	pthread_mutex_unlock(&cb_worker_mutex);
}

/* q holds nothing: its stub is the tail. Only where no producer or
 * worker can touch q (before it is published, or in a fork child). */
static void cb_queue_empty(struct cb_queue *q)
{
	/* Relaxed: nobody else can see q (see above). */
	__atomic_store_n(&q->stub.next, NULL, __ATOMIC_RELAXED);
	rcu_atomic_store(&q->tail, &q->stub, memory_order_relaxed);
}

static void cb_queue_release(void *arg)
{
	struct cb_queue *q = arg;

	/* Relaxed: a hint; nothing is handed over with the queue. */
	rcu_atomic_store(&q->owned, 0, memory_order_relaxed);
}

static void cb_queue_key_create(void)
{
	/* Without the key, exited threads' queues are not reused. */
	if (pthread_key_create(&cb_queue_key, cb_queue_release) != 0)
		cb_queue_key = (pthread_key_t)-1;
}

/* This thread's queue: an exited thread's, or a new one; cb_global when
 * none can be allocated (tried again at the next call). */
static struct cb_queue *cb_queue_claim(void)
{
	struct cb_queue *q, *head;
	void *mem;

	/* Acquire: pairs with the release push below (the queue's fields). */
	for (q = rcu_atomic_load(&cb_queues, memory_order_acquire); q != NULL;
	     q = q->next_queue) {
		int free_q = 0;

		/* Relaxed: as in cb_queue_release(). */
		if (rcu_atomic_load(&q->owned, memory_order_relaxed) == 0 &&
		    rcu_atomic_cas(&q->owned, &free_q, 1, memory_order_relaxed,
				   memory_order_relaxed))
			break;
	}
	if (q == NULL) {
		if (posix_memalign(&mem, _Alignof(struct cb_queue), sizeof(*q)) != 0)
			return &cb_global;
		q = memset(mem, 0, sizeof(*q));
		/* Published by the release push below. */
		cb_queue_empty(q);
		/* Relaxed: as above. */
		rcu_atomic_store(&q->owned, 1, memory_order_relaxed);
		/* Relaxed: the release CAS below publishes the queue. */
		head = rcu_atomic_load(&cb_queues, memory_order_relaxed);
		do
			q->next_queue = head;
		/* Release: pairs with the acquire loads of cb_queues in
		 * cb_take_all() and above. */
		while (!rcu_atomic_cas(&cb_queues, &head, q, memory_order_release,
				       memory_order_relaxed));
	}
	pthread_once(&cb_queue_key_once, cb_queue_key_create);
	if (cb_queue_key != (pthread_key_t)-1)
		(void)pthread_setspecific(cb_queue_key, q);
	cb_own_queue = q;
	return q;
}

/* Tells the worker about weight more callbacks (see the top comment). */
static void cb_announce(size_t weight)
{
	size_t pending;
	int32_t state;

	/* Seq_cst: its release half pairs with the worker's acquire zeroing;
	 * ordered before the state load below (pairs with cb_gather() and
	 * cb_sleep()). */
	pending = rcu_atomic_add(&cb_q.pending, weight, memory_order_seq_cst) + weight;
	/* Seq_cst: pairs with the seq_cst state stores in cb_sleep() and
	 * cb_gather(). */
	state = rcu_atomic_load(&cb_q.futex, memory_order_seq_cst);
	/* Relaxed swap: only one producer wakes; the wake orders nothing. */
	if ((state == CB_IDLE ||
	     (state == CB_GATHERING && pending >= CB_BATCH_WAKE)) &&
	    rcu_atomic_xchg(&cb_q.futex, CB_RUNNING, memory_order_relaxed) != CB_RUNNING)
		futex_wake(&cb_q.futex, 1);
}

/* Queues head on q; true when q was empty (the worker had taken all). */
static bool cb_enqueue(struct cb_queue *q, struct rcu_head *head,
		       void (*func)(struct rcu_head *head))
{
	struct rcu_head *prev;

	head->func = func;
	/* Relaxed: published by the release link store below. */
	__atomic_store_n(&head->next, NULL, __ATOMIC_RELAXED);
	/* Acq_rel: acquire pairs with the worker's swap in cb_take_batch()
	 * (the stub reset); release pairs with its acquire swap or tail load
	 * there, and orders this swap before the caller's later swaps (a
	 * barrier's into cb_global, see the top comment). */
	prev = rcu_atomic_xchg(&q->tail, head, memory_order_acq_rel);
	/* Release: pairs with the acquire in cb_load_next(). */
	__atomic_store_n(&prev->next, head, __ATOMIC_RELEASE);
	return prev == &q->stub;
}

void call_rcu_queue(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	struct cb_queue *q = cb_own_queue;

	cb_start_worker();
	if (q == NULL)
		q = cb_queue_claim();
	cb_unannounced++;
	if (cb_enqueue(q, head, func) || cb_unannounced >= CB_ANNOUNCE ||
	    q == &cb_global) {
		cb_announce(cb_unannounced);
		cb_unannounced = 0;
	}
}

struct cb_barrier {
	struct rcu_head head;
	_Atomic int32_t done;
};

static void cb_barrier_done(struct rcu_head *head)
{
	struct cb_barrier *b = caa_container_of(head, struct cb_barrier, head);

	/* Release: pairs with the acquire load in rcu_barrier(); every
	 * callback before this one has run. */
	rcu_atomic_store(&b->done, 1, memory_order_release);
	/* b may be gone already; a wake on a stale address is at worst a
	 * spurious wake-up, which every futex wait here tolerates. */
	futex_wake(&b->done, 1);
}

void call_rcu_barrier(void)
{
	struct cb_barrier b = { .done = 0 };
	bool was_online;

	if (cb_in_callback) {
		fputs("rcu: rcu_barrier: called from a call_rcu callback\n", stderr);
		return;
	}
	rcu_check_outside_section_("rcu_barrier");
	cb_start_worker();
	(void)cb_enqueue(&cb_global, &b.head, cb_barrier_done);
	/* Counts as a full batch: the worker skips its gathering delay. */
	cb_announce(CB_BATCH_WAKE);
	/* QSBR: the worker's grace period must not wait for us. */
	was_online = flavour_wait_begin();
	/* Acquire: pairs with the release store in cb_barrier_done(). */
	for (unsigned i = 0; i < CB_BARRIER_SPINS &&
	     rcu_atomic_load(&b.done, memory_order_acquire) == 0; i++)
		rcu_cpu_relax();
	while (rcu_atomic_load(&b.done, memory_order_acquire) == 0)
		futex_wait(&b.done, 0);
	flavour_wait_end(was_online);
}

void call_rcu_fork_prepare(void)
{
	pthread_mutex_lock(&cb_worker_mutex);
}

void call_rcu_fork_parent(void)
{
	pthread_mutex_unlock(&cb_worker_mutex);
}

/*
 * The child has no worker: the next call_rcu() starts one. The queues are
 * emptied, not inherited: producers and the worker may have been writing
 * it while fork() copied memory page by page, so the child's copy need not
 * be a consistent list. Callbacks queued before fork() run in the parent
 * only (in the child their objects are merely never freed).
 */
void call_rcu_fork_child(void)
{
	/* The only thread: no concurrent access. */
	rcu_atomic_store(&cb_worker_started, 0, memory_order_relaxed);
	rcu_atomic_store(&cb_q.futex, CB_RUNNING, memory_order_relaxed);
	rcu_atomic_store(&cb_q.pending, 0, memory_order_relaxed);
	cb_in_callback = false;
	cb_unannounced = 0;
	cb_queue_empty(&cb_global);
	for (struct cb_queue *q = rcu_atomic_load(&cb_queues, memory_order_relaxed);
	     q != NULL; q = q->next_queue) {
		cb_queue_empty(q);
		/* The other threads are gone: their queues are free. */
		rcu_atomic_store(&q->owned, q == cb_own_queue, memory_order_relaxed);
	}
	/* Locked by this very thread in call_rcu_fork_prepare(). */
	pthread_mutex_unlock(&cb_worker_mutex);
}
