/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/lfstack.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) implementation of <urcu/lfstack.h>; the layer's
 * structures are always inline (lfht's <rcuds/...>): <urcu/lfstack.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_LFSTACK_H
#define LFHT_URCU_URCU_STATIC_LFSTACK_H

#include <urcu/lfstack.h>

#endif /* LFHT_URCU_URCU_STATIC_LFSTACK_H */
