// SPDX-License-Identifier: MIT
//
// lfht-bench peer: oneTBB's concurrent_unordered_map (a split-ordered list,
// as lfht) behind the bt_* interface (impl_extern.h). find and insert are
// lock-free and safe together; a lookup holds nothing. Its only erase is
// unsafe_erase, not safe with any concurrent operation, so the workloads
// that delete are refused (impl_tbb_umap.h) and the bt_* calls that would
// delete end the program. Items: std::allocator's (malloc), as for the
// other implementations (see peer_tbb_hash.cpp).
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>

// GCC 12 at -O2 warns, in code of this header inlined here, that the
// destructor of oneTBB's value_node reads past a 16-byte dummy node (a
// false positive on the list head): not ours to fix, and -Werror builds
// must pass.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
#include <oneapi/tbb/concurrent_unordered_map.h>

#include "impl_extern.h"

namespace {

struct value {
	std::uint64_t word[4];
};

struct hasher {
	std::size_t operator()(std::uint64_t key) const { return bench_hash(key); }
};

using map = oneapi::tbb::concurrent_unordered_map<std::uint64_t, value, hasher,
	std::equal_to<std::uint64_t>, std::allocator<std::pair<const std::uint64_t, value>>>;

} // namespace

struct bench_table {
	map m;
	explicit bench_table(unsigned long n) : m(n) { }
};

extern "C" {

void bt_register(void) { }
void bt_unregister(void) { }
void bt_barrier(void) { }

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
	unsigned found = 0;

	for (unsigned i = 0; i < n; i++)
		found += bt->m.find(keys[i]) != bt->m.end();
	return found;
}

int bt_add_unique(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.insert(map::value_type(key, value{ { key, 0, 0, 0 } })).second;
}

// Unused: every workload that replaces, deletes or resizes is refused.
int bt_add_replace(struct bench_table *bt, std::uint64_t key)
{
	(void)bt;
	(void)key;
	std::abort();
}

int bt_del(struct bench_table *bt, std::uint64_t key)
{
	(void)bt;
	(void)key;
	std::abort();
}

void bt_resize(struct bench_table *bt, unsigned long size)
{
	(void)bt;
	(void)size;
	std::abort();
}

} // extern "C"
