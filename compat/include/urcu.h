/* SPDX-License-Identifier: MIT */
/*
 * urcu.h (lfht's liburcu compatibility layer) - liburcu's default flavour,
 * memb, with its short names: see <urcu/urcu-memb.h>.
 */
#ifndef LFHT_URCU_URCU_H
#define LFHT_URCU_URCU_H

#include <urcu/urcu.h>

#endif /* LFHT_URCU_URCU_H */
