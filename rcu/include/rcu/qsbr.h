/* SPDX-License-Identifier: MIT */
/*
 * rcu/qsbr.h - the QSBR flavour: quiescent-state-based RCU.
 *
 * Readers pay nothing: rcu_read_lock() and rcu_read_unlock() compile to no
 * instructions (with RCU_DEBUG_CHECKS they keep a nesting count to catch
 * misuse). Instead, every registered thread is "online" and must announce
 * quiescent states from time to time with rcu_quiescent_state(), at points
 * where it holds no RCU-protected pointer, or go offline around long waits
 * (rcu_thread_offline()/rcu_thread_online()). synchronize_rcu() waits until
 * every online thread has announced a quiescent state; offline threads are
 * skipped. A registered thread starts online.
 *
 * Rules:
 * - Register each thread that reads (rcu_register_thread()) and unregister
 *   it before it exits. A thread that blocks while online stalls every
 *   grace period.
 *   A thread that exits still registered is unregistered on its way out
 *   (pthread key destructor); with RCU_DEBUG_CHECKS, exiting inside a
 *   read-side section aborts. Registering twice is a no-op (with checks:
 *   abort); unregistering an unregistered thread is a no-op.
 * - synchronize_rcu() may be called from any thread, registered or not.
 *   From an online thread it goes offline for the wait and comes back
 *   online, so it must not be called inside a read-side section.
 * - rcu_read_ongoing() is nonzero while the thread is online (in QSBR an
 *   online thread may hold RCU pointers anywhere between quiescent states).
 * - Async-signal-safe read side: a signal handler may enter a read-side
 *   section on a thread that is online, whatever instruction it interrupted
 *   (rcu_read_lock() and rcu_read_unlock() included: they change nothing a
 *   grace period reads, and rcu_quiescent_state() keeps the thread online
 *   throughout). A handler that runs while its thread is offline, or inside
 *   rcu_thread_offline()/rcu_thread_online(), is not protected, as in
 *   liburcu.
 * - With RCU_DEBUG_CHECKS, rcu_quiescent_state(), rcu_thread_offline() and
 *   rcu_thread_online() abort on an unregistered thread or inside a
 *   read-side section, as do the memb-like misuses (synchronize_rcu and
 *   rcu_barrier inside a section, rcu_read_lock on an unregistered thread,
 *   unbalanced rcu_read_unlock, double registration, unregistering inside a
 *   section).
 * - The flavour ops (rcu_flavour.quiescent_state, .thread_offline,
 *   .thread_online, i.e. the exported rcu_qsbr_* functions), which
 *   flavour-agnostic code such as liblfht calls on whatever thread it runs
 *   on, do nothing on an unregistered thread instead of aborting.
 * - call_rcu() callbacks run on one worker thread per flavour (created on
 *   first use), registered and online while callbacks run, one grace period
 *   per batch. rcu_barrier() waits until every callback queued before it has
 *   run; called from a callback it prints a message and returns.
 * - rcu_retire() (lfht's, not liburcu's) runs its callbacks on the calling
 *   thread, inside its later rcu_retire() or rcu_retire_barrier() calls,
 *   after grace periods that the thread's own polls find (no lock, no
 *   worker, no wait); a bounded number stays pending (src/retire.c), and
 *   a thread that unregisters or exits hands the rest to the call_rcu
 *   worker. call_rcu() keeps liburcu's contract. The caller's own
 *   retires also wait for its next quiescent state.
 * - fork(): the child may keep using RCU (pthread_atfork handlers keep the
 *   registry and locks consistent). Only the forking thread is still
 *   registered there, in the state it had; the call_rcu worker is created
 *   again on first call_rcu(). Callbacks queued before fork() run in the
 *   parent only: the child starts with an empty queue (its copies of those
 *   objects are never freed), and its rcu_barrier() waits for its own.
 *
 * Include one flavour header per translation unit. The short names below
 * are static inlines over exported rcu_qsbr_* symbols, so a program may use
 * both flavours in different translation units.
 */
#ifndef RCU_QSBR_H
#define RCU_QSBR_H

#ifdef RCU_FLAVOUR_SELECTED
#error "include only one of <rcu/qsbr.h>, <rcu/memb.h>, <rcu/bp.h> and <rcu/mb.h> per translation unit"
#endif
#define RCU_FLAVOUR_SELECTED 1
#define RCU_FLAVOUR_QSBR 1

#include <rcu/flavour.h>
#include <rcu/flavour-api.h>
#include <rcu/qsbr-prefixed.h>

#ifdef __cplusplus
extern "C" {
#endif

RCU_DECLARE_FLAVOUR("rcu_qsbr_flavour");

/* The liburcu-style names: those of both flavours (rcu/flavour-api.h),
 * then QSBR's own. */
RCU_FLAVOUR_SHORT_NAMES_(rcu_qsbr)

static inline void rcu_quiescent_state(void)
{
	rcu_qsbr_check_outside_("rcu_quiescent_state");
	rcu_qsbr_quiescent_state_inline_();
}
static inline void rcu_thread_offline(void)
{
	rcu_qsbr_check_outside_("rcu_thread_offline");
	rcu_qsbr_thread_offline_inline_();
}
static inline void rcu_thread_online(void)
{
	rcu_qsbr_check_outside_("rcu_thread_online");
	rcu_qsbr_thread_online_inline_();
}

#ifdef __cplusplus
}
#endif

#endif /* RCU_QSBR_H */
