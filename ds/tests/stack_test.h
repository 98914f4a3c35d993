/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/stack_test.h - what both stacks (test_lfstack.c,
 * test_wfstack.c) are tested for alike: pop_all and its walks, the pop
 * lock, and pushers against poppers (the queue_test.h harness with the
 * stack's put and take; locked pops, or pop_all with each producer's nodes
 * newest first in a chain).
 *
 * Included once, after queue_test.h and the stack's header, by a source
 * that defines struct elem (node, producer, seq), ELEM(node), and:
 *   STACK_(x)            the kind's names: cds_lfs_##x or cds_wfs_##x
 *   STACK_POP_ALL        the unlocked pop_all (__cds_lfs_pop_all, ...)
 *   STACK_FOR_EACH       the chain's iterator
 *   STACK_FOR_EACH_SAFE  the chain's safe iterator
 *   STACK_POP_UNLOCKED   the pop for a caller holding the pop lock
 */
#ifndef STACK_TEST_H
#define STACK_TEST_H

START_TEST(pop_all_takes_every_node_and_iterates_top_first)
{
	struct STACK_(stack) s;
	struct STACK_(head) *all;
	struct STACK_(node) *n, *next;
	unsigned i = 6;

	STACK_(init)(&s);
	for (unsigned k = 0; k < 6; k++) {
		struct elem *e = (struct elem *)malloc(sizeof(*e));

		ck_assert_ptr_nonnull(e);
		STACK_(node_init)(&e->node);
		e->seq = k;
		STACK_(push)(&s, &e->node);
	}
	all = STACK_(pop_all_blocking)(&s);
	ck_assert(STACK_(empty)(&s));
	STACK_FOR_EACH(all, n)
		ck_assert_uint_eq(ELEM(n)->seq, --i);
	ck_assert_uint_eq(i, 0);
	i = 6;
	STACK_FOR_EACH_SAFE(all, n, next) {
		ck_assert_uint_eq(ELEM(n)->seq, --i);
		free(ELEM(n));
	}
	ck_assert_uint_eq(i, 0);
	STACK_(destroy)(&s);
}
END_TEST

START_TEST(pop_lock_excludes_the_locked_pop)
{
	struct STACK_(stack) s;
	struct elem e;

	STACK_(init)(&s);
	STACK_(node_init)(&e.node);
	STACK_(push)(&s, &e.node);
	STACK_(pop_lock)(&s);
	ck_assert_int_eq(pthread_mutex_trylock(&s.lock), EBUSY);
	ck_assert_ptr_eq(STACK_POP_UNLOCKED(&s), &e.node);
	STACK_(pop_unlock)(&s);
	ck_assert_int_eq(pthread_mutex_trylock(&s.lock), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&s.lock), 0);
	STACK_(destroy)(&s);
}
END_TEST

enum pop_mode { LOCKED_POP, POP_ALL };

static void put(struct ds_pc *pc, void *elem, unsigned producer, unsigned seq)
{
	struct elem *e = (struct elem *)elem;

	e->producer = producer;
	e->seq = seq;
	STACK_(node_init)(&e->node);
	STACK_(push)((struct STACK_(stack) *)pc->q, &e->node);
}

static bool take(struct ds_pc_consumer *c)
{
	struct STACK_(stack) *s = (struct STACK_(stack) *)c->pc->q;
	struct STACK_(node) *n, *next;
	struct STACK_(head) *all;

	if (c->pc->mode == LOCKED_POP) {
		n = STACK_(pop_blocking)(s);
		if (n == NULL)
			return false;
		ds_pc_took(c, ELEM(n)->producer, ELEM(n)->seq);
		return true;
	}
	/* In one chain, each producer's nodes come newest first. */
	all = STACK_POP_ALL(s);
	if (all == NULL)
		return false;
	ds_pc_batch_begin(c);
	STACK_FOR_EACH_SAFE(all, n, next)
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
	struct STACK_(stack) s;
	struct ds_pc pc = { .ops = &stack_ops, .q = &s, .mode = mode };

	STACK_(init)(&s);
	ds_pc_run(&pc, producers, consumers, ds_test_per_producer());
	ck_assert(STACK_(empty)(&s));
	ds_pc_free(&pc);
	STACK_(destroy)(&s);
}

/* One Check test a mode, as test_wfcqueue.c's: a test's name is its function's. */
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

#endif /* STACK_TEST_H */
