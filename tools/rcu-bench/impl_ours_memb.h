/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: our memb flavour. */
#include <rcu/memb.h>

#define BENCH_IMPL "ours-memb"
static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
