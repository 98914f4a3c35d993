/* SPDX-License-Identifier: MIT */
/*
 * urcu-qsbr.h (lfht's liburcu compatibility layer) - liburcu's QSBR
 * flavour (<urcu/urcu-qsbr.h>)
 * with its short names: defines URCU_API_MAP, as liburcu's does, so that the
 * flavour's map (rcu_read_lock, synchronize_rcu, call_rcu, rcu_flavor ...)
 * stays in force after the flavour header.
 */
#ifndef LFHT_URCU_URCU_QSBR_TOP_H
#define LFHT_URCU_URCU_QSBR_TOP_H

#ifndef URCU_API_MAP
#define URCU_API_MAP
#endif
#include <urcu/urcu-qsbr.h>

#endif /* LFHT_URCU_URCU_QSBR_TOP_H */
