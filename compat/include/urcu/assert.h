/* SPDX-License-Identifier: MIT */
/*
 * urcu/assert.h (lfht's liburcu compatibility layer) - liburcu 0.14's
 * assertions:
 *
 *   urcu_posix_assert(cond)  assert(cond); with NDEBUG, cond is not
 *                            evaluated but still type-checked (so a
 *                            variable only an assertion reads stays used)
 *   urcu_assert_debug(cond)  urcu_posix_assert(cond) when DEBUG_RCU or
 *                            CONFIG_RCU_DEBUG is defined, else like the
 *                            NDEBUG form: for checks too costly to keep on
 *
 * lfht's own misuse checks (RCU_DEBUG_CHECKS, debug builds) are separate:
 * they abort with a message naming the call whatever these say.
 */
#ifndef LFHT_URCU_ASSERT_H
#define LFHT_URCU_ASSERT_H

#include <assert.h>

#include <urcu/config.h>

/* Type-checks cond without evaluating it. */
#define lfht_urcu_unevaluated_(cond)	((void)sizeof((void)(cond), 0))

#ifdef NDEBUG
#define urcu_posix_assert(cond)		lfht_urcu_unevaluated_(cond)
#else
#define urcu_posix_assert(cond)		assert(cond)
#endif

#if defined(DEBUG_RCU) || defined(CONFIG_RCU_DEBUG)
#define urcu_assert_debug(cond)		urcu_posix_assert(cond)
#else
#define urcu_assert_debug(cond)		lfht_urcu_unevaluated_(cond)
#endif

#endif /* LFHT_URCU_ASSERT_H */
