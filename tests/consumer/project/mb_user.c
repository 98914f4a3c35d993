/* SPDX-License-Identifier: MIT */
/* mb_user.c - the consumer's program with the mb flavour. */
#define _POSIX_C_SOURCE 200809L
#include <rcu/mb.h>

/* mb, like memb, asks nothing of readers between their critical sections. */
static void user_quiescent_point(void) { }
static void user_blocking_begin(void) { }
static void user_blocking_end(void) { }

#include "user.h"

int main(void)
{
	return run("mb");
}
