/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-bp.h (lfht's liburcu compatibility layer) - liburcu's bp
 * flavour over lfht's <rcu/bp-prefixed.h> (a thread's first read lock
 * registers it), by liburcu 0.15's rule for names:
 *
 * - always, the urcu_bp_* names: read_lock, read_unlock, read_ongoing,
 *   register_thread, unregister_thread, synchronize_rcu, init and the
 *   no-ops quiescent_state, thread_offline, thread_online,
 *   start_poll_synchronize_rcu, poll_state_synchronize_rcu, the fork
 *   hooks, and the _LGPL_SOURCE forms (_urcu_bp_read_lock ...);
 * - the short names (rcu_read_lock, synchronize_rcu, call_rcu,
 *   rcu_flavor ...) as macros over those (<urcu/map/urcu-bp.h>) only
 *   while URCU_API_MAP is defined, as <urcu-bp.h> defines it; otherwise
 *   they are undone at the end (<urcu/map/clear.h>);
 * - once per translation unit, from the first flavour header included:
 *   call_rcu and the call_rcu_data functions (<urcu/call-rcu.h>),
 *   defer_rcu (<urcu/defer.h>) and the flavour object
 *   (<urcu/flavor.h>), under this flavour's prefix (urcu_bp_call_rcu,
 *   urcu_bp_flavor ...), as liburcu's headers declare them once. So any
 *   number of flavour headers may be included in one unit, with or
 *   without _LGPL_SOURCE, each flavour named by its prefix.
 *
 * Differs from liburcu: lfht's misuse checks (debug builds) abort where
 * liburcu would misbehave silently; see also <urcu/lfht-flavour-api.h>.
 */
#ifndef LFHT_URCU_URCU_BP_H
#define LFHT_URCU_URCU_BP_H

/* With _LGPL_SOURCE, what liburcu's inline read side brings in too. */
#ifdef _LGPL_SOURCE
#include <urcu/static/urcu-bp.h>
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rcu/bp-prefixed.h>
#include <urcu/config.h>
#include <urcu/pointer.h>
#include <urcu/lfht-flavour-api.h>

#include <urcu/map/urcu-bp.h>

#ifdef __cplusplus
extern "C" {
#endif

LFHT_URCU_FLAVOUR_API_(urcu_bp, rcu_bp)

LFHT_URCU_NO_QUIESCENT_API_(urcu_bp)
LFHT_URCU_QUIESCENT_LGPL_API_(urcu_bp)

/* liburcu-bp's names of the pointer operations (<urcu/pointer.h>). */
#define urcu_bp_dereference		rcu_dereference
#define urcu_bp_cmpxchg_pointer		rcu_cmpxchg_pointer
#define urcu_bp_xchg_pointer		rcu_xchg_pointer
#define urcu_bp_set_pointer		rcu_set_pointer
#define urcu_bp_dereference_sym		rcu_dereference_sym
#define urcu_bp_cmpxchg_pointer_sym	rcu_cmpxchg_pointer_sym
#define urcu_bp_xchg_pointer_sym	rcu_xchg_pointer_sym
#define urcu_bp_set_pointer_sym		rcu_set_pointer_sym

#ifdef __cplusplus
}
#endif

/* The names a unit's first flavour header brings, then the short names
 * undone unless URCU_API_MAP. */
#define LFHT_URCU_NAME_(name)	urcu_bp_##name
#define LFHT_URCU_LFHT_(name)	rcu_bp_##name
#include <urcu/lfht-flavour-end.h>

#endif /* LFHT_URCU_URCU_BP_H */
