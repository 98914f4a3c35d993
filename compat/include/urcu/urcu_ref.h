/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu_ref.h (lfht's liburcu compatibility layer) - liburcu's older
 * name of <urcu/ref.h>, which it includes.
 */
#ifndef LFHT_URCU_URCU_REF_H
#define LFHT_URCU_URCU_REF_H

#include <urcu/ref.h>

#endif /* LFHT_URCU_URCU_REF_H */
