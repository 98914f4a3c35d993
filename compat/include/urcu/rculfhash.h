/* SPDX-License-Identifier: MIT */
/*
 * urcu/rculfhash.h (lfht's liburcu compatibility layer) - liburcu's
 * cds_lfht API over lfht's <lfht/lfht.h>: everything of lfht.h (the same
 * names and signatures), plus cds_lfht_new_flavor(), _cds_lfht_new(), the
 * memory backends cds_lfht_mm_order, cds_lfht_mm_chunk and cds_lfht_mm_mmap,
 * and, after a flavour header, cds_lfht_new(); from liburcu 0.15, struct
 * cds_lfht_alloc with cds_lfht_new_with_flavor_alloc() and
 * _cds_lfht_new_with_alloc(), and cds_lfht_entry(). cds_lfht_iter_get_node()
 * takes a const iterator, as in 0.15 (a 0.13 caller's plain pointer
 * converts).
 *
 * Differs from liburcu:
 * - _cds_lfht_new() accepts any memory backend, the three above or NULL,
 *   and ignores it: lfht's one allocator serves every table (bucket tables
 *   allocated per order, as liburcu's cds_lfht_mm_order; see
 *   <lfht/extensions.h> for a table's own allocator). struct
 *   cds_lfht_mm_type keeps liburcu's members, which lfht never calls.
 * - cds_lfht_new_flavor() and _cds_lfht_new() need a flavour object of this
 *   layer (urcu_memb_flavor, urcu_qsbr_flavor: see <urcu/flavor.h>); NULL,
 *   or one whose lfht_flavour_ is NULL, fails with errno EINVAL.
 * - cds_lfht_destroy() takes a read-side lock of the table's flavour, so
 *   it must run on a registered thread, outside a read-side section
 *   (liburcu >= 0.10 has neither need); a call_rcu callback may call it.
 * - Tables made here are checked (debug builds) as liburcu asks and no
 *   more (LFHT_URCU_RULES_): a lookup, walk or update outside a read-side
 *   section, as by a thread that alone reaches a table it tears down, is
 *   not reported.
 * - cds_lfht_node_init() leaves the node reading as deleted, as
 *   cds_lfht_node_init_deleted() (liburcu 0.14) does.
 * - cds_lfht_new() (under URCU_API_MAP, as in liburcu) also exists when
 *   this file was included before the flavour header (liburcu wants the
 *   flavour first).
 * - A struct cds_lfht_alloc is lfht's per-table allocator (<lfht/extensions.h>
 *   lfht_new_flavour_allocator()): the table keeps the pointer, so *alloc
 *   must stay valid until cds_lfht_destroy() returns. Only its calloc,
 *   aligned_alloc (when calloc's memory is not 16-byte aligned) and free
 *   are called, for the table, its bucket tables and its counters; all
 *   three must be set, or the call fails with errno EINVAL (liburcu also
 *   wants the whole interface). NULL: the default allocator.
 */
#ifndef LFHT_URCU_RCULFHASH_H
#define LFHT_URCU_RCULFHASH_H

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <urcu/compiler.h>
#include <urcu/config.h>
#include <urcu/flavor.h>

#include <lfht/lfht.h>
#include <lfht/extensions.h>

struct cds_lfht_mm_type {
	struct cds_lfht *(*alloc_cds_lfht)(unsigned long min_nr_alloc_buckets,
					   unsigned long max_nr_buckets);
	void (*alloc_bucket_table)(struct cds_lfht *ht, unsigned long order);
	void (*free_bucket_table)(struct cds_lfht *ht, unsigned long order);
	struct cds_lfht_node *(*bucket_at)(struct cds_lfht *ht, unsigned long index);
};

/* Names for _cds_lfht_new(); what they point to is never used. */
__attribute__((unused)) static const struct cds_lfht_mm_type cds_lfht_mm_order = {
	NULL, NULL, NULL, NULL };
__attribute__((unused)) static const struct cds_lfht_mm_type cds_lfht_mm_chunk = {
	NULL, NULL, NULL, NULL };
__attribute__((unused)) static const struct cds_lfht_mm_type cds_lfht_mm_mmap = {
	NULL, NULL, NULL, NULL };

