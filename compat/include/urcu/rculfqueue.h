/* SPDX-License-Identifier: MIT */
/*
 * urcu/rculfqueue.h (lfht's liburcu compatibility layer) - the RCU
 * lock-free queue: everything of lfht's <rcuds/rculfqueue.h>, which keeps
 * liburcu 0.15's names, types and semantics (cds_lfq_init_rcu(q, call_rcu)
 * takes the flavour's call_rcu; destroy of a non-empty queue returns
 * -EPERM and keeps it). With _LGPL_SOURCE, liburcu's inline names
 * (_cds_lfq_*) come too, from <urcu/static/rculfqueue.h>. <assert.h> comes
 * too, as from liburcu's header.
 *
 * Differs from liburcu: nothing is exported (static inlines); out of
 * memory for a dummy node aborts with a message (liburcu asserts).
 */
#ifndef LFHT_URCU_RCULFQUEUE_H
#define LFHT_URCU_RCULFQUEUE_H

#include <assert.h>

#include <urcu/compiler.h>
#include <rcuds/rculfqueue.h>

#ifdef _LGPL_SOURCE
#include <urcu/static/rculfqueue.h>
#endif

#endif /* LFHT_URCU_RCULFQUEUE_H */
