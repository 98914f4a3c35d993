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
#include <sched.h>

#include <rcuds/wfstack.h>

#include "ds_test.h"

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

START_TEST(pop_all_takes_every_node_and_iterates_top_first)
{
	struct cds_wfs_stack s;
	struct cds_wfs_head *all;
	struct cds_wfs_node *n, *next;
	unsigned i = 6;

	cds_wfs_init(&s);
	for (unsigned k = 0; k < 6; k++) {
		struct elem *e = (struct elem *)malloc(sizeof(*e));

		ck_assert_ptr_nonnull(e);
		cds_wfs_node_init(&e->node);
		e->seq = k;
		cds_wfs_push(&s, &e->node);
	}
	all = cds_wfs_pop_all_blocking(&s);
	ck_assert(cds_wfs_empty(&s));
	cds_wfs_for_each_blocking(all, n)
		ck_assert_uint_eq(ELEM(n)->seq, --i);
	ck_assert_uint_eq(i, 0);
	i = 6;
	cds_wfs_for_each_blocking_safe(all, n, next) {
		ck_assert_uint_eq(ELEM(n)->seq, --i);
		free(ELEM(n));
	}
	ck_assert_uint_eq(i, 0);
	cds_wfs_destroy(&s);
}
END_TEST

START_TEST(pop_lock_excludes_the_locked_pop)
{
	struct cds_wfs_stack s;
	struct elem e;

	cds_wfs_init(&s);
	elems_init(&e, 1);
	cds_wfs_push(&s, &e.node);
	cds_wfs_pop_lock(&s);
	ck_assert_int_eq(pthread_mutex_trylock(&s.lock), EBUSY);
	ck_assert_ptr_eq(__cds_wfs_pop_blocking(&s), &e.node);
	cds_wfs_pop_unlock(&s);
	ck_assert_int_eq(pthread_mutex_trylock(&s.lock), 0);
	ck_assert_int_eq(pthread_mutex_unlock(&s.lock), 0);
	cds_wfs_destroy(&s);
}
END_TEST

enum pop_mode { LOCKED_POP, POP_ALL };

struct shared {
	struct cds_wfs_stack s;
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
		cds_wfs_node_init(&p->elems[i].node);
		cds_wfs_push(&p->sh->s, &p->elems[i].node);
	}
	return NULL;
}

static void take(struct shared *sh, struct cds_wfs_node *n)
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
			struct cds_wfs_node *n = cds_wfs_pop_blocking(&sh->s);

			if (n != NULL)
				take(sh, n);
			else
				sched_yield();
		} else {
			/* In one chain, each producer's nodes come newest
			 * first. */
			unsigned last[DS_TEST_MAX_PRODUCERS];
			struct cds_wfs_node *n, *next;
			struct cds_wfs_head *all = __cds_wfs_pop_all(&sh->s);

			for (unsigned i = 0; i < DS_TEST_MAX_PRODUCERS; i++)
				last[i] = UINT32_MAX;
			if (all == NULL)
				sched_yield();
			cds_wfs_for_each_blocking_safe(all, n, next) {
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

	cds_wfs_init(&sh.s);
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
	ck_assert(cds_wfs_empty(&sh.s));
	ds_seen_check_once(&sh.seen);
	for (unsigned i = 0; i < producers; i++)
		free(pa[i].elems);
	cds_wfs_destroy(&sh.s);
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
	Suite *s = suite_create("wfstack");

	DS_TEST_ADD(s, new_stack_is_empty_and_pops_give_null, 30);
	DS_TEST_ADD(s, push_reports_prior_emptiness_and_pop_is_lifo, 30);
	DS_TEST_ADD(s, pop_with_state_marks_only_the_last_node, 30);
	DS_TEST_ADD(s, nonblocking_calls_return_wouldblock_while_a_link_is_in_flight, 30);
	DS_TEST_ADD(s, blocking_calls_wait_for_a_link_in_flight, 30);
	DS_TEST_ADD(s, pop_all_takes_every_node_and_iterates_top_first, 30);
	DS_TEST_ADD(s, pop_lock_excludes_the_locked_pop, 30);
	DS_TEST_ADD(s, pushers_and_locked_poppers_take_each_node_once, 120);
	DS_TEST_ADD(s, pushers_and_pop_all_take_each_node_once_newest_first, 120);
	return ds_test_main(s);
}
