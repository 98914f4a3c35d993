/* SPDX-License-Identifier: MIT */
/*
 * tests/urcu-style/queues_test.h - a liburcu program (liburcu's headers and
 * names only) that uses every queue and stack: wfcqueue (both head kinds,
 * splice, iteration, a producer thread against the locked dequeue),
 * wfstack, lfstack, the RCU queue with call_rcu, the deprecated
 * rculfstack and wfqueue, and defer_rcu. Included by queues_<flavour>.c
 * after the flavour header, with TEST_OFFLINE()/TEST_ONLINE() (QSBR:
 * leave the online state around waits) and TEST_DEFER when the flavour
 * has defer_rcu in liburcu.
 */
#ifndef QUEUES_TEST_H
#define QUEUES_TEST_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>
#include <urcu/lfstack.h>
#include <urcu/rculfqueue.h>
#include <urcu/compiler.h>
#ifdef TEST_DEFER
#include <urcu-defer.h>
#endif
/* The deprecated headers, as liburcu still ships them: their calls warn. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <urcu/rculfstack.h>
#include <urcu/wfqueue.h>

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			exit(1);					\
		}							\
	} while (0)

#define NR 1000

struct item {
	struct cds_wfcq_node qnode;
	struct cds_wfs_node wsnode;
	struct cds_lfs_node lsnode;
	struct cds_lfq_node_rcu lfqnode;
	struct cds_lfs_node_rcu rlsnode;
	struct cds_wfq_node wqnode;
	struct rcu_head rcu;
	int value;
};

static struct item items[NR];
static struct cds_wfcq_head wq_head;
static struct cds_wfcq_tail wq_tail;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 0; i < NR; i++) {
		items[i].value = i;
		cds_wfcq_node_init(&items[i].qnode);
		cds_wfcq_enqueue(&wq_head, &wq_tail, &items[i].qnode);
	}
	return NULL;
}

static void test_wfcqueue(void)
{
	struct __cds_wfcq_head h2;
	struct cds_wfcq_tail t2;
	struct cds_wfcq_node *node;
	pthread_t thr;
	int next = 0, n = 0;

	cds_wfcq_init(&wq_head, &wq_tail);
	__cds_wfcq_init(&h2, &t2);
	CHECK(cds_wfcq_empty(&wq_head, &wq_tail));
	CHECK(pthread_create(&thr, NULL, producer, NULL) == 0);
	while (next < NR / 2) {
		node = cds_wfcq_dequeue_blocking(&wq_head, &wq_tail);
		if (node == NULL)
			continue;
		CHECK(caa_container_of(node, struct item, qnode)->value == next);
		next++;
	}
	CHECK(pthread_join(thr, NULL) == 0);
	CHECK(__cds_wfcq_splice_blocking(&h2, &t2, &wq_head, &wq_tail) == CDS_WFCQ_RET_DEST_EMPTY);
	__cds_wfcq_for_each_blocking(&h2, &t2, node)
		n++;
	CHECK(n == NR - NR / 2);
	while ((node = __cds_wfcq_dequeue_blocking(&h2, &t2)) != NULL)
		CHECK(caa_container_of(node, struct item, qnode)->value == next++);
	CHECK(next == NR);
	cds_wfcq_destroy(&wq_head, &wq_tail);
}

static void test_stacks(void)
{
	struct cds_wfs_stack ws;
	struct cds_lfs_stack ls;
	struct cds_wfs_head *wall;
	struct cds_lfs_head *lall;
	struct cds_wfs_node *wn;
	struct cds_lfs_node *ln;
	int expect;

	cds_wfs_init(&ws);
	cds_lfs_init(&ls);
	for (int i = 0; i < NR; i++) {
		cds_wfs_node_init(&items[i].wsnode);
		cds_lfs_node_init(&items[i].lsnode);
		CHECK(cds_wfs_push(&ws, &items[i].wsnode) == (i != 0));
		CHECK(cds_lfs_push(&ls, &items[i].lsnode) == (i != 0));
	}
	CHECK(caa_container_of(cds_wfs_pop_blocking(&ws), struct item, wsnode)->value == NR - 1);
	CHECK(caa_container_of(cds_lfs_pop_blocking(&ls), struct item, lsnode)->value == NR - 1);
	wall = cds_wfs_pop_all_blocking(&ws);
	expect = NR - 2;
	cds_wfs_for_each_blocking(wall, wn)
		CHECK(caa_container_of(wn, struct item, wsnode)->value == expect--);
	CHECK(expect == -1);
	lall = cds_lfs_pop_all_blocking(&ls);
	expect = NR - 2;
	cds_lfs_for_each(lall, ln)
		CHECK(caa_container_of(ln, struct item, lsnode)->value == expect--);
	CHECK(expect == -1);
	CHECK(cds_wfs_empty(&ws) && cds_lfs_empty(&ls));
	cds_wfs_destroy(&ws);
	cds_lfs_destroy(&ls);
}

static int freed;

static void free_item(struct rcu_head *head)
{
	(void)head;
	uatomic_inc(&freed);
}

static void test_rculfqueue(void)
{
	struct cds_lfq_queue_rcu q;
	struct cds_lfq_node_rcu *node;

	cds_lfq_init_rcu(&q, call_rcu);
	for (int i = 0; i < 10; i++) {
		cds_lfq_node_init_rcu(&items[i].lfqnode);
		rcu_read_lock();
		cds_lfq_enqueue_rcu(&q, &items[i].lfqnode);
		rcu_read_unlock();
	}
	CHECK(cds_lfq_destroy_rcu(&q) == -EPERM);
	for (int i = 0; i < 10; i++) {
		rcu_read_lock();
		node = cds_lfq_dequeue_rcu(&q);
		rcu_read_unlock();
		CHECK(node != NULL);
		struct item *it = caa_container_of(node, struct item, lfqnode);
		CHECK(it->value == i);
		call_rcu(&it->rcu, free_item);
	}
	rcu_read_lock();
	CHECK(cds_lfq_dequeue_rcu(&q) == NULL);
	rcu_read_unlock();
	CHECK(cds_lfq_destroy_rcu(&q) == 0);
	TEST_OFFLINE();
	rcu_barrier();
	TEST_ONLINE();
	CHECK(uatomic_read(&freed) == 10);
}

static void test_deprecated(void)
{
	struct cds_lfs_stack_rcu rs;
	struct cds_wfq_queue wq;
	struct cds_lfs_node_rcu *rn;
	struct cds_wfq_node *qn;

	cds_lfs_init_rcu(&rs);
	cds_wfq_init(&wq);
	for (int i = 0; i < 3; i++) {
		cds_lfs_node_init_rcu(&items[i].rlsnode);
		CHECK(cds_lfs_push_rcu(&rs, &items[i].rlsnode) == (i != 0));
		cds_wfq_node_init(&items[i].wqnode);
		cds_wfq_enqueue(&wq, &items[i].wqnode);
	}
	for (int i = 0; i < 3; i++) {
		rcu_read_lock();
		rn = cds_lfs_pop_rcu(&rs);
		rcu_read_unlock();
		CHECK(caa_container_of(rn, struct item, rlsnode)->value == 2 - i);
		qn = i % 2 ? cds_wfq_dequeue_blocking(&wq) : __cds_wfq_dequeue_blocking(&wq);
		CHECK(caa_container_of(qn, struct item, wqnode)->value == i);
	}
	CHECK(cds_wfq_dequeue_blocking(&wq) == NULL);
	cds_wfq_destroy(&wq);
	TEST_OFFLINE();
	synchronize_rcu();
	TEST_ONLINE();
}

#ifdef TEST_DEFER
static int deferred;

static void deferred_fn(void *p)
{
	uatomic_add((int *)p, 1);
}

static void test_defer(void)
{
	CHECK(rcu_defer_register_thread() == 0);
	for (int i = 0; i < 5; i++)
		defer_rcu(deferred_fn, &deferred);
	TEST_OFFLINE();
	rcu_defer_barrier();
	TEST_ONLINE();
	CHECK(uatomic_read(&deferred) == 5);
	rcu_defer_unregister_thread();
}
#else
static void test_defer(void) { }
#endif
#pragma GCC diagnostic pop

int main(void)
{
	rcu_register_thread();
	test_wfcqueue();
	test_stacks();
	test_rculfqueue();
	test_deprecated();
	test_defer();
	rcu_unregister_thread();
	printf("queues (%s): ok\n", TEST_FLAVOR);
	return 0;
}

#endif /* QUEUES_TEST_H */
