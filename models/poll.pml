/*
 * poll.pml - polled grace periods (rcu_retire()): a retiring thread that
 * unlinks an object, takes a ticket and polls without a lock, and, with
 * -DSECOND_POLLER, a second thread that polls at the same time. Included
 * by gp.pml in place of its synchronize_rcu() updater when the flavour
 * model is built with -DPOLL, so the readers are the flavour model's own
 * (memb.pml, qsbr.pml).
 *
 * Models (by function name, as of commit b1dbb4e):
 *   rcu/src/gp.c        gp_ticket_take() (release fetch_add of
 *                       gp_requested), gp_poll_advance() (acquire load of
 *                       gp_requested: covered K, then the seq_cst fetch_add
 *                       of the counter: target T), gp_poll_covered() and
 *                       gp_raise() (release CAS-max of
 *                       gp_completed), gp_ticket_done() (acquire load)
 *   rcu/src/registry.c  registry_poll_floor(): one acquire load of each
 *                       reader's slot, the lowest nonzero one (no reader
 *                       holds up a target at or below it)
 *   rcu/src/gp.c        gp_poll_fence() and gp_fence_readers() (memb:
 *                       acquire load of gp_fenced; when it is below the
 *                       wanted target, acquire load of the counter C,
 *                       membarrier, release CAS-max of gp_fenced to C)
 *   rcu/src/retire.c    retire_seal(), retire_poll() (advance, fence every
 *                       reader or share a fence, scan for the floor, raise
 *                       the covered ticket of the newest of the thread's
 *                       advances whose target is at or below both the
 *                       floor and the fenced counter), retire_run_done()
 *   rcu/src/qsbr.c, rcu/src/memb.c  flavour_fence_all_readers()
 *
 * Threads besides the flavour model's two readers and the drainer:
 *   updater  seals a batch of other callbacks (ticket, first poll), then
 *            unlinks the object (ptr = 0, a buffered store), seals the
 *            object's batch (ticket tk, second poll, which may find the
 *            first advance's target clear and not the second's), and runs
 *            the batch, poisoning the object, if gp_completed >= tk;
 *   poller   (-DSECOND_POLLER) another retiring thread: one seal (ticket,
 *            poll), whose increment may fall between the updater's
 *            increment and its scan, and whose raise may cover the
 *            updater's ticket. The updater then seals only the object's
 *            batch, unless -DTWO_SEALS (memb: 71 million states, over a
 *            minute; kept out of the suite).
 * Both are registered threads outside any section (memb) or offline
 * (QSBR): their slots hold 0, which no scan waits for, so the model leaves
 * them out. The slot table's registration and removal protocol
 * (registry_slot_claim(), registry_slot_release()) and the floor 0 of a
 * scan that cannot tell are not modelled: every reader is registered and
 * slotted throughout.
 *
 * Shared fences (memb's membarrier only): a poll wants a fence after the
 * counter reached the target of one of its advances, RETIRE_FENCE_LAG
 * back in the code (or its newest, when it has made no such advance);
 * here either of its two, chosen nondeterministically, so every lag is
 * covered. The poller's fence may serve the updater.
 *
 * Memory: gp.pml's. The updater's stores are buffered (wb_ptr, wb_obj);
 * its ticket, its increment and its raise are RMWs and drain them first.
 * The poller makes no plain store. flavour_fence_all_readers(): memb's
 * membarrier (MEMBARRIER, defined by memb.pml) drains every thread, the
 * updater included, whoever calls it; QSBR's fence and memb's fence mode
 * drain the caller's own buffers only, and the RMWs before them already
 * have, so there the poll's fence adds nothing the model can see (its C11
 * role is in docs/memory-ordering.md).
 *
 * Property: the flavour model's assertion (a reader that took the pointer
 * before the unlink never finds the object poisoned), i.e. the callback
 * never runs while a reader that could have seen the object still holds
 * it; and no invalid end state. gp_done is set when the updater is done,
 * freed or not (qsbr.pml's reader 0 loops until then).
 *
 * Mutants (each must be refuted):
 *   MUTANT_POLL_SKIPS_READER  the scan ignores the first reader that would
 *                             lower the floor (the code's
 *                             RCU_MUTANT_POLL_SKIPS_READER);
 *   MUTANT_POLL_NO_FENCE      the poll does not fence every reader after
 *                             its increment (memb: no membarrier): a
 *                             section whose snapshot is still buffered
 *                             shows 0 to the scan;
 *   MUTANT_POLL_LATE_COVERED  gp_poll_advance() loads gp_requested after
 *                             its increment: it covers a ticket taken
 *                             after a reader snapshotted the new counter
 *                             and took the pointer;
 *   MUTANT_POLL_WRONG_COVERED when only the older advance's target is at
 *                             or below the floor, the newest advance's
 *                             covered ticket is raised (taken after the
 *                             older increment);
 *   MUTANT_POLL_FENCED_LATE   memb: gp_fence_readers() loads the counter
 *                             after its membarrier, so a poll whose
 *                             increment came after that fence skips its
 *                             own (with SECOND_POLLER);
 *   MUTANT_POLL_IGNORES_FENCED memb: a poll that shared a fence takes the
 *                             floor alone for clear, also for a target
 *                             that fence did not come after.
 */

byte gp_requested;		/* the newest ticket handed out */
byte gp_completed;		/* the newest ticket a grace period covered */
byte gp_fenced;			/* every reader fenced since the counter was this */

#define UPDATER	0
#define POLLER	1

/* The caller's buffered stores reach memory: only the updater has any. */
inline own_drain(me)
{
	if
	:: me == UPDATER -> w_drain_all()
	:: else
	fi
}

