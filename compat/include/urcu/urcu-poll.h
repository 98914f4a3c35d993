/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-poll.h (lfht's liburcu compatibility layer) - liburcu 0.14's
 * polling grace periods: struct urcu_gp_poll_state, the cookie, here; the
 * functions come with each flavour header (<urcu/urcu-memb.h>,
 * <urcu/urcu-qsbr.h>, which include this file):
 *
 *   struct urcu_gp_poll_state start_poll_synchronize_rcu(void);
 *   bool poll_state_synchronize_rcu(struct urcu_gp_poll_state state);
 *
 * and their urcu_memb_ / urcu_qsbr_ prefixed forms, also reachable through
 * the flavour object (update_start_poll_synchronize_rcu,
 * update_poll_state_synchronize_rcu of struct rcu_flavor_struct).
 * start_poll_synchronize_rcu() returns at once; poll_state_synchronize_rcu()
 * is true once a full grace period has passed since, and never waits.
 *
 * Over lfht's rcu_poll_start() and rcu_poll_done() (<rcu/qsbr.h>,
 * <rcu/memb.h>): grace_period_id carries lfht's cookie. Differs from
 * liburcu: a grace period that covers the cookie ends with the next
 * synchronize_rcu() of any thread, or with the one the start asked the
 * call_rcu worker for (liburcu: with the latter only).
 */
#ifndef LFHT_URCU_URCU_POLL_H
#define LFHT_URCU_URCU_POLL_H

struct urcu_gp_poll_state {
	unsigned long grace_period_id;
};

#endif /* LFHT_URCU_URCU_POLL_H */

/* The functions, once a flavour header (which includes this file again at
 * its end) has chosen the flavour. */
#if defined(LFHT_URCU_NAME_) && !defined(LFHT_URCU_POLL_FUNCTIONS_)
#define LFHT_URCU_POLL_FUNCTIONS_ 1

#include <stdbool.h>
#include <stdint.h>

/* lfht's cookie fits grace_period_id (64-bit targets only, as lfht). */
typedef char lfht_urcu_poll_id_fits_[sizeof(unsigned long) >= sizeof(uint64_t) ? 1 : -1];

static inline struct urcu_gp_poll_state LFHT_URCU_NAME_(start_poll_synchronize_rcu)(void)
{
	struct urcu_gp_poll_state state;

	state.grace_period_id = (unsigned long)rcu_poll_start().ticket;
	return state;
}

static inline bool LFHT_URCU_NAME_(poll_state_synchronize_rcu)(struct urcu_gp_poll_state state)
{
	struct rcu_poll_cookie cookie;

	cookie.ticket = state.grace_period_id;
	return rcu_poll_done(cookie);
}

#define start_poll_synchronize_rcu	LFHT_URCU_NAME_(start_poll_synchronize_rcu)
#define poll_state_synchronize_rcu	LFHT_URCU_NAME_(poll_state_synchronize_rcu)

#endif /* LFHT_URCU_POLL_FUNCTIONS_ */
