/* SPDX-License-Identifier: MIT */
/*
 * urcu/map/clear.h (lfht's liburcu compatibility layer) - liburcu undefines
 * here the short names a map header defined, so that a file can map them to
 * another flavour next. In the layer a translation unit holds one flavour
 * and most short names are inline functions of lfht's flavour header, which
 * nothing can undefine: this removes the short names the layer gives as
 * macros (rcu_quiescent_state, rcu_thread_offline, rcu_thread_online,
 * rcu_init), and a second flavour header in the same file is still an
 * error (docs/porting-from-liburcu.md).
 */
#undef rcu_quiescent_state
#undef rcu_thread_offline
#undef rcu_thread_online
#undef rcu_init
