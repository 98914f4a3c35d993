/* SPDX-License-Identifier: MIT */
/*
 * urcu/map/urcu.h (lfht's liburcu compatibility layer) - the name mapping of
 * the flavour <urcu.h> selects (memb, or mb with RCU_MB): <urcu/urcu.h>.
 */
#ifndef LFHT_URCU_URCU_MAP_URCU_H
#define LFHT_URCU_URCU_MAP_URCU_H

#include <urcu/urcu.h>

#endif /* LFHT_URCU_URCU_MAP_URCU_H */
