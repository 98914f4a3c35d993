/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: lfht on our memb flavour. */
#include <rcu/memb.h>
#include <lfht/lfht.h>
#include <lfht/extensions.h>

#define BENCH_IMPL "lfht-memb"

static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }
static inline unsigned long bench_nr_buckets(struct cds_lfht *ht) { return lfht_nr_buckets(ht); }

#include "table_cds.h"
