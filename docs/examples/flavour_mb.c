/* SPDX-License-Identifier: MIT */
/*
 * flavour_mb.c - a table updated about as often as it is read, under mb,
 * quoted by docs/flavours.md. Every update waits for its own grace period
 * with synchronize_rcu(); under mb that is a fence and a scan of the
 * readers, with no system call, which is why a program with many grace
 * periods (or one that may not use membarrier) picks mb. Readers register
 * and mark their sections as under memb; each section costs them two full
 * fences.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/mb.h>
#include <lfht/lfht.h>

enum { NR_READERS = 2, NR_LOOKUPS = 20000, NR_UPDATES = 20000, NR_KEYS = 16 };

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

	rcu_register_thread();
	for (long i = 0; i < NR_LOOKUPS; i++) {
		int key = (int)(i % NR_KEYS);
		struct cds_lfht_iter iter;

		rcu_read_lock();	/* a counter and a full fence */
		cds_lfht_lookup(ht, hash_int(key), match_key, &key, &iter);
		if (cds_lfht_iter_get_node(&iter) != NULL)
			(*found)++;
		rcu_read_unlock();	/* a store and a full fence */
	}
	rcu_unregister_thread();
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	rcu_register_thread();
	for (int version = 1; version <= NR_UPDATES; version++) {
		int key = version % NR_KEYS;
		struct entry *e = new_entry(key, version);
		struct cds_lfht_node *old;

		rcu_read_lock();
		old = cds_lfht_add_replace(ht, hash_int(key), match_key, &key, &e->node);
		rcu_read_unlock();
		synchronize_rcu();	/* fences and a scan: no system call */
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
	struct entry *gone[NR_KEYS];
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	int nr_gone = 0, ok = 1;

	ht = cds_lfht_new(16, 16, 0, 0, NULL);
	if (ht == NULL)
		return 1;
	rcu_register_thread();
	rcu_read_lock();
	for (int key = 0; key < NR_KEYS; key++)
		cds_lfht_add(ht, hash_int(key), &new_entry(key, 0)->node);
	rcu_read_unlock();

	for (int i = 0; i < NR_READERS; i++)
		pthread_create(&readers[i], NULL, reader, &found[i]);
	pthread_create(&updater, NULL, writer, NULL);
	for (int i = 0; i < NR_READERS; i++)
		pthread_join(readers[i], NULL);
	pthread_join(updater, NULL);

	/* Empty the table: every key holds its last version. */
	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		struct entry *e = caa_container_of(node, struct entry, node);

		ok &= e->version > NR_UPDATES - NR_KEYS && cds_lfht_del(ht, node) == 0;
		if (nr_gone < NR_KEYS)
			gone[nr_gone++] = e;
	}
	cds_lfht_first(ht, &iter);
	ok &= cds_lfht_iter_get_node(&iter) == NULL && nr_gone == NR_KEYS;
	rcu_read_unlock();
	synchronize_rcu();
	for (int i = 0; i < nr_gone; i++)
		free(gone[i]);

	for (int i = 0; i < NR_READERS; i++) {
		printf("reader %d: %ld of %d lookups found their key\n", i, found[i], NR_LOOKUPS);
		ok &= found[i] == NR_LOOKUPS;
	}
	ok &= cds_lfht_destroy(ht, NULL) == 0;
	rcu_unregister_thread();
	return ok ? 0 : 1;
}
