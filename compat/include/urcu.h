/* SPDX-License-Identifier: MIT */
/*
 * urcu.h (lfht's liburcu compatibility layer) - liburcu's default flavour,
 * memb, or mb when RCU_MB is defined first, with its short names: see
 * <urcu/urcu.h>, <urcu/urcu-memb.h> and <urcu/urcu-mb.h>.
 */
#ifndef LFHT_URCU_URCU_H
#define LFHT_URCU_URCU_H

#include <urcu/urcu.h>

#endif /* LFHT_URCU_URCU_H */
