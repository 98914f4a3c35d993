/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/wfcqueue.h (lfht's liburcu compatibility layer) - liburcu's
 * inline names for the wait-free concurrent queue, for programs built
 * with _LGPL_SOURCE that call them directly: each is the public name of
 * <rcuds/wfcqueue.h>, which is inline already. <pthread.h>, <assert.h>,
 * <poll.h>, <stdbool.h>, <urcu/compiler.h> and <urcu/uatomic.h> come too,
 * as from liburcu's header.
 */
#ifndef LFHT_URCU_STATIC_WFCQUEUE_H
#define LFHT_URCU_STATIC_WFCQUEUE_H

#include <assert.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>

#include <urcu/compiler.h>
#include <urcu/uatomic.h>
#include <urcu/wfcqueue.h>

#define _cds_wfcq_node_init			cds_wfcq_node_init
#define _cds_wfcq_init				cds_wfcq_init
#define ___cds_wfcq_init			__cds_wfcq_init
#define _cds_wfcq_destroy			cds_wfcq_destroy
#define _cds_wfcq_empty				cds_wfcq_empty
#define _cds_wfcq_enqueue			cds_wfcq_enqueue
#define _cds_wfcq_dequeue_lock			cds_wfcq_dequeue_lock
#define _cds_wfcq_dequeue_unlock		cds_wfcq_dequeue_unlock
#define _cds_wfcq_dequeue_blocking		cds_wfcq_dequeue_blocking
#define _cds_wfcq_dequeue_with_state_blocking	cds_wfcq_dequeue_with_state_blocking
#define _cds_wfcq_splice_blocking		cds_wfcq_splice_blocking
#define ___cds_wfcq_dequeue_blocking		__cds_wfcq_dequeue_blocking
#define ___cds_wfcq_dequeue_with_state_blocking	__cds_wfcq_dequeue_with_state_blocking
#define ___cds_wfcq_splice_blocking		__cds_wfcq_splice_blocking
#define ___cds_wfcq_first_blocking		__cds_wfcq_first_blocking
#define ___cds_wfcq_next_blocking		__cds_wfcq_next_blocking
#define ___cds_wfcq_dequeue_nonblocking		__cds_wfcq_dequeue_nonblocking
#define ___cds_wfcq_dequeue_with_state_nonblocking	__cds_wfcq_dequeue_with_state_nonblocking
#define ___cds_wfcq_splice_nonblocking		__cds_wfcq_splice_nonblocking
#define ___cds_wfcq_first_nonblocking		__cds_wfcq_first_nonblocking
#define ___cds_wfcq_next_nonblocking		__cds_wfcq_next_nonblocking

#endif /* LFHT_URCU_STATIC_WFCQUEUE_H */
