/* SPDX-License-Identifier: MIT */
/*
 * user.h - the consumer's program, written once for both flavours: the
 * including file picks the flavour header first. A reader thread looks keys
 * up while the main thread adds, replaces and deletes them; freed entries go
 * through call_rcu(). Exits 0 when every check held.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <lfht/lfht.h>

enum { NR_KEYS = 256, NR_LOOKUPS = 20000 };

struct item {
	unsigned long key;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

static struct cds_lfht *table;

/* Its own hash, as a user's program has (docs/examples/resize.c has one
 * too): this project is built alone, against lfht as a subproject. */
static unsigned long mix(unsigned long key)
{
	uint64_t x = key;

	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ULL;
	x ^= x >> 29;
	return (unsigned long)x;
}

static int same_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const unsigned long *)key;
}

static void free_item(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, rcu));
}

static struct item *make_item(unsigned long key)
{
	struct item *it = malloc(sizeof(*it));

	if (it == NULL)
		abort();
	it->key = key;
	cds_lfht_node_init(&it->node);
	return it;
}

/* Key 0 is always present (replaced, never deleted): every lookup finds it. */
static void *reader(void *arg)
{
	long *misses = arg;
	unsigned long key = 0;

	rcu_register_thread();
	for (int i = 0; i < NR_LOOKUPS; i++) {
		struct cds_lfht_iter iter;

		rcu_read_lock();
		cds_lfht_lookup(table, mix(key), same_key, &key, &iter);
		if (cds_lfht_iter_get_node(&iter) == NULL)
			(*misses)++;
		rcu_read_unlock();
		user_quiescent_point();
	}
	rcu_unregister_thread();
	return NULL;
}

static int run(const char *flavour)
{
	pthread_t thread;
	long misses = 0;
	unsigned long count = 0, zero = 0;
	long before, after;
	struct cds_lfht_iter iter;
	struct item *it;
	int ok = 1;

	table = cds_lfht_new(4, 4, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	if (table == NULL)
		return 1;
	rcu_register_thread();
	rcu_read_lock();
	for (unsigned long k = 0; k < NR_KEYS; k++)
		ok &= cds_lfht_add_unique(table, mix(k), same_key, &k, &make_item(k)->node) != NULL;
	rcu_read_unlock();

	if (pthread_create(&thread, NULL, reader, &misses) != 0)
		return 1;
	for (int round = 0; round < 100; round++) {
		struct cds_lfht_node *old;

		rcu_read_lock();
		old = cds_lfht_add_replace(table, mix(zero), same_key, &zero, &make_item(zero)->node);
		rcu_read_unlock();
		ok &= old != NULL;
		if (old != NULL)
			call_rcu(&caa_container_of(old, struct item, node)->rcu, free_item);
		user_quiescent_point();
	}
	user_blocking_begin();
	pthread_join(thread, NULL);
	user_blocking_end();

	rcu_read_lock();
	cds_lfht_count_nodes(table, &before, &count, &after);
	cds_lfht_for_each_entry(table, &iter, it, node) {
		if (cds_lfht_del(table, &it->node) == 0)
			call_rcu(&it->rcu, free_item);
	}
	rcu_read_unlock();
	rcu_barrier();
	ok &= count == NR_KEYS && misses == 0;
	ok &= cds_lfht_destroy(table, NULL) == 0;
	rcu_unregister_thread();
	printf("%s: %lu keys, %ld misses: %s\n", flavour, count, misses, ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
