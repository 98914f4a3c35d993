/* SPDX-License-Identifier: MIT */
/*
 * urcu/map/urcu-qsbr.h (lfht's liburcu compatibility layer) - liburcu maps
 * the short names (rcu_read_lock ...) to the qsbr flavour's urcu_qsbr_*
 * names here; <urcu/urcu-qsbr.h> does both in the layer.
 */
#ifndef LFHT_URCU_URCU_MAP_URCU_QSBR_H
#define LFHT_URCU_URCU_MAP_URCU_QSBR_H

#include <urcu/urcu-qsbr.h>

#endif /* LFHT_URCU_URCU_MAP_URCU_QSBR_H */
