/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/wfqueue.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) implementation of <urcu/wfqueue.h>; the layer's
 * structures are always inline (lfht's <rcuds/...>): <urcu/wfqueue.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_WFQUEUE_H
#define LFHT_URCU_URCU_STATIC_WFQUEUE_H

#include <urcu/wfqueue.h>

#endif /* LFHT_URCU_URCU_STATIC_WFQUEUE_H */
