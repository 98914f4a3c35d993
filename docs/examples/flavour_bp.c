/* SPDX-License-Identifier: MIT */
/*
 * flavour_bp.c - a library on bp, quoted by docs/flavours.md. The library
 * keeps settings in a table and reads them under rcu_read_lock() on its
 * callers' threads, which never call rcu_register_thread(): bp registers a
 * thread on its first read lock and unregisters it when it exits.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/bp.h>
#include <lfht/lfht.h>

enum { NR_CALLERS = 4, NR_CALLS = 100000, NR_UPDATES = 200, KEY = 7 };

/* ---- the library --------------------------------------------------------- */

struct setting {
	int key;
	long value;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

static struct cds_lfht *settings;

static unsigned long hash_int(int key)
{
	return (unsigned long)((uint64_t)(unsigned)key * 0x9e3779b97f4a7c15ULL);
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct setting, node)->key == *(const int *)key;
}

static void free_setting(struct rcu_head *head)
{
	free(caa_container_of(head, struct setting, rcu));
}

/* Any thread may call it: no registration asked of the caller. */
static long setting_get(int key, long fallback)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	long value = fallback;

	rcu_read_lock();	/* registers the thread the first time */
	cds_lfht_lookup(settings, hash_int(key), match_key, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node != NULL)
		value = caa_container_of(node, struct setting, node)->value;
	rcu_read_unlock();
	return value;
}

static void setting_set(int key, long value)
{
	struct setting *s = malloc(sizeof(*s));
	struct cds_lfht_node *old;

	if (s == NULL)
		abort();
	s->key = key;
	s->value = value;
	cds_lfht_node_init(&s->node);
	rcu_read_lock();
	old = cds_lfht_add_replace(settings, hash_int(key), match_key, &key, &s->node);
	rcu_read_unlock();
	if (old != NULL)
		call_rcu(&caa_container_of(old, struct setting, node)->rcu, free_setting);
}

/* ---- the application: plain threads, no RCU calls ------------------------ */

static void *caller(void *arg)
{
	long *seen = arg;

	for (long i = 0; i < NR_CALLS; i++)
		if (setting_get(KEY, -1) >= 0)
			(*seen)++;
	return NULL;
}

static void *updater(void *arg)
{
	(void)arg;
	for (long v = 1; v <= NR_UPDATES; v++)
		setting_set(KEY, v);
	return NULL;
}

int main(void)
{
	pthread_t callers[NR_CALLERS], upd;
	long seen[NR_CALLERS] = { 0 };
	int ok = 1;

	settings = cds_lfht_new(8, 8, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	if (settings == NULL)
		return 1;
	setting_set(KEY, 0);
	for (int i = 0; i < NR_CALLERS; i++)
		pthread_create(&callers[i], NULL, caller, &seen[i]);
	pthread_create(&upd, NULL, updater, NULL);
	for (int i = 0; i < NR_CALLERS; i++)
		pthread_join(callers[i], NULL);
	pthread_join(upd, NULL);

	for (int i = 0; i < NR_CALLERS; i++) {
		printf("caller %d: %ld of %d calls found the setting\n", i, seen[i], NR_CALLS);
		ok &= seen[i] == NR_CALLS;
	}
	ok &= setting_get(KEY, -1) == NR_UPDATES;
	/* Empty the table, then destroy it. */
	{
		struct cds_lfht_iter iter;
		struct cds_lfht_node *node;

		rcu_read_lock();
		cds_lfht_for_each(settings, &iter, node)
			if (cds_lfht_del(settings, node) == 0)
				call_rcu(&caa_container_of(node, struct setting, node)->rcu,
					 free_setting);
		rcu_read_unlock();
	}
	rcu_barrier();
	ok &= cds_lfht_destroy(settings, NULL) == 0;
	return ok ? 0 : 1;
}
