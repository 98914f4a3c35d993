/* SPDX-License-Identifier: MIT */
/*
 * futex.h - the two futex operations the waits use (process-private).
 * Callers always re-check their condition after futex_wait() returns: it
 * returns on wake-ups, on signals, when *addr != val already, and
 * spuriously (a wake meant for an earlier user of the same address).
 */
#ifndef RCU_SRC_FUTEX_H
#define RCU_SRC_FUTEX_H

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sleeps while *addr == val. */
static inline void futex_wait(_Atomic int32_t *addr, int32_t val)
{
	(void)syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

/* Wakes up to n sleepers on addr. */
static inline void futex_wake(_Atomic int32_t *addr, int n)
{
	(void)syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

#endif /* RCU_SRC_FUTEX_H */
