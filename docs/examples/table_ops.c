/* SPDX-License-Identifier: MIT */
/*
 * table_ops.c - every kind of update and traversal, quoted by
 * docs/using-the-table.md: duplicates, add_unique, add_replace, replace
 * through an iterator, a full walk, deletion by key (lfht_del_key()) and
 * deletion with the free deferred by call_rcu(). One thread, QSBR; each
 * step checks what it did.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/qsbr.h>
#include <lfht/lfht.h>
#include <lfht/extensions.h>

struct entry {
	int key;
	int value;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

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

static struct entry *new_entry(int key, int value)
{
	struct entry *e = malloc(sizeof(*e));

	if (e == NULL)
		abort();
	e->key = key;
	e->value = value;
	cds_lfht_node_init(&e->node);
	return e;
}

static void free_entry(struct rcu_head *head)
{
	free(caa_container_of(head, struct entry, rcu));
}

/* The entry with key, or NULL. Call inside a read-side critical section:
 * the entry stays valid until it ends. */
static struct entry *find(struct cds_lfht *ht, int key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(ht, hash_int(key), match_key, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	return node != NULL ? caa_container_of(node, struct entry, node) : NULL;
}

/* Adds key unless present; returns the entry that is in the table. */
static struct entry *insert_unique(struct cds_lfht *ht, int key, int value)
{
	struct entry *e = new_entry(key, value);
	struct cds_lfht_node *in_table;

	in_table = cds_lfht_add_unique(ht, hash_int(key), match_key, &key, &e->node);
	if (in_table != &e->node) {
		free(e);	/* never published: no grace period needed */
		e = caa_container_of(in_table, struct entry, node);
	}
	return e;
}

/* Swaps in a new value: readers see the old entry or the new, never neither. */
static int update_value(struct cds_lfht *ht, int key, int value)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *old;
	struct entry *e;

	cds_lfht_lookup(ht, hash_int(key), match_key, &key, &iter);
	old = cds_lfht_iter_get_node(&iter);
	if (old == NULL)
		return -1;
	e = new_entry(key, value);
	if (cds_lfht_replace(ht, &iter, hash_int(key), match_key, &key, &e->node) != 0) {
		free(e);	/* someone removed the old entry first */
		return -1;
	}
	call_rcu(&caa_container_of(old, struct entry, node)->rcu, free_entry);
	return 0;
}

int main(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct entry *e;
	int key = 3, other = 20, dups = 0, sum = 0, ok = 1;

	struct cds_lfht *ht = cds_lfht_new(4, 4, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	if (ht == NULL)
		return 1;
	rcu_register_thread();
	rcu_read_lock();

	/* Duplicates: cds_lfht_add() never looks. */
	cds_lfht_add(ht, hash_int(key), &new_entry(key, 1)->node);
	cds_lfht_add(ht, hash_int(key), &new_entry(key, 2)->node);
	cds_lfht_for_each_duplicate(ht, hash_int(key), match_key, &key, &iter, node)
		dups++;
	ok &= dups == 2;

	/* add_unique: the second insert of key 10 finds the first. */
	ok &= insert_unique(ht, 10, 100)->value == 100;
	ok &= insert_unique(ht, 10, 999)->value == 100;

	/* add_replace: adds key 20, then replaces it; free the old after a
	 * grace period. */
	ok &= cds_lfht_add_replace(ht, hash_int(other), match_key, &other,
				   &new_entry(other, 1)->node) == NULL;
	node = cds_lfht_add_replace(ht, hash_int(other), match_key, &other,
				    &new_entry(other, 2)->node);
	ok &= node != NULL;
	if (node != NULL)
		call_rcu(&caa_container_of(node, struct entry, node)->rcu, free_entry);

	/* replace through an iterator. */
	ok &= update_value(ht, 10, 101) == 0 && find(ht, 10)->value == 101;
	ok &= update_value(ht, 11, 0) == -1;

	/* A walk over everything: 1 + 2 + 101 + 2. */
	cds_lfht_for_each_entry(ht, &iter, e, node)
		sum += e->value;
	ok &= sum == 106;

	/* Delete key 20 by its key, in one walk; a second call finds nothing. */
	node = lfht_del_key(ht, hash_int(other), match_key, &other);
	ok &= node != NULL && lfht_del_key(ht, hash_int(other), match_key, &other) == NULL;
	if (node != NULL)
		call_rcu(&caa_container_of(node, struct entry, node)->rcu, free_entry);

	/* Delete everything; free each entry after a grace period. */
	cds_lfht_for_each_entry(ht, &iter, e, node) {
		if (cds_lfht_del(ht, &e->node) == 0)
			call_rcu(&e->rcu, free_entry);
	}
	ok &= find(ht, 10) == NULL;
	rcu_read_unlock();

	rcu_barrier();	/* all the free_entry() calls have run */
	ok &= cds_lfht_destroy(ht, NULL) == 0;
	rcu_unregister_thread();
	printf("table_ops: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
