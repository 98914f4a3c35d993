/* SPDX-License-Identifier: MIT */
/* urcu_user.c - the consumer's liburcu program, built through lfht's
 * compatibility layer (dependency lfht-urcu-memb): liburcu's headers and
 * names only. */
#include <stdio.h>

#include <urcu.h>
#include <urcu/list.h>
#include <urcu/rculfhash.h>
#include <urcu/wfstack.h>

struct entry {
	int key;
	struct cds_lfht_node node;
	struct cds_wfs_node snode;
};

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct entry, node)->key == *(const int *)key;
}

int main(void)
{
	struct cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	struct cds_wfs_stack stack;
	struct cds_lfht_iter iter;
	struct entry e = { .key = 7 };
	int key = 7, found;

	if (ht == NULL)
		return 1;
	rcu_register_thread();
	cds_lfht_node_init(&e.node);
	rcu_read_lock();
	cds_lfht_add(ht, (unsigned long)key, &e.node);
	cds_lfht_lookup(ht, (unsigned long)key, match, &key, &iter);
	found = cds_lfht_iter_get_node(&iter) == &e.node;
	found &= cds_lfht_del(ht, &e.node) == 0;
	rcu_read_unlock();
	synchronize_rcu();
	cds_wfs_init(&stack);
	cds_wfs_node_init(&e.snode);
	cds_wfs_push(&stack, &e.snode);
	found &= cds_wfs_pop_blocking(&stack) == &e.snode;
	cds_wfs_destroy(&stack);
	rcu_unregister_thread();
	printf("urcu-user: %s\n", found ? "found, deleted, pushed and popped" : "wrong");
	return found && cds_lfht_destroy(ht, NULL) == 0 ? 0 : 1;
}
