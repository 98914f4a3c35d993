/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/test_wfcqueue.c - the wait-free concurrent queue: FIFO order,
 * empty and would-block answers (an enqueue "in flight" is staged by hand:
 * the tail exchanged, the link not yet stored), splice, iteration, the
 * lock forms, both head kinds, and producers against consumers with every
 * node taken exactly once and each producer's nodes in order.
 */
#define _GNU_SOURCE
#include <errno.h>

#include <rcuds/wfcqueue.h>

#include "queue_test.h"

struct elem {
	struct cds_wfcq_node node;
	unsigned producer, seq;
};

#define ELEM(n) ((struct elem *)(void *)((char *)(n) - offsetof(struct elem, node)))

static void elems_init(struct elem *e, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		cds_wfcq_node_init(&e[i].node);
		e[i].producer = 0;
		e[i].seq = i;
	}
}

/* The first half of an enqueue: the tail is the node, the link is not
 * stored yet. finish_inflight() stores it. */
static struct cds_wfcq_node *start_inflight(struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return __atomic_exchange_n((struct cds_wfcq_node **)&tail->p, node, __ATOMIC_SEQ_CST);
}

static void finish_inflight(struct cds_wfcq_node *prev, struct cds_wfcq_node *node)
{
	__atomic_store_n((struct cds_wfcq_node **)&prev->next, node, __ATOMIC_RELEASE);
}

START_TEST(new_queue_is_empty_and_dequeue_gives_null)
{
	struct cds_wfcq_head h;
	struct __cds_wfcq_head uh;
	struct cds_wfcq_tail t, ut;
	int state = -1;

	cds_wfcq_init(&h, &t);
	__cds_wfcq_init(&uh, &ut);
	ck_assert(cds_wfcq_empty(&h, &t));
	ck_assert(cds_wfcq_empty(&uh, &ut));
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&h, &t));
	ck_assert_ptr_null(__cds_wfcq_dequeue_blocking(&uh, &ut));
	ck_assert_ptr_null(__cds_wfcq_dequeue_nonblocking(&uh, &ut));
	ck_assert_ptr_null(__cds_wfcq_dequeue_with_state_nonblocking(&h, &t, &state));
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_null(__cds_wfcq_first_blocking(&uh, &ut));
	ck_assert_ptr_null(__cds_wfcq_first_nonblocking(&h, &t));
	cds_wfcq_destroy(&h, &t);
}
END_TEST

START_TEST(enqueue_reports_prior_emptiness_and_dequeue_is_fifo)
{
	struct cds_wfcq_head h;
	struct cds_wfcq_tail t;
	struct elem e[8];

	cds_wfcq_init(&h, &t);
	elems_init(e, 8);
	for (unsigned i = 0; i < 8; i++)
		ck_assert(cds_wfcq_enqueue(&h, &t, &e[i].node) == (i != 0));
	ck_assert(!cds_wfcq_empty(&h, &t));
	for (unsigned i = 0; i < 8; i++) {
		struct cds_wfcq_node *n = i % 2 ? cds_wfcq_dequeue_blocking(&h, &t)
			: __cds_wfcq_dequeue_nonblocking(&h, &t);

		ck_assert_ptr_eq(n, &e[i].node);
	}
	ck_assert(cds_wfcq_empty(&h, &t));
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&h, &t));
	/* A dequeued node goes back in once initialized again. */
	cds_wfcq_node_init(&e[3].node);
	ck_assert(!cds_wfcq_enqueue(&h, &t, &e[3].node));
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&h, &t), &e[3].node);
	cds_wfcq_destroy(&h, &t);
}
END_TEST

START_TEST(dequeue_with_state_marks_only_the_last_node)
{
	struct __cds_wfcq_head h;
	struct cds_wfcq_head lh;
	struct cds_wfcq_tail t, lt;
	struct elem e[3];
	int state;

	__cds_wfcq_init(&h, &t);
	elems_init(e, 3);
	for (unsigned i = 0; i < 3; i++)
		cds_wfcq_enqueue(&h, &t, &e[i].node);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_blocking(&h, &t, &state), &e[0].node);
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_nonblocking(&h, &t, &state), &e[1].node);
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_blocking(&h, &t, &state), &e[2].node);
	ck_assert_int_eq(state, CDS_WFCQ_STATE_LAST);
	ck_assert(cds_wfcq_empty(&h, &t));

	cds_wfcq_init(&lh, &lt);
	cds_wfcq_node_init(&e[0].node);
	cds_wfcq_enqueue(&lh, &lt, &e[0].node);
	ck_assert_ptr_eq(cds_wfcq_dequeue_with_state_blocking(&lh, &lt, &state), &e[0].node);
	ck_assert_int_eq(state, CDS_WFCQ_STATE_LAST);
	cds_wfcq_destroy(&lh, &lt);
}
END_TEST

