/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: liburcu's urcu-qsbr. Built twice: the
 * library call path, and with -D_LGPL_SOURCE (inline read side) as a
 * reference column. */
#include <urcu-qsbr.h>

#ifdef _LGPL_SOURCE
#define BENCH_IMPL "urcu-qsbr-lgpl"
#else
#define BENCH_IMPL "urcu-qsbr"
#endif
static inline void bench_quiescent(void) { rcu_quiescent_state(); }
static inline void bench_offline(void) { rcu_thread_offline(); }
static inline void bench_online(void) { rcu_thread_online(); }
