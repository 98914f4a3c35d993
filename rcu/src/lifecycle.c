/* SPDX-License-Identifier: MIT */
/*
 * lifecycle.c - the top of one flavour library: its start-up, fork()
 * handling and thread-exit hook, and the face a program sees (the exported
 * entry points and the flavour object).
 *
 * Start-up: the library's one constructor, before main: the flavour's
 * set-up (memb: membarrier or fences), the thread-exit key, then the fork
 * handlers.
 *
 * fork(): prepare takes every lock that is only ever held briefly (polling
 * state, call_rcu worker start, grace-period requests, registry) in that
 * order, so the child inherits consistent data. The grace-period lock is
 * not taken (a grace period may be waiting on the forking thread itself);
 * the child resets it. In the child only the forking thread exists: the
 * registry keeps just it (if registered), the call_rcu queue starts empty
 * and its worker is recreated on first use, and memb re-registers with
 * membarrier. Lock-free data that other threads were writing during fork()
 * (the call_rcu queue, other readers' slots, bp's pushed readers) is not
 * trusted in the child: fork() copies memory page by page while those
 * threads run, so the copy is no consistent cut.
 *
 * Why the exported entry points live here, as calls into the units that
 * do the work: every other unit sits below this one (internal.h lists the
 * layers), so none of them refers to this file, and a static link takes an
 * archive member only when something refers to it. The program's own calls
 * (rcu_register_thread(), synchronize_rcu(), call_rcu(), the flavour
 * object, ...) are what bring this file, and with it the constructor and
 * the fork handlers, into every program that uses the library.
 *
 * Owns: no data of its own beyond the flavour object.
 *
 * Relies on: every other unit (their fork hooks and entry points); none
 * of them relies on it.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "internal.h"

/* The key's destructor (registry.c): the thread exits registered. */
static void lifecycle_thread_exit(void *arg)
{
	(void)arg;
	retire_thread_exit();
	thread_unregister();
}

static void lifecycle_fork_prepare(void)
{
	call_rcu_fork_prepare();
	registry_fork_prepare();
}

static void lifecycle_fork_parent(void)
{
	registry_fork_parent();
	call_rcu_fork_parent();
}

static void lifecycle_fork_child(void)
{
	registry_fork_child();
	gp_fork_child();
	flavour_fork_child();
	call_rcu_fork_child();
	poll_fork_child();
}

__attribute__((constructor)) static void lifecycle_start(void)
{
	flavour_init();
	registry_exit_key_init(lifecycle_thread_exit);
	pthread_atfork(lifecycle_fork_prepare, lifecycle_fork_parent,
		       lifecycle_fork_child);
}

/* The exported functions (rcu/flavour-api.h). */
void RCU_SYM_(register_thread)(void)
{
	thread_register();
}

void RCU_SYM_(unregister_thread)(void)
{
	if (self_reader.registered)
		retire_thread_exit();
	thread_unregister();
}

/* The inline read side as functions, for the flavour object. */
void RCU_SYM_(read_lock)(void)
{
	rcu_read_lock();
}

void RCU_SYM_(read_unlock)(void)
{
	rcu_read_unlock();
}

int RCU_SYM_(read_ongoing)(void)
{
	return rcu_read_ongoing();
}

void RCU_SYM_(synchronize_rcu)(void)
{
	gp_synchronize_rcu();
}

void RCU_SYM_(call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	call_rcu_queue(head, func);
}

void RCU_SYM_(barrier)(void)
{
	call_rcu_barrier();
}

void RCU_SYM_(retire)(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	retire_queue(head, func);
}

void RCU_SYM_(retire_barrier)(void)
{
	retire_barrier();
}

void RCU_SYM_(retire_defer_)(void (*fct)(void *p), void *p)
{
	retire_defer(fct, p);
}

struct rcu_poll_cookie RCU_SYM_(poll_start)(void)
{
	return poll_start();
}

bool RCU_SYM_(poll_done)(struct rcu_poll_cookie cookie)
{
	return poll_done(cookie);
}

unsigned long RCU_SYM_(registry_count_)(void)
{
	return registry_count();
}

/* rcu_flavour.thread_state: the RCU_THREAD_* bits of the calling thread.
 * bp: every thread counts as registered (it joins on its first read). */
static unsigned lifecycle_thread_state(void)
{
	return (self_reader.registered || FLAVOUR_JOINS_IMPLICITLY ?
		RCU_THREAD_REGISTERED : 0U) |
	       (rcu_read_ongoing() ? RCU_THREAD_READER : 0U) |
	       (self_nesting() != 0 ? RCU_THREAD_IN_SECTION : 0U) |
	       (call_rcu_in_callback() ? RCU_THREAD_IN_CALLBACK : 0U);
}

/* rcu_flavour.thread_slot: the registry slot (registry.c) the calling
 * thread claimed when it registered. bp: 0, as a reader that joined on its
 * first read gets its slot from another thread (the lock holder that takes
 * it onto the list), with nothing ordering that store before its reads. */
static unsigned lifecycle_thread_slot(void)
{
	return FLAVOUR_JOINS_IMPLICITLY || !self_reader.registered ? 0U : self_reader.poll_slot;
}

/* The flavour object (rcu/flavour.h). The quiescent-state ops are QSBR's
 * exported functions or memb's no-op (internal.h). */
const struct rcu_flavour rcu_flavour = {
	.name = FLAVOUR_NAME,
	.read_lock = RCU_SYM_(read_lock),
	.read_unlock = RCU_SYM_(read_unlock),
	.read_ongoing = RCU_SYM_(read_ongoing),
	.quiescent_state = flavour_op_quiescent_state,
	.thread_offline = flavour_op_thread_offline,
	.thread_online = flavour_op_thread_online,
	.register_thread = RCU_SYM_(register_thread),
	.unregister_thread = RCU_SYM_(unregister_thread),
	.synchronize_rcu = RCU_SYM_(synchronize_rcu),
	.call_rcu = RCU_SYM_(call_rcu),
	.barrier = RCU_SYM_(barrier),
	.thread_state = lifecycle_thread_state,
	.thread_slot = lifecycle_thread_slot,
};