START_TEST(nonblocking_calls_return_wouldblock_while_a_link_is_in_flight)
{
	struct __cds_wfcq_head h, dh;
	struct cds_wfcq_tail t, dt;
	struct elem e[2];
	struct cds_wfcq_node *prev;
	int state = -1;

	__cds_wfcq_init(&h, &t);
	__cds_wfcq_init(&dh, &dt);
	elems_init(e, 2);
	/* First node in flight: nothing can be had yet, but it is not empty. */
	prev = start_inflight(&t, &e[0].node);
	ck_assert(!cds_wfcq_empty(&h, &t));
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&h, &t), CDS_WFCQ_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_nonblocking(&h, &t, &state),
			 CDS_WFCQ_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfcq_first_nonblocking(&h, &t), CDS_WFCQ_WOULDBLOCK);
	ck_assert_int_eq(__cds_wfcq_splice_nonblocking(&dh, &dt, &h, &t), CDS_WFCQ_RET_WOULDBLOCK);
	ck_assert(cds_wfcq_empty(&dh, &dt));
	finish_inflight(prev, &e[0].node);

	/* Second node in flight behind the first: the first cannot be
	 * dequeued (its successor is unknown), and the queue is left as it
	 * was. */
	prev = start_inflight(&t, &e[1].node);
	ck_assert_ptr_eq(prev, &e[0].node);
	ck_assert_ptr_eq(__cds_wfcq_first_nonblocking(&h, &t), &e[0].node);
	ck_assert_ptr_eq(__cds_wfcq_next_nonblocking(&h, &t, &e[0].node), CDS_WFCQ_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&h, &t), CDS_WFCQ_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfcq_first_nonblocking(&h, &t), &e[0].node);
	finish_inflight(prev, &e[1].node);
	ck_assert_ptr_eq(__cds_wfcq_next_nonblocking(&h, &t, &e[0].node), &e[1].node);
	ck_assert_ptr_null(__cds_wfcq_next_nonblocking(&h, &t, &e[1].node));
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&h, &t), &e[0].node);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_nonblocking(&h, &t, &state), &e[1].node);
	ck_assert_int_eq(state, CDS_WFCQ_STATE_LAST);
	ck_assert(cds_wfcq_empty(&h, &t));
}
END_TEST

struct linker {
	struct cds_wfcq_node *prev, *node;
	unsigned delay_ms;
};

static void *link_later(void *arg)
{
	struct linker *l = (struct linker *)arg;

	ds_sleep_ms(l->delay_ms);
	finish_inflight(l->prev, l->node);
	return NULL;
}

START_TEST(blocking_calls_wait_for_a_link_in_flight)
{
	struct __cds_wfcq_head h, dh;
	struct cds_wfcq_tail t, dt;
	struct elem e[2];
	struct linker l;
	pthread_t thr;

	__cds_wfcq_init(&h, &t);
	__cds_wfcq_init(&dh, &dt);
	elems_init(e, 2);
	/* Long enough that the wait passes its spins and sleeps. */
	l.node = &e[0].node;
	l.prev = start_inflight(&t, l.node);
	l.delay_ms = 20;
	ds_spawn(&thr, link_later, &l);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_blocking(&h, &t), &e[0].node);
	ds_join(thr);

	cds_wfcq_enqueue(&h, &t, &e[1].node);
	cds_wfcq_node_init(&e[0].node);
	l.node = &e[0].node;
	l.prev = start_inflight(&t, l.node);
	ds_spawn(&thr, link_later, &l);
	ck_assert_int_eq(__cds_wfcq_splice_blocking(&dh, &dt, &h, &t), CDS_WFCQ_RET_DEST_EMPTY);
	ds_join(thr);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_blocking(&dh, &dt), &e[1].node);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_blocking(&dh, &dt), &e[0].node);
	ck_assert(cds_wfcq_empty(&dh, &dt));
	ck_assert(cds_wfcq_empty(&h, &t));
}
END_TEST

