/* SPDX-License-Identifier: MIT */
/*
 * rcu/flavour.h - what every flavour has in common: struct rcu_head,
 * caa_container_of, and struct rcu_flavour, the table of operations through
 * which flavour-agnostic code (liblfht) drives whichever flavour the program
 * picked.
 *
 * Include a flavour header (<rcu/qsbr.h>, <rcu/memb.h>, <rcu/bp.h> or
 * <rcu/mb.h>), not this file: each declares its flavour's object under the
 * name rcu_flavour.
 */
#ifndef RCU_FLAVOUR_H
#define RCU_FLAVOUR_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define RCU_API __attribute__((visibility("default")))
#else
#define RCU_API
#endif

/*
 * The C11 keywords the flavour headers' declarations use, as C++ spells
 * them. GNU __thread, not thread_local: C++ lets an extern thread_local
 * have a dynamic initialiser in another translation unit, so every access
 * through it first calls (or tests for) an init function, which would cost
 * the inline read side a call; __thread promises static initialisation.
 */
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#define RCU_THREAD_LOCAL_ __thread
#define RCU_NORETURN_ [[noreturn]]
#elif defined(__cplusplus)
#define RCU_THREAD_LOCAL_ thread_local
#define RCU_NORETURN_ [[noreturn]]
#else
#define RCU_THREAD_LOCAL_ _Thread_local
#define RCU_NORETURN_ _Noreturn
#endif

/* Callback header for call_rcu(); embed it in the object to be reclaimed. */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

/*
 * A polling grace period's cookie: what rcu_poll_start() returns and
 * rcu_poll_done() takes. A plain value: copy it, keep it, test it from any
 * thread; a cookie of one flavour means nothing to the other.
 */
struct rcu_poll_cookie {
	/* The grace-period request it stands for (opaque). */
	uint64_t ticket;
};

/* The enclosing object of member pointer ptr. */
#define caa_container_of(ptr, type, member)				\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * Bits of rcu_flavour.thread_state(): the calling thread's RCU state, as
 * debug checks (liblfht's) ask about it.
 */
enum {
	/* rcu_register_thread() was called, rcu_unregister_thread() not. */
	RCU_THREAD_REGISTERED = 1,
	/* read_ongoing(): QSBR online, memb inside a read-side section. */
	RCU_THREAD_READER = 2,
	/* Inside rcu_read_lock() .. rcu_read_unlock() (QSBR: counted only
	 * where the caller was compiled with RCU_DEBUG_CHECKS). */
	RCU_THREAD_IN_SECTION = 4,
	/* The flavour's call_rcu worker, running callbacks. */
	RCU_THREAD_IN_CALLBACK = 8,
};

/*
 * The operations of one flavour. Members that a flavour has no use for
 * (quiescent_state, thread_offline and thread_online in memb) are no-ops,
 * never NULL, so callers need no test.
 */
struct rcu_flavour {
	const char *name;
	void (*read_lock)(void);
	void (*read_unlock)(void);
	int (*read_ongoing)(void);
	void (*quiescent_state)(void);
	void (*thread_offline)(void);
	void (*thread_online)(void);
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*synchronize_rcu)(void);
	void (*call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
	void (*barrier)(void);
	/* The RCU_THREAD_* bits of the calling thread; no side effect. */
	unsigned (*thread_state)(void);
	/*
	 * The calling thread's slot in the flavour's registry: a number from
	 * 1 that no other thread registered with this flavour holds until
	 * this one unregisters, or 0 (not registered, no slot free, or bp,
	 * whose threads join without the lock). A new holder of a number
	 * registers after the last one unregistered (the registry's lock
	 * orders them). No side effect.
	 */
	unsigned (*thread_slot)(void);
};

/*
 * Declares the flavour object: C code sees it as rcu_flavour, the linker as
 * symbol, so both flavours link into one program. (An asm label, not inline
 * assembly: it only names the symbol.)
 */
#define RCU_DECLARE_FLAVOUR(symbol) \
	extern RCU_API const struct rcu_flavour rcu_flavour __asm__(symbol)

#endif /* RCU_FLAVOUR_H */
