/* SPDX-License-Identifier: MIT */
/*
 * urcu/defer.h (lfht's liburcu compatibility layer) - defer_rcu(), the
 * deferred reclamation of liburcu (experimental there), over lfht's
 * rcu_retire(): defer_rcu(fct, p) runs fct(p) after a grace period, on the
 * calling thread, inside one of its later defer_rcu() calls (liburcu's may
 * too, when its queue is full), or, for a thread not registered with the
 * flavour, on its call_rcu worker. rcu_defer_register_thread() and
 * rcu_defer_unregister_thread() are no-ops (returning 0); rcu_defer_barrier()
 * and rcu_defer_barrier_thread() run the calling thread's pending ones
 * (rcu_retire_barrier()) and then wait for the worker's (rcu_barrier()).
 * As <urcu/call-rcu.h>'s, the functions come once per translation unit,
 * under the prefix of the first flavour header included
 * (urcu_memb_defer_rcu() ...), which includes this file again; defer_rcu
 * and the rest are its map's short names, under URCU_API_MAP.
 *
 * Differs from liburcu: no defer thread of its own, no per-thread queue
 * (each defer_rcu() takes a small record from the thread's pool, which its
 * batches refill as they run; out of memory, it waits for a grace period
 * and runs fct(p) at once, as liburcu does when its queue is full); the
 * barriers wait for every call_rcu() callback queued before them, not only
 * the deferred ones. Like liburcu's, defer_rcu() must not run inside a
 * read-side critical section.
 */
#ifndef LFHT_URCU_DEFER_H
#define LFHT_URCU_DEFER_H

#include <pthread.h>
#include <stdlib.h>

#include <rcu/flavour.h>

#endif /* LFHT_URCU_DEFER_H */

/* The functions, once a flavour header (which includes this file again at
 * its end) has chosen the flavour. */
#if defined(LFHT_URCU_NAME_) && !defined(LFHT_URCU_DEFER_FUNCTIONS_)
#define LFHT_URCU_DEFER_FUNCTIONS_ 1

#ifdef __cplusplus
extern "C" {
#endif

/* A registered thread runs its own (rcu_retire(): later, inside its own
 * defer_rcu() calls), as liburcu's defer_rcu() may; others' go to the
 * call_rcu worker. */
static inline void LFHT_URCU_NAME_(defer_rcu)(void (*fct)(void *p), void *p)
{
	LFHT_URCU_LFHT_(retire_defer_)(fct, p);
}

static inline int LFHT_URCU_NAME_(defer_register_thread)(void)
{
	return 0;
}

static inline void LFHT_URCU_NAME_(defer_unregister_thread)(void)
{
}

/* This thread's deferred calls (rcu_retire_barrier(), which also waits
 * for those it handed to the worker), then every call_rcu() callback. */
static inline void LFHT_URCU_NAME_(defer_barrier)(void)
{
	LFHT_URCU_LFHT_(retire_barrier)();
	LFHT_URCU_LFHT_(barrier)();
}

static inline void LFHT_URCU_NAME_(defer_barrier_thread)(void)
{
	LFHT_URCU_NAME_(defer_barrier)();
}

#ifdef __cplusplus
}
#endif

#endif /* LFHT_URCU_DEFER_FUNCTIONS_ */
