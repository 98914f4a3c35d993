/* SPDX-License-Identifier: MIT */
/*
 * poll.c - polling grace periods of one flavour: rcu_poll_start() returns a
 * cookie without waiting, rcu_poll_done() says whether a full grace period
 * has passed since.
 *
 * The cookie is a grace-period ticket (gp.c, notes 6 and 7): any grace
 * period that starts after the ticket was taken covers it, whoever runs it
 * (synchronize_rcu(), the call_rcu worker). So that a cookie is covered
 * even where nobody else runs one, rcu_poll_start() also makes sure one
 * grace period is coming: it queues this file's one rcu_head on the call_rcu
 * queue unless it is queued already. The worker's grace period for that
 * callback takes its ticket after the enqueue, so it covers every cookie
 * taken before; a cookie taken while the head was queued may be newer than
 * that grace period's ticket, so the callback queues the head again while
 * the newest cookie is not yet covered.
 *
 * Owns: poll_head and its state (poll_queued, poll_newest) under
 * poll_mutex, which is only ever held for a few instructions and a
 * call_rcu() (which never waits). rcu_poll_start() and rcu_poll_done() are
 * poll_start() and poll_done() (their exported names are lifecycle.c's).
 *
 * Relies on: gp.c (tickets), call_rcu.c (the queue and its worker).
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "internal.h"

static pthread_mutex_t poll_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rcu_head poll_head;
/* Whether poll_head is on the call_rcu queue; under poll_mutex. */
static bool poll_queued;
/* The newest cookie handed out; under poll_mutex. */
static uint64_t poll_newest;

static void poll_cb(struct rcu_head *head)
{
	pthread_mutex_lock(&poll_mutex);
	if (gp_ticket_done(poll_newest))
		poll_queued = false;
	else
		call_rcu_queue(head, poll_cb);
	pthread_mutex_unlock(&poll_mutex);
}

struct rcu_poll_cookie poll_start(void)
{
	struct rcu_poll_cookie cookie = { .ticket = gp_ticket_take() };

	pthread_mutex_lock(&poll_mutex);
	if (cookie.ticket > poll_newest)
		poll_newest = cookie.ticket;
	if (!poll_queued) {
		poll_queued = true;
		call_rcu_queue(&poll_head, poll_cb);
	}
	pthread_mutex_unlock(&poll_mutex);
	return cookie;
}

bool poll_done(struct rcu_poll_cookie cookie)
{
	return gp_ticket_done(cookie.ticket);
}

/*
 * fork: the child starts with an empty call_rcu queue (call_rcu.c), so
 * poll_head is no longer queued there; a cookie of the parent is still
 * covered by the child's next grace period, whose ticket is newer.
 */
void poll_fork_prepare(void)
{
	pthread_mutex_lock(&poll_mutex);
}

void poll_fork_parent(void)
{
	pthread_mutex_unlock(&poll_mutex);
}

void poll_fork_child(void)
{
	poll_queued = false;
	pthread_mutex_unlock(&poll_mutex);
}
