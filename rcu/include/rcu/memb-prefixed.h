/* SPDX-License-Identifier: MIT */
/*
 * rcu/memb-prefixed.h - the memb flavour under its prefixed names only: the
 * exported rcu_memb_* functions and state, the flavour object
 * rcu_memb_flavour, and the inline read side (rcu_memb_read_lock_inline_()
 * ...) that <rcu/memb.h> builds its short names on. No short name
 * (rcu_read_lock, synchronize_rcu, rcu_flavour ...), so any number of
 * flavours may be included in one translation unit this way: the
 * liburcu compatibility layer does, for liburcu's prefixed names
 * (urcu_memb_read_lock, urcu_qsbr_synchronize_rcu ...). Programs include
 * <rcu/memb.h>, which documents the flavour's rules.
 */
#ifndef RCU_MEMB_PREFIXED_H
#define RCU_MEMB_PREFIXED_H

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
extern RCU_API const struct rcu_flavour rcu_memb_flavour;

/* The exported functions and state (rcu/flavour-api.h); the flavour's ops
 * are these. */
RCU_FLAVOUR_EXPORTS_(rcu_memb);

/*
 * The read side keeps snapshot and nesting in one word (rcu/reader.h), and
 * changes it by one load and one store of the thread's own slot, so a
 * signal handler may enter a read-side section between any two of these
 * instructions: it leaves the word as it found it. The helpers are shared
 * with bp and mb (rcu/reader.h).
 */
static inline void rcu_memb_read_lock_fast_(void)
{
	if (!rcu_ctr_read_lock_nested_(&rcu_memb_reader_))
		rcu_ctr_read_lock_outermost_(&rcu_memb_reader_, &rcu_memb_gp_,
					     false);
}

static inline void rcu_memb_read_unlock_fast_(void)
{
	rcu_ctr_read_unlock_(&rcu_memb_reader_, &rcu_memb_gp_, false,
			     rcu_memb_wake_writer_);
}

/* The read-side nesting depth of the calling thread. */
static inline unsigned long rcu_memb_nesting_(void)
{
	return rcu_ctr_nesting_(&rcu_memb_reader_);
}

/* Whether the thread is inside a read-side section. */
static inline int rcu_memb_read_ongoing_inline_(void)
{
	return rcu_memb_nesting_() != 0;
}

#ifdef RCU_DEBUG_CHECKS
static inline void rcu_memb_read_lock_inline_(void)
{
	if (!rcu_memb_reader_.registered)
		rcu_memb_misuse_("rcu_read_lock", "thread not registered");
	if (rcu_memb_nesting_() == RCU_NEST_MASK_)
		rcu_memb_misuse_("rcu_read_lock", "read-side sections nested too deep");
	rcu_memb_read_lock_fast_();
}

static inline void rcu_memb_read_unlock_inline_(void)
{
	if (rcu_memb_nesting_() == 0)
		rcu_memb_misuse_("rcu_read_unlock",
				 "not inside a read-side critical section");
	rcu_memb_read_unlock_fast_();
}
#else
static inline void rcu_memb_read_lock_inline_(void) { rcu_memb_read_lock_fast_(); }
static inline void rcu_memb_read_unlock_inline_(void) { rcu_memb_read_unlock_fast_(); }
#endif

#ifdef __cplusplus
}
#endif

#endif /* RCU_MEMB_PREFIXED_H */
