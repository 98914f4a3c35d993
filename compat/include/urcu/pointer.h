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
#define rcu_set_pointer(pp, v)						\
	do {								\
		__typeof__(*(pp)) lfht_urcu_set_v_ = (v);		\
		__atomic_store_n((pp), lfht_urcu_set_v_, __ATOMIC_RELEASE); \
	} while (0)

/* The _LGPL_SOURCE names: the operations above (the inline forms are the
 * only ones here). */
#define _rcu_dereference(p)			rcu_dereference(p)
#define _rcu_assign_pointer(p, v)		rcu_assign_pointer(p, v)
#define _rcu_set_pointer(pp, v)			rcu_set_pointer(pp, v)
#define _rcu_xchg_pointer(pp, v)		rcu_xchg_pointer(pp, v)
#define _rcu_cmpxchg_pointer(pp, old, new_)	rcu_cmpxchg_pointer(pp, old, new_)

#endif /* LFHT_URCU_POINTER_H */
