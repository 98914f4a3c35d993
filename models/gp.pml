/*
 * gp.pml - the updater half of a grace period, shared by memb.pml and
 * qsbr.pml, and the weak-memory machinery both use.
 *
 * Models rcu/src/gp.c: gp_run() (the seq_cst increment by RCU_GP_STEP_
 * and the fence on all readers), gp_wait_for_readers() (scan, spin,
 * futex = -1, fence, rescan, withdraw or sleep), the scan it calls
 * (registry_sweep() of rcu/src/registry.c) and wake_writer_()
 * (rcu/src/gpstate.c), with the two futex calls of rcu/src/futex.h
 * (futex_wait() and futex_wake()). One synchronize_rcu() by one
 * updater: gp_lock and the tickets of gp_synchronize() (note 6) only
 * serialise and share grace periods and are left out, as is the registry
 * lock (readers never take it on their fast paths).
 *
 * Weak memory: every store a thread makes to shared memory enters a
 * one-slot buffer per (thread, variable) and reaches memory when the
 * drainer process below moves it, in any order between variables (stores
 * pass stores and loads, as C11 allows for relaxed stores and the weakest
 * of our targets does). A thread reads its own buffer first. A full fence
 * or a read-modify-write drains the thread's buffers. Loads execute in
 * program order: the acquire/release pairs (gp.c notes 2 and 4) are taken
 * as given, see docs/verification.md.
 *
 * The includer defines NR (2: the drainer is written for two readers),
 * GP_INIT, GP_STEP and fence_all_readers(). Mutants of the updater, named
 * in the includers' headers: MUTANT_NO_GP_FENCE, MUTANT_NO_SLEEP_FENCE,
 * MUTANT_NO_RESCAN, MUTANT_LATE_TARGET (wait_target stored after the
 * fence and the rescan, just before the sleep: a reader that passed its
 * fence after the updater's may see -1 with the old target, find it held
 * nothing up and not wake the updater). With -DPOLL the updater below gives way to poll.pml's
 * polled grace periods (rcu_retire()), against the same readers. With
 * -DADVANCE a poll's counter increment runs beside the updater (at any
 * point), so the counter may move past the target it sleeps for, and the
 * readers' wake test (against wait_target, gp.c note 5) is checked for
 * lost wake-ups there.
 */

#define POISON	2

byte gp_ctr = GP_INIT;		/* self_gp.ctr */
short futex;			/* self_gp.futex: 0 or -1 */
byte wait_target;		/* self_gp.wait_target */
byte rctr[NR];			/* each reader's ctr slot, in memory */
bit rb_full[NR];		/* each reader's buffered slot store */
byte rb_val[NR];

/* The object the updater unpublishes before synchronize_rcu() and poisons
 * (frees) after it returns. */
bit ptr = 1;
byte obj = 1;

/* The updater's buffered stores. */
bit wb_ptr_full; bit wb_ptr_val;
bit wb_futex_full; short wb_futex_val;
bit wb_obj_full; byte wb_obj_val;

bit w_sleeping;			/* the updater is inside futex_wait() */
bit gp_done;			/* synchronize_rcu() has returned */

/*
 * Conditional expressions, not if: an if that opens an option would lend
 * its guards (and an else that never runs) to the enclosing choice.
 */
inline r_drain(i)
{
	atomic {
		rctr[i] = (rb_full[i] -> rb_val[i] : rctr[i]);
		rb_full[i] = 0
	}
}

/* A store to one's own slot: an older buffered one reaches memory first
 * (coherence), then this one waits in the buffer. */
inline r_store(i, v)
{
	atomic {
		rctr[i] = (rb_full[i] -> rb_val[i] : rctr[i]);
		rb_val[i] = v;
		rb_full[i] = 1
	}
}

inline r_load_own(i, c)
{
	c = (rb_full[i] -> rb_val[i] : rctr[i])
}

#define W_DRAIN_ONE(full, mem, val) \
	mem = (full -> val : mem); full = 0

inline w_drain_all()
{
	atomic {
		W_DRAIN_ONE(wb_ptr_full, ptr, wb_ptr_val);
		W_DRAIN_ONE(wb_futex_full, futex, wb_futex_val);
		W_DRAIN_ONE(wb_obj_full, obj, wb_obj_val)
	}
}

#define W_STORE(full, mem, val, v) \
	atomic { W_DRAIN_ONE(full, mem, val); val = v; full = 1 }

