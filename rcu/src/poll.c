/* SPDX-License-Identifier: MIT */
/*
 * poll.c - polling grace periods of one flavour: rcu_poll_start() returns a
 * cookie without waiting, rcu_poll_done() says whether a full grace period
 * has passed since.
 *
 * The cookie is a grace-period ticket (gp.c, notes 6 to 8): any grace
 * period that starts after the ticket was taken covers it, whoever runs it
 * (synchronize_rcu(), the call_rcu worker, a retiring thread's poll). So
 * that a cookie is covered even where nobody else runs one,
 * rcu_poll_start() also makes sure one grace period is coming: it queues
 * this file's one rcu_head on the call_rcu queue unless it is queued
 * already. The worker's grace period for that callback takes its ticket
 * after the enqueue, so it covers every cookie taken before; a cookie taken
 * while the head was queued may be newer than that grace period's ticket,
 * so the callback queues the head again while the newest cookie is not yet
 * covered.
 *
 * Owns: poll_head and its state: poll_queued (whether the head is on the
 * call_rcu queue; set by the one compare-and-swap that queues it, cleared
 * only by its callback) and poll_newest (the newest cookie handed out).
 * No lock: a start raises poll_newest, then looks at poll_queued; the
 * callback clears poll_queued, then looks at poll_newest again (all
 * seq_cst). Of a start's load and the callback's store one comes first: if
 * the store, the start sees the head unqueued and queues it; if the load,
 * the callback's later load sees the start's cookie and queues the head
 * again. The compare-and-swap lets only one of them queue it.
 * rcu_poll_start() and rcu_poll_done() are poll_start() and poll_done()
 * (their exported names are lifecycle.c's).
 *
 * Relies on: gp.c (tickets), call_rcu.c (the queue and its worker).
 */
#define _GNU_SOURCE
#include "internal.h"

static struct rcu_head poll_head;
static _Atomic bool poll_queued;
static _Atomic uint64_t poll_newest;

static void poll_cb(struct rcu_head *head);

/* Queues poll_head unless it is queued: the one CAS that sets the flag. */
static void poll_queue_head(void)
{
	bool queued = false;

	/* Seq_cst: pairs with the seq_cst store of false in poll_cb() (see
	 * the top comment). Relaxed on failure: queued already. */
	if (rcu_atomic_cas(&poll_queued, &queued, true, memory_order_seq_cst,
			   memory_order_relaxed))
		call_rcu_queue(&poll_head, poll_cb);
}

static void poll_cb(struct rcu_head *head)
{
	(void)head;
	/* Seq_cst: pairs with the seq_cst raise of poll_newest in
	 * poll_start() (top comment). */
	if (!gp_ticket_done(rcu_atomic_load(&poll_newest, memory_order_seq_cst))) {
		/* Still ours: the flag stays set. */
		call_rcu_queue(&poll_head, poll_cb);
		return;
	}
	/* Seq_cst: pairs with the seq_cst loads of the flag in poll_start()
	 * (top comment). */
	rcu_atomic_store(&poll_queued, false, memory_order_seq_cst);
	/* Seq_cst: as above; a start that saw the flag set raised
	 * poll_newest before, and this load sees it. */
	if (!gp_ticket_done(rcu_atomic_load(&poll_newest, memory_order_seq_cst)))
		poll_queue_head();
}

struct rcu_poll_cookie poll_start(void)
{
	struct rcu_poll_cookie cookie = { .ticket = gp_ticket_take() };
	/* Relaxed: only the first guess; the CAS checks it. */
	uint64_t newest = rcu_atomic_load(&poll_newest, memory_order_relaxed);

	/* Seq_cst: pairs with the seq_cst loads of poll_newest in poll_cb()
	 * (top comment). Relaxed on failure: newest is retried. */
	while (newest < cookie.ticket &&
	       !rcu_atomic_cas(&poll_newest, &newest, cookie.ticket,
			       memory_order_seq_cst, memory_order_relaxed))
		;
	/* Seq_cst: pairs with the seq_cst store of false in poll_cb(). */
	if (!rcu_atomic_load(&poll_queued, memory_order_seq_cst))
		poll_queue_head();
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
void poll_fork_child(void)
{
	/* The only thread: no concurrent access. */
	rcu_atomic_store(&poll_queued, false, memory_order_relaxed);
}
