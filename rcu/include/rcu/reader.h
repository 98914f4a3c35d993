/* SPDX-License-Identifier: MIT */
/*
 * rcu/reader.h - the per-thread reader state and the per-flavour grace-period
 * state that the inline read side of <rcu/qsbr.h>, <rcu/memb.h>, <rcu/bp.h>
 * and <rcu/mb.h> touches, and the read side that memb, bp and mb share.
 * Not an API: the layout may change between versions (the libraries are
 * versioned by soname).
 *
 * One struct rcu_reader_ lives in thread-local storage per thread and flavour
 * (rcu_qsbr_reader_, rcu_memb_reader_, rcu_bp_reader_, rcu_mb_reader_). Its
 * ctr is the only field another thread reads without the registry lock:
 *   ctr == 0            the thread is quiescent (QSBR: offline; memb, bp,
 *                       mb: outside any read-side section);
 *   ctr == g + n        QSBR: g is the grace-period counter the thread saw at
 *                       its last quiescent state, n is 0; memb, bp, mb: g is
 *                       the counter it saw when its outermost
 *                       rcu_read_lock() began, n (1 .. RCU_NEST_MASK_) its
 *                       nesting depth.
 * The grace-period counter starts at RCU_GP_STEP_ and advances by it, so its
 * low bits are free for n. A grace period with target T (the counter value it
 * installed) waits for every registered reader to show ctr == 0 or
 * ctr >= T; g + n < T for every snapshot g taken before, since n < STEP. The
 * counter is 64 bits and never wraps (2^48 grace periods), so 0 never is a
 * real snapshot.
 *
 * Why memb, bp and mb keep their nesting in ctr: a read-side section entered
 * from a signal handler that interrupts rcu_read_lock() or rcu_read_unlock()
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
	/* Set by rcu_register_thread(); owner thread only (bp: also by its
	 * first rcu_read_lock(), with signals blocked). */
	bool registered;
	/* Registry list links; under the registry lock. (bp: next also links
	 * the lock-free list of threads not yet on the registry,
	 * src/registry.c.) */
	struct rcu_reader_ *next;
	struct rcu_reader_ *prev;
	/* 1 + the reader's index in the registry's slot table, which polls
	 * read without the lock (src/registry.c); 0: none. Under the registry
	 * lock. */
	uint32_t poll_slot;
};

