/* SPDX-License-Identifier: MIT */
/*
 * urcu-defer.h (lfht's liburcu compatibility layer) - defer_rcu(): see
 * <urcu/defer.h>.
 */
#ifndef LFHT_URCU_DEFER_TOP_H
#define LFHT_URCU_DEFER_TOP_H

#include <urcu/defer.h>

#endif /* LFHT_URCU_DEFER_TOP_H */
