/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/test_wfstack.c - the wait-free stack: LIFO order, empty and
 * would-block answers (a push "in flight" is staged by hand: the head
 * exchanged, the link not yet stored), pop_all and iteration, the lock
 * forms, both stack kinds, and pushers against poppers with every node
 * taken exactly once.
 */
#define _GNU_SOURCE
#include <errno.h>

#include <rcuds/wfstack.h>

#include "queue_test.h"

struct elem {
	struct cds_wfs_node node;
	unsigned producer, seq;
};

#define ELEM(n) ((struct elem *)(void *)((char *)(n) - offsetof(struct elem, node)))

static void elems_init(struct elem *e, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		cds_wfs_node_init(&e[i].node);
		e[i].producer = 0;
		e[i].seq = i;
	}
}

/* The first half of a push: the node is the head, its link not stored. */
static struct cds_wfs_head *start_inflight(struct __cds_wfs_stack *s, struct cds_wfs_node *node)
{
	return __atomic_exchange_n((struct cds_wfs_head **)&s->head,
				   (struct cds_wfs_head *)(void *)node, __ATOMIC_SEQ_CST);
}

static void finish_inflight(struct cds_wfs_head *old, struct cds_wfs_node *node)
{
	__atomic_store_n((struct cds_wfs_node **)&node->next, (struct cds_wfs_node *)(void *)old,
			 __ATOMIC_RELEASE);
}

START_TEST(new_stack_is_empty_and_pops_give_null)
{
	struct cds_wfs_stack s;
	struct __cds_wfs_stack us;
	int state = -1;

	cds_wfs_init(&s);
	__cds_wfs_init(&us);
	ck_assert(cds_wfs_empty(&s));
	ck_assert(cds_wfs_empty(&us));
	ck_assert_ptr_null(cds_wfs_pop_blocking(&s));
	ck_assert_ptr_null(cds_wfs_pop_with_state_blocking(&s, &state));
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_null(__cds_wfs_pop_blocking(&us));
	ck_assert_ptr_null(__cds_wfs_pop_nonblocking(&us));
	ck_assert_ptr_null(__cds_wfs_pop_all(&us));
	ck_assert_ptr_null(cds_wfs_pop_all_blocking(&s));
	ck_assert_ptr_null(cds_wfs_first(NULL));
	cds_wfs_destroy(&s);
}
END_TEST

START_TEST(push_reports_prior_emptiness_and_pop_is_lifo)
{
	struct cds_wfs_stack s;
	struct elem e[8];

	cds_wfs_init(&s);
	elems_init(e, 8);
	for (unsigned i = 0; i < 8; i++)
		ck_assert_int_eq(cds_wfs_push(&s, &e[i].node), i != 0);
	ck_assert(!cds_wfs_empty(&s));
	for (unsigned i = 8; i-- > 0;) {
		struct cds_wfs_node *n = i % 2 ? cds_wfs_pop_blocking(&s)
			: __cds_wfs_pop_nonblocking(&s);

		ck_assert_ptr_eq(n, &e[i].node);
	}
	ck_assert(cds_wfs_empty(&s));
	cds_wfs_node_init(&e[2].node);
	ck_assert_int_eq(cds_wfs_push(&s, &e[2].node), 0);
	ck_assert_ptr_eq(cds_wfs_pop_blocking(&s), &e[2].node);
	cds_wfs_destroy(&s);
}
END_TEST

START_TEST(pop_with_state_marks_only_the_last_node)
{
	struct __cds_wfs_stack s;
	struct elem e[3];
	int state;

	__cds_wfs_init(&s);
	elems_init(e, 3);
	for (unsigned i = 0; i < 3; i++)
		cds_wfs_push(&s, &e[i].node);
	ck_assert_ptr_eq(__cds_wfs_pop_with_state_blocking(&s, &state), &e[2].node);
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_eq(__cds_wfs_pop_with_state_nonblocking(&s, &state), &e[1].node);
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_eq(__cds_wfs_pop_with_state_blocking(&s, &state), &e[0].node);
	ck_assert_int_eq(state, CDS_WFS_STATE_LAST);
	ck_assert(cds_wfs_empty(&s));
}
END_TEST

