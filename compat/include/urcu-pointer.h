/* SPDX-License-Identifier: MIT */
/*
 * urcu-pointer.h (lfht's liburcu compatibility layer) - RCU-protected
 * pointers: see <urcu/pointer.h>.
 */
#ifndef LFHT_URCU_POINTER_TOP_H
#define LFHT_URCU_POINTER_TOP_H

#include <urcu/pointer.h>

#endif /* LFHT_URCU_POINTER_TOP_H */
