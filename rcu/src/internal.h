/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the rcu sources share. Every source file is compiled
 * once per flavour library, with -DRCU_BUILD_QSBR, -DRCU_BUILD_MEMB,
 * -DRCU_BUILD_BP or -DRCU_BUILD_MB. This header picks that flavour's public
 * header and gives every internal name the flavour prefix (rcu_qsbr_*_ /
 * rcu_memb_*_ / rcu_bp_*_ / rcu_mb_*_), so the libraries can be linked,
 * even statically, into one
 * program. Internal names are hidden
 * (gnu_symbol_visibility: hidden); only RCU_API names are exported.
 *
 * The files:
 *   registry.c  the list of registered readers and its lock; the TLS state;
 *               register/unregister and the read side as functions
 *   gp.c        grace periods: batching callers, waiting for readers, futex;
 *               synchronize_rcu
 *   qsbr.c      QSBR flavour: its own exported functions, flavour object,
 *               hooks
 *   memb.c      memb, bp and mb flavours: flavour object, hooks, membarrier
 *               set-up (mb: fences only)
 *   bp.c        bp only: registration by the first read lock, signal-safe
 *   call_rcu.c  call_rcu queue, its worker thread, rcu_barrier
 *   poll.c      polling grace periods: rcu_poll_start(), rcu_poll_done()
 *   fork.c      pthread_atfork handlers that tie the others together
 *   debug.c     the misuse report
 */
#ifndef RCU_SRC_INTERNAL_H
#define RCU_SRC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#if defined(RCU_BUILD_QSBR)
#include <rcu/qsbr.h>
#define RCU_SYM_(name) rcu_qsbr_##name
#elif defined(RCU_BUILD_MEMB)
#include <rcu/memb.h>
#define RCU_SYM_(name) rcu_memb_##name
#define FLAVOUR_NAME "memb"
#define FLAVOUR_FORCE_FENCES_ENV "RCU_MEMB_FORCE_FENCES"
#elif defined(RCU_BUILD_BP)
#include <rcu/bp.h>
#define RCU_SYM_(name) rcu_bp_##name
#define FLAVOUR_NAME "bp"
#define FLAVOUR_FORCE_FENCES_ENV "RCU_BP_FORCE_FENCES"
#elif defined(RCU_BUILD_MB)
#include <rcu/mb.h>
#define RCU_SYM_(name) rcu_mb_##name
#define FLAVOUR_NAME "mb"
/* (No FLAVOUR_FORCE_FENCES_ENV: mb is always in fence mode, memb.c.) */
#else
#error "compile with -DRCU_BUILD_QSBR, -DRCU_BUILD_MEMB, -DRCU_BUILD_BP or -DRCU_BUILD_MB"
#endif

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

/* Circular doubly linked lists of readers, with a sentinel. */
static inline void reader_list_init(struct rcu_reader_ *head)
{
	head->next = head;
	head->prev = head;
}

static inline bool reader_list_empty(const struct rcu_reader_ *head)
{
	return head->next == head;
}

static inline void reader_list_add_tail(struct rcu_reader_ *r,
					struct rcu_reader_ *head)
{
	r->prev = head->prev;
	r->next = head;
	head->prev->next = r;
	head->prev = r;
}

static inline void reader_list_del(struct rcu_reader_ *r)
{
	r->prev->next = r->next;
	r->next->prev = r->prev;
	r->next = r;
	r->prev = r;
}

/* Moves every reader of from to the tail of to; from ends empty. */
static inline void reader_list_splice_tail(struct rcu_reader_ *from,
					   struct rcu_reader_ *to)
{
	if (reader_list_empty(from))
		return;
	from->next->prev = to->prev;
	to->prev->next = from->next;
	from->prev->next = to;
	to->prev = from->prev;
	reader_list_init(from);
}

/* registry.c */
#define registry_readers	RCU_SYM_(registry_readers_)
#define registry_lock		RCU_SYM_(registry_lock_)
#define registry_unlock		RCU_SYM_(registry_unlock_)
#define registry_has_other	RCU_SYM_(registry_has_other_)
#define registry_fork_prepare	RCU_SYM_(registry_fork_prepare_)
#define registry_fork_parent	RCU_SYM_(registry_fork_parent_)
#define registry_fork_child	RCU_SYM_(registry_fork_child_)
/* Sentinel of the registered readers; under registry_lock(). */
extern struct rcu_reader_ registry_readers;
void registry_lock(void);
void registry_unlock(void);
/* Whether a reader other than the caller is registered; under the lock. */
bool registry_has_other(void);
#define registry_arm_exit_hook	RCU_SYM_(registry_arm_exit_hook_)
/* Makes the calling thread's exit unregister it (r: its reader state) or,
 * with NULL, not. */
void registry_arm_exit_hook(struct rcu_reader_ *r);
void registry_fork_prepare(void);
void registry_fork_parent(void);
void registry_fork_child(void);

