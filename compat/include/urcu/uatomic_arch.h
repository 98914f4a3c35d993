/* SPDX-License-Identifier: MIT */
/*
 * urcu/uatomic_arch.h (lfht's liburcu compatibility layer) - liburcu's
 * older, deprecated name of <urcu/uatomic.h>, which it includes.
 *
 * Differs from liburcu: no #warning that the name is deprecated (liburcu
 * gives one, which -Werror turns into an error).
 */
#ifndef LFHT_URCU_UATOMIC_ARCH_H
#define LFHT_URCU_UATOMIC_ARCH_H

#include <urcu/uatomic.h>

#endif /* LFHT_URCU_UATOMIC_ARCH_H */
