/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/test_rculfqueue.c - the RCU lock-free queue, once per flavour
 * (-DTEST_FLAVOUR_QSBR, _MEMB, _BP or _MB; ds_test.h picks it): FIFO order
 * across the dummy nodes, destroy of a non-empty queue (-EPERM, queue
 * kept), dummies freed through the call_rcu given at init, node reuse
 * after a grace period, and producers against consumers in read-side
 * sections with every node taken exactly once and each producer's nodes
 * in order.
 */
#define _GNU_SOURCE
#include <errno.h>

#include "queue_test.h"

#if !defined(TEST_FLAVOUR_QSBR) && !defined(TEST_FLAVOUR_MEMB) && \
	!defined(TEST_FLAVOUR_BP) && !defined(TEST_FLAVOUR_MB)
#error "build with -DTEST_FLAVOUR_QSBR, -DTEST_FLAVOUR_MEMB, -DTEST_FLAVOUR_BP or -DTEST_FLAVOUR_MB"
#endif

#include <rcuds/rculfqueue.h>

struct elem {
	struct cds_lfq_node_rcu node;
	unsigned producer, seq;
};

#define ELEM(n) caa_container_of(n, struct elem, node)

static unsigned call_rcu_calls;	/* atomic */

/* The flavour's call_rcu, counted. */
static void counting_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	__atomic_fetch_add(&call_rcu_calls, 1, __ATOMIC_RELAXED);
	call_rcu(head, func);
}

static struct cds_lfq_node_rcu *dequeue(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *n;

	rcu_read_lock();
	n = cds_lfq_dequeue_rcu(q);
	rcu_read_unlock();
	return n;
}

static void enqueue(struct cds_lfq_queue_rcu *q, struct cds_lfq_node_rcu *n)
{
	rcu_read_lock();
	cds_lfq_enqueue_rcu(q, n);
	rcu_read_unlock();
}

START_TEST(new_queue_dequeues_null_and_destroys_with_zero)
{
	struct cds_lfq_queue_rcu q;

	rcu_register_thread();
	cds_lfq_init_rcu(&q, call_rcu);
	ck_assert_ptr_null(dequeue(&q));
	ck_assert_ptr_null(dequeue(&q));
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
	rcu_unregister_thread();
}
END_TEST

START_TEST(dequeue_is_fifo_across_dummy_nodes_and_nodes_reuse_after_grace_period)
{
	struct cds_lfq_queue_rcu q;
	struct elem e[16];

	rcu_register_thread();
	cds_lfq_init_rcu(&q, call_rcu);
	for (unsigned round = 0; round < 3; round++) {
		/* One at a time: each dequeue of a last node puts a dummy
		 * behind it. */
		for (unsigned i = 0; i < 4; i++) {
			cds_lfq_node_init_rcu(&e[i].node);
			e[i].seq = i;
			enqueue(&q, &e[i].node);
			ck_assert_ptr_eq(dequeue(&q), &e[i].node);
			ck_assert_ptr_null(dequeue(&q));
		}
		/* Then many. */
		for (unsigned i = 4; i < 16; i++) {
			cds_lfq_node_init_rcu(&e[i].node);
			e[i].seq = i;
			enqueue(&q, &e[i].node);
		}
		for (unsigned i = 4; i < 16; i++)
			ck_assert_uint_eq(ELEM(dequeue(&q))->seq, i);
		ck_assert_ptr_null(dequeue(&q));
		reader_offline();
		synchronize_rcu();
		reader_online();
	}
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
	rcu_unregister_thread();
}
END_TEST

