/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/urcu.h (lfht's liburcu compatibility layer) - the inline read
 * side of the flavour <urcu.h> selects (memb, or mb with RCU_MB); always
 * inline in the layer: <urcu/urcu.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_URCU_H
#define LFHT_URCU_URCU_STATIC_URCU_H

#include <urcu/urcu.h>

#endif /* LFHT_URCU_URCU_STATIC_URCU_H */