/* Stores reach memory whenever this process gets to run. Written out for
 * the two readers both flavour models use (NR 2). */
active proctype drainer()
{
end:	do
	:: atomic { wb_ptr_full -> ptr = wb_ptr_val; wb_ptr_full = 0 }
	:: atomic { wb_futex_full -> futex = wb_futex_val; wb_futex_full = 0 }
	:: atomic { wb_obj_full -> obj = wb_obj_val; wb_obj_full = 0 }
	:: atomic { rb_full[0] -> rctr[0] = rb_val[0]; rb_full[0] = 0 }
	:: atomic { rb_full[1] -> rctr[1] = rb_val[1]; rb_full[1] = 0 }
	od
}

/* wake_writer_(): the release xchg (an RMW: drains the caller's buffer),
 * then futex_wake() when it took -1. */
inline wake_writer(me, old)
{
	atomic {
		r_drain(me);
		old = futex;
		futex = 0
	};
	if
	:: old == -1 -> w_sleeping = 0	/* futex_wake(&futex, 1) */
	:: else
	fi;
	old = 0
}

/* registry_sweep() (rcu/src/registry.c): one acquire load of each pending reader's slot. */
inline scan_readers(pending, target, i, c)
{
	i = 0;
	do
	:: i < NR ->
		if
		:: pending & (1 << i) ->
			c = rctr[i];
			if
			:: c == 0 || c >= target -> pending = pending & ~(1 << i)
			:: else
			fi
		:: else
		fi;
		i++
	:: else -> break
	od;
	i = 0;
	c = 0
}

/*
 * futex_wait(&futex, -1): the kernel loads the word after a full barrier
 * (the syscall's) and sleeps only if it still reads -1, atomically with
 * respect to futex_wake(). Spurious returns are not modelled (the caller
 * rescans after any return, so they only add paths that end the same way).
 */
inline futex_wait()
{
	atomic {
		w_drain_all();
		if
		:: futex == -1 -> w_sleeping = 1
		:: else
		fi
	};
	w_sleeping == 0
}

/* gp_wait_for_readers(target). */
inline wait_for_readers(pending, target, i, c)
{
	pending = (1 << NR) - 1;
	do
	:: scan_readers(pending, target, i, c);
		if
		:: pending == 0 -> break
		:: else
		fi;
		if
		:: skip		/* spins < GP_SPINS: rescan */
		:: /* wait_target = target (relaxed), published by the
		    * release store of -1: in memory before it. */
#ifndef MUTANT_LATE_TARGET
			wait_target = target;
#endif
			W_STORE(wb_futex_full, futex, wb_futex_val, -1);
#ifndef MUTANT_NO_SLEEP_FENCE
			fence_all_readers();
#endif
#ifndef MUTANT_NO_RESCAN
			scan_readers(pending, target, i, c);
#endif
			if
			:: pending == 0 ->
				W_STORE(wb_futex_full, futex, wb_futex_val, 0);
				break
			:: else
			fi;
#ifdef MUTANT_LATE_TARGET
			wait_target = target;
#endif
			futex_wait()
		fi
	od
}

#ifdef POLL
/* The updater and a second thread poll instead (rcu_retire()). */
#include "poll.pml"
#else
/* The updater: unpublish, synchronize_rcu(), free. */
active proctype updater()
{
	byte target, pending, i, c;

	W_STORE(wb_ptr_full, ptr, wb_ptr_val, 0);
	/* gp_run(): the seq_cst fetch_add (an RMW: drains our buffers). */
	atomic {
		w_drain_all();
		gp_ctr = gp_ctr + GP_STEP;
		target = gp_ctr
	};
#ifndef MUTANT_NO_GP_FENCE
	fence_all_readers();
#endif
	wait_for_readers(pending, target, i, c);
	gp_done = 1;
	W_STORE(wb_obj_full, obj, wb_obj_val, POISON)
}
#endif

#ifdef ADVANCE
/* A poll's advance (gp_poll_advance(), rcu_retire()): one more seq_cst
 * increment of the counter, at any point, so that it may pass the target
 * the updater sleeps for; the readers' wake test must still wake it. */
active proctype advancer()
{
	atomic { gp_ctr = gp_ctr + GP_STEP }
}
#endif

#ifdef CHECK_PROGRESS
/* Progress: under weak fairness, synchronize_rcu() returns. */
ltl progress { <> gp_done }
#endif
