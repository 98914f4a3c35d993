/* SPDX-License-Identifier: MIT */
/**
 * \file
 * \brief The wait-free concurrent queue (`cds_wfcq_*`): wait-free enqueue;
 * dequeue, splice and iteration that may wait for an enqueue in flight.
 *
 * A queue is a head (struct cds_wfcq_head, with an internal mutex, or
 * struct __cds_wfcq_head, without) and a tail (struct cds_wfcq_tail),
 * kept apart so that enqueuers, who touch only the tail, and dequeuers, who
 * touch mostly the head, need not share a cache line. Functions that accept
 * either head take a cds_wfcq_head_ptr_t: in C a transparent union, so a
 * pointer to either head converts by itself; in C++ overloads do the same.
 *
 * What this file owns and its invariants, between any two atomic steps:
 * - The queue is the chain head.node.next -> n1 -> ... -> nk, and tail.p
 *   is the last node handed to the queue (&head.node when it is empty).
 * - Enqueue is two steps: exchange tail.p for the node (the linearization
 *   point: the node's place is fixed), then store the node into the old
 *   tail's next. Between the two steps the chain is cut: a node whose next
 *   is NULL but that is not tail.p has a successor on the way. Readers of
 *   the chain (dequeue, splice, first/next) wait for that store: spinning
 *   briefly, then sleeping 1 ms at a time (the nonblocking forms return
 *   #CDS_WFCQ_WOULDBLOCK or #CDS_WFCQ_RET_WOULDBLOCK instead).
 * - Dequeue of the last node resets head.node.next to NULL, then swings
 *   tail.p back from the node to &head.node with a compare-and-swap; when an
 *   enqueue won the tail first, the dequeuer waits for its link instead.
 * - Node contents written before cds_wfcq_enqueue() are visible to the
 *   thread that dequeues or iterates to the node (release store of the
 *   link, acquire loads of the links).
 *
 * Who may run together (X: the caller must exclude, for example with
 * cds_wfcq_dequeue_lock(); -: no exclusion needed):
 *
 * |                       | enqueue | splice (dest) | dequeue | splice (src) | first/next |
 * |-----------------------|---------|---------------|---------|--------------|------------|
 * | enqueue               | -       | -             | -       | -            | -          |
 * | splice (dest)         | -       | -             | -       | -            | -          |
 * | dequeue               | -       | -             | X       | X            | X          |
 * | splice (src)          | -       | -             | X       | -            | X          |
 * | first/next            | -       | -             | X       | X            | -          |
 *
 * The names without leading underscores that dequeue or splice
 * (cds_wfcq_dequeue_blocking(), cds_wfcq_splice_blocking()) take the
 * internal mutex themselves. No RCU read-side section is needed anywhere:
 * a dequeued node may be freed or reused at once.
 *
 * Relies on <rcu/atomic.h> (atomics, rcu_cpu_relax()) and
 * <rcuds/internal.h> (the bounded wait, the mutex helpers).
 */
#ifndef RCUDS_WFCQUEUE_H
#define RCUDS_WFCQUEUE_H

/* With <pthread.h>, <stdbool.h>, <stddef.h>, <rcu/atomic.h> and the mutant
 * hook RCUDS_MUTANT_(). */
#include <rcuds/internal.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Returned by the nonblocking dequeue, first and next when they would
 * have to wait for an enqueue in flight. */
#define CDS_WFCQ_WOULDBLOCK	((struct cds_wfcq_node *) -1UL)

/** What a splice reports. */
enum cds_wfcq_ret {
	/** Nonblocking splice only: it would have had to wait; nothing moved. */
	CDS_WFCQ_RET_WOULDBLOCK =	-1,
	/** The nodes moved; the destination queue was empty before. */
	CDS_WFCQ_RET_DEST_EMPTY =	0,
	/** The nodes moved; the destination queue held nodes before. */
	CDS_WFCQ_RET_DEST_NON_EMPTY =	1,
	/** The source queue was empty; nothing moved. */
	CDS_WFCQ_RET_SRC_EMPTY =	2,
};

