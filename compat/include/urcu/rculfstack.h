/* SPDX-License-Identifier: MIT */
/*
 * urcu/rculfstack.h (lfht's liburcu compatibility layer) - liburcu's
 * deprecated RCU lock-free stack (cds_lfs_*_rcu), kept as liburcu 0.15
 * still ships it, over <rcuds/lfstack.h>: push is cds_lfs_push(), pop is
 * __cds_lfs_pop() under the caller's RCU read-side critical section, so a
 * popped node is freed or pushed again only after a grace period. New code
 * uses <urcu/lfstack.h>. Calls warn as deprecated, as in liburcu.
 *
 * Differs from liburcu: the node and stack wrap lfstack's (the members
 * are `node` and `s`, not `next` and `head`); nothing is exported.
 */
#ifndef LFHT_URCU_RCULFSTACK_H
#define LFHT_URCU_RCULFSTACK_H

#include <urcu/compiler.h>
#include <rcuds/lfstack.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CDS_LFS_RCU_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED	\
	CDS_DEPRECATED("urcu/rculfstack.h is deprecated. Please use urcu/lfstack.h instead.")
#endif

struct cds_lfs_node_rcu {
	struct cds_lfs_node node;
};

struct cds_lfs_stack_rcu {
	struct __cds_lfs_stack s;
};

static inline CDS_LFS_RCU_DEPRECATED
void cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node)
{
	cds_lfs_node_init(&node->node);
}

static inline
void cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s)
{
	__cds_lfs_init(&s->s);
}

/* Returns 0 when the stack was empty before, non-zero otherwise. */
static inline CDS_LFS_RCU_DEPRECATED
int cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s, struct cds_lfs_node_rcu *node)
{
	cds_lfs_stack_ptr_t u;

	u._s = &s->s;
	return cds_lfs_push(u, &node->node) ? 1 : 0;
}

/* Inside a read-side critical section; NULL when empty. */
static inline CDS_LFS_RCU_DEPRECATED
struct cds_lfs_node_rcu *cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s)
{
	cds_lfs_stack_ptr_t u;
	struct cds_lfs_node *n;

	u._s = &s->s;
	n = __cds_lfs_pop(u);
	return n != NULL ? caa_container_of(n, struct cds_lfs_node_rcu, node) : NULL;
}

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE
#include <urcu/static/rculfstack.h>
#endif

#endif /* LFHT_URCU_RCULFSTACK_H */
