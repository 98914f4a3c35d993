/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/rculfqueue.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) implementation of <urcu/rculfqueue.h>; the layer's
 * structures are always inline (lfht's <rcuds/...>): <urcu/rculfqueue.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_RCULFQUEUE_H
#define LFHT_URCU_URCU_STATIC_RCULFQUEUE_H

#include <urcu/rculfqueue.h>

#endif /* LFHT_URCU_URCU_STATIC_RCULFQUEUE_H */
