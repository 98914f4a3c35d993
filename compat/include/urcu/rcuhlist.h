/* SPDX-License-Identifier: MIT */
/*
 * urcu/rcuhlist.h (lfht's liburcu compatibility layer) - liburcu's RCU
 * hlists: cds_hlist_add_head_rcu, cds_hlist_del_rcu,
 * cds_hlist_for_each_rcu, cds_hlist_for_each_entry_rcu and
 * cds_hlist_for_each_entry_rcu_2; lfht's own, from <rcuds/rcuhlist.h>
 * (see its comments), with <urcu/hlist.h>, <urcu/arch.h> and
 * <urcu/pointer.h>, which liburcu's header includes.
 *
 * Differs from liburcu: cds_hlist_del_rcu() stores the link with release
 * order (liburcu: relaxed), as cds_list_del_rcu() (<urcu/rculist.h>);
 * entry is NULL after cds_hlist_for_each_entry_rcu() runs to the end.
 */
#ifndef LFHT_URCU_RCUHLIST_H
#define LFHT_URCU_RCUHLIST_H

#include <urcu/hlist.h>
#include <urcu/arch.h>
#include <urcu/pointer.h>
#include <rcuds/rcuhlist.h>

#endif /* LFHT_URCU_RCUHLIST_H */
