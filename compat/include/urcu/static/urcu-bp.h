/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/urcu-bp.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) read side of the bp flavour; the layer's read side
 * is always inline: <urcu/urcu-bp.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_URCU_BP_H
#define LFHT_URCU_URCU_STATIC_URCU_BP_H

#include <urcu/static/urcu-common.h>
#include <urcu/urcu-bp.h>

#endif /* LFHT_URCU_URCU_STATIC_URCU_BP_H */
