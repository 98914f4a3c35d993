/* SPDX-License-Identifier: MIT */
/*
 * urcu-qsbr.h (lfht's liburcu compatibility layer) - liburcu's QSBR
 * flavour with its short names: see <urcu/urcu-qsbr.h>.
 */
#ifndef LFHT_URCU_URCU_QSBR_TOP_H
#define LFHT_URCU_URCU_QSBR_TOP_H

#include <urcu/urcu-qsbr.h>

#endif /* LFHT_URCU_URCU_QSBR_TOP_H */
