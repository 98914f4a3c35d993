/* SPDX-License-Identifier: MIT */
/*
 * rcu/pointer.h - publishing and reading RCU-protected pointers. Shared by
 * both flavours (included by <rcu/qsbr.h> and <rcu/memb.h>).
 *
 * The pointers are plain (not _Atomic) lvalues, as in liburcu, so the macros
 * use the GCC/clang __atomic builtins, which accept any pointer-sized object
 * and are understood by ThreadSanitizer. Signatures follow liburcu:
 *
 *   T *rcu_dereference(T *p)                 load (consume, i.e. acquire)
 *   void rcu_assign_pointer(T *p, T *v)      store (release)
 *   T *rcu_xchg_pointer(T **pp, T *v)        exchange (seq_cst), returns old
 *   T *rcu_cmpxchg_pointer(T **pp, T *old, T *new)
 *                                            CAS (seq_cst), returns the value
 *                                            *pp held before (== old on success)
 *
 * Note that rcu_dereference and rcu_assign_pointer take the pointer itself,
 * rcu_xchg_pointer and rcu_cmpxchg_pointer its address, exactly as liburcu.
 */
#ifndef RCU_POINTER_H
#define RCU_POINTER_H

/*
 * Consume: the dependent loads through the result see what the publisher
 * wrote before its rcu_assign_pointer (pairs with the release there, or with
 * the seq_cst xchg/cmpxchg). Compilers implement consume as acquire.
 */
#define rcu_dereference(p)	__atomic_load_n(&(p), __ATOMIC_CONSUME)

/*
 * Release: the pointee's initialisation is visible before the pointer is;
 * pairs with the consume in rcu_dereference().
 */
#define rcu_assign_pointer(p, v)					\
	__extension__ ({						\
		__typeof__(p) rcu_assign_v_ = (v);			\
		__atomic_store_n(&(p), rcu_assign_v_, __ATOMIC_RELEASE); \
		(void)0;						\
	})

/* Seq_cst: publishes like rcu_assign_pointer and orders like a full fence. */
#define rcu_xchg_pointer(pp, v)						\
	__extension__ ({						\
		__typeof__(*(pp)) rcu_xchg_v_ = (v);			\
		__atomic_exchange_n((pp), rcu_xchg_v_, __ATOMIC_SEQ_CST); \
	})

/* Seq_cst on success and on failure; evaluates to the value seen. */
#define rcu_cmpxchg_pointer(pp, old, new_)				\
	__extension__ ({						\
		__typeof__(*(pp)) rcu_cmpxchg_old_ = (old);		\
		__typeof__(*(pp)) rcu_cmpxchg_new_ = (new_);		\
		(void)__atomic_compare_exchange_n((pp), &rcu_cmpxchg_old_, \
						  rcu_cmpxchg_new_, 0,	\
						  __ATOMIC_SEQ_CST,	\
						  __ATOMIC_SEQ_CST);	\
		rcu_cmpxchg_old_;					\
	})

#endif /* RCU_POINTER_H */
