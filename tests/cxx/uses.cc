// SPDX-License-Identifier: MIT
//
// uses.cc - every inline and macro of the installed headers, used once from
// C++. Compiled (not run) by check-headers.py for each C++ compiler and
// standard, once per flavour (-DUSES_FLAVOUR_QSBR, _MEMB, _BP or _MB), with and
// without RCU_DEBUG_CHECKS, so that a construct C++ rejects fails the test
// even in code that a plain #include does not instantiate.
#if defined(USES_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#elif defined(USES_FLAVOUR_BP)
#include <rcu/bp.h>
#elif defined(USES_FLAVOUR_MB)
#include <rcu/mb.h>
#else
#include <rcu/memb.h>
#endif
#include <lfht/lfht.h>
#include <lfht/extensions.h>

#include <cstddef>
#include <cstdlib>

namespace {

struct entry {
	int key;
	entry *link;
	cds_lfht_node node;
	rcu_head rcu;
};

entry *published;

int match_key(cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, entry, node)->key == *static_cast<const int *>(key);
}

void free_entry(rcu_head *head)
{
	std::free(caa_container_of(head, entry, rcu));
}

void *zalloc(std::size_t size, void *) { return std::calloc(1, size); }
void release(void *ptr, std::size_t, void *) { std::free(ptr); }

} // namespace

extern "C" int lfht_cxx_uses(void);

int lfht_cxx_uses(void)
{
	static const lfht_allocator allocator = { zalloc, release, nullptr };
	cds_lfht *ht = lfht_new_with_allocator(1, 1, 0, CDS_LFHT_AUTO_RESIZE, nullptr,
					       &allocator);
	entry *e = static_cast<entry *>(std::calloc(1, sizeof(entry)));
	cds_lfht_iter iter, iters[2];
	cds_lfht_node *node;
	entry *pos;
	long before, after;
	unsigned long count, hashes[2] = { 1, 2 };
	int key = 1;
	const void *keys[2] = { &key, &key };
	int n = 0;

	lfht_set_allocator(nullptr);
	if (ht == nullptr || e == nullptr)
		return -1;
	rcu_register_thread();
	cds_lfht_node_init_deleted(&e->node);
	cds_lfht_node_init(&e->node);
	e->key = key;
	rcu_read_lock();
	n += rcu_read_ongoing();
	cds_lfht_add(ht, 1, &e->node);
	n += cds_lfht_add_unique(ht, 1, match_key, &key, &e->node) == &e->node;
	cds_lfht_lookup(ht, 1, match_key, &key, &iter);
	n += cds_lfht_replace(ht, &iter, 1, match_key, &key, &e->node) == 0;
	n += cds_lfht_add_replace(ht, 1, match_key, &key, &e->node) == nullptr;
	lfht_lookup_batch(ht, 2, hashes, match_key, keys, iters);
	lfht_lookup(ht, 1, match_key, &key, &iter);
	n += cds_lfht_iter_get_node(&iter) != nullptr;
	cds_lfht_for_each(ht, &iter, node)
		n++;
	cds_lfht_for_each_duplicate(ht, 1, match_key, &key, &iter, node)
		n++;
	cds_lfht_for_each_entry(ht, &iter, pos, node)
		n += pos->key;
	cds_lfht_for_each_entry_duplicate(ht, 1, match_key, &key, &iter, pos, node)
		n += pos->key;
	cds_lfht_first(ht, &iter);
	cds_lfht_next(ht, &iter);
	cds_lfht_next_duplicate(ht, match_key, &key, &iter);
	n += cds_lfht_iter_get_node(&iter) == nullptr;
	cds_lfht_count_nodes(ht, &before, &count, &after);
	n += cds_lfht_del(ht, &e->node) == 0;
	n += cds_lfht_is_node_deleted(&e->node);
	rcu_assign_pointer(published, e);
	n += rcu_dereference(published) == e;
	n += rcu_xchg_pointer(&published, static_cast<entry *>(nullptr)) == e;
	n += rcu_cmpxchg_pointer(&published, static_cast<entry *>(nullptr), e) == nullptr;
	rcu_read_unlock();
#if defined(USES_FLAVOUR_QSBR)
	rcu_quiescent_state();
	rcu_thread_offline();
	rcu_thread_online();
#endif
	synchronize_rcu();
	call_rcu(&e->rcu, free_entry);
	rcu_barrier();
	cds_lfht_resize(ht, 4);
	n += static_cast<int>(lfht_nr_buckets(ht));
	n += cds_lfht_destroy(ht, nullptr);
	ht = cds_lfht_new(1, 1, 0, 0, nullptr);
	n += cds_lfht_destroy(ht, nullptr);
	ht = cds_lfht_new_flavour(1, 1, 0, 0, nullptr, &rcu_flavour);
	n += cds_lfht_destroy(ht, nullptr);
	ht = lfht_new_flavour_allocator(1, 1, 0, 0, nullptr, &rcu_flavour, &allocator);
	n += cds_lfht_destroy(ht, nullptr);
	rcu_unregister_thread();
	return n;
}
