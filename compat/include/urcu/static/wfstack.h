/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/wfstack.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) implementation of <urcu/wfstack.h>; the layer's
 * structures are always inline (lfht's <rcuds/...>): <urcu/wfstack.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_WFSTACK_H
#define LFHT_URCU_URCU_STATIC_WFSTACK_H

#include <urcu/wfstack.h>

#endif /* LFHT_URCU_URCU_STATIC_WFSTACK_H */
