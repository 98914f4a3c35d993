/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: our mb flavour (full fences on the read
 * side, no membarrier). */
#include <rcu/mb.h>

#define BENCH_IMPL "ours-mb"
static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
