/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/test_rculfqueue.c - the RCU lock-free queue, once per flavour
 * (-DTEST_FLAVOUR_QSBR, _MEMB or _BP): FIFO order across the dummy nodes,
 * destroy of a non-empty queue (-EPERM, queue kept), dummies freed
 * through the call_rcu given at init, node reuse after a grace period, and
 * producers against consumers in read-side sections with every node taken
 * exactly once and each producer's nodes in order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#if defined(TEST_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
static void quiescent(void) { rcu_quiescent_state(); }
static void test_offline(void) { rcu_thread_offline(); }
static void test_online(void) { rcu_thread_online(); }
#elif defined(TEST_FLAVOUR_MEMB)
#include <rcu/memb.h>
static void quiescent(void) { }
static void test_offline(void) { }
static void test_online(void) { }
#elif defined(TEST_FLAVOUR_BP)
#include <rcu/bp.h>
static void quiescent(void) { }
static void test_offline(void) { }
static void test_online(void) { }
#else
#error "build with -DTEST_FLAVOUR_QSBR, -DTEST_FLAVOUR_MEMB or -DTEST_FLAVOUR_BP"
#endif

#include <rcuds/rculfqueue.h>

#include "ds_test.h"

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
		test_offline();
		synchronize_rcu();
		test_online();
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
	test_offline();
	rcu_barrier();
	test_online();
	rcu_unregister_thread();
}
END_TEST

struct shared {
	struct cds_lfq_queue_rcu q;
	unsigned producers, per_producer;
	unsigned total_taken;	/* atomic */
	struct ds_seen seen;
};

struct producer_arg {
	struct shared *sh;
	unsigned id;
	struct elem *elems;
};

static void *producer(void *arg)
{
	struct producer_arg *p = (struct producer_arg *)arg;

	rcu_register_thread();
	for (unsigned i = 0; i < p->sh->per_producer; i++) {
		p->elems[i].producer = p->id;
		p->elems[i].seq = i;
		cds_lfq_node_init_rcu(&p->elems[i].node);
		enqueue(&p->sh->q, &p->elems[i].node);
		quiescent();
	}
	rcu_unregister_thread();
	return NULL;
}

static void *consumer(void *arg)
{
	struct shared *sh = (struct shared *)arg;
	unsigned total = sh->producers * sh->per_producer;
	unsigned last_seq[DS_TEST_MAX_PRODUCERS];

	for (unsigned i = 0; i < DS_TEST_MAX_PRODUCERS; i++)
		last_seq[i] = UINT32_MAX;
	rcu_register_thread();
	while (__atomic_load_n(&sh->total_taken, __ATOMIC_RELAXED) < total) {
		struct cds_lfq_node_rcu *n = dequeue(&sh->q);

		quiescent();
		if (n == NULL) {
			sched_yield();
			continue;
		}
		struct elem *e = ELEM(n);

		ck_assert_uint_lt(e->producer, sh->producers);
		ck_assert_msg(last_seq[e->producer] == UINT32_MAX ||
			      e->seq > last_seq[e->producer],
			      "producer %u: %u after %u", e->producer, e->seq,
			      last_seq[e->producer]);
		last_seq[e->producer] = e->seq;
		ds_seen_mark(&sh->seen, e->producer, e->seq);
		__atomic_fetch_add(&sh->total_taken, 1, __ATOMIC_RELAXED);
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(producers_and_consumers_take_each_node_once_in_producer_order)
{
	struct shared sh;
	struct producer_arg pa[DS_TEST_MAX_PRODUCERS];
	pthread_t pt[DS_TEST_MAX_PRODUCERS], ct[DS_TEST_MAX_PRODUCERS];
	unsigned producers = 3, consumers = 3;

	rcu_register_thread();
	cds_lfq_init_rcu(&sh.q, call_rcu);
	sh.producers = producers;
	sh.per_producer = ds_test_per_producer() / 2;
	sh.total_taken = 0;
	ds_seen_init(&sh.seen, producers, sh.per_producer);
	for (unsigned i = 0; i < consumers; i++)
		ds_spawn(&ct[i], consumer, &sh);
	for (unsigned i = 0; i < producers; i++) {
		pa[i].sh = &sh;
		pa[i].id = i;
		pa[i].elems = (struct elem *)calloc(sh.per_producer, sizeof(struct elem));
		ck_assert_ptr_nonnull(pa[i].elems);
		ds_spawn(&pt[i], producer, &pa[i]);
	}
	test_offline();
	for (unsigned i = 0; i < producers; i++)
		ds_join(pt[i]);
	for (unsigned i = 0; i < consumers; i++)
		ds_join(ct[i]);
	test_online();
	ck_assert_uint_eq(sh.total_taken, producers * sh.per_producer);
	ck_assert_ptr_null(dequeue(&sh.q));
	ds_seen_check_once(&sh.seen);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&sh.q), 0);
	/* Other threads may have read the nodes until a grace period. */
	test_offline();
	synchronize_rcu();
	rcu_barrier();
	test_online();
	for (unsigned i = 0; i < producers; i++)
		free(pa[i].elems);
	rcu_unregister_thread();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rculfqueue");

	DS_TEST_ADD(s, new_queue_dequeues_null_and_destroys_with_zero, 30);
	DS_TEST_ADD(s, dequeue_is_fifo_across_dummy_nodes_and_nodes_reuse_after_grace_period, 30);
	DS_TEST_ADD(s, destroy_of_non_empty_queue_returns_eperm_and_keeps_the_queue, 30);
	DS_TEST_ADD(s, dequeued_dummies_are_freed_through_the_given_call_rcu, 30);
	DS_TEST_ADD(s, producers_and_consumers_take_each_node_once_in_producer_order, 120);
	return ds_test_main(s);
}
