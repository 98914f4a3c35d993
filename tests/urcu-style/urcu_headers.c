/* SPDX-License-Identifier: MIT */
/*
 * urcu_headers.c - a liburcu program (liburcu's headers and names only,
 * built with _LGPL_SOURCE) for the headers of issue 26's first item: the
 * inline names (_rcu_read_lock ..., _urcu_<flavour>_* and the _rcu_
 * pointer operations), <urcu/rculist.h> and <urcu/rcuhlist.h> with a
 * reader thread and call_rcu() frees, <urcu/urcu_ref.h>,
 * <urcu/urcu-futex.h>, <urcu/debug.h> and caa_get_cycles(). Built through
 * lfht's layer, and against liburcu itself where it is installed (which
 * shows it is liburcu code). The flavour: -DTEST_URCU_MEMB, _QSBR, _BP or
 * _MB (RCU_MB before <urcu.h>).
 */
#define _GNU_SOURCE
#define _LGPL_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#if defined(TEST_URCU_QSBR)
#include <urcu-qsbr.h>
#define TEST_FLAVOR "qsbr"
#define LGPL_NAME(name) _urcu_qsbr_##name
#elif defined(TEST_URCU_BP)
#include <urcu-bp.h>
#define TEST_FLAVOR "bp"
#define LGPL_NAME(name) _urcu_bp_##name
#elif defined(TEST_URCU_MB)
#define RCU_MB
#include <urcu.h>
#define TEST_FLAVOR "mb"
#define LGPL_NAME(name) _urcu_mb_##name
#else
#include <urcu.h>
#define TEST_FLAVOR "memb"
#define LGPL_NAME(name) _urcu_memb_##name
#endif

#include <urcu/arch.h>
#include <urcu/debug.h>
#include <urcu/futex.h>
#include <urcu/hlist.h>
#include <urcu/list.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculist.h>
#include <urcu/ref.h>
#include <urcu/syscall-compat.h>
#include <urcu/uatomic.h>
#include <urcu/uatomic_arch.h>
#include <urcu/urcu-futex.h>
#include <urcu/urcu_ref.h>

#include "test_check.h"

/* A reader's quiescent state between sections (QSBR only). */
static void quiescent(void)
{
#if defined(TEST_URCU_QSBR)
	_rcu_quiescent_state();
#endif
}

static void check_read_side(void)
{
	rcu_register_thread();
	_rcu_read_lock();
	CHECK(_rcu_read_ongoing());
	_rcu_read_lock();
	_rcu_read_unlock();
	CHECK(_rcu_read_ongoing());
	_rcu_read_unlock();
	LGPL_NAME(read_lock)();
	CHECK(LGPL_NAME(read_ongoing)());
	LGPL_NAME(read_unlock)();
#if defined(TEST_URCU_QSBR)
	_urcu_qsbr_quiescent_state();
	_urcu_qsbr_thread_offline();
	CHECK(!_urcu_qsbr_read_ongoing());
	_urcu_qsbr_thread_online();
	CHECK(_urcu_qsbr_read_ongoing());
#else
	CHECK(!_rcu_read_ongoing());
#endif
	rcu_unregister_thread();
}

static int values[5];
static int *gp;

static void check_pointers(void)
{
	int *p;

	_rcu_assign_pointer(gp, &values[0]);
	rcu_register_thread();
	rcu_read_lock();
	p = _rcu_dereference(gp);
	rcu_read_unlock();
	rcu_unregister_thread();
	CHECK(p == &values[0]);
	_rcu_set_pointer(&gp, &values[1]);
	CHECK(gp == &values[1]);
	p = _rcu_xchg_pointer(&gp, &values[2]);
	CHECK(p == &values[1] && gp == &values[2]);
	p = _rcu_cmpxchg_pointer(&gp, &values[0], &values[3]);
	CHECK(p == &values[2] && gp == &values[2]);	/* no match: unchanged */
	p = _rcu_cmpxchg_pointer(&gp, &values[2], &values[4]);
	CHECK(p == &values[2] && gp == &values[4]);
}

/* ---- An RCU list and an RCU hlist: one reader, one writer, call_rcu. */

#define NFIXED 8
#define UPDATES 2000

struct node {
	int key;
	int live;			/* 1 until its call_rcu callback runs */
	struct cds_list_head link;
	struct cds_hlist_node hnode;
	struct rcu_head rh;
};

static CDS_LIST_HEAD(list);
static CDS_HLIST_HEAD(hlist);
static int stop;
static unsigned long freed;
static unsigned long reader_walks;

static void free_node(struct rcu_head *rh)
{
	struct node *n = caa_container_of(rh, struct node, rh);

	uatomic_set(&n->live, 0);
	free(n);
	uatomic_inc(&freed);
}

static struct node *node_new(int key)
{
	struct node *n = (struct node *)calloc(1, sizeof(*n));

	CHECK(n != NULL);
	n->key = key;
	n->live = 1;
	return n;
}

