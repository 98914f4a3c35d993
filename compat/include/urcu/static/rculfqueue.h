/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/rculfqueue.h (lfht's liburcu compatibility layer) - liburcu's
 * inline names for the RCU lock-free queue (_LGPL_SOURCE programs that call
 * them directly): each is the public, already inline, name of
 * <rcuds/rculfqueue.h>. <assert.h>, <errno.h>, <urcu-call-rcu.h>,
 * <urcu/uatomic.h> and <urcu-pointer.h> come too, as from liburcu's header.
 */
#ifndef LFHT_URCU_STATIC_RCULFQUEUE_H
#define LFHT_URCU_STATIC_RCULFQUEUE_H

#include <assert.h>
#include <errno.h>

#include <urcu/rculfqueue.h>
#include <urcu-call-rcu.h>
#include <urcu/uatomic.h>
#include <urcu-pointer.h>

#define _cds_lfq_node_init_rcu		cds_lfq_node_init_rcu
#define _cds_lfq_init_rcu		cds_lfq_init_rcu
#define _cds_lfq_destroy_rcu		cds_lfq_destroy_rcu
#define _cds_lfq_enqueue_rcu		cds_lfq_enqueue_rcu
#define _cds_lfq_dequeue_rcu		cds_lfq_dequeue_rcu

#endif /* LFHT_URCU_STATIC_RCULFQUEUE_H */
