/* SPDX-License-Identifier: MIT */
/*
 * urcu/tls-compat.h (lfht's liburcu compatibility layer) - liburcu's
 * thread-local storage macros: DECLARE_URCU_TLS(type, name),
 * DEFINE_URCU_TLS(type, name), DEFINE_URCU_TLS_INIT(type, name, init) and
 * URCU_TLS(name). Write `extern DECLARE_URCU_TLS(int, x);` in a header,
 * `DEFINE_URCU_TLS(int, x);` in one file, and use URCU_TLS(x) as an lvalue.
 * <stdlib.h>, <pthread.h>, <urcu/config.h>, <urcu/compiler.h> and
 * <urcu/arch.h> come too, as from liburcu's header.
 *
 * Differs from liburcu: always compiler TLS (thread_local in C++11,
 * _Thread_local in C11, __thread otherwise); no pthread-key fallback.
 */
#ifndef LFHT_URCU_TLS_COMPAT_H
#define LFHT_URCU_TLS_COMPAT_H

#include <pthread.h>
#include <stdlib.h>

#include <urcu/config.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>

#if defined(__cplusplus) && __cplusplus >= 201103L
#define URCU_TLS_STORAGE_CLASS	thread_local
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define URCU_TLS_STORAGE_CLASS	_Thread_local
#else
#define URCU_TLS_STORAGE_CLASS	__thread
#endif

#define DECLARE_URCU_TLS(type, name)		URCU_TLS_STORAGE_CLASS type name
#define DEFINE_URCU_TLS(type, name)		URCU_TLS_STORAGE_CLASS type name
#define DEFINE_URCU_TLS_INIT(type, name, init)	URCU_TLS_STORAGE_CLASS type name = (init)
#define URCU_TLS(name)				(name)

#endif /* LFHT_URCU_TLS_COMPAT_H */
