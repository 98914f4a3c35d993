/* SPDX-License-Identifier: MIT */
/**
 * \file
 * \brief The wait-free stack (`cds_wfs_*`): wait-free push; pop and pop_all
 * that may wait for a push in flight.
 *
 * A stack is struct cds_wfs_stack (with an internal pop mutex) or struct
 * __cds_wfs_stack (without). Functions that accept either take a
 * cds_wfs_stack_ptr_t: a transparent union in C, overloads in C++.
 *
 * What this file owns and its invariants, between any two atomic steps:
 * - The stack is the chain head -> n1 -> ... -> nk -> #CDS_WFS_END: the
 *   bottom node's next is #CDS_WFS_END, never NULL, so that a NULL next means
 *   "the push that put this node on top has not linked it yet".
 * - Push is two steps: exchange the head for the node (the linearization
 *   point), then store the old head into the node's next. Pop waits for
 *   that store when it finds NULL (spinning briefly, then sleeping 1 ms at a
 *   time; the nonblocking forms return #CDS_WFS_WOULDBLOCK instead).
 * - Pop swings the head from the top node to its successor with a
 *   compare-and-swap; a failed one means a push came first, and pop starts
 *   over. pop_all exchanges the head for #CDS_WFS_END.
 * - Node contents written before cds_wfs_push() are visible to the thread
 *   that pops the node or iterates to it.
 *
 * Who may run together (X: the caller must exclude; -: no exclusion):
 *
 * |                   | push | __cds_wfs_pop | __cds_wfs_pop_all |
 * |-------------------|------|---------------|-------------------|
 * | push              | -    | -             | -                 |
 * | __cds_wfs_pop     | -    | X             | X                 |
 * | __cds_wfs_pop_all | -    | X             | -                 |
 *
 * Pops exclude one another in one of three ways: the pop mutex
 * (cds_wfs_pop_blocking(), cds_wfs_pop_all_blocking(), cds_wfs_pop_lock()),
 * a single popping thread, or RCU: every __cds_wfs_pop_blocking() inside a
 * read-side critical section, and a popped node freed or pushed again only
 * after a grace period (otherwise a stale pop could swing the head to a
 * node that was popped and pushed back meanwhile).
 *
 * Relies on <rcu/atomic.h> and <rcuds/internal.h>.
 */
#ifndef RCUDS_WFSTACK_H
#define RCUDS_WFSTACK_H

/* With <pthread.h>, <stdbool.h>, <stddef.h>, <rcu/atomic.h> and the mutant
 * hook RCUDS_MUTANT_(). */
#include <rcuds/internal.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Returned by the nonblocking pops and cds_wfs_next_nonblocking() when
 * they would have to wait for a push in flight. */
#define CDS_WFS_WOULDBLOCK	((struct cds_wfs_node *) -1UL)

/** The bottom of every stack: the last node's next, and the head of an
 * empty stack. */
#define CDS_WFS_END		((struct cds_wfs_head *) 0x1UL)
/* The same marker as a node's next (no member access through it). */
#define RCUDS_WFS_END_NODE_	((struct cds_wfs_node *) 0x1UL)

/** Bits the `_with_state` pops store in their \p state. */
enum cds_wfs_state {
	/** The node popped was the last one: the stack was left empty. */
	CDS_WFS_STATE_LAST =		(1U << 0),
};

/* Shaped as lfstack.h's, kept apart: liburcu's API, read header by header. */
/** \brief The hook embedded in each stacked element (recover the element
 * with caa_container_of()). */
struct cds_wfs_node {
	/** The node below; the stack's, never use it. */
	RCU_ATOMIC_(struct cds_wfs_node *) next;
};

/** \brief What __cds_wfs_pop_all() returns: the top of a popped chain, to
 * walk with cds_wfs_first() and cds_wfs_next_blocking(). */
struct cds_wfs_head {
	/** The top node. */
	struct cds_wfs_node node;
};

/** \brief A stack without a mutex: the caller excludes pops. */
struct __cds_wfs_stack {
	/** The top, or #CDS_WFS_END. */
	RCU_ATOMIC_(struct cds_wfs_head *) head;
};

