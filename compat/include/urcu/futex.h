/* SPDX-License-Identifier: MIT */
/*
 * urcu/futex.h (lfht's liburcu compatibility layer) - liburcu's futex
 * helpers: FUTEX_WAIT, FUTEX_WAKE, futex(), futex_noasync(),
 * futex_async(), CONFIG_RCU_HAVE_FUTEX; lfht's own, from <rcuds/futex.h>
 * (see its comments), with <urcu/config.h>, <urcu/syscall-compat.h>,
 * <urcu/compiler.h> and <urcu/arch.h>, which liburcu's header includes.
 *
 * Differs from liburcu: Linux only, where each helper is the futex system
 * call; there is no fallback emulation, so compat_futex_noasync() and
 * compat_futex_async() (liburcu's exported emulation, used where the
 * system call fails with ENOSYS) are not declared and nothing is linked.
 */
#ifndef LFHT_URCU_FUTEX_H
#define LFHT_URCU_FUTEX_H

#include <urcu/config.h>
#include <urcu/syscall-compat.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <rcuds/futex.h>

/* The futex system call is there (liburcu's configuration macro). */
#define CONFIG_RCU_HAVE_FUTEX	1

#endif /* LFHT_URCU_FUTEX_H */
