/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-memb.h (lfht's liburcu compatibility layer) - liburcu's
 * memb flavour (its default) over lfht's <rcu/memb-prefixed.h>, by
 * liburcu 0.15's rule for names:
 *
 * - always, the urcu_memb_* names: read_lock, read_unlock,
 *   read_ongoing, register_thread, unregister_thread, synchronize_rcu,
 *   init and the no-ops quiescent_state, thread_offline, thread_online,
 *   start_poll_synchronize_rcu, poll_state_synchronize_rcu, the fork
 *   hooks, and the _LGPL_SOURCE forms (_urcu_memb_read_lock ...);
 * - the short names (rcu_read_lock, synchronize_rcu, call_rcu,
 *   rcu_flavor ...) as macros over those (<urcu/map/urcu-memb.h>) only
 *   while URCU_API_MAP is defined, as <urcu.h> defines it; otherwise
 *   they are undone at the end (<urcu/map/clear.h>);
 * - once per translation unit, from the first flavour header included:
 *   call_rcu and the call_rcu_data functions (<urcu/call-rcu.h>),
 *   defer_rcu (<urcu/defer.h>) and the flavour object
 *   (<urcu/flavor.h>), under this flavour's prefix (urcu_memb_call_rcu,
 *   urcu_memb_flavor ...), as liburcu's headers declare them once. So
 *   any number of flavour headers may be included in one unit, with or
 *   without _LGPL_SOURCE, each flavour named by its prefix.
 *
 * Differs from liburcu: lfht's misuse checks (debug builds) abort where
 * liburcu would misbehave silently; see also <urcu/lfht-flavour-api.h>.
 */
#ifndef LFHT_URCU_URCU_MEMB_H
#define LFHT_URCU_URCU_MEMB_H

/* With _LGPL_SOURCE, what liburcu's inline read side brings in too. */
#ifdef _LGPL_SOURCE
#include <urcu/static/urcu-memb.h>
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rcu/memb-prefixed.h>
#include <urcu/config.h>
#include <urcu/pointer.h>
#include <urcu/lfht-flavour-api.h>

#include <urcu/map/urcu-memb.h>

#ifdef __cplusplus
extern "C" {
#endif

LFHT_URCU_FLAVOUR_API_(urcu_memb, rcu_memb)

LFHT_URCU_NO_QUIESCENT_API_(urcu_memb)
LFHT_URCU_QUIESCENT_LGPL_API_(urcu_memb)

#ifdef __cplusplus
}
#endif

/* The names a unit's first flavour header brings, then the short names
 * undone unless URCU_API_MAP. */
#define LFHT_URCU_NAME_(name)	urcu_memb_##name
#define LFHT_URCU_LFHT_(name)	rcu_memb_##name
#include <urcu/lfht-flavour-end.h>

#endif /* LFHT_URCU_URCU_MEMB_H */
