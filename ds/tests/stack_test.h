/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/stack_test.h - pushers against poppers, for both stacks
 * (test_lfstack.c, test_wfstack.c): the queue_test.h harness with the
 * stack's put and take, and the two tests (locked pops; pop_all, each
 * producer's nodes newest first in a chain).
 *
 * Included once, after queue_test.h and the stack's header, by a source
 * that defines struct elem (node, producer, seq), ELEM(node), and:
 *   STACK_(x)            the kind's names: cds_lfs_##x or cds_wfs_##x
 *   STACK_POP_ALL        the unlocked pop_all (__cds_lfs_pop_all, ...)
 *   STACK_FOR_EACH_SAFE  the chain's safe iterator
 */
#ifndef STACK_TEST_H
#define STACK_TEST_H

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
