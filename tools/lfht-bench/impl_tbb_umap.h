/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: oneTBB's concurrent_unordered_map
 * (peer_tbb_umap.cpp). Its erase is unsafe_erase: not with concurrent
 * operations, so every workload that deletes is refused. */
#define BENCH_IMPL "tbb-umap"
#define BENCH_IMPL_KIND "peer"
#define BENCH_IMPL_HELP \
	"oneTBB 2021 concurrent_unordered_map (split-ordered list): lock-free " \
	"find that holds nothing; no concurrent erase, so read-only and " \
	"insert-only workloads (needs libtbb-dev)"
#define BENCH_IMPL_NOTE \
	"oneTBB concurrent_unordered_map: a lookup holds nothing (lock-free " \
	"find); no concurrent erase; grows on its own"

#define BENCH_NO_ERASE "concurrent_unordered_map has no concurrency-safe erase (unsafe_erase)"
#define BENCH_NO_RESIZE "concurrent_unordered_map::rehash() is not safe with concurrent operations"
#define BENCH_NO_DEFER_FREE "no deferred free: items live until the table is cleared"

#include "impl_extern.h"
