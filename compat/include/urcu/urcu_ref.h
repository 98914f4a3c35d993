/* SPDX-License-Identifier: MIT */
/*
 * urcu/urcu_ref.h (lfht's liburcu compatibility layer) - liburcu's older
 * name of <urcu/ref.h>, which it includes.
 *
 * Differs from liburcu: no #warning that the name is deprecated (liburcu
 * gives one, which -Werror turns into an error).
 */
#ifndef LFHT_URCU_URCU_REF_H
#define LFHT_URCU_URCU_REF_H

#include <urcu/ref.h>

#endif /* LFHT_URCU_URCU_REF_H */
