/* SPDX-License-Identifier: MIT */
/*
 * memb.c - the memb flavour's hooks for the shared code and the start-up
 * choice between membarrier and reader fences. (Its exported functions
 * and flavour object are the ones every flavour shares: lifecycle.c.)
 * Built for bp too, whose grace periods are memb's (bp.c adds
 * its registration; the environment variable is RCU_BP_FORCE_FENCES), and
 * for mb, which is memb in fence mode for good: use_fences is 1 from the
 * start, membarrier is never called, and its readers fence without
 * looking at the mode (rcu/mb.h).
 *
 * A registered thread's slot holds the counter it saw when its outermost
 * rcu_read_lock() began, or 0 outside sections; the inline fast paths in
 * <rcu/memb.h> (rcu/reader.h) maintain it with a compiler barrier only.
 * The full fence the reader skips is run on its CPU by
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) in
 * flavour_fence_all_readers(): every thread of the process
 * that is running executes a full barrier before the call returns, and a
 * thread that is not running passed one when it was switched out. So the
 * updater's "store; membarrier; load" and the reader's "store; compiler
 * barrier; load" behave as if both had seq_cst fences (gp.c notes 3, 5).
 *
 * Fence mode: when the kernel refuses MEMBARRIER_CMD_REGISTER_PRIVATE_
 * EXPEDITED, or RCU_MEMB_FORCE_FENCES=1 (bp: RCU_BP_FORCE_FENCES=1) is
 * set, use_fences is set once, before main (flavour_init(), from
 * lifecycle.c's constructor), and both sides
 * use seq_cst fences instead.
 * Sanitizers (TSan) see those fences but not membarrier; the acquire/release
 * pairs of gp.c notes 2 and 4 are what they check in both modes.
 *
 * Owns: the fence mode's one write (self_gp.use_fences, defined in
 * gpstate.c) and the membarrier registration.
 *
 * Relies on: gpstate.c (self_gp), <rcu/memb.h>, <rcu/bp.h> or <rcu/mb.h>.
 * Called by gp.c, thread.c, call_rcu.c and lifecycle.c, never calling them.
 */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

static int memb_membarrier(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

/* true when membarrier is usable (and now registered for). */
static bool memb_register_membarrier(void)
{
	return memb_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

/*
 * Whether readers must run full fences: mb's always do, and mb never asks
 * for membarrier (rcu/mb.h); memb's and bp's when the environment forces
 * it or the kernel refuses membarrier.
 */
#if defined(RCU_BUILD_MB)
#define MEMB_ALWAYS_FENCES true
static bool memb_readers_fence(void)
{
	return true;
}
#else
#define MEMB_ALWAYS_FENCES false
static bool memb_readers_fence(void)
{
	const char *force = getenv(FLAVOUR_FORCE_FENCES_ENV);

	if (force != NULL && strcmp(force, "1") == 0)
		return true;
	return !memb_register_membarrier();
}
#endif

void flavour_init(void)
{
	/* Relaxed: written before main, before any thread exists. */
	rcu_atomic_store(&self_gp.use_fences, memb_readers_fence(),
			 memory_order_relaxed);
}

bool flavour_fence_is_heavy(void)
{
	/* Relaxed: use_fences is written before main (or in a fork child,
	 * single-threaded), so every thread reads the same mode; mb does not
	 * look (its readers fence even before the constructor has run). */
	return !MEMB_ALWAYS_FENCES &&
	       !rcu_atomic_load(&self_gp.use_fences, memory_order_relaxed);
}

void flavour_fence_all_readers(void)
{
	if (!flavour_fence_is_heavy()) {
		/* Pairs with the seq_cst fences in rcu_ctr_reader_fence_()
		 * (rcu/reader.h; gp.c notes 3 and 5). */
		rcu_fence(memory_order_seq_cst);
		return;
	}
	/* Full barrier on every running thread of the process; pairs with the
	 * compiler barriers in rcu_ctr_reader_fence_() (gp.c notes 3, 5). */
	if (memb_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
		perror("rcu: synchronize_rcu: membarrier");
		abort();
	}
}

/* The child is single-threaded: switching to fences here is safe
 * (relaxed: no other thread exists yet; threads created later are ordered
 * after these stores by pthread_create). mb is in fence mode already. */
void flavour_fork_child(void)
{
	if (flavour_fence_is_heavy() && !memb_register_membarrier())
		rcu_atomic_store(&self_gp.use_fences, 1, memory_order_relaxed);
}

/* A memb reader has no online state (its slot is 0 outside sections), so
 * there is nothing to do around registration and grace-period waits. */
void flavour_reader_online(void)
{
}

void flavour_reader_offline(void)
{
}

bool flavour_wait_begin(void)
{
	return false;
}

void flavour_wait_end(bool was_online)
{
	(void)was_online;
}

/* memb has no quiescent states: the flavour object's quiescent_state,
 * thread_offline and thread_online are this, so callers need no test. */
void flavour_op_noop(void)
{
}
