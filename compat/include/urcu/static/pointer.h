/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/pointer.h (lfht's liburcu compatibility layer) - liburcu's
 * inline rcu_dereference and friends (_rcu_dereference ...):
 * <urcu/pointer.h> gives both forms.
 */
#ifndef LFHT_URCU_URCU_STATIC_POINTER_H
#define LFHT_URCU_URCU_STATIC_POINTER_H

#include <urcu/pointer.h>

#endif /* LFHT_URCU_URCU_STATIC_POINTER_H */
