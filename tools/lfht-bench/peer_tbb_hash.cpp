// SPDX-License-Identifier: MIT
//
// lfht-bench peer: oneTBB's concurrent_hash_map behind the bt_* interface
// (impl_extern.h). It has no RCU: a lookup holds a const_accessor, a read
// lock on the item (and, while it searches, on the bucket), so readers
// write shared memory; erase waits until no accessor holds the item, then
// frees it at once. The table grows by itself (from its default bucket
// count, or from the count asked for); it cannot be resized under
// concurrent use (rehash), so churn is refused (impl_tbb_hash.h).
//
// Items are std::allocator's (peer::allocator, peer.h says why).
#include <cstdint>

#include <oneapi/tbb/concurrent_hash_map.h>

#define PEER_NO_RCU
#include "peer.h"

namespace {

struct hash_compare {
	std::size_t hash(std::uint64_t key) const { return peer::hasher()(key); }
	bool equal(std::uint64_t a, std::uint64_t b) const { return a == b; }
};

using map = oneapi::tbb::concurrent_hash_map<std::uint64_t, peer::value, hash_compare,
	peer::allocator>;

} // namespace

struct bench_table : peer::table<map> { using table::table; };

extern "C" {

// concurrent_hash_map always grows on its own; auto_resize changes nothing.
struct bench_table *bt_new(unsigned long init_size, int auto_resize)
{
	(void)auto_resize;
	return new bench_table(init_size > 1 ? init_size : 0);
}

int bt_destroy(struct bench_table *bt)
{
	delete bt;
	return 0;
}

int bt_lookup(struct bench_table *bt, std::uint64_t key)
{
	map::const_accessor a;

	return bt->m.find(a, key);
}

unsigned bt_lookup_batch(struct bench_table *bt, unsigned n, const std::uint64_t *keys)
{
	return peer::lookup_each(bt, n, keys);
}

int bt_add_unique(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.insert(map::value_type(key, peer::value_of(key, 0)));
}

// Inserts or replaces the value under a write accessor; returns 1 when the
// key was there.
int bt_add_replace(struct bench_table *bt, std::uint64_t key)
{
	map::accessor a;
	bool fresh = bt->m.insert(a, key);

	a->second = peer::value_of(key, 1);
	return !fresh;
}

int bt_del(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.erase(key);
}

// Unused: churn is refused.
void bt_resize(struct bench_table *, unsigned long)
{
	peer::refused();
}

} // extern "C"
