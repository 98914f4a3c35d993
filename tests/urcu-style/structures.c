/* SPDX-License-Identifier: MIT */
/*
 * structures.c - a program written for liburcu (its headers and names
 * only, _LGPL_SOURCE, the memb flavour, or mb with -DRCU_MB) that uses the
 * hash table together with everything else of liburcu a real program
 * reaches for: RCU lists and hlists, reference counts, the four queues and
 * stacks (wfcqueue, wfstack, lfstack, rculfqueue), the futex helpers,
 * caa_get_cycles() and the _LGPL_SOURCE inline names (_rcu_read_lock,
 * _rcu_dereference, _rcu_assign_pointer, _rcu_set_pointer,
 * _rcu_xchg_pointer, _rcu_cmpxchg_pointer). meson builds it through lfht's
 * compatibility layer (and check-no-liburcu.py builds it with liburcu-dev
 * taken off the search path), and against liburcu itself where installed,
 * which shows it is liburcu code.
 *
 * 1. Two writers each create NR_ITEMS items and put each in the table, an
 *    RCU list, an RCU hlist bucket, and the wait-free queue; a reader walks
 *    the list and the buckets, looks items up and takes references with
 *    urcu_ref_get_unless_zero(), and follows the newest item published
 *    through the _rcu_* pointer names.
 * 2. Every item passes, once, through the queues and stacks: a consumer
 *    dequeues the wfcqueue (cds_wfcq_dequeue_blocking) onto a wfstack, the
 *    main thread takes it whole (cds_wfs_pop_all_blocking) onto an lfstack,
 *    two threads pop that (cds_lfs_pop_blocking) into the RCU queue, and the
 *    main thread dequeues the RCU queue in read-side sections. Each stage
 *    must see each key exactly once.
 * 3. Teardown: each item leaves the table, list and hlist and drops its
 *    reference; the release callback frees it after a grace period
 *    (call_rcu); rcu_barrier(); every item must have been freed.
 * Also: two threads wait on futexes (futex_noasync, futex_async) until the
 * main thread wakes them. Exits 0, or 1 with a message at the first
 * failed check.
 */
#define _LGPL_SOURCE
#include <urcu.h>
#include <urcu/arch.h>
#include <urcu/futex.h>
#include <urcu/hlist.h>
#include <urcu/lfstack.h>
#include <urcu/list.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculfhash.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculist.h>
#include <urcu/ref.h>
#include <urcu/uatomic.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef RCU_MB
#define TEST_FLAVOR "mb"
#else
#define TEST_FLAVOR "memb"
#endif
#include "test_check.h"

#define NR_WRITERS 2
#define NR_ITEMS 2000		/* per writer */
#define NR_KEYS (NR_WRITERS * NR_ITEMS)
#define NR_BUCKETS 16

struct item {
	unsigned long key;
	struct urcu_ref ref;
	struct cds_lfht_node table_node;
	struct cds_list_head list_node;
	struct cds_hlist_node hlist_node;
	struct cds_wfcq_node wfcq_node;
	struct cds_wfs_node wfs_node;
	struct cds_lfs_node lfs_node;
	struct cds_lfq_node_rcu lfq_node;
	struct rcu_head rcu_head;
};

static struct cds_lfht *table;
static CDS_LIST_HEAD(items);
static struct cds_hlist_head buckets[NR_BUCKETS];
static pthread_mutex_t lists_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cds_wfcq_head wfcq_head;
static struct cds_wfcq_tail wfcq_tail;
static struct cds_wfs_stack wfs;
static struct cds_lfs_stack lfs;
static struct cds_lfq_queue_rcu lfq;
static struct item *newest;		/* RCU-protected */
static struct item *published_once;	/* set once, by _rcu_cmpxchg_pointer */
static int writers_done;
static unsigned long freed;
static unsigned long refs_taken;

static unsigned long hash_key(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, table_node)->key ==
	       *(const unsigned long *)key;
}

static void free_item(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, rcu_head));
	uatomic_inc(&freed);
}

/* The last reference gone: free after readers that may hold the item. */
static void release_item(struct urcu_ref *ref)
{
	call_rcu(&caa_container_of(ref, struct item, ref)->rcu_head, free_item);
}

