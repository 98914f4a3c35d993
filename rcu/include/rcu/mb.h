/* SPDX-License-Identifier: MIT */
/*
 * rcu/mb.h - the mb flavour: RCU with a full memory barrier on the read
 * side, no membarrier and no signals.
 *
 * Read-side sections nest; the outermost rcu_read_lock() stores a snapshot
 * of the grace-period counter in a thread-local word and runs one full
 * fence, the outermost rcu_read_unlock() stores 0 and runs one more.
 * synchronize_rcu() pairs with those fences by fences of its own, so a
 * grace period costs no system call to interrupt other CPUs: choose mb
 * where membarrier is unavailable or unwanted (a kernel without it, a
 * seccomp filter that forbids it, real-time threads that must not take
 * its IPIs), or where grace periods are frequent and reads are rare. It
 * is memb in fence mode, without the test of the mode.
 *
 * Rules (those of <rcu/memb.h>):
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
 *   when it interrupts the thread inside either call (see rcu/reader.h).
 *   Sections nest up to 65535 deep.
 * - call_rcu(), rcu_retire(), rcu_barrier(), polling grace periods and
 *   fork() behave as in <rcu/memb.h>: one worker thread per flavour, and
 *   in a fork child only the forking thread is still registered.
 *
 * Include one flavour header per translation unit. The short names below
 * are static inlines over exported rcu_mb_* symbols, so a program may use
 * several flavours in different translation units.
 */
#ifndef RCU_MB_H
#define RCU_MB_H

#ifdef RCU_FLAVOUR_SELECTED
#error "include only one of <rcu/qsbr.h>, <rcu/memb.h>, <rcu/bp.h> and <rcu/mb.h> per translation unit"
#endif
#define RCU_FLAVOUR_SELECTED 1
#define RCU_FLAVOUR_MB 1

#include <rcu/flavour.h>
#include <rcu/flavour-api.h>
#include <rcu/mb-prefixed.h>

#ifdef __cplusplus
extern "C" {
#endif

RCU_DECLARE_FLAVOUR("rcu_mb_flavour");

/* The liburcu-style names (rcu/flavour-api.h). */
RCU_FLAVOUR_SHORT_NAMES_(rcu_mb)

#ifdef __cplusplus
}
#endif

#endif /* RCU_MB_H */
