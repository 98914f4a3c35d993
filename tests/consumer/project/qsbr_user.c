/* SPDX-License-Identifier: MIT */
/* qsbr_user.c - the consumer's program with the QSBR flavour. */
#define _POSIX_C_SOURCE 200809L
#include <rcu/qsbr.h>

/* QSBR: readers announce quiescent states; threads go offline to block. */
static void user_quiescent_point(void) { rcu_quiescent_state(); }
static void user_blocking_begin(void) { rcu_thread_offline(); }
static void user_blocking_end(void) { rcu_thread_online(); }

#include "user.h"

int main(void)
{
	return run("qsbr");
}
