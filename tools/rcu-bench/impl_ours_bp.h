/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: our bp flavour (its register calls are
 * allowed; the first read lock would register the thread anyway). */
#include <rcu/bp.h>

#define BENCH_IMPL "ours-bp"
static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
