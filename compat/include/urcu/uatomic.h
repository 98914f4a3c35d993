/* SPDX-License-Identifier: MIT */
/*
 * urcu/uatomic.h (lfht's liburcu compatibility layer) - liburcu's atomic
 * operations on plain integer and pointer variables, with liburcu 0.15's
 * memory orders. Each operation takes an optional last argument, an enum
 * cmm_memorder; the _mo form of each takes it always:
 *
 *   operation                       yields         without an order
 *   uatomic_load(addr [, mo])       the value      relaxed
 *   uatomic_read: the same
 *   uatomic_store(addr, v [, mo])   nothing        relaxed
 *   uatomic_set: the same
 *   uatomic_cmpxchg(addr, old, new [, mo [, mo_fail]])
 *                                   the value seen full barrier (success
 *                                                  and failure); with mo
 *                                                  only, failure relaxed
 *   uatomic_xchg(addr, v [, mo])    the old value  full barrier
 *   uatomic_add_return(addr, v [, mo]), uatomic_sub_return
 *                                   the new value  full barrier
 *   uatomic_add(addr, v [, mo]), uatomic_sub, uatomic_and, uatomic_or,
 *   uatomic_inc(addr [, mo]), uatomic_dec
 *                                   nothing        full barrier
 *   cmm_smp_mb__before_uatomic_<op>(), cmm_smp_mb__after_uatomic_<op>()
 *
 * The orders are C11's (CMM_RELAXED ... CMM_SEQ_CST, numbered as the
 * __ATOMIC_ constants), plus CMM_SEQ_CST_FENCE: sequentially consistent and
 * a full memory barrier before and after, which is what "full barrier"
 * above means (liburcu's classic uatomic guarantee).
 *
 * Differs from liburcu: without an order, the value-less read-modify-writes
 * (uatomic_add ... uatomic_or) are full barriers (liburcu 0.15: relaxed,
 * uatomic_and seq_cst; its x86 and __sync-based versions before 0.15 were
 * full barriers too), so the cmm_smp_mb__before/after_uatomic_* helpers
 * are compiler barriers; and uatomic_cmpxchg without an order is a full
 * barrier on failure too, as before 0.15. An order is passed to the
 * builtins as it is: a load with CMM_RELEASE is the caller's error, as
 * with C11. Pointer arithmetic is in bytes, as in liburcu. __atomic
 * builtins, so valid C and C++.
 *
 * UATOMIC_HAS_ATOMIC_BYTE and UATOMIC_HAS_ATOMIC_SHORT (defined empty, for
 * #ifdef) say that every operation above works on 1-byte and on 2-byte
 * objects; int, long and pointer objects work everywhere. They follow
 * liburcu's per-architecture choice (its uatomic/<arch>.h files, 0.13;
 * LoongArch from 0.14), so a program takes the same paths as with
 * liburcu: both on x86, ARM64, IA-64, LoongArch, m68k, RISC-V, SuperH and
 * TILE-Gx, the short one only on PA-RISC, neither on POWER and the rest,
 * where liburcu's own operations refuse those sizes (a link error or a
 * trap). The builtins here work at both sizes on POWER too (lbarx,
 * lharx), but where liburcu says no, so does the layer. A program that
 * includes a <urcu/uatomic/<arch>.h> itself gets what that file of liburcu
 * defines, on any target.
 */
#ifndef LFHT_URCU_UATOMIC_H
#define LFHT_URCU_UATOMIC_H

#include <urcu/arch.h>
#include <urcu/compiler.h>
#include <urcu/system.h>

/* By the compiler's names, not URCU_ARCH_*: <urcu/arch.h> names only
 * the targets lfht builds for. */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) ||	\
	defined(__ia64__) || defined(__loongarch__) || defined(__m68k__) ||	\
	defined(__riscv) || defined(__sh__) || defined(__tilegx__)
#define UATOMIC_HAS_ATOMIC_BYTE
#define UATOMIC_HAS_ATOMIC_SHORT
#elif defined(__hppa__)
#define UATOMIC_HAS_ATOMIC_SHORT
#endif

enum cmm_memorder {
	CMM_RELAXED = 0,
	CMM_CONSUME = 1,
	CMM_ACQUIRE = 2,
	CMM_RELEASE = 3,
	CMM_ACQ_REL = 4,
	CMM_SEQ_CST = 5,
	CMM_SEQ_CST_FENCE = 6,
};

/* The builtins' order for mo: CMM_SEQ_CST_FENCE is seq_cst plus fences. */
#define lfht_urcu_c11_(mo)						\
	((mo) == CMM_SEQ_CST_FENCE ? __ATOMIC_SEQ_CST : (int)(mo))

