/* SPDX-License-Identifier: MIT */
/*
 * urcu/uatomic/generic.h (lfht's liburcu compatibility layer) - a part of
 * liburcu's <urcu/uatomic.h> (per architecture, or the 0.15 API and builtins
 * files), which a program may include itself: here <urcu/uatomic.h>, the
 * same operations on the __atomic builtins for every target.
 */
#ifndef LFHT_URCU_URCU_UATOMIC_GENERIC_H
#define LFHT_URCU_URCU_UATOMIC_GENERIC_H

#include <urcu/uatomic.h>

#endif /* LFHT_URCU_URCU_UATOMIC_GENERIC_H */
