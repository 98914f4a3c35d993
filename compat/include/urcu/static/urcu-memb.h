/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/urcu-memb.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) read side of the memb flavour; the layer's read side
 * is always inline: <urcu/urcu-memb.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_URCU_MEMB_H
#define LFHT_URCU_URCU_STATIC_URCU_MEMB_H

#include <urcu/static/urcu-common.h>
#include <urcu/urcu-memb.h>

#endif /* LFHT_URCU_URCU_STATIC_URCU_MEMB_H */
