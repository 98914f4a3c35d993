/* SPDX-License-Identifier: MIT */
/*
 * urcu/pointer.h (lfht's liburcu compatibility layer) - RCU-protected
 * pointers: rcu_dereference, rcu_assign_pointer, rcu_xchg_pointer,
 * rcu_cmpxchg_pointer (lfht's own, <rcu/pointer.h>) and rcu_set_pointer,
 * and the same under the names liburcu's _LGPL_SOURCE programs use:
 * _rcu_dereference, _rcu_assign_pointer, _rcu_set_pointer,
 * _rcu_xchg_pointer, _rcu_cmpxchg_pointer (given whether or not
 * _LGPL_SOURCE is defined).
 * Like liburcu's, it also gives <urcu/compiler.h>, <urcu/arch.h>,
 * <urcu/system.h> and <urcu/uatomic.h>.
 *
 * Differs from liburcu: rcu_dereference(p) loads from p, so p must be an
 * lvalue (a variable or a member, as in every real use), not any
 * expression; the pointer operations are always inline (no *_sym symbols).
 */
#ifndef LFHT_URCU_POINTER_H
#define LFHT_URCU_POINTER_H

#include <rcu/pointer.h>
#include <urcu/arch.h>
#include <urcu/compiler.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

/*
 * rcu_set_pointer(pp, v): rcu_assign_pointer(*pp, v), given the pointer's
 * address. Release: the pointee's initialisation is visible before the
 * pointer; pairs with the consume load of rcu_dereference().
 */
#define _rcu_set_pointer(pp, v)						\
	do {								\
		__typeof__(*(pp)) lfht_urcu_set_v_ = (v);		\
		__atomic_store_n((pp), lfht_urcu_set_v_, __ATOMIC_RELEASE); \
	} while (0)
#define rcu_set_pointer(pp, v)		_rcu_set_pointer(pp, v)

/*
 * The out-of-line forms liburcu's library exports (its macros call them
 * without _LGPL_SOURCE), as inlines over the operations above: each takes
 * and returns void pointers; rcu_set_pointer_sym() returns v.
 */
static inline void *rcu_dereference_sym(void *p)
{
	return rcu_dereference(p);
}

static inline void *rcu_set_pointer_sym(void **p, void *v)
{
	rcu_set_pointer(p, v);
	return v;
}

static inline void *rcu_xchg_pointer_sym(void **p, void *v)
{
	return rcu_xchg_pointer(p, v);
}

static inline void *rcu_cmpxchg_pointer_sym(void **p, void *old, void *new_)
{
	return rcu_cmpxchg_pointer(p, old, new_);
}

/* The _LGPL_SOURCE names: the operations above (the inline forms are the
 * only ones here), defined as in liburcu below the short names, not over
 * them: a program may redefine a short name over its _rcu_ twin (BIND's
 * QSBR rcu_dereference() does). */
#define _rcu_dereference(p)			rcu_pointer_load_(p)
#define _rcu_assign_pointer(p, v)		rcu_pointer_store_(p, v)
#define _rcu_xchg_pointer(pp, v)		rcu_pointer_xchg_(pp, v)
#define _rcu_cmpxchg_pointer(pp, old, new_)	rcu_pointer_cmpxchg_(pp, old, new_)

#endif /* LFHT_URCU_POINTER_H */