static void *reader(void *arg)
{
	unsigned long walks = 0;

	(void)arg;
	rcu_register_thread();
	while (!uatomic_read(&stop) || walks < 10) {
		struct node *n;
		struct cds_hlist_node *pos;
		int next = 0, hnext = 0;

		rcu_read_lock();
		cds_list_for_each_entry_rcu(n, &list, link) {
			CHECK(uatomic_read(&n->live) == 1);
			CHECK(n->key == next);
			next++;
		}
		cds_hlist_for_each_entry_rcu(n, pos, &hlist, hnode) {
			CHECK(uatomic_read(&n->live) == 1);
			if (n->key < NFIXED) {
				CHECK(n->key == hnext);
				hnext++;
			}
		}
		rcu_read_unlock();
		CHECK(next == NFIXED && hnext == NFIXED);
		walks++;
		quiescent();
	}
	rcu_unregister_thread();
	uatomic_set(&reader_walks, walks);
	return NULL;
}

static struct node hfixed[NFIXED];

static void check_rcu_lists(void)
{
	struct node *fixed[NFIXED];
	pthread_t t;

	for (int i = NFIXED - 1; i >= 0; i--) {
		fixed[i] = node_new(i);
		cds_list_add_rcu(&fixed[i]->link, &list);
		hfixed[i].key = i;
		hfixed[i].live = 1;
		cds_hlist_add_head_rcu(&hfixed[i].hnode, &hlist);
	}
	CHECK(pthread_create(&t, NULL, reader, NULL) == 0);
	rcu_register_thread();
	for (int i = 0; i < UPDATES; i++) {
		int k = i % NFIXED;
		struct node *n = node_new(k);
		struct node *temp = node_new(NFIXED + i);

		/* The list: replace element k. The hlist: a temporary in front
		 * of the fixed elements, then out again. */
		cds_list_replace_rcu(&fixed[k]->link, &n->link);
		cds_hlist_add_head_rcu(&temp->hnode, &hlist);
		cds_hlist_del_rcu(&temp->hnode);
		call_rcu(&fixed[k]->rh, free_node);
		call_rcu(&temp->rh, free_node);
		fixed[k] = n;
		quiescent();
	}
	uatomic_set(&stop, 1);
	CHECK(pthread_join(t, NULL) == 0);
	rcu_barrier();
	CHECK(uatomic_read(&freed) == 2 * UPDATES);
	CHECK(uatomic_read(&reader_walks) >= 10);
	for (int i = 0; i < NFIXED; i++) {
		cds_list_del_rcu(&fixed[i]->link);
		cds_hlist_del_rcu(&hfixed[i].hnode);
		call_rcu(&fixed[i]->rh, free_node);
	}
	CHECK(cds_list_empty(&list) && hlist.next == NULL);
	rcu_unregister_thread();
	rcu_barrier();
	CHECK(uatomic_read(&freed) == 2 * UPDATES + NFIXED);
}

/* ---- Reference counts. */

struct counted {
	struct urcu_ref ref;
	int released;
};

static void counted_release(struct urcu_ref *ref)
{
	caa_container_of(ref, struct counted, ref)->released++;
}

static void check_ref(void)
{
	struct counted c = { { 0 }, 0 };

	urcu_ref_init(&c.ref);
	urcu_ref_get(&c.ref);
	CHECK(urcu_ref_get_safe(&c.ref));
	CHECK(urcu_ref_get_unless_zero(&c.ref));
	for (int i = 0; i < 4; i++)
		urcu_ref_put(&c.ref, counted_release);
	CHECK(c.released == 1);
	CHECK(!urcu_ref_get_unless_zero(&c.ref));
	urcu_ref_set(&c.ref, LONG_MAX);
	CHECK(!urcu_ref_get_safe(&c.ref));
	urcu_assert(c.released == 1);
}

/* ---- Futex helpers and the cycle counter. */

static void check_futex(void)
{
	int32_t word = 1;

	CHECK(futex_noasync(&word, FUTEX_WAIT, 0, NULL, NULL, 0) == -1 && errno == EAGAIN);
	CHECK(futex_async(&word, FUTEX_WAKE, 1, NULL, NULL, 0) == 0);
#ifdef __NR_futex
	CHECK(futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0) == 0);
#endif
}

static void check_cycles(void)
{
	caa_cycles_t first = caa_get_cycles(), prev = first, now;
	struct timespec ms = { 0, 1000 * 1000 };
	int backwards = 0;

	CHECK(first != 0);
	for (int i = 0; i < 1000; i++) {
		now = caa_get_cycles();
		backwards += now < prev;
		prev = now;
	}
	nanosleep(&ms, NULL);
	now = caa_get_cycles();
	/* Monotonic on one CPU; a migration to a CPU whose counter lags may
	 * show a step back now and then, never often. */
	CHECK(backwards <= 10);
	CHECK(now > first);
}

int main(void)
{
	check_read_side();
	check_pointers();
	check_rcu_lists();
	check_ref();
	check_futex();
	check_cycles();
	printf("urcu-headers [%s]: all checks passed\n", TEST_FLAVOR);
	return 0;
}
