/* SPDX-License-Identifier: MIT */
/*
 * bp.c - the bp flavour's way to join the registry: a thread registers
 * itself on its first rcu_read_lock() (or rcu_register_thread(), thread.c,
 * which calls bp_join() here), from any context, signal handlers included.
 * Everything else of bp is memb's (memb.c, gp.c, call_rcu.c, ..., built
 * with -DRCU_BUILD_BP); the membership itself is registry.c's.
 *
 * Owns: only the policy, no data. Why no lock and no allocation: the first
 * read lock may run in a signal handler that interrupted its thread
 * anywhere, also inside malloc() or while the thread held the registry lock
 * (in synchronize_rcu()). So:
 * - The slot is the thread's own reader state, rcu_bp_reader_: initial-exec
 *   TLS (rcu/reader.h), which the C library allocated with the thread.
 * - Linking it is registry_push(), a lock-free push that the next
 *   registry_lock() absorbs (registry.c states its ordering).
 * - The thread's handlers are the only code that may run between its own
 *   steps, so the test of registered, the push (which sets registered)
 *   and the arming of the exit hook run with every signal blocked
 *   (pthread_sigmask, async-signal-safe): a handler never finds the thread
 *   half-registered, and the thread is pushed once. (registered is a plain
 *   bool, as in memb, whose debug checks read it from handlers too: no
 *   handler can run while it is written, so a handler reads a settled
 *   value, and the interrupted code tests it again with signals blocked.)
 * - The exit hook (registry_arm_exit_hook()) is a plain store in glibc
 *   for the registry's key (see registry_key_signal_safe(), registry.c).
 * Unregistration (the key's destructor at thread exit, or
 * rcu_unregister_thread()) takes the registry lock, which first absorbs the
 * stack, so the thread's state, freed with its TLS, is on no list after.
 *
 * Relies on: registry.c (push, exit hook), <rcu/bp.h>.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>

#include "internal.h"

void bp_join(struct rcu_reader_ *r)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	/* Again: a handler may have registered us before the mask took. */
	if (!r->registered) {
		registry_push(r);
		registry_arm_exit_hook(r);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
