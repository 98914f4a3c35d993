/* SPDX-License-Identifier: MIT */
/*
 * urcu/futex.h (lfht's liburcu compatibility layer) - liburcu's futex
 * helpers: FUTEX_WAIT, FUTEX_WAKE, futex(), futex_noasync(),
 * futex_async(), compat_futex_noasync(), compat_futex_async(),
 * CONFIG_RCU_HAVE_FUTEX; lfht's own, from <rcuds/futex.h> (see its
 * comments), with <urcu/config.h>, <urcu/syscall-compat.h>,
 * <urcu/compiler.h>, <urcu/arch.h>, <errno.h>, <stdint.h>, <time.h> and
 * <unistd.h>, which liburcu's header includes.
 *
 * Differs from liburcu: Linux only, where each helper is the futex system
 * call; there is no fallback emulation, so compat_futex_noasync() and
 * compat_futex_async() (liburcu's exported emulation, used where the
 * system call fails with ENOSYS) are the system call too, inline, and
 * nothing is linked.
 */
#ifndef LFHT_URCU_FUTEX_H
#define LFHT_URCU_FUTEX_H

#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <urcu/config.h>
#include <urcu/syscall-compat.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <rcuds/futex.h>

/* The futex system call is there (liburcu's configuration macro). */
#define CONFIG_RCU_HAVE_FUTEX	1

/* liburcu's emulation for systems without the system call, which Linux
 * always has: futex_noasync() and futex_async() under those names. */
static inline int compat_futex_noasync(int32_t *uaddr, int op, int32_t val,
				       const struct timespec *timeout, int32_t *uaddr2,
				       int32_t val3)
{
	return futex_noasync(uaddr, op, val, timeout, uaddr2, val3);
}

static inline int compat_futex_async(int32_t *uaddr, int op, int32_t val,
				     const struct timespec *timeout, int32_t *uaddr2,
				     int32_t val3)
{
	return futex_async(uaddr, op, val, timeout, uaddr2, val3);
}

#endif /* LFHT_URCU_FUTEX_H */
