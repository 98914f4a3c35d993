/* SPDX-License-Identifier: MIT */
/*
 * urcu.h (lfht's liburcu compatibility layer) - liburcu's default flavour,
 * memb, or mb when RCU_MB is defined first (<urcu/urcu.h>)
 * with its short names: defines URCU_API_MAP, as liburcu's does, so that the
 * flavour's map (rcu_read_lock, synchronize_rcu, call_rcu, rcu_flavor ...)
 * stays in force after the flavour header.
 */
#ifndef LFHT_URCU_URCU_H
#define LFHT_URCU_URCU_H

#ifndef URCU_API_MAP
#define URCU_API_MAP
#endif
#include <urcu/urcu.h>

#endif /* LFHT_URCU_URCU_H */
