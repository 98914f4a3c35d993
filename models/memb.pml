/*
 * memb.pml - the memb flavour's grace period: nested read-side sections
 * whose ctr word holds snapshot + nesting, the membarrier that stands in for
 * the readers' fences, the updater's scan and its futex sleep.
 *
 * Models the reader with the nesting merged into the ctr word (by
 * function name):
 *   rcu/include/rcu/memb.h  rcu_memb_read_lock_fast_(),
 *                           rcu_memb_read_unlock_fast_()
 *   rcu/include/rcu/reader.h  rcu_ctr_read_lock_outermost_(),
 *                           rcu_ctr_read_unlock_(), rcu_ctr_reader_fence_()
 *   rcu/src/memb.c          flavour_fence_all_readers()
 *   rcu/src/gp.c            the updater side, through gp.pml; with -DPOLL,
 *                           polled grace periods (rcu_retire()) instead,
 *                           through poll.pml (its own header)
 *   lock:   c = own ctr; if (c & 0xffff) == 0: ctr = load(gp.ctr) + 1,
 *           else ctr = c + 1; then the reader fence.
 *   unlock: c = own ctr; if (c & 0xffff) == 1: ctr = 0 (release), reader
 *           fence, load futex; on -1 load it again (acquire) and the
 *           target the updater sleeps for (wait_target), and
 *           wake_writer_() if still -1 and c < wait_target (the section
 *           began before that increment: rcu_ctr_holds_up_gp_()); else
 *           ctr = c - 1.
 *   gp:     gp.ctr += STEP (seq_cst), membarrier, scan for
 *           ctr == 0 || ctr >= target; sleep as in gp.pml.
 *
 * Abstractions: STEP is 4 instead of 2^16 (nesting 0..3; the readers nest
 * at most 2 deep), the counter starts at STEP and one grace period runs, so
 * it never wraps. Two readers: reader 0 nests one section in another,
 * reader 1 runs one section. membarrier() is a full barrier on the caller
 * and then, one reader at a time, a drain of that reader's buffer: the IPI
 * (or the context switch of a reader that is not running) runs a full
 * barrier between two of its instructions. With -DFENCE_MODE the readers
 * drain their own buffer at the reader fence (RCU_MEMB_FORCE_FENCES) and
 * the updater's fence covers only itself.
 *
 * Properties: the assertion (a reader that took the pointer before it was
 * unpublished never finds the object poisoned, i.e. every section that
 * began before synchronize_rcu() has ended when it returns); no invalid end
 * state (no lost wake-up: a sleeping updater is always woken by the last
 * reader to leave); with -DCHECK_PROGRESS, <> gp_done under weak fairness.
 *
 * Mutants (each must be refuted):
 *   MUTANT_NO_GP_FENCE       gp_run() skips the membarrier after the
 *                            increment: a section that stored its snapshot
 *                            but not yet drained it is not waited for;
 *   MUTANT_NO_SLEEP_FENCE    no membarrier between futex = -1 and the
 *                            rescan: lost wake-up;
 *   MUTANT_UNLOCK_FUTEX_FIRST unlock loads futex before it stores ctr = 0
 *                            (two steps swapped): lost wake-up;
 *   MUTANT_NESTED_RESNAPSHOT a nested lock refreshes the snapshot
 *                            (ctr = gp.ctr + nesting + 1): the outer
 *                            section is no longer waited for;
 *   MUTANT_NO_RESCAN         the updater sleeps without rescanning after
 *                            futex = -1 (gp.pml): lost wake-up;
 *   MUTANT_RELAXED_SNAPSHOT  the lock's load of gp.ctr is relaxed, so the
 *                            section's first load may run before it (load
 *                            reordering written out in reader 1): a
 *                            section holding an old pointer snapshots the
 *                            new counter;
 *   MUTANT_RELAXED_UNLOCK    the unlock's store of 0 is relaxed, so the
 *                            section's last load may run after it (written
 *                            out in reader 1): the updater frees what the
 *                            reader is still reading;
 *   MUTANT_EARLY_CTR_LOAD    the unlock loads wait_target for its wake
 *                            test before it stores ctr = 0: it may compare
 *                            with the target before the updater stored it,
 *                            decide it holds nothing up and not wake the
 *                            updater that sleeps waiting for it (lost
 *                            wake-up).
 */

#define NR	2
#define STEP	4
#define GP_INIT	STEP
#define GP_STEP	STEP

/* flavour_fence_all_readers() is membarrier() (poll.pml asks too). */
#ifndef FENCE_MODE
#define MEMBARRIER
#endif

inline fence_all_readers()
{
	w_drain_all();
#ifdef MEMBARRIER
	r_drain(0);
	r_drain(1);
#endif
}

#include "gp.pml"

/* rcu_ctr_reader_fence_(): a compiler barrier under membarrier. */
inline reader_fence(me)
{
#ifdef FENCE_MODE
	r_drain(me)
#else
	skip
#endif
}

inline read_lock(me, c, g)
{
	r_load_own(me, c);
	if
	:: c % STEP == 0 ->
		g = gp_ctr;		/* acquire */
		r_store(me, g + 1)
	:: else ->
#ifdef MUTANT_NESTED_RESNAPSHOT
		g = gp_ctr;
		r_store(me, g + c % STEP + 1)
#else
		r_store(me, c + 1)
#endif
	fi;
	reader_fence(me);
	c = 0;
	g = 0
}

/* s holds the section's snapshot, g the counter it is compared with. */
inline read_unlock(me, c, s, g)
{
	r_load_own(me, c);
	if
	:: c % STEP == 1 ->
		s = c;
#ifdef MUTANT_EARLY_CTR_LOAD
		g = wait_target;
#endif
#ifdef MUTANT_UNLOCK_FUTEX_FIRST
		c = futex;
		r_store(me, 0);		/* release */
		reader_fence(me);
#else
		r_store(me, 0);		/* release */
		reader_fence(me);
		c = futex;
#endif
		if
		:: c == -1 ->
			/* rcu_ctr_holds_up_gp_(): futex again (acquire),
			 * then the counter. */
			c = futex;
#ifndef MUTANT_EARLY_CTR_LOAD
			g = wait_target;
#endif
			if
			:: c == -1 && s < g -> wake_writer(me, c)
			:: else
			fi
		:: else
		fi
	:: else -> r_store(me, c - 1)
	fi;
	c = 0;
	s = 0;
	g = 0
}

/* A dereference inside a section: load the pointer, later the object. */
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
	byte g, s;
	bit p;
	byte v;

	read_lock(0, c, g);
	p = ptr;
	read_lock(0, c, g);
	read_unlock(0, c, s, g);
	read_obj(p, v);
	read_unlock(0, c, s, g)
}

active proctype reader1()
{
	short c;
	byte g, s;
	bit p;
	byte v;

	/*
	 * Loads run in program order here; the two mutants below write out
	 * the reordering that a relaxed counter load or a relaxed slot store
	 * at unlock would allow.
	 */
#ifdef MUTANT_RELAXED_SNAPSHOT
	p = ptr;		/* passes the relaxed load of gp.ctr */
	read_lock(1, c, g);
#else
	read_lock(1, c, g);
	p = ptr;
#endif
#ifdef MUTANT_RELAXED_UNLOCK
	r_load_own(1, c);
	r_store(1, 0);		/* relaxed: the load below passes it */
	read_obj(p, v);
	c = futex;
	if
	:: c == -1 -> wake_writer(1, c)
	:: else
	fi
#else
	read_obj(p, v);
	read_unlock(1, c, s, g)
#endif
}
