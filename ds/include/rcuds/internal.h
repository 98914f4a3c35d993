/* SPDX-License-Identifier: MIT */
/**
 * \file
 * \brief What the queue and stack headers share; not API (every name here
 * ends in an underscore and may change).
 *
 * - rcuds_wait_step_(): one step of a bounded wait for a link that a
 *   concurrent enqueue or push has promised but not yet stored. It spins
 *   with rcu_cpu_relax() a few times, then sleeps 1 ms a step, so a waiter
 *   never busy-spins for long behind a preempted writer.
 * - rcuds_full_barrier_before_rmw_(): makes the read-modify-write that
 *   follows a full barrier, as liburcu documents its enqueue and push.
 * - rcuds_mutex_lock_() and rcuds_mutex_unlock_(), the internal mutexes: a failure aborts
 *   with a message naming the call (it means a destroyed or corrupt lock).
 * - RCUDS_MUTANT_(m), the hook of each mutant (a rule broken on purpose,
 *   which tests/test_ds_history.c must catch): 0 unless a test defines it
 *   before including the first queue or stack header.
 * - RCUDS_TRANSPARENT_UNION_ and RCUDS_CXX_CASTS_: the union of either
 *   kind of head or stack pointer, transparent in C, built by overloaded
 *   casts in C++.
 *
 * It also brings the queue and stack headers what they all use:
 * <pthread.h>, <stdbool.h>, <stddef.h>, <stdio.h>, <stdlib.h> and
 * <rcu/atomic.h>.
 */
#ifndef RCUDS_INTERNAL_H
#define RCUDS_INTERNAL_H

#ifndef RCUDS_MUTANT_
#define RCUDS_MUTANT_(m) 0
#endif

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/atomic.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the union of either kind of head or stack pointer transparent in
 * C: the functions that take it accept either pointer. C++ has no such
 * union: RCUDS_CXX_CASTS_ builds it for the overloads. */
#ifndef __cplusplus
#define RCUDS_TRANSPARENT_UNION_ __attribute__((__transparent_union__))
#else
#define RCUDS_TRANSPARENT_UNION_
#endif

/* Spins before the first sleep of a wait. */
#define RCUDS_WAIT_SPINS_	128
/* Each sleep of a wait, in milliseconds. */
#define RCUDS_WAIT_SLEEP_MS_	1

/*
 * One step of a wait for a link still being stored. Returns false at once
 * for a nonblocking caller (it reports "would block"); otherwise relaxes or
 * sleeps and returns true (try again). *attempt starts at 0.
 */
static inline bool rcuds_wait_step_(unsigned *attempt, bool blocking)
{
	if (!blocking)
		return false;
	if (++*attempt < RCUDS_WAIT_SPINS_) {
		rcu_cpu_relax();
	} else {
		(void)poll(NULL, 0, RCUDS_WAIT_SLEEP_MS_);
		*attempt = 0;
	}
	return true;
}

/*
 * Before a seq_cst exchange or compare-and-swap that must be a full
 * barrier (every access before it ordered before every access after). On
 * x86 the locked instruction already is one; on ARM64 and POWER the
 * load-linked/store-conditional loop is not, hence the fence there (as
 * rcu_xchg_pointer() in <rcu/pointer.h>).
 */
#if defined(__x86_64__) || defined(__i386__)
static inline void rcuds_full_barrier_before_rmw_(void)
{
	rcu_compiler_barrier();
}
#else
static inline void rcuds_full_barrier_before_rmw_(void)
{
	/* Seq_cst fence: with the seq_cst RMW that follows, a full barrier,
	 * as rcu_xchg_pointer() is; pairs with the caller's users' own
	 * fences (liburcu documents enqueue and push as full barriers). */
	rcu_fence(memory_order_seq_cst);
}
#endif

static inline void rcuds_mutex_lock_(pthread_mutex_t *lock, const char *call)
{
	if (pthread_mutex_lock(lock) != 0) {
		fprintf(stderr, "rcuds: %s: pthread_mutex_lock failed\n", call);
		abort();
	}
}

static inline void rcuds_mutex_unlock_(pthread_mutex_t *lock, const char *call)
{
	if (pthread_mutex_unlock(lock) != 0) {
		fprintf(stderr, "rcuds: %s: pthread_mutex_unlock failed\n", call);
		abort();
	}
}

static inline void rcuds_mutex_init_(pthread_mutex_t *lock, const char *call)
{
	if (pthread_mutex_init(lock, NULL) != 0) {
		fprintf(stderr, "rcuds: %s: pthread_mutex_init failed\n", call);
		abort();
	}
}

static inline void rcuds_mutex_destroy_(pthread_mutex_t *lock, const char *call)
{
	if (pthread_mutex_destroy(lock) != 0) {
		fprintf(stderr, "rcuds: %s: pthread_mutex_destroy failed (still locked?)\n",
			call);
		abort();
	}
}

#ifdef __cplusplus
}

/*
 * C++ has no transparent union: cast(p) builds the union ptr_t from a
 * pointer to either kind (plain_t, its member plain; locked_t, its member
 * locked) or from the union itself, for the overloads of each header.
 */
#define RCUDS_CXX_CASTS_(cast, ptr_t, plain_t, plain, locked_t, locked)	\
	static inline ptr_t cast(struct plain_t *p)			\
	{								\
		ptr_t ret;						\
		ret.plain = p;						\
		return ret;						\
	}								\
	static inline ptr_t cast(struct locked_t *p)			\
	{								\
		ptr_t ret;						\
		ret.locked = p;						\
		return ret;						\
	}								\
	static inline ptr_t cast(ptr_t p)				\
	{								\
		return p;						\
	}
#endif

#endif /* RCUDS_INTERNAL_H */
