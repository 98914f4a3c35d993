/* SPDX-License-Identifier: MIT */
/*
 * urcu/lfht-flavour-api.h (lfht's liburcu compatibility layer; not a
 * liburcu header) - the prefixed names every flavour header gives alike,
 * written once as a macro over the two prefixes: LFHT_URCU_FLAVOUR_API_(
 * urcu_memb, rcu_memb) defines urcu_memb_read_lock(), _read_unlock(),
 * _read_ongoing(), their _LGPL_SOURCE forms (_urcu_memb_read_lock() ...),
 * _register_thread(), _unregister_thread(), _synchronize_rcu(), the
 * polling pair _start_poll_synchronize_rcu() and
 * _poll_state_synchronize_rcu() (liburcu 0.14), and the fork hooks
 * _before_fork(), _after_fork_parent(), _after_fork_child(), as static
 * inlines over lfht's rcu_memb_* (<rcu/memb-prefixed.h>); and the
 * quiescent-state names of the flavours without quiescent states
 * (LFHT_URCU_NO_QUIESCENT_API_) and every flavour's _LGPL_SOURCE forms of
 * them (LFHT_URCU_QUIESCENT_LGPL_API_). No short name is defined here: the
 * flavour's map (<urcu/map/urcu-memb.h>) does that.
 *
 * Differs from liburcu: the _LGPL_SOURCE forms exist whether or not
 * _LGPL_SOURCE is defined (everything is inline); the fork hooks do
 * nothing, for every flavour (lfht's own pthread_atfork handlers keep RCU
 * consistent; liburcu declares them for bp, and names them in every map).
 */
#ifndef LFHT_URCU_LFHT_FLAVOUR_API_H
#define LFHT_URCU_LFHT_FLAVOUR_API_H

#include <stdbool.h>
#include <stdint.h>

#include <rcu/flavour.h>
#include <urcu/urcu-poll.h>

/* lfht's cookie fits grace_period_id (64-bit targets only, as lfht). */
typedef char lfht_urcu_poll_id_fits_[sizeof(unsigned long) >= sizeof(uint64_t) ? 1 : -1];

/* Expands to function definitions: no semicolon after it. */
#define LFHT_URCU_FLAVOUR_API_(u, l)					\
	static inline void u##_read_lock(void) { l##_read_lock_inline_(); } \
	static inline void u##_read_unlock(void) { l##_read_unlock_inline_(); } \
	static inline int u##_read_ongoing(void)			\
	{ return l##_read_ongoing_inline_(); }				\
	static inline void _##u##_read_lock(void) { l##_read_lock_inline_(); } \
	static inline void _##u##_read_unlock(void) { l##_read_unlock_inline_(); } \
	static inline int _##u##_read_ongoing(void)			\
	{ return l##_read_ongoing_inline_(); }				\
	static inline void u##_register_thread(void) { l##_register_thread(); } \
	static inline void u##_unregister_thread(void) { l##_unregister_thread(); } \
	static inline void u##_synchronize_rcu(void) { l##_synchronize_rcu(); } \
	static inline struct urcu_gp_poll_state u##_start_poll_synchronize_rcu(void) \
	{								\
		struct urcu_gp_poll_state state;			\
		state.grace_period_id = (unsigned long)l##_poll_start().ticket; \
		return state;						\
	}								\
	static inline bool u##_poll_state_synchronize_rcu(struct urcu_gp_poll_state state) \
	{								\
		struct rcu_poll_cookie cookie;				\
		cookie.ticket = state.grace_period_id;			\
		return l##_poll_done(cookie);				\
	}								\
	static inline void u##_before_fork(void) { }			\
	static inline void u##_after_fork_parent(void) { }		\
	static inline void u##_after_fork_child(void) { }

/*
 * memb, mb and bp: init (lfht initialises the flavour before main) and the
 * quiescent-state names, no-ops as in liburcu (their readers need no
 * quiescent states). QSBR defines its own three instead.
 */
#define LFHT_URCU_NO_QUIESCENT_API_(u)					\
	static inline void u##_init(void) { }				\
	static inline void u##_quiescent_state(void) { }		\
	static inline void u##_thread_offline(void) { }			\
	static inline void u##_thread_online(void) { }

/* The _LGPL_SOURCE forms of a flavour's three quiescent-state names, after
 * those are defined. */
#define LFHT_URCU_QUIESCENT_LGPL_API_(u)					\
	static inline void _##u##_quiescent_state(void) { u##_quiescent_state(); } \
	static inline void _##u##_thread_offline(void) { u##_thread_offline(); } \
	static inline void _##u##_thread_online(void) { u##_thread_online(); }

#endif /* LFHT_URCU_LFHT_FLAVOUR_API_H */
