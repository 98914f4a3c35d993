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
 * - call_rcu(), rcu_barrier(), polling grace periods and fork() behave as
 *   in <rcu/memb.h>: one worker thread per flavour, and in a fork child only
 *   the forking thread is still registered.
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

#include <rcu/atomic.h>
#include <rcu/flavour.h>
#include <rcu/flavour-api.h>
#include <rcu/pointer.h>
#include <rcu/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

RCU_DECLARE_FLAVOUR("rcu_mb_flavour");

/* The exported functions and state (rcu/flavour-api.h); the flavour's ops
 * are these. */
RCU_FLAVOUR_EXPORTS_(rcu_mb);

/*
 * memb's read side (rcu/reader.h) with its fences always on: the outermost
 * lock is a load of the counter, one store and one seq_cst fence; the
 * outermost unlock one store, one seq_cst fence and the load of the futex
 * word.
 */
static inline void rcu_mb_read_lock_fast_(void)
{
	if (!rcu_ctr_read_lock_nested_(&rcu_mb_reader_))
		rcu_ctr_read_lock_outermost_(&rcu_mb_reader_, &rcu_mb_gp_, true);
}

static inline void rcu_mb_read_unlock_fast_(void)
{
	rcu_ctr_read_unlock_(&rcu_mb_reader_, &rcu_mb_gp_, true,
			     rcu_mb_wake_writer_);
}

/* The read-side nesting depth of the calling thread. */
static inline unsigned long rcu_mb_nesting_(void)
{
	return rcu_ctr_nesting_(&rcu_mb_reader_);
}

/* Whether the thread is inside a read-side section. */
static inline int rcu_mb_read_ongoing_inline_(void)
{
	return rcu_mb_nesting_() != 0;
}

#ifdef RCU_DEBUG_CHECKS
static inline void rcu_mb_read_lock_inline_(void)
{
	if (!rcu_mb_reader_.registered)
		rcu_mb_misuse_("rcu_read_lock", "thread not registered");
	if (rcu_mb_nesting_() == RCU_NEST_MASK_)
		rcu_mb_misuse_("rcu_read_lock", "read-side sections nested too deep");
	rcu_mb_read_lock_fast_();
}

static inline void rcu_mb_read_unlock_inline_(void)
{
	if (rcu_mb_nesting_() == 0)
		rcu_mb_misuse_("rcu_read_unlock",
			       "not inside a read-side critical section");
	rcu_mb_read_unlock_fast_();
}
#else
static inline void rcu_mb_read_lock_inline_(void) { rcu_mb_read_lock_fast_(); }
static inline void rcu_mb_read_unlock_inline_(void) { rcu_mb_read_unlock_fast_(); }
#endif

/* The liburcu-style names (rcu/flavour-api.h). */
RCU_FLAVOUR_SHORT_NAMES_(rcu_mb)

#ifdef __cplusplus
}
#endif

#endif /* RCU_MB_H */
