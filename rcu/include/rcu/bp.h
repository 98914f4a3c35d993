/* SPDX-License-Identifier: MIT */
/*
 * rcu/bp.h - the bp ("bulletproof") flavour: memb's read side and grace
 * periods, without rcu_register_thread().
 *
 * A thread's first rcu_read_lock() registers it; its exit unregisters it.
 * So a library can take read locks on threads it did not create and whose
 * code it cannot change. The read side costs memb's plus one test of a
 * thread-local flag in the outermost rcu_read_lock(); grace periods are
 * memb's: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), or full fences on
 * both sides where the kernel refuses it or RCU_BP_FORCE_FENCES=1 is set in
 * the environment at start-up (decided once, before main).
 *
 * Rules:
 * - No call is needed before a thread reads. rcu_register_thread() may be
 *   called (it registers the thread now, outside any handler, and is a
 *   no-op when the thread is registered already); rcu_unregister_thread(),
 *   outside any read-side section, removes the thread from the registry
 *   until its next rcu_read_lock(). A thread that exits is unregistered on
 *   its way out (pthread key destructor), threads created by any library
 *   included; with RCU_DEBUG_CHECKS, exiting inside a read-side section
 *   aborts.
 * - Threads outside a read-side section never delay a grace period and may
 *   block freely. synchronize_rcu() may be called from any thread outside
 *   read-side sections.
 * - rcu_read_ongoing() is nonzero inside a read-side section.
 * - Async-signal-safe read side: a signal handler may call rcu_read_lock(),
 *   rcu_read_unlock() and rcu_read_ongoing(), even when it interrupts the
 *   thread inside either call or inside its own registration, and even when
 *   its rcu_read_lock() is the thread's first (that registration takes no
 *   lock and allocates nothing; see src/bp.c). Sections nest up to 65535
 *   deep. rcu_register_thread() and rcu_unregister_thread() themselves are
 *   not for handlers (the second takes the registry lock).
 * - rcu_retire() (lfht's, not liburcu's) runs its callbacks on the calling
 *   thread, inside its later rcu_retire() or rcu_retire_barrier() calls,
 *   after grace periods that the thread's own polls find (no lock, no
 *   worker, no wait); a bounded number stays pending (src/retire.c), and
 *   a thread that unregisters or exits hands the rest to the call_rcu
 *   worker. call_rcu() keeps liburcu's contract.
 * - The library must be loaded at start-up (linked, not dlopen()ed): the
 *   read side's thread-local state must be in static TLS, which a thread
 *   has from its creation, for a handler's first read lock to touch it.
 * - call_rcu(), rcu_barrier(), polling grace periods and fork() behave as
 *   in <rcu/memb.h>: one worker thread per flavour, and in a fork child only
 *   the forking thread is still registered (any other thread that reads
 *   there registers itself, as everywhere).
 *
 * Include one flavour header per translation unit. The short names below
 * are static inlines over exported rcu_bp_* symbols, so a program may use
 * several flavours in different translation units.
 */
#ifndef RCU_BP_H
#define RCU_BP_H

#ifdef RCU_FLAVOUR_SELECTED
#error "include only one of <rcu/qsbr.h>, <rcu/memb.h>, <rcu/bp.h> and <rcu/mb.h> per translation unit"
#endif
#define RCU_FLAVOUR_SELECTED 1
#define RCU_FLAVOUR_BP 1

#include <rcu/flavour.h>
#include <rcu/flavour-api.h>
#include <rcu/bp-prefixed.h>

#ifdef __cplusplus
extern "C" {
#endif

RCU_DECLARE_FLAVOUR("rcu_bp_flavour");

/* The liburcu-style names (rcu/flavour-api.h). */
RCU_FLAVOUR_SHORT_NAMES_(rcu_bp)

#ifdef __cplusplus
}
#endif

#endif /* RCU_BP_H */
