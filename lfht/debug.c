/* SPDX-License-Identifier: MIT */
/*
 * lfht/debug.c - the misuse checks of RCU_DEBUG_CHECKS builds: the RCU
 * state each cds_lfht_* call asks of its caller, the count of calls in
 * flight that lets cds_lfht_destroy() see a call still running, and the
 * report, one line on stderr, "lfht: <call>: <rule>", then abort().
 *
 * Owns nothing shared but each table's debug_calls counter, a statistic of
 * debug builds: relaxed, since the misuse it catches (a destroy racing
 * another call) has no happens-before to order by; it sees the calls that
 * have visibly begun and not ended.
 *
 * The entry points (table.c, iter.c, resize.c) reach these through the
 * inline helpers of internal.h, which compile to nothing without
 * RCU_DEBUG_CHECKS. lfht_check_reader_() is exported, and checks in every
 * build: the inline lookups of <lfht/lfht.h> call it when their caller is
 * compiled with RCU_DEBUG_CHECKS.
 *
 * Calls the flavour's thread_state op (rcu/flavour.h) only.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

_Noreturn void lfht_misuse(const char *call, const char *rule)
{
	fprintf(stderr, "lfht: %s: %s\n", call, rule);
	fflush(stderr);
	abort();
}

_Noreturn void lfht_invariant_broken(const char *what)
{
	lfht_misuse("invariant", what);
}

/* QSBR's read side is being online; memb's, being inside rcu_read_lock(). */
static bool flavour_is_qsbr(const struct rcu_flavour *f)
{
	return strcmp(f->name, "qsbr") == 0;
}

void lfht_check_reader_(struct cds_lfht *ht, const char *call)
{
	const struct rcu_flavour *f = ht->flavour;
	unsigned state;

	/* liburcu's rules (the layer's tables): no section asked of a caller
	 * that alone reaches the table. */
	if (ht->flags & LFHT_URCU_RULES_)
		return;
	state = f->thread_state();
	if (state & RCU_THREAD_READER)
		return;
	if (!flavour_is_qsbr(f))
		lfht_misuse(call, "not inside a read-side critical section");
	if (!(state & RCU_THREAD_REGISTERED))
		lfht_misuse(call, "not inside a read-side critical section "
			    "(QSBR: thread not registered)");
	lfht_misuse(call, "not inside a read-side critical section (QSBR: thread offline)");
}

void lfht_debug_require_outside(struct cds_lfht *ht, const char *call, bool callback_ok)
{
	unsigned state = ht->flavour->thread_state();

	if (!(state & RCU_THREAD_REGISTERED))
		lfht_misuse(call, "thread not registered");
	if (state & RCU_THREAD_IN_SECTION)
		lfht_misuse(call, "called inside a read-side critical section");
	if (!callback_ok && (state & RCU_THREAD_IN_CALLBACK))
		lfht_misuse(call, "called from a call_rcu callback");
}

void lfht_debug_require_idle(struct cds_lfht *ht, const char *call)
{
	/* Relaxed: see the top comment. */
	if (rcu_atomic_load(&ht->debug_calls, memory_order_relaxed) != 0)
		lfht_misuse(call, "another call on the table is still running");
}

void lfht_debug_require_added(const struct cds_lfht_node *node, const char *call)
{
	/* Relaxed: the caller's read-side section keeps node; only the exact
	 * word cds_lfht_node_init() stored is looked for, and no add, del or
	 * replace ever stores it (a removal sets REMOVAL_OWNER too). */
	if (rcu_atomic_load((_Atomic(uintptr_t) *)&node->next, memory_order_relaxed) ==
	    lfht_removed_word_(0, 0))
		lfht_misuse(call, "node was never added to a table (cds_lfht_node_init)");
}

void lfht_debug_calls_add(struct cds_lfht *ht, long delta)
{
	/* Relaxed: see the top comment. */
	rcu_atomic_add(&ht->debug_calls, delta, memory_order_relaxed);
}