/*
 * The fences that make an access with CMM_SEQ_CST_FENCE a full barrier
 * (nothing for the other orders). Seq_cst fences: they pair with any fence
 * or seq_cst access of the caller's protocol, as liburcu's full barriers.
 * Loads and stores need real fences (a seq_cst load is a plain load on
 * x86, which an earlier store may pass); on x86 the locked instruction of a
 * seq_cst read-modify-write already is one, elsewhere (ARM64's
 * ldaxr/stlxr, POWER's lwsync...isync) an earlier plain store may still
 * pass a later load, so the read-modify-writes get fences there.
 */
#define lfht_urcu_fence_if_(mo)						\
	((mo) == CMM_SEQ_CST_FENCE ? __atomic_thread_fence(__ATOMIC_SEQ_CST) : (void)0)
#if defined(__x86_64__) || defined(__i386__)
#define lfht_urcu_rmw_fence_()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
#define lfht_urcu_rmw_fence_()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#define lfht_urcu_rmw_fence_if_(mo)					\
	((mo) == CMM_SEQ_CST_FENCE ? lfht_urcu_rmw_fence_() : (void)0)

/* ---- the _mo forms ----------------------------------------------------- */

#define uatomic_load_mo(addr, mo)					\
	__extension__ ({						\
		lfht_urcu_fence_if_(mo);				\
		__typeof__(*(addr)) lfht_urcu_v_ =			\
			__atomic_load_n((addr), lfht_urcu_c11_(mo));	\
		lfht_urcu_fence_if_(mo);				\
		lfht_urcu_v_;						\
	})

#define uatomic_store_mo(addr, v, mo)					\
	((void)(lfht_urcu_fence_if_(mo),				\
		__atomic_store_n((addr), (__typeof__(*(addr)))(v),	\
				 lfht_urcu_c11_(mo)),			\
		lfht_urcu_fence_if_(mo)))

/* Yields the value *addr held (== old on success). */
#define uatomic_cmpxchg_mo(addr, old, new_, mo, mo_fail)		\
	__extension__ ({						\
		__typeof__(*(addr)) lfht_urcu_seen_ = (old);		\
		lfht_urcu_rmw_fence_if_(mo);				\
		(void)__atomic_compare_exchange_n((addr), &lfht_urcu_seen_, \
				(__typeof__(*(addr)))(new_), 0,		\
				lfht_urcu_c11_(mo), lfht_urcu_c11_(mo_fail)); \
		lfht_urcu_rmw_fence_if_(mo);				\
		lfht_urcu_seen_;					\
	})

/* Yields what op returns (fetch_op: the old value, op_fetch: the new). */
#define lfht_urcu_rmw_(op, addr, v, mo)					\
	__extension__ ({						\
		lfht_urcu_rmw_fence_if_(mo);				\
		__typeof__(*(addr)) lfht_urcu_r_ =			\
			op((addr), (v), lfht_urcu_c11_(mo));		\
		lfht_urcu_rmw_fence_if_(mo);				\
		lfht_urcu_r_;						\
	})

#define uatomic_xchg_mo(addr, v, mo)					\
	lfht_urcu_rmw_(__atomic_exchange_n, addr, (__typeof__(*(addr)))(v), mo)
#define uatomic_add_return_mo(addr, v, mo)				\
	lfht_urcu_rmw_(__atomic_add_fetch, addr, v, mo)
#define uatomic_sub_return_mo(addr, v, mo)				\
	lfht_urcu_rmw_(__atomic_sub_fetch, addr, v, mo)
#define uatomic_add_mo(addr, v, mo)					\
	((void)lfht_urcu_rmw_(__atomic_fetch_add, addr, v, mo))
#define uatomic_sub_mo(addr, v, mo)					\
	((void)lfht_urcu_rmw_(__atomic_fetch_sub, addr, v, mo))
#define uatomic_and_mo(addr, v, mo)					\
	((void)lfht_urcu_rmw_(__atomic_fetch_and, addr, v, mo))
#define uatomic_or_mo(addr, v, mo)					\
	((void)lfht_urcu_rmw_(__atomic_fetch_or, addr, v, mo))
#define uatomic_inc_mo(addr, mo)	uatomic_add_mo(addr, 1, mo)
#define uatomic_dec_mo(addr, mo)	uatomic_sub_mo(addr, 1, mo)

/* ---- the optional order ------------------------------------------------ */

/*
 * Picks the name that follows the arguments: called as
 * LFHT_URCU_PICK3_(args..., name_with_order, name_without, ~), it yields
 * the third argument, which is name_without when args is one argument and
 * name_with_order when it is two. The ~ keeps the variable part from ever
 * being empty (standard C11 and C++11, no GNU extension).
 */
