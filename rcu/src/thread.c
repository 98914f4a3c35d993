/* SPDX-License-Identifier: MIT */
/*
 * thread.c - a thread's registration and unregistration in one flavour:
 * the bodies of rcu_register_thread() and rcu_unregister_thread() (their
 * exported names are lifecycle.c's), for every flavour.
 *
 * Owns: the policy around registry.c's membership, no data. Joining: a
 * thread joins the registry once (in debug builds a second
 * rcu_register_thread() is misuse, except in bp, where any thread may have
 * joined already by its first rcu_read_lock()); it joins by registry_add()
 * under the lock, or in bp by bp_join() (lock-free, signal-safe); its exit
 * hook is then armed; QSBR puts it online. Leaving: outside a section only;
 * QSBR goes offline first, so a grace period waiting on the thread can
 * finish; then registry_remove() and the exit hook disarmed.
 *
 * Relies on: registry.c (add, remove, exit hook), bp.c (bp's join),
 * qsbr.c/memb.c (online/offline hooks), debug.c.
 */
#define _GNU_SOURCE
#include "internal.h"

/* The calling thread (r: its reader state, not registered) joins: the
 * flavour's policy (bp's is bp.c's), chosen at compile time. */
static void thread_join(struct rcu_reader_ *r)
{
#if FLAVOUR_JOINS_IMPLICITLY
	bp_join(r);
#else
	registry_add(r);
	registry_arm_exit_hook(r);
#endif
}

void thread_register(void)
{
	struct rcu_reader_ *r = &self_reader;

	rcu_check_(r->registered && !FLAVOUR_JOINS_IMPLICITLY,
		   "rcu_register_thread", "thread already registered");
	if (r->registered)
		return;
	thread_join(r);
	/* bp: on the registry now, not at the next grace period: a pushed
	 * reader keeps lock-free polls from proving anything (registry.c). */
	if (FLAVOUR_JOINS_IMPLICITLY) {
		registry_lock();
		registry_unlock();
	}
	/* QSBR: a registered thread starts online. */
	flavour_reader_online();
}

void thread_unregister(void)
{
	struct rcu_reader_ *r = &self_reader;

	rcu_check_outside_section_("rcu_unregister_thread");
	if (!r->registered)
		return;
	/* QSBR: offline first, so a grace period waiting on us can finish. */
	flavour_reader_offline();
	registry_remove(r);
	registry_arm_exit_hook(NULL);
}
