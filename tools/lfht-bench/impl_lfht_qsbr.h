/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: lfht on our QSBR flavour. */
#include <rcu/qsbr.h>
#include <lfht/lfht.h>
#include <lfht/extensions.h>

/* Entries are deleted by key with lfht_del_key() (one walk) and freed
 * with rcu_retire() (on the thread that removed them); built with
 * -DBENCH_LFHT_CALL_RCU, as lfht-qsbr-callrcu, the table is used as a
 * liburcu program uses it: cds_lfht_lookup() then cds_lfht_del(), and
 * call_rcu() (on the flavour's worker). Built with
 * -DBENCH_LFHT_DENSITY=4, the tables keep 4 buckets per node
 * (LFHT_BUCKETS_PER_NODE(4), table_cds.h), as lfht-qsbr-d4. */
#if defined(BENCH_LFHT_DENSITY)
#define BENCH_IMPL "lfht-qsbr-d4"
#define BENCH_IMPL_HELP "lfht on its QSBR flavour, 4 buckets per node " \
	"(LFHT_BUCKETS_PER_NODE(4)), deleting by key, freeing through rcu_retire()"
#define BENCH_DEFER_RETIRE 1
#define BENCH_DEL_KEY 1
#elif defined(BENCH_LFHT_CALL_RCU)
#define BENCH_IMPL "lfht-qsbr-callrcu"
#define BENCH_IMPL_HELP "lfht on its QSBR flavour as liburcu code: lookup then del, " \
	"freeing through call_rcu (the worker)"
#else
#define BENCH_IMPL "lfht-qsbr"
#define BENCH_IMPL_HELP "lfht on its QSBR flavour, deleting by key (lfht_del_key()), " \
	"freeing through rcu_retire()"
#define BENCH_DEFER_RETIRE 1
#define BENCH_DEL_KEY 1
#endif
#define BENCH_IMPL_KIND "lfht"
#define BENCH_IMPL_PAIR "urcu-qsbr"
#define BENCH_IMPL_VS "ck"

static inline void bench_quiescent(void) { rcu_quiescent_state(); }
static inline void bench_offline(void) { rcu_thread_offline(); }
static inline void bench_online(void) { rcu_thread_online(); }
/* lfht exposes its bucket count, so a resize can be waited for. */
static inline unsigned long bench_nr_buckets(struct cds_lfht *ht) { return lfht_nr_buckets(ht); }

/* lfht_lookup_batch(), when this lfht has it: its header says so, or
 * meson found it there (tools/lfht-bench/meson.build). */
#if defined(LFHT_HAVE_LOOKUP_BATCH) || defined(BENCH_HAVE_LOOKUP_BATCH)
#define BENCH_LFHT_BATCH 1
#endif

#include "table_cds.h"
