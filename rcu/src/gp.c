/* SPDX-License-Identifier: MIT */
/*
 * gp.c - grace periods of one flavour: serialising and sharing them between
 * concurrent synchronize_rcu() callers, advancing the counter, and waiting
 * for readers (spin briefly, then sleep on a futex).
 *
 * Owns: the grace-period lock and the request/completion tickets, and the
 * only writes of the counter and of the futex's -1 (self_gp itself and the
 * readers' wake-up, wake_writer_(), are defined in gpstate.c, below the
 * flavour hooks that read them).
 *
 * Memory ordering (the RCU-core part of docs/memory-ordering.md):
 *
 *  1. The counter. self_gp.ctr starts at RCU_GP_STEP_ and only grows, by
 *     RCU_GP_STEP_ per grace period, with a seq_cst fetch_add (gp_run); a
 *     memb reader's slot adds its nesting depth (< RCU_GP_STEP_) to its
 *     snapshot (rcu/reader.h). A grace period with target T = the new value
 *     waits until every registered reader shows ctr == 0 (quiescent) or
 *     ctr >= T (its current section, or its time since its last quiescent
 *     state, began after the increment).
 *
 *  2. Why one phase. liburcu flips a one-bit phase twice because a reader's
 *     snapshot only keeps the parity, and a parity read before one flip
 *     looks current again after the next. Here the reader's snapshot is the
 *     whole 64-bit counter: a snapshot taken before the increment is < T for
 *     ever (no wrap in 2^48 grace periods), so it is never mistaken for a
 *     new one, and a snapshot >= T was loaded (acquire, pairing with the
 *     increment's release half) after the increment, so that reader already
 *     sees every pointer the updater unlinked before calling
 *     synchronize_rcu(). A reader preempted between loading the counter and
 *     storing its snapshot stores an old value (< T) and is waited for. One
 *     scan per grace period therefore suffices.
 *
 *  3. Readers that show 0. A reader whose slot store is not yet visible to
 *     the scan might be about to read. The updater's side: increment, then
 *     flavour_fence_all_readers() (QSBR, memb fence mode: a seq_cst fence;
 *     memb: membarrier, a full fence on every running thread), then the
 *     scan. The reader's side: slot store, then a fence (QSBR online: seq_cst
 *     fence; memb: compiler barrier standing in for the membarrier IPI, or a
 *     seq_cst fence), then its reads. Of the two fences one comes first: if
 *     the updater's, the reader's reads see the unlink; if the reader's, the
 *     scan sees its nonzero snapshot.
 *
 *  4. Readers leaving. The slot store of 0 (unlock, offline) and of a new
 *     counter (quiescent state) is a release; the scan (registry_sweep(),
 *     registry.c) loads it with acquire.
 *     So everything the reader did in its section happens before the
 *     updater returns from synchronize_rcu() and frees.
 *
 *  5. Sleeping. The updater stores futex = -1, fences (as in 3), scans once
 *     more, and only then sleeps while futex == -1. A reader stores its
 *     slot, fences (as in 3), and loads futex; on -1 it swaps in 0 and wakes
 *     the updater. The fences forbid both missing each other, so no wake-up
 *     is lost; the swap makes one reader pay for the syscall. A reader
 *     wakes only if it held up the counter the updater waits for,
 *     wait_target, stored before the -1 (the -1 store is release, the
 *     reader's load of it acquire, so it compares with that target or a
 *     later grace period's; rcu_ctr_holds_up_gp_()): a memb, bp or mb
 *     section that began before it, a QSBR slot below it before the store.
 *     Others are not waited for: waking for
 *     them made the updater fence and rescan once per section ended (a
 *     hundred times a grace period with two busy readers), and, compared
 *     with the counter itself, which polls (rcu_retire(), note 8) move on
 *     while the updater sleeps, once per poll: 11-30 thousand context
 *     switches a second with 2 readers and 2 retiring writers on 2 CPUs
 *     (lfht-bench pool-replace), 1.1-1.5 thousand with wait_target.
 *
 *  6. Sharing. Callers take a ticket with a release fetch_add on
 *     gp_requested; the caller that runs a grace period loads the newest
 *     ticket with acquire before it increments the counter. Every increment
 *     of gp_requested is a read-modify-write, so that load synchronizes
 *     with every ticket up to the one it reads (a release sequence): every
 *     ticket it covers was taken, and its caller's unlinks done, before the
 *     increment. A caller whose ticket is already covered by gp_completed
 *     returns, also while it waits for the lock (gp_lock_unless_done()).
 *
 *  7. Polling (poll.c). A ticket is also the cookie of rcu_poll_start(),
 *     taken without waiting; gp_ticket_done() says whether a grace period
 *     that covered it has ended. gp_completed is stored with release after
 *     the scan (whose acquire loads saw every covered reader leave) and
 *     loaded with acquire by the poll, so a caller that sees its ticket
 *     covered also sees every reader that held it up gone, as
 *     synchronize_rcu()'s own caller does.
 *
 *  8. Polled grace periods (retire.c), without the grace-period lock or the
 *     registry lock. gp_poll_advance() reads the newest ticket (acquire,
 *     as note 6, so every covered caller's unlinks happen before) and then
 *     increments the counter (seq_cst, as note 2); the caller then fences
 *     every reader (as note 3) and gp_poll_floor() scans the registered
 *     readers through registry_poll_floor() (registry.c: acquire loads of
 *     each slot, as note 4, with no lock; a reader registering or
 *     unregistering meanwhile is either seen or could not have seen what
 *     was unlinked) for the lowest snapshot a reader holds. No reader
 *     holds up a target at or below it, so every ticket covered by an
 *     advance whose target is that low is done: gp_poll_covered()
 *     publishes it (gp_raise(): release, note 7), and
 *     synchronize_rcu() (acquire) skips what a poll already ended. The
 *     floor serves every earlier advance too: the fence came after all of
 *     their increments. Increments by others may come between a poll's own
 *     and its scan; each is followed by its own fence, and a reader that
 *     holds up a target holds up every later one too, so the scan stays
 *     sound.
 *
 *  9. Shared fences (memb and bp: one membarrier() interrupts every running
 *     CPU). gp_fence_readers() loads the counter (acquire, pairing with the
 *     release half of every increment up to the value C it reads: each is
 *     an RMW, so a release sequence), fences every reader, and raises
 *     gp_fenced to C (release). A poll that loads gp_fenced >= its target
 *     T (acquire, pairing with that raise) may scan without a fence of its
 *     own: its increment and its covered callers' unlinks happen before
 *     the load of C, so before the fence; a reader's barrier in that fence
 *     came either before its slot store (its reads then see the unlinks)
 *     or after it (the store then happens before the raise and so before
 *     the scan), as with the poll's own fence in note 3. Loading C after
 *     the fence would be wrong: an increment between the two would count
 *     as fenced (models/poll.pml, MUTANT_POLL_FENCED_LATE). QSBR and the
 *     fence mode fence only the caller and never raise gp_fenced.
 *
 * Relies on: registry.c (the lock, the sweep of the list onto a private
 * "done" list and back: gp.c never links a reader itself), gpstate.c
 * (self_gp), qsbr.c/memb.c (fence and wait hooks), futex.h.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "futex.h"
#include "internal.h"

/*
 * Spins (pause hints) before a waiting updater sleeps: about 0.3 to 4 us
 * (a pause is 3 to 40 ns, by CPU), enough for running readers that were
 * about to report. Kept short because when threads outnumber CPUs the
 * spinner keeps a reader off its CPU: with 1000 spins (26 us on the test
 * machine) QSBR synchronize_rcu with 2 busy readers on 2 CPUs took 30 us
 * (median), with 100 it takes 7 us. Sleeping lets that reader run, and
 * its wake-up puts the updater back on the CPU at once.
 */
