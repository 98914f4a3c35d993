/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu.h (lfht's liburcu compatibility layer) - picks a flavour as
 * liburcu does: memb (<urcu/urcu-memb.h>) when RCU_MEMBARRIER is defined, or
 * when none of RCU_MEMBARRIER, RCU_SIGNAL and RCU_MB is (RCU_MEMBARRIER is
 * then defined, as liburcu does); mb (<urcu/urcu-mb.h>)
 * when RCU_MB is defined (and RCU_MEMBARRIER is not).
 *
 * Differs from liburcu: the signal flavour is not provided; defining
 * RCU_SIGNAL (without RCU_MEMBARRIER) is an error that names memb, which
 * gives the same cheap read side without signals.
 */
#ifndef LFHT_URCU_URCU_URCU_H
#define LFHT_URCU_URCU_URCU_H

#if !defined(RCU_MEMBARRIER) && !defined(RCU_SIGNAL) && !defined(RCU_MB)
#define RCU_MEMBARRIER
#endif

#if defined(RCU_MEMBARRIER)
#include <urcu/urcu-memb.h>
#elif defined(RCU_SIGNAL)
#error "lfht's liburcu compatibility layer has no signal flavour (RCU_SIGNAL): use memb instead (define nothing, or RCU_MEMBARRIER), whose read side is as cheap and needs no signal"
#else
#include <urcu/urcu-mb.h>
#endif

#endif /* LFHT_URCU_URCU_URCU_H */
