/* SPDX-License-Identifier: MIT */
/*
 * urcu/uatomic_arch.h (lfht's liburcu compatibility layer) - liburcu's
 * older name of <urcu/uatomic.h>, which it includes.
 */
#ifndef LFHT_URCU_UATOMIC_ARCH_H
#define LFHT_URCU_UATOMIC_ARCH_H

#include <urcu/uatomic.h>

#endif /* LFHT_URCU_UATOMIC_ARCH_H */
