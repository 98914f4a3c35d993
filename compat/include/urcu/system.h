/* SPDX-License-Identifier: MIT */
/*
 * urcu/system.h (lfht's liburcu compatibility layer) - CMM_LOAD_SHARED and
 * CMM_STORE_SHARED (and their _CMM_ twins): single accesses to shared
 * variables that the compiler may neither tear, merge nor repeat.
 *
 * Differs from liburcu: relaxed __atomic loads and stores rather than
 * volatile ones (same code on the supported targets, and ThreadSanitizer
 * sees them as atomic), so the variable must be an integer or a pointer.
 * CMM_STORE_SHARED yields the value stored, as in liburcu. <urcu/compiler.h>
 * and <urcu/arch.h> come too, as from liburcu's header.
 */
#ifndef LFHT_URCU_SYSTEM_H
#define LFHT_URCU_SYSTEM_H

#include <urcu/compiler.h>
#include <urcu/arch.h>

/* Relaxed: liburcu documents no ordering for these; callers order them with
 * cmm_smp_* fences or rcu_dereference/rcu_assign_pointer. */
#define _CMM_LOAD_SHARED(p)	__atomic_load_n(&(p), __ATOMIC_RELAXED)
#define CMM_LOAD_SHARED(p)	_CMM_LOAD_SHARED(p)

/* Relaxed: as CMM_LOAD_SHARED. */
#define _CMM_STORE_SHARED(x, v)						\
	__extension__ ({						\
		__typeof__(x) lfht_urcu_stored_ = (v);			\
		__atomic_store_n(&(x), lfht_urcu_stored_, __ATOMIC_RELAXED); \
		lfht_urcu_stored_;					\
	})
#define CMM_STORE_SHARED(x, v)	_CMM_STORE_SHARED(x, v)

#endif /* LFHT_URCU_SYSTEM_H */
