/* SPDX-License-Identifier: MIT */
/**
 * \file
 * \brief The RCU lock-free queue (`cds_lfq_*_rcu`): lock-free enqueue and
 * dequeue from any number of threads, inside RCU read-side critical
 * sections; nodes freed after a grace period.
 *
 * Include a flavour header first when the program picks one (<rcu/qsbr.h>,
 * <rcu/memb.h>, <rcu/bp.h>); this file needs only struct rcu_head
 * (<rcu/flavour.h>). The queue calls RCU through the call_rcu function
 * given to cds_lfq_init_rcu(), as liburcu does: `cds_lfq_init_rcu(&q,
 * call_rcu)`.
 *
 * What this file owns and its invariants, between any two atomic steps:
 * - The queue is the chain head -> ... -> tail -> NULL (Michael and Scott's
 *   queue). The head node is the next to be dequeued, or a dummy node that
 *   the queue allocated; the queue is empty when the head is a dummy with
 *   no successor. tail is the last node or one behind it (an enqueue
 *   between its two steps); anyone who finds it behind swings it on.
 * - Enqueue: compare-and-swap the tail node's next from NULL to the node
 *   (the linearization point), then swing tail to it.
 * - Dequeue never takes the last node out of the chain: when the head has
 *   no successor it first enqueues a fresh dummy behind it. It then swings
 *   head to the successor with a compare-and-swap and returns the old head,
 *   or, when that was a dummy, hands the dummy to call_rcu and tries again.
 *   Dummies are allocated anew each time, so a dummy's address is never
 *   reused while a reader may hold it (no ABA).
 * - Nodes and dummies are read by other threads' enqueues and dequeues
 *   until a grace period after they left the chain: hence the read-side
 *   sections, and the grace period before a dequeued node is freed or
 *   enqueued again.
 * - Node contents written before cds_lfq_enqueue_rcu() are visible to the
 *   thread that dequeues the node.
 *
 * Relies on <rcu/atomic.h>, <rcu/flavour.h> (struct rcu_head,
 * caa_container_of()) and <rcuds/internal.h>.
 */
#ifndef RCUDS_RCULFQUEUE_H
#define RCUDS_RCULFQUEUE_H

#include <errno.h>

#include <rcu/flavour.h>
/* With <stdbool.h>, <stddef.h>, <stdio.h>, <stdlib.h>, <rcu/atomic.h> and
 * the mutant hook RCUDS_MUTANT_(). */
#include <rcuds/internal.h>

