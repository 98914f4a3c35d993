/* SPDX-License-Identifier: MIT */
/*
 * rcu/pointer.h - publishing and reading RCU-protected pointers. Shared by
 * every flavour (included by each flavour header).
 *
 * The pointers are plain (not _Atomic) lvalues, as in liburcu, so the macros
 * use the GCC/clang __atomic builtins, which accept any pointer-sized object
 * and are understood by ThreadSanitizer. Signatures follow liburcu:
 *
 *   T *rcu_dereference(T *p)                 load (consume, i.e. acquire)
 *   void rcu_assign_pointer(T *p, T *v)      store (release)
 *   T *rcu_xchg_pointer(T **pp, T *v)        exchange (full barrier), returns old
 *   T *rcu_cmpxchg_pointer(T **pp, T *old, T *new)
 *                                            CAS (full barrier), returns the
 *                                            value *pp held before (== old on
 *                                            success)
 *
 * Note that rcu_dereference and rcu_assign_pointer take the pointer itself,
 * rcu_xchg_pointer and rcu_cmpxchg_pointer its address, exactly as liburcu.
 *
 * Each is defined over a name of its own (rcu_pointer_load_ ...), which
 * liburcu's layer gives its _rcu_* names: a program may redefine a short
 * name over the _rcu_ one (BIND's QSBR rcu_dereference() does).
 */
#ifndef RCU_POINTER_H
#define RCU_POINTER_H

/*
 * Consume: the dependent loads through the result see what the publisher
 * wrote before its rcu_assign_pointer (pairs with the release there, or with
 * the seq_cst xchg/cmpxchg). Compilers implement consume as acquire.
 */
#define rcu_pointer_load_(p)	__atomic_load_n(&(p), __ATOMIC_CONSUME)
#define rcu_dereference(p)	rcu_pointer_load_(p)

/*
 * Release: the pointee's initialisation is visible before the pointer is;
 * pairs with the consume in rcu_dereference().
 */
#define rcu_pointer_store_(p, v)					\
	__extension__ ({						\
		__typeof__(p) rcu_assign_v_ = (v);			\
		__atomic_store_n(&(p), rcu_assign_v_, __ATOMIC_RELEASE); \
		(void)0;						\
	})
#define rcu_assign_pointer(p, v)	rcu_pointer_store_(p, v)

/*
 * rcu_xchg_pointer and rcu_cmpxchg_pointer are full barriers, as liburcu
 * documents them: every access before them is ordered before every access
 * after. A seq_cst read-modify-write alone does not order a plain store
 * before it against a plain load after it in C11, nor on ARM64 or POWER
 * (load-linked/store-conditional loops); a locked instruction on x86 does.
 * So elsewhere the exchange sits between two seq_cst fences.
 */
#if defined(__x86_64__) || defined(__i386__)
#define rcu_full_barrier_rmw_()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
#define rcu_full_barrier_rmw_()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/* Seq_cst between full fences: publishes like rcu_assign_pointer (the
 * pointee's initialisation is visible first; pairs with the consume in
 * rcu_dereference()) and is a full barrier. */
#define rcu_pointer_xchg_(pp, v)					\
	__extension__ ({						\
		__typeof__(*(pp)) rcu_xchg_v_ = (v);			\
		rcu_full_barrier_rmw_();				\
		rcu_xchg_v_ = __atomic_exchange_n((pp), rcu_xchg_v_,	\
						  __ATOMIC_SEQ_CST);	\
		rcu_full_barrier_rmw_();				\
		rcu_xchg_v_;						\
	})
#define rcu_xchg_pointer(pp, v)	rcu_pointer_xchg_(pp, v)

/* Seq_cst between full fences, on success and on failure; a full barrier
 * either way, publishing like rcu_xchg_pointer. Evaluates to the value
 * seen. */
#define rcu_pointer_cmpxchg_(pp, old, new_)				\
	__extension__ ({						\
		__typeof__(*(pp)) rcu_cmpxchg_old_ = (old);		\
		__typeof__(*(pp)) rcu_cmpxchg_new_ = (new_);		\
		rcu_full_barrier_rmw_();				\
		(void)__atomic_compare_exchange_n((pp), &rcu_cmpxchg_old_, \
						  rcu_cmpxchg_new_, 0,	\
						  __ATOMIC_SEQ_CST,	\
						  __ATOMIC_SEQ_CST);	\
		rcu_full_barrier_rmw_();				\
		rcu_cmpxchg_old_;					\
	})
#define rcu_cmpxchg_pointer(pp, old, new_)	rcu_pointer_cmpxchg_(pp, old, new_)

#endif /* RCU_POINTER_H */
