/* SPDX-License-Identifier: MIT */
/*
 * rcu/bp-prefixed.h - the bp flavour under its prefixed names only: the
 * exported rcu_bp_* functions and state, the flavour object
 * rcu_bp_flavour, and the inline read side (rcu_bp_read_lock_inline_()
 * ...) that <rcu/bp.h> builds its short names on. No short name
 * (rcu_read_lock, synchronize_rcu, rcu_flavour ...), so any number of
 * flavours may be included in one translation unit this way: the
 * liburcu compatibility layer does, for liburcu's prefixed names
 * (urcu_memb_read_lock, urcu_qsbr_synchronize_rcu ...). Programs include
 * <rcu/bp.h>, which documents the flavour's rules.
 */
#ifndef RCU_BP_PREFIXED_H
#define RCU_BP_PREFIXED_H

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
extern RCU_API const struct rcu_flavour rcu_bp_flavour;

/* The exported functions and state (rcu/flavour-api.h); the flavour's ops
 * are these. */
RCU_FLAVOUR_EXPORTS_(rcu_bp);

/*
 * memb's read side (rcu/reader.h) with the registration test in front of
 * the outermost lock. registered only changes with signals blocked, so a
 * handler never sees it half-way; a handler that registers the thread
 * between the test and the call leaves the call nothing to do.
 */
static inline void rcu_bp_read_lock_fast_(void)
{
	if (rcu_ctr_read_lock_nested_(&rcu_bp_reader_))
		return;
	if (__builtin_expect(!rcu_bp_reader_.registered, 0))
		rcu_bp_register_thread();
	rcu_ctr_read_lock_outermost_(&rcu_bp_reader_, &rcu_bp_gp_, false);
}

static inline void rcu_bp_read_unlock_fast_(void)
{
	rcu_ctr_read_unlock_(&rcu_bp_reader_, &rcu_bp_gp_, false, rcu_bp_wake_writer_);
}

/* The read-side nesting depth of the calling thread. */
static inline unsigned long rcu_bp_nesting_(void)
{
	return rcu_ctr_nesting_(&rcu_bp_reader_);
}

/* Whether the thread is inside a read-side section. */
static inline int rcu_bp_read_ongoing_inline_(void)
{
	return rcu_bp_nesting_() != 0;
}

#ifdef RCU_DEBUG_CHECKS
static inline void rcu_bp_read_lock_inline_(void)
{
	if (rcu_bp_nesting_() == RCU_NEST_MASK_)
		rcu_bp_misuse_("rcu_read_lock", "read-side sections nested too deep");
	rcu_bp_read_lock_fast_();
}

static inline void rcu_bp_read_unlock_inline_(void)
{
	if (rcu_bp_nesting_() == 0)
		rcu_bp_misuse_("rcu_read_unlock",
			       "not inside a read-side critical section");
	rcu_bp_read_unlock_fast_();
}
#else
static inline void rcu_bp_read_lock_inline_(void) { rcu_bp_read_lock_fast_(); }
static inline void rcu_bp_read_unlock_inline_(void) { rcu_bp_read_unlock_fast_(); }
#endif

#ifdef __cplusplus
}
#endif

#endif /* RCU_BP_PREFIXED_H */
