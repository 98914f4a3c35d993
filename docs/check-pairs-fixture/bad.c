/* SPDX-License-Identifier: MIT */
/* Fixture of ordering-pairs-selftest: two violations (expected.txt). */
#include "flag.h"

void flag_clear(void)
{
	/* Release: pairs with the acquire load in nosuch(), which is called
	 * below but defined nowhere. */
	atomic_store_explicit(&flag, 0, memory_order_release);
	nosuch();
}

int flag_peek(void)
{
	int value = data;

	/* A comment that says nothing of the order. */
	if (atomic_load_explicit(&flag, memory_order_acquire))
		return value;
	return 0;
}
