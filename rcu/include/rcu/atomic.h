/* SPDX-License-Identifier: MIT */
/*
 * rcu/atomic.h - the one atomics layer of rcu and lfht.
 *
 * Thin wrappers over C11 <stdatomic.h>. Every wrapper takes its memory order
 * as an argument, so each call site names the order it needs; there is no
 * default. Use the standard memory_order_* constants.
 *
 * rcu_cpu_relax() is the pause hint for spin loops, chosen once per target.
 */
#ifndef RCU_ATOMIC_H
#define RCU_ATOMIC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

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
