/* SPDX-License-Identifier: MIT */
/*
 * What every lfht-bench implementation shares: the entry's key hash and a
 * monotonic clock. Kept apart from the table adapters so that all of them
 * hash the same keys the same way.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <time.h>

/* A strong 64-bit mixer (the splitmix64 finaliser): keys are small
 * consecutive integers, and a weak hash would hand one table an easy or a
 * hard case that the other does not get. */
static inline unsigned long bench_hash(uint64_t key)
{
	key ^= key >> 30;
	key *= UINT64_C(0xbf58476d1ce4e5b9);
	key ^= key >> 27;
	key *= UINT64_C(0x94d049bb133111eb);
	key ^= key >> 31;
	return (unsigned long)key;
}

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif /* BENCH_COMMON_H */
