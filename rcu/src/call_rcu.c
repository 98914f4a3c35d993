/* SPDX-License-Identifier: MIT */
/*
 * call_rcu.c - deferred callbacks of one flavour: a wait-free MPSC queue,
 * the worker thread that drains it in batches behind one grace period each,
 * and rcu_barrier().
 *
 * The queue is a singly linked list through rcu_head.next from a stub node
 * to cb_tail. Producers (call_rcu) swap themselves into cb_tail, then link
 * the previous tail to themselves: wait-free, two atomic steps. The one
 * consumer (the worker) takes everything at once: it reads the first node
 * behind the stub, empties the stub and swaps cb_tail back to the stub; the
 * nodes from first to the old tail are its batch.
 *
 * Invariants between atomic steps:
 * - every node from the stub up to cb_tail is linked, except that a
 *   producer between its swap and its link leaves prev->next == NULL for a
 *   moment; the consumer then waits for that link (cb_wait_next), the only
 *   wait in the queue, and a short one: the producer's next instruction.
 * - a batch's last node never gets a next link: a producer that swapped
 *   after it did so before the consumer's swap, which then returned that
 *   producer's node as the last one instead.
 * - callbacks run in queue order, so a completion callback queued by
 *   rcu_barrier() runs after everything queued before it.
 *
 * struct rcu_head is a public plain struct (rcu/flavour.h), so its next
 * link is accessed through the GCC/clang __atomic builtins, as rcu/pointer.h
 * does for RCU pointers.
 *
 * Relies on: gp.c through the flavour object (synchronize_rcu), qsbr.c /
 * memb.c (online/offline hooks), futex.h.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static struct rcu_head cb_stub;
static _Atomic(struct rcu_head *) cb_tail = &cb_stub;
/* -1 while the worker sleeps (or is about to), else 0. */
static _Atomic int32_t cb_futex;
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
		/* Acquire: pairs with the producers' seq_cst swap. */
		if (rcu_atomic_load(&cb_tail, memory_order_acquire) == &cb_stub)
			return false;
		f = cb_wait_next(&cb_stub);
	}
	/* Relaxed: published to the next producer that links to the stub by
	 * the release half of the swap below. */
	__atomic_store_n(&cb_stub.next, NULL, __ATOMIC_RELAXED);
	/* Acq_rel: acquire pairs with the producers' swaps (their nodes'
	 * fields); release orders the stub reset before later links to it. */
	*last = rcu_atomic_xchg(&cb_tail, &cb_stub, memory_order_acq_rel);
	*first = f;
	return true;
}

static void cb_run_batch(struct rcu_head *n, struct rcu_head *last)
{
	cb_in_callback = true;
	for (unsigned i = 1;; i++) {
		/* Read the link first: the callback frees the node. */
		struct rcu_head *next = n == last ? NULL : cb_wait_next(n);

		n->func(n);
		if (next == NULL)
			break;
		if (i % CB_QS_INTERVAL == 0)
			rcu_flavour.quiescent_state();
		n = next;
	}
	cb_in_callback = false;
}

/* The worker finds the queue empty: poll a little, then sleep offline. */
static void cb_sleep(void)
{
	for (unsigned i = 0; i < CB_IDLE_POLLS; i++) {
		/* Relaxed: only a hint; cb_take_batch() re-reads. */
		if (rcu_atomic_load(&cb_tail, memory_order_relaxed) != &cb_stub)
			return;
		rcu_cpu_relax();
	}
	rcu_flavour.thread_offline();
	/* Seq_cst store then seq_cst load: with call_rcu()'s seq_cst swap
	 * then seq_cst load of cb_futex, one of us sees the other. */
	rcu_atomic_store(&cb_futex, -1, memory_order_seq_cst);
	while (rcu_atomic_load(&cb_tail, memory_order_seq_cst) == &cb_stub &&
	       rcu_atomic_load(&cb_futex, memory_order_relaxed) == -1)
		futex_wait(&cb_futex, -1);
	rcu_atomic_store(&cb_futex, 0, memory_order_relaxed);
	rcu_flavour.thread_online();
}

static void *cb_worker(void *arg)
{
	struct rcu_head *first, *last;

	(void)arg;
	rcu_flavour.register_thread();
	for (;;) {
		if (!cb_take_batch(&first, &last)) {
			cb_sleep();
			continue;
		}
		/* QSBR: offline for the wait, back online for the callbacks. */
		rcu_flavour.synchronize_rcu();
		cb_run_batch(first, last);
		/* QSBR: the callbacks' own read-side accesses are over. */
		rcu_flavour.quiescent_state();
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

void RCU_SYM_(call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	struct rcu_head *prev;

	cb_start_worker();
	head->func = func;
	/* Relaxed: published by the release link store below. */
	__atomic_store_n(&head->next, NULL, __ATOMIC_RELAXED);
	/* Seq_cst: acquire/release with the consumer's swap, and ordered
	 * before the cb_futex load below (pairs with cb_sleep()). */
	prev = rcu_atomic_xchg(&cb_tail, head, memory_order_seq_cst);
	/* Release: pairs with the acquire in cb_load_next(). */
	__atomic_store_n(&prev->next, head, __ATOMIC_RELEASE);
	/* Seq_cst: pairs with the seq_cst store of -1 in cb_sleep(). */
	if (rcu_atomic_load(&cb_futex, memory_order_seq_cst) == -1 &&
	    rcu_atomic_xchg(&cb_futex, 0, memory_order_relaxed) == -1)
		futex_wake(&cb_futex, 1);
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

void RCU_SYM_(barrier)(void)
{
	struct cb_barrier b = { .done = 0 };
	bool was_online;

	if (cb_in_callback) {
		fputs("rcu: rcu_barrier: called from a call_rcu callback\n", stderr);
		return;
	}
	rcu_check_outside_section_("rcu_barrier");
	RCU_SYM_(call_rcu)(&b.head, cb_barrier_done);
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
	rcu_atomic_store(&cb_futex, 0, memory_order_relaxed);
	cb_in_callback = false;
	__atomic_store_n(&cb_stub.next, NULL, __ATOMIC_RELAXED);
	rcu_atomic_store(&cb_tail, &cb_stub, memory_order_relaxed);
	/* Locked by this very thread in call_rcu_fork_prepare(). */
	pthread_mutex_unlock(&cb_worker_mutex);
}
