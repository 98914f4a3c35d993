/* SPDX-License-Identifier: MIT */
/*
 * urcu/arch/arm.h (lfht's liburcu compatibility layer) - liburcu's per-
 * architecture part of <urcu/arch.h>, which a program may include itself:
 * here <urcu/arch.h>, whose barriers are C11 fences on every target lfht
 * builds for (x86-64, ARM64, POWER); with <stdlib.h> and <sys/time.h>, which
 * liburcu's header includes.
 */
#ifndef LFHT_URCU_URCU_ARCH_ARM_H
#define LFHT_URCU_URCU_ARCH_ARM_H

#include <stdlib.h>
#include <sys/time.h>

#include <urcu/arch.h>

#endif /* LFHT_URCU_URCU_ARCH_ARM_H */
