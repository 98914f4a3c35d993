/* SPDX-License-Identifier: MIT */
/*
 * bp.c - the bp flavour's registration: a thread registers itself on its
 * first rcu_read_lock() (or rcu_register_thread()), from any context,
 * signal handlers included. Everything else of bp is memb's (memb.c,
 * registry.c, gp.c, call_rcu.c, poll.c, fork.c, built with -DRCU_BUILD_BP).
 *
 * Why no lock and no allocation: the first read lock may run in a signal
 * handler that interrupted its thread anywhere, also inside malloc() or
 * while the thread held the registry lock (in synchronize_rcu()). So:
 * - The slot is the thread's own reader state, rcu_bp_reader_: initial-exec
 *   TLS (rcu/reader.h), which the C library allocated with the thread.
 * - Linking it is a compare-and-swap push onto bp_pending, a lock-free
 *   stack of threads not yet on the registry list. Whoever takes the
 *   registry lock (registry_lock(): grace periods, unregistration, fork)
 *   first moves the whole stack onto the registry list (bp_pending_absorb),
 *   taking it at once with an exchange: items are never popped one by one,
 *   so there is no ABA problem and pushers never wait.
 * - The thread's handlers are the only code that may run between its own
 *   steps, so the test of registered, the push and the store of registered
 *   run with every signal blocked (pthread_sigmask, async-signal-safe): a
 *   handler never finds the thread half-registered, and the thread is
 *   pushed once. (registered is a plain bool, as in memb, whose debug
 *   checks read it from handlers too: no handler can run while it is
 *   written, so a handler reads a settled value, and the interrupted code
 *   tests it again with signals blocked.)
 * - The exit hook (pthread_setspecific, registry.c) is a plain store in
 *   glibc for the registry's key (see registry_key_signal_safe()).
 * Unregistration (the key's destructor at thread exit, or
 * rcu_unregister_thread()) takes the registry lock, which first absorbs the
 * stack, so the thread's state, freed with its TLS, is on no list after.
 *
 * Invariants between atomic steps: a registered thread is on exactly one of
 * bp_pending and the registry (or a grace period's private list, gp.c);
 * only a holder of the registry lock moves readers from bp_pending.
 *
 * Ordering (besides memb's, gp.c notes 1-5): a grace period absorbs the
 * stack when it takes the registry lock, before it increments the counter.
 * A reader pushed before that exchange is on the list and is scanned as in
 * memb. A reader pushed after it read the exchange's NULL (or a later
 * value) with the acquire half of its CAS, so the unlinks the updater made
 * before synchronize_rcu() happen before that reader's section: it cannot
 * find what they removed, and the grace period need not wait for it.
 *
 * Relies on: registry.c (list, lock, exit hook), memb.c (grace periods'
 * fences), <rcu/bp.h>.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>

#include "internal.h"

/* Threads that registered since the registry lock was last taken, linked
 * through their reader state's next. */
static RCU_ATOMIC_(struct rcu_reader_ *) bp_pending;

static void bp_pending_push(struct rcu_reader_ *r)
{
	/* Relaxed: only the first guess; the CAS checks it. */
	struct rcu_reader_ *head = rcu_atomic_load(&bp_pending,
						   memory_order_relaxed);

	do {
		r->next = head;
		/* Release: publishes r->next; pairs with the acquire half of
		 * the exchange in bp_pending_absorb(). Acquire: pairs with the
		 * release half of that exchange; a grace period that missed
		 * us made its caller's unlinks visible to our sections (see
		 * the top comment). Relaxed on failure: head is retried. */
	} while (!rcu_atomic_cas_weak(&bp_pending, &head, r,
				      memory_order_acq_rel,
				      memory_order_relaxed));
}

void bp_pending_absorb(void)
{
	/* Acq_rel: pairs with the CAS in bp_pending_push(), both ways (see
	 * there). */
	struct rcu_reader_ *r = rcu_atomic_xchg(&bp_pending, NULL,
						memory_order_acq_rel);

	while (r != NULL) {
		struct rcu_reader_ *next = r->next;

		reader_list_add_tail(r, &registry_readers);
		r = next;
	}
}

/* The child's only thread is the forking one, which registry_lock() in
 * the prepare handler moved to the registry if it was pending: whatever is
 * pending now belongs to threads that do not exist here. Relaxed: no other
 * thread exists. */
void bp_pending_forget(void)
{
	rcu_atomic_store(&bp_pending, NULL, memory_order_relaxed);
}

void RCU_SYM_(register_thread)(void)
{
	struct rcu_reader_ *r = &self_reader;
	sigset_t all, old;

	if (r->registered)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	/* Again: a handler may have registered us before the mask took. */
	if (!r->registered) {
		bp_pending_push(r);
		r->registered = true;
		registry_arm_exit_hook(r);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
