/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-mb.h (lfht's liburcu compatibility layer) - liburcu's mb
 * flavour over lfht's <rcu/mb-prefixed.h> (full fences on the read
 * side, no membarrier; <urcu.h> picks it when RCU_MB is defined), by
 * liburcu 0.15's rule for names:
 *
 * - always, the urcu_mb_* names: read_lock, read_unlock, read_ongoing,
 *   register_thread, unregister_thread, synchronize_rcu, init and the
 *   no-ops quiescent_state, thread_offline, thread_online,
 *   start_poll_synchronize_rcu, poll_state_synchronize_rcu, the fork
 *   hooks, and the _LGPL_SOURCE forms (_urcu_mb_read_lock ...);
 * - the short names (rcu_read_lock, synchronize_rcu, call_rcu,
 *   rcu_flavor ...) as macros over those (<urcu/map/urcu-mb.h>) only
 *   while URCU_API_MAP is defined, as <urcu.h with RCU_MB> defines it;
 *   otherwise they are undone at the end (<urcu/map/clear.h>);
 * - once per translation unit, from the first flavour header included:
 *   call_rcu and the call_rcu_data functions (<urcu/call-rcu.h>),
 *   defer_rcu (<urcu/defer.h>) and the flavour object
 *   (<urcu/flavor.h>), under this flavour's prefix (urcu_mb_call_rcu,
 *   urcu_mb_flavor ...), as liburcu's headers declare them once. So any
 *   number of flavour headers may be included in one unit, with or
 *   without _LGPL_SOURCE, each flavour named by its prefix.
 *
 * Differs from liburcu: lfht's misuse checks (debug builds) abort where
 * liburcu would misbehave silently; see also <urcu/lfht-flavour-api.h>.
 */
#ifndef LFHT_URCU_URCU_MB_H
#define LFHT_URCU_URCU_MB_H

/* With _LGPL_SOURCE, what liburcu's inline read side brings in too. */
#ifdef _LGPL_SOURCE
#include <urcu/static/urcu-mb.h>
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rcu/mb-prefixed.h>
#include <urcu/config.h>
#include <urcu/pointer.h>
#include <urcu/lfht-flavour-api.h>

#include <urcu/map/urcu-mb.h>

#ifdef __cplusplus
extern "C" {
#endif

LFHT_URCU_FLAVOUR_API_(urcu_mb, rcu_mb)

/* lfht initialises the flavour before main. */
static inline void urcu_mb_init(void) { }
/* mb readers need no quiescent states: no-ops, as in liburcu. */
static inline void urcu_mb_quiescent_state(void) { }
static inline void urcu_mb_thread_offline(void) { }
static inline void urcu_mb_thread_online(void) { }
static inline void _urcu_mb_quiescent_state(void) { urcu_mb_quiescent_state(); }
static inline void _urcu_mb_thread_offline(void) { urcu_mb_thread_offline(); }
static inline void _urcu_mb_thread_online(void) { urcu_mb_thread_online(); }

#ifdef __cplusplus
}
#endif

/* What a unit's first flavour header brings: the call_rcu, defer and
 * flavour-object names of this flavour (each file emits them once). */
#define LFHT_URCU_NAME_(name)	urcu_mb_##name
#define LFHT_URCU_LFHT_(name)	rcu_mb_##name
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

#endif /* LFHT_URCU_URCU_MB_H */