static inline struct cds_lfht *_cds_lfht_new(unsigned long init_size,
					     unsigned long min_nr_alloc_buckets,
					     unsigned long max_nr_buckets, int flags,
					     const struct cds_lfht_mm_type *mm,
					     const struct rcu_flavor_struct *flavor,
					     pthread_attr_t *attr)
{
	(void)mm;
	if (flavor == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return cds_lfht_new_flavour(init_size, min_nr_alloc_buckets, max_nr_buckets,
				    flags | LFHT_URCU_RULES_, attr, flavor->lfht_flavour_);
}

/* liburcu 0.15's allocator callbacks; each gets state first. */
struct cds_lfht_alloc {
	void *(*malloc)(void *state, size_t size);
	void *(*calloc)(void *state, size_t nmemb, size_t size);
	void *(*realloc)(void *state, void *ptr, size_t size);
	void *(*aligned_alloc)(void *state, size_t alignment, size_t size);
	void (*free)(void *state, void *ptr);
	void *state;
};

/* What struct lfht_allocator promises lfht: zero-filled, 16-byte aligned. */
#define LFHT_URCU_ALLOC_ALIGN_ 16

/* struct lfht_allocator's zalloc over a struct cds_lfht_alloc (ctx). Each
 * member call is written (a->calloc)(...): a unit may define calloc or
 * free as a function-like macro (cmocka's UNIT_TESTING does), which
 * a->calloc(...) would expand, calling the unit's allocator instead of
 * the program's hook, or failing to compile at another arity. */
static inline void *lfht_urcu_alloc_zalloc_(size_t size, void *ctx)
{
	const struct cds_lfht_alloc *a = (const struct cds_lfht_alloc *)ctx;
	void *p = (a->calloc)(a->state, 1, size);

	if (p == NULL || (uintptr_t)p % LFHT_URCU_ALLOC_ALIGN_ == 0)
		return p;
	(a->free)(a->state, p);
	/* aligned_alloc() wants a multiple of the alignment. */
	size = (size + LFHT_URCU_ALLOC_ALIGN_ - 1) & ~(size_t)(LFHT_URCU_ALLOC_ALIGN_ - 1);
	p = (a->aligned_alloc)(a->state, LFHT_URCU_ALLOC_ALIGN_, size);
	if (p != NULL)
		memset(p, 0, size);
	return p;
}

static inline void lfht_urcu_alloc_free_(void *ptr, size_t size, void *ctx)
{
	const struct cds_lfht_alloc *a = (const struct cds_lfht_alloc *)ctx;

	(void)size;
	(a->free)(a->state, ptr);
}

/* _cds_lfht_new() with alloc (NULL: the default allocator). */
static inline struct cds_lfht *_cds_lfht_new_with_alloc(unsigned long init_size,
							unsigned long min_nr_alloc_buckets,
							unsigned long max_nr_buckets, int flags,
							const struct cds_lfht_mm_type *mm,
							const struct rcu_flavor_struct *flavor,
							const struct cds_lfht_alloc *alloc,
							pthread_attr_t *attr)
{
	struct lfht_allocator a;

	if (alloc == NULL)
		return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets, flags,
				     mm, flavor, attr);
	if (flavor == NULL || alloc->calloc == NULL || alloc->aligned_alloc == NULL ||
	    alloc->free == NULL) {
		errno = EINVAL;
		return NULL;
	}
	a.zalloc = lfht_urcu_alloc_zalloc_;
	a.free = lfht_urcu_alloc_free_;
	a.ctx = (void *)alloc;
	return lfht_new_flavour_allocator(init_size, min_nr_alloc_buckets, max_nr_buckets,
					  flags | LFHT_URCU_RULES_, attr, flavor->lfht_flavour_, &a);
}

/* cds_lfht_new_flavor() with alloc (NULL: the default allocator). */
static inline struct cds_lfht *cds_lfht_new_with_flavor_alloc(unsigned long init_size,
							      unsigned long min_nr_alloc_buckets,
							      unsigned long max_nr_buckets,
							      int flags,
							      const struct rcu_flavor_struct *flavor,
							      const struct cds_lfht_alloc *alloc,
							      pthread_attr_t *attr)
{
	return _cds_lfht_new_with_alloc(init_size, min_nr_alloc_buckets, max_nr_buckets, flags,
					NULL, flavor, alloc, attr);
}

/* The entry of type type whose member member is node ptr; NULL for NULL
 * (so it may take cds_lfht_iter_get_node() at the end of a walk). */
#define cds_lfht_entry(ptr, type, member)				\
	caa_container_of_check_null(ptr, type, member)

/* liburcu's argument order: flavor before attr (lfht's
 * cds_lfht_new_flavour() has them the other way round). */
static inline struct cds_lfht *cds_lfht_new_flavor(unsigned long init_size,
						   unsigned long min_nr_alloc_buckets,
						   unsigned long max_nr_buckets, int flags,
						   const struct rcu_flavor_struct *flavor,
						   pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, NULL,
			     flavor, attr);
}

#endif /* LFHT_URCU_RCULFHASH_H */

/* cds_lfht_new(), as liburcu, only under URCU_API_MAP, for the flavour the
 * short names name (rcu_flavor: the unit's first flavour header's object).
 * A flavour header included after this file reads this part again. */
#if defined(URCU_API_MAP) && defined(rcu_flavor) && !defined(LFHT_URCU_CDS_LFHT_NEW_)
#define LFHT_URCU_CDS_LFHT_NEW_ 1
static inline struct cds_lfht *cds_lfht_new(unsigned long init_size,
					    unsigned long min_nr_alloc_buckets,
					    unsigned long max_nr_buckets, int flags,
					    pthread_attr_t *attr)
{
	return cds_lfht_new_flavor(init_size, min_nr_alloc_buckets, max_nr_buckets, flags,
				   &rcu_flavor, attr);
}
#endif
