/* SPDX-License-Identifier: MIT */
/*
 * urcu/map/urcu-bp.h (lfht's liburcu compatibility layer) - liburcu maps the
 * short names (rcu_read_lock ...) to the bp flavour's urcu_bp_* names here;
 * <urcu/urcu-bp.h> does both in the layer.
 */
#ifndef LFHT_URCU_URCU_MAP_URCU_BP_H
#define LFHT_URCU_URCU_MAP_URCU_BP_H

#include <urcu/urcu-bp.h>

#endif /* LFHT_URCU_URCU_MAP_URCU_BP_H */
