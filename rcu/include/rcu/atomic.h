/* SPDX-License-Identifier: MIT */
/*
 * rcu/atomic.h - the one atomics layer of rcu and lfht.
 *
 * Thin wrappers over C11 <stdatomic.h> (in C++, over the __atomic builtins:
 * see below). Every wrapper takes its memory order as an argument, so each
 * call site names the order it needs; there is no default. Use the standard
 * memory_order_* constants.
 *
 * rcu_cpu_relax() is the pause hint for spin loops, chosen once per target.
 */
#ifndef RCU_ATOMIC_H
#define RCU_ATOMIC_H

#include <stdbool.h>
#include <stdint.h>

#ifndef __cplusplus
#include <stdatomic.h>

/* An atomic object of type T in a struct or parameter of a public header. */
#define RCU_ATOMIC_(T)				_Atomic(T)

#define rcu_atomic_load(p, order)		atomic_load_explicit((p), (order))
#define rcu_atomic_store(p, v, order)		atomic_store_explicit((p), (v), (order))
#define rcu_atomic_xchg(p, v, order)		atomic_exchange_explicit((p), (v), (order))
#define rcu_atomic_add(p, v, order)		atomic_fetch_add_explicit((p), (v), (order))
#define rcu_atomic_sub(p, v, order)		atomic_fetch_sub_explicit((p), (v), (order))
#define rcu_atomic_or(p, v, order)		atomic_fetch_or_explicit((p), (v), (order))
#define rcu_atomic_and(p, v, order)		atomic_fetch_and_explicit((p), (v), (order))

/*
 * Compare-and-swap: returns true when *p held *expected and now holds
 * desired; otherwise *expected receives the value seen.
 */
#define rcu_atomic_cas(p, expected, desired, success, failure)		\
	atomic_compare_exchange_strong_explicit((p), (expected), (desired), \
						(success), (failure))
#define rcu_atomic_cas_weak(p, expected, desired, success, failure)	\
	atomic_compare_exchange_weak_explicit((p), (expected), (desired), \
					      (success), (failure))

/* A CPU fence of the given order. */
#define rcu_fence(order)			atomic_thread_fence(order)
/* A compiler-only fence: orders against signal handlers and membarrier IPIs. */
#define rcu_compiler_barrier()			atomic_signal_fence(memory_order_seq_cst)

#else /* __cplusplus */
/*
 * C++ before C++23 has no _Atomic, and <atomic> cannot be included under
 * the extern "C" that C++ users put around C headers. The headers' inlines
 * therefore see their atomic fields as plain objects of the same type
 * (same size and alignment as the C _Atomic ones on every target lfht
 * supports) and reach them only through the GCC/clang __atomic builtins,
 * which compile to the instructions <stdatomic.h> gives C and which
 * ThreadSanitizer understands. The order must be spelled memory_order_*:
 * it names its __ATOMIC_* constant by token pasting, so C++ callers need no
 * memory_order names in scope.
 */
#define RCU_ATOMIC_(T)				T
#define rcu_atomic_order_(order)		RCU_ATOMIC_ORDER_##order
#define RCU_ATOMIC_ORDER_memory_order_relaxed	__ATOMIC_RELAXED
#define RCU_ATOMIC_ORDER_memory_order_acquire	__ATOMIC_ACQUIRE
#define RCU_ATOMIC_ORDER_memory_order_release	__ATOMIC_RELEASE
#define RCU_ATOMIC_ORDER_memory_order_acq_rel	__ATOMIC_ACQ_REL
#define RCU_ATOMIC_ORDER_memory_order_seq_cst	__ATOMIC_SEQ_CST

#define rcu_atomic_load(p, order)		__atomic_load_n((p), rcu_atomic_order_(order))
#define rcu_atomic_store(p, v, order)		__atomic_store_n((p), (v), rcu_atomic_order_(order))
#define rcu_atomic_xchg(p, v, order)		__atomic_exchange_n((p), (v), rcu_atomic_order_(order))
#define rcu_atomic_add(p, v, order)		__atomic_fetch_add((p), (v), rcu_atomic_order_(order))
#define rcu_atomic_sub(p, v, order)		__atomic_fetch_sub((p), (v), rcu_atomic_order_(order))
#define rcu_atomic_or(p, v, order)		__atomic_fetch_or((p), (v), rcu_atomic_order_(order))
#define rcu_atomic_and(p, v, order)		__atomic_fetch_and((p), (v), rcu_atomic_order_(order))
#define rcu_atomic_cas(p, expected, desired, success, failure)		\
	__atomic_compare_exchange_n((p), (expected), (desired), false,	\
				    rcu_atomic_order_(success),		\
				    rcu_atomic_order_(failure))
#define rcu_atomic_cas_weak(p, expected, desired, success, failure)	\
	__atomic_compare_exchange_n((p), (expected), (desired), true,	\
				    rcu_atomic_order_(success),		\
				    rcu_atomic_order_(failure))
#define rcu_fence(order)			__atomic_thread_fence(rcu_atomic_order_(order))
#define rcu_compiler_barrier()			__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif /* __cplusplus */

#if defined(__x86_64__) || defined(__i386__)
static inline void rcu_cpu_relax(void) { __builtin_ia32_pause(); }
#elif defined(__aarch64__)
static inline void rcu_cpu_relax(void) { __asm__ __volatile__("yield" ::: "memory"); }
#elif defined(__powerpc64__) || defined(__powerpc__)
/* "or 27,27,27" lowers SMT thread priority for the spin. */
static inline void rcu_cpu_relax(void) { __asm__ __volatile__("or 27,27,27" ::: "memory"); }
#else
static inline void rcu_cpu_relax(void) { rcu_compiler_barrier(); }
#endif

#endif /* RCU_ATOMIC_H */
