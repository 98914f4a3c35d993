/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/wfstack.h (lfht's liburcu compatibility layer) - liburcu's
 * inline names for the wait-free stack (_LGPL_SOURCE programs that call
 * them directly): each is the public, already inline, name of
 * <rcuds/wfstack.h>. <pthread.h>, <assert.h>, <poll.h>, <stdbool.h>,
 * <urcu/compiler.h> and <urcu/uatomic.h> come too, as from liburcu's header.
 */
#ifndef LFHT_URCU_STATIC_WFSTACK_H
#define LFHT_URCU_STATIC_WFSTACK_H

#include <assert.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>

#include <urcu/compiler.h>
#include <urcu/uatomic.h>
#include <urcu/wfstack.h>

#define _cds_wfs_node_init			cds_wfs_node_init
#define _cds_wfs_init				cds_wfs_init
#define _cds_wfs_destroy			cds_wfs_destroy
#define ___cds_wfs_init				__cds_wfs_init
#define _cds_wfs_empty				cds_wfs_empty
#define _cds_wfs_push				cds_wfs_push
#define _cds_wfs_pop_blocking			cds_wfs_pop_blocking
#define _cds_wfs_pop_with_state_blocking	cds_wfs_pop_with_state_blocking
#define _cds_wfs_pop_all_blocking		cds_wfs_pop_all_blocking
#define _cds_wfs_first				cds_wfs_first
#define _cds_wfs_next_blocking			cds_wfs_next_blocking
#define _cds_wfs_next_nonblocking		cds_wfs_next_nonblocking
#define _cds_wfs_pop_lock			cds_wfs_pop_lock
#define _cds_wfs_pop_unlock			cds_wfs_pop_unlock
#define ___cds_wfs_pop_blocking			__cds_wfs_pop_blocking
#define ___cds_wfs_pop_with_state_blocking	__cds_wfs_pop_with_state_blocking
#define ___cds_wfs_pop_nonblocking		__cds_wfs_pop_nonblocking
#define ___cds_wfs_pop_with_state_nonblocking	__cds_wfs_pop_with_state_nonblocking
#define ___cds_wfs_pop_all			__cds_wfs_pop_all

#endif /* LFHT_URCU_STATIC_WFSTACK_H */
