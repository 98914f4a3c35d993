/* SPDX-License-Identifier: MIT */
/*
 * no_short_names.h - included where none of liburcu's short RCU names
 * (rcu_read_lock, synchronize_rcu, ..., which a flavour header's
 * URCU_API_MAP defines and <urcu/map/clear.h> undoes) may be defined: the
 * build fails if one is. `defined` cannot come out of a macro, so the test
 * is this header (all_headers.c, flavours_side_by_side.c; no include
 * guard: each inclusion tests again).
 */
#if defined(rcu_read_lock) || defined(rcu_read_unlock) || defined(rcu_read_ongoing) || \
	defined(rcu_register_thread) || defined(rcu_unregister_thread) || \
	defined(synchronize_rcu) || defined(call_rcu) || defined(rcu_barrier) || \
	defined(rcu_flavor) || defined(defer_rcu) || defined(rcu_quiescent_state) || \
	defined(rcu_thread_offline) || defined(rcu_thread_online) || \
	defined(get_default_call_rcu_data) || defined(create_call_rcu_data)
#error "a short RCU name is defined where none may be (see the including line)"
#endif