#ifdef __cplusplus
extern "C" {
#endif

/** \brief The hook embedded in each queued element (recover the element
 * with caa_container_of()). */
struct cds_lfq_node_rcu {
	/** The successor; the queue's, never use it. */
	RCU_ATOMIC_(struct cds_lfq_node_rcu *) next;
	/** Non-zero in the queue's own dummy nodes; zero in the caller's. */
	int dummy;
};

/** \brief An RCU lock-free queue. */
struct cds_lfq_queue_rcu {
	/** The next node to dequeue, or a dummy. */
	RCU_ATOMIC_(struct cds_lfq_node_rcu *) head;
	/** The last node, or the one before it. */
	RCU_ATOMIC_(struct cds_lfq_node_rcu *) tail;
	/** The flavour's call_rcu, given to cds_lfq_init_rcu(): frees the
	 * dummies after a grace period. */
	void (*queue_call_rcu)(struct rcu_head *head, void (*func)(struct rcu_head *head));
};

/* A dummy node: what the queue allocates, and how it frees it. The calls
 * name malloc and free in parentheses: a unit may define either as a
 * function-like macro (cmocka's UNIT_TESTING, leak checkers), of any
 * arity; the queue allocates and frees its dummies with libc's, in pairs. */
struct rcuds_lfq_dummy_ {
	struct cds_lfq_node_rcu parent;
	struct rcu_head head;
	struct cds_lfq_queue_rcu *q;
};

static inline struct cds_lfq_node_rcu *rcuds_lfq_make_dummy_(struct cds_lfq_queue_rcu *q)
{
	struct rcuds_lfq_dummy_ *d = (struct rcuds_lfq_dummy_ *)(malloc)(sizeof(*d));

	if (d == NULL) {
		fprintf(stderr, "rcuds: cds_lfq_*_rcu: out of memory for a dummy node\n");
		abort();
	}
	/* Relaxed: published by the CAS that links the dummy, or by the
	 * caller's own publication of the queue (init). */
	rcu_atomic_store(&d->parent.next, (struct cds_lfq_node_rcu *)NULL, memory_order_relaxed);
	d->parent.dummy = 1;
	d->q = q;
	return &d->parent;
}

static inline struct rcuds_lfq_dummy_ *rcuds_lfq_dummy_of_(struct cds_lfq_node_rcu *node)
{
	return caa_container_of(node, struct rcuds_lfq_dummy_, parent);
}

static inline void rcuds_lfq_free_dummy_cb_(struct rcu_head *head)
{
	(free)(caa_container_of(head, struct rcuds_lfq_dummy_, head));
}

/**
 * \brief Prepares a node for cds_lfq_enqueue_rcu() (needed before each
 * enqueue).
 * \param node The node.
 */
static inline void cds_lfq_node_init_rcu(struct cds_lfq_node_rcu *node)
{
	/* Relaxed: published by the enqueue's CAS (release). */
	rcu_atomic_store(&node->next, (struct cds_lfq_node_rcu *)NULL, memory_order_relaxed);
	node->dummy = 0;
}

/**
 * \brief Initializes an empty queue (allocates its first dummy node).
 * \param q The queue.
 * \param queue_call_rcu The flavour's call_rcu (pass `call_rcu` after
 * including a flavour header): how the queue frees its dummies.
 *
 * Pair with cds_lfq_destroy_rcu(). Aborts when out of memory.
 */
static inline void cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
				    void (*queue_call_rcu)(struct rcu_head *head,
							   void (*func)(struct rcu_head *head)))
{
	struct cds_lfq_node_rcu *dummy = rcuds_lfq_make_dummy_(q);

	/* Relaxed (both): the queue is not shared yet. */
	rcu_atomic_store(&q->head, dummy, memory_order_relaxed);
	rcu_atomic_store(&q->tail, dummy, memory_order_relaxed);
	q->queue_call_rcu = queue_call_rcu;
}

/**
 * \brief Frees an empty queue's last dummy node.
 * \param q The queue.
 * \return 0, or -EPERM when the queue still holds a node: it is then left
 * as it was, usable.
 *
 * No other thread may use the queue during or after the call (it frees at
 * once, with no grace period).
 */
static inline int cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q)
{
	/* Relaxed (both loads): the caller owns the queue alone now. */
	struct cds_lfq_node_rcu *head = rcu_atomic_load(&q->head, memory_order_relaxed);

	if (!head->dummy ||
	    rcu_atomic_load(&head->next, memory_order_relaxed) != NULL)
		return -EPERM;
	(free)(rcuds_lfq_dummy_of_(head));
	return 0;
}

/**
 * \brief Appends a node at the end of the queue. Lock-free.
 * \param q The queue.
 * \param node The node, initialized with cds_lfq_node_init_rcu().
 *
 * \rcustate Inside a read-side critical section (registered thread).
 * \ordering A full memory barrier before the enqueue; what the caller wrote
 * into the element is visible to the thread that dequeues it.
 */
