/* SPDX-License-Identifier: MIT */
/*
 * tests/coexist/urcu_side.c - a shared library written against liburcu
 * (urcu-memb and its cds_lfht), as a plugin or a tracer a program loads
 * would be. It knows nothing of lfht. Built only for the coexistence test
 * (tests/test_coexist.c), the one test that links liburcu.
 */
#define URCU_API_MAP
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include <stdlib.h>

struct urcu_entry {
	unsigned long key;
	struct cds_lfht_node node;
};

static int urcu_match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct urcu_entry, node)->key ==
	       *(const unsigned long *)key;
}

static unsigned long urcu_hash(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;
}

/* A liburcu table of n keys: added, all looked up, deleted, destroyed.
 * Returns how many lookups found their key, or -1 when a call failed. */
__attribute__((visibility("default"))) long urcu_side_roundtrip(unsigned long n)
{
	struct cds_lfht *ht;
	struct urcu_entry *entries = calloc(n, sizeof(*entries));
	long found = 0;

	if (!entries)
		return -1;
	rcu_register_thread();
	ht = cds_lfht_new(4, 4, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	if (!ht) {
		rcu_unregister_thread();
		free(entries);
		return -1;
	}
	rcu_read_lock();
	for (unsigned long i = 0; i < n; i++) {
		entries[i].key = i;
		cds_lfht_node_init(&entries[i].node);
		cds_lfht_add(ht, urcu_hash(i), &entries[i].node);
	}
	for (unsigned long i = 0; i < n; i++) {
		struct cds_lfht_iter iter;

		cds_lfht_lookup(ht, urcu_hash(i), urcu_match, &i, &iter);
		found += cds_lfht_iter_get_node(&iter) != NULL;
	}
	for (unsigned long i = 0; i < n; i++)
		if (cds_lfht_del(ht, &entries[i].node) != 0)
			found = -1;
	rcu_read_unlock();
	synchronize_rcu();
	if (cds_lfht_destroy(ht, NULL) != 0)
		found = -1;
	rcu_unregister_thread();
	free(entries);
	return found;
}
