/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-poll.h (lfht's liburcu compatibility layer) - liburcu 0.14's
 * polling grace periods: struct urcu_gp_poll_state, the cookie. Each
 * flavour header gives its functions under its prefix
 * (urcu_memb_start_poll_synchronize_rcu(),
 * urcu_qsbr_poll_state_synchronize_rcu() ...: <urcu/lfht-flavour-api.h>),
 * and its map the short names, under URCU_API_MAP:
 *
 *   struct urcu_gp_poll_state start_poll_synchronize_rcu(void);
 *   bool poll_state_synchronize_rcu(struct urcu_gp_poll_state state);
 *
 * also reachable through the flavour object
 * (update_start_poll_synchronize_rcu, update_poll_state_synchronize_rcu of
 * struct rcu_flavor_struct). start_poll_synchronize_rcu() returns at once;
 * poll_state_synchronize_rcu() is true once a full grace period has passed
 * since, and never waits.
 *
 * Over lfht's rcu_poll_start() and rcu_poll_done(): grace_period_id carries
 * lfht's cookie. Differs from liburcu: a grace period that covers the
 * cookie ends with the next synchronize_rcu() of any thread, or with the
 * one the start asked the call_rcu worker for (liburcu: with the latter
 * only).
 */
#ifndef LFHT_URCU_URCU_POLL_H
#define LFHT_URCU_URCU_POLL_H

#include <stdbool.h>

struct urcu_gp_poll_state {
	unsigned long grace_period_id;
};

#endif /* LFHT_URCU_URCU_POLL_H */
