/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/wfcqueue.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) implementation of <urcu/wfcqueue.h>; the layer's
 * structures are always inline (lfht's <rcuds/...>): <urcu/wfcqueue.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_WFCQUEUE_H
#define LFHT_URCU_URCU_STATIC_WFCQUEUE_H

#include <urcu/wfcqueue.h>

#endif /* LFHT_URCU_URCU_STATIC_WFCQUEUE_H */
