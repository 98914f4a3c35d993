/* SPDX-License-Identifier: MIT */
/*
 * Fixture of the ordering-pairs-selftest test (docs/check-pairs.py): never
 * compiled. A flag published with release and read with acquire.
 */
#ifndef FIXTURE_FLAG_H
#define FIXTURE_FLAG_H

#include <stdatomic.h>

extern _Atomic int flag;
extern int data;

/* A function-like macro is a function the comments may name. */
#define flag_fence(order)	atomic_thread_fence(order)

static inline int flag_read(void)
{
	/* Acquire: pairs with the release store in flag_publish() (good.c),
	 * so data is visible once the flag is. */
	if (!atomic_load_explicit(&flag, memory_order_acquire))
		return -1;
	return data;
}

#endif /* FIXTURE_FLAG_H */
