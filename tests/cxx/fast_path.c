/* SPDX-License-Identifier: MIT */
/*
 * fast_path.c - the inline fast paths a reader runs: read lock, lookup,
 * read unlock (and QSBR's quiescent state). check-same-code.py compiles
 * this file as C and as C++ and expects the same instructions.
 */
#if defined(PROBE_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#elif defined(PROBE_FLAVOUR_BP)
#include <rcu/bp.h>
#elif defined(PROBE_FLAVOUR_MB)
#include <rcu/mb.h>
#else
#include <rcu/memb.h>
#endif
#include <lfht/lfht.h>

struct probe_entry {
	long key;
	struct cds_lfht_node node;
};

static int probe_match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct probe_entry, node)->key ==
	       *(const long *)key;
}

#ifdef __cplusplus
extern "C"
#endif
int probe_lookup(struct cds_lfht *ht, unsigned long hash, long key);

int probe_lookup(struct cds_lfht *ht, unsigned long hash, long key)
{
	struct cds_lfht_iter iter;
	int found;

	rcu_read_lock();
	cds_lfht_lookup(ht, hash, probe_match, &key, &iter);
	found = cds_lfht_iter_get_node(&iter) != NULL;
	rcu_read_unlock();
#if defined(PROBE_FLAVOUR_QSBR)
	rcu_quiescent_state();
#endif
	return found;
}
