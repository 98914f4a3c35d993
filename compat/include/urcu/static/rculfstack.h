/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/rculfstack.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) implementation of <urcu/rculfstack.h>; the layer's
 * structures are always inline (lfht's <rcuds/...>): <urcu/rculfstack.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_RCULFSTACK_H
#define LFHT_URCU_URCU_STATIC_RCULFSTACK_H

#include <urcu/rculfstack.h>

#endif /* LFHT_URCU_URCU_STATIC_RCULFSTACK_H */
