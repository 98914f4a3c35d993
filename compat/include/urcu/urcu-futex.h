/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu-futex.h (lfht's liburcu compatibility layer) - liburcu's older
 * name of <urcu/futex.h>, which it includes.
 *
 * Differs from liburcu: no #warning that the name is deprecated (liburcu
 * gives one, which -Werror turns into an error).
 */
#ifndef LFHT_URCU_URCU_FUTEX_H
#define LFHT_URCU_URCU_FUTEX_H

#include <urcu/futex.h>

#endif /* LFHT_URCU_URCU_FUTEX_H */
