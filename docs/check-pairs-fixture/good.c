/* SPDX-License-Identifier: MIT */
/* Fixture of ordering-pairs-selftest: passes the check. */
#include "flag.h"

_Atomic int flag;
int data;

void flag_publish(int value)
{
	data = value;
	/* Release: publishes data; pairs with the acquire load in
	 * flag_read() (flag.h). */
	atomic_store_explicit(&flag, 1, memory_order_release);
}

void flag_wait(void)
{
	/* Acquire (both loads): pairs with the release store in
	 * flag_publish(). */
	while (!atomic_load_explicit(&flag, memory_order_acquire))
		;
	(void)atomic_load_explicit(&flag, memory_order_acquire);
	/* Relaxed: only a hint. */
	(void)atomic_load_explicit(&flag, memory_order_relaxed);
	/* Pairs with the seq_cst fence of membarrier() or of flag_fence():
	 * external functions and macros are names the comments may use. */
	flag_fence(memory_order_seq_cst);
}
