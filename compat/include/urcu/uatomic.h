/* SPDX-License-Identifier: MIT */
/*
 * urcu/uatomic.h (lfht's liburcu compatibility layer) - liburcu's atomic
 * operations on plain integer and pointer variables:
 *
 *   uatomic_read(addr), uatomic_set(addr, v)         no ordering (relaxed)
 *   uatomic_cmpxchg(addr, old, new)  the value seen   full barrier
 *   uatomic_xchg(addr, v)            the old value    full barrier
 *   uatomic_add_return(addr, v), uatomic_sub_return  the new value, full barrier
 *   uatomic_add, uatomic_sub, uatomic_inc, uatomic_dec, uatomic_and,
 *   uatomic_or                       no value         full barrier
 *   cmm_smp_mb__before_uatomic_<op>(), cmm_smp_mb__after_uatomic_<op>()
 *
 * Differs from liburcu's documentation, not from its implementations: the
 * value-less operations are full barriers too (as liburcu's x86 and
 * __sync-based ones are), so the cmm_smp_mb__before/after_uatomic_* helpers
 * are compiler barriers. Pointer arithmetic is in bytes, as in liburcu.
 * __atomic builtins, so valid C and C++.
 */
#ifndef LFHT_URCU_UATOMIC_H
#define LFHT_URCU_UATOMIC_H

#include <urcu/arch.h>
#include <urcu/compiler.h>
#include <urcu/system.h>

/*
 * What frames each read-modify-write below to make it the full barrier
 * liburcu documents. On x86 the locked instruction of a seq_cst RMW already
 * is one; elsewhere (ARM64's ldaxr/stlxr, POWER's lwsync...isync) an
 * earlier plain store may still pass a later load, so seq_cst fences go
 * before and after. Chosen once per target.
 */
#if defined(__x86_64__) || defined(__i386__)
#define lfht_urcu_rmw_fence_()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
#define lfht_urcu_rmw_fence_()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/* Relaxed: liburcu documents uatomic_read and uatomic_set as implying no
 * memory barrier. */
#define uatomic_read(addr)	__atomic_load_n((addr), __ATOMIC_RELAXED)
#define uatomic_set(addr, v)						\
	((void)__atomic_store_n((addr), (__typeof__(*(addr)))(v), __ATOMIC_RELAXED))

/*
 * Seq_cst, framed by lfht_urcu_rmw_fence_(): liburcu documents a full
 * barrier before and after; pairs with any fence or seq_cst access of the
 * caller's protocol. Yields the value *addr held (== old on success).
 */
#define uatomic_cmpxchg(addr, old, new_)				\
	__extension__ ({						\
		__typeof__(*(addr)) lfht_urcu_seen_ = (old);		\
		lfht_urcu_rmw_fence_();					\
		(void)__atomic_compare_exchange_n((addr), &lfht_urcu_seen_, \
				(__typeof__(*(addr)))(new_), 0,		\
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);	\
		lfht_urcu_rmw_fence_();					\
		lfht_urcu_seen_;					\
	})

/* Seq_cst, full barrier as uatomic_cmpxchg. Yields the old value. */
#define uatomic_xchg(addr, v)						\
	__extension__ ({						\
		__typeof__(*(addr)) lfht_urcu_old_;			\
		lfht_urcu_rmw_fence_();					\
		lfht_urcu_old_ = __atomic_exchange_n((addr),		\
				(__typeof__(*(addr)))(v), __ATOMIC_SEQ_CST); \
		lfht_urcu_rmw_fence_();					\
		lfht_urcu_old_;						\
	})

/* Seq_cst, full barrier as uatomic_cmpxchg. Yield the new value. */
#define uatomic_add_return(addr, v)					\
	__extension__ ({						\
		__typeof__(*(addr)) lfht_urcu_new_;			\
		lfht_urcu_rmw_fence_();					\
		lfht_urcu_new_ = __atomic_add_fetch((addr), (v), __ATOMIC_SEQ_CST); \
		lfht_urcu_rmw_fence_();					\
		lfht_urcu_new_;						\
	})
#define uatomic_sub_return(addr, v)					\
	__extension__ ({						\
		__typeof__(*(addr)) lfht_urcu_new_;			\
		lfht_urcu_rmw_fence_();					\
		lfht_urcu_new_ = __atomic_sub_fetch((addr), (v), __ATOMIC_SEQ_CST); \
		lfht_urcu_rmw_fence_();					\
		lfht_urcu_new_;						\
	})

/* Seq_cst, full barrier as uatomic_cmpxchg (see the top comment). */
#define lfht_urcu_rmw_void_(op, addr, v)				\
	do {								\
		lfht_urcu_rmw_fence_();					\
		(void)op((addr), (v), __ATOMIC_SEQ_CST);		\
		lfht_urcu_rmw_fence_();					\
	} while (0)
#define uatomic_add(addr, v)	lfht_urcu_rmw_void_(__atomic_fetch_add, addr, v)
#define uatomic_sub(addr, v)	lfht_urcu_rmw_void_(__atomic_fetch_sub, addr, v)
#define uatomic_and(addr, v)	lfht_urcu_rmw_void_(__atomic_fetch_and, addr, v)
#define uatomic_or(addr, v)	lfht_urcu_rmw_void_(__atomic_fetch_or, addr, v)
#define uatomic_inc(addr)	uatomic_add((addr), 1)
#define uatomic_dec(addr)	uatomic_sub((addr), 1)

/* The operations above are full barriers already: compiler barriers. */
#define cmm_smp_mb__before_uatomic_add()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_add()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_sub()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_sub()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_inc()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_inc()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_dec()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_dec()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_and()	cmm_barrier()
#define cmm_smp_mb__after_uatomic_and()		cmm_barrier()
#define cmm_smp_mb__before_uatomic_or()		cmm_barrier()
#define cmm_smp_mb__after_uatomic_or()		cmm_barrier()

#endif /* LFHT_URCU_UATOMIC_H */
