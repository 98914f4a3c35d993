/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: oneTBB's concurrent_hash_map
 * (peer_tbb_hash.cpp). */
#define BENCH_IMPL "tbb-hash"

#define BENCH_NO_RESIZE "concurrent_hash_map::rehash() is not safe with concurrent operations"
#define BENCH_NO_DEFER_FREE "no deferred free: erase frees once no accessor holds the item"

#include "impl_extern.h"
