/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-futex.h (lfht's liburcu compatibility layer) - liburcu's older
 * name of <urcu/futex.h>, which it includes.
 */
#ifndef LFHT_URCU_URCU_FUTEX_H
#define LFHT_URCU_URCU_FUTEX_H

#include <urcu/futex.h>

#endif /* LFHT_URCU_URCU_FUTEX_H */
