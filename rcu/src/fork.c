/* SPDX-License-Identifier: MIT */
/*
 * fork.c - makes fork() safe for a child that keeps using RCU.
 *
 * prepare takes every lock that is only ever held briefly (polling state,
 * call_rcu worker start, grace-period requests, registry) in that order, so the child
 * inherits consistent data. The grace-period mutex is not taken (a grace
 * period may be waiting on the forking thread itself); the child resets it.
 * In the child only the forking thread exists: the registry keeps just it
 * (if registered), the call_rcu queue starts empty and its worker is
 * recreated on first use, and memb re-registers with membarrier. Lock-free
 * data that other threads were writing during fork() (the call_rcu queue,
 * other readers' slots) is not trusted in the child: fork() copies memory
 * page by page while those threads run, so the copy is no consistent cut.
 *
 * Relies on: the fork hooks of registry.c, gp.c, call_rcu.c, poll.c,
 * qsbr.c/memb.c.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "internal.h"

static void fork_prepare(void)
{
	poll_fork_prepare();
	call_rcu_fork_prepare();
	gp_fork_prepare();
	registry_fork_prepare();
}

static void fork_parent(void)
{
	registry_fork_parent();
	gp_fork_parent();
	call_rcu_fork_parent();
	poll_fork_parent();
}

static void fork_child(void)
{
	registry_fork_child();
	gp_fork_child();
	flavour_fork_child();
	call_rcu_fork_child();
	poll_fork_child();
}

/* Called by registry.c's constructor: registry.o is in every program that
 * uses RCU, while a static link would drop an unreferenced fork.o. */
void fork_install_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}
