/* SPDX-License-Identifier: MIT */
/**
 * \file rcuds/ref.h
 * \brief Reference counts (liburcu's urcu_ref_* names): an object lives
 * while its count is above zero, and the put that takes it to zero calls
 * the release function.
 *
 * Owns: struct urcu_ref's count. Invariants: the count never goes below
 * zero (a put that would take it there aborts) nor above LONG_MAX (a get
 * there fails: urcu_ref_get_safe() returns false, urcu_ref_get() aborts);
 * once it has reached zero, only urcu_ref_set() or urcu_ref_init() may
 * raise it again (urcu_ref_get_unless_zero() refuses).
 *
 * Relies on: the GCC/clang __atomic builtins. The count is a plain long,
 * as in liburcu (whose programs may read it with uatomic_read), so it is
 * reached through the builtins, which accept a plain object in C and C++
 * alike, rather than through <rcu/atomic.h>'s wrappers, which need an
 * _Atomic one in C. Each access names its order below.
 *
 * A get needs the object to exist for its duration: the caller holds a
 * reference already, or reads the object inside an RCU read-side section
 * and frees it only a grace period after the last put
 * (urcu_ref_get_unless_zero() is made for the latter).
 */
#ifndef RCUDS_REF_H
#define RCUDS_REF_H

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \brief A reference count; embed it in the counted object. */
struct urcu_ref {
	long refcount;	/**< The count: reach it only through the functions. */
};

/**
 * \brief Sets the count of \a ref to \a val.
 * \param ref The count.
 * \param val The new value (at least 0).
 * \ordering Relaxed: made visible to other threads by whatever publishes
 * the object (a release store, rcu_assign_pointer(), a mutex).
 */
static inline void urcu_ref_set(struct urcu_ref *ref, long val)
{
	__atomic_store_n(&ref->refcount, val, __ATOMIC_RELAXED);
}

/**
 * \brief Sets the count of \a ref to 1: the creator's reference.
 * \param ref The count.
 * \ordering Relaxed, as urcu_ref_set().
 */
static inline void urcu_ref_init(struct urcu_ref *ref)
{
	urcu_ref_set(ref, 1);
}

/* Adds one to the count unless it is LONG_MAX, or 0 when zero_fails
 * (internal). */
static inline bool urcu_ref_inc_(struct urcu_ref *ref, bool zero_fails)
{
	/* Relaxed: only the starting guess of the loop below. */
	long old = __atomic_load_n(&ref->refcount, __ATOMIC_RELAXED);

	for (;;) {
		if (old == LONG_MAX || (zero_fails && old == 0))
			return false;
		/* Acquire on success: what the holders that already put their
		 * references wrote is visible to the new holder; pairs with the
		 * release of their decrements in urcu_ref_put(). Relaxed on
		 * failure: old is only retried. */
		if (__atomic_compare_exchange_n(&ref->refcount, &old, old + 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	}
}

/**
 * \brief Takes a reference unless the count is already LONG_MAX.
 * \param ref The count; the object must exist for the call's duration.
 * \return true when the reference was taken, false at LONG_MAX (the
 * count is then unchanged). As in liburcu, a count of 0 is not refused:
 * see urcu_ref_get_unless_zero().
 * \ordering Acquire on success (pairs with urcu_ref_put()'s release).
 */
__attribute__((warn_unused_result))
static inline bool urcu_ref_get_safe(struct urcu_ref *ref)
{
	return urcu_ref_inc_(ref, false);
}

/**
 * \brief Takes a reference; aborts the process when the count is already
 * LONG_MAX (an overflow would be a use-after-free later).
 * \param ref The count; the object must exist for the call's duration.
 * \ordering As urcu_ref_get_safe().
 */
static inline void urcu_ref_get(struct urcu_ref *ref)
{
	if (!urcu_ref_get_safe(ref))
		abort();
}

/**
 * \brief Takes a reference unless the count is 0 (the object is being
 * released) or LONG_MAX.
 * \param ref The count; the object must exist for the call's duration,
 * which RCU gives an object found inside a read-side section and freed
 * a grace period after its last put.
 * \return true when the reference was taken.
 * \ordering Acquire on success (pairs with urcu_ref_put()'s release).
 */
static inline bool urcu_ref_get_unless_zero(struct urcu_ref *ref)
{
	return urcu_ref_inc_(ref, true);
}

/**
 * \brief Drops a reference; the put that takes the count to 0 calls
 * \a release(ref), which typically frees the object (after a grace period
 * if readers may still hold it). Aborts when the count was already 0.
 * \param ref The count.
 * \param release Called once, by the last put.
 * \ordering Acquire-release decrement: release() sees every holder's
 * writes.
 */
static inline void urcu_ref_put(struct urcu_ref *ref, void (*release)(struct urcu_ref *))
{
	/* Acquire-release. Release: this holder's accesses to the object
	 * happen before the count drops; pairs with this acquire in the last
	 * put, and with the acquire of urcu_ref_inc_(). Acquire: the last put
	 * sees every other holder's release decrement, so the release
	 * function runs after all their accesses (one acq_rel rather than a
	 * release and a fence, which ThreadSanitizer does not model). */
	long res = __atomic_sub_fetch(&ref->refcount, 1, __ATOMIC_ACQ_REL);

	if (res < 0)
		abort();
	if (res == 0)
		release(ref);
}

#ifdef __cplusplus
}
#endif

#endif /* RCUDS_REF_H */