/** \brief A stack with the mutex that the pop forms without leading
 * underscores take. */
struct cds_wfs_stack {
	/** The top, or #CDS_WFS_END. */
	RCU_ATOMIC_(struct cds_wfs_head *) head;
	/** Excludes pops from one another. */
	pthread_mutex_t lock;
};

/**
 * \brief Either kind of stack, for the functions that accept both (a
 * transparent union in C; in C++ the functions are overloaded and
 * cds_wfs_stack_cast() builds one).
 */
typedef union {
	/** A stack without a mutex. */
	struct __cds_wfs_stack *_s;
	/** A stack with a mutex. */
	struct cds_wfs_stack *s;
} RCUDS_TRANSPARENT_UNION_ cds_wfs_stack_ptr_t;

/* The head field, at the same place in both kinds. */
static inline struct __cds_wfs_stack *rcuds_wfs_plain_(cds_wfs_stack_ptr_t s)
{
	return s._s;
}

/**
 * \brief Prepares a node for cds_wfs_push() (needed before each push).
 * \param node The node.
 */
static inline void cds_wfs_node_init(struct cds_wfs_node *node)
{
	/* Relaxed: published by the push's exchange (release). */
	rcu_atomic_store(&node->next, (struct cds_wfs_node *)NULL, memory_order_relaxed);
}

/**
 * \brief Initializes an empty stack without a mutex (no destroy needed).
 * \param s The stack.
 */
static inline void __cds_wfs_init(struct __cds_wfs_stack *s)
{
	/* Relaxed: the stack is not shared yet. */
	rcu_atomic_store(&s->head, CDS_WFS_END, memory_order_relaxed);
}

/**
 * \brief Initializes an empty stack and its mutex; pair with
 * cds_wfs_destroy().
 * \param s The stack.
 */
static inline void cds_wfs_init(struct cds_wfs_stack *s)
{
	/* Relaxed: the stack is not shared yet. */
	rcu_atomic_store(&s->head, CDS_WFS_END, memory_order_relaxed);
	rcuds_mutex_init_(&s->lock, "cds_wfs_init");
}

/**
 * \brief Destroys the mutex of a stack made by cds_wfs_init(); the nodes
 * still on it stay the caller's.
 * \param s The stack.
 */
static inline void cds_wfs_destroy(struct cds_wfs_stack *s)
{
	rcuds_mutex_destroy_(&s->lock, "cds_wfs_destroy");
}

/**
 * \brief Whether the stack holds no node (no barrier, no exclusion: a hint
 * while others push or pop).
 * \param u_stack The stack (either kind).
 * \return true when empty.
 */
static inline bool cds_wfs_empty(cds_wfs_stack_ptr_t u_stack)
{
	/* Relaxed: compared, never followed. */
	return rcu_atomic_load(&rcuds_wfs_plain_(u_stack)->head, memory_order_relaxed) ==
	       CDS_WFS_END;
}

/**
 * \brief Pushes a node. Wait-free.
 * \param u_stack The stack (either kind).
 * \param node The node, initialized with cds_wfs_node_init().
 * \return 0 when the stack was empty before, 1 otherwise.
 *
 * Needs no exclusion with anything. A full memory barrier before the
 * push; what the caller wrote into the element is visible to the thread
 * that pops it.
 */
static inline int cds_wfs_push(cds_wfs_stack_ptr_t u_stack, struct cds_wfs_node *node)
{
	struct __cds_wfs_stack *s = rcuds_wfs_plain_(u_stack);
	struct cds_wfs_head *new_head = (struct cds_wfs_head *)(void *)node;
	struct cds_wfs_head *old_head;

	if (RCUDS_MUTANT_(wfs_push_lost)) {
		/* Broken on purpose: two pushers may read the same head, and
		 * one node is lost. */
		/* Relaxed: the mutant's load and store. */
		old_head = rcu_atomic_load(&s->head, memory_order_relaxed);
		rcu_cpu_relax();	/* widens the window, so short runs hit it */
		rcu_atomic_store(&s->head, new_head, memory_order_relaxed);
	} else {
		rcuds_full_barrier_before_rmw_();
		/* Seq_cst exchange, the linearization point. Release:
		 * publishes the node's contents and its NULL next to pops
		 * (pairs with the acquire load of the head in
		 * rcuds_wfs_pop_()); acquire: pairs with the exchange of the
		 * push below us, whose node we link to. */
		old_head = rcu_atomic_xchg(&s->head, new_head, memory_order_seq_cst);
	}
	/* Release: pairs with the acquire load of the link in
	 * rcuds_wfs_wait_next_(); the node below is visible with it. */
	rcu_atomic_store(&node->next, (struct cds_wfs_node *)(void *)old_head,
			 memory_order_release);
	return old_head != CDS_WFS_END;
}

