/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: liburcu's urcu-bp (library call path,
 * or inline with -D_LGPL_SOURCE). */
#define URCU_API_MAP
#include <urcu/urcu-bp.h>

#ifdef _LGPL_SOURCE
#define BENCH_IMPL "urcu-bp-lgpl"
#else
#define BENCH_IMPL "urcu-bp"
#endif
static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