/** Bits the `_with_state` dequeues store in their \p state. */
enum cds_wfcq_state {
	/** The node dequeued was the last one: the queue was left empty. */
	CDS_WFCQ_STATE_LAST =		(1U << 0),
};

/* Shaped as wfstack.h's, kept apart: liburcu's API, read header by header. */
/** \brief The hook embedded in each queued element (recover the element
 * with caa_container_of()). */
struct cds_wfcq_node {
	/** The successor in the queue; the queue's, never use it. */
	RCU_ATOMIC_(struct cds_wfcq_node *) next;
};

/** \brief A queue head without a mutex: the caller excludes dequeuers (see
 * the table in this file's description). */
struct __cds_wfcq_head {
	/** The queue's stub node: its next is the first node. */
	struct cds_wfcq_node node;
};

/** \brief A queue head with the mutex that cds_wfcq_dequeue_blocking(),
 * cds_wfcq_splice_blocking() and cds_wfcq_dequeue_lock() take. */
struct cds_wfcq_head {
	/** The queue's stub node: its next is the first node. */
	struct cds_wfcq_node node;
	/** Excludes dequeuers from one another. */
	pthread_mutex_t lock;
};

/** \brief A queue tail: the last node enqueued. */
struct cds_wfcq_tail {
	/** The last node, or the head's stub node when the queue is empty. */
	RCU_ATOMIC_(struct cds_wfcq_node *) p;
};

/**
 * \brief Either kind of queue head, for the functions that accept both.
 *
 * In C a transparent union: pass a `struct cds_wfcq_head *` or a
 * `struct __cds_wfcq_head *` directly. In C++ the functions that take it are
 * overloaded for both pointer types, and cds_wfcq_head_cast() or
 * __cds_wfcq_head_cast() build one explicitly.
 */
typedef union {
	/** A head without a mutex. */
	struct __cds_wfcq_head *_h;
	/** A head with a mutex. */
	struct cds_wfcq_head *h;
} RCUDS_TRANSPARENT_UNION_ cds_wfcq_head_ptr_t;

#ifndef __cplusplus
/** \brief Returns \p head (C++ builds a cds_wfcq_head_ptr_t; kept for
 * programs written for both).
 * \param head A head without a mutex.
 * \return \p head. */
static inline struct __cds_wfcq_head *__cds_wfcq_head_cast(struct __cds_wfcq_head *head)
{
	return head;
}

/** \brief Returns \p head (C++ builds a cds_wfcq_head_ptr_t; kept for
 * programs written for both).
 * \param head A head with a mutex.
 * \return \p head. */
static inline struct cds_wfcq_head *cds_wfcq_head_cast(struct cds_wfcq_head *head)
{
	return head;
}
#else
static inline cds_wfcq_head_ptr_t __cds_wfcq_head_cast(struct __cds_wfcq_head *head)
{
	cds_wfcq_head_ptr_t ret;
	ret._h = head;
	return ret;
}

static inline cds_wfcq_head_ptr_t cds_wfcq_head_cast(struct cds_wfcq_head *head)
{
	cds_wfcq_head_ptr_t ret;
	ret.h = head;
	return ret;
}
#endif

/* The stub node of either head: both heads begin with it. */
static inline struct cds_wfcq_node *rcuds_wfcq_stub_(cds_wfcq_head_ptr_t head)
{
	return &head._h->node;
}

/**
 * \brief Prepares a node for cds_wfcq_enqueue().
 * \param node The node.
 *
 * Needed before each enqueue: a dequeued node may go back in once it has
 * been initialized again.
 */
static inline void cds_wfcq_node_init(struct cds_wfcq_node *node)
{
	/* Relaxed: published by the enqueue's exchange (release). */
	rcu_atomic_store(&node->next, (struct cds_wfcq_node *)NULL, memory_order_relaxed);
}

/* An empty queue, either head: the stub's next NULL, the tail at the stub. */
static inline void rcuds_wfcq_init_(struct cds_wfcq_node *stub, struct cds_wfcq_tail *tail)
{
	cds_wfcq_node_init(stub);
	/* Relaxed: the queue is not shared yet. */
	rcu_atomic_store(&tail->p, stub, memory_order_relaxed);
}

