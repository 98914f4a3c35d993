/* SPDX-License-Identifier: MIT */
/*
 * teardown.c - a liburcu program that tears its tables down as liburcu
 * programs do once no other thread reaches them (BIND's caches, for one):
 *
 * - a table is looked up, walked and emptied outside any read-side
 *   critical section (QSBR: offline), each entry freed at once inside the
 *   walk, then destroyed: liburcu asks no section of a thread that alone
 *   reaches the table, so a build with debug checks must not report it;
 * - an auto-resized table, grown so that the arrays a grow replaced are
 *   still queued for call_rcu, is destroyed from a call_rcu callback, which
 *   liburcu allows from 0.10 on.
 *
 * Built through the layer, and against liburcu where it is installed. The
 * flavour: -DTEST_URCU_MEMB, _QSBR, _BP or _MB (RCU_MB before <urcu.h>).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#if defined(TEST_URCU_QSBR)
#include <urcu-qsbr.h>
#define TEST_FLAVOR "qsbr"
#elif defined(TEST_URCU_BP)
#include <urcu-bp.h>
#define TEST_FLAVOR "bp"
#elif defined(TEST_URCU_MB)
#define RCU_MB
#include <urcu.h>
#define TEST_FLAVOR "mb"
#else
#include <urcu.h>
#define TEST_FLAVOR "memb"
#endif
#include <urcu/rculfhash.h>

#include "test_check.h"

#define NR_ENTRIES 1000UL

struct entry {
	unsigned long key;
	struct cds_lfht_node node;
};

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct entry, node)->key == *(const unsigned long *)key;
}

static unsigned long hash_key(unsigned long key)
{
	return key * 2654435761UL;
}

static struct cds_lfht *filled_table(int flags)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, flags, NULL);

	CHECK(ht != NULL);
	rcu_read_lock();
	for (unsigned long key = 0; key < NR_ENTRIES; key++) {
		struct entry *e = calloc(1, sizeof(*e));

		CHECK(e != NULL);
		e->key = key;
		cds_lfht_node_init(&e->node);
		cds_lfht_add(ht, hash_key(key), &e->node);
	}
	rcu_read_unlock();
	return ht;
}

/* Outside any read-side section: nothing else reaches ht, so each entry
 * may be freed at once, inside the walk. */
static unsigned long empty_alone(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct entry *e;
	unsigned long key = 7, nr_deleted = 0;

	cds_lfht_lookup(ht, hash_key(key), match_key, &key, &iter);
	CHECK(cds_lfht_iter_get_node(&iter) != NULL);
	cds_lfht_for_each_entry(ht, &iter, e, node) {
		CHECK(cds_lfht_del(ht, &e->node) == 0);
		free(e);
		nr_deleted++;
	}
	return nr_deleted;
}

struct doomed {
	struct rcu_head rcu;
	struct cds_lfht *ht;
	int destroy_ret;
	int destroyed;
};

static void destroy_in_callback(struct rcu_head *rcu)
{
	struct doomed *d = caa_container_of(rcu, struct doomed, rcu);

	d->destroy_ret = cds_lfht_destroy(d->ht, NULL);
	/* rcu_barrier() in main() orders this before its read. */
	d->destroyed = 1;
}

int main(void)
{
	struct doomed d = { .destroy_ret = -1 };
	struct cds_lfht *ht;

	rcu_register_thread();

	ht = filled_table(0);
#if defined(TEST_URCU_QSBR)
	rcu_thread_offline();
#endif
	CHECK(empty_alone(ht) == NR_ENTRIES);
	CHECK(cds_lfht_destroy(ht, NULL) == 0);
#if defined(TEST_URCU_QSBR)
	rcu_thread_online();
#endif

	d.ht = filled_table(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	/* Past several bucket orders: replaced arrays queued for call_rcu. */
	cds_lfht_resize(d.ht, 1UL << 14);
	CHECK(empty_alone(d.ht) == NR_ENTRIES);
	call_rcu(&d.rcu, destroy_in_callback);
	rcu_barrier();
	CHECK(d.destroyed && d.destroy_ret == 0);

	rcu_unregister_thread();
	printf("teardown [%s]: %lu entries walked, deleted and freed outside a read-side "
	       "section, twice; a table destroyed from a call_rcu callback\n",
	       TEST_FLAVOR, NR_ENTRIES);
	return 0;
}