#define LFHT_URCU_PICK3_(a, b, name, ...)		name
#define LFHT_URCU_PICK4_(a, b, c, name, ...)		name
#define LFHT_URCU_PICK6_(a, b, c, d, e, name, ...)	name

/* The defaults (see the table above). */
#define lfht_urcu_load_relaxed_(addr)	__atomic_load_n((addr), __ATOMIC_RELAXED)
#define lfht_urcu_store_relaxed_(addr, v)				\
	((void)__atomic_store_n((addr), (__typeof__(*(addr)))(v), __ATOMIC_RELAXED))
#define lfht_urcu_cmpxchg_full_(addr, old, new_)			\
	uatomic_cmpxchg_mo(addr, old, new_, CMM_SEQ_CST_FENCE, CMM_SEQ_CST_FENCE)
#define lfht_urcu_cmpxchg_mo1_(addr, old, new_, mo)			\
	uatomic_cmpxchg_mo(addr, old, new_, mo, CMM_RELAXED)
#define lfht_urcu_xchg_full_(addr, v)	uatomic_xchg_mo(addr, v, CMM_SEQ_CST_FENCE)
#define lfht_urcu_add_return_full_(addr, v)				\
	uatomic_add_return_mo(addr, v, CMM_SEQ_CST_FENCE)
#define lfht_urcu_sub_return_full_(addr, v)				\
	uatomic_sub_return_mo(addr, v, CMM_SEQ_CST_FENCE)
#define lfht_urcu_add_full_(addr, v)	uatomic_add_mo(addr, v, CMM_SEQ_CST_FENCE)
#define lfht_urcu_sub_full_(addr, v)	uatomic_sub_mo(addr, v, CMM_SEQ_CST_FENCE)
#define lfht_urcu_and_full_(addr, v)	uatomic_and_mo(addr, v, CMM_SEQ_CST_FENCE)
#define lfht_urcu_or_full_(addr, v)	uatomic_or_mo(addr, v, CMM_SEQ_CST_FENCE)
#define lfht_urcu_inc_full_(addr)	uatomic_inc_mo(addr, CMM_SEQ_CST_FENCE)
#define lfht_urcu_dec_full_(addr)	uatomic_dec_mo(addr, CMM_SEQ_CST_FENCE)

#define uatomic_load(...)						\
	LFHT_URCU_PICK3_(__VA_ARGS__, uatomic_load_mo, lfht_urcu_load_relaxed_, ~)(__VA_ARGS__)
#define uatomic_read(...)						\
	LFHT_URCU_PICK3_(__VA_ARGS__, uatomic_load_mo, lfht_urcu_load_relaxed_, ~)(__VA_ARGS__)
#define uatomic_store(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_store_mo, lfht_urcu_store_relaxed_, ~)(__VA_ARGS__)
#define uatomic_set(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_store_mo, lfht_urcu_store_relaxed_, ~)(__VA_ARGS__)
#define uatomic_cmpxchg(...)						\
	LFHT_URCU_PICK6_(__VA_ARGS__, uatomic_cmpxchg_mo, lfht_urcu_cmpxchg_mo1_, \
			 lfht_urcu_cmpxchg_full_, ~)(__VA_ARGS__)
#define uatomic_xchg(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_xchg_mo, lfht_urcu_xchg_full_, ~)(__VA_ARGS__)
#define uatomic_add_return(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_add_return_mo,		\
			 lfht_urcu_add_return_full_, ~)(__VA_ARGS__)
#define uatomic_sub_return(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_sub_return_mo,		\
			 lfht_urcu_sub_return_full_, ~)(__VA_ARGS__)
#define uatomic_add(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_add_mo, lfht_urcu_add_full_, ~)(__VA_ARGS__)
#define uatomic_sub(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_sub_mo, lfht_urcu_sub_full_, ~)(__VA_ARGS__)
#define uatomic_and(...)						\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_and_mo, lfht_urcu_and_full_, ~)(__VA_ARGS__)
#define uatomic_or(...)							\
	LFHT_URCU_PICK4_(__VA_ARGS__, uatomic_or_mo, lfht_urcu_or_full_, ~)(__VA_ARGS__)
#define uatomic_inc(...)						\
	LFHT_URCU_PICK3_(__VA_ARGS__, uatomic_inc_mo, lfht_urcu_inc_full_, ~)(__VA_ARGS__)
#define uatomic_dec(...)						\
	LFHT_URCU_PICK3_(__VA_ARGS__, uatomic_dec_mo, lfht_urcu_dec_full_, ~)(__VA_ARGS__)

/* Without an order the operations above are full barriers already:
 * compiler barriers. */
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
