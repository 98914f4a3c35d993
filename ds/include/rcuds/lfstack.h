/* SPDX-License-Identifier: MIT */
/**
 * \file
 * \brief The lock-free stack (`cds_lfs_*`): lock-free push, pop and pop_all
 * that never wait for another thread's step.
 *
 * A stack is struct cds_lfs_stack (with an internal pop mutex) or struct
 * __cds_lfs_stack (without). Functions that accept either take a
 * cds_lfs_stack_ptr_t: a transparent union in C, overloads in C++.
 *
 * What this file owns and its invariants, between any two atomic steps:
 * - The stack is the chain head -> n1 -> ... -> nk -> NULL; every node's next
 *   is stored before the node becomes reachable (unlike the wait-free stack,
 *   there is no link in flight, so nothing ever waits).
 * - Push: read the head, point the node at it, compare-and-swap the head
 *   to the node; retry when another push or pop came first (lock-free: a
 *   failed CAS means another thread's succeeded).
 * - Pop: read the head and its next, compare-and-swap the head to the
 *   next. That read of next is only safe because pops exclude one another
 *   (or run under RCU, see below): a node popped, freed or pushed back
 *   between the read and the CAS would otherwise corrupt the stack (ABA).
 * - pop_all exchanges the head for NULL.
 * - Node contents written before cds_lfs_push() are visible to the thread
 *   that pops the node or iterates to it.
 *
 * Who may run together (X: the caller must exclude; -: no exclusion):
 *
 * |                   | push | __cds_lfs_pop | __cds_lfs_pop_all |
 * |-------------------|------|---------------|-------------------|
 * | push              | -    | -             | -                 |
 * | __cds_lfs_pop     | -    | X             | X                 |
 * | __cds_lfs_pop_all | -    | X             | -                 |
 *
 * Pops exclude one another with the pop mutex (cds_lfs_pop_blocking(),
 * cds_lfs_pop_all_blocking(), cds_lfs_pop_lock()), with a single popping
 * thread, or with RCU: every __cds_lfs_pop() inside a read-side critical
 * section, and a popped node freed or pushed again only after a grace
 * period (its contents may be overwritten at once).
 *
 * Relies on <rcu/atomic.h> and <rcuds/internal.h>.
 */
#ifndef RCUDS_LFSTACK_H
#define RCUDS_LFSTACK_H

/* With <pthread.h>, <stdbool.h>, <stddef.h>, <rcu/atomic.h> and the mutant
 * hook RCUDS_MUTANT_(). */
#include <rcuds/internal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shaped as wfstack.h's, kept apart: liburcu's API, read header by header. */
/** \brief The hook embedded in each stacked element (recover the element
 * with caa_container_of()). */
struct cds_lfs_node {
	/** The node below (NULL at the bottom); the stack's while the node
	 * is on it. */
	RCU_ATOMIC_(struct cds_lfs_node *) next;
};

/** \brief What __cds_lfs_pop_all() returns: the top of a popped chain, to
 * walk with cds_lfs_for_each(). */
struct cds_lfs_head {
	/** The top node. */
	struct cds_lfs_node node;
};

/** \brief A stack without a mutex: the caller excludes pops. */
struct __cds_lfs_stack {
	/** The top, or NULL. */
	RCU_ATOMIC_(struct cds_lfs_head *) head;
};

/** \brief A stack with the mutex that cds_lfs_pop_blocking(),
 * cds_lfs_pop_all_blocking() and cds_lfs_pop_lock() take. */
struct cds_lfs_stack {
	/** The top, or NULL. */
	RCU_ATOMIC_(struct cds_lfs_head *) head;
	/** Excludes pops from one another. */
	pthread_mutex_t lock;
};

/**
 * \brief Either kind of stack, for the functions that accept both (a
 * transparent union in C; in C++ the functions are overloaded and
 * cds_lfs_stack_cast() builds one).
 */