START_TEST(nonblocking_calls_return_wouldblock_while_a_link_is_in_flight)
{
	struct __cds_wfs_stack s;
	struct elem e[2];
	struct cds_wfs_head *old, *all;

	__cds_wfs_init(&s);
	elems_init(e, 2);
	cds_wfs_push(&s, &e[0].node);
	old = start_inflight(&s, &e[1].node);
	ck_assert(!cds_wfs_empty(&s));
	ck_assert_ptr_eq(__cds_wfs_pop_nonblocking(&s), CDS_WFS_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfs_pop_with_state_nonblocking(&s, NULL), CDS_WFS_WOULDBLOCK);
	/* pop_all is wait-free: it takes the chain; the walk would block. */
	all = __cds_wfs_pop_all(&s);
	ck_assert_ptr_eq(cds_wfs_first(all), &e[1].node);
	ck_assert_ptr_eq(cds_wfs_next_nonblocking(&e[1].node), CDS_WFS_WOULDBLOCK);
	finish_inflight(old, &e[1].node);
	ck_assert_ptr_eq(cds_wfs_next_nonblocking(&e[1].node), &e[0].node);
	ck_assert_ptr_null(cds_wfs_next_nonblocking(&e[0].node));
	ck_assert(cds_wfs_empty(&s));
}
END_TEST

struct linker {
	struct cds_wfs_head *old;
	struct cds_wfs_node *node;
};

static void *link_later(void *arg)
{
	struct linker *l = (struct linker *)arg;

	ds_sleep_ms(20);
	finish_inflight(l->old, l->node);
	return NULL;
}

START_TEST(blocking_calls_wait_for_a_link_in_flight)
{
	struct __cds_wfs_stack s;
	struct elem e[2];
	struct linker l;
	struct cds_wfs_node *n;
	pthread_t thr;
	unsigned i = 0;

	__cds_wfs_init(&s);
	elems_init(e, 2);
	cds_wfs_push(&s, &e[0].node);
	l.node = &e[1].node;
	l.old = start_inflight(&s, l.node);
	ds_spawn(&thr, link_later, &l);
	ck_assert_ptr_eq(__cds_wfs_pop_blocking(&s), &e[1].node);
	ds_join(thr);
	ck_assert_ptr_eq(__cds_wfs_pop_blocking(&s), &e[0].node);

	elems_init(e, 2);
	cds_wfs_push(&s, &e[0].node);
	l.old = start_inflight(&s, l.node);
	ds_spawn(&thr, link_later, &l);
	cds_wfs_for_each_blocking(__cds_wfs_pop_all(&s), n)
		ck_assert_ptr_eq(n, &e[1 - i++].node);
	ck_assert_uint_eq(i, 2);
	ds_join(thr);
}
END_TEST

/* The tests both stacks pass alike, and pushers against poppers. */
#define STACK_(x) cds_wfs_##x
#define STACK_POP_ALL __cds_wfs_pop_all
#define STACK_FOR_EACH_SAFE cds_wfs_for_each_blocking_safe
#define STACK_FOR_EACH cds_wfs_for_each_blocking
#define STACK_POP_UNLOCKED __cds_wfs_pop_blocking
#include "stack_test.h"

DS_MAIN("wfstack",
	DS_CASE(new_stack_is_empty_and_pops_give_null, 30),
	DS_CASE(push_reports_prior_emptiness_and_pop_is_lifo, 30),
	DS_CASE(pop_with_state_marks_only_the_last_node, 30),
	DS_CASE(nonblocking_calls_return_wouldblock_while_a_link_is_in_flight, 30),
	DS_CASE(blocking_calls_wait_for_a_link_in_flight, 30),
	DS_CASE(pop_all_takes_every_node_and_iterates_top_first, 30),
	DS_CASE(pop_lock_excludes_the_locked_pop, 30),
	DS_CASE(pushers_and_locked_poppers_take_each_node_once, 120),
	DS_CASE(pushers_and_pop_all_take_each_node_once_newest_first, 120))
