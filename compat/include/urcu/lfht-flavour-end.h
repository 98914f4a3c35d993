/* SPDX-License-Identifier: MIT */
/*
 * urcu/lfht-flavour-end.h (lfht's liburcu compatibility layer; not a
 * liburcu header) - the end of every flavour header (<urcu/urcu-memb.h>
 * ...), which defines LFHT_URCU_NAME_(name) (its urcu_<flavour>_ names) and
 * LFHT_URCU_LFHT_(name) (lfht's rcu_<flavour>_ names) first: what a unit's
 * first flavour header brings, the call_rcu, defer and flavour-object
 * names of that flavour (each file emits them once per unit), and
 * cds_lfht_new() when <urcu/rculfhash.h> came first; then, unless
 * URCU_API_MAP is defined, the short names undone (<urcu/map/clear.h>).
 * No include guard: read once per flavour header.
 */
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
