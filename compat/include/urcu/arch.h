/* SPDX-License-Identifier: MIT */
/*
 * urcu/arch.h (lfht's liburcu compatibility layer) - liburcu's memory
 * barriers and CPU helpers: cmm_mb, cmm_rmb, cmm_wmb, their cmm_smp_*
 * twins, cmm_mc/cmm_rmc/cmm_wmc (and cmm_smp_*), cmm_read_barrier_depends,
 * CONFIG_HAVE_MEM_COHERENCY, caa_cpu_relax, CAA_CACHE_LINE_SIZE, URCU_ARCH_*,
 * the cycle counter (caa_cycles_t, caa_get_cycles(), HAS_CAA_GET_CYCLES,
 * and rdtscll() on x86), __NR_membarrier where the system headers lack it;
 * and <urcu/system.h>'s CMM_LOAD_SHARED and CMM_STORE_SHARED,
 * <urcu/compiler.h>, <urcu/config.h>, <urcu/syscall-compat.h> and
 * <stdint.h>, which liburcu programs get from here too.
 *
 * Differs from liburcu: the barriers are C11 fences (__atomic builtins), so
 * they order atomic accesses in the C11 model as well as the hardware's:
 * cmm_rmb() is an acquire fence, cmm_wmb() a release fence, cmm_mb() a
 * seq_cst fence. liburcu's x86 cmm_rmb()/cmm_wmb() are lfence/sfence, which
 * also order device (write-combining) memory; these do not.
 * caa_get_cycles() reads the CPU's counter on the three targets lfht
 * supports: the time-stamp counter on x86 (rdtsc), the virtual counter on
 * ARM64 (cntvct_el0; liburcu reads CLOCK_MONOTONIC there) and the time
 * base on POWER (mftb); elsewhere it returns nanoseconds of timespec_get().
 * Its unit is the counter's (not nanoseconds), it does not serialise the
 * instruction stream, and it is monotonic on one CPU (across CPUs where the
 * counter is synchronised, as on current x86, ARM64 and POWER systems).
 */
#ifndef LFHT_URCU_ARCH_H
#define LFHT_URCU_ARCH_H

#include <stdint.h>
#include <time.h>

#include <rcu/atomic.h>		/* rcu_cpu_relax */
#include <urcu/compiler.h>
#include <urcu/config.h>
#include <urcu/syscall-compat.h>

#if defined(__x86_64__)
#define URCU_ARCH_X86 1
#define URCU_ARCH_AMD64 1
#define CAA_CACHE_LINE_SIZE	128
#elif defined(__i386__)
#define URCU_ARCH_X86 1
#define URCU_ARCH_I386 1
#define CAA_CACHE_LINE_SIZE	128
#elif defined(__aarch64__)
#define URCU_ARCH_AARCH64 1
#define CAA_CACHE_LINE_SIZE	64
#elif defined(__powerpc64__)
#define URCU_ARCH_PPC 1
#define URCU_ARCH_PPC64 1
#define CAA_CACHE_LINE_SIZE	256
#elif defined(__powerpc__)
#define URCU_ARCH_PPC 1
#define CAA_CACHE_LINE_SIZE	256
#else
#define CAA_CACHE_LINE_SIZE	64
#endif

/* Full fence: liburcu documents it as ordering all earlier loads and stores
 * before all later ones; pairs with whatever fence or atomic the other
 * side of the caller's protocol uses. */
#define cmm_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
/* Read fence (acquire, which also orders later stores): liburcu documents
 * it as pairing with a write fence (cmm_wmb) of the writer. */
#define cmm_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
/* Write fence (release, which also orders earlier loads): liburcu documents
 * it as pairing with a read fence (cmm_rmb) of the reader. */
#define cmm_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
/* The SMP variants: the same fences (every target here is SMP); they pair
 * as their non-SMP twins above. */
#define cmm_smp_mb()		cmm_mb()
#define cmm_smp_rmb()		cmm_rmb()
#define cmm_smp_wmb()		cmm_wmb()

/* Cache flushes: the supported targets have coherent caches, so these are
 * compiler barriers, as in liburcu on such targets (which say so with
 * CONFIG_HAVE_MEM_COHERENCY). */
#define CONFIG_HAVE_MEM_COHERENCY	1
#define cmm_mc()		cmm_barrier()
#define cmm_rmc()		cmm_barrier()
#define cmm_wmc()		cmm_barrier()
#define cmm_smp_mc()		cmm_mc()
#define cmm_smp_rmc()		cmm_rmc()
#define cmm_smp_wmc()		cmm_wmc()
/* Dependent loads are ordered on every supported target. */
#define cmm_read_barrier_depends()	do { } while (0)
#define cmm_smp_read_barrier_depends()	do { } while (0)

/* The pause hint for spin loops (lfht's, chosen per target). */
#define caa_cpu_relax()		rcu_cpu_relax()

/* x86-64 has mfence (liburcu's configuration macro). */
#if defined(__x86_64__)
#define CONFIG_RCU_HAVE_FENCE	1
#endif

/* The membarrier system call's number, where the kernel headers are older
 * than the call (liburcu defines it here too). */
#if defined(__linux__) && !defined(__NR_membarrier)
#if defined(__x86_64__)
#define __NR_membarrier		324
#elif defined(__i386__)
#define __NR_membarrier		375
#elif defined(__aarch64__)
#define __NR_membarrier		283
#elif defined(__powerpc__)
#define __NR_membarrier		365
#endif
#endif

/* caa_get_cycles() exists (liburcu's test for it). */
#define HAS_CAA_GET_CYCLES	1

/* A CPU cycle or tick count, in the counter's own unit. */
typedef uint64_t caa_cycles_t;

/* The CPU's cycle or tick counter (see the top of this file). */
#if defined(__x86_64__) || defined(__i386__)
static inline caa_cycles_t caa_get_cycles(void)
{
	return (caa_cycles_t)__builtin_ia32_rdtsc();
}

/* Stores the time-stamp counter in val (liburcu's x86 name). */
#define rdtscll(val)	((void)((val) = (unsigned long long)__builtin_ia32_rdtsc()))
#elif defined(__aarch64__)
static inline caa_cycles_t caa_get_cycles(void)
{
	uint64_t ticks;

	/* No compiler builtin reads a system register here (GCC 12). */
	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
	return (caa_cycles_t)ticks;
}
#elif defined(__powerpc64__)
static inline caa_cycles_t caa_get_cycles(void)
{
	return (caa_cycles_t)__builtin_ppc_get_timebase();
}
#else
static inline caa_cycles_t caa_get_cycles(void)
{
	struct timespec ts;

	if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
		return (caa_cycles_t)-1;
	return (caa_cycles_t)ts.tv_sec * 1000000000u + (caa_cycles_t)ts.tv_nsec;
}
#endif

#include <urcu/system.h>

#endif /* LFHT_URCU_ARCH_H */
