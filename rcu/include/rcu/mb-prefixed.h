/* SPDX-License-Identifier: MIT */
/*
 * rcu/mb-prefixed.h - the mb flavour under its prefixed names only: the
 * exported rcu_mb_* functions and state, the flavour object
 * rcu_mb_flavour, and the inline read side (rcu_mb_read_lock_inline_()
 * ...) that <rcu/mb.h> builds its short names on. No short name
 * (rcu_read_lock, synchronize_rcu, rcu_flavour ...), so any number of
 * flavours may be included in one translation unit this way: the
 * liburcu compatibility layer does, for liburcu's prefixed names
 * (urcu_memb_read_lock, urcu_qsbr_synchronize_rcu ...). Programs include
 * <rcu/mb.h>, which documents the flavour's rules.
 */
#ifndef RCU_MB_PREFIXED_H
#define RCU_MB_PREFIXED_H

#include <rcu/atomic.h>
#include <rcu/flavour.h>
#include <rcu/flavour-api.h>
#include <rcu/pointer.h>
#include <rcu/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The flavour object by its own name (the flavour header also names it
 * rcu_flavour). */
extern RCU_API const struct rcu_flavour rcu_mb_flavour;

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

#ifdef __cplusplus
}
#endif

#endif /* RCU_MB_PREFIXED_H */