START_TEST(splice_moves_every_node_in_order_and_reports_both_queues)
{
	struct cds_wfcq_head src, dst;
	struct __cds_wfcq_head usrc;
	struct cds_wfcq_tail st, dt, ust;
	struct elem e[10];

	cds_wfcq_init(&src, &st);
	cds_wfcq_init(&dst, &dt);
	__cds_wfcq_init(&usrc, &ust);
	elems_init(e, 10);
	ck_assert_int_eq(cds_wfcq_splice_blocking(&dst, &dt, &src, &st), CDS_WFCQ_RET_SRC_EMPTY);
	for (unsigned i = 0; i < 4; i++)
		cds_wfcq_enqueue(&src, &st, &e[i].node);
	ck_assert_int_eq(cds_wfcq_splice_blocking(&dst, &dt, &src, &st), CDS_WFCQ_RET_DEST_EMPTY);
	ck_assert(cds_wfcq_empty(&src, &st));
	for (unsigned i = 4; i < 7; i++)
		cds_wfcq_enqueue(&usrc, &ust, &e[i].node);
	ck_assert_int_eq(__cds_wfcq_splice_nonblocking(&dst, &dt, &usrc, &ust),
			 CDS_WFCQ_RET_DEST_NON_EMPTY);
	/* The source works on after a splice. */
	for (unsigned i = 7; i < 10; i++)
		cds_wfcq_enqueue(&usrc, &ust, &e[i].node);
	ck_assert_int_eq(__cds_wfcq_splice_blocking(&dst, &dt, &usrc, &ust),
			 CDS_WFCQ_RET_DEST_NON_EMPTY);
	ck_assert_int_eq(__cds_wfcq_splice_blocking(&dst, &dt, &usrc, &ust),
			 CDS_WFCQ_RET_SRC_EMPTY);
	for (unsigned i = 0; i < 10; i++)
		ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&dst, &dt), &e[i].node);
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&dst, &dt));
	cds_wfcq_destroy(&src, &st);
	cds_wfcq_destroy(&dst, &dt);
}
END_TEST

START_TEST(for_each_visits_in_order_and_safe_form_allows_freeing)
{
	struct cds_wfcq_head h;
	struct cds_wfcq_tail t;
	struct cds_wfcq_node *n, *next;
	unsigned i = 0;

	cds_wfcq_init(&h, &t);
	__cds_wfcq_for_each_blocking(&h, &t, n)
		ck_abort_msg("empty queue iterated");
	for (unsigned k = 0; k < 6; k++) {
		struct elem *e = (struct elem *)malloc(sizeof(*e));

		ck_assert_ptr_nonnull(e);
		cds_wfcq_node_init(&e->node);
		e->seq = k;
		cds_wfcq_enqueue(&h, &t, &e->node);
	}
	cds_wfcq_dequeue_lock(&h, &t);
	__cds_wfcq_for_each_blocking(&h, &t, n)
		ck_assert_uint_eq(ELEM(n)->seq, i++);
	ck_assert_uint_eq(i, 6);
	cds_wfcq_dequeue_unlock(&h, &t);
	/* Splice into a private queue and free from there while iterating. */
	{
		struct __cds_wfcq_head ph;
		struct cds_wfcq_tail pt;

		__cds_wfcq_init(&ph, &pt);
		ck_assert_int_eq(__cds_wfcq_splice_blocking(&ph, &pt, &h, &t),
				 CDS_WFCQ_RET_DEST_EMPTY);
		i = 0;
		__cds_wfcq_for_each_blocking_safe(&ph, &pt, n, next) {
			ck_assert_uint_eq(ELEM(n)->seq, i++);
			free(ELEM(n));
		}
		ck_assert_uint_eq(i, 6);
	}
	cds_wfcq_destroy(&h, &t);
}
END_TEST

START_TEST(dequeue_lock_excludes_the_locked_dequeue)
{
	struct cds_wfcq_head h;
	struct cds_wfcq_tail t;
	struct elem e;

	cds_wfcq_init(&h, &t);
	elems_init(&e, 1);
	cds_wfcq_enqueue(&h, &t, &e.node);
	cds_wfcq_dequeue_lock(&h, &t);
	ck_assert_int_eq(pthread_mutex_trylock(&h.lock), EBUSY);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_blocking(&h, &t), &e.node);
	cds_wfcq_dequeue_unlock(&h, &t);
	ck_assert_int_eq(pthread_mutex_trylock(&h.lock), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&h.lock), 0);
	cds_wfcq_destroy(&h, &t);
}
END_TEST