/* flavour_fence_all_readers() called by me. */
inline poll_fence(me)
{
#ifdef MEMBARRIER
	fence_all_readers()
#else
	own_drain(me)
#endif
}

/*
 * gp_poll_fence(wanted): f becomes a counter value that every reader has
 * been fenced after, at or above wanted (note 9 of gp.c). QSBR and the
 * fence mode fence the caller, after loading the counter.
 */
inline poll_fence_shared(me, wanted, f)
{
#ifdef MEMBARRIER
	f = gp_fenced;			/* acquire */
	if
	:: f >= wanted
	:: else ->
#ifndef MUTANT_POLL_FENCED_LATE
		f = gp_ctr;		/* acquire */
#endif
#ifndef MUTANT_POLL_NO_FENCE
		poll_fence(me);
#endif
#ifdef MUTANT_POLL_FENCED_LATE
		f = gp_ctr;
#endif
		/* Release CAS-max (an RMW: drains me's buffers). */
		atomic {
			own_drain(me);
			gp_fenced = (gp_fenced < f -> f : gp_fenced)
		}
	fi
#else
	f = gp_ctr;			/* acquire */
#ifndef MUTANT_POLL_NO_FENCE
	poll_fence(me);
#endif
#endif
}

/* gp_ticket_take(): release fetch_add (an RMW: drains me's buffers). */
inline ticket_take(me, t)
{
	atomic {
		own_drain(me);
		gp_requested = gp_requested + 1;
		t = gp_requested
	}
}

/* gp_poll_advance(): k the covered ticket, t the target. */
inline poll_advance(me, t, k)
{
#ifndef MUTANT_POLL_LATE_COVERED
	k = gp_requested;		/* acquire */
#endif
	/* The seq_cst fetch_add (an RMW: drains me's buffers). */
	atomic {
		own_drain(me);
		gp_ctr = gp_ctr + GP_STEP;
		t = gp_ctr
	};
#ifdef MUTANT_POLL_LATE_COVERED
	k = gp_requested;
#endif
}

#define FLOOR_NONE	255	/* UINT64_MAX: no reader in a section */

/* registry_poll_floor(): one acquire load of each slot; the lowest nonzero
 * value, which every target at or below it is clear of (no reader holds it
 * up: reader_holds_up()). */
inline poll_floor(floor, skipped, i, c)
{
	floor = FLOOR_NONE;
	i = 0;
	do
	:: i < NR ->
		c = rctr[i];		/* acquire */
		if
		:: c != 0 && c < floor ->
#ifdef MUTANT_POLL_SKIPS_READER
			if
			:: !skipped -> skipped = 1
			:: else -> floor = c
			fi
#else
			floor = c
#endif
		:: else
		fi;
		i++
	:: else -> break
	od;
	skipped = 0;
	i = 0;
	c = 0
}

/* gp_poll_covered(covered): gp_raise(), a release CAS-max (one
 * RMW: drains me's buffers). */
inline poll_covered(me, covered)
{
	atomic {
		own_drain(me);
		gp_completed = (gp_completed < covered -> covered : gp_completed)
	}
}

/*
 * retire_poll(): t2, k2 the newest advance's target and covered ticket
 * (set here), t1, k1 the one before (target 0: none; the code remembers
 * RETIRE_SEALED of them, the model's threads make at most two). The
 * newest advance whose target is at or below the floor is a grace period.
 */
inline retire_poll(me, t1, k1, t2, k2, floor, f, skipped, i, c)
{
	t1 = t2;
	k1 = k2;
	poll_advance(me, t2, k2);
	/* The wanted target: the newest, or the older one (any lag). */
	if
	:: c = t2
	:: t1 != 0 -> c = t1
	fi;
	poll_fence_shared(me, c, f);
	c = 0;
	poll_floor(floor, skipped, i, c);
#ifndef MUTANT_POLL_IGNORES_FENCED
	/* clear = min(floor, fenced) */
	floor = (f < floor -> f : floor);
#endif
	f = 0;
	if
	:: t2 <= floor -> poll_covered(me, k2)
	:: else ->
		if
		:: t1 != 0 && t1 <= floor ->
#ifdef MUTANT_POLL_WRONG_COVERED
			poll_covered(me, k2)
#else
			poll_covered(me, k1)
#endif
		:: else
		fi
	fi;
	floor = 0;
	t1 = 0;
	k1 = 0
}

/* The retiring thread: (a seal of other callbacks,) the unlink, the
 * object's seal, its run. */
active proctype updater()
{
	byte tk, t1, k1, t2, k2, floor, f, i, c;
	bit skipped;

#if !defined(SECOND_POLLER) || defined(TWO_SEALS)
	ticket_take(UPDATER, tk);
	retire_poll(UPDATER, t1, k1, t2, k2, floor, f, skipped, i, c);
#endif
	W_STORE(wb_ptr_full, ptr, wb_ptr_val, 0);
	ticket_take(UPDATER, tk);
	retire_poll(UPDATER, t1, k1, t2, k2, floor, f, skipped, i, c);
	t2 = 0;
	k2 = 0;
	/* retire_run_done(): gp_ticket_done(tk), an acquire load. */
	if
	:: gp_completed >= tk ->
		gp_done = 1;
		W_STORE(wb_obj_full, obj, wb_obj_val, POISON)
	:: else -> gp_done = 1
	fi
}

#ifdef SECOND_POLLER
/* Another retiring thread: one seal of callbacks of its own. */
active proctype poller()
{
	byte tk, t1, k1, t2, k2, floor, f, i, c;
	bit skipped;

	ticket_take(POLLER, tk);
	retire_poll(POLLER, t1, k1, t2, k2, floor, f, skipped, i, c);
	tk = 0;
	t2 = 0;
	k2 = 0
}
#endif
