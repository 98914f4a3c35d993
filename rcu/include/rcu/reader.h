/* SPDX-License-Identifier: MIT */
/*
 * rcu/reader.h - the per-thread reader state and the per-flavour grace-period
 * state that the inline read side of <rcu/qsbr.h> and <rcu/memb.h> touches.
 * Not an API: the layout may change between versions (the libraries are
 * versioned by soname).
 *
 * One struct rcu_reader_ lives in thread-local storage per thread and flavour
 * (rcu_qsbr_reader_, rcu_memb_reader_). Its ctr is the only field another
 * thread reads without the registry lock:
 *   ctr == 0            the thread is quiescent (QSBR: offline; memb: outside
 *                       any read-side section);
 *   ctr == g + n        QSBR: g is the grace-period counter the thread saw at
 *                       its last quiescent state, n is 0; memb: g is the
 *                       counter it saw when its outermost rcu_read_lock()
 *                       began, n (1 .. RCU_NEST_MASK_) its nesting depth.
 * The grace-period counter starts at RCU_GP_STEP_ and advances by it, so its
 * low bits are free for n. A grace period with target T (the counter value it
 * installed) waits for every registered reader to show ctr == 0 or
 * ctr >= T; g + n < T for every snapshot g taken before, since n < STEP. The
 * counter is 64 bits and never wraps (2^48 grace periods), so 0 never is a
 * real snapshot.
 *
 * Why memb keeps its nesting in ctr: a read-side section entered from a
 * signal handler that interrupts rcu_read_lock() or rcu_read_unlock()
 * between any two instructions must be protected. Every change of ctr is one
 * load of the thread's own word and one store to it; a handler's sections
 * are balanced, so the handler leaves ctr as it found it, and the store the
 * interrupted code then makes is still right. With nesting and snapshot in
 * two words, a handler arriving between the two stores saw itself nested
 * while the snapshot was still 0, and no grace period waited for it.
 */
#ifndef RCU_READER_H
#define RCU_READER_H

#include <stdbool.h>
#include <stdint.h>

#include <rcu/atomic.h>

/* Nesting depth bits of a memb reader's ctr; the counter's step. */
#define RCU_NEST_MASK_ ((uint64_t)0xffff)
#define RCU_GP_STEP_ (RCU_NEST_MASK_ + 1)

struct rcu_reader_ {
	RCU_ATOMIC_(uint64_t) ctr;
	/* QSBR with RCU_DEBUG_CHECKS: read-side nesting (memb keeps it in
	 * ctr). Owner thread only. */
	unsigned long nesting;
	/* Set by rcu_register_thread(); owner thread only. */
	bool registered;
	/* Registry list links; under the registry lock. */
	struct rcu_reader_ *next;
	struct rcu_reader_ *prev;
};

struct rcu_gp_ {
	/* The grace-period counter, a multiple of RCU_GP_STEP_ and >= it;
	 * advanced only by grace periods. */
	RCU_ATOMIC_(uint64_t) ctr;
	/* -1 while a grace period sleeps waiting for readers, else 0. */
	RCU_ATOMIC_(int32_t) futex;
	/* memb: nonzero when readers must use full fences (no membarrier or
	 * RCU_MEMB_FORCE_FENCES=1); set once at start-up. Unused by QSBR. */
	RCU_ATOMIC_(int32_t) use_fences;
};

/*
 * Initial-exec TLS: the inline read side reaches the reader state with one
 * thread-pointer-relative access, no __tls_get_addr call. The price: the
 * libraries must be linked at start-up, not dlopen()ed late (glibc keeps a
 * small static-TLS reserve that usually still makes dlopen work).
 */
#if defined(__GNUC__) || defined(__clang__)
#define RCU_TLS_MODEL_ __attribute__((tls_model("initial-exec")))
#else
#define RCU_TLS_MODEL_
#endif

/*
 * GCC (11+) warns that ThreadSanitizer does not model atomic_thread_fence.
 * The fences of the inline read side order store-buffering pairs, which TSan
 * does not check anyway; the acquire/release pairs it does check are plain
 * atomics. Silence the warning for the flavour headers' inlines so that
 * -Werror TSan builds of consumers compile (RCU_TSAN_FENCES_END_ restores).
 */
#if defined(__SANITIZE_THREAD__) && !defined(__clang__) && __GNUC__ >= 11
#define RCU_TSAN_FENCES_BEGIN_					\
	_Pragma("GCC diagnostic push")				\
	_Pragma("GCC diagnostic ignored \"-Wtsan\"")
#define RCU_TSAN_FENCES_END_	_Pragma("GCC diagnostic pop")
#else
#define RCU_TSAN_FENCES_BEGIN_
#define RCU_TSAN_FENCES_END_
#endif

#endif /* RCU_READER_H */