/* Waits for node->next (blocking) or gives up with CDS_WFS_WOULDBLOCK. */
static inline struct cds_wfs_node *rcuds_wfs_wait_next_(struct cds_wfs_node *node,
							bool blocking)
{
	struct cds_wfs_node *next;
	unsigned attempt = 0;

	/* Acquire (each load of the loop): pairs with the release store of
	 * the link in cds_wfs_push(). */
	while ((next = rcu_atomic_load(&node->next, memory_order_acquire)) == NULL) {
		if (!rcuds_wait_step_(&attempt, blocking))
			return CDS_WFS_WOULDBLOCK;
	}
	return next;
}

static inline struct cds_wfs_node *rcuds_wfs_pop_(cds_wfs_stack_ptr_t u_stack, int *state,
						  bool blocking)
{
	struct __cds_wfs_stack *s = rcuds_wfs_plain_(u_stack);

	if (state != NULL)
		*state = 0;
	for (;;) {
		/* Acquire: pairs with the exchange in cds_wfs_push() (or
		 * the CAS below in another pop); the top node's contents
		 * are visible. */
		struct cds_wfs_head *head = rcu_atomic_load(&s->head, memory_order_acquire);
		struct cds_wfs_node *next;
		struct cds_wfs_head *expected = head;

		if (head == CDS_WFS_END)
			return NULL;
		next = rcuds_wfs_wait_next_(&head->node, blocking);
		if (next == CDS_WFS_WOULDBLOCK)
			return CDS_WFS_WOULDBLOCK;
		if (RCUDS_MUTANT_(wfs_pop_unlocked))
			rcu_cpu_relax();	/* widens the unlocked pops' ABA window */
		/* Release on success: a pop that reads the new head from us
		 * (pops under RCU run together) sees the node below as we
		 * did; pairs with the acquire load of the head above.
		 * Relaxed on failure: a push came first; start over. */
		if (rcu_atomic_cas(&s->head, &expected, (struct cds_wfs_head *)(void *)next,
				   memory_order_release, memory_order_relaxed)) {
			if (state != NULL && next == RCUDS_WFS_END_NODE_)
				*state |= CDS_WFS_STATE_LAST;
			return &head->node;
		}
	}
}

/**
 * \brief Pops the top node; waits for a push in flight.
 * \param u_stack The stack (either kind).
 * \return The node, or NULL when the stack is empty.
 *
 * The caller excludes other pops and pop_all (see the table in this
 * file's description).
 */
static inline struct cds_wfs_node *__cds_wfs_pop_blocking(cds_wfs_stack_ptr_t u_stack)
{
	return rcuds_wfs_pop_(u_stack, NULL, true);
}

/**
 * \brief As __cds_wfs_pop_blocking(), and tells whether the stack was left
 * empty.
 * \param u_stack The stack (either kind).
 * \param state Receives #CDS_WFS_STATE_LAST when the node was the last.
 * \return The node, or NULL when the stack is empty.
 */
static inline struct cds_wfs_node *__cds_wfs_pop_with_state_blocking(cds_wfs_stack_ptr_t u_stack,
								     int *state)
{
	return rcuds_wfs_pop_(u_stack, state, true);
}

/**
 * \brief As __cds_wfs_pop_blocking(), but never waits.
 * \param u_stack The stack (either kind).
 * \return The node, NULL when empty, or #CDS_WFS_WOULDBLOCK (nothing
 * popped) when the top node's push has not linked it yet.
 */
