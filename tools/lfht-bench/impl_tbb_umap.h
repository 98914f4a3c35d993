/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: oneTBB's concurrent_unordered_map
 * (peer_tbb_umap.cpp). Its erase is unsafe_erase: not with concurrent
 * operations, so every workload that deletes is refused. */
#define BENCH_IMPL "tbb-umap"

#define BENCH_NO_ERASE "concurrent_unordered_map has no concurrency-safe erase (unsafe_erase)"
#define BENCH_NO_RESIZE "concurrent_unordered_map::rehash() is not safe with concurrent operations"
#define BENCH_NO_DEFER_FREE "no deferred free: items live until the table is cleared"

#include "impl_extern.h"
