/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-qsbr.h (lfht's liburcu compatibility layer) - liburcu's
 * QSBR flavour over lfht's <rcu/qsbr-prefixed.h>, by liburcu 0.15's
 * rule for names:
 *
 * - always, the urcu_qsbr_* names: read_lock, read_unlock,
 *   read_ongoing, register_thread, unregister_thread, synchronize_rcu,
 *   quiescent_state, thread_offline, thread_online,
 *   start_poll_synchronize_rcu, poll_state_synchronize_rcu, the fork
 *   hooks, and the _LGPL_SOURCE forms (_urcu_qsbr_read_lock ...);
 * - the short names (rcu_read_lock, synchronize_rcu, call_rcu,
 *   rcu_flavor ...) as macros over those (<urcu/map/urcu-qsbr.h>) only
 *   while URCU_API_MAP is defined, as <urcu-qsbr.h> defines it;
 *   otherwise they are undone at the end (<urcu/map/clear.h>);
 * - once per translation unit, from the first flavour header included:
 *   call_rcu and the call_rcu_data functions (<urcu/call-rcu.h>),
 *   defer_rcu (<urcu/defer.h>) and the flavour object
 *   (<urcu/flavor.h>), under this flavour's prefix (urcu_qsbr_call_rcu,
 *   urcu_qsbr_flavor ...), as liburcu's headers declare them once. So
 *   any number of flavour headers may be included in one unit, with or
 *   without _LGPL_SOURCE, each flavour named by its prefix.
 *
 * Differs from liburcu: lfht's misuse checks (debug builds) abort where
 * liburcu would misbehave silently; see also <urcu/lfht-flavour-api.h>.
 */
#ifndef LFHT_URCU_URCU_QSBR_H
#define LFHT_URCU_URCU_QSBR_H

/* With _LGPL_SOURCE, what liburcu's inline read side brings in too. */
#ifdef _LGPL_SOURCE
#include <urcu/static/urcu-qsbr.h>
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rcu/qsbr-prefixed.h>
#include <urcu/config.h>
#include <urcu/pointer.h>
#include <urcu/lfht-flavour-api.h>

#include <urcu/map/urcu-qsbr.h>

#ifdef __cplusplus
extern "C" {
#endif

LFHT_URCU_FLAVOUR_API_(urcu_qsbr, rcu_qsbr)

/* QSBR's own: announce a quiescent state, go offline and online
 * (with lfht's checks in debug builds, as <rcu/qsbr.h>'s short names). */
static inline void urcu_qsbr_quiescent_state(void)
{
	rcu_qsbr_check_outside_("rcu_quiescent_state");
	rcu_qsbr_quiescent_state_inline_();
}
static inline void urcu_qsbr_thread_offline(void)
{
	rcu_qsbr_check_outside_("rcu_thread_offline");
	rcu_qsbr_thread_offline_inline_();
}
static inline void urcu_qsbr_thread_online(void)
{
	rcu_qsbr_check_outside_("rcu_thread_online");
	rcu_qsbr_thread_online_inline_();
}
LFHT_URCU_QUIESCENT_LGPL_API_(urcu_qsbr)

#ifdef __cplusplus
}
#endif

/* The names a unit's first flavour header brings, then the short names
 * undone unless URCU_API_MAP. */
#define LFHT_URCU_NAME_(name)	urcu_qsbr_##name
#define LFHT_URCU_LFHT_(name)	rcu_qsbr_##name
#include <urcu/lfht-flavour-end.h>

#endif /* LFHT_URCU_URCU_QSBR_H */
