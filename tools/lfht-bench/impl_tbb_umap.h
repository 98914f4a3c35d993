/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: oneTBB's concurrent_unordered_map
 * (peer_tbb_umap.cpp). Its erase is unsafe_erase: not with concurrent
 * operations, so every workload that deletes is refused. */
#define BENCH_IMPL "tbb-umap"

#define BENCH_NO_MIXED "concurrent_unordered_map has no concurrency-safe erase (unsafe_erase)"
#define BENCH_NO_ADDEL BENCH_NO_MIXED
#define BENCH_NO_RW1 BENCH_NO_MIXED
#define BENCH_NO_HOT10 BENCH_NO_MIXED
#define BENCH_NO_HOT1 BENCH_NO_MIXED
#define BENCH_NO_PACE BENCH_NO_MIXED
#define BENCH_NO_CHURN "concurrent_unordered_map::rehash() is not safe with concurrent operations"
#define BENCH_NO_RCUFREE "no deferred free: items live until the table is cleared"

#include "impl_extern.h"
