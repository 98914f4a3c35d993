/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-bp.h (lfht's liburcu compatibility layer) - liburcu's bp
 * ("bulletproof") flavour over lfht's <rcu/bp.h>: threads need not register
 * (the first rcu_read_lock() does it, their exit undoes it). The urcu_bp_*
 * names (read_lock, read_unlock, read_ongoing, register_thread,
 * unregister_thread, synchronize_rcu, call_rcu, barrier, init, the no-ops
 * quiescent_state, thread_offline, thread_online, before_fork,
 * after_fork_parent, after_fork_child, and dereference, cmpxchg_pointer,
 * xchg_pointer, set_pointer), the short names (rcu_read_lock() ... from
 * <rcu/bp.h>; rcu_quiescent_state(), rcu_thread_offline(),
 * rcu_thread_online() and rcu_init(), which do nothing here as in liburcu),
 * urcu_bp_flavor (rcu_flavor), the call_rcu_data API (<urcu/call-rcu.h>),
 * polling grace periods (urcu_bp_start_poll_synchronize_rcu,
 * urcu_bp_poll_state_synchronize_rcu and the short names:
 * <urcu/urcu-poll.h>) and <urcu/pointer.h>.
 *
 * Differs from liburcu: one flavour per translation unit; the short names
 * are always given (liburcu: only through <urcu-bp.h>); the fork hooks do
 * nothing, because lfht's own pthread_atfork handlers keep RCU consistent
 * (liburcu-bp asks the program to call them around fork()); no defer_rcu()
 * (see docs/porting-from-liburcu.md); lfht's misuse checks (debug builds)
 * abort where liburcu would misbehave silently.
 */
#ifndef LFHT_URCU_URCU_BP_H
#define LFHT_URCU_URCU_BP_H

#ifdef LFHT_URCU_NAME_
#error "lfht's liburcu compatibility layer: one RCU flavour per translation unit (another flavour header was included)"
#endif

#include <pthread.h>
#include <stdlib.h>

#include <rcu/bp.h>
#include <urcu/pointer.h>

/* The prefix of this flavour's names, for <urcu/call-rcu.h>,
 * <urcu/flavor.h> and <urcu/rculfhash.h>. */
#define LFHT_URCU_NAME_(name) urcu_bp_##name

/* urcu_bp_read_lock ... _barrier, which every flavour gives alike, come
 * with <urcu/flavor.h> (included below). */

/* lfht initialises the flavour before main. */
static inline void urcu_bp_init(void) { }
/* bp readers need no quiescent states: no-ops, as in liburcu. */
static inline void urcu_bp_quiescent_state(void) { }
static inline void urcu_bp_thread_offline(void) { }
static inline void urcu_bp_thread_online(void) { }
/* lfht's pthread_atfork handlers do this work. */
static inline void urcu_bp_before_fork(void) { }
static inline void urcu_bp_after_fork_parent(void) { }
static inline void urcu_bp_after_fork_child(void) { }

#define urcu_bp_dereference	rcu_dereference
#define urcu_bp_cmpxchg_pointer	rcu_cmpxchg_pointer
#define urcu_bp_xchg_pointer	rcu_xchg_pointer
#define urcu_bp_set_pointer	rcu_set_pointer

#define rcu_quiescent_state	urcu_bp_quiescent_state
#define rcu_thread_offline	urcu_bp_thread_offline
#define rcu_thread_online	urcu_bp_thread_online
#define rcu_init		urcu_bp_init

#include <urcu/urcu-poll.h>
#include <urcu/call-rcu.h>
#include <urcu/flavor.h>
#ifdef LFHT_URCU_RCULFHASH_H
#include <urcu/rculfhash.h>
#endif
#ifdef LFHT_URCU_DEFER_H
#include <urcu/defer.h>
#endif

#endif /* LFHT_URCU_URCU_BP_H */
