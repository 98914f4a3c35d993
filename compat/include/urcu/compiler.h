/* SPDX-License-Identifier: MIT */
/*
 * urcu/compiler.h (lfht's liburcu compatibility layer) - liburcu's compiler
 * helpers: caa_likely, caa_unlikely, cmm_barrier, CMM_ACCESS_ONCE,
 * caa_container_of, caa_container_of_check_null, caa_max, caa_min, CAA_BITS_PER_LONG, CAA_ARRAY_SIZE,
 * CAA_BUILD_BUG_ON, URCU_FORCE_CAST, caa_is_signed_type,
 * caa_cast_long_keep_sign, CDS_DEPRECATED, __rcu, CMM_SANITIZE_THREAD (defined
 * when the unit is built with ThreadSanitizer, unless the program defined
 * it); and <urcu/config.h>, which liburcu 0.15's header includes.
 *
 * Differs from liburcu: caa_container_of is lfht's (<rcu/flavour.h>), which
 * does not check the pointer's type. CMM_ACCESS_ONCE is a volatile lvalue, as
 * in liburcu (it may be assigned to); prefer CMM_LOAD_SHARED and
 * CMM_STORE_SHARED (<urcu/system.h>), which are atomic accesses here.
 * CMM_SANITIZE_THREAD is defined as 1 (liburcu: empty), so #if tests it too.
 */
#ifndef LFHT_URCU_COMPILER_H
#define LFHT_URCU_COMPILER_H

#include <stddef.h>

#include <rcu/flavour.h>	/* caa_container_of */
#include <urcu/config.h>

#define caa_likely(x)		__builtin_expect(!!(x), 1)
#define caa_unlikely(x)		__builtin_expect(!!(x), 0)

/* Compiler-only barrier: orders nothing between CPUs (liburcu's
 * cmm_barrier(), an empty asm with a memory clobber). */
#define cmm_barrier()		__atomic_signal_fence(__ATOMIC_SEQ_CST)

/* A volatile access: neither torn by the compiler nor merged, nor atomic in
 * the C11 sense. Kept for liburcu programs that assign through it. */
#define CMM_ACCESS_ONCE(x)	(*(__volatile__ __typeof__(x) *)&(x))

/* caa_container_of(), but NULL for a NULL ptr (liburcu 0.14). */
#define caa_container_of_check_null(ptr, type, member)			\
	__extension__ ({						\
		__typeof__(ptr) lfht_urcu_ptr_ = (ptr);			\
		lfht_urcu_ptr_ ? caa_container_of(lfht_urcu_ptr_, type, member) \
			       : (type *)NULL;				\
	})

#define caa_max(a, b)		((a) > (b) ? (a) : (b))
#define caa_min(a, b)		((a) < (b) ? (a) : (b))

#define CAA_BITS_PER_LONG	(__SIZEOF_LONG__ * 8)
#define CAA_ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

#define CAA_BUILD_BUG_ON_ZERO(cond)	(sizeof(char[1 - 2 * !!(cond)]) - 1)
#define CAA_BUILD_BUG_ON(cond)		((void)CAA_BUILD_BUG_ON_ZERO(cond))

#ifdef __cplusplus
#define URCU_FORCE_CAST(type, arg)	(reinterpret_cast<type>(arg))
#else
#define URCU_FORCE_CAST(type, arg)	((type)(arg))
#endif

#define caa_is_signed_type(type)	((type)-1 < (type)0)
#define caa_cast_long_keep_sign(v)	((unsigned long)(v))

#define CDS_DEPRECATED(msg)	__attribute__((deprecated(msg)))

/* liburcu's sparse annotation of RCU-protected pointers: nothing here. */
#define __rcu

/* Built with ThreadSanitizer (gcc's and clang's spellings); a program may
 * define it itself for a compiler that says neither. */
#ifndef CMM_SANITIZE_THREAD
#if defined(__SANITIZE_THREAD__)
#define CMM_SANITIZE_THREAD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CMM_SANITIZE_THREAD 1
#endif
#endif
#endif

#endif /* LFHT_URCU_COMPILER_H */
