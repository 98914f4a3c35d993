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

#include <rcu/atomic.h>
#include <rcu/flavour.h>
#include <rcu/flavour-api.h>
#include <rcu/pointer.h>
#include <rcu/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

RCU_DECLARE_FLAVOUR("rcu_qsbr_flavour");

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
	if (rcu_atomic_load(&r->ctr, memory_order_relaxed) == g)
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
	/* Relaxed: ordered after the slot store by the fence (note 5). */
	if (rcu_atomic_load(&rcu_qsbr_gp_.futex, memory_order_relaxed) == -1)
		rcu_qsbr_wake_writer_();
}

static inline void rcu_qsbr_thread_offline_inline_(void)
{
	struct rcu_reader_ *r = &rcu_qsbr_reader_;

	/* Release: pairs with the acquire scan in registry_sweep()
	 * (src/registry.c; src/gp.c, note 4). */
	rcu_atomic_store(&r->ctr, 0, memory_order_release);
	/* Full fence: store before the futex load; pairs with the seq_cst
	 * fence of flavour_fence_all_readers() after the futex store in
	 * gp_wait_for_readers() (src/gp.c, note 5). */
	rcu_fence(memory_order_seq_cst);
	/* Relaxed: ordered after the slot store by the fence (note 5). */
	if (rcu_atomic_load(&rcu_qsbr_gp_.futex, memory_order_relaxed) == -1)
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
