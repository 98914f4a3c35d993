/* SPDX-License-Identifier: MIT */
/*
 * urcu/flavor.h (lfht's liburcu compatibility layer) - struct
 * rcu_flavor_struct, the table of a flavour's operations, and struct
 * urcu_atfork; after a flavour header, the prefixed functions every
 * flavour gives alike (urcu_<flavour>_read_lock, _read_unlock,
 * _read_ongoing, _register_thread, _unregister_thread, _synchronize_rcu,
 * _call_rcu, _barrier) and that flavour's object (urcu_memb_flavor,
 * urcu_qsbr_flavor, urcu_bp_flavor or urcu_mb_flavor, also named
 * rcu_flavor), which cds_lfht_new_flavor() accepts; and the inline names
 * liburcu gives programs built with _LGPL_SOURCE: _urcu_<flavour>_read_lock,
 * _read_unlock, _read_ongoing, _quiescent_state, _thread_offline,
 * _thread_online, and the short _rcu_read_lock, _rcu_read_unlock,
 * _rcu_read_ongoing, _rcu_quiescent_state (the _rcu_ pointer operations
 * are <urcu/pointer.h>'s).
 *
 * Differs from liburcu: the flavour object is a static const object of each
 * translation unit (so its address differs between files), and the struct
 * ends with a member of lfht's, lfht_flavour_, naming the lfht flavour it
 * stands for; a flavour object a program builds itself must set it, so
 * DEFINE_RCU_FLAVOR is not given. update_defer_rcu waits for a grace period
 * and then calls the function (liburcu's defer_rcu may do the same when its
 * queue is full); the rculfhash atfork hooks do nothing (lfht's own
 * pthread_atfork handlers keep RCU and the tables' workers consistent).
 * The _LGPL_SOURCE names are given whether or not _LGPL_SOURCE is defined
 * (everything here is inline anyway), for every flavour (liburcu:
 * _quiescent_state, _thread_offline and _thread_online for qsbr only;
 * here they are no-ops for the others, as their plain forms).
 */
#ifndef LFHT_URCU_FLAVOR_H
#define LFHT_URCU_FLAVOR_H

#include <stdbool.h>

#include <rcu/flavour.h>
#include <urcu/urcu-poll.h>

struct urcu_atfork {
	void (*before_fork)(void *priv);
	void (*after_fork_parent)(void *priv);
	void (*after_fork_child)(void *priv);
	void *priv;
};

struct rcu_flavor_struct {
	void (*read_lock)(void);
	void (*read_unlock)(void);
	int (*read_ongoing)(void);
	void (*read_quiescent_state)(void);
	void (*update_call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
	void (*update_synchronize_rcu)(void);
	void (*update_defer_rcu)(void (*fct)(void *p), void *p);
	void (*thread_offline)(void);
	void (*thread_online)(void);
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*barrier)(void);
	void (*register_rculfhash_atfork)(struct urcu_atfork *atfork);
	void (*unregister_rculfhash_atfork)(struct urcu_atfork *atfork);
	/* liburcu 0.14 (<urcu/urcu-poll.h>). */
	struct urcu_gp_poll_state (*update_start_poll_synchronize_rcu)(void);
	bool (*update_poll_state_synchronize_rcu)(struct urcu_gp_poll_state state);
	/* lfht's: the flavour that cds_lfht_new_flavor() passes to lfht. */
	const struct rcu_flavour *lfht_flavour_;
};

#endif /* LFHT_URCU_FLAVOR_H */

/* The flavour's object, once a flavour header (which includes this file
 * again at its end) has chosen the flavour. */
#if defined(LFHT_URCU_NAME_) && !defined(LFHT_URCU_FLAVOR_OBJECT_)
#define LFHT_URCU_FLAVOR_OBJECT_ 1

/* The prefixed functions every flavour gives alike (urcu_memb_read_lock,
 * urcu_qsbr_read_lock, ...), over the short names of the lfht flavour
 * header that the flavour header included. */
