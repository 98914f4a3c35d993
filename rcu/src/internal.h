/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the rcu sources share. Every source file is compiled
 * once per flavour library, with -DRCU_BUILD_QSBR, -DRCU_BUILD_MEMB,
 * -DRCU_BUILD_BP or -DRCU_BUILD_MB. This header picks that flavour's public
 * header and gives every internal name the flavour prefix (rcu_qsbr_*_ /
 * rcu_memb_*_ / rcu_bp_*_ / rcu_mb_*_), so the libraries can be linked,
 * even statically, into one program. Internal names are hidden
 * (gnu_symbol_visibility: hidden); only RCU_API names are exported.
 *
 * The units, bottom first: each calls (or uses the data of) only units
 * listed above it, never one below, so that no unit depends on itself
 * through others (tests/install/check-layering.py checks it on the built
 * objects; the shared data of this header is inline or macros):
 *   debug.c     the misuse report
 *   gpstate.c   the grace-period state the inline read side reads (counter,
 *               futex, fence mode) and the reader's wake-up of an updater
 *   registry.c  membership: the TLS reader state, the list of registered
 *               readers and its lock; every change to the list (locked
 *               add and remove, the lock-free push of bp, the grace
 *               period's sweep) and the thread-exit key
 *   qsbr.c      QSBR: its own exported functions and its hooks
 *   memb.c      memb, bp and mb: their hooks and the membarrier set-up
 *               (mb: fences only)
 *   bp.c        bp only: the signal-safe way a thread joins the registry
 *   gp.c        grace periods: batching callers, waiting for readers,
 *               tickets
 *   thread.c    a thread's registration and unregistration (the flavour's
 *               policy around registry.c's membership)
 *   call_rcu.c  call_rcu queue, its worker thread, rcu_barrier
 *   poll.c      polling grace periods
 *   retire.c    rcu_retire(): callbacks on the retiring thread, after
 *               grace periods its own polls find
 *   lifecycle.c the library's start-up (its one constructor), fork
 *               handlers, thread-exit hook, the exported entry points and
 *               the flavour object
 */
#ifndef RCU_SRC_INTERNAL_H
#define RCU_SRC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * FLAVOUR_JOINS_IMPLICITLY: whether any thread may read without having
 * registered, joining the registry on its first rcu_read_lock(), from any
 * context (bp; bp.c), rather than by rcu_register_thread() alone.
 */
#if defined(RCU_BUILD_QSBR)
#include <rcu/qsbr.h>
#define RCU_SYM_(name) rcu_qsbr_##name
#define FLAVOUR_NAME "qsbr"
#define FLAVOUR_JOINS_IMPLICITLY 0
#elif defined(RCU_BUILD_MEMB)
#include <rcu/memb.h>
#define RCU_SYM_(name) rcu_memb_##name
#define FLAVOUR_NAME "memb"
#define FLAVOUR_FORCE_FENCES_ENV "RCU_MEMB_FORCE_FENCES"
#define FLAVOUR_JOINS_IMPLICITLY 0
#elif defined(RCU_BUILD_BP)
#include <rcu/bp.h>
#define RCU_SYM_(name) rcu_bp_##name
#define FLAVOUR_NAME "bp"
#define FLAVOUR_FORCE_FENCES_ENV "RCU_BP_FORCE_FENCES"
#define FLAVOUR_JOINS_IMPLICITLY 1
#elif defined(RCU_BUILD_MB)
#include <rcu/mb.h>
#define RCU_SYM_(name) rcu_mb_##name
#define FLAVOUR_NAME "mb"
/* (No FLAVOUR_FORCE_FENCES_ENV: mb is always in fence mode, memb.c.) */
#define FLAVOUR_JOINS_IMPLICITLY 0
#else
#error "compile with -DRCU_BUILD_QSBR, -DRCU_BUILD_MEMB, -DRCU_BUILD_BP or -DRCU_BUILD_MB"
#endif

/*
 * The mutants of the retire stress test (rcu/tests/meson.build builds the
 * library again with -DRCU_TEST_MUTANT=<n> for them; never a shipped
 * build): each breaks one rule on purpose, and the test must fail.
 */
#define RCU_MUTANT_RETIRE_EARLY		1	/* a batch runs before its grace period ends */
#define RCU_MUTANT_POLL_SKIPS_READER	2	/* a poll ignores one reader that holds it up */
#define RCU_MUTANT_EXIT_DROPS_PENDING	3	/* an exiting thread drops its pending callbacks */
#ifndef RCU_TEST_MUTANT
#define RCU_TEST_MUTANT 0
#endif
#define rcu_mutant(m) (RCU_TEST_MUTANT == (m))

/* This flavour's exported state (rcu/reader.h). */
#define self_reader		RCU_SYM_(reader_)
#define self_gp			RCU_SYM_(gp_)
#define self_nesting		RCU_SYM_(nesting_)

#ifdef RCU_DEBUG_CHECKS
#define RCU_CHECKS_ON_ 1
#else
#define RCU_CHECKS_ON_ 0
#endif

/* debug.c: abort with "rcu: <call>: <rule>" when checks are on and bad. */
static inline void rcu_check_(bool bad, const char *call, const char *rule)
{
	if (RCU_CHECKS_ON_ && bad)
		RCU_SYM_(misuse_)(call, rule);
}

static inline void rcu_check_outside_section_(const char *call)
{
	rcu_check_(self_nesting() != 0, call,
		   "called inside a read-side critical section");
}

/* An empty list of readers (circular, with a sentinel), as the initialiser
 * of its head: struct rcu_reader_ done = READER_LIST_INIT(done). Only
 * registry.c links and unlinks readers. */
#define READER_LIST_INIT(head) { .next = &(head), .prev = &(head) }

/*
 * Whether a reader's slot value c still holds up a grace period whose
 * counter target is target (gp.c note 1): it is inside a section (memb) or
 * online (QSBR) since before the counter reached target. 0 is quiescent;
 * c >= target began after the increment.
 */
static inline bool reader_holds_up(uint64_t c, uint64_t target)
{
	return c != 0 && c < target;
}

/* gpstate.c: self_gp, wake_writer_ (exported, rcu/flavour-api.h). */

/* registry.c */
#define registry_lock		RCU_SYM_(registry_lock_)
#define registry_unlock		RCU_SYM_(registry_unlock_)
#define registry_add		RCU_SYM_(registry_add_)
#define registry_remove		RCU_SYM_(registry_remove_)
#define registry_push		RCU_SYM_(registry_push_)
#define registry_sweep		RCU_SYM_(registry_sweep_)
#define registry_poll_floor	RCU_SYM_(registry_poll_floor_)
#define registry_restore	RCU_SYM_(registry_restore_)
#define registry_has_other	RCU_SYM_(registry_has_other_)
#define registry_count		RCU_SYM_(registry_count_internal_)
#define registry_exit_key_init	RCU_SYM_(registry_exit_key_init_)
#define registry_arm_exit_hook	RCU_SYM_(registry_arm_exit_hook_)
#define registry_fork_prepare	RCU_SYM_(registry_fork_prepare_)
#define registry_fork_parent	RCU_SYM_(registry_fork_parent_)
#define registry_fork_child	RCU_SYM_(registry_fork_child_)
/* Takes the registry lock (bp: and moves every pushed reader onto the
 * list first, so every holder sees them all). */
void registry_lock(void);
void registry_unlock(void);
/* Puts r (the caller's reader state, not registered) on the list under the
 * lock and marks it registered. */
void registry_add(struct rcu_reader_ *r);
/* Takes r off whichever list it is on (the registry's, or a grace
 * period's "done" list) under the lock and marks it unregistered. */
void registry_remove(struct rcu_reader_ *r);
/* bp: the signal-safe, lock-free join: pushes r (the caller's reader
 * state, not registered) for the next registry_lock() to absorb and marks
 * it registered. The caller keeps its own signal handlers out. */
void registry_push(struct rcu_reader_ *r);
/* Under the lock: moves every registered reader that no longer holds up
 * target (reader_holds_up()) to done, a grace period's private list;
 * returns whether none is left on the registry. */
bool registry_sweep(struct rcu_reader_ *done, uint64_t target);
/* Without the lock: the lowest nonzero slot value of the registered
 * readers (UINT64_MAX: none), as a scan of the slot table finds it; 0 when
 * it cannot tell (a reader leaving, unslotted or pushed). No reader holds
 * up a target at or below it (reader_holds_up()), if the caller fenced
 * every reader after the counter reached that target (gp.c note 8). */
uint64_t registry_poll_floor(void);
/* Under the lock: moves every reader of done back onto the registry. */
void registry_restore(struct rcu_reader_ *done);
/* Whether a reader other than the caller is registered; under the lock. */
bool registry_has_other(void);
/* The number of registered readers (a snapshot); takes the lock. */
unsigned long registry_count(void);
/* At start-up: creates the key whose destructor, on_exit, runs at the exit
 * of a thread that is still registered (the registry's own data stays
 * free of what unregistration involves). */
void registry_exit_key_init(void (*on_exit)(void *));
/* Makes the calling thread's exit run on_exit (r: its reader state) or,
 * with NULL, not. Async-signal-safe for bp (see registry.c). */
void registry_arm_exit_hook(struct rcu_reader_ *r);
void registry_fork_prepare(void);
void registry_fork_parent(void);
void registry_fork_child(void);

/* qsbr.c / memb.c (memb, bp, mb): the flavour's hooks for the shared code. */
#define flavour_init		RCU_SYM_(flavour_init_)
#define flavour_fence_all_readers RCU_SYM_(fence_all_readers_)
#define flavour_fence_is_heavy	RCU_SYM_(fence_is_heavy_)
#define flavour_reader_online	RCU_SYM_(reader_online_)
#define flavour_reader_offline	RCU_SYM_(reader_offline_)
#define flavour_wait_begin	RCU_SYM_(wait_begin_)
#define flavour_wait_end	RCU_SYM_(wait_end_)
#define flavour_fork_child	RCU_SYM_(flavour_fork_child_)
/* At start-up (lifecycle.c's constructor, before main): memb chooses
 * between membarrier and reader fences; QSBR nothing. */
void flavour_init(void);
/*
 * A full fence on every reader, as seen by the caller: QSBR a seq_cst fence
 * (readers fence themselves), memb membarrier() or, in fence mode and for
 * mb, a seq_cst fence pairing with the readers' fences.
 */
void flavour_fence_all_readers(void);
/* Whether that fence is membarrier() (memb and bp outside fence mode), so
 * worth sharing between polls (gp.c note 9). */
bool flavour_fence_is_heavy(void);
/* After the calling thread registers and before it unregisters: QSBR puts
 * it online and offline (a registered thread starts online; going offline
 * first lets a grace period waiting on it finish); memb nothing. */
void flavour_reader_online(void);
void flavour_reader_offline(void);
/* Around a wait for a grace period: QSBR goes offline if online (returns
 * whether it did) so the caller does not wait for itself; memb nothing. */
bool flavour_wait_begin(void);
void flavour_wait_end(bool was_online);
void flavour_fork_child(void);
/*
 * The flavour object's quiescent-state ops (rcu_flavour.quiescent_state,
 * .thread_offline, .thread_online), also what the call_rcu worker runs:
 * QSBR's exported functions, memb's no-op (memb.c).
 */
#if defined(RCU_BUILD_QSBR)
#define flavour_op_quiescent_state	rcu_qsbr_quiescent_state
#define flavour_op_thread_offline	rcu_qsbr_thread_offline
#define flavour_op_thread_online	rcu_qsbr_thread_online
#else
#define flavour_op_noop			RCU_SYM_(op_noop_)
void flavour_op_noop(void);
#define flavour_op_quiescent_state	flavour_op_noop
#define flavour_op_thread_offline	flavour_op_noop
#define flavour_op_thread_online	flavour_op_noop
#endif

/* bp.c (bp only) */
#define bp_join			RCU_SYM_(bp_join_)
/* The caller (not registered) joins: signals blocked, registry_push(), the
 * exit hook armed. */
void bp_join(struct rcu_reader_ *r);

/* gp.c */
#define gp_synchronize		RCU_SYM_(gp_synchronize_)
#define gp_synchronize_rcu	RCU_SYM_(gp_synchronize_rcu_)
#define gp_ticket_take		RCU_SYM_(gp_ticket_take_)
#define gp_ticket_done		RCU_SYM_(gp_ticket_done_)
#define gp_poll_advance		RCU_SYM_(gp_poll_advance_)
#define gp_poll_fence		RCU_SYM_(gp_poll_fence_)
#define gp_poll_floor		RCU_SYM_(gp_poll_floor_)
#define gp_poll_covered		RCU_SYM_(gp_poll_covered_)
#define gp_fork_child		RCU_SYM_(gp_fork_child_)
/* One grace period (possibly shared with concurrent callers). The caller
 * must not hold up grace periods itself (offline / outside a section). */
void gp_synchronize(void);
/* synchronize_rcu(): the checks and the QSBR offline step around
 * gp_synchronize(). */
void gp_synchronize_rcu(void);
/* A grace-period request without the wait: the ticket that a grace period
 * beginning after this call covers (rcu_poll_start()). */
uint64_t gp_ticket_take(void);
/* Whether a grace period that covers ticket has ended. */
bool gp_ticket_done(uint64_t ticket);
/*
 * A polled grace period, without locks (gp.c note 8): gp_poll_advance()
 * sets *covered to the newest ticket and returns the target of a counter
 * increment made after reading it. gp_poll_fence(wanted) returns F, a
 * counter value at or above wanted after which every reader has been
 * fenced: by a fence that another poll or grace period ran (memb and bp,
 * gp.c note 9), else by one it runs now. gp_poll_floor() then scans the
 * readers (registry_poll_floor()): no reader holds up a target at or
 * below both the floor and F, and gp_poll_covered() then marks every
 * ticket that target's advance covered done.
 */
uint64_t gp_poll_advance(uint64_t *covered);
uint64_t gp_poll_fence(uint64_t wanted);
uint64_t gp_poll_floor(void);
void gp_poll_covered(uint64_t covered);
void gp_fork_child(void);

/* thread.c */
#define thread_register		RCU_SYM_(thread_register_)
#define thread_unregister	RCU_SYM_(thread_unregister_)
/* rcu_register_thread() and rcu_unregister_thread() (the call_rcu worker
 * registers through the first too). */
void thread_register(void);
void thread_unregister(void);

/* call_rcu.c */
#define call_rcu_queue		RCU_SYM_(call_rcu_queue_)
#define call_rcu_barrier	RCU_SYM_(call_rcu_barrier_)
#define call_rcu_in_callback	RCU_SYM_(call_rcu_in_callback_)
#define call_rcu_fork_prepare	RCU_SYM_(call_rcu_fork_prepare_)
#define call_rcu_fork_parent	RCU_SYM_(call_rcu_fork_parent_)
#define call_rcu_fork_child	RCU_SYM_(call_rcu_fork_child_)
/* call_rcu() and rcu_barrier(). */
void call_rcu_queue(struct rcu_head *head, void (*func)(struct rcu_head *head));
void call_rcu_barrier(void);
/* Whether the caller is this flavour's worker, running callbacks. */
bool call_rcu_in_callback(void);
void call_rcu_fork_prepare(void);
void call_rcu_fork_parent(void);
void call_rcu_fork_child(void);

/* poll.c */
#define poll_start		RCU_SYM_(poll_start_internal_)
#define poll_done		RCU_SYM_(poll_done_internal_)
#define poll_fork_child		RCU_SYM_(poll_fork_child_)
/* rcu_poll_start() and rcu_poll_done(). */
struct rcu_poll_cookie poll_start(void);
bool poll_done(struct rcu_poll_cookie cookie);
void poll_fork_child(void);

/* retire.c */
#define retire_queue		RCU_SYM_(retire_queue_)
#define retire_barrier		RCU_SYM_(retire_barrier_)
#define retire_thread_exit	RCU_SYM_(retire_thread_exit_)
#define retire_defer		RCU_SYM_(retire_defer_impl_)
/* rcu_retire() and rcu_retire_barrier(). */
void retire_queue(struct rcu_head *head, void (*func)(struct rcu_head *head));
void retire_barrier(void);
/* Before the calling thread unregisters or exits: its pending callbacks
 * go to the call_rcu worker. */
void retire_thread_exit(void);
/* fct(p) after a grace period, as rcu_retire() runs callbacks (on the
 * call_rcu worker for a thread not registered). */
void retire_defer(void (*fct)(void *p), void *p);

#endif /* RCU_SRC_INTERNAL_H */
