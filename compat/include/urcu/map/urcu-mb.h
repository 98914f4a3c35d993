/* SPDX-License-Identifier: MIT */
/*
 * urcu/map/urcu-mb.h (lfht's liburcu compatibility layer) - liburcu maps the
 * short names (rcu_read_lock ...) to the mb flavour's urcu_mb_* names here;
 * <urcu/urcu-mb.h> does both in the layer.
 */
#ifndef LFHT_URCU_URCU_MAP_URCU_MB_H
#define LFHT_URCU_URCU_MAP_URCU_MB_H

#include <urcu/urcu-mb.h>

#endif /* LFHT_URCU_URCU_MAP_URCU_MB_H */
