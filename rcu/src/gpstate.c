/* SPDX-License-Identifier: MIT */
/*
 * gpstate.c - the grace-period state of one flavour that the inline read
 * side touches: self_gp (the counter, the futex word a sleeping updater
 * waits on, the fence mode) and wake_writer_(), the reader's slow path that
 * wakes that updater.
 *
 * Owns: the definitions only. The counter is advanced by gp.c alone, the
 * fence mode written once by memb.c (before main, or in a fork child);
 * the futex protocol is gp.c note 5. Kept apart from gp.c so that the
 * flavour hooks (qsbr.c, memb.c), which read this state, sit below the
 * grace periods that call them.
 *
 * Relies on: futex.h, <rcu/...> (struct rcu_gp_, RCU_GP_STEP_).
 */
#define _GNU_SOURCE
#include "futex.h"
#include "internal.h"

struct rcu_gp_ self_gp = { .ctr = RCU_GP_STEP_ };

void RCU_SYM_(wake_writer_)(void)
{
	/* Release: pairs with the acquire load after futex_wait() in
	 * gp_wait_for_readers() (gp.c note 5); orders the caller's slot store
	 * before it. */
	if (rcu_atomic_xchg(&self_gp.futex, 0, memory_order_release) == -1)
		futex_wake(&self_gp.futex, 1);
}
