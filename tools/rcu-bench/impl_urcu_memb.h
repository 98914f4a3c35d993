/* SPDX-License-Identifier: MIT */
/* rcu-bench implementation header: liburcu's urcu-memb (library call path,
 * or inline with -D_LGPL_SOURCE). */
#define URCU_API_MAP
#include <urcu/urcu-memb.h>

#ifdef _LGPL_SOURCE
#define BENCH_IMPL "urcu-memb-lgpl"
#else
#define BENCH_IMPL "urcu-memb"
#endif
static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
