/* SPDX-License-Identifier: MIT */
/*
 * rcu/memb.h - the memb flavour: RCU with sys_membarrier.
 *
 * Read-side sections nest and cost one load and one store of a thread-local
 * word (the grace-period counter's snapshot plus the nesting depth) and a
 * compiler barrier; synchronize_rcu() makes
 * every running thread execute a full memory barrier with
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) instead. Where the kernel
 * refuses membarrier, or RCU_MEMB_FORCE_FENCES=1 is set in the environment
 * at start-up, readers use full fences instead (decided once, before main).
 *
 * Rules:
 * - Register each thread that reads (rcu_register_thread()) and unregister
 *   it, outside any read-side section, before it exits. Threads outside a
 *   read-side section never delay a grace period and may block freely.
 *   A thread that exits still registered is unregistered on its way out
 *   (pthread key destructor); with RCU_DEBUG_CHECKS, exiting inside a
 *   read-side section aborts. Registering twice is a no-op (with checks:
 *   abort); unregistering an unregistered thread is a no-op.
 * - synchronize_rcu() may be called from any thread, registered or not,
 *   outside read-side sections.
 * - rcu_read_ongoing() is nonzero inside a read-side section.
 * - Async-signal-safe read side: a signal handler may call rcu_read_lock(),
 *   rcu_read_unlock() and rcu_read_ongoing() on a registered thread, even
 *   when it interrupts the thread inside either call, and its read-side
 *   section is protected like any other (see rcu/reader.h). Sections nest
 *   up to 65535 deep.
 * - call_rcu() callbacks run on one worker thread per flavour (created on
 *   first use, registered), one grace period per batch. rcu_barrier() waits
 *   until every callback queued before it has run; called from a callback
 *   it prints a message and returns.
 * - rcu_retire() (lfht's, not liburcu's) runs its callbacks on the calling
 *   thread, inside its later rcu_retire() or rcu_retire_barrier() calls,
 *   after grace periods that the thread's own polls find (no lock, no
 *   worker, no wait); a bounded number stays pending (src/retire.c), and
 *   a thread that unregisters or exits hands the rest to the call_rcu
 *   worker. call_rcu() keeps liburcu's contract.
 * - fork(): the child may keep using RCU (pthread_atfork handlers keep the
 *   registry and locks consistent). Only the forking thread is still
 *   registered there, in the state it had; the call_rcu worker is created
 *   again on first call_rcu(). Callbacks queued before fork() run in the
 *   parent only: the child starts with an empty queue (its copies of those
 *   objects are never freed), and its rcu_barrier() waits for its own.
 *
 * Include one flavour header per translation unit. The short names below
 * are static inlines over exported rcu_memb_* symbols, so a program may use
 * both flavours in different translation units.
 */
#ifndef RCU_MEMB_H
#define RCU_MEMB_H

#ifdef RCU_FLAVOUR_SELECTED
#error "include only one of <rcu/qsbr.h>, <rcu/memb.h>, <rcu/bp.h> and <rcu/mb.h> per translation unit"
#endif
#define RCU_FLAVOUR_SELECTED 1
#define RCU_FLAVOUR_MEMB 1

#include <rcu/flavour.h>
#include <rcu/flavour-api.h>
#include <rcu/memb-prefixed.h>

#ifdef __cplusplus
extern "C" {
#endif

RCU_DECLARE_FLAVOUR("rcu_memb_flavour");

/* The liburcu-style names (rcu/flavour-api.h). */
RCU_FLAVOUR_SHORT_NAMES_(rcu_memb)

#ifdef __cplusplus
}
#endif

#endif /* RCU_MEMB_H */
