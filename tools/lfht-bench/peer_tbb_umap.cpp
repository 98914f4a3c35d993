// SPDX-License-Identifier: MIT
//
// lfht-bench peer: oneTBB's concurrent_unordered_map (a split-ordered list,
// as lfht) behind the bt_* interface (impl_extern.h). find and insert are
// lock-free and safe together; a lookup holds nothing. Its only erase is
// unsafe_erase, not safe with any concurrent operation, so the workloads
// that delete are refused (impl_tbb_umap.h) and the bt_* calls that would
// delete end the program. Items: std::allocator's (peer::allocator, as
// peer_tbb_hash.cpp's).
#include <cstdint>
#include <functional>

// GCC 12 at -O2 warns, in code of this header inlined here, that the
// destructor of oneTBB's value_node reads past a 16-byte dummy node (a
// false positive on the list head): not ours to fix, and -Werror builds
// must pass.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
#include <oneapi/tbb/concurrent_unordered_map.h>

#define PEER_NO_RCU
#include "peer.h"

namespace {

using map = oneapi::tbb::concurrent_unordered_map<std::uint64_t, peer::value, peer::hasher,
	std::equal_to<std::uint64_t>, peer::allocator>;

} // namespace

struct bench_table : peer::table<map> { using table::table; };

extern "C" {

// The map grows its bucket count on its own (load factor 4 by default);
// auto_resize changes nothing.
struct bench_table *bt_new(unsigned long init_size, int auto_resize)
{
	(void)auto_resize;
	return new bench_table(init_size);
}

int bt_destroy(struct bench_table *bt)
{
	delete bt;
	return 0;
}

int bt_lookup(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.find(key) != bt->m.end();
}

unsigned bt_lookup_batch(struct bench_table *bt, unsigned n, const std::uint64_t *keys)
{
	return peer::lookup_each(bt, n, keys);
}

int bt_add_unique(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.insert(map::value_type(key, peer::value_of(key, 0))).second;
}

// Unused: every workload that replaces, deletes or resizes is refused.
int bt_add_replace(struct bench_table *, std::uint64_t)
{
	peer::refused();
}

int bt_del(struct bench_table *, std::uint64_t)
{
	peer::refused();
}

void bt_resize(struct bench_table *, unsigned long)
{
	peer::refused();
}

} // extern "C"
