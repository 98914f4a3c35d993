/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the registered readers of one flavour.
 *
 * Owns: the calling thread's reader state (the exported TLS object the
 * inline read side uses) and the list of registered readers with its lock;
 * the exported register/unregister functions (with the flavour's hooks,
 * qsbr.c/memb.c) and the exported function forms of the read side.
 *
 * Invariants: a reader is on exactly one list while registered: the registry
 * list, or, for the length of a grace period, that grace period's private
 * "done" list (gp.c); both only change under registry_lock(), so removing a
 * reader works whichever list it is on. The lock is only ever held for
 * bounded work (never across a sleep waiting for readers; gp.c drops it to
 * sleep), which is what lets threads register and unregister at any rate
 * while grace periods run, and lets fork() take it (fork.c).
 *
 * Relies on: internal.h (list helpers), gp.c (the only other user of the
 * list), qsbr.c/memb.c (online/offline hooks).
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "internal.h"

_Thread_local struct rcu_reader_ self_reader;

struct rcu_reader_ registry_readers = {
	.next = &registry_readers,
	.prev = &registry_readers,
};

static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;

/*
 * A thread that exits still registered would leave its (freed) TLS on the
 * list; this key's destructor unregisters it first. Its value is non-NULL
 * exactly while the thread is registered.
 */
static pthread_key_t registry_exit_key;

static void registry_thread_exit(void *arg)
{
	(void)arg;
	rcu_flavour.unregister_thread();
}

void registry_lock(void)
{
	pthread_mutex_lock(&registry_mutex);
}

void registry_unlock(void)
{
	pthread_mutex_unlock(&registry_mutex);
}

static void registry_add_self(void)
{
	struct rcu_reader_ *r = &self_reader;

	rcu_check_(r->registered, "rcu_register_thread",
		   "thread already registered");
	if (r->registered)
		return;
	registry_lock();
	reader_list_add_tail(r, &registry_readers);
	r->registered = true;
	registry_unlock();
	(void)pthread_setspecific(registry_exit_key, r);
}

static void registry_remove_self(void)
{
	struct rcu_reader_ *r = &self_reader;

	registry_lock();
	reader_list_del(r);
	r->registered = false;
	registry_unlock();
	(void)pthread_setspecific(registry_exit_key, NULL);
}

void RCU_SYM_(register_thread)(void)
{
	registry_add_self();
	/* QSBR: a registered thread starts online. */
	flavour_reader_online();
}

void RCU_SYM_(unregister_thread)(void)
{
	rcu_check_outside_section_("rcu_unregister_thread");
	if (!self_reader.registered)
		return;
	/* QSBR: offline first, so a grace period waiting on us can finish. */
	flavour_reader_offline();
	registry_remove_self();
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

unsigned registry_thread_state(void)
{
	return (self_reader.registered ? RCU_THREAD_REGISTERED : 0U) |
	       (rcu_read_ongoing() ? RCU_THREAD_READER : 0U) |
	       (self_nesting() != 0 ? RCU_THREAD_IN_SECTION : 0U) |
	       (call_rcu_in_callback() ? RCU_THREAD_IN_CALLBACK : 0U);
}

bool registry_has_other(void)
{
	const struct rcu_reader_ *first = registry_readers.next;

	if (first == &registry_readers)
		return false;
	return first != &self_reader || first->next != &registry_readers;
}

__attribute__((constructor)) static void registry_init(void)
{
	if (pthread_key_create(&registry_exit_key, registry_thread_exit) != 0)
		RCU_SYM_(misuse_)("init", "cannot create the thread-exit key");
	fork_install_handlers();
}

void registry_fork_prepare(void)
{
	registry_lock();
}

void registry_fork_parent(void)
{
	registry_unlock();
}

/*
 * The child has one thread, the forking one: drop every other reader (their
 * threads do not exist here) and any grace period's private list.
 */
void registry_fork_child(void)
{
	reader_list_init(&registry_readers);
	if (self_reader.registered)
		reader_list_add_tail(&self_reader, &registry_readers);
	/* Locked by this very thread in registry_fork_prepare(). */
	registry_unlock();
}
