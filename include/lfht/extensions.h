/* SPDX-License-Identifier: MIT */
/*
 * lfht/extensions.h - what lfht offers beyond the cds_lfht API: a
 * process-wide allocator hook (for embedding, and for tests that inject
 * allocation failures) and a look at a table's bucket count.
 */
#ifndef LFHT_EXTENSIONS_H
#define LFHT_EXTENSIONS_H

#include <stddef.h>

#include <lfht/lfht.h>

/*
 * Where every table gets its memory: the table itself, bucket tables,
 * counters. zalloc returns zero-filled memory aligned to at least 16 bytes,
 * or NULL; free receives the size that was asked for.
 */
struct lfht_allocator {
	void *(*zalloc)(size_t size, void *ctx);
	void (*free)(void *ptr, size_t size, void *ctx);
	void *ctx;
};

/*
 * Installs allocator for all tables created afterwards; NULL restores the
 * default (calloc/free). Call while no table exists: a table frees its memory
 * with the allocator that was installed when it was created.
 */
LFHT_API void lfht_set_allocator(const struct lfht_allocator *allocator);

/*
 * The table's current number of buckets (a power of two). Exact when no
 * resize runs; the caller must be a registered thread.
 */
LFHT_API unsigned long lfht_nr_buckets(struct cds_lfht *ht);

#endif /* LFHT_EXTENSIONS_H */
