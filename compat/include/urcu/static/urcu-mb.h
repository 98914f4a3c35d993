/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/urcu-mb.h (lfht's liburcu compatibility layer) - liburcu's
 * inline (_LGPL_SOURCE) read side of the mb flavour; the layer's read side
 * is always inline: <urcu/urcu-mb.h>.
 */
#ifndef LFHT_URCU_URCU_STATIC_URCU_MB_H
#define LFHT_URCU_URCU_STATIC_URCU_MB_H

#include <urcu/static/urcu-common.h>
#include <urcu/urcu-mb.h>

#endif /* LFHT_URCU_URCU_STATIC_URCU_MB_H */