#define GP_SPINS 100

/*
 * One grace period at a time; gp_completed is written under it. A futex
 * lock, not a pthread mutex: fork() does not take it (see gp_fork_child),
 * so the child must be able to reset it from any state, which POSIX does not
 * allow for a mutex. 0 free, 1 held, 2 held with sleepers.
 */
static _Atomic int32_t gp_lock_word;
/* The newest ticket covered by an ended grace period; written under the
 * grace-period lock, read without it by gp_ticket_done() (note 7). */
static _Atomic uint64_t gp_completed;
/* The newest ticket handed out (gp_ticket_take()); only grows. */
static _Atomic uint64_t gp_requested;
/* Every reader has passed a full barrier since the counter reached this
 * value (note 9); raised after each membarrier(), 0 in the other flavours
 * and modes. */
static _Atomic uint64_t gp_fenced;

/* *p = max(*p, value): grace periods, polls and fences end in any order. */
static void gp_raise(_Atomic uint64_t *p, uint64_t value)
{
	/* Relaxed: only the first guess; the CAS checks it. */
	uint64_t seen = rcu_atomic_load(p, memory_order_relaxed);

	/* Release: after what the caller did (gp_completed: the scan's
	 * acquire loads, note 7; gp_fenced: the fence, note 9); pairs with
	 * the acquire loads in gp_ticket_done(), gp_synchronize() and
	 * gp_poll_fence(). Relaxed on failure: seen is retried. */
	while (seen < value &&
	       !rcu_atomic_cas(p, &seen, value, memory_order_release,
			       memory_order_relaxed))
		;
}

