/* SPDX-License-Identifier: MIT */
/*
 * urcu/flavor.h (lfht's liburcu compatibility layer) - struct
 * rcu_flavor_struct, the table of a flavour's operations, and struct
 * urcu_atfork; and, once per translation unit, from the first flavour
 * header included (which includes this file again), that flavour's object
 * (urcu_memb_flavor, urcu_qsbr_flavor, urcu_bp_flavor or urcu_mb_flavor;
 * rcu_flavor under URCU_API_MAP), which cds_lfht_new_flavor() accepts, and
 * its urcu_<flavour>_register_rculfhash_atfork() and
 * _unregister_rculfhash_atfork().
 *
 * Differs from liburcu: the flavour object is a static const object of each
 * translation unit (so its address differs between files), and the struct
 * ends with a member of lfht's, lfht_flavour_, naming the lfht flavour it
 * stands for; a flavour object a program builds itself must set it, so
 * DEFINE_RCU_FLAVOR is not given. update_defer_rcu is the flavour's
 * defer_rcu (<urcu/defer.h>); the rculfhash atfork hooks do nothing
 * (lfht's own pthread_atfork handlers keep RCU and the tables' workers
 * consistent).
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
 * again near its end) has chosen the flavour; once per unit. */
#if defined(LFHT_URCU_NAME_) && !defined(LFHT_URCU_FLAVOR_OBJECT_)
#define LFHT_URCU_FLAVOR_OBJECT_ 1

static inline void LFHT_URCU_NAME_(register_rculfhash_atfork)(struct urcu_atfork *atfork)
{
	(void)atfork;
}

static inline void LFHT_URCU_NAME_(unregister_rculfhash_atfork)(struct urcu_atfork *atfork)
{
	(void)atfork;
}

__attribute__((unused))
static const struct rcu_flavor_struct LFHT_URCU_NAME_(flavor) = {
	LFHT_URCU_NAME_(read_lock),
	LFHT_URCU_NAME_(read_unlock),
	LFHT_URCU_NAME_(read_ongoing),
	LFHT_URCU_NAME_(quiescent_state),
	LFHT_URCU_NAME_(call_rcu),
	LFHT_URCU_NAME_(synchronize_rcu),
	LFHT_URCU_NAME_(defer_rcu),
	LFHT_URCU_NAME_(thread_offline),
	LFHT_URCU_NAME_(thread_online),
	LFHT_URCU_NAME_(register_thread),
	LFHT_URCU_NAME_(unregister_thread),
	LFHT_URCU_NAME_(barrier),
	LFHT_URCU_NAME_(register_rculfhash_atfork),
	LFHT_URCU_NAME_(unregister_rculfhash_atfork),
	LFHT_URCU_NAME_(start_poll_synchronize_rcu),
	LFHT_URCU_NAME_(poll_state_synchronize_rcu),
	&LFHT_URCU_LFHT_(flavour),
};

#endif /* LFHT_URCU_FLAVOR_OBJECT_ */
