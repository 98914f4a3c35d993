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
 * bp: a thread registers itself lock-free (bp.c, which also defines bp's
 * rcu_register_thread()) onto a list of its own; registry_lock() moves those
 * threads onto the registry list, so every holder of the lock sees them all.
 * Every thread counts as registered in thread_state.
 *
 * Relies on: internal.h (list helpers), gp.c (the only other user of the
 * list), qsbr.c/memb.c (online/offline hooks), bp.c (bp's pending list).
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

#if defined(RCU_BUILD_BP)
/* Any thread may read: it registers on its first rcu_read_lock(). */
#define REGISTRY_IMPLICIT true
static inline void registry_take_pending(void) { bp_pending_absorb(); }
static inline void registry_forget_pending(void) { bp_pending_forget(); }
#else
#define REGISTRY_IMPLICIT false
static inline void registry_take_pending(void) { }
static inline void registry_forget_pending(void) { }
#endif

/*
 * bp arms the exit hook from the first rcu_read_lock(), which may run in a
 * signal handler. glibc keeps the values of keys below 32
 * (PTHREAD_KEY_2NDLEVEL_SIZE) in the thread descriptor, so setting one is a
 * store, with no allocation and no lock; a constructor's key is one of the
 * first. Other C libraries (musl) keep every key in one per-thread array.
 */
#if defined(RCU_BUILD_BP) && defined(__GLIBC__)
static inline bool registry_key_signal_safe(pthread_key_t key)
{
	return key < 32;
}
#else
static inline bool registry_key_signal_safe(pthread_key_t key)
{
	(void)key;
	return true;
}
#endif

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
	registry_take_pending();
}

void registry_arm_exit_hook(struct rcu_reader_ *r)
{
	(void)pthread_setspecific(registry_exit_key, r);
}

void registry_unlock(void)
{
	pthread_mutex_unlock(&registry_mutex);
}

#if !defined(RCU_BUILD_BP)
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
	registry_arm_exit_hook(r);
}

void RCU_SYM_(register_thread)(void)
{
	registry_add_self();
	/* QSBR: a registered thread starts online. */
	flavour_reader_online();
}
#endif

static void registry_remove_self(void)
{
	struct rcu_reader_ *r = &self_reader;

	registry_lock();
	reader_list_del(r);
	r->registered = false;
	registry_unlock();
	registry_arm_exit_hook(NULL);
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
	return (self_reader.registered || REGISTRY_IMPLICIT ?
		RCU_THREAD_REGISTERED : 0U) |
	       (rcu_read_ongoing() ? RCU_THREAD_READER : 0U) |
	       (self_nesting() != 0 ? RCU_THREAD_IN_SECTION : 0U) |
	       (call_rcu_in_callback() ? RCU_THREAD_IN_CALLBACK : 0U);
}

unsigned long RCU_SYM_(registry_count_)(void)
{
	unsigned long n = 0;

	registry_lock();
	for (const struct rcu_reader_ *r = registry_readers.next;
	     r != &registry_readers; r = r->next)
		n++;
	registry_unlock();
	return n;
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
	rcu_check_(!registry_key_signal_safe(registry_exit_key), "init",
		   "thread-exit key above 31: its first use may allocate");
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
	registry_forget_pending();
	reader_list_init(&registry_readers);
	if (self_reader.registered)
		reader_list_add_tail(&self_reader, &registry_readers);
	/* Locked by this very thread in registry_fork_prepare(). */
	registry_unlock();
}
