/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: oneTBB's concurrent_hash_map
 * (peer_tbb_hash.cpp). */
#define BENCH_IMPL "tbb-hash"
#define BENCH_IMPL_KIND "peer"
#define BENCH_IMPL_HELP \
	"oneTBB 2021 concurrent_hash_map: no RCU; a lookup holds a " \
	"const_accessor (read locks on the bucket and the item, written shared " \
	"memory); erase waits for accessors (needs libtbb-dev)"
#define BENCH_IMPL_NOTE \
	"oneTBB concurrent_hash_map, no RCU: a lookup holds a const_accessor " \
	"(read locks on bucket and item); grows on its own"

#define BENCH_NO_RESIZE "concurrent_hash_map::rehash() is not safe with concurrent operations"
#define BENCH_NO_DEFER_FREE "no deferred free: erase frees once no accessor holds the item"

#include "impl_extern.h"
