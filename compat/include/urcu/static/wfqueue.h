/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/wfqueue.h (lfht's liburcu compatibility layer) - liburcu's
 * inline names for the deprecated wait-free queue: each is the public name
 * of <urcu/wfqueue.h>. <pthread.h>, <assert.h>, <poll.h>, <urcu/compiler.h>
 * and <urcu/uatomic.h> come too, as from liburcu's header.
 */
#ifndef LFHT_URCU_STATIC_WFQUEUE_H
#define LFHT_URCU_STATIC_WFQUEUE_H

#include <assert.h>
#include <poll.h>
#include <pthread.h>

#include <urcu/compiler.h>
#include <urcu/uatomic.h>
#include <urcu/wfqueue.h>

#define _cds_wfq_node_init		cds_wfq_node_init
#define _cds_wfq_init			cds_wfq_init
#define _cds_wfq_destroy		cds_wfq_destroy
#define _cds_wfq_enqueue		cds_wfq_enqueue
#define ___cds_wfq_dequeue_blocking	__cds_wfq_dequeue_blocking
#define _cds_wfq_dequeue_blocking	cds_wfq_dequeue_blocking

#endif /* LFHT_URCU_STATIC_WFQUEUE_H */
