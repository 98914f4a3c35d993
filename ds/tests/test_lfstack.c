/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/test_lfstack.c - the lock-free stack: LIFO order, empty
 * answers, pop_all and iteration, the lock forms, both stack kinds, and
 * pushers against poppers with every node taken exactly once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#include <rcuds/lfstack.h>

#include "ds_test.h"

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

enum pop_mode { LOCKED_POP, POP_ALL };

struct shared {
	struct cds_lfs_stack s;
	unsigned producers, per_producer;
	unsigned total_taken;	/* atomic */
	struct ds_seen seen;
	enum pop_mode mode;
};

struct producer_arg {
	struct shared *sh;
	unsigned id;
	struct elem *elems;
};

static void *producer(void *arg)
{
	struct producer_arg *p = (struct producer_arg *)arg;

	for (unsigned i = 0; i < p->sh->per_producer; i++) {
		p->elems[i].producer = p->id;
		p->elems[i].seq = i;
		cds_lfs_node_init(&p->elems[i].node);
		cds_lfs_push(&p->sh->s, &p->elems[i].node);
	}
	return NULL;
}

static void take(struct shared *sh, struct cds_lfs_node *n)
{
	struct elem *e = ELEM(n);

	ck_assert_uint_lt(e->producer, sh->producers);
	ds_seen_mark(&sh->seen, e->producer, e->seq);
	__atomic_fetch_add(&sh->total_taken, 1, __ATOMIC_RELAXED);
}

static void *consumer(void *arg)
{
	struct shared *sh = (struct shared *)arg;
	unsigned total = sh->producers * sh->per_producer;

	while (__atomic_load_n(&sh->total_taken, __ATOMIC_RELAXED) < total) {
		if (sh->mode == LOCKED_POP) {
			struct cds_lfs_node *n = cds_lfs_pop_blocking(&sh->s);

			if (n != NULL)
				take(sh, n);
			else
				sched_yield();
		} else {
			/* In one chain, each producer's nodes come newest
			 * first. */
			unsigned last[DS_TEST_MAX_PRODUCERS];
			struct cds_lfs_node *n, *next;
			struct cds_lfs_head *all = __cds_lfs_pop_all(&sh->s);

			for (unsigned i = 0; i < DS_TEST_MAX_PRODUCERS; i++)
				last[i] = UINT32_MAX;
			if (all == NULL)
				sched_yield();
			cds_lfs_for_each_safe(all, n, next) {
				struct elem *e = ELEM(n);

				ck_assert_uint_lt(e->seq, last[e->producer]);
				last[e->producer] = e->seq;
				take(sh, n);
			}
		}
	}
	return NULL;
}

static void run_pushers_poppers(enum pop_mode mode, unsigned producers, unsigned consumers)
{
	struct shared sh;
	struct producer_arg pa[DS_TEST_MAX_PRODUCERS];
	pthread_t pt[DS_TEST_MAX_PRODUCERS], ct[DS_TEST_MAX_PRODUCERS];

	cds_lfs_init(&sh.s);
	sh.producers = producers;
	sh.per_producer = ds_test_per_producer();
	sh.total_taken = 0;
	sh.mode = mode;
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
	for (unsigned i = 0; i < producers; i++)
		ds_join(pt[i]);
	for (unsigned i = 0; i < consumers; i++)
		ds_join(ct[i]);
	ck_assert_uint_eq(sh.total_taken, producers * sh.per_producer);
	ck_assert(cds_lfs_empty(&sh.s));
	ds_seen_check_once(&sh.seen);
	for (unsigned i = 0; i < producers; i++)
		free(pa[i].elems);
	cds_lfs_destroy(&sh.s);
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

int main(void)
{
	Suite *s = suite_create("lfstack");

	DS_TEST_ADD(s, new_stack_is_empty_and_pops_give_null, 30);
	DS_TEST_ADD(s, push_reports_prior_emptiness_and_pop_is_lifo, 30);
	DS_TEST_ADD(s, pop_all_takes_every_node_and_iterates_top_first, 30);
	DS_TEST_ADD(s, pop_lock_excludes_the_locked_pop, 30);
	DS_TEST_ADD(s, pushers_and_locked_poppers_take_each_node_once, 120);
	DS_TEST_ADD(s, pushers_and_pop_all_take_each_node_once_newest_first, 120);
	return ds_test_main(s);
}