/* Producers against consumers. */
enum consume_mode { LOCKED, NONBLOCKING_SOLE, SPLICE_SOLE };

struct queue {
	struct cds_wfcq_head h;
	struct cds_wfcq_tail t;
};

static void put(struct ds_pc *pc, void *elem, unsigned producer, unsigned seq)
{
	struct queue *q = (struct queue *)pc->q;
	struct elem *e = (struct elem *)elem;

	e->producer = producer;
	e->seq = seq;
	cds_wfcq_node_init(&e->node);
	cds_wfcq_enqueue(&q->h, &q->t, &e->node);
}

/* Each taken node after the same producer's earlier ones. */
static bool take(struct ds_pc_consumer *c)
{
	struct queue *q = (struct queue *)c->pc->q;
	struct cds_wfcq_node *n = NULL;
	struct __cds_wfcq_head ph;
	struct cds_wfcq_tail pt;

	switch (c->pc->mode) {
	case LOCKED:
		n = cds_wfcq_dequeue_blocking(&q->h, &q->t);
		break;
	case NONBLOCKING_SOLE:
		n = __cds_wfcq_dequeue_nonblocking(&q->h, &q->t);
		if (n == CDS_WFCQ_WOULDBLOCK)
			n = NULL;
		break;
	case SPLICE_SOLE:
		__cds_wfcq_init(&ph, &pt);
		if (__cds_wfcq_splice_blocking(&ph, &pt, &q->h, &q->t) == CDS_WFCQ_RET_SRC_EMPTY)
			return false;
		while ((n = __cds_wfcq_dequeue_blocking(&ph, &pt)) != NULL)
			ds_pc_took_fifo(c, ELEM(n)->producer, ELEM(n)->seq);
		ck_assert(cds_wfcq_empty(&ph, &pt));
		return true;
	}
	if (n == NULL)
		return false;
	ds_pc_took_fifo(c, ELEM(n)->producer, ELEM(n)->seq);
	return true;
}

static const struct ds_pc_ops queue_ops = {
	.elem_size = sizeof(struct elem),
	.put = put,
	.take = take,
};

static void run_producers_consumers(enum consume_mode mode, unsigned producers,
				    unsigned consumers)
{
	struct queue q;
	struct ds_pc pc = { .ops = &queue_ops, .q = &q, .mode = mode };

	cds_wfcq_init(&q.h, &q.t);
	ds_pc_run(&pc, producers, consumers, ds_test_per_producer());
	ck_assert(cds_wfcq_empty(&q.h, &q.t));
	ds_pc_free(&pc);
	cds_wfcq_destroy(&q.h, &q.t);
}

START_TEST(producers_and_locked_consumers_take_each_node_once_in_producer_order)
{
	run_producers_consumers(LOCKED, 4, 3);
}
END_TEST

START_TEST(producers_and_one_nonblocking_consumer_take_each_node_once_in_order)
{
	run_producers_consumers(NONBLOCKING_SOLE, 3, 1);
}
END_TEST

START_TEST(splicing_consumer_takes_each_node_once_in_producer_order)
{
	run_producers_consumers(SPLICE_SOLE, 3, 1);
}
END_TEST

DS_MAIN("wfcqueue",
	DS_CASE(new_queue_is_empty_and_dequeue_gives_null, 30),
	DS_CASE(enqueue_reports_prior_emptiness_and_dequeue_is_fifo, 30),
	DS_CASE(dequeue_with_state_marks_only_the_last_node, 30),
	DS_CASE(nonblocking_calls_return_wouldblock_while_a_link_is_in_flight, 30),
	DS_CASE(blocking_calls_wait_for_a_link_in_flight, 30),
	DS_CASE(splice_moves_every_node_in_order_and_reports_both_queues, 30),
	DS_CASE(for_each_visits_in_order_and_safe_form_allows_freeing, 30),
	DS_CASE(dequeue_lock_excludes_the_locked_dequeue, 30),
	DS_CASE(producers_and_locked_consumers_take_each_node_once_in_producer_order, 120),
	DS_CASE(producers_and_one_nonblocking_consumer_take_each_node_once_in_order, 120),
	DS_CASE(splicing_consumer_takes_each_node_once_in_producer_order, 120))
