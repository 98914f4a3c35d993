/* SPDX-License-Identifier: MIT */
/*
 * qsbr.c - the QSBR flavour's own exported functions (quiescent state,
 * offline, online) and its hooks for the shared code. (Its flavour object
 * is lifecycle.c's.)
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
 * Owns: no data.
 *
 * Relies on: registry.c (self_reader), gpstate.c (self_gp, wake_writer_(),
 * through the inline functions of <rcu/qsbr.h>), debug.c. Called by gp.c,
 * thread.c, call_rcu.c and lifecycle.c, never calling them.
 */
#define _GNU_SOURCE
#include "internal.h"

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

void flavour_reader_online(void)
{
	rcu_qsbr_thread_online_inline_();
}

void flavour_reader_offline(void)
{
	rcu_qsbr_thread_offline_inline_();
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

bool flavour_fence_is_heavy(void)
{
	return false;
}

/* Nothing to choose at start-up or to redo in a fork child: QSBR readers
 * always fence. */
void flavour_init(void)
{
}

void flavour_fork_child(void)
{
}
