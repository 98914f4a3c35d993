/* SPDX-License-Identifier: MIT */
/*
 * urcu/uatomic/loongarch.h (lfht's liburcu compatibility layer) - a part of
 * liburcu's <urcu/uatomic.h> (per architecture, or the 0.15 API and builtins
 * files), which a program may include itself: here <urcu/uatomic.h>, the
 * same operations on the __atomic builtins for every target.
 *
 * As liburcu's file does (0.14 and later), it defines
 * UATOMIC_HAS_ATOMIC_BYTE and _SHORT whatever the target; <urcu/uatomic.h>
 * alone chooses by architecture.
 */
#ifndef LFHT_URCU_URCU_UATOMIC_LOONGARCH_H
#define LFHT_URCU_URCU_UATOMIC_LOONGARCH_H

#include <urcu/uatomic.h>

#define UATOMIC_HAS_ATOMIC_BYTE
#define UATOMIC_HAS_ATOMIC_SHORT

#endif /* LFHT_URCU_URCU_UATOMIC_LOONGARCH_H */
