/* SPDX-License-Identifier: MIT */
/*
 * urcu/map/urcu-memb.h (lfht's liburcu compatibility layer) - liburcu maps
 * the short names (rcu_read_lock ...) to the memb flavour's urcu_memb_*
 * names here; <urcu/urcu-memb.h> does both in the layer.
 */
#ifndef LFHT_URCU_URCU_MAP_URCU_MEMB_H
#define LFHT_URCU_URCU_MAP_URCU_MEMB_H

#include <urcu/urcu-memb.h>

#endif /* LFHT_URCU_URCU_MAP_URCU_MEMB_H */
