/* SPDX-License-Identifier: MIT */
/*
 * urcu/wfqueue.h (lfht's liburcu compatibility layer) - liburcu's
 * deprecated wait-free queue (cds_wfq_*), kept as liburcu 0.15 still ships
 * it, over <rcuds/wfcqueue.h>: a queue is a cds_wfcq head (with its mutex)
 * and tail; enqueue is wait-free, cds_wfq_dequeue_blocking() takes the
 * mutex, __cds_wfq_dequeue_blocking() leaves exclusion to the caller. New
 * code uses <urcu/wfcqueue.h>. Calls warn as deprecated, as in liburcu.
 * <pthread.h>, <assert.h> and <urcu/compiler.h> come too, as from
 * liburcu's header.
 *
 * Differs from liburcu: the node and queue wrap wfcqueue's (members `node`,
 * `head`, `tail`; liburcu's `dummy` and `lock` are not there); nothing is
 * exported.
 */
#ifndef LFHT_URCU_WFQUEUE_H
#define LFHT_URCU_WFQUEUE_H

#include <assert.h>
#include <pthread.h>

#include <urcu/compiler.h>
#include <rcuds/wfcqueue.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CDS_WFQ_DEPRECATED
#define CDS_WFQ_DEPRECATED	\
	CDS_DEPRECATED("urcu/wfqueue.h is deprecated. Please use urcu/wfcqueue.h instead.")
#endif

struct cds_wfq_node {
	struct cds_wfcq_node node;
};

struct cds_wfq_queue {
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
};

static inline struct cds_wfq_node *lfht_urcu_wfq_node_(struct cds_wfcq_node *n)
{
	return n != NULL ? caa_container_of(n, struct cds_wfq_node, node) : NULL;
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_node_init(struct cds_wfq_node *node)
{
	cds_wfcq_node_init(&node->node);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_init(struct cds_wfq_queue *q)
{
	cds_wfcq_init(&q->head, &q->tail);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_destroy(struct cds_wfq_queue *q)
{
	cds_wfcq_destroy(&q->head, &q->tail);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_enqueue(struct cds_wfq_queue *q, struct cds_wfq_node *node)
{
	(void)cds_wfcq_enqueue(cds_wfcq_head_cast(&q->head), &q->tail, &node->node);
}

static inline CDS_WFQ_DEPRECATED
struct cds_wfq_node *__cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return lfht_urcu_wfq_node_(__cds_wfcq_dequeue_blocking(cds_wfcq_head_cast(&q->head),
								&q->tail));
}

static inline CDS_WFQ_DEPRECATED
struct cds_wfq_node *cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return lfht_urcu_wfq_node_(cds_wfcq_dequeue_blocking(&q->head, &q->tail));
}

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE
#include <urcu/static/wfqueue.h>
#endif

#endif /* LFHT_URCU_WFQUEUE_H */
