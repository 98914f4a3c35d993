/* SPDX-License-Identifier: MIT */
/*
 * The bt_* table interface as out-of-line functions with C linkage, for
 * the peers written in C++ (oneTBB, libcds): the worker stays C and is
 * compiled as for every other implementation; the peer's .cpp file defines
 * these. Each lookup or update is one call into the C++ file more than in
 * the C implementations, whose bt_* are inline (a few ns, next to the
 * tens of ns of a lookup that misses the cache).
 *
 * Included by the impl_<peer>.h headers, after they define BENCH_IMPL and
 * any BENCH_NO_<NEED>, and by the .cpp files.
 */
#ifndef BENCH_IMPL_EXTERN_H
#define BENCH_IMPL_EXTERN_H

#include <stdint.h>

#include "bench_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The item the C++ containers store: the key and 32 bytes of value, the
 * 40 bytes of the other implementations' entries. The memory workload's
 * "entry alone" is one of these. */
struct bench_entry {
	uint64_t key;
	uint64_t value[4];
};

struct bench_table;

void bt_register(void);
void bt_unregister(void);
void bt_barrier(void);
struct bench_table *bt_new(unsigned long init_size, int auto_resize);
int bt_destroy(struct bench_table *bt);
int bt_lookup(struct bench_table *bt, uint64_t key);
unsigned bt_lookup_batch(struct bench_table *bt, unsigned n, const uint64_t *keys);
int bt_add_unique(struct bench_table *bt, uint64_t key);
int bt_add_replace(struct bench_table *bt, uint64_t key);
int bt_del(struct bench_table *bt, uint64_t key);
void bt_resize(struct bench_table *bt, unsigned long size);

#ifdef __cplusplus
}
#endif

/* None of the C++ peers has quiescent states to report. */
static inline void bench_quiescent(void) { }
static inline void bench_offline(void) { }
static inline void bench_online(void) { }

#endif /* BENCH_IMPL_EXTERN_H */
