/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/lfstack.h (lfht's liburcu compatibility layer) - liburcu's
 * inline names for the lock-free stack (_LGPL_SOURCE programs that call
 * them directly): each is the public, already inline, name of
 * <rcuds/lfstack.h>. <stdbool.h>, <pthread.h>, <assert.h>, <urcu/uatomic.h>
 * and <urcu-pointer.h> come too, as from liburcu's header.
 */
#ifndef LFHT_URCU_STATIC_LFSTACK_H
#define LFHT_URCU_STATIC_LFSTACK_H

#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

#include <urcu/lfstack.h>
#include <urcu/uatomic.h>
#include <urcu-pointer.h>

#define _cds_lfs_node_init		cds_lfs_node_init
#define _cds_lfs_init			cds_lfs_init
#define _cds_lfs_destroy		cds_lfs_destroy
#define ___cds_lfs_init			__cds_lfs_init
#define _cds_lfs_empty			cds_lfs_empty
#define _cds_lfs_push			cds_lfs_push
#define _cds_lfs_pop_blocking		cds_lfs_pop_blocking
#define _cds_lfs_pop_all_blocking	cds_lfs_pop_all_blocking
#define _cds_lfs_pop_lock		cds_lfs_pop_lock
#define _cds_lfs_pop_unlock		cds_lfs_pop_unlock
#define ___cds_lfs_pop			__cds_lfs_pop
#define ___cds_lfs_pop_all		__cds_lfs_pop_all

#endif /* LFHT_URCU_STATIC_LFSTACK_H */
