/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-memb.h (lfht's liburcu compatibility layer) - liburcu's memb
 * flavour (its default) over lfht's <rcu/memb.h>: the urcu_memb_* names
 * (read_lock, read_unlock, read_ongoing, register_thread,
 * unregister_thread, synchronize_rcu, call_rcu, barrier, init, and the
 * no-ops quiescent_state, thread_offline, thread_online), the short names
 * (rcu_read_lock() ... from <rcu/memb.h>; rcu_quiescent_state(),
 * rcu_thread_offline(), rcu_thread_online() and rcu_init(), which do
 * nothing here as in liburcu), urcu_memb_flavor (rcu_flavor), the
 * call_rcu_data API (<urcu/call-rcu.h>), polling grace periods
 * (urcu_memb_start_poll_synchronize_rcu,
 * urcu_memb_poll_state_synchronize_rcu and the short names:
 * <urcu/urcu-poll.h>) and <urcu/pointer.h>.
 *
 * Differs from liburcu: one flavour per translation unit (this file and
 * <urcu/urcu-qsbr.h> exclude each other, as lfht's flavour headers do); the
 * short names are always given (liburcu: only through <urcu.h>); no
 * defer_rcu() (see docs/porting-from-liburcu.md); lfht's misuse checks
 * (debug builds) abort where liburcu would misbehave silently.
 */
#ifndef LFHT_URCU_URCU_MEMB_H
#define LFHT_URCU_URCU_MEMB_H

#ifdef LFHT_URCU_NAME_
#error "lfht's liburcu compatibility layer: one RCU flavour per translation unit (another flavour header was included)"
#endif

#include <pthread.h>
#include <stdlib.h>

#include <rcu/memb.h>
#include <urcu/pointer.h>

/* The prefix of this flavour's names, for <urcu/call-rcu.h>,
 * <urcu/flavor.h> and <urcu/rculfhash.h>. */
#define LFHT_URCU_NAME_(name) urcu_memb_##name

/* urcu_memb_read_lock ... _barrier, which every flavour gives alike, come
 * with <urcu/flavor.h> (included below). */

/* lfht initialises the flavour before main. */
static inline void urcu_memb_init(void) { }
/* memb readers need no quiescent states: no-ops, as in liburcu. */
static inline void urcu_memb_quiescent_state(void) { }
static inline void urcu_memb_thread_offline(void) { }
static inline void urcu_memb_thread_online(void) { }

#define rcu_quiescent_state	urcu_memb_quiescent_state
#define rcu_thread_offline	urcu_memb_thread_offline
#define rcu_thread_online	urcu_memb_thread_online
#define rcu_init		urcu_memb_init

#include <urcu/urcu-poll.h>
#include <urcu/call-rcu.h>
#include <urcu/flavor.h>
#ifdef LFHT_URCU_RCULFHASH_H
#include <urcu/rculfhash.h>
#endif
#ifdef LFHT_URCU_DEFER_H
#include <urcu/defer.h>
#endif

#endif /* LFHT_URCU_URCU_MEMB_H */
