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

/* The tests both stacks pass alike, and pushers against poppers. */
#define STACK_(x) cds_lfs_##x
#define STACK_POP_ALL __cds_lfs_pop_all
#define STACK_FOR_EACH_SAFE cds_lfs_for_each_safe
#define STACK_FOR_EACH cds_lfs_for_each
#define STACK_POP_UNLOCKED __cds_lfs_pop
#include "stack_test.h"

DS_MAIN("lfstack",
	DS_CASE(new_stack_is_empty_and_pops_give_null, 30),
	DS_CASE(push_reports_prior_emptiness_and_pop_is_lifo, 30),
	DS_CASE(pop_all_takes_every_node_and_iterates_top_first, 30),
	DS_CASE(pop_lock_excludes_the_locked_pop, 30),
	DS_CASE(pushers_and_locked_poppers_take_each_node_once, 120),
	DS_CASE(pushers_and_pop_all_take_each_node_once_newest_first, 120))
