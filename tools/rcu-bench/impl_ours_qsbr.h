/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: our QSBR flavour. */
#include <rcu/qsbr.h>

#define BENCH_IMPL "ours-qsbr"
static inline void bench_quiescent(void) { rcu_quiescent_state(); }
static inline void bench_offline(void) { rcu_thread_offline(); }
static inline void bench_online(void) { rcu_thread_online(); }