/**
 * \brief Initializes an empty queue without a mutex (no destroy needed).
 * \param head The head.
 * \param tail The tail.
 */
static inline void __cds_wfcq_init(struct __cds_wfcq_head *head,
				   struct cds_wfcq_tail *tail)
{
	rcuds_wfcq_init_(&head->node, tail);
}

/**
 * \brief Initializes an empty queue and its mutex; pair with
 * cds_wfcq_destroy().
 * \param head The head.
 * \param tail The tail.
 */
static inline void cds_wfcq_init(struct cds_wfcq_head *head,
				 struct cds_wfcq_tail *tail)
{
	rcuds_wfcq_init_(&head->node, tail);
	rcuds_mutex_init_(&head->lock, "cds_wfcq_init");
}

/**
 * \brief Destroys the mutex of a queue made by cds_wfcq_init().
 * \param head The head.
 * \param tail The tail.
 *
 * The nodes still queued stay the caller's; the queue is not emptied.
 */
static inline void cds_wfcq_destroy(struct cds_wfcq_head *head,
				    struct cds_wfcq_tail *tail)
{
	(void)tail;
	rcuds_mutex_destroy_(&head->lock, "cds_wfcq_destroy");
}

/**
 * \brief Whether the queue holds no node.
 * \param head The head (either kind).
 * \param tail The tail.
 * \return true when empty.
 *
 * No barrier and no exclusion: a hint when other threads enqueue or
 * dequeue at the same time. A queue with an enqueue in flight (tail
 * exchanged, link not yet stored) counts as non-empty.
 */
static inline bool cds_wfcq_empty(cds_wfcq_head_ptr_t head,
				  struct cds_wfcq_tail *tail)
{
	struct cds_wfcq_node *stub = rcuds_wfcq_stub_(head);

	/* Relaxed (both loads): a hint; the dequeues that act on the answer
	 * load the link again with acquire. */
	return rcu_atomic_load(&stub->next, memory_order_relaxed) == NULL &&
	       rcu_atomic_load(&tail->p, memory_order_relaxed) == stub;
}

/* The mutex's calls read alike: each is liburcu's, documented on its own. */
/**
 * \brief Takes the queue's dequeue mutex.
 * \param head The head.
 * \param tail The tail.
 *
 * Hold it around the `__cds_wfcq_*` dequeue, splice (as source) and
 * iteration calls that must exclude one another.
 */
static inline void cds_wfcq_dequeue_lock(struct cds_wfcq_head *head,
					 struct cds_wfcq_tail *tail)
{
	(void)tail;
	rcuds_mutex_lock_(&head->lock, "cds_wfcq_dequeue_lock");
}

/**
 * \brief Releases the mutex taken by cds_wfcq_dequeue_lock().
 * \param head The head.
 * \param tail The tail.
 */
static inline void cds_wfcq_dequeue_unlock(struct cds_wfcq_head *head,
					   struct cds_wfcq_tail *tail)
{
	(void)tail;
	rcuds_mutex_unlock_(&head->lock, "cds_wfcq_dequeue_unlock");
}

/* Appends the chain first..last (last's next already NULL or on the way)
 * at the tail: the common end of enqueue and splice. Returns whether the
 * queue held a node before. */
static inline bool rcuds_wfcq_append_(cds_wfcq_head_ptr_t head,
				      struct cds_wfcq_tail *tail,
				      struct cds_wfcq_node *first,
				      struct cds_wfcq_node *last)
{
	struct cds_wfcq_node *old_tail;

	if (RCUDS_MUTANT_(wfcq_enqueue_lost)) {
		/* Broken on purpose: two enqueuers may read the same tail,
		 * and one chain is lost. */
		/* Relaxed: the mutant's load and store. */
		old_tail = rcu_atomic_load(&tail->p, memory_order_relaxed);
		rcu_cpu_relax();	/* widens the window, so short runs hit it */
		rcu_atomic_store(&tail->p, last, memory_order_relaxed);
	} else {
		rcuds_full_barrier_before_rmw_();
		/* Seq_cst exchange, the linearization point. Release: the
		 * chain's contents and the NULL in last->next happen before
		 * the enqueuer that exchanges after us stores into
		 * last->next; acquire: pairs with the exchange (or the
		 * dequeue's CAS, or the splice's exchange) that installed
		 * old_tail, so our store into old_tail->next comes after the
		 * NULL stored there. */
		old_tail = rcu_atomic_xchg(&tail->p, last, memory_order_seq_cst);
	}
	/* Release: publishes the chain's contents; pairs with the acquire
	 * loads of the links in rcuds_wfcq_wait_next_(). */
	rcu_atomic_store(&old_tail->next, first, memory_order_release);
	return old_tail != rcuds_wfcq_stub_(head);
}

