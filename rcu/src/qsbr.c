/* SPDX-License-Identifier: MIT */
/*
 * qsbr.c - the QSBR flavour's exported functions, its flavour object and
 * its hooks for the shared code.
 *
 * A registered thread's slot holds the counter it saw at its last quiescent
 * state (online) or 0 (offline); the inline fast paths in <rcu/qsbr.h>
 * maintain it. The read side is empty: a grace period waits for quiescent
 * states, not for sections to end.
 *
 * Ordering: the inline quiescent_state / thread_online / thread_offline
 * carry the reader halves of notes 2-5 of gp.c. Here only: the fence hook is
 * a plain seq_cst fence, because QSBR readers fence themselves whenever
 * their slot changes (they can afford it: it happens once per quiescent
 * state, not per section).
 *
 * Relies on: registry.c, gp.c, call_rcu.c, <rcu/qsbr.h>.
 */
#define _GNU_SOURCE
#include "internal.h"

void rcu_qsbr_register_thread(void)
{
	registry_add_self("rcu_register_thread");
	/* A registered thread starts online. */
	rcu_qsbr_thread_online_inline_();
}

void rcu_qsbr_unregister_thread(void)
{
	rcu_check_outside_section_("rcu_unregister_thread");
	if (!self_reader.registered)
		return;
	/* Offline first, so a grace period waiting on us can finish. */
	rcu_qsbr_thread_offline_inline_();
	registry_remove_self();
}

void rcu_qsbr_read_lock(void)
{
	rcu_read_lock();
}

void rcu_qsbr_read_unlock(void)
{
	rcu_read_unlock();
}

int rcu_qsbr_read_ongoing(void)
{
	return rcu_read_ongoing();
}

/*
 * The flavour ops: flavour-agnostic callers (liblfht) use them on any
 * thread, so an unregistered thread is no misuse here, just not a reader.
 */
void rcu_qsbr_quiescent_state(void)
{
	if (!self_reader.registered)
		return;
	rcu_check_outside_section_("rcu_quiescent_state");
	rcu_qsbr_quiescent_state_inline_();
}

void rcu_qsbr_thread_offline(void)
{
	if (!self_reader.registered)
		return;
	rcu_check_outside_section_("rcu_thread_offline");
	rcu_qsbr_thread_offline_inline_();
}

void rcu_qsbr_thread_online(void)
{
	if (!self_reader.registered)
		return;
	rcu_qsbr_thread_online_inline_();
}

void rcu_qsbr_synchronize_rcu(void)
{
	bool was_online;

	rcu_check_outside_section_("synchronize_rcu");
	was_online = flavour_wait_begin();
	gp_synchronize();
	flavour_wait_end(was_online);
}

bool flavour_wait_begin(void)
{
	/* Relaxed: the thread's own slot; only it stores there. */
	if (rcu_atomic_load(&self_reader.ctr, memory_order_relaxed) == 0)
		return false;
	rcu_qsbr_thread_offline_inline_();
	return true;
}

void flavour_wait_end(bool was_online)
{
	if (was_online)
		rcu_qsbr_thread_online_inline_();
}

void flavour_fence_all_readers(void)
{
	/* Pairs with the seq_cst fences of the inline quiescent_state,
	 * thread_online and thread_offline (gp.c notes 3 and 5). */
	rcu_fence(memory_order_seq_cst);
}

void flavour_fork_child(void)
{
}

const struct rcu_flavour rcu_flavour = {
	.name = "qsbr",
	.read_lock = rcu_qsbr_read_lock,
	.read_unlock = rcu_qsbr_read_unlock,
	.read_ongoing = rcu_qsbr_read_ongoing,
	.quiescent_state = rcu_qsbr_quiescent_state,
	.thread_offline = rcu_qsbr_thread_offline,
	.thread_online = rcu_qsbr_thread_online,
	.register_thread = rcu_qsbr_register_thread,
	.unregister_thread = rcu_qsbr_unregister_thread,
	.synchronize_rcu = rcu_qsbr_synchronize_rcu,
	.call_rcu = rcu_qsbr_call_rcu,
	.barrier = rcu_qsbr_barrier,
};
