/* SPDX-License-Identifier: MIT */
/*
 * call_rcu.c - deferred callbacks of one flavour: a wait-free MPSC queue,
 * the worker thread that drains it in batches behind one grace period each,
 * and rcu_barrier().
 *
 * The queue is a singly linked list through rcu_head.next from a stub node
 * to cb_q.tail. Producers (call_rcu) swap themselves into the tail, then
 * link the previous tail to themselves: wait-free, two atomic steps, plus
 * one add to cb_q.pending on the same cache line. The one consumer (the
 * worker) takes everything at once: it reads the first node behind the
 * stub, empties the stub and swaps the tail back to the stub; the nodes from
 * first to the old tail are its batch.
 *
 * Gathering. A grace period costs the same for one callback as for
 * thousands (memb: a membarrier() with IPIs to every CPU running the
 * process), so the worker does not start one as soon as it sees work: it
 * first waits, on a futex with a deadline, up to CB_GATHER_NS for more
 * callbacks, then takes the whole queue behind one grace period. A producer
 * that brings cb_q.pending (callbacks counted since the worker's last take)
 * to CB_BATCH_WAKE wakes it early, which bounds the memory waiting in the
 * queue; rcu_barrier() counts its completion callback as CB_BATCH_WAKE, so a
 * barrier never waits out the delay (only a grace period and the callbacks
 * before it).
 *
 * cb_q.futex is the worker's state: CB_RUNNING, CB_IDLE (asleep on an empty
 * queue: any producer wakes it) or CB_GATHERING (waiting out the delay: a
 * producer that sees pending >= CB_BATCH_WAKE wakes it). A producer that
 * sees either swaps in CB_RUNNING and, if it saw a sleeper, wakes it, so
 * one producer pays for the syscall.
 *
 * Invariants between atomic steps:
 * - every node from the stub up to the tail is linked, except that a
 *   producer between its swap and its link leaves prev->next == NULL for a
 *   moment; the consumer then waits for that link (cb_wait_next), the only
 *   wait in the queue, and a short one: the producer's next instruction.
 * - a batch's last node never gets a next link: a producer that swapped
 *   after it did so before the consumer's swap, which then returned that
 *   producer's node as the last one instead.
 * - pending counts a node after its swap; the worker zeroes pending before
 *   its take. So a count the zeroing saw is of a node that batch contains
 *   (a barrier's weight seen there: the barrier's node is in it), and a node
 *   counted after the zeroing at worst makes the next batch start early.
 * - no lost wake-up: the worker stores its sleeping state, then re-reads
 *   the tail (idle) or pending (gathering); a producer swaps the tail and
 *   adds to pending, then reads the state; all seq_cst, so one of the two
 *   sees the other.
 * - callbacks run in queue order, so a completion callback queued by
 *   rcu_barrier() runs after everything queued before it.
 * - QSBR: the worker is online only while it runs callbacks; it holds no
 *   RCU reference between batches, so no grace period waits for it there.
 *
 * struct rcu_head is a public plain struct (rcu/flavour.h), so its next
 * link is accessed through the GCC/clang __atomic builtins, as rcu/pointer.h
 * does for RCU pointers.
 *
 * Owns: the queue (cb_q, cb_stub), the worker and its start-up state.
 * call_rcu() and rcu_barrier() are call_rcu_queue() and call_rcu_barrier()
 * (their exported names are lifecycle.c's).
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

/* Polls of an empty queue before the worker sleeps, and spins on a
 * missing link before yielding. */
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

/* The worker's states in cb_q.futex. */
#define CB_RUNNING 0
#define CB_IDLE (-1)
#define CB_GATHERING 1

static struct rcu_head cb_stub;
/* What every producer touches, on one cache line of its own. */
static struct {
	_Alignas(64) _Atomic(struct rcu_head *) tail;
	/* Callbacks (barriers count CB_BATCH_WAKE) since the last take. */
	_Atomic size_t pending;
	/* CB_RUNNING / CB_IDLE / CB_GATHERING, see above. */
	_Atomic int32_t futex;
} cb_q = { .tail = &cb_stub };
/* Whether the worker runs; changes under cb_worker_mutex. */
static _Atomic int cb_worker_started;
static pthread_mutex_t cb_worker_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Set on the worker while it runs callbacks. */
static _Thread_local bool cb_in_callback;

