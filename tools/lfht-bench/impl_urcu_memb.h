/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: liburcu's cds_lfht on urcu-memb (the
 * library call path: no _LGPL_SOURCE). Never linked together with lfht. */
#define URCU_API_MAP
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#define BENCH_IMPL "urcu-memb"
#define BENCH_IMPL_KIND "urcu"
#define BENCH_IMPL_HELP "liburcu 0.13 cds_lfht on urcu-memb (needs liburcu-dev)"

static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
static inline unsigned long bench_nr_buckets(struct cds_lfht *ht) { (void)ht; return 0; }

#include "table_cds.h"
