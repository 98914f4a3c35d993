/* SPDX-License-Identifier: MIT */
/*
 * getting_started.c - the smallest complete lfht program, quoted by
 * docs/getting-started.md: one thread, the QSBR flavour; add, look up,
 * delete, and free the deleted entry after a grace period.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/qsbr.h>	/* the flavour first: the table uses it */
#include <lfht/lfht.h>

struct entry {
	int key;
	int value;
	struct cds_lfht_node node;	/* the table's hook */
};

/* Any well-mixed hash will do; the table uses all its bits. */
static unsigned long hash_int(int key)
{
	uint64_t x = (uint64_t)(unsigned)key;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (unsigned long)x;
}

/* The table compares hashes; the key comparison is ours. */
static int match_key(struct cds_lfht_node *node, const void *key)
{
	const struct entry *e = caa_container_of(node, struct entry, node);

	return e->key == *(const int *)key;
}

int main(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct entry *e, *removed = NULL;
	int key = 42;

	/* 16 buckets to start, grow as needed. No RCU needed yet. */
	struct cds_lfht *ht = cds_lfht_new(16, 16, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	if (ht == NULL)
		return 1;
	rcu_register_thread();	/* every thread that touches the table */

	e = malloc(sizeof(*e));
	if (e == NULL)
		return 1;
	e->key = key;
	e->value = 7;
	cds_lfht_node_init(&e->node);

	rcu_read_lock();
	cds_lfht_add(ht, hash_int(key), &e->node);
	rcu_read_unlock();

	rcu_read_lock();
	cds_lfht_lookup(ht, hash_int(key), match_key, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node != NULL) {
		printf("%d -> %d\n", key, caa_container_of(node, struct entry, node)->value);
		if (cds_lfht_del(ht, node) == 0)
			removed = caa_container_of(node, struct entry, node);
	}
	rcu_read_unlock();

	/* Readers that found the entry before the delete may still use it:
	 * wait for them all, then free it. */
	synchronize_rcu();
	free(removed);

	if (cds_lfht_destroy(ht, NULL) != 0)	/* the table must be empty */
		return 1;
	rcu_unregister_thread();
	return removed != NULL ? 0 : 1;
}
