/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: liburcu's urcu-mb (library call path,
 * or inline with -D_LGPL_SOURCE). */
#define URCU_API_MAP
#include <urcu/urcu-mb.h>

#ifdef _LGPL_SOURCE
#define BENCH_IMPL "urcu-mb-lgpl"
#else
#define BENCH_IMPL "urcu-mb"
#endif
static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
