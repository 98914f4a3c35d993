/* SPDX-License-Identifier: MIT */
/*
 * porting_urcu.c - a program written for liburcu, unchanged, built through
 * lfht's compatibility layer (docs/porting-from-liburcu.md): the memb
 * flavour, a table made with liburcu's cds_lfht_new_flavor() argument
 * order, a call_rcu_data, and call_rcu() to free.
 */
#include <urcu.h>
#include <urcu/rculfhash.h>
#include <urcu-call-rcu.h>
#include <urcu/uatomic.h>

#include <stdio.h>
#include <stdlib.h>

struct user {
	struct cds_lfht_node node;
	unsigned long id;
	struct rcu_head rcu;
};

static unsigned long freed;

static int match_id(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct user, node)->id == *(const unsigned long *)key;
}

static void free_user(struct rcu_head *head)
{
	free(caa_container_of(head, struct user, rcu));
	uatomic_inc(&freed);
}

int main(void)
{
	/* liburcu's order: flags, then the flavour, then attr. */
	struct cds_lfht *ht = cds_lfht_new_flavor(16, 16, 0, CDS_LFHT_AUTO_RESIZE,
						  &urcu_memb_flavor, NULL);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long id = 7;
	struct user *u = malloc(sizeof(*u));
	struct call_rcu_data *crdp;

	if (ht == NULL || u == NULL)
		return 1;
	urcu_memb_register_thread();
	/* lfht runs one call_rcu worker per flavour: this is that worker. */
	crdp = create_call_rcu_data(0, -1);
	set_thread_call_rcu_data(crdp);

	u->id = id;
	cds_lfht_node_init(&u->node);
	rcu_read_lock();
	cds_lfht_add(ht, id * 0x9e3779b97f4a7c15ULL, &u->node);
	cds_lfht_lookup(ht, id * 0x9e3779b97f4a7c15ULL, match_id, &id, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node != NULL && cds_lfht_del(ht, node) == 0)
		call_rcu(&caa_container_of(node, struct user, node)->rcu, free_user);
	rcu_read_unlock();

	rcu_barrier();		/* every callback queued so far has run */
	printf("freed %lu\n", uatomic_read(&freed));
	set_thread_call_rcu_data(NULL);
	call_rcu_data_free(crdp);
	if (cds_lfht_destroy(ht, NULL) != 0)	/* on a registered thread */
		return 1;
	urcu_memb_unregister_thread();
	return uatomic_read(&freed) == 1 ? 0 : 1;
}