/**
 * \brief Appends a node at the end of the queue. Wait-free.
 * \param head The head (either kind).
 * \param tail The tail.
 * \param node The node, initialized with cds_wfcq_node_init().
 * \return false when the queue was empty before, true otherwise.
 *
 * Needs no exclusion with anything. A full memory barrier before the
 * enqueue; what the caller wrote into the element before is visible to
 * the thread that dequeues it.
 */
static inline bool cds_wfcq_enqueue(cds_wfcq_head_ptr_t head,
				    struct cds_wfcq_tail *tail,
				    struct cds_wfcq_node *node)
{
	return rcuds_wfcq_append_(head, tail, node, node);
}

/* Waits for node->next to be stored (blocking) or gives up, returning
 * CDS_WFCQ_WOULDBLOCK. Only for a node that is not the tail. */
static inline struct cds_wfcq_node *rcuds_wfcq_wait_next_(struct cds_wfcq_node *node,
							  bool blocking)
{
	struct cds_wfcq_node *next;
	unsigned attempt = 0;

	/* Acquire (each load of the loop): pairs with the release store of
	 * the link in rcuds_wfcq_append_(); the successor's contents are
	 * visible. */
	while ((next = rcu_atomic_load(&node->next, memory_order_acquire)) == NULL) {
		if (!rcuds_wait_step_(&attempt, blocking))
			return CDS_WFCQ_WOULDBLOCK;
	}
	return next;
}

static inline struct cds_wfcq_node *rcuds_wfcq_first_(cds_wfcq_head_ptr_t head,
						      struct cds_wfcq_tail *tail,
						      bool blocking)
{
	if (cds_wfcq_empty(head, tail))
		return NULL;
	return rcuds_wfcq_wait_next_(rcuds_wfcq_stub_(head), blocking);
}

static inline struct cds_wfcq_node *rcuds_wfcq_next_(struct cds_wfcq_tail *tail,
						     struct cds_wfcq_node *node,
						     bool blocking)
{
	/* Acquire: pairs with the release store of the link in
	 * rcuds_wfcq_append_(). */
	struct cds_wfcq_node *next = rcu_atomic_load(&node->next, memory_order_acquire);

	if (next != NULL)
		return next;
	/* Relaxed: the tail is compared, never followed. */
	if (rcu_atomic_load(&tail->p, memory_order_relaxed) == node)
		return NULL;
	return rcuds_wfcq_wait_next_(node, blocking);
}

/**
 * \brief The first node, left in the queue; waits for an enqueue in flight.
 * \param head The head (either kind).
 * \param tail The tail.
 * \return The first node, or NULL when the queue is empty.
 *
 * Excludes dequeue and splice from this queue (the caller's job). Used by
 * __cds_wfcq_for_each_blocking().
 */
static inline struct cds_wfcq_node *__cds_wfcq_first_blocking(cds_wfcq_head_ptr_t head,
							      struct cds_wfcq_tail *tail)
{
	return rcuds_wfcq_first_(head, tail, true);
}

/**
 * \brief As __cds_wfcq_first_blocking(), but never waits.
 * \param head The head (either kind).
 * \param tail The tail.
 * \return The first node, NULL when empty, or #CDS_WFCQ_WOULDBLOCK when an
 * enqueue in flight has not linked it yet.
 */
static inline struct cds_wfcq_node *__cds_wfcq_first_nonblocking(cds_wfcq_head_ptr_t head,
								 struct cds_wfcq_tail *tail)
{
	return rcuds_wfcq_first_(head, tail, false);
}