/* gp.c */
#define gp_synchronize		RCU_SYM_(gp_synchronize_)
#define gp_ticket_take		RCU_SYM_(gp_ticket_take_)
#define gp_ticket_done		RCU_SYM_(gp_ticket_done_)
#define gp_fork_prepare		RCU_SYM_(gp_fork_prepare_)
#define gp_fork_parent		RCU_SYM_(gp_fork_parent_)
#define gp_fork_child		RCU_SYM_(gp_fork_child_)
/* One grace period (possibly shared with concurrent callers). The caller
 * must not hold up grace periods itself (offline / outside a section). */
void gp_synchronize(void);
/* A grace-period request without the wait: the ticket that a grace period
 * beginning after this call covers (rcu_poll_start()). */
uint64_t gp_ticket_take(void);
/* Whether a grace period that covers ticket has ended. */
bool gp_ticket_done(uint64_t ticket);
void gp_fork_prepare(void);
void gp_fork_parent(void);
void gp_fork_child(void);

/* poll.c */
#define poll_fork_prepare	RCU_SYM_(poll_fork_prepare_)
#define poll_fork_parent	RCU_SYM_(poll_fork_parent_)
#define poll_fork_child		RCU_SYM_(poll_fork_child_)
void poll_fork_prepare(void);
void poll_fork_parent(void);
void poll_fork_child(void);

/* call_rcu.c */
#define call_rcu_fork_prepare	RCU_SYM_(call_rcu_fork_prepare_)
#define call_rcu_fork_parent	RCU_SYM_(call_rcu_fork_parent_)
#define call_rcu_fork_child	RCU_SYM_(call_rcu_fork_child_)
void call_rcu_fork_prepare(void);
void call_rcu_fork_parent(void);
void call_rcu_fork_child(void);
#define call_rcu_in_callback	RCU_SYM_(call_rcu_in_callback_)
/* Whether the caller is this flavour's worker, running callbacks. */
bool call_rcu_in_callback(void);

/* registry.c: rcu_flavour.thread_state, the RCU_THREAD_* bits. */
#define registry_thread_state	RCU_SYM_(registry_thread_state_)
unsigned registry_thread_state(void);

/* bp.c (bp only): threads that registered themselves lock-free and are not
 * on registry_readers yet. */
#define bp_pending_absorb	RCU_SYM_(bp_pending_absorb_)
#define bp_pending_forget	RCU_SYM_(bp_pending_forget_)
/* Under registry_lock() (which calls it): moves them to registry_readers. */
void bp_pending_absorb(void);
/* fork child, before the registry is rebuilt: forgets them. */
void bp_pending_forget(void);

/* fork.c */
#define fork_install_handlers	RCU_SYM_(fork_install_handlers_)
void fork_install_handlers(void);

/* qsbr.c / memb.c (memb, bp, mb): the flavour's hooks for the shared code. */
#define flavour_fence_all_readers RCU_SYM_(fence_all_readers_)
#define flavour_reader_online	RCU_SYM_(reader_online_)
#define flavour_reader_offline	RCU_SYM_(reader_offline_)
#define flavour_wait_begin	RCU_SYM_(wait_begin_)
#define flavour_wait_end	RCU_SYM_(wait_end_)
#define flavour_fork_child	RCU_SYM_(flavour_fork_child_)
/*
 * A full fence on every reader, as seen by the caller: QSBR a seq_cst fence
 * (readers fence themselves), memb membarrier() or, in fence mode and for
 * mb, a seq_cst fence pairing with the readers' fences.
 */
void flavour_fence_all_readers(void);
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
 * Defines the flavour object (rcu/flavour.h) in qsbr.c or memb.c. The ops
 * every flavour exports are named here; the file gives the flavour's name
 * and its quiescent-state ops (memb, bp, mb: no-ops, never NULL).
 */
#define FLAVOUR_DEFINE_OBJECT(name_, quiescent_state_, thread_offline_,	\
			      thread_online_)				\
	const struct rcu_flavour rcu_flavour = {			\
		.name = (name_),					\
		.read_lock = RCU_SYM_(read_lock),			\
		.read_unlock = RCU_SYM_(read_unlock),			\
		.read_ongoing = RCU_SYM_(read_ongoing),			\
		.quiescent_state = (quiescent_state_),			\
		.thread_offline = (thread_offline_),			\
		.thread_online = (thread_online_),			\
		.register_thread = RCU_SYM_(register_thread),		\
		.unregister_thread = RCU_SYM_(unregister_thread),	\
		.synchronize_rcu = RCU_SYM_(synchronize_rcu),		\
		.call_rcu = RCU_SYM_(call_rcu),				\
		.barrier = RCU_SYM_(barrier),				\
		.thread_state = registry_thread_state,			\
	}

#endif /* RCU_SRC_INTERNAL_H */
