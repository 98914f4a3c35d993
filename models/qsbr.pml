/*
 * qsbr.pml - the QSBR flavour's grace period: quiescent states, going
 * offline and online, the updater's scan and its futex sleep.
 *
 * Models (by function name):
 *   rcu/include/rcu/qsbr.h  rcu_qsbr_quiescent_state_inline_(),
 *                           rcu_qsbr_thread_offline_inline_(),
 *                           rcu_qsbr_thread_online_inline_()
 *   rcu/src/qsbr.c          flavour_fence_all_readers(): a
 *                           seq_cst fence on the updater only
 *   rcu/src/gp.c            the updater side, through gp.pml; with -DPOLL,
 *                           polled grace periods (rcu_retire()) instead,
 *                           through poll.pml (its own header)
 *
 * Abstractions: the counter starts at 1 and steps by 1 (gp.c steps by
 * RCU_GP_STEP_; a QSBR slot holds no nesting bits, so that is the same); one
 * grace period runs. Two readers: reader 0 registers (which goes online)
 * and loops taking the pointer and announcing a quiescent state, like an
 * event loop, until synchronize_rcu() has returned, then goes offline; so
 * the updater depends on its quiescent states. Reader 1 comes online,
 * takes the pointer and goes offline. The updater is an unregistered
 * thread (an online caller goes offline first: reader 1's offline path). Read-side sections are empty in QSBR:
 * a pointer taken while online is valid until the next quiescent state.
 *
 * Properties: no reader finds the object it took poisoned (the
 * grace-period guarantee) and no invalid end state; with -DCHECK_PROGRESS,
 * <> gp_done under weak fairness, which is where a lost wake-up shows
 * here: reader 0 keeps running, so a sleeping updater that nobody wakes is
 * a cycle in which synchronize_rcu() never returns, not a deadlock.
 *
 * Mutants (each must be refuted; all but the first by the progress check):
 *   MUTANT_ONLINE_NO_FENCE   thread_online() without its fence: the
 *                            updater scans the slot as offline while the
 *                            reader already reads;
 *   MUTANT_OFFLINE_NO_FENCE  thread_offline() without its fence: slot
 *                            store and futex load pass each other, lost
 *                            wake-up;
 *   MUTANT_NO_SLEEP_FENCE    no fence between futex = -1 and the rescan
 *                            (gp.pml): lost wake-up;
 *   MUTANT_NO_RESCAN         the updater sleeps without rescanning after
 *                            futex = -1 (gp.pml): lost wake-up;
 *   MUTANT_QS_NO_FENCE       quiescent_state() without its fence: slot
 *                            store and futex load pass each other, the
 *                            updater sleeps for ever while reader 0 keeps
 *                            announcing;
 *   MUTANT_QS_NO_WAKE        quiescent_state() never wakes the updater;
 *   MUTANT_WAKE_BY_NEW_SLOT  quiescent_state()'s wake test compares the
 *                            slot it just stored, not the one before,
 *                            with wait_target: it never holds it up, so
 *                            nobody wakes the updater.
 */

#define NR	2
#define GP_INIT	1
#define GP_STEP	1

inline fence_all_readers()
{
	w_drain_all()
}

#include "gp.pml"

inline reader_fence(me)
{
	r_drain(me)
}

/* After a slot store: a sleeping updater is woken by the reader that lets
 * it go: rcu_ctr_holds_up_gp_(old), old the slot before the store (the
 * acquire load of futex, then wait_target). */
inline check_futex(me, c, old)
{
	c = futex;
	if
	:: c == -1 && old < wait_target -> wake_writer(me, c)
	:: else
	fi;
	c = 0
}

inline quiescent_state(me, c, g, old)
{
	g = gp_ctr;			/* acquire */
	r_load_own(me, old);
	if
	:: old != g ->
		r_store(me, g);		/* release */
#ifndef MUTANT_QS_NO_FENCE
		reader_fence(me);
#endif
#ifdef MUTANT_QS_NO_WAKE
		skip
#elif defined(MUTANT_WAKE_BY_NEW_SLOT)
		check_futex(me, c, g)
#else
		check_futex(me, c, old)
#endif
	:: else
	fi;
	c = 0;
	g = 0;
	old = 0
}

inline thread_offline(me, c, old)
{
	r_load_own(me, old);
	r_store(me, 0);			/* release */
#ifndef MUTANT_OFFLINE_NO_FENCE
	reader_fence(me);
#endif
	check_futex(me, c, old);
	old = 0
}

inline thread_online(me, g)
{
	g = gp_ctr;			/* acquire */
	r_store(me, g);
#ifndef MUTANT_ONLINE_NO_FENCE
	reader_fence(me);
#endif
	g = 0
}

inline read_obj(p, v)
{
	if
	:: p -> v = obj; assert(v != POISON)
	:: else
	fi;
	v = 0
}

active proctype reader0()
{
	short c;
	byte g, old;
	bit p;
	byte v;

	thread_online(0, g);		/* rcu_register_thread() */
	/* An event loop: it stays online, announcing quiescent states,
	 * until the grace period is over; then it unregisters. */
	do
	:: p = ptr;
		read_obj(p, v);
		quiescent_state(0, c, g, old)
	:: gp_done -> break
	od;
	thread_offline(0, c, old)
}

active proctype reader1()
{
	short c;
	byte g, old;
	bit p;
	byte v;

	thread_online(1, g);
	p = ptr;
	read_obj(p, v);
	thread_offline(1, c, old)
}