static void *writer(void *arg)
{
	unsigned long first = (unsigned long)(uintptr_t)arg * NR_ITEMS;

	rcu_register_thread();
	for (unsigned long key = first; key < first + NR_ITEMS; key++) {
		struct item *it = calloc(1, sizeof(*it));

		CHECK(it != NULL);
		it->key = key;
		urcu_ref_init(&it->ref);
		cds_lfht_node_init(&it->table_node);
		cds_wfcq_node_init(&it->wfcq_node);
		cds_wfs_node_init(&it->wfs_node);
		cds_lfs_node_init(&it->lfs_node);
		cds_lfq_node_init_rcu(&it->lfq_node);

		_rcu_read_lock();
		CHECK(cds_lfht_add_unique(table, hash_key(key), match_key, &key,
					  &it->table_node) == &it->table_node);
		_rcu_read_unlock();
		pthread_mutex_lock(&lists_lock);
		cds_list_add_tail_rcu(&it->list_node, &items);
		cds_hlist_add_head_rcu(&it->hlist_node, &buckets[key % NR_BUCKETS]);
		pthread_mutex_unlock(&lists_lock);
		/* Publish it as the newest; the older one stays in the lists. */
		_rcu_set_pointer(&newest, it);
		_rcu_cmpxchg_pointer(&published_once, NULL, it);
		cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &it->wfcq_node);
	}
	uatomic_inc(&writers_done);
	rcu_unregister_thread();
	return NULL;
}

static void *reader(void *arg)
{
	unsigned long passes = 0;

	(void)arg;
	rcu_register_thread();
	while (uatomic_read(&writers_done) < NR_WRITERS || passes < 2) {
		struct cds_lfht_iter iter;
		struct item *it;
		unsigned long n = 0, key = passes % NR_KEYS;

		_rcu_read_lock();
		cds_list_for_each_entry_rcu(it, &items, list_node) {
			CHECK(it->key < NR_KEYS);
			n++;
		}
		CHECK(n <= NR_KEYS);
		for (int b = 0; b < NR_BUCKETS; b++) {
			cds_hlist_for_each_entry_rcu_2(it, &buckets[b], hlist_node)
				CHECK(it->key % NR_BUCKETS == (unsigned long)b);
		}
		cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
		if (cds_lfht_iter_get_node(&iter) != NULL) {
			it = caa_container_of(cds_lfht_iter_get_node(&iter),
					      struct item, table_node);
			CHECK(it->key == key);
			if (urcu_ref_get_unless_zero(&it->ref)) {
				uatomic_inc(&refs_taken);
				urcu_ref_put(&it->ref, release_item);
			}
		}
		it = _rcu_dereference(newest);
		CHECK(it == NULL || it->key < NR_KEYS);
		_rcu_read_unlock();
		passes++;
	}
	rcu_unregister_thread();
	return NULL;
}

/* Stage 2a: the wfcqueue's single consumer, onto the wfstack. */
static void *wfcq_consumer(void *arg)
{
	(void)arg;
	for (int n = 0; n < NR_KEYS; n++) {
		struct cds_wfcq_node *node;

		while ((node = cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail)) == NULL)
			caa_cpu_relax();
		cds_wfs_push(&wfs, &caa_container_of(node, struct item, wfcq_node)->wfs_node);
	}
	return NULL;
}

/* Stage 2c: lfstack to the RCU queue, two of these. */
static void *lfs_to_lfq(void *arg)
{
	unsigned long *moved = arg;
	struct cds_lfs_node *node;

	rcu_register_thread();
	while ((node = cds_lfs_pop_blocking(&lfs)) != NULL) {
		rcu_read_lock();
		cds_lfq_enqueue_rcu(&lfq, &caa_container_of(node, struct item, lfs_node)->lfq_node);
		rcu_read_unlock();
		(*moved)++;
	}
	rcu_unregister_thread();
	return NULL;
}

static int32_t futex_words[2];

static void *futex_waiter(void *arg)
{
	int which = (int)(uintptr_t)arg;
	int32_t *word = &futex_words[which];

	while (uatomic_read(word) == 0) {
		if (which == 0)
			futex_noasync(word, FUTEX_WAIT, 0, NULL, NULL, 0);
		else
			futex_async(word, FUTEX_WAIT, 0, NULL, NULL, 0);
	}
	return NULL;
}

static void seen_once(unsigned char *seen, unsigned long key, const char *stage)
{
	if (key >= NR_KEYS || seen[key]) {
		fprintf(stderr, "[%s] %s: key %lu seen twice or out of range\n",
			TEST_FLAVOR, stage, key);
		exit(1);
	}
	seen[key] = 1;
}

