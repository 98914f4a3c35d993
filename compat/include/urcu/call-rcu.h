/* SPDX-License-Identifier: MIT */
/*
 * urcu/call-rcu.h (lfht's liburcu compatibility layer) - liburcu's
 * call_rcu API: call_rcu(), rcu_barrier(), the call_rcu_data functions as
 * single-worker equivalents, and the URCU_CALL_RCU_* flags. As in liburcu,
 * the functions are given once per translation unit, under the prefix of
 * the first flavour header included (urcu_memb_call_rcu(),
 * urcu_memb_barrier(), urcu_memb_get_default_call_rcu_data() ...), which
 * includes this file again for them; the short names are the flavour's
 * map's, under URCU_API_MAP.
 *
 * Differs from liburcu: lfht runs exactly one call_rcu worker per flavour,
 * started on first use, and every callback goes to it. So:
 * - create_call_rcu_data(flags, cpu) starts no thread: it returns the
 *   flavour's worker (flags and CPU affinity are ignored), which is also
 *   what get_default_call_rcu_data() and get_call_rcu_data() return: one
 *   handle per flavour, the same in every file;
 * - call_rcu_data_free() frees nothing (the worker lives on; callbacks
 *   already queued still run);
 * - set_thread_call_rcu_data() and set_cpu_call_rcu_data() record nothing
 *   (the latter still refuses a CPU number out of range with -EINVAL and
 *   errno EINVAL, as liburcu does), so
 *   get_thread_call_rcu_data() and get_cpu_call_rcu_data() return NULL ("no
 *   worker of its own"); create_all_cpu_call_rcu_data() returns 0 and
 *   free_all_cpu_call_rcu_data() does nothing;
 * - call_rcu_before_fork(), call_rcu_after_fork_parent() and
 *   call_rcu_after_fork_child() do nothing: lfht's pthread_atfork handlers
 *   already make fork() safe (in the child the worker starts again on the
 *   first call_rcu(); callbacks queued before fork() run in the parent);
 * - no get_call_rcu_thread() (the worker's pthread_t is lfht's own).
 * The handles are never dereferenced: struct call_rcu_data stays opaque.
 */
#ifndef LFHT_URCU_CALL_RCU_H
#define LFHT_URCU_CALL_RCU_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <rcu/flavour.h>	/* struct rcu_head */
#include <urcu/wfcqueue.h>	/* as liburcu's, whose rcu_head holds a node */

struct call_rcu_data;

#define URCU_CALL_RCU_RT	(1U << 0)
#define URCU_CALL_RCU_RUNNING	(1U << 1)
#define URCU_CALL_RCU_STOP	(1U << 2)
#define URCU_CALL_RCU_STOPPED	(1U << 3)
#define URCU_CALL_RCU_PAUSE	(1U << 4)
#define URCU_CALL_RCU_PAUSED	(1U << 5)

#endif /* LFHT_URCU_CALL_RCU_H */

/* The functions, once a flavour header (which includes this file again at
 * its end) has chosen the flavour. */
#if defined(LFHT_URCU_NAME_) && !defined(LFHT_URCU_CALL_RCU_FUNCTIONS_)
#define LFHT_URCU_CALL_RCU_FUNCTIONS_ 1

static inline void LFHT_URCU_NAME_(call_rcu)(struct rcu_head *head,
					     void (*func)(struct rcu_head *head))
{
	LFHT_URCU_LFHT_(call_rcu)(head, func);
}

static inline void LFHT_URCU_NAME_(barrier)(void)
{
	LFHT_URCU_LFHT_(barrier)();
}

/* The flavour's one worker: named by the address of the flavour's lfht
 * object, which is the same in every translation unit. */
static inline struct call_rcu_data *LFHT_URCU_NAME_(get_default_call_rcu_data)(void)
{
	return (struct call_rcu_data *)(uintptr_t)&LFHT_URCU_LFHT_(flavour);
}

static inline struct call_rcu_data *LFHT_URCU_NAME_(get_call_rcu_data)(void)
{
	return LFHT_URCU_NAME_(get_default_call_rcu_data)();
}

static inline struct call_rcu_data *LFHT_URCU_NAME_(get_thread_call_rcu_data)(void)
{
	return NULL;
}

static inline struct call_rcu_data *LFHT_URCU_NAME_(get_cpu_call_rcu_data)(int cpu)
{
	(void)cpu;
	return NULL;
}

static inline struct call_rcu_data *LFHT_URCU_NAME_(create_call_rcu_data)(unsigned long flags,
									 int cpu_affinity)
{
	(void)flags;
	(void)cpu_affinity;
	return LFHT_URCU_NAME_(get_default_call_rcu_data)();
}

static inline void LFHT_URCU_NAME_(call_rcu_data_free)(struct call_rcu_data *crdp)
{
	(void)crdp;
}

static inline void LFHT_URCU_NAME_(set_thread_call_rcu_data)(struct call_rcu_data *crdp)
{
	(void)crdp;
}

static inline int LFHT_URCU_NAME_(set_cpu_call_rcu_data)(int cpu, struct call_rcu_data *crdp)
{
	(void)crdp;
	if (cpu < 0 || cpu >= sysconf(_SC_NPROCESSORS_CONF)) {
		errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}

static inline int LFHT_URCU_NAME_(create_all_cpu_call_rcu_data)(unsigned long flags)
{
	(void)flags;
	return 0;
}

static inline void LFHT_URCU_NAME_(free_all_cpu_call_rcu_data)(void)
{
}

static inline void LFHT_URCU_NAME_(call_rcu_before_fork)(void)
{
}

static inline void LFHT_URCU_NAME_(call_rcu_after_fork_parent)(void)
{
}

static inline void LFHT_URCU_NAME_(call_rcu_after_fork_child)(void)
{
}

#endif /* LFHT_URCU_CALL_RCU_FUNCTIONS_ */