struct rcu_gp_ {
	/* The grace-period counter, a multiple of RCU_GP_STEP_ and >= it;
	 * advanced only by grace periods. */
	RCU_ATOMIC_(uint64_t) ctr;
	/* -1 while a grace period sleeps waiting for readers, else 0. */
	RCU_ATOMIC_(int32_t) futex;
	/* memb, bp: nonzero when readers must use full fences (no membarrier,
	 * or RCU_MEMB_FORCE_FENCES=1 / RCU_BP_FORCE_FENCES=1); set once at
	 * start-up. mb: always 1 (its readers fence without looking). Unused
	 * by QSBR. */
	RCU_ATOMIC_(int32_t) use_fences;
	/* The counter the grace period that sleeps on futex waits for,
	 * stored before each -1 (src/gp.c, note 5): a reader wakes that
	 * updater only if it held this target up. Polls (rcu_retire()) move
	 * ctr past it while the updater sleeps. */
	RCU_ATOMIC_(uint64_t) wait_target;
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

RCU_TSAN_FENCES_BEGIN_

/*
 * The read side of the flavours that keep a counter snapshot in the slot
 * (memb, bp, mb; src/memb.c): each helper takes the flavour's own slot and
 * grace-period state, and once inlined compiles to what a copy per flavour
 * would. The slot changes by one load and one store of the thread's own
 * word, so a signal handler may enter a read-side section between any two
 * of these instructions: it leaves the word as it found it.
 *
 * fenced is a constant of the flavour header: true for mb, whose readers
 * always run a full fence (its grace periods never use membarrier), false
 * for memb and bp, whose grace periods fence the readers for them unless
 * use_fences says otherwise. With true the use_fences load folds away.
 */

/*
 * The reader's half of the asymmetric fence: a full fence for mb or in
 * fence mode; a compiler barrier when synchronize_rcu() uses membarrier
 * (which runs the full fence on this CPU for us). use_fences is written
 * once before main.
 */
static inline void rcu_ctr_reader_fence_(struct rcu_gp_ *gp, bool fenced)
{
	/* Relaxed: written once before main (or in a fork child before it
	 * has threads), so every thread agrees on the mode. */
	if (fenced || __builtin_expect(rcu_atomic_load(&gp->use_fences,
						       memory_order_relaxed), 0))
		/* Pairs with the seq_cst fence in
		 * flavour_fence_all_readers() (src/memb.c). */
		rcu_fence(memory_order_seq_cst);
	else
		/* Pairs with membarrier() in
		 * flavour_fence_all_readers() (src/memb.c). */
		rcu_compiler_barrier();
}

/* A nested rcu_read_lock(): true (and done) when r is in a section. */
static inline bool rcu_ctr_read_lock_nested_(struct rcu_reader_ *r)
{
	/* Relaxed: the thread's own slot; only it (or a handler on it, which
	 * restores the value) stores there. */
	uint64_t c = rcu_atomic_load(&r->ctr, memory_order_relaxed);

	if (__builtin_expect((c & RCU_NEST_MASK_) == 0, 1))
		return false;
	/* Relaxed: nested; the outermost lock did the ordering. */
	rcu_atomic_store(&r->ctr, c + 1, memory_order_relaxed);
	return true;
}

/* The outermost rcu_read_lock(): snapshot the counter, then fence. */
static inline void rcu_ctr_read_lock_outermost_(struct rcu_reader_ *r,
						struct rcu_gp_ *gp, bool fenced)
{
	/* Acquire: pairs with the seq_cst increment in gp_run() (src/gp.c,
	 * note 2); a section that snapshots the new counter sees what was
	 * unlinked before it. Relaxed slot store: ordered before the
	 * section's reads by the fence below (note 3). */
	rcu_atomic_store(&r->ctr,
			 rcu_atomic_load(&gp->ctr, memory_order_acquire) + 1,
			 memory_order_relaxed);
	/* The snapshot is visible before the section's first read; pairs
	 * with flavour_fence_all_readers() after the increment in gp_run()
	 * (note 3). */
	rcu_ctr_reader_fence_(gp, fenced);
}

/*
 * After a slot store and the fence, a writer asleep: whether c held up the
 * target its grace period waits for: the snapshot of a section that
 * unlock ends (memb, bp, mb), or a QSBR slot's value before a quiescent
 * state or going offline. A section that began after the grace period's
 * increment, or a slot already at its target, is not waited for, so it
 * does not wake the writer (each wake costs the writer a rescan and a
 * fence_all_readers() before it sleeps again).
 */
static inline bool rcu_ctr_holds_up_gp_(uint64_t c, struct rcu_gp_ *gp)
{
	/* Acquire: pairs with the release store of futex = -1 in
	 * gp_wait_for_readers() (src/gp.c, note 5); the target stored before
	 * it, wait_target (or a later grace period's), is seen below. */
	return rcu_atomic_load(&gp->futex, memory_order_acquire) == -1 &&
	       /* Relaxed: ordered by the acquire above. */
	       c < rcu_atomic_load(&gp->wait_target, memory_order_relaxed);
}

/* rcu_read_unlock(); wake is the flavour's wake_writer_(). */
static inline void rcu_ctr_read_unlock_(struct rcu_reader_ *r,
					struct rcu_gp_ *gp, bool fenced,
					void (*wake)(void))
{
	/* Relaxed: the thread's own slot, as in the lock. */
	uint64_t c = rcu_atomic_load(&r->ctr, memory_order_relaxed);

	if (__builtin_expect((c & RCU_NEST_MASK_) != 1, 0)) {
		/* Relaxed: still nested; the outermost unlock orders. */
		rcu_atomic_store(&r->ctr, c - 1, memory_order_relaxed);
		return;
	}
	/* Release: the section's reads are done before a grace period sees it
	 * end; pairs with the acquire scan in registry_sweep()
	 * (src/registry.c; src/gp.c, note 4). */
	rcu_atomic_store(&r->ctr, 0, memory_order_release);
	/* The store is visible before the futex load (a sleeping writer's flag
	 * store and our store must not pass each other); pairs with
	 * flavour_fence_all_readers() after the futex store in
	 * gp_wait_for_readers() (note 5). */
	rcu_ctr_reader_fence_(gp, fenced);
	/* Relaxed: ordered after the slot store by the fence above; the
	 * wake-up's own ordering is the release swap in wake_writer_(). */
	if (__builtin_expect(rcu_atomic_load(&gp->futex,
					     memory_order_relaxed) == -1, 0) &&
	    rcu_ctr_holds_up_gp_(c, gp))
		wake();
}

/* The read-side nesting depth of r's thread. */
static inline unsigned long rcu_ctr_nesting_(struct rcu_reader_ *r)
{
	/* Relaxed: the thread's own slot. */
	return (unsigned long)(rcu_atomic_load(&r->ctr, memory_order_relaxed) &
			       RCU_NEST_MASK_);
}

RCU_TSAN_FENCES_END_

#endif /* RCU_READER_H */
