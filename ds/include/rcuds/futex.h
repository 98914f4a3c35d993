/* SPDX-License-Identifier: MIT */
/**
 * \file rcuds/futex.h
 * \brief The futex helpers of liburcu (futex(), futex_noasync(),
 * futex_async(), FUTEX_WAIT, FUTEX_WAKE): wait until a 32-bit word changes,
 * wake its waiters.
 *
 * Here rather than in the RCU core (rcu/): the core's own waits use a
 * private helper (rcu/src/futex.h) that is no part of its API, while these
 * are liburcu's public names for programs and data structures that build
 * their own blocking, header-only like the rest of rcuds. Linux only, as
 * lfht: each helper is the futex system call itself, so nothing is
 * exported and no compatibility emulation (liburcu's compat_futex_*) is
 * needed or given.
 *
 * The usual protocol: the waiter loads the word and, while it holds the
 * value meaning "wait", calls futex_noasync(&w, FUTEX_WAIT, value, NULL,
 * NULL, 0); the waker changes the word (an atomic store), then calls
 * futex_noasync(&w, FUTEX_WAKE, n, NULL, NULL, 0). FUTEX_WAIT returns at
 * once (-1, errno EAGAIN) when the word no longer holds the value, and may
 * return early (EINTR, or spuriously): waiters re-check the word in a
 * loop. The operations are the shared (not process-private) ones, as in
 * liburcu, so the word may also live in shared memory.
 */
#ifndef RCUDS_FUTEX_H
#define RCUDS_FUTEX_H

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \cond INTERNAL */
#ifndef __cplusplus
/* glibc declares syscall() only with _DEFAULT_SOURCE or _GNU_SOURCE, which
 * a strict -std=c11 build lacks; the same prototype again is harmless
 * where it has. (C++ compilers define _GNU_SOURCE.) */
long syscall(long number, ...);
#endif
/** \endcond */

#ifndef FUTEX_WAIT
/** \brief Sleep while the word holds the given value (<linux/futex.h>'s
 * value). */
#define FUTEX_WAIT		0
#endif
#ifndef FUTEX_WAKE
/** \brief Wake up to the given number of waiters (<linux/futex.h>'s
 * value). */
#define FUTEX_WAKE		1
#endif

/**
 * \brief The futex system call.
 * \param uaddr The 32-bit word (4-byte aligned).
 * \param op FUTEX_WAIT, FUTEX_WAKE or another operation of futex(2).
 * \param val FUTEX_WAIT: the value to sleep on; FUTEX_WAKE: how many
 * waiters to wake (INT32_MAX: all).
 * \param timeout FUTEX_WAIT: a relative timeout, or NULL for none.
 * \param uaddr2 The second word of the operations that take one, or NULL.
 * \param val3 The operations' third value, or 0.
 * \return futex(2)'s result: 0 (FUTEX_WAIT woken, or returned early), the
 * number of waiters woken (FUTEX_WAKE); -1 with errno set on error
 * (EAGAIN: the word did not hold \a val; EINTR; ETIMEDOUT).
 * \ordering The kernel reads the word; order the caller's own accesses to
 * it with atomics (a waker's store before its FUTEX_WAKE).
 */
static inline int futex(int32_t *uaddr, int op, int32_t val, const struct timespec *timeout,
			int32_t *uaddr2, int32_t val3)
{
	return (int)syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}

/**
 * \brief futex(), under liburcu's name for a word that only threads use
 * (not signal handlers). Here the same system call as futex_async().
 * \param uaddr The 32-bit word.
 * \param op FUTEX_WAIT or FUTEX_WAKE (or another operation of futex(2)).
 * \param val The value to sleep on, or how many waiters to wake.
 * \param timeout A relative timeout for FUTEX_WAIT, or NULL.
 * \param uaddr2 The second word, or NULL.
 * \param val3 The third value, or 0.
 * \return As futex().
 */
static inline int futex_noasync(int32_t *uaddr, int op, int32_t val,
				const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	return futex(uaddr, op, val, timeout, uaddr2, val3);
}

/**
 * \brief futex(), under liburcu's name for a word that a signal handler
 * may wake (the system call is async-signal-safe).
 * \param uaddr The 32-bit word.
 * \param op FUTEX_WAIT or FUTEX_WAKE (or another operation of futex(2)).
 * \param val The value to sleep on, or how many waiters to wake.
 * \param timeout A relative timeout for FUTEX_WAIT, or NULL.
 * \param uaddr2 The second word, or NULL.
 * \param val3 The third value, or 0.
 * \return As futex().
 */
static inline int futex_async(int32_t *uaddr, int op, int32_t val,
			      const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	return futex(uaddr, op, val, timeout, uaddr2, val3);
}

#ifdef __cplusplus
}
#endif

#endif /* RCUDS_FUTEX_H */