/**
 * \brief The node after \p node, left in the queue; waits for an enqueue
 * in flight.
 * \param head The head (either kind).
 * \param tail The tail.
 * \param node A node of the queue.
 * \return The next node, or NULL when \p node is the last.
 */
static inline struct cds_wfcq_node *__cds_wfcq_next_blocking(cds_wfcq_head_ptr_t head,
							     struct cds_wfcq_tail *tail,
							     struct cds_wfcq_node *node)
{
	(void)head;
	return rcuds_wfcq_next_(tail, node, true);
}

/**
 * \brief As __cds_wfcq_next_blocking(), but never waits.
 * \param head The head (either kind).
 * \param tail The tail.
 * \param node A node of the queue.
 * \return The next node, NULL at the end, or #CDS_WFCQ_WOULDBLOCK.
 */
static inline struct cds_wfcq_node *__cds_wfcq_next_nonblocking(cds_wfcq_head_ptr_t head,
								struct cds_wfcq_tail *tail,
								struct cds_wfcq_node *node)
{
	(void)head;
	return rcuds_wfcq_next_(tail, node, false);
}

static inline struct cds_wfcq_node *rcuds_wfcq_dequeue_(cds_wfcq_head_ptr_t head,
							struct cds_wfcq_tail *tail,
							int *state, bool blocking)
{
	struct cds_wfcq_node *stub = rcuds_wfcq_stub_(head);
	struct cds_wfcq_node *node, *next, *expected;

	if (state != NULL)
		*state = 0;
	node = rcuds_wfcq_first_(head, tail, blocking);
	if (node == NULL || node == CDS_WFCQ_WOULDBLOCK)
		return node;
	if (RCUDS_MUTANT_(wfcq_dequeue_unlocked))
		rcu_cpu_relax();	/* widens the unlocked dequeues' window */
	/* Acquire: pairs with the release store of the link in
	 * rcuds_wfcq_append_(). */
	next = rcu_atomic_load(&node->next, memory_order_acquire);
	if (next == NULL) {
		/* node looks last: empty the head, then take the tail back
		 * from node. */
		/* Relaxed: ordered before the CAS below by its release. */
		rcu_atomic_store(&stub->next, (struct cds_wfcq_node *)NULL, memory_order_relaxed);
		expected = node;
		/* Release on success: the NULL above is stored before an
		 * enqueue that exchanges the tail from the stub stores into
		 * the stub's next (pairs with the exchange's acquire in
		 * rcuds_wfcq_append_()). Relaxed on failure: an enqueue
		 * has taken the tail; we wait for its link below. */
		if (rcu_atomic_cas(&tail->p, &expected, stub,
				   memory_order_release, memory_order_relaxed)) {
			if (state != NULL)
				*state |= CDS_WFCQ_STATE_LAST;
			return node;
		}
		next = rcuds_wfcq_wait_next_(node, blocking);
		if (next == CDS_WFCQ_WOULDBLOCK) {
			/* Put node back first; the caller may retry. */
			/* Relaxed: only dequeuers, whom the caller excludes,
			 * read the stub's next here (no enqueue can, the
			 * tail is not the stub). */
			rcu_atomic_store(&stub->next, node, memory_order_relaxed);
			return CDS_WFCQ_WOULDBLOCK;
		}
	}
	/* Relaxed: the next dequeuer is this thread or one ordered after it
	 * by the caller's exclusion. */
	rcu_atomic_store(&stub->next, next, memory_order_relaxed);
	return node;
}

/**
 * \brief Removes and returns the first node; waits for an enqueue in flight.
 * \param head The head (either kind).
 * \param tail The tail.
 * \return The node, or NULL when the queue is empty.
 *
 * The caller excludes other dequeues, source splices and iterations of
 * this queue. The node may be freed or reused at once.
 */
static inline struct cds_wfcq_node *__cds_wfcq_dequeue_blocking(cds_wfcq_head_ptr_t head,
								struct cds_wfcq_tail *tail)
{
	return rcuds_wfcq_dequeue_(head, tail, NULL, true);
}