typedef union {
	/** A stack without a mutex. */
	struct __cds_lfs_stack *_s;
	/** A stack with a mutex. */
	struct cds_lfs_stack *s;
} RCUDS_TRANSPARENT_UNION_ cds_lfs_stack_ptr_t;

/* The head field, at the same place in both kinds. */
static inline struct __cds_lfs_stack *rcuds_lfs_plain_(cds_lfs_stack_ptr_t s)
{
	return s._s;
}

/**
 * \brief Prepares a node for cds_lfs_push().
 * \param node The node.
 */
static inline void cds_lfs_node_init(struct cds_lfs_node *node)
{
	/* Relaxed: the push stores the link again before publishing. */
	rcu_atomic_store(&node->next, (struct cds_lfs_node *)NULL, memory_order_relaxed);
}

/**
 * \brief Initializes an empty stack without a mutex (no destroy needed).
 * \param s The stack.
 */
static inline void __cds_lfs_init(struct __cds_lfs_stack *s)
{
	/* Relaxed: the stack is not shared yet. */
	rcu_atomic_store(&s->head, (struct cds_lfs_head *)NULL, memory_order_relaxed);
}

/**
 * \brief Initializes an empty stack and its mutex; pair with
 * cds_lfs_destroy().
 * \param s The stack.
 */
static inline void cds_lfs_init(struct cds_lfs_stack *s)
{
	/* Relaxed: the stack is not shared yet. */
	rcu_atomic_store(&s->head, (struct cds_lfs_head *)NULL, memory_order_relaxed);
	rcuds_mutex_init_(&s->lock, "cds_lfs_init");
}

/**
 * \brief Destroys the mutex of a stack made by cds_lfs_init(); the nodes
 * still on it stay the caller's.
 * \param s The stack.
 */
static inline void cds_lfs_destroy(struct cds_lfs_stack *s)
{
	rcuds_mutex_destroy_(&s->lock, "cds_lfs_destroy");
}

/**
 * \brief Whether the stack holds no node (no barrier, no exclusion).
 * \param s The stack (either kind).
 * \return true when empty.
 */
static inline bool cds_lfs_empty(cds_lfs_stack_ptr_t s)
{
	/* Relaxed: compared, never followed. */
	return rcu_atomic_load(&rcuds_lfs_plain_(s)->head, memory_order_relaxed) == NULL;
}

/**
 * \brief Pushes a node. Lock-free.
 * \param u_s The stack (either kind).
 * \param node The node.
 * \return false when the stack was empty before, true otherwise.
 *
 * Needs no exclusion with anything. A full memory barrier before the
 * push; what the caller wrote into the element is visible to the thread
 * that pops it.
 */
static inline bool cds_lfs_push(cds_lfs_stack_ptr_t u_s, struct cds_lfs_node *node)
{
	struct __cds_lfs_stack *s = rcuds_lfs_plain_(u_s);
	struct cds_lfs_head *new_head = (struct cds_lfs_head *)(void *)node;
	/* Relaxed: only the CAS below publishes, and it fails on a stale
	 * value. */
	struct cds_lfs_head *head = rcu_atomic_load(&s->head, memory_order_relaxed);

	if (RCUDS_MUTANT_(lfs_push_lost)) {
		/* Broken on purpose: a push between the load and the store
		 * is lost. */
		/* Relaxed: the mutant's stores. */
		rcu_atomic_store(&node->next, (struct cds_lfs_node *)(void *)head,
				 memory_order_relaxed);
		rcu_cpu_relax();	/* widens the window */
		rcu_atomic_store(&s->head, new_head, memory_order_relaxed);
		return head != NULL;
	}
	rcuds_full_barrier_before_rmw_();
	for (;;) {
		/* Relaxed: published by the CAS below (release). */
		rcu_atomic_store(&node->next, (struct cds_lfs_node *)(void *)head,
				 memory_order_relaxed);
		/* Seq_cst on success, the linearization point: publishes
		 * the node and its link (pairs with the acquire load of the
		 * head in __cds_lfs_pop() and the exchange in
		 * __cds_lfs_pop_all()); being an RMW it carries the release
		 * of the pushes below to them too. Relaxed on failure: we
		 * retry with the value seen. */
		if (rcu_atomic_cas(&s->head, &head, new_head,
				   memory_order_seq_cst, memory_order_relaxed))
			return head != NULL;
	}
}