/* flavour_fence_all_readers(), after the counter reached the value
 * returned (note 9). */
static uint64_t gp_fence_readers(void)
{
	/* Acquire: pairs with the release half of every increment of the
	 * counter up to the value read (note 9). */
	uint64_t through = rcu_atomic_load(&self_gp.ctr, memory_order_acquire);

	flavour_fence_all_readers();
	if (flavour_fence_is_heavy())
		gp_raise(&gp_fenced, through);
	return through;
}

/*
 * Called and returns with registry_lock() held; drops it to sleep. The
 * readers that no longer hold up target wait on done, this grace period's
 * private list, until the end (registry.c), so each is loaded once.
 */
static void gp_wait_for_readers(uint64_t target)
{
	struct rcu_reader_ done = READER_LIST_INIT(done);

	for (unsigned spins = 0;; spins++) {
		if (registry_sweep(&done, target))
			break;
		if (spins < GP_SPINS) {
			rcu_cpu_relax();
			continue;
		}
		/* Relaxed: published by the release store below. */
		rcu_atomic_store(&self_gp.wait_target, target, memory_order_relaxed);
		/* Release: pairs with the acquire reload in
		 * rcu_ctr_holds_up_gp_() (rcu/reader.h): a reader that sees -1
		 * sees target in wait_target (or a later grace period's).
		 * Ordered before the rescan by the fence below. */
		rcu_atomic_store(&self_gp.futex, -1, memory_order_release);
		/* Pairs with the readers' fence between slot store and futex
		 * load (note 5). */
		flavour_fence_all_readers();
		if (registry_sweep(&done, target)) {
			/* Relaxed: only withdraws the sleep; a reader that
			 * saw -1 swaps in 0 too, and the scan orders the rest. */
			rcu_atomic_store(&self_gp.futex, 0, memory_order_relaxed);
			break;
		}
		registry_unlock();
		futex_wait(&self_gp.futex, -1);
		/* Acquire: pairs with the release swap in wake_writer_()
		 * (gpstate.c), so the waker's slot store is seen by the rescan
		 * (note 5). */
		(void)rcu_atomic_load(&self_gp.futex, memory_order_acquire);
		registry_lock();
	}
	registry_restore(&done);
}

static void gp_run(void)
{
	registry_lock();
	/*
	 * Nobody else registered: no section can be running, and a thread
	 * that registers later takes registry_lock() after we drop it, which
	 * orders the caller's unlinks before its reads.
	 */
	if (registry_has_other()) {
		/* Seq_cst: its release half pairs with the acquire loads of the
		 * counter in quiescent_state/thread_online/read_lock (note 2). */
		uint64_t target = rcu_atomic_add(&self_gp.ctr, RCU_GP_STEP_,
						 memory_order_seq_cst) + RCU_GP_STEP_;
		/* Pairs with the reader's fence after its slot store (note 3);
		 * polls may share it (note 9). */
		(void)gp_fence_readers();
		gp_wait_for_readers(target);
	}
	registry_unlock();
}

/*
 * Takes the lock, or returns false without it once ticket is done: a
 * holder that gives the lock back and takes it again at once (a thread
 * looping on synchronize_rcu()) can win it over a woken waiter every
 * time, and its grace periods cover the waiter's ticket (rcu-test-churn:
 * two threads looping on synchronize_rcu() completed none in the 20 ms
 * that a third one completed 90 thousand).
 */
