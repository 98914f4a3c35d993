/* SPDX-License-Identifier: MIT */
/* memb_user.c - the consumer's program with the memb flavour. */
#define _POSIX_C_SOURCE 200809L
#include <rcu/memb.h>

/* memb asks nothing of readers between their critical sections. */
static void user_quiescent_point(void) { }
static void user_blocking_begin(void) { }
static void user_blocking_end(void) { }

#include "user.h"

int main(void)
{
	return run("memb");
}
