/* SPDX-License-Identifier: MIT */
/*
 * lfht/queue.c - the resize requests: a worker's lock-free stack of tables
 * to look at, and its sleep and wake-up.
 *
 * Owns struct lfht_queue and the pending/stack_next fields of each table's
 * struct lfht_request. A request is lock-free: the update that flips its
 * table's pending from 0 to 1 pushes the table (one CAS loop) and, if the
 * worker sleeps, wakes it (one futex wake). Nothing else: no lock, no
 * allocation, no wait.
 *
 * Invariants:
 * - a table is on the stack at most once: only the 0 -> 1 flip of pending
 *   pushes, and only the worker clears pending (lfht_queue_taken()), after
 *   it popped the table;
 * - one consumer at a time pops (the holder of the worker's lock, see
 *   worker.c), so the stack has no ABA;
 * - a worker that sleeps has seen the stack empty after announcing its
 *   sleep, and every pusher looks for that announcement after its push.
 *
 * Calls sync.c (futex).
 */
#include "internal.h"

static void queue_push(struct lfht_queue *q, struct lfht_request *req)
{
	/* Relaxed: the CAS validates it. */
	struct lfht_request *head = rcu_atomic_load(&q->stack, memory_order_relaxed);

	do {
		req->stack_next = head;
		/* Seq_cst: release publishes stack_next to the popper (pairs
		 * with the acquire loads in lfht_queue_pop()); the store-load
		 * order against the load of sleeping in queue_wake()
		 * pairs with the fence in lfht_queue_sleep(). Relaxed on
		 * failure: retried. */
	} while (!rcu_atomic_cas(&q->stack, &head, req, memory_order_seq_cst,
				 memory_order_relaxed));
}

static void queue_wake(struct lfht_queue *q)
{
	/* The push (or stop) before the load of sleeping; pairs with the
	 * fence in lfht_queue_sleep() between its store of sleeping and its
	 * look at the stack: of the two, one sees the other's store. */
	rcu_fence(memory_order_seq_cst);
	/* Relaxed: ordered by the fence; the exchange picks one waker. */
	if (rcu_atomic_load(&q->sleeping, memory_order_relaxed) &&
	    rcu_atomic_xchg(&q->sleeping, 0, memory_order_relaxed))
		lfht_futex_wake(&q->sleeping, 1);
}

void lfht_queue_request(struct lfht_request *req)
{
	/* Relaxed: a hint; the exchange decides who pushes. Acquire on the
	 * exchange: pairs with the release clear in lfht_queue_taken(), so
	 * the worker's read of stack_next when it popped the table comes
	 * before our write of it in queue_push(). */
	if (!req || rcu_atomic_load(&req->pending, memory_order_relaxed) ||
	    rcu_atomic_xchg(&req->pending, 1, memory_order_acquire))
		return;
	queue_push(req->queue, req);
	queue_wake(req->queue);
}

struct lfht_request *lfht_queue_pop(struct lfht_queue *q)
{
	/* Acquire (load and CAS): pairs with the seq_cst CAS in
	 * queue_push(), so the popped request's stack_next is visible. */
	struct lfht_request *head = rcu_atomic_load(&q->stack, memory_order_acquire);

	while (head && !rcu_atomic_cas(&q->stack, &head, head->stack_next,
				       memory_order_acquire, memory_order_acquire))
		;
	return head;
}

void lfht_queue_taken(struct lfht_request *req)
{
	/* Release: our pop (its read of stack_next) comes before the next
	 * pusher's write of it; pairs with the acquire exchange in
	 * lfht_queue_request(). */
	rcu_atomic_store(&req->pending, 0, memory_order_release);
}

void lfht_queue_forget(struct lfht_queue *q, struct lfht_request *req)
{
	struct lfht_request *keep = NULL, *r;

	while ((r = lfht_queue_pop(q)) != NULL)
		if (r != req) {
			r->stack_next = keep;
			keep = r;
		}
	while (keep) {
		r = keep;
		keep = keep->stack_next;
		queue_push(q, r);
	}
}

void lfht_queue_sleep(struct lfht_queue *q, long timeout_ns)
{
	/* Relaxed: ordered before the look at the stack by the fence. */
	rcu_atomic_store(&q->sleeping, 1, memory_order_relaxed);
	/* Pairs with the fence in queue_wake() (see there). */
	rcu_fence(memory_order_seq_cst);
	/* Relaxed (both): ordered after our store of sleeping by the fence. */
	if (!rcu_atomic_load(&q->stack, memory_order_relaxed) &&
	    !rcu_atomic_load(&q->stop, memory_order_relaxed))
		lfht_futex_wait(&q->sleeping, 1, timeout_ns);
	/* Relaxed: only the worker reads it as "asleep" again. */
	rcu_atomic_store(&q->sleeping, 0, memory_order_relaxed);
}

void lfht_queue_stop(struct lfht_queue *q)
{
	/* Relaxed: published by the fence in queue_wake(). */
	rcu_atomic_store(&q->stop, true, memory_order_relaxed);
	queue_wake(q);
}

bool lfht_queue_stopped(struct lfht_queue *q)
{
	/* Relaxed: ordered by the wake-up's fence. */
	return rcu_atomic_load(&q->stop, memory_order_relaxed);
}

void lfht_queue_fork_child(struct lfht_queue *q)
{
	/* Single-threaded: the child has one thread. */
	rcu_atomic_store(&q->stack, NULL, memory_order_relaxed);
	rcu_atomic_store(&q->sleeping, 0, memory_order_relaxed);
}

void lfht_queue_fork_requeue(struct lfht_request *req)
{
	/* Single-threaded, as above: a request of the parent's may have been
	 * popped and not served; ask again. */
	rcu_atomic_store(&req->pending, 1, memory_order_relaxed);
	queue_push(req->queue, req);
}