static struct rcu_head *cb_load_next(struct rcu_head *n)
{
	/* Acquire: pairs with the release link store in call_rcu(); the
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

/* Takes every queued callback; false when the queue is empty. */
static bool cb_take_batch(struct rcu_head **first, struct rcu_head **last)
{
	struct rcu_head *f = cb_load_next(&cb_stub);

	if (f == NULL) {
		/* Acquire: pairs with the producers' seq_cst swap in
		 * cb_enqueue(). */
		if (rcu_atomic_load(&cb_q.tail, memory_order_acquire) == &cb_stub)
			return false;
		f = cb_wait_next(&cb_stub);
	}
	/* Relaxed: published to the next producer that links to the stub by
	 * the release half of the swap below. */
	__atomic_store_n(&cb_stub.next, NULL, __ATOMIC_RELAXED);
	/* Acq_rel: acquire pairs with the producers' seq_cst swaps in
	 * cb_enqueue() (their nodes' fields); release orders the stub reset
	 * before later links to it (a producer whose swap returns the stub
	 * acquires this swap before its release link store). */
	*last = rcu_atomic_xchg(&cb_q.tail, &cb_stub, memory_order_acq_rel);
	*first = f;
	return true;
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

/* The worker finds the queue empty: poll a little, then sleep. */
static void cb_sleep(void)
{
	for (unsigned i = 0; i < CB_IDLE_POLLS; i++) {
		/* Relaxed: only a hint; cb_take_batch() re-reads. */
		if (rcu_atomic_load(&cb_q.tail, memory_order_relaxed) != &cb_stub)
			return;
		rcu_cpu_relax();
	}
	/* Seq_cst store then seq_cst load of the tail: with cb_enqueue()'s
	 * seq_cst swap then seq_cst load of the state, one of us sees the
	 * other. */
	rcu_atomic_store(&cb_q.futex, CB_IDLE, memory_order_seq_cst);
	/* Relaxed state load: only whether a producer already swapped in
	 * CB_RUNNING (its wake may have come before our sleep). */
	while (rcu_atomic_load(&cb_q.tail, memory_order_seq_cst) == &cb_stub &&
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
		/* Relaxed: a hint; cb_sleep() and cb_take_batch() re-read. */
		if (rcu_atomic_load(&cb_q.tail, memory_order_relaxed) == &cb_stub) {
			cb_sleep();
			continue;
		}
		cb_gather();
		/* Acquire: pairs with the seq_cst add in cb_enqueue(); a node
		 * counted in what this zeroing reads is in the take below. */
		(void)rcu_atomic_xchg(&cb_q.pending, 0, memory_order_acquire);
		if (!cb_take_batch(&first, &last))
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

/* Queues head; weight is what it adds to pending (see the top comment). */
static void cb_enqueue(struct rcu_head *head, void (*func)(struct rcu_head *head),
		       size_t weight)
{
	struct rcu_head *prev;
	size_t pending;
	int32_t state;

	cb_start_worker();
	head->func = func;
	/* Relaxed: published by the release link store below. */
	__atomic_store_n(&head->next, NULL, __ATOMIC_RELAXED);
	/* Seq_cst: acquire/release with the consumer's swap, and ordered
	 * before the state load below (pairs with cb_sleep()). */
	prev = rcu_atomic_xchg(&cb_q.tail, head, memory_order_seq_cst);
	/* Release: pairs with the acquire in cb_load_next(). */
	__atomic_store_n(&prev->next, head, __ATOMIC_RELEASE);
	/* Seq_cst: its release half pairs with the worker's acquire zeroing;
	 * ordered before the state load below (pairs with cb_gather()). */
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

void call_rcu_queue(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	cb_enqueue(head, func, 1);
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
	/* Counts as a full batch: the worker skips its gathering delay. */
	cb_enqueue(&b.head, cb_barrier_done, CB_BATCH_WAKE);
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
 * The child has no worker: the next call_rcu() starts one. The queue is
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
	__atomic_store_n(&cb_stub.next, NULL, __ATOMIC_RELAXED);
	rcu_atomic_store(&cb_q.tail, &cb_stub, memory_order_relaxed);
	/* Locked by this very thread in call_rcu_fork_prepare(). */
	pthread_mutex_unlock(&cb_worker_mutex);
}
