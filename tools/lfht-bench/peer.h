// SPDX-License-Identifier: MIT
//
// What the C++ peers (peer_*.cpp) share around their container: the value
// an item carries, the key hasher (bench_hash()), the table that holds the
// container, the lookup batch as one lookup after another, the end of a
// call whose workloads the peer's impl_<peer>.h refuses, and, for a peer
// without RCU (PEER_NO_RCU defined before including this), the bt_* calls
// that then have nothing to do. Included once per peer program, after the
// container's headers.
#ifndef BENCH_PEER_H
#define BENCH_PEER_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <utility>

#include "impl_extern.h"

namespace peer {

// The 32 bytes of value of impl_extern.h's struct bench_entry.
struct value {
	std::uint64_t word[4];
};

// What key's item holds: tag 0 once added, 1 once replaced.
inline value value_of(std::uint64_t key, std::uint64_t tag)
{
	return value{ { key, tag, 0, 0 } };
}

struct hasher {
	std::size_t operator()(std::uint64_t key) const { return bench_hash(key); }
};

// The allocator of oneTBB's items: std::allocator's (malloc), as the other
// implementations' entries, not oneTBB's scalable allocator: the memory
// workload then sees them, and no peer gets a faster allocator than the
// rest.
using allocator = std::allocator<std::pair<const std::uint64_t, value>>;

// Each peer's struct bench_table derives from table<its container>, which
// it makes for n items.
template<typename Map> struct table {
	Map m;
	explicit table(unsigned long n) : m(n) { }
};

// n calls of bt_lookup(); how many found their key.
inline unsigned lookup_each(struct bench_table *bt, unsigned n, const std::uint64_t *keys)
{
	unsigned found = 0;

	for (unsigned i = 0; i < n; i++)
		found += bt_lookup(bt, keys[i]);
	return found;
}

// A call of a refused workload: never made.
[[noreturn]] inline void refused()
{
	std::abort();
}

} // namespace peer

#ifdef PEER_NO_RCU
// No thread to register, nothing deferred to wait for.
extern "C" {
void bt_register(void) { }
void bt_unregister(void) { }
void bt_barrier(void) { }
}
#endif

#endif // BENCH_PEER_H