int main(void)
{
	pthread_t writers[NR_WRITERS], rd, consumer, movers[2], waiters[2];
	unsigned long moved[2] = { 0, 0 };
	unsigned char *seen = calloc(4, NR_KEYS);
	caa_cycles_t start = caa_get_cycles();
	struct cds_wfs_head *all;
	struct cds_wfs_node *wnode, *wnext;
	struct item *it, *tmp;

	CHECK(seen != NULL);
	rcu_register_thread();
	table = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	CHECK(table != NULL);
	for (int b = 0; b < NR_BUCKETS; b++)
		CDS_INIT_HLIST_HEAD(&buckets[b]);
	cds_wfcq_init(&wfcq_head, &wfcq_tail);
	cds_wfs_init(&wfs);
	cds_lfs_init(&lfs);
	cds_lfq_init_rcu(&lfq, call_rcu);

	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&waiters[i], NULL, futex_waiter, (void *)(uintptr_t)i) == 0);
	CHECK(pthread_create(&rd, NULL, reader, NULL) == 0);
	CHECK(pthread_create(&consumer, NULL, wfcq_consumer, NULL) == 0);
	for (int i = 0; i < NR_WRITERS; i++)
		CHECK(pthread_create(&writers[i], NULL, writer, (void *)(uintptr_t)i) == 0);
	for (int i = 0; i < NR_WRITERS; i++)
		CHECK(pthread_join(writers[i], NULL) == 0);
	CHECK(pthread_join(rd, NULL) == 0);
	CHECK(pthread_join(consumer, NULL) == 0);
	CHECK(cds_wfcq_empty(&wfcq_head, &wfcq_tail));

	/* The publications: the first writer's item won the cmpxchg; the
	 * newest is some writer's last one; _rcu_xchg_pointer takes it. */
	CHECK(published_once != NULL && published_once->key % NR_ITEMS == 0);
	it = _rcu_xchg_pointer(&newest, NULL);
	CHECK(it != NULL && it->key % NR_ITEMS == NR_ITEMS - 1);
	_rcu_assign_pointer(newest, it);

	/* Stage 2b: the wfstack whole onto the lfstack, each key once. */
	all = cds_wfs_pop_all_blocking(&wfs);
	CHECK(all != NULL && cds_wfs_empty(&wfs));
	cds_wfs_for_each_blocking_safe(all, wnode, wnext) {
		it = caa_container_of(wnode, struct item, wfs_node);
		seen_once(seen, it->key, "wfcqueue -> wfstack");
		cds_lfs_push(&lfs, &it->lfs_node);
	}
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&movers[i], NULL, lfs_to_lfq, &moved[i]) == 0);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(movers[i], NULL) == 0);
	CHECK(moved[0] + moved[1] == NR_KEYS && cds_lfs_empty(&lfs));
	for (unsigned long n = 0; n < NR_KEYS; n++) {
		struct cds_lfq_node_rcu *qnode;

		rcu_read_lock();
		qnode = cds_lfq_dequeue_rcu(&lfq);
		rcu_read_unlock();
		CHECK(qnode != NULL);
		seen_once(seen + NR_KEYS, caa_container_of(qnode, struct item, lfq_node)->key,
			  "lfstack -> rculfqueue");
	}
	rcu_read_lock();
	CHECK(cds_lfq_dequeue_rcu(&lfq) == NULL);
	rcu_read_unlock();
	CHECK(cds_lfq_destroy_rcu(&lfq) == 0);

	/* The table holds every key once. */
	{
		struct cds_lfht_iter iter;
		unsigned long count = 0;

		rcu_read_lock();
		cds_lfht_for_each_entry(table, &iter, it, table_node) {
			seen_once(seen + 2 * NR_KEYS, it->key, "table");
			count++;
		}
		rcu_read_unlock();
		CHECK(count == NR_KEYS);
	}

	/* Stage 3: out of every structure, the last reference dropped. */
	pthread_mutex_lock(&lists_lock);
	cds_list_for_each_entry_safe(it, tmp, &items, list_node) {
		rcu_read_lock();
		CHECK(cds_lfht_del(table, &it->table_node) == 0);
		rcu_read_unlock();
		cds_list_del_rcu(&it->list_node);
		cds_hlist_del_rcu(&it->hlist_node);
		urcu_ref_put(&it->ref, release_item);
	}
	pthread_mutex_unlock(&lists_lock);
	CHECK(cds_list_empty(&items));
	_rcu_set_pointer(&newest, NULL);
	rcu_barrier();
	CHECK(uatomic_read(&freed) == NR_KEYS);
	CHECK(cds_lfht_destroy(table, NULL) == 0);

	/* Wake the futex waiters. */
	for (int i = 0; i < 2; i++) {
		uatomic_set(&futex_words[i], 1);
		if (i == 0)
			futex_noasync(&futex_words[i], FUTEX_WAKE, 1, NULL, NULL, 0);
		else
			futex_async(&futex_words[i], FUTEX_WAKE, 1, NULL, NULL, 0);
		CHECK(pthread_join(waiters[i], NULL) == 0);
	}
	CHECK(caa_get_cycles() != start);
	cds_wfcq_destroy(&wfcq_head, &wfcq_tail);
	cds_wfs_destroy(&wfs);
	cds_lfs_destroy(&lfs);
	rcu_unregister_thread();
	free(seen);
	printf("[%s] %d keys through the table, lists, hlists, refs and the four queues; "
	       "%lu references taken by the reader\n", TEST_FLAVOR, NR_KEYS, refs_taken);
	return 0;
}
