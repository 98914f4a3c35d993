/* SPDX-License-Identifier: MIT */
/*
 * urcu_prog.c - a liburcu program (liburcu's headers and names only), built
 * against an installed lfht with nothing but `pkg-config --cflags --libs
 * lfht-urcu-memb` (or lfht-urcu-qsbr with -DPROG_QSBR, lfht-urcu-bp with
 * -DPROG_BP, lfht-urcu-mb with -DPROG_MB, which selects mb as liburcu's
 * programs do: RCU_MB before <urcu.h>) by
 * tests/install/check-install.py: a table, add / lookup / delete, free by
 * call_rcu, rcu_barrier, destroy.
 */
#if defined(PROG_QSBR)
#include <urcu-qsbr.h>
#elif defined(PROG_BP)
#include <urcu-bp.h>
#elif defined(PROG_MB)
#define RCU_MB
#include <urcu.h>
#else
#include <urcu.h>
#endif
#include <urcu/rculfhash.h>
#include <urcu/uatomic.h>

#include <stdio.h>
#include <stdlib.h>

struct item {
	struct cds_lfht_node node;
	unsigned long key;
	struct rcu_head rcu;
};

static unsigned long freed;

static int same_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const unsigned long *)key;
}

static void free_item(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, rcu));
	uatomic_inc(&freed);
}

int main(void)
{
	struct cds_lfht_iter iter;
	unsigned long found = 0;
	struct cds_lfht *ht = cds_lfht_new(8, 8, 0, CDS_LFHT_AUTO_RESIZE, NULL);

	/* Repeats prog.c's steps: each program is built alone by
	 * check-install.py, as a user's would be. */
	if (ht == NULL)
		return 1;
	rcu_register_thread();
	rcu_read_lock();
	for (unsigned long k = 0; k < 64; k++) {
		struct item *it = malloc(sizeof(*it));

		if (it == NULL)
			return 1;
		it->key = k;
		cds_lfht_node_init(&it->node);
		cds_lfht_add(ht, k * 0x9e3779b97f4a7c15ULL, &it->node);
	}
	for (unsigned long k = 0; k < 64; k++) {
		struct cds_lfht_node *node;

		cds_lfht_lookup(ht, k * 0x9e3779b97f4a7c15ULL, same_key, &k, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node != NULL && cds_lfht_del(ht, node) == 0) {
			found++;
			call_rcu(&caa_container_of(node, struct item, node)->rcu, free_item);
		}
	}
	rcu_read_unlock();
	rcu_thread_offline();
	rcu_barrier();
	rcu_thread_online();
	printf("urcu_prog: found and freed %lu of 64\n", uatomic_read(&freed));
	if (cds_lfht_destroy(ht, NULL) != 0)
		return 1;
	rcu_unregister_thread();
	return found == 64 && uatomic_read(&freed) == 64 ? 0 : 1;
}
