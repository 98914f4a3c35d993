/* SPDX-License-Identifier: MIT */
/*
 * flavour_memb.c - readers and a writer under memb, quoted by
 * docs/flavours.md. Readers only mark their read-side sections; nothing else
 * is asked of them. The writer waits for a grace period itself with
 * synchronize_rcu() before it frees what it replaced.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/memb.h>
#include <lfht/lfht.h>

enum { NR_READERS = 2, NR_LOOKUPS = 200000, NR_UPDATES = 200, KEY = 1 };

struct entry {
	int key;
	int version;
	struct cds_lfht_node node;
};

static struct cds_lfht *ht;

static unsigned long hash_int(int key)
{
	uint64_t x = (uint64_t)(unsigned)key;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (unsigned long)x;
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct entry, node)->key == *(const int *)key;
}

static struct entry *new_entry(int key, int version)
{
	struct entry *e = malloc(sizeof(*e));

	if (e == NULL)
		abort();
	e->key = key;
	e->version = version;
	cds_lfht_node_init(&e->node);
	return e;
}

static void *reader(void *arg)
{
	long *found = arg;
	int key = KEY;

	rcu_register_thread();
	for (long i = 0; i < NR_LOOKUPS; i++) {
		struct cds_lfht_iter iter;

		rcu_read_lock();	/* a counter and a compiler barrier */
		cds_lfht_lookup(ht, hash_int(key), match_key, &key, &iter);
		if (cds_lfht_iter_get_node(&iter) != NULL)
			(*found)++;
		rcu_read_unlock();
	}
	rcu_unregister_thread();
	return NULL;
}

static void *writer(void *arg)
{
	int key = KEY;

	(void)arg;
	rcu_register_thread();
	for (int version = 1; version <= NR_UPDATES; version++) {
		struct entry *e = new_entry(key, version);
		struct cds_lfht_node *old;

		rcu_read_lock();
		old = cds_lfht_add_replace(ht, hash_int(key), match_key, &key, &e->node);
		rcu_read_unlock();
		synchronize_rcu();	/* outside the read-side section */
		if (old != NULL)
			free(caa_container_of(old, struct entry, node));
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t readers[NR_READERS], updater;
	long found[NR_READERS] = { 0 };
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct entry *e;
	int key = KEY, ok = 1;

	ht = cds_lfht_new(8, 8, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	if (ht == NULL)
		return 1;
	rcu_register_thread();
	e = new_entry(key, 0);
	rcu_read_lock();
	cds_lfht_add(ht, hash_int(key), &e->node);
	rcu_read_unlock();

	for (int i = 0; i < NR_READERS; i++)
		pthread_create(&readers[i], NULL, reader, &found[i]);
	pthread_create(&updater, NULL, writer, NULL);
	for (int i = 0; i < NR_READERS; i++)	/* no offline dance in memb */
		pthread_join(readers[i], NULL);
	pthread_join(updater, NULL);

	rcu_read_lock();
	cds_lfht_lookup(ht, hash_int(key), match_key, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	e = node != NULL ? caa_container_of(node, struct entry, node) : NULL;
	ok &= e != NULL && e->version == NR_UPDATES && cds_lfht_del(ht, node) == 0;
	rcu_read_unlock();
	synchronize_rcu();
	free(e);

	for (int i = 0; i < NR_READERS; i++) {
		printf("reader %d: %ld of %d lookups found the key\n", i, found[i], NR_LOOKUPS);
		ok &= found[i] == NR_LOOKUPS;
	}
	ok &= cds_lfht_destroy(ht, NULL) == 0;
	rcu_unregister_thread();
	return ok ? 0 : 1;
}
