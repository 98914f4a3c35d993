/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/urcu.h (lfht's liburcu compatibility layer) - the inline read
 * side of the flavour <urcu.h> selects, as liburcu's: memb's static header
 * (RCU_MEMBARRIER, or nothing defined), or mb's (RCU_MB).
 */
#ifndef LFHT_URCU_URCU_STATIC_URCU_H
#define LFHT_URCU_URCU_STATIC_URCU_H

#if !defined(RCU_MEMBARRIER) && !defined(RCU_SIGNAL) && !defined(RCU_MB)
#define RCU_MEMBARRIER
#endif

#if defined(RCU_MEMBARRIER)
#include <urcu/static/urcu-memb.h>
#elif defined(RCU_MB)
#include <urcu/static/urcu-mb.h>
#else
#include <urcu/urcu.h>	/* RCU_SIGNAL: its error */
#endif

#endif /* LFHT_URCU_URCU_STATIC_URCU_H */
