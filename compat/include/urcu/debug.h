/* SPDX-License-Identifier: MIT */
/*
 * urcu/debug.h (lfht's liburcu compatibility layer) - liburcu's older
 * assertion name, urcu_assert(cond): urcu_assert_debug(cond) of
 * <urcu/assert.h> (checked only when DEBUG_RCU or CONFIG_RCU_DEBUG is
 * defined, otherwise type-checked and not evaluated), and <urcu/assert.h>
 * itself, as liburcu 0.14 and later define it.
 */
#ifndef LFHT_URCU_DEBUG_H
#define LFHT_URCU_DEBUG_H

#include <urcu/assert.h>

#define urcu_assert(cond)	urcu_assert_debug(cond)

#endif /* LFHT_URCU_DEBUG_H */
