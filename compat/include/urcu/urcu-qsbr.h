/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-qsbr.h (lfht's liburcu compatibility layer) - liburcu's QSBR
 * flavour over lfht's <rcu/qsbr.h>: the urcu_qsbr_* names (read_lock,
 * read_unlock, read_ongoing, register_thread, unregister_thread,
 * synchronize_rcu, call_rcu, barrier, quiescent_state, thread_offline,
 * thread_online), the short names (rcu_read_lock() ...,
 * rcu_quiescent_state(), rcu_thread_offline(), rcu_thread_online(): all
 * from <rcu/qsbr.h>), urcu_qsbr_flavor (rcu_flavor), the call_rcu_data API
 * (<urcu/call-rcu.h>), polling grace periods
 * (urcu_qsbr_start_poll_synchronize_rcu,
 * urcu_qsbr_poll_state_synchronize_rcu and the short names:
 * <urcu/urcu-poll.h>) and <urcu/pointer.h>.
 *
 * Differs from liburcu: one flavour per translation unit (this file and
 * <urcu/urcu-memb.h> exclude each other, as lfht's flavour headers do); the
 * short names are always given (liburcu: only through <urcu-qsbr.h>); no
 * defer_rcu() (see docs/porting-from-liburcu.md); lfht's misuse checks
 * (debug builds) abort where liburcu would misbehave silently.
 */
#ifndef LFHT_URCU_URCU_QSBR_H
#define LFHT_URCU_URCU_QSBR_H

#ifdef LFHT_URCU_NAME_
#error "lfht's liburcu compatibility layer: one RCU flavour per translation unit (another flavour header was included)"
#endif

#include <pthread.h>
#include <stdlib.h>

#include <rcu/qsbr.h>
#include <urcu/config.h>
#include <urcu/pointer.h>

/* The prefix of this flavour's names, for <urcu/call-rcu.h>,
 * <urcu/flavor.h> and <urcu/rculfhash.h>. */
#define LFHT_URCU_NAME_(name) urcu_qsbr_##name

/* urcu_qsbr_read_lock ... _barrier, which every flavour gives alike, come
 * with <urcu/flavor.h> (included below). */

static inline void urcu_qsbr_quiescent_state(void) { rcu_quiescent_state(); }
static inline void urcu_qsbr_thread_offline(void) { rcu_thread_offline(); }
static inline void urcu_qsbr_thread_online(void) { rcu_thread_online(); }

#include <urcu/urcu-poll.h>
#include <urcu/call-rcu.h>
#include <urcu/flavor.h>
#ifdef LFHT_URCU_RCULFHASH_H
#include <urcu/rculfhash.h>
#endif
#ifdef LFHT_URCU_DEFER_H
#include <urcu/defer.h>
#endif

#endif /* LFHT_URCU_URCU_QSBR_H */
