/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/test_lfstack.c - the lock-free stack: LIFO order, empty
 * answers, pop_all and iteration, the lock forms, both stack kinds, and
 * pushers against poppers with every node taken exactly once.
 */
#define _GNU_SOURCE
#include <errno.h>

#include <rcuds/lfstack.h>

#include "queue_test.h"

struct elem {
	struct cds_lfs_node node;
	unsigned producer, seq;
};

#define ELEM(n) ((struct elem *)(void *)((char *)(n) - offsetof(struct elem, node)))

START_TEST(new_stack_is_empty_and_pops_give_null)
{
	struct cds_lfs_stack s;
	struct __cds_lfs_stack us;
	struct cds_lfs_node *n;

	cds_lfs_init(&s);
	__cds_lfs_init(&us);
	ck_assert(cds_lfs_empty(&s));
	ck_assert(cds_lfs_empty(&us));
	ck_assert_ptr_null(cds_lfs_pop_blocking(&s));
	ck_assert_ptr_null(__cds_lfs_pop(&us));
	ck_assert_ptr_null(__cds_lfs_pop_all(&us));
	ck_assert_ptr_null(cds_lfs_pop_all_blocking(&s));
	cds_lfs_for_each(__cds_lfs_pop_all(&s), n)
		ck_abort_msg("empty chain iterated");
	cds_lfs_destroy(&s);
}
END_TEST

START_TEST(push_reports_prior_emptiness_and_pop_is_lifo)
{
	struct cds_lfs_stack s;
	struct __cds_lfs_stack us;
	struct elem e[8];

	cds_lfs_init(&s);
	__cds_lfs_init(&us);
	for (unsigned i = 0; i < 8; i++) {
		cds_lfs_node_init(&e[i].node);
		ck_assert(cds_lfs_push(&s, &e[i].node) == (i != 0));
	}
	for (unsigned i = 8; i-- > 0;)
		ck_assert_ptr_eq(i % 2 ? cds_lfs_pop_blocking(&s) : __cds_lfs_pop(&s), &e[i].node);
	ck_assert(cds_lfs_empty(&s));
	/* A popped node goes straight back in, onto the other kind. */
	ck_assert(!cds_lfs_push(&us, &e[5].node));
	ck_assert(cds_lfs_push(&us, &e[1].node));
	ck_assert_ptr_eq(__cds_lfs_pop(&us), &e[1].node);
	ck_assert_ptr_eq(__cds_lfs_pop(&us), &e[5].node);
	ck_assert_ptr_null(__cds_lfs_pop(&us));
	cds_lfs_destroy(&s);
}
END_TEST

START_TEST(pop_all_takes_every_node_and_iterates_top_first)
{
	struct cds_lfs_stack s;
	struct cds_lfs_head *all;
	struct cds_lfs_node *n, *next;
	unsigned i = 6;

	cds_lfs_init(&s);
	for (unsigned k = 0; k < 6; k++) {
		struct elem *e = (struct elem *)malloc(sizeof(*e));

		ck_assert_ptr_nonnull(e);
		cds_lfs_node_init(&e->node);
		e->seq = k;
		cds_lfs_push(&s, &e->node);
	}
	all = cds_lfs_pop_all_blocking(&s);
	ck_assert(cds_lfs_empty(&s));
	cds_lfs_for_each(all, n)
		ck_assert_uint_eq(ELEM(n)->seq, --i);
	ck_assert_uint_eq(i, 0);
	i = 6;
	cds_lfs_for_each_safe(all, n, next) {
		ck_assert_uint_eq(ELEM(n)->seq, --i);
		free(ELEM(n));
	}
	ck_assert_uint_eq(i, 0);
	cds_lfs_destroy(&s);
}
END_TEST

START_TEST(pop_lock_excludes_the_locked_pop)
{
	struct cds_lfs_stack s;
	struct elem e;

	cds_lfs_init(&s);
	cds_lfs_node_init(&e.node);
	cds_lfs_push(&s, &e.node);
	cds_lfs_pop_lock(&s);
	ck_assert_int_eq(pthread_mutex_trylock(&s.lock), EBUSY);
	ck_assert_ptr_eq(__cds_lfs_pop(&s), &e.node);
	cds_lfs_pop_unlock(&s);
	ck_assert_int_eq(pthread_mutex_trylock(&s.lock), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&s.lock), 0);
	cds_lfs_destroy(&s);
}
END_TEST

/* Pushers against poppers. */
enum pop_mode { LOCKED_POP, POP_ALL };

static void put(struct ds_pc *pc, void *elem, unsigned producer, unsigned seq)
{
	struct elem *e = (struct elem *)elem;

	e->producer = producer;
	e->seq = seq;
	cds_lfs_node_init(&e->node);
	cds_lfs_push((struct cds_lfs_stack *)pc->q, &e->node);
}

static bool take(struct ds_pc_consumer *c)
{
	struct cds_lfs_stack *s = (struct cds_lfs_stack *)c->pc->q;
	struct cds_lfs_node *n, *next;
	struct cds_lfs_head *all;

	if (c->pc->mode == LOCKED_POP) {
		n = cds_lfs_pop_blocking(s);
		if (n == NULL)
			return false;
		ds_pc_took(c, ELEM(n)->producer, ELEM(n)->seq);
		return true;
	}
	/* In one chain, each producer's nodes come newest first. */
	all = __cds_lfs_pop_all(s);
	if (all == NULL)
		return false;
	ds_pc_batch_begin(c);
	cds_lfs_for_each_safe(all, n, next)
		ds_pc_took_newest_first(c, ELEM(n)->producer, ELEM(n)->seq);
	return true;
}

static const struct ds_pc_ops stack_ops = {
	.elem_size = sizeof(struct elem),
	.put = put,
	.take = take,
};

static void run_pushers_poppers(enum pop_mode mode, unsigned producers, unsigned consumers)
{
	struct cds_lfs_stack s;
	struct ds_pc pc = { .ops = &stack_ops, .q = &s, .mode = mode };

	cds_lfs_init(&s);
	ds_pc_run(&pc, producers, consumers, ds_test_per_producer());
	ck_assert(cds_lfs_empty(&s));
	ds_pc_free(&pc);
	cds_lfs_destroy(&s);
}

START_TEST(pushers_and_locked_poppers_take_each_node_once)
{
	run_pushers_poppers(LOCKED_POP, 4, 3);
}
END_TEST

START_TEST(pushers_and_pop_all_take_each_node_once_newest_first)
{
	run_pushers_poppers(POP_ALL, 3, 2);
}
END_TEST

DS_MAIN("lfstack",
	DS_CASE(new_stack_is_empty_and_pops_give_null, 30),
	DS_CASE(push_reports_prior_emptiness_and_pop_is_lifo, 30),
	DS_CASE(pop_all_takes_every_node_and_iterates_top_first, 30),
	DS_CASE(pop_lock_excludes_the_locked_pop, 30),
	DS_CASE(pushers_and_locked_poppers_take_each_node_once, 120),
	DS_CASE(pushers_and_pop_all_take_each_node_once_newest_first, 120))