/**
 * \brief As __cds_wfcq_dequeue_blocking(), and tells whether the queue
 * was left empty.
 * \param head The head (either kind).
 * \param tail The tail.
 * \param state Receives #CDS_WFCQ_STATE_LAST when the node was the last
 * one, 0 otherwise.
 * \return The node, or NULL when the queue is empty.
 */
static inline struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_blocking(
	cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state)
{
	return rcuds_wfcq_dequeue_(head, tail, state, true);
}

/**
 * \brief As __cds_wfcq_dequeue_blocking(), but never waits.
 * \param head The head (either kind).
 * \param tail The tail.
 * \return The node, NULL when empty, or #CDS_WFCQ_WOULDBLOCK (the queue is
 * left as it was).
 */
static inline struct cds_wfcq_node *__cds_wfcq_dequeue_nonblocking(cds_wfcq_head_ptr_t head,
								   struct cds_wfcq_tail *tail)
{
	return rcuds_wfcq_dequeue_(head, tail, NULL, false);
}

/**
 * \brief As __cds_wfcq_dequeue_with_state_blocking(), but never waits.
 * \param head The head (either kind).
 * \param tail The tail.
 * \param state Receives #CDS_WFCQ_STATE_LAST when the node was the last.
 * \return The node, NULL when empty, or #CDS_WFCQ_WOULDBLOCK.
 */
static inline struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_nonblocking(
	cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail, int *state)
{
	return rcuds_wfcq_dequeue_(head, tail, state, false);
}

static inline enum cds_wfcq_ret rcuds_wfcq_splice_(cds_wfcq_head_ptr_t dest_head,
						   struct cds_wfcq_tail *dest_tail,
						   cds_wfcq_head_ptr_t src_head,
						   struct cds_wfcq_tail *src_tail,
						   bool blocking)
{
	struct cds_wfcq_node *src_stub = rcuds_wfcq_stub_(src_head);
	struct cds_wfcq_node *first, *last;
	unsigned attempt = 0;

	if (cds_wfcq_empty(src_head, src_tail))
		return CDS_WFCQ_RET_SRC_EMPTY;
	/* Take the chain from the stub with an exchange: two splices from
	 * one source may run together. */
	for (;;) {
		/* Acq_rel: acquire pairs with the release store of the link
		 * in rcuds_wfcq_append_() (the chain's contents); release
		 * orders the NULL before the tail exchange below for the
		 * next enqueue onto the stub. */
		first = rcu_atomic_xchg(&src_stub->next, (struct cds_wfcq_node *)NULL,
					memory_order_acq_rel);
		if (first != NULL)
			break;
		/* Relaxed: compared, never followed. */
		if (rcu_atomic_load(&src_tail->p, memory_order_relaxed) == src_stub)
			return CDS_WFCQ_RET_SRC_EMPTY;
		if (!rcuds_wait_step_(&attempt, blocking))
			return CDS_WFCQ_RET_WOULDBLOCK;
	}
	/* Acq_rel: release pairs with the acquire of the exchange in
	 * rcuds_wfcq_append_() of the next enqueue onto the source (our
	 * NULL in the stub's next comes before its link); acquire pairs
	 * with the exchange that installed last. */
	last = rcu_atomic_xchg(&src_tail->p, src_stub, memory_order_acq_rel);
	return rcuds_wfcq_append_(dest_head, dest_tail, first, last) ?
		CDS_WFCQ_RET_DEST_NON_EMPTY : CDS_WFCQ_RET_DEST_EMPTY;
}

/**
 * \brief Moves every node of the source queue to the end of the
 * destination queue; waits for an enqueue in flight on the source.
 * \param dest_q_head The destination's head (either kind).
 * \param dest_q_tail The destination's tail.
 * \param src_q_head The source's head (either kind).
 * \param src_q_tail The source's tail.
 * \return #CDS_WFCQ_RET_SRC_EMPTY, #CDS_WFCQ_RET_DEST_EMPTY or
 * #CDS_WFCQ_RET_DEST_NON_EMPTY (never #CDS_WFCQ_RET_WOULDBLOCK).
 *
 * The caller excludes dequeue and iteration of the source; the destination
 * needs no exclusion (the append is an enqueue). Order is kept: the source's
 * nodes come after the destination's, in their order.
 */
