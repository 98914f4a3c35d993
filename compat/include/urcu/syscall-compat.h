/* SPDX-License-Identifier: MIT */
/*
 * urcu/syscall-compat.h (lfht's liburcu compatibility layer) - the system
 * call numbers (__NR_* and SYS_*) of <sys/syscall.h>, which liburcu's
 * header gives on every system it supports.
 *
 * Differs from liburcu: Linux only, as lfht; <sys/syscall.h> rather than
 * glibc's <syscall.h>, which only includes it.
 */
#ifndef LFHT_URCU_SYSCALL_COMPAT_H
#define LFHT_URCU_SYSCALL_COMPAT_H

#include <sys/syscall.h>

#endif /* LFHT_URCU_SYSCALL_COMPAT_H */
