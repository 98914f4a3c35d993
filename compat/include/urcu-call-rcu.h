/* SPDX-License-Identifier: MIT */
/*
 * urcu-call-rcu.h (lfht's liburcu compatibility layer) - the call_rcu_data
 * API: see <urcu/call-rcu.h>.
 */
#ifndef LFHT_URCU_CALL_RCU_TOP_H
#define LFHT_URCU_CALL_RCU_TOP_H

#include <urcu/call-rcu.h>

#endif /* LFHT_URCU_CALL_RCU_TOP_H */