static inline void LFHT_URCU_NAME_(read_lock)(void) { rcu_read_lock(); }
static inline void LFHT_URCU_NAME_(read_unlock)(void) { rcu_read_unlock(); }
static inline int LFHT_URCU_NAME_(read_ongoing)(void) { return rcu_read_ongoing(); }
static inline void LFHT_URCU_NAME_(register_thread)(void) { rcu_register_thread(); }
static inline void LFHT_URCU_NAME_(unregister_thread)(void) { rcu_unregister_thread(); }
static inline void LFHT_URCU_NAME_(synchronize_rcu)(void) { synchronize_rcu(); }
static inline void LFHT_URCU_NAME_(call_rcu)(struct rcu_head *head,
					     void (*func)(struct rcu_head *head))
{
	call_rcu(head, func);
}
static inline void LFHT_URCU_NAME_(barrier)(void) { rcu_barrier(); }

/* The _LGPL_SOURCE names: _ and the prefixed name (_urcu_memb_read_lock
 * ...), over the same short names. */
#define LFHT_URCU_CAT_(a, b)		LFHT_URCU_CAT2_(a, b)
#define LFHT_URCU_CAT2_(a, b)		a##b
#define LFHT_URCU_LGPL_NAME_(name)	LFHT_URCU_CAT_(_, LFHT_URCU_NAME_(name))

static inline void LFHT_URCU_LGPL_NAME_(read_lock)(void) { rcu_read_lock(); }
static inline void LFHT_URCU_LGPL_NAME_(read_unlock)(void) { rcu_read_unlock(); }
static inline int LFHT_URCU_LGPL_NAME_(read_ongoing)(void) { return rcu_read_ongoing(); }
static inline void LFHT_URCU_LGPL_NAME_(quiescent_state)(void)
{
	LFHT_URCU_NAME_(quiescent_state)();
}
static inline void LFHT_URCU_LGPL_NAME_(thread_offline)(void)
{
	LFHT_URCU_NAME_(thread_offline)();
}
static inline void LFHT_URCU_LGPL_NAME_(thread_online)(void)
{
	LFHT_URCU_NAME_(thread_online)();
}

#define _rcu_read_lock			LFHT_URCU_LGPL_NAME_(read_lock)
#define _rcu_read_unlock		LFHT_URCU_LGPL_NAME_(read_unlock)
#define _rcu_read_ongoing		LFHT_URCU_LGPL_NAME_(read_ongoing)
#define _rcu_quiescent_state		LFHT_URCU_LGPL_NAME_(quiescent_state)

static inline void LFHT_URCU_NAME_(register_rculfhash_atfork)(struct urcu_atfork *atfork)
{
	(void)atfork;
}

static inline void LFHT_URCU_NAME_(unregister_rculfhash_atfork)(struct urcu_atfork *atfork)
{
	(void)atfork;
}

static inline void lfht_urcu_defer_rcu_(void (*fct)(void *p), void *p)
{
	LFHT_URCU_NAME_(synchronize_rcu)();
	fct(p);
}

__attribute__((unused))
static const struct rcu_flavor_struct LFHT_URCU_NAME_(flavor) = {
	LFHT_URCU_NAME_(read_lock),
	LFHT_URCU_NAME_(read_unlock),
	LFHT_URCU_NAME_(read_ongoing),
	LFHT_URCU_NAME_(quiescent_state),
	LFHT_URCU_NAME_(call_rcu),
	LFHT_URCU_NAME_(synchronize_rcu),
	lfht_urcu_defer_rcu_,
	LFHT_URCU_NAME_(thread_offline),
	LFHT_URCU_NAME_(thread_online),
	LFHT_URCU_NAME_(register_thread),
	LFHT_URCU_NAME_(unregister_thread),
	LFHT_URCU_NAME_(barrier),
	LFHT_URCU_NAME_(register_rculfhash_atfork),
	LFHT_URCU_NAME_(unregister_rculfhash_atfork),
	LFHT_URCU_NAME_(start_poll_synchronize_rcu),
	LFHT_URCU_NAME_(poll_state_synchronize_rcu),
	&rcu_flavour,
};

#define rcu_flavor			LFHT_URCU_NAME_(flavor)
#define urcu_register_rculfhash_atfork	LFHT_URCU_NAME_(register_rculfhash_atfork)
#define urcu_unregister_rculfhash_atfork LFHT_URCU_NAME_(unregister_rculfhash_atfork)

#endif /* LFHT_URCU_FLAVOR_OBJECT_ */
