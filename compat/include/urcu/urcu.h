/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu.h (lfht's liburcu compatibility layer) - picks liburcu's
 * default flavour, memb (<urcu/urcu-memb.h>), as liburcu does when neither
 * RCU_SIGNAL nor RCU_MB is defined.
 *
 * Differs from liburcu: the signal and mb flavours are not provided;
 * defining RCU_SIGNAL or RCU_MB is an error.
 */
#ifndef LFHT_URCU_URCU_URCU_H
#define LFHT_URCU_URCU_URCU_H

#if defined(RCU_SIGNAL) || defined(RCU_MB)
#error "lfht's liburcu compatibility layer has the memb and qsbr flavours only (RCU_SIGNAL, RCU_MB: liburcu's signal and mb flavours)"
#endif
#include <urcu/urcu-memb.h>

#endif /* LFHT_URCU_URCU_URCU_H */
