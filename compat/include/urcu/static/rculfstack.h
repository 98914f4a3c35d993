/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/rculfstack.h (lfht's liburcu compatibility layer) - liburcu's
 * inline names for the deprecated RCU lock-free stack: each is the public
 * name of <urcu/rculfstack.h>. <urcu/uatomic.h> and <urcu-pointer.h> come
 * too, as from liburcu's header.
 */
#ifndef LFHT_URCU_STATIC_RCULFSTACK_H
#define LFHT_URCU_STATIC_RCULFSTACK_H

#include <urcu/rculfstack.h>
#include <urcu/uatomic.h>
#include <urcu-pointer.h>

#define _cds_lfs_node_init_rcu	cds_lfs_node_init_rcu
#define _cds_lfs_init_rcu	cds_lfs_init_rcu
#define _cds_lfs_push_rcu	cds_lfs_push_rcu
#define _cds_lfs_pop_rcu	cds_lfs_pop_rcu

#endif /* LFHT_URCU_STATIC_RCULFSTACK_H */