/**
 * \brief Pops the top node. Lock-free.
 * \param u_s The stack (either kind).
 * \return The node, or NULL when the stack is empty.
 *
 * The caller excludes other pops and pop_all (see the table in this
 * file's description). The node's contents may be overwritten at once;
 * under RCU exclusion, free it or push it again only after a grace period.
 */
static inline struct cds_lfs_node *__cds_lfs_pop(cds_lfs_stack_ptr_t u_s)
{
	struct __cds_lfs_stack *s = rcuds_lfs_plain_(u_s);

	for (;;) {
		/* Acquire: pairs with the CAS in cds_lfs_push() (or with the
		 * CAS below in another pop); the top's contents and link are
		 * visible. */
		struct cds_lfs_head *head = rcu_atomic_load(&s->head, memory_order_acquire);
		struct cds_lfs_head *next;

		if (head == NULL)
			return NULL;
		/* Relaxed: stored before the head was published (the
		 * acquire above). */
		next = (struct cds_lfs_head *)(void *)rcu_atomic_load(&head->node.next,
								      memory_order_relaxed);
		if (RCUDS_MUTANT_(lfs_pop_twice)) {
			/* Broken on purpose: two pops may take the same
			 * node, and a push between is lost. */
			rcu_cpu_relax();	/* widens the window */
			/* Relaxed: the mutant's store. */
			rcu_atomic_store(&s->head, next, memory_order_relaxed);
			return &head->node;
		}
		/* Release on success: a pop that reads the new head from us
		 * (pops under RCU run together) sees the node below as we
		 * did; pairs with the acquire load above. Relaxed on
		 * failure: start over. */
		if (rcu_atomic_cas(&s->head, &head, next,
				   memory_order_release, memory_order_relaxed))
			return &head->node;
	}
}

/**
 * \brief Takes every node at once; wait-free.
 * \param u_s The stack (either kind).
 * \return The popped chain (walk it with cds_lfs_for_each()), or NULL when
 * the stack was empty.
 *
 * Excludes __cds_lfs_pop() as the table says; pushes and other pop_all may
 * run together.
 */
static inline struct cds_lfs_head *__cds_lfs_pop_all(cds_lfs_stack_ptr_t u_s)
{
	/* Acquire: pairs with the CAS in cds_lfs_push() (the chain's
	 * contents and links). Release: nothing to publish, but a
	 * read-modify-write of the head keeps the pushes' release sequence
	 * for the pops after us. */
	return rcu_atomic_xchg(&rcuds_lfs_plain_(u_s)->head, (struct cds_lfs_head *)NULL,
			       memory_order_acq_rel);
}

/**
 * \brief Takes the stack's pop mutex.
 * \param s The stack (with a mutex).
 */
static inline void cds_lfs_pop_lock(struct cds_lfs_stack *s)
{
	rcuds_mutex_lock_(&s->lock, "cds_lfs_pop_lock");
}

/**
 * \brief Releases the mutex taken by cds_lfs_pop_lock().
 * \param s The stack (with a mutex).
 */
static inline void cds_lfs_pop_unlock(struct cds_lfs_stack *s)
{
	rcuds_mutex_unlock_(&s->lock, "cds_lfs_pop_unlock");
}

/**
 * \brief __cds_lfs_pop() under the pop mutex: any number of threads may
 * call it together.
 * \param s The stack (with a mutex).
 * \return The node, or NULL when the stack is empty.
 */