static bool gp_lock_unless_done(uint64_t ticket)
{
	int32_t c = 0;

	/* Acquire (the CAS's success and both exchanges): pairs with the
	 * release in gp_unlock(); the previous holder's grace period and
	 * gp_completed are visible. Relaxed on failure: c only picks the
	 * next step, and the exchange that then takes the lock acquires. */
	if (rcu_atomic_cas(&gp_lock_word, &c, 1, memory_order_acquire,
			   memory_order_relaxed))
		return true;
	if (c != 2)
		c = rcu_atomic_xchg(&gp_lock_word, 2, memory_order_acquire);
	while (c != 0) {
		/* Leaving the word at 2 costs the holder one spare wake. */
		if (gp_ticket_done(ticket))
			return false;
		futex_wait(&gp_lock_word, 2);
		c = rcu_atomic_xchg(&gp_lock_word, 2, memory_order_acquire);
	}
	return true;
}

static void gp_unlock(void)
{
	/* Release: pairs with the acquires in gp_lock_unless_done(). */
	if (rcu_atomic_xchg(&gp_lock_word, 0, memory_order_release) == 2)
		futex_wake(&gp_lock_word, 1);
}

uint64_t gp_ticket_take(void)
{
	/* Release: the caller's unlinks before its ticket; pairs with the
	 * acquire loads of gp_requested in gp_synchronize() and
	 * gp_poll_advance(): every increment is a read-modify-write, so a
	 * load of a later value synchronizes with this one too (a release
	 * sequence; note 6). */
	return rcu_atomic_add(&gp_requested, 1, memory_order_release) + 1;
}

bool gp_ticket_done(uint64_t ticket)
{
	/* Acquire: pairs with the release CAS in gp_raise(); the
	 * readers the covering grace period waited for are gone (note 7). */
	return rcu_atomic_load(&gp_completed, memory_order_acquire) >= ticket;
}

void gp_synchronize(void)
{
	uint64_t ticket = gp_ticket_take(), covered;

	if (!gp_lock_unless_done(ticket))
		return;
	/* Covered meanwhile by the previous holder, or by a poll that ended a
	 * grace period without the lock (note 8). */
	if (!gp_ticket_done(ticket)) {
		/* Acquire: pairs with the release of every gp_ticket_take()
		 * up to covered (note 6). */
		covered = rcu_atomic_load(&gp_requested, memory_order_acquire);
		gp_run();
		gp_raise(&gp_completed, covered);
	}
	gp_unlock();
}

uint64_t gp_poll_advance(uint64_t *covered)
{
	/* Acquire: pairs with the release of every gp_ticket_take() up to
	 * covered (note 8). */
	*covered = rcu_atomic_load(&gp_requested, memory_order_acquire);
	/* Seq_cst: its release half pairs with the acquire loads of the
	 * counter in the read side, as in gp_run() (notes 2 and 8). */
	return rcu_atomic_add(&self_gp.ctr, RCU_GP_STEP_, memory_order_seq_cst) +
	       RCU_GP_STEP_;
}

uint64_t gp_poll_fence(uint64_t wanted)
{
	/* Acquire: pairs with the release raise in gp_fence_readers(): that
	 * fence came after the counter reached wanted and before our scan
	 * (note 9). */
	uint64_t fenced = rcu_atomic_load(&gp_fenced, memory_order_acquire);

	if (fenced >= wanted)
		return fenced;
	return gp_fence_readers();
}

uint64_t gp_poll_floor(void)
{
	return registry_poll_floor();
}

void gp_poll_covered(uint64_t covered)
{
	gp_raise(&gp_completed, covered);
}

void gp_synchronize_rcu(void)
{
	bool was_online;

	rcu_check_outside_section_("synchronize_rcu");
	/* QSBR: our own grace period must not wait for us. */
	was_online = flavour_wait_begin();
	gp_synchronize();
	flavour_wait_end(was_online);
}

/*
 * fork: the grace-period lock may be held for long by a grace period
 * waiting on the forking thread itself, so it is not taken; the child,
 * where that grace period's thread does not exist, resets it. The tickets
 * are atomics, copied as they were.
 */
void gp_fork_child(void)
{
	/* The only thread: no concurrent access. */
	rcu_atomic_store(&gp_lock_word, 0, memory_order_relaxed);
	rcu_atomic_store(&self_gp.futex, 0, memory_order_relaxed);
}
