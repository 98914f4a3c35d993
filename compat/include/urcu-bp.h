/* SPDX-License-Identifier: MIT */
/*
 * urcu-bp.h (lfht's liburcu compatibility layer) - liburcu's bp flavour
 * with its short names: see <urcu/urcu-bp.h>.
 */
#ifndef LFHT_URCU_URCU_BP_TOP_H
#define LFHT_URCU_URCU_BP_TOP_H

#include <urcu/urcu-bp.h>

#endif /* LFHT_URCU_URCU_BP_TOP_H */