static inline struct cds_lfs_node *cds_lfs_pop_blocking(struct cds_lfs_stack *s)
{
	struct cds_lfs_node *node;
	cds_lfs_stack_ptr_t u;

	u.s = s;
	cds_lfs_pop_lock(s);
	node = __cds_lfs_pop(u);
	cds_lfs_pop_unlock(s);
	return node;
}

/* As cds_lfs_pop_blocking(), spelled out: each of liburcu's calls reads alone. */
/**
 * \brief __cds_lfs_pop_all() under the pop mutex.
 * \param s The stack (with a mutex).
 * \return The popped chain, or NULL when the stack was empty.
 */
static inline struct cds_lfs_head *cds_lfs_pop_all_blocking(struct cds_lfs_stack *s)
{
	struct cds_lfs_head *head;
	cds_lfs_stack_ptr_t u;

	u.s = s;
	cds_lfs_pop_lock(s);
	head = __cds_lfs_pop_all(u);
	cds_lfs_pop_unlock(s);
	return head;
}

/* The walk of a popped chain (the pop_all's acquire made it visible). */
static inline struct cds_lfs_node *rcuds_lfs_first_(struct cds_lfs_head *head)
{
	return head != NULL ? &head->node : NULL;
}

static inline struct cds_lfs_node *rcuds_lfs_next_(struct cds_lfs_node *node)
{
	/* Relaxed: stored before the node was pushed, and the chain was
	 * taken with an acquire. */
	return rcu_atomic_load(&node->next, memory_order_relaxed);
}

/**
 * \brief Iterates over a chain returned by __cds_lfs_pop_all() or
 * cds_lfs_pop_all_blocking(), top first.
 * \param __head The chain (struct cds_lfs_head pointer, may be NULL).
 * \param __node A `struct cds_lfs_node *` set to each node in turn.
 */
#define cds_lfs_for_each(__head, __node)			\
	for ((__node) = rcuds_lfs_first_(__head);		\
	     (__node) != NULL;					\
	     (__node) = rcuds_lfs_next_(__node))

/**
 * \brief As cds_lfs_for_each(), but the body may free or reuse \p __node
 * (the successor is read first).
 * \param __head The chain (struct cds_lfs_head pointer, may be NULL).
 * \param __node A `struct cds_lfs_node *` set to each node in turn.
 * \param __n A `struct cds_lfs_node *` holding the successor.
 */
#define cds_lfs_for_each_safe(__head, __node, __n)			\
	for ((__node) = rcuds_lfs_first_(__head),			\
	     (__n) = ((__node) != NULL ? rcuds_lfs_next_(__node) : NULL); \
	     (__node) != NULL;						\
	     (__node) = (__n),						\
	     (__n) = ((__node) != NULL ? rcuds_lfs_next_(__node) : NULL))

#ifdef __cplusplus
}

/* C++ has no transparent union: overloads take either stack pointer. */
extern "C++" {
RCUDS_CXX_CASTS_(cds_lfs_stack_cast, cds_lfs_stack_ptr_t, __cds_lfs_stack, _s, cds_lfs_stack, s)

template<typename T> static inline bool cds_lfs_empty(T s)
{
	return cds_lfs_empty(cds_lfs_stack_cast(s));
}

template<typename T> static inline bool cds_lfs_push(T s, struct cds_lfs_node *node)
{
	return cds_lfs_push(cds_lfs_stack_cast(s), node);
}

template<typename T> static inline struct cds_lfs_node *__cds_lfs_pop(T s)
{
	return __cds_lfs_pop(cds_lfs_stack_cast(s));
}

template<typename T> static inline struct cds_lfs_head *__cds_lfs_pop_all(T s)
{
	return __cds_lfs_pop_all(cds_lfs_stack_cast(s));
}
}
#endif /* __cplusplus */

#endif /* RCUDS_LFSTACK_H */