static inline enum cds_wfcq_ret __cds_wfcq_splice_blocking(cds_wfcq_head_ptr_t dest_q_head,
							   struct cds_wfcq_tail *dest_q_tail,
							   cds_wfcq_head_ptr_t src_q_head,
							   struct cds_wfcq_tail *src_q_tail)
{
	return rcuds_wfcq_splice_(dest_q_head, dest_q_tail, src_q_head, src_q_tail, true);
}

/**
 * \brief As __cds_wfcq_splice_blocking(), but never waits.
 * \param dest_q_head The destination's head (either kind).
 * \param dest_q_tail The destination's tail.
 * \param src_q_head The source's head (either kind).
 * \param src_q_tail The source's tail.
 * \return As __cds_wfcq_splice_blocking(), or #CDS_WFCQ_RET_WOULDBLOCK
 * (nothing moved) when the source's first node is not linked yet.
 */
static inline enum cds_wfcq_ret __cds_wfcq_splice_nonblocking(cds_wfcq_head_ptr_t dest_q_head,
							      struct cds_wfcq_tail *dest_q_tail,
							      cds_wfcq_head_ptr_t src_q_head,
							      struct cds_wfcq_tail *src_q_tail)
{
	return rcuds_wfcq_splice_(dest_q_head, dest_q_tail, src_q_head, src_q_tail, false);
}

/**
 * \brief __cds_wfcq_dequeue_with_state_blocking() under the queue's mutex.
 * \param head The head (with a mutex).
 * \param tail The tail.
 * \param state Receives #CDS_WFCQ_STATE_LAST when the node was the last.
 * \return The node, or NULL when the queue is empty.
 */
static inline struct cds_wfcq_node *cds_wfcq_dequeue_with_state_blocking(
	struct cds_wfcq_head *head, struct cds_wfcq_tail *tail, int *state)
{
	struct cds_wfcq_node *node;
	bool locked = !RCUDS_MUTANT_(wfcq_dequeue_unlocked);

	if (locked)
		cds_wfcq_dequeue_lock(head, tail);
	node = __cds_wfcq_dequeue_with_state_blocking(cds_wfcq_head_cast(head), tail, state);
	if (locked)
		cds_wfcq_dequeue_unlock(head, tail);
	return node;
}

/**
 * \brief __cds_wfcq_dequeue_blocking() under the queue's mutex: any number
 * of threads may call it together.
 * \param head The head (with a mutex).
 * \param tail The tail.
 * \return The node, or NULL when the queue is empty.
 */
static inline struct cds_wfcq_node *cds_wfcq_dequeue_blocking(struct cds_wfcq_head *head,
							      struct cds_wfcq_tail *tail)
{
	return cds_wfcq_dequeue_with_state_blocking(head, tail, NULL);
}

/**
 * \brief __cds_wfcq_splice_blocking() under the source's mutex.
 * \param dest_q_head The destination's head.
 * \param dest_q_tail The destination's tail.
 * \param src_q_head The source's head (its mutex is taken).
 * \param src_q_tail The source's tail.
 * \return As __cds_wfcq_splice_blocking().
 */
static inline enum cds_wfcq_ret cds_wfcq_splice_blocking(struct cds_wfcq_head *dest_q_head,
							 struct cds_wfcq_tail *dest_q_tail,
							 struct cds_wfcq_head *src_q_head,
							 struct cds_wfcq_tail *src_q_tail)
{
	enum cds_wfcq_ret ret;

	cds_wfcq_dequeue_lock(src_q_head, src_q_tail);
	ret = __cds_wfcq_splice_blocking(cds_wfcq_head_cast(dest_q_head), dest_q_tail,
					 cds_wfcq_head_cast(src_q_head), src_q_tail);
	cds_wfcq_dequeue_unlock(src_q_head, src_q_tail);
	return ret;
}

/**
 * \brief Iterates over the nodes of a queue without removing them.
 * \param head The head (either kind).
 * \param tail The tail.
 * \param node A `struct cds_wfcq_node *` set to each node in turn.
 *
 * The caller excludes dequeue and source splice (see the table above);
 * waits for enqueues in flight.
 */
