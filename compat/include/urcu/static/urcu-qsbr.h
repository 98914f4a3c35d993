/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/urcu-qsbr.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) read side of the qsbr flavour; the layer's read side
 * is always inline: <urcu/urcu-qsbr.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_URCU_QSBR_H
#define LFHT_URCU_URCU_STATIC_URCU_QSBR_H

#include <urcu/static/urcu-common.h>
#include <limits.h>
#include <urcu/urcu-qsbr.h>

#endif /* LFHT_URCU_URCU_STATIC_URCU_QSBR_H */