static inline void cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q,
				       struct cds_lfq_node_rcu *node)
{
	if (RCUDS_MUTANT_(lfq_enqueue_lost)) {
		/* Broken on purpose: two enqueuers may link behind the
		 * same tail, and one node is lost. */
		/* Acquire: pairs with the release stores below in another
		 * enqueue (the mutant's own). */
		struct cds_lfq_node_rcu *tail = rcu_atomic_load(&q->tail, memory_order_acquire);

		rcu_cpu_relax();	/* widens the window */
		/* Release (both stores): publish the node, as the CAS in
		 * the correct path does; pairs with the acquire loads in
		 * cds_lfq_dequeue_rcu(). */
		rcu_atomic_store(&tail->next, node, memory_order_release);
		rcu_atomic_store(&q->tail, node, memory_order_release);
		return;
	}
	rcuds_full_barrier_before_rmw_();
	for (;;) {
		/* Acquire: pairs with the release CAS of the tail below (in
		 * another enqueue); the tail node is in the chain. */
		struct cds_lfq_node_rcu *tail = rcu_atomic_load(&q->tail, memory_order_acquire);
		struct cds_lfq_node_rcu *next = NULL;

		/* Seq_cst on success, the linearization point: publishes
		 * the node's contents (pairs with the acquire load of
		 * ->next in cds_lfq_dequeue_rcu()). Acquire on failure: we
		 * help tail on to the node found, which must be visible. */
		if (rcu_atomic_cas(&tail->next, &next, node,
				   memory_order_seq_cst, memory_order_acquire)) {
			struct cds_lfq_node_rcu *expected = tail;

			/* Release: pairs with the acquire load of the tail
			 * above; failing means another thread helped. */
			(void)rcu_atomic_cas(&q->tail, &expected, node,
					     memory_order_release, memory_order_relaxed);
			return;
		} else {
			struct cds_lfq_node_rcu *expected = tail;

			/* Release, as above: help the enqueue in flight. */
			(void)rcu_atomic_cas(&q->tail, &expected, next,
					     memory_order_release, memory_order_relaxed);
		}
	}
}

/**
 * \brief Removes and returns the first node. Lock-free.
 * \param q The queue.
 * \return The node, or NULL when the queue is empty.
 *
 * \rcustate Inside a read-side critical section (registered thread). Wait
 * for a grace period before freeing the node or enqueueing it again (other
 * threads' enqueues and dequeues may still read it); its contents other
 * than the hook may be read at once.
 * \ordering What the enqueuer wrote into the element before
 * cds_lfq_enqueue_rcu() is visible. May allocate a dummy node (aborts when
 * out of memory) and hands dequeued dummies to the queue's call_rcu.
 */
static inline struct cds_lfq_node_rcu *cds_lfq_dequeue_rcu(struct cds_lfq_queue_rcu *q)
{
	for (;;) {
		/* Acquire: pairs with the release CAS of the head below (in
		 * another dequeue) or init's publication; the head node is
		 * visible. */
		struct cds_lfq_node_rcu *head = rcu_atomic_load(&q->head, memory_order_acquire);
		/* Acquire: pairs with the CAS of ->next in
		 * cds_lfq_enqueue_rcu(); the successor's contents are
		 * visible. */
		struct cds_lfq_node_rcu *next = rcu_atomic_load(&head->next, memory_order_acquire);
		struct cds_lfq_node_rcu *expected = head;

		if (head->dummy && next == NULL)
			return NULL;
		if (next == NULL) {
			/* head is the last real node: put a fresh dummy
			 * behind it, so the chain never runs dry. */
			cds_lfq_enqueue_rcu(q, rcuds_lfq_make_dummy_(q));
			/* Acquire: as above (our dummy, or a node that
			 * beat it). */
			next = rcu_atomic_load(&head->next, memory_order_acquire);
		}
		if (RCUDS_MUTANT_(lfq_dequeue_twice)) {
			/* Broken on purpose: two dequeuers may both take
			 * head. */
			rcu_cpu_relax();	/* widens the window */
			/* Release: as the CAS below; pairs with the acquire
			 * load of the head above. */
			rcu_atomic_store(&q->head, next, memory_order_release);
		} else {
			/* Release on success: pairs with the acquire load
			 * of the head above in the next dequeue, which then
			 * sees next as we did. Relaxed on failure: another
			 * dequeue won; start over. */
			if (!rcu_atomic_cas(&q->head, &expected, next,
					    memory_order_release, memory_order_relaxed))
				continue;
		}
		if (head->dummy) {
			struct rcuds_lfq_dummy_ *d = rcuds_lfq_dummy_of_(head);

			/* The mutant may take a dummy twice: it leaks them
			 * rather than queue one rcu_head twice. */
			if (!RCUDS_MUTANT_(lfq_dequeue_twice))
				d->q->queue_call_rcu(&d->head, rcuds_lfq_free_dummy_cb_);
			continue;
		}
		return head;
	}
}

#ifdef __cplusplus
}
#endif

#endif /* RCUDS_RCULFQUEUE_H */
