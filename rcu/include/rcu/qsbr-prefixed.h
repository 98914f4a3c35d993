/* SPDX-License-Identifier: MIT */
/*
 * rcu/qsbr-prefixed.h - the qsbr flavour under its prefixed names only: the
 * exported rcu_qsbr_* functions and state, the flavour object
 * rcu_qsbr_flavour, and the inline read side (rcu_qsbr_read_lock_inline_()
 * ...) that <rcu/qsbr.h> builds its short names on. No short name
 * (rcu_read_lock, synchronize_rcu, rcu_flavour ...), so any number of
 * flavours may be included in one translation unit this way: the
 * liburcu compatibility layer does, for liburcu's prefixed names
 * (urcu_memb_read_lock, urcu_qsbr_synchronize_rcu ...). Programs include
 * <rcu/qsbr.h>, which documents the flavour's rules.
 */
#ifndef RCU_QSBR_PREFIXED_H
#define RCU_QSBR_PREFIXED_H

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
extern RCU_API const struct rcu_flavour rcu_qsbr_flavour;

/* The exported functions and state both flavours have (rcu/flavour-api.h),
 * and QSBR's own (the flavour's ops are these). */
RCU_FLAVOUR_EXPORTS_(rcu_qsbr);
RCU_API void rcu_qsbr_quiescent_state(void);
RCU_API void rcu_qsbr_thread_offline(void);
RCU_API void rcu_qsbr_thread_online(void);

RCU_TSAN_FENCES_BEGIN_

/*
 * Announce a quiescent state: publish the grace-period counter into this
 * thread's slot. Cheap when no grace period began since the last one.
 */
static inline void rcu_qsbr_quiescent_state_inline_(void)
{
	struct rcu_reader_ *r = &rcu_qsbr_reader_;
	/* Acquire: pairs with the seq_cst increment in gp_run() (src/gp.c,
	 * note 2), so reads after this quiescent state see what the updater
	 * unlinked before it. */
	uint64_t g = rcu_atomic_load(&rcu_qsbr_gp_.ctr, memory_order_acquire);

	/* Relaxed: the thread's own slot; only it stores there. */
	uint64_t old = rcu_atomic_load(&r->ctr, memory_order_relaxed);

	if (old == g)
		return;
	/* Release: reads before this quiescent state are done before a grace
	 * period sees it; pairs with the acquire scan in registry_sweep()
	 * (src/registry.c; src/gp.c, note 4). */
	rcu_atomic_store(&r->ctr, g, memory_order_release);
	/* Full fence: orders the store above before the futex load below and
	 * before later reads; pairs with the seq_cst fence of
	 * flavour_fence_all_readers() (src/qsbr.c) after the increment in
	 * gp_run() and after the futex store in gp_wait_for_readers()
	 * (src/gp.c, notes 3 and 5). */
	rcu_fence(memory_order_seq_cst);
	/* A grace period asleep for a target that old, the slot before the
	 * store, held up (a slot at or past it held nothing up: polls that
	 * moved the counter on wake nobody for nothing). */
	if (rcu_ctr_holds_up_gp_(old, &rcu_qsbr_gp_))
		rcu_qsbr_wake_writer_();
}

static inline void rcu_qsbr_thread_offline_inline_(void)
{
	struct rcu_reader_ *r = &rcu_qsbr_reader_;
	/* Relaxed: the thread's own slot. */
	uint64_t old = rcu_atomic_load(&r->ctr, memory_order_relaxed);

	/* Release: pairs with the acquire scan in registry_sweep()
	 * (src/registry.c; src/gp.c, note 4). */
	rcu_atomic_store(&r->ctr, 0, memory_order_release);
	/* Full fence: store before the futex load; pairs with the seq_cst
	 * fence of flavour_fence_all_readers() after the futex store in
	 * gp_wait_for_readers() (src/gp.c, note 5). */
	rcu_fence(memory_order_seq_cst);
	/* As in rcu_qsbr_quiescent_state_inline_(). */
	if (rcu_ctr_holds_up_gp_(old, &rcu_qsbr_gp_))
		rcu_qsbr_wake_writer_();
}

static inline void rcu_qsbr_thread_online_inline_(void)
{
	struct rcu_reader_ *r = &rcu_qsbr_reader_;

	/* Acquire: pairs with the seq_cst increment in gp_run() (src/gp.c,
	 * note 2). Relaxed slot store: ordered before later reads by the
	 * fence below (note 3). */
	rcu_atomic_store(&r->ctr,
			 rcu_atomic_load(&rcu_qsbr_gp_.ctr, memory_order_acquire),
			 memory_order_relaxed);
	/* Full fence: the slot is visible before any read-side load; pairs
	 * with the seq_cst fence of flavour_fence_all_readers() after the
	 * increment in gp_run() (src/gp.c, note 3). */
	rcu_fence(memory_order_seq_cst);
}

/* Whether the thread is online: in QSBR it may hold RCU pointers anywhere
 * between quiescent states. */
static inline int rcu_qsbr_read_ongoing_inline_(void)
{
	/* Relaxed: the thread's own slot. */
	return rcu_atomic_load(&rcu_qsbr_reader_.ctr, memory_order_relaxed) != 0;
}

/* The read-side nesting depth (counted only with RCU_DEBUG_CHECKS). */
static inline unsigned long rcu_qsbr_nesting_(void)
{
	return rcu_qsbr_reader_.nesting;
}

#ifdef RCU_DEBUG_CHECKS
static inline void rcu_qsbr_read_lock_inline_(void)
{
	if (!rcu_qsbr_reader_.registered)
		rcu_qsbr_misuse_("rcu_read_lock", "thread not registered");
	rcu_qsbr_reader_.nesting++;
}

static inline void rcu_qsbr_read_unlock_inline_(void)
{
	if (rcu_qsbr_reader_.nesting == 0)
		rcu_qsbr_misuse_("rcu_read_unlock",
				 "not inside a read-side critical section");
	rcu_qsbr_reader_.nesting--;
}

static inline void rcu_qsbr_check_outside_(const char *call)
{
	if (!rcu_qsbr_reader_.registered)
		rcu_qsbr_misuse_(call, "thread not registered");
	if (rcu_qsbr_reader_.nesting != 0)
		rcu_qsbr_misuse_(call, "called inside a read-side critical section");
}
#else
static inline void rcu_qsbr_read_lock_inline_(void) { }
static inline void rcu_qsbr_read_unlock_inline_(void) { }
static inline void rcu_qsbr_check_outside_(const char *call) { (void)call; }
#endif

RCU_TSAN_FENCES_END_

#ifdef __cplusplus
}
#endif

#endif /* RCU_QSBR_PREFIXED_H */
