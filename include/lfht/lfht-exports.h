/* SPDX-License-Identifier: MIT */
/*
 * lfht/lfht-exports.h - what liblfht exports behind the cds_lfht_* static
 * inlines of <lfht/lfht.h>: the library's ABI. Included by <lfht/lfht.h>.
 *
 * Every name carries the lfht_ prefix, so that a process may also hold
 * liburcu's cds_lfht (whose functions are named cds_lfht_*, which lfht's
 * headers give as static inlines over these). Each behaves as the
 * cds_lfht_* function of the same suffix, documented in <lfht/lfht.h>;
 * programs call those.
 */
#ifndef LFHT_LFHT_EXPORTS_H
#define LFHT_LFHT_EXPORTS_H

#ifndef LFHT_LFHT_H
#error "include <lfht/lfht.h>, not <lfht/lfht-exports.h>"
#endif

LFHT_API struct cds_lfht *lfht_new_flavour(unsigned long init_size,
					       unsigned long min_nr_alloc_buckets,
					       unsigned long max_nr_buckets,
					       int flags, pthread_attr_t *attr,
					       const struct rcu_flavour *flavour);
LFHT_API int lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr);
LFHT_API void lfht_resize(struct cds_lfht *ht, unsigned long new_size);
LFHT_API void lfht_count_nodes(struct cds_lfht *ht, long *split_count_before,
				   unsigned long *count, long *split_count_after);
LFHT_API void lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match,
				      const void *key, struct cds_lfht_iter *iter);
LFHT_API void lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter);
LFHT_API void lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter);
LFHT_API void lfht_add(struct cds_lfht *ht, unsigned long hash,
			   struct cds_lfht_node *node);
LFHT_API struct cds_lfht_node *lfht_add_unique(struct cds_lfht *ht, unsigned long hash,
						   cds_lfht_match_fct match,
						   const void *key,
						   struct cds_lfht_node *node);
LFHT_API struct cds_lfht_node *lfht_add_replace(struct cds_lfht *ht, unsigned long hash,
						    cds_lfht_match_fct match,
						    const void *key,
						    struct cds_lfht_node *node);
LFHT_API int lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter,
			      unsigned long hash, cds_lfht_match_fct match,
			      const void *key, struct cds_lfht_node *new_node);
LFHT_API int lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node);
LFHT_API int lfht_is_node_deleted(const struct cds_lfht_node *node);
/* Aborts with "lfht: <call>: <rule>" unless the caller may read ht (QSBR:
 * registered and online; memb: inside rcu_read_lock()). */
LFHT_API void lfht_check_reader_(struct cds_lfht *ht, const char *call);

/* The debug check of the inline lookups: nothing without RCU_DEBUG_CHECKS. */
#ifdef RCU_DEBUG_CHECKS
static inline void lfht_debug_reader_(struct cds_lfht *ht, const char *call)
{
	lfht_check_reader_(ht, call);
}
#else
static inline void lfht_debug_reader_(struct cds_lfht *ht, const char *call)
{
	(void)ht;
	(void)call;
}
#endif

#endif /* LFHT_LFHT_EXPORTS_H */
