/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: liburcu's cds_lfht on urcu-qsbr (the
 * library call path: no _LGPL_SOURCE). Never linked together with lfht. */
#include <urcu-qsbr.h>
#include <urcu/rculfhash.h>

#define BENCH_IMPL "urcu-qsbr"
#define BENCH_IMPL_KIND "urcu"
#define BENCH_IMPL_HELP "liburcu 0.13 cds_lfht on urcu-qsbr (needs liburcu-dev)"

static inline void bench_quiescent(void) { rcu_quiescent_state(); }
static inline void bench_offline(void) { rcu_thread_offline(); }
static inline void bench_online(void) { rcu_thread_online(); }
/* liburcu keeps its bucket count private; its cds_lfht_resize() returns
 * when the resize is done, so there is nothing to wait for (0 = unknown). */
static inline unsigned long bench_nr_buckets(struct cds_lfht *ht) { (void)ht; return 0; }

#include "table_cds.h"
