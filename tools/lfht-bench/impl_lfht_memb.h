/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: lfht on our memb flavour. */
#include <rcu/memb.h>
#include <lfht/lfht.h>
#include <lfht/extensions.h>

#define BENCH_IMPL "lfht-memb"
#define BENCH_IMPL_KIND "lfht"
#define BENCH_IMPL_HELP "lfht on its memb flavour"
#define BENCH_IMPL_PAIR "urcu-memb"
#define BENCH_IMPL_VS "ck"

static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
static inline unsigned long bench_nr_buckets(struct cds_lfht *ht) { return lfht_nr_buckets(ht); }

/* lfht_lookup_batch(), when this lfht has it: its header says so, or
 * meson found it there (tools/lfht-bench/meson.build). */
#if defined(LFHT_HAVE_LOOKUP_BATCH) || defined(BENCH_HAVE_LOOKUP_BATCH)
#define BENCH_LFHT_BATCH 1
#endif

#include "table_cds.h"