static inline struct cds_wfs_node *__cds_wfs_pop_nonblocking(cds_wfs_stack_ptr_t u_stack)
{
	return rcuds_wfs_pop_(u_stack, NULL, false);
}

/**
 * \brief As __cds_wfs_pop_with_state_blocking(), but never waits.
 * \param u_stack The stack (either kind).
 * \param state Receives #CDS_WFS_STATE_LAST when the node was the last.
 * \return The node, NULL when empty, or #CDS_WFS_WOULDBLOCK.
 */
static inline struct cds_wfs_node *__cds_wfs_pop_with_state_nonblocking(
	cds_wfs_stack_ptr_t u_stack, int *state)
{
	return rcuds_wfs_pop_(u_stack, state, false);
}

/**
 * \brief Takes every node at once; wait-free.
 * \param u_stack The stack (either kind).
 * \return The popped chain (walk it with cds_wfs_for_each_blocking()), or
 * NULL when the stack was empty.
 *
 * Excludes __cds_wfs_pop_blocking() as the table says; other pop_all and
 * pushes may run together.
 */
static inline struct cds_wfs_head *__cds_wfs_pop_all(cds_wfs_stack_ptr_t u_stack)
{
	struct __cds_wfs_stack *s = rcuds_wfs_plain_(u_stack);
	struct cds_wfs_head *head;

	/* Acq_rel: acquire pairs with the exchange in cds_wfs_push() (the
	 * top's contents); release: a pusher that exchanges after us links
	 * its node to the end marker we leave. */
	head = rcu_atomic_xchg(&s->head, CDS_WFS_END, memory_order_acq_rel);
	return head == CDS_WFS_END ? NULL : head;
}

/**
 * \brief Takes the stack's pop mutex.
 * \param s The stack (with a mutex).
 */
static inline void cds_wfs_pop_lock(struct cds_wfs_stack *s)
{
	rcuds_mutex_lock_(&s->lock, "cds_wfs_pop_lock");
}

/**
 * \brief Releases the mutex taken by cds_wfs_pop_lock().
 * \param s The stack (with a mutex).
 */
static inline void cds_wfs_pop_unlock(struct cds_wfs_stack *s)
{
	rcuds_mutex_unlock_(&s->lock, "cds_wfs_pop_unlock");
}

/**
 * \brief __cds_wfs_pop_with_state_blocking() under the pop mutex.
 * \param s The stack (with a mutex).
 * \param state Receives #CDS_WFS_STATE_LAST when the node was the last.
 * \return The node, or NULL when the stack is empty.
 */
static inline struct cds_wfs_node *cds_wfs_pop_with_state_blocking(struct cds_wfs_stack *s,
								   int *state)
{
	struct cds_wfs_node *node;
	bool locked = !RCUDS_MUTANT_(wfs_pop_unlocked);
	cds_wfs_stack_ptr_t u;

	u.s = s;
	if (locked)
		cds_wfs_pop_lock(s);
	node = __cds_wfs_pop_with_state_blocking(u, state);
	if (locked)
		cds_wfs_pop_unlock(s);
	return node;
}

/**
 * \brief __cds_wfs_pop_blocking() under the pop mutex: any number of
 * threads may call it together.
 * \param s The stack (with a mutex).
 * \return The node, or NULL when the stack is empty.
 */
static inline struct cds_wfs_node *cds_wfs_pop_blocking(struct cds_wfs_stack *s)
{
	return cds_wfs_pop_with_state_blocking(s, NULL);
}

/**
 * \brief __cds_wfs_pop_all() under the pop mutex.
 * \param s The stack (with a mutex).
 * \return The popped chain, or NULL when the stack was empty.
 */
static inline struct cds_wfs_head *cds_wfs_pop_all_blocking(struct cds_wfs_stack *s)
{
	struct cds_wfs_head *head;
	cds_wfs_stack_ptr_t u;

	u.s = s;
	cds_wfs_pop_lock(s);
	head = __cds_wfs_pop_all(u);
	cds_wfs_pop_unlock(s);
	return head;
}

/**
 * \brief The top node of a chain returned by __cds_wfs_pop_all().
 * \param head The chain (NULL or #CDS_WFS_END for none).
 * \return The top node, or NULL for an empty chain.
 */
