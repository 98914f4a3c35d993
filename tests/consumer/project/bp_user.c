/* SPDX-License-Identifier: MIT */
/* bp_user.c - the consumer's program with the bp flavour (its register
 * calls are allowed; a thread's first read lock would do it). */
#define _POSIX_C_SOURCE 200809L
#include <rcu/bp.h>

/* bp, like memb, asks nothing of readers between their critical sections. */
static void user_quiescent_point(void) { }
static void user_blocking_begin(void) { }
static void user_blocking_end(void) { }

#include "user.h"

int main(void)
{
	return run("bp");
}
