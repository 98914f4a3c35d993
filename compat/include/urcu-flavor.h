/* SPDX-License-Identifier: MIT */
/*
 * urcu-flavor.h (lfht's liburcu compatibility layer) - struct
 * rcu_flavor_struct: see <urcu/flavor.h>.
 */
#ifndef LFHT_URCU_FLAVOR_TOP_H
#define LFHT_URCU_FLAVOR_TOP_H

#include <urcu/flavor.h>

#endif /* LFHT_URCU_FLAVOR_TOP_H */