static inline struct cds_wfs_node *cds_wfs_first(struct cds_wfs_head *head)
{
	if (head == NULL || head == CDS_WFS_END)
		return NULL;
	return &head->node;
}

static inline struct cds_wfs_node *rcuds_wfs_next_(struct cds_wfs_node *node, bool blocking)
{
	struct cds_wfs_node *next = rcuds_wfs_wait_next_(node, blocking);

	return next == RCUDS_WFS_END_NODE_ ? NULL : next;
}

/**
 * \brief The node below \p node in a popped chain; waits for a push in
 * flight to link it.
 * \param node A node of the chain.
 * \return The next node, or NULL at the bottom.
 */
static inline struct cds_wfs_node *cds_wfs_next_blocking(struct cds_wfs_node *node)
{
	return rcuds_wfs_next_(node, true);
}

/**
 * \brief As cds_wfs_next_blocking(), but never waits.
 * \param node A node of the chain.
 * \return The next node, NULL at the bottom, or #CDS_WFS_WOULDBLOCK.
 */
static inline struct cds_wfs_node *cds_wfs_next_nonblocking(struct cds_wfs_node *node)
{
	return rcuds_wfs_next_(node, false);
}

/**
 * \brief Iterates over a chain returned by __cds_wfs_pop_all() or
 * cds_wfs_pop_all_blocking(), top first.
 * \param head The chain (struct cds_wfs_head pointer).
 * \param node A `struct cds_wfs_node *` set to each node in turn.
 */
#define cds_wfs_for_each_blocking(head, node)			\
	for ((node) = cds_wfs_first(head);			\
	     (node) != NULL;					\
	     (node) = cds_wfs_next_blocking(node))

/**
 * \brief As cds_wfs_for_each_blocking(), but the body may free or reuse
 * \p node (the successor is read first).
 * \param head The chain (struct cds_wfs_head pointer).
 * \param node A `struct cds_wfs_node *` set to each node in turn.
 * \param n A `struct cds_wfs_node *` holding the successor.
 */
#define cds_wfs_for_each_blocking_safe(head, node, n)			\
	for ((node) = cds_wfs_first(head),				\
	     (n) = ((node) != NULL ? cds_wfs_next_blocking(node) : NULL); \
	     (node) != NULL;						\
	     (node) = (n), (n) = ((node) != NULL ? cds_wfs_next_blocking(node) : NULL))

#ifdef __cplusplus
}

/* C++ has no transparent union: overloads take either stack pointer, as
 * liburcu 0.15's C++ wrappers do. */
extern "C++" {
RCUDS_CXX_CASTS_(cds_wfs_stack_cast, cds_wfs_stack_ptr_t, __cds_wfs_stack, _s, cds_wfs_stack, s)

template<typename T> static inline bool cds_wfs_empty(T s)
{
	return cds_wfs_empty(cds_wfs_stack_cast(s));
}

template<typename T> static inline int cds_wfs_push(T s, struct cds_wfs_node *node)
{
	return cds_wfs_push(cds_wfs_stack_cast(s), node);
}

template<typename T> static inline struct cds_wfs_node *__cds_wfs_pop_blocking(T s)
{
	return __cds_wfs_pop_blocking(cds_wfs_stack_cast(s));
}

template<typename T> static inline struct cds_wfs_node *__cds_wfs_pop_with_state_blocking(
	T s, int *state)
{
	return __cds_wfs_pop_with_state_blocking(cds_wfs_stack_cast(s), state);
}

template<typename T> static inline struct cds_wfs_node *__cds_wfs_pop_nonblocking(T s)
{
	return __cds_wfs_pop_nonblocking(cds_wfs_stack_cast(s));
}

template<typename T> static inline struct cds_wfs_node *__cds_wfs_pop_with_state_nonblocking(
	T s, int *state)
{
	return __cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_cast(s), state);
}

template<typename T> static inline struct cds_wfs_head *__cds_wfs_pop_all(T s)
{
	return __cds_wfs_pop_all(cds_wfs_stack_cast(s));
}
}
#endif /* __cplusplus */

#endif /* RCUDS_WFSTACK_H */
