/* SPDX-License-Identifier: MIT */
/*
 * prog.c - an out-of-tree program built against an installed lfht with
 * nothing but pkg-config (tests/install/check-install.py): one table, each
 * flavour selectable at compile time (-DPROG_MEMB, -DPROG_BP, -DPROG_MB), add /
 * lookup / delete / free after a grace period / destroy.
 */
#if defined(PROG_MEMB)
#include <rcu/memb.h>
#elif defined(PROG_BP)
#include <rcu/bp.h>
#elif defined(PROG_MB)
#include <rcu/mb.h>
#else
#include <rcu/qsbr.h>
#endif
#include <lfht/lfht.h>
#include <lfht/extensions.h>

#include <stdio.h>
#include <stdlib.h>

struct item {
	unsigned long key;
	struct cds_lfht_node node;
};

static int same_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const unsigned long *)key;
}

int main(void)
{
	static struct item items[64];
	struct cds_lfht_iter iter;
	unsigned long found = 0, deleted = 0;
	struct cds_lfht *ht = cds_lfht_new(8, 8, 0, CDS_LFHT_AUTO_RESIZE, NULL);

	if (ht == NULL)
		return 1;
	rcu_register_thread();
	rcu_read_lock();
	for (unsigned long k = 0; k < 64; k++) {
		items[k].key = k;
		cds_lfht_node_init(&items[k].node);
		cds_lfht_add(ht, k * 0x9e3779b97f4a7c15ULL, &items[k].node);
	}
	for (unsigned long k = 0; k < 64; k++) {
		cds_lfht_lookup(ht, k * 0x9e3779b97f4a7c15ULL, same_key, &k, &iter);
		if (cds_lfht_iter_get_node(&iter) != NULL)
			found++;
		if (cds_lfht_iter_get_node(&iter) != NULL &&
		    cds_lfht_del(ht, cds_lfht_iter_get_node(&iter)) == 0)
			deleted++;
	}
	rcu_read_unlock();
	synchronize_rcu();
	printf("%s: found %lu, deleted %lu, buckets %lu\n", rcu_flavour.name, found,
	       deleted, lfht_nr_buckets(ht));
	if (cds_lfht_destroy(ht, NULL) != 0)
		return 1;
	rcu_unregister_thread();
	return found == 64 && deleted == 64 ? 0 : 1;
}
