/* SPDX-License-Identifier: MIT */
/*
 * all_headers.c - a liburcu program (liburcu's headers and names only)
 * that includes, in one translation unit, every header lfht's
 * compatibility layer installs (all_headers.h), the four flavours' among
 * them, and does a little work with several: memb, qsbr,
 * mb and bp read-side sections by their prefixed names, an RCU list, a
 * table on the first flavour's object freed through its call_rcu, a
 * wait-free queue, a reference count, uatomic. Built with and without
 * _LGPL_SOURCE, through the layer and against liburcu itself where it is
 * installed.
 *
 * The order is liburcu's rule for several flavours in one unit: <urcu.h>
 * first (memb, with URCU_API_MAP), so the shared declarations (call_rcu,
 * urcu_memb_flavor ...) are memb's and the headers with inline code over
 * the short names (<urcu/rculfhash.h>'s cds_lfht_new) see memb's; then the
 * other flavours' headers, which map the short names onto their own, each
 * after <urcu/map/clear.h>; then <urcu/map/clear.h>, which leaves none
 * defined. The body uses prefixed names only.
 *
 * Against liburcu, meson defines TEST_LIBURCU, and TEST_LIBURCU_LACKS_014
 * or TEST_LIBURCU_LACKS_015 where the installed liburcu is older (0.13:
 * both): the headers those releases added are left out, as are the layer's
 * own <urcu/lfht-flavour-api.h> and <urcu/lfht-flavour-end.h>, and liburcu's
 * per-architecture files (its internals, each for the target it names,
 * which do not build elsewhere) are included for this target only; the
 * layer's are each <urcu/arch.h> or <urcu/uatomic.h>, for any target.
 */
#define _GNU_SOURCE

#include "all_headers.h"

#include <stdlib.h>

#ifdef _LGPL_SOURCE
#define TEST_FLAVOR "all headers, _LGPL_SOURCE"
#else
#define TEST_FLAVOR "all headers"
#endif
#include "test_check.h"

#define NR_ITEMS 64

struct item {
	unsigned long key;
	struct cds_list_head link;
	struct cds_lfht_node node;
	struct cds_wfcq_node qnode;
	struct urcu_ref ref;
	struct rcu_head rcu;
};

static unsigned long nr_released, nr_freed;
static struct item *newest;

static void free_item(struct rcu_head *head)
{
	uatomic_inc(&nr_freed);
	free(caa_container_of(head, struct item, rcu));
}

static void release_item(struct urcu_ref *ref)
{
	struct item *it = caa_container_of(ref, struct item, ref);

	nr_released++;
	urcu_memb_call_rcu(&it->rcu, free_item);
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const unsigned long *)key;
}

/* Sections of the other flavours, by their prefixed names. */
static void other_flavours(void)
{
	urcu_qsbr_register_thread();
	urcu_qsbr_read_lock();
	CHECK(urcu_qsbr_read_ongoing());
	urcu_qsbr_read_unlock();
	urcu_qsbr_quiescent_state();
	urcu_qsbr_thread_offline();
	CHECK(!urcu_qsbr_read_ongoing());
	urcu_qsbr_synchronize_rcu();
	urcu_qsbr_thread_online();
	urcu_qsbr_unregister_thread();

	urcu_mb_register_thread();
	urcu_mb_read_lock();
	CHECK(urcu_mb_read_ongoing() && !urcu_memb_read_ongoing());
	urcu_mb_read_unlock();
	urcu_mb_synchronize_rcu();
	urcu_mb_unregister_thread();

	urcu_bp_read_lock();	/* registers the thread */
	CHECK(urcu_bp_read_ongoing());
	urcu_bp_read_unlock();
	urcu_bp_synchronize_rcu();
}

int main(void)
{
	CDS_LIST_HEAD(items);
	struct cds_wfcq_head qhead;
	struct cds_wfcq_tail qtail;
	struct cds_wfcq_node *qnode;
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	struct item *it, *tmp;
	unsigned long sum = 0, found = 0, dequeued = 0;

	urcu_memb_register_thread();
	cds_wfcq_init(&qhead, &qtail);
	ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE, &urcu_memb_flavor, NULL);
	CHECK(ht != NULL);
	for (unsigned long k = 0; k < NR_ITEMS; k++) {
		it = calloc(1, sizeof(*it));
		CHECK(it != NULL);
		it->key = k;
		urcu_ref_init(&it->ref);
		cds_lfht_node_init(&it->node);
		cds_wfcq_node_init(&it->qnode);
		cds_list_add_tail_rcu(&it->link, &items);
		urcu_memb_read_lock();
		cds_lfht_add(ht, k, &it->node);
		urcu_memb_read_unlock();
		cds_wfcq_enqueue(&qhead, &qtail, &it->qnode);
		rcu_assign_pointer(newest, it);
	}

	urcu_memb_read_lock();
	CHECK(urcu_memb_read_ongoing());
	cds_list_for_each_entry_rcu(it, &items, link)
		sum += it->key;
	for (unsigned long k = 0; k < NR_ITEMS; k++) {
		cds_lfht_lookup(ht, k, match_key, &k, &iter);
		if (cds_lfht_iter_get_node(&iter) != NULL)
			found++;
	}
	CHECK(rcu_dereference(newest)->key == NR_ITEMS - 1);
	urcu_memb_read_unlock();
	CHECK(sum == NR_ITEMS * (NR_ITEMS - 1) / 2);
	CHECK(found == NR_ITEMS);

	while ((qnode = cds_wfcq_dequeue_blocking(&qhead, &qtail)) != NULL)
		dequeued++;
	CHECK(dequeued == NR_ITEMS);

	other_flavours();

	rcu_set_pointer(&newest, NULL);
	cds_list_for_each_entry_safe(it, tmp, &items, link) {
		urcu_memb_read_lock();
		CHECK(cds_lfht_del(ht, &it->node) == 0);
		urcu_memb_read_unlock();
		cds_list_del_rcu(&it->link);
		urcu_ref_put(&it->ref, release_item);
	}
	urcu_memb_barrier();
	CHECK(nr_released == NR_ITEMS);
	CHECK(uatomic_read(&nr_freed) == NR_ITEMS);
	CHECK(cds_lfht_destroy(ht, NULL) == 0);
	cds_wfcq_destroy(&qhead, &qtail);
	urcu_memb_unregister_thread();
	printf("%s: ok (%lu items)\n", TEST_FLAVOR, (unsigned long)NR_ITEMS);
	return 0;
}