#define __cds_wfcq_for_each_blocking(head, tail, node)			\
	for ((node) = __cds_wfcq_first_blocking(head, tail);		\
	     (node) != NULL;						\
	     (node) = __cds_wfcq_next_blocking(head, tail, node))

/**
 * \brief As __cds_wfcq_for_each_blocking(), but the loop body may free or
 * reuse \p node (the successor is read first).
 * \param head The head (either kind).
 * \param tail The tail.
 * \param node A `struct cds_wfcq_node *` set to each node in turn.
 * \param n A `struct cds_wfcq_node *` holding the successor.
 */
#define __cds_wfcq_for_each_blocking_safe(head, tail, node, n)		\
	for ((node) = __cds_wfcq_first_blocking(head, tail),		\
	     (n) = ((node) != NULL ? __cds_wfcq_next_blocking(head, tail, node) : NULL); \
	     (node) != NULL;						\
	     (node) = (n),						\
	     (n) = ((node) != NULL ? __cds_wfcq_next_blocking(head, tail, node) : NULL))

#ifdef __cplusplus
}

/*
 * C++ has no transparent union: overloads take either head pointer, as
 * liburcu 0.15's C++ wrappers do (extern "C++", so a program may include
 * this header inside its own extern "C" block).
 */
extern "C++" {
RCUDS_CXX_CASTS_(cds_wfcq_head_cast_cpp, cds_wfcq_head_ptr_t, __cds_wfcq_head, _h, cds_wfcq_head, h)

template<typename T> static inline bool cds_wfcq_empty(T head, struct cds_wfcq_tail *tail)
{
	return cds_wfcq_empty(cds_wfcq_head_cast_cpp(head), tail);
}

template<typename T> static inline bool cds_wfcq_enqueue(T head, struct cds_wfcq_tail *tail,
							 struct cds_wfcq_node *node)
{
	return cds_wfcq_enqueue(cds_wfcq_head_cast_cpp(head), tail, node);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_dequeue_blocking(
	T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_dequeue_blocking(cds_wfcq_head_cast_cpp(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_blocking(
	T head, struct cds_wfcq_tail *tail, int *state)
{
	return __cds_wfcq_dequeue_with_state_blocking(cds_wfcq_head_cast_cpp(head), tail, state);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_dequeue_nonblocking(
	T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_dequeue_nonblocking(cds_wfcq_head_cast_cpp(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_nonblocking(
	T head, struct cds_wfcq_tail *tail, int *state)
{
	return __cds_wfcq_dequeue_with_state_nonblocking(cds_wfcq_head_cast_cpp(head), tail, state);
}

template<typename T, typename U> static inline enum cds_wfcq_ret __cds_wfcq_splice_blocking(
	T dest_q_head, struct cds_wfcq_tail *dest_q_tail,
	U src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return __cds_wfcq_splice_blocking(cds_wfcq_head_cast_cpp(dest_q_head), dest_q_tail,
					  cds_wfcq_head_cast_cpp(src_q_head), src_q_tail);
}

template<typename T, typename U> static inline enum cds_wfcq_ret __cds_wfcq_splice_nonblocking(
	T dest_q_head, struct cds_wfcq_tail *dest_q_tail,
	U src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return __cds_wfcq_splice_nonblocking(cds_wfcq_head_cast_cpp(dest_q_head), dest_q_tail,
					     cds_wfcq_head_cast_cpp(src_q_head), src_q_tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_first_blocking(
	T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_first_blocking(cds_wfcq_head_cast_cpp(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_first_nonblocking(
	T head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_first_nonblocking(cds_wfcq_head_cast_cpp(head), tail);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_next_blocking(
	T head, struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return __cds_wfcq_next_blocking(cds_wfcq_head_cast_cpp(head), tail, node);
}

template<typename T> static inline struct cds_wfcq_node *__cds_wfcq_next_nonblocking(
	T head, struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return __cds_wfcq_next_nonblocking(cds_wfcq_head_cast_cpp(head), tail, node);
}
}
#endif /* __cplusplus */

#endif /* RCUDS_WFCQUEUE_H */
