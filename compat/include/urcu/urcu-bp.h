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

/* lfht initialises the flavour before main. */
static inline void urcu_bp_init(void) { }
/* bp readers need no quiescent states: no-ops, as in liburcu. */
static inline void urcu_bp_quiescent_state(void) { }
static inline void urcu_bp_thread_offline(void) { }
static inline void urcu_bp_thread_online(void) { }
static inline void _urcu_bp_quiescent_state(void) { urcu_bp_quiescent_state(); }
static inline void _urcu_bp_thread_offline(void) { urcu_bp_thread_offline(); }
static inline void _urcu_bp_thread_online(void) { urcu_bp_thread_online(); }

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

/* What a unit's first flavour header brings: the call_rcu, defer and
 * flavour-object names of this flavour (each file emits them once). */
#define LFHT_URCU_NAME_(name)	urcu_bp_##name
#define LFHT_URCU_LFHT_(name)	rcu_bp_##name
#include <urcu/call-rcu.h>
#include <urcu/defer.h>
#include <urcu/flavor.h>
#ifdef LFHT_URCU_RCULFHASH_H
#include <urcu/rculfhash.h>	/* cds_lfht_new(), under URCU_API_MAP */
#endif
#undef LFHT_URCU_NAME_
#undef LFHT_URCU_LFHT_

#ifndef URCU_API_MAP
#include <urcu/map/clear.h>
#endif

#endif /* LFHT_URCU_URCU_BP_H */