START_TEST(destroy_of_non_empty_queue_returns_eperm_and_keeps_the_queue)
{
	struct cds_lfq_queue_rcu q;
	struct elem e[3];

	rcu_register_thread();
	cds_lfq_init_rcu(&q, call_rcu);
	for (unsigned i = 0; i < 3; i++) {
		cds_lfq_node_init_rcu(&e[i].node);
		enqueue(&q, &e[i].node);
	}
	/* Head a dummy with successors. */
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), -EPERM);
	ck_assert_ptr_eq(dequeue(&q), &e[0].node);
	ck_assert_ptr_eq(dequeue(&q), &e[1].node);
	/* Head a real node with no successor. */
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), -EPERM);
	ck_assert_ptr_eq(dequeue(&q), &e[2].node);
	ck_assert_ptr_null(dequeue(&q));
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
	rcu_unregister_thread();
}
END_TEST

START_TEST(dequeued_dummies_are_freed_through_the_given_call_rcu)
{
	struct cds_lfq_queue_rcu q;
	struct elem e[8];

	rcu_register_thread();
	__atomic_store_n(&call_rcu_calls, 0, __ATOMIC_RELAXED);
	cds_lfq_init_rcu(&q, counting_call_rcu);
	for (unsigned i = 0; i < 8; i++) {
		cds_lfq_node_init_rcu(&e[i].node);
		enqueue(&q, &e[i].node);
		ck_assert_ptr_eq(dequeue(&q), &e[i].node);
	}
	/* The first dummy, then one per dequeue of a last node but the
	 * last one's (still the head). */
	ck_assert_uint_eq(__atomic_load_n(&call_rcu_calls, __ATOMIC_RELAXED), 8);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
	reader_offline();
	rcu_barrier();
	reader_online();
	rcu_unregister_thread();
}
END_TEST

/* Producers against consumers, each in read-side sections. */
static void put(struct ds_pc *pc, void *elem, unsigned producer, unsigned seq)
{
	struct elem *e = (struct elem *)elem;

	e->producer = producer;
	e->seq = seq;
	cds_lfq_node_init_rcu(&e->node);
	enqueue((struct cds_lfq_queue_rcu *)pc->q, &e->node);
	reader_quiescent();
}

/* Each taken node after the same producer's earlier ones. */
static bool take(struct ds_pc_consumer *c)
{
	struct cds_lfq_node_rcu *n = dequeue((struct cds_lfq_queue_rcu *)c->pc->q);

	reader_quiescent();
	if (n == NULL)
		return false;
	ds_pc_took_fifo(c, ELEM(n)->producer, ELEM(n)->seq);
	return true;
}

static void register_thread(void)
{
	rcu_register_thread();
}

static void unregister_thread(void)
{
	rcu_unregister_thread();
}

static const struct ds_pc_ops queue_ops = {
	.elem_size = sizeof(struct elem),
	.put = put,
	.take = take,
	.thread_begin = register_thread,
	.thread_end = unregister_thread,
	.join_begin = reader_offline,
	.join_end = reader_online,
};

START_TEST(producers_and_consumers_take_each_node_once_in_producer_order)
{
	struct cds_lfq_queue_rcu q;
	struct ds_pc pc = { .ops = &queue_ops, .q = &q };

	rcu_register_thread();
	cds_lfq_init_rcu(&q, call_rcu);
	ds_pc_run(&pc, 3, 3, ds_test_per_producer() / 2);
	ck_assert_ptr_null(dequeue(&q));
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
	/* Other threads may have read the nodes until a grace period. */
	reader_offline();
	synchronize_rcu();
	rcu_barrier();
	reader_online();
	ds_pc_free(&pc);
	rcu_unregister_thread();
}
END_TEST

DS_MAIN("rculfqueue",
	DS_CASE(new_queue_dequeues_null_and_destroys_with_zero, 30),
	DS_CASE(dequeue_is_fifo_across_dummy_nodes_and_nodes_reuse_after_grace_period, 30),
	DS_CASE(destroy_of_non_empty_queue_returns_eperm_and_keeps_the_queue, 30),
	DS_CASE(dequeued_dummies_are_freed_through_the_given_call_rcu, 30),
	DS_CASE(producers_and_consumers_take_each_node_once_in_producer_order, 120))
