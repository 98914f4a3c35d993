/* SPDX-License-Identifier: MIT */
/*
 * urcu/rculist.h (lfht's liburcu compatibility layer) - liburcu's RCU
 * lists: cds_list_add_rcu, cds_list_add_tail_rcu, cds_list_replace_rcu,
 * cds_list_del_rcu, cds_list_for_each_rcu, cds_list_for_each_entry_rcu;
 * lfht's own, from <rcuds/rculist.h> (see its comments for the rules and
 * the ordering), with <urcu/list.h>, <urcu/arch.h>, <urcu/uatomic.h> and
 * <urcu/pointer.h>, which liburcu's header includes.
 *
 * Differs from liburcu: cds_list_del_rcu() stores the link with release
 * order (liburcu: relaxed), so a reader's consume load of it orders the
 * next element's contents in the C11 model as well as on the hardware.
 */
#ifndef LFHT_URCU_RCULIST_H
#define LFHT_URCU_RCULIST_H

#include <urcu/list.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/pointer.h>
#include <rcuds/rculist.h>

#endif /* LFHT_URCU_RCULIST_H */
