/* SPDX-License-Identifier: MIT */
/**
 * \file rcuds/hlist.h
 * \brief Doubly linked lists with a one-pointer head, for hash buckets
 * (liburcu's cds_hlist_* names), for use under the caller's own lock.
 *
 * A head is a single pointer (NULL when empty); the last node's next is
 * NULL. A node's prev points at the node before it, or, for the first
 * node, at the head itself, converted to struct cds_hlist_node * as in
 * liburcu: next is the first member of both structs, so the word at that
 * address is the link to rewrite either way. The updates rewrite it
 * through a struct cds_hlist_node ** (an internal helper), never as a
 * member of a node that may really be a head, which keeps them within C's
 * aliasing rules.
 *
 * Nothing here is atomic or RCU-safe: the RCU forms are in
 * <rcuds/rcuhlist.h>.
 */
#ifndef RCUDS_HLIST_H
#define RCUDS_HLIST_H

#include <stddef.h>

#include <rcu/flavour.h>	/* caa_container_of */

#ifdef __cplusplus
extern "C" {
#endif

struct cds_hlist_node;

/** \brief The head of an hlist: its first node, or NULL. */
struct cds_hlist_head {
	struct cds_hlist_node *next;	/**< The first node, or NULL. */
};

/** \brief The link embedded in an hlist element. */
struct cds_hlist_node {
	struct cds_hlist_node *next;	/**< The next node, or NULL. */
	/** The previous node, or the head converted to this type. */
	struct cds_hlist_node *prev;
};

/**
 * \brief Makes the hlist head at \a ptr empty.
 * \param ptr The head.
 */
static inline void CDS_INIT_HLIST_HEAD(struct cds_hlist_head *ptr)
{
	ptr->next = NULL;
}

/**
 * \brief Defines a variable \a name, an empty hlist head.
 * \param name The variable's name.
 */
#define CDS_HLIST_HEAD(name)		struct cds_hlist_head name = { NULL }

/**
 * \brief An initialiser of an empty hlist head (\a name is unused, as in
 * liburcu).
 */
#define CDS_HLIST_HEAD_INIT(name)	{ NULL }

/**
 * \brief The structure of type \a type that embeds the node \a ptr as its
 * member \a member (\a ptr must not be NULL).
 */
#define cds_hlist_entry(ptr, type, member)	caa_container_of(ptr, type, member)

/**
 * \brief cds_hlist_entry(), but NULL when \a ptr is NULL.
 * \param ptr A struct cds_hlist_node *, evaluated once.
 * \param type The element type.
 * \param member The node's member name in \a type.
 */
#define cds_hlist_entry_safe(ptr, type, member)				\
	__extension__ ({						\
		__typeof__(ptr) rcuds_hlist_ptr_ = (ptr);		\
		rcuds_hlist_ptr_ ? cds_hlist_entry(rcuds_hlist_ptr_, type, member) \
				 : (type *)NULL;			\
	})

/* The link that points at the node after prev: prev's next, or the
 * head's when prev is the head (internal). */
static inline struct cds_hlist_node **cds_hlist_link_(struct cds_hlist_node *prev)
{
	return (struct cds_hlist_node **)(void *)prev;
}

/**
 * \brief Inserts \a newp at the front of \a head's list.
 * \param newp The node; not in any list.
 * \param head The head.
 */
static inline void cds_hlist_add_head(struct cds_hlist_node *newp, struct cds_hlist_head *head)
{
	newp->next = head->next;
	newp->prev = (struct cds_hlist_node *)(void *)head;
	if (head->next)
		head->next->prev = newp;
	head->next = newp;
}

/**
 * \brief Unlinks \a elem from its list; its own links are left stale.
 * \param elem A node of a list.
 */
static inline void cds_hlist_del(struct cds_hlist_node *elem)
{
	if (elem->next)
		elem->next->prev = elem->prev;
	*cds_hlist_link_(elem->prev) = elem->next;
}

/**
 * \brief Loops \a pos (a struct cds_hlist_node *) over the nodes of
 * \a head. The body must not remove \a pos.
 */
#define cds_hlist_for_each(pos, head)					\
	for (pos = (head)->next; (pos) != NULL; pos = (pos)->next)

/**
 * \brief cds_hlist_for_each(), but the body may remove (and free) \a pos:
 * \a p holds the next node meanwhile.
 */
#define cds_hlist_for_each_safe(pos, p, head)				\
	for (pos = (head)->next; (pos) != NULL && (p = (pos)->next, 1);	\
	     pos = (p))

/**
 * \brief Loops \a entry (a pointer to the element type) over the elements
 * of \a head, \a pos (a struct cds_hlist_node *) over their nodes;
 * \a member names the node. liburcu's four-argument form: see
 * cds_hlist_for_each_entry_2() for the three-argument one. \a entry is
 * NULL after the loop. The body must not remove \a entry.
 */
#define cds_hlist_for_each_entry(entry, pos, head, member)		\
	for (pos = (head)->next,					\
	     entry = cds_hlist_entry_safe(pos, __typeof__(*(entry)), member); \
	     (pos) != NULL;						\
	     pos = (pos)->next,						\
	     entry = cds_hlist_entry_safe(pos, __typeof__(*(entry)), member))

/**
 * \brief cds_hlist_for_each_entry(), but the body may remove (and free)
 * \a entry: \a p (a struct cds_hlist_node *) holds the next node.
 */
#define cds_hlist_for_each_entry_safe(entry, pos, p, head, member)	\
	for (pos = (head)->next,					\
	     entry = cds_hlist_entry_safe(pos, __typeof__(*(entry)), member); \
	     (pos) != NULL && (p = (pos)->next, 1);			\
	     pos = (p),							\
	     entry = cds_hlist_entry_safe(pos, __typeof__(*(entry)), member))

/**
 * \brief Loops \a entry (a pointer to the element type) over the elements
 * of \a head (the Linux kernel's three-argument form). The body must not
 * remove \a entry.
 */
#define cds_hlist_for_each_entry_2(entry, head, member)			\
	for (entry = cds_hlist_entry_safe((head)->next, __typeof__(*(entry)), member); \
	     (entry) != NULL;						\
	     entry = cds_hlist_entry_safe((entry)->member.next,		\
					  __typeof__(*(entry)), member))

/**
 * \brief cds_hlist_for_each_entry_2(), but the body may remove (and free)
 * \a entry: \a e (same type) holds the next element meanwhile.
 */
#define cds_hlist_for_each_entry_safe_2(entry, e, head, member)	\
	for (entry = cds_hlist_entry_safe((head)->next, __typeof__(*(entry)), member); \
	     (entry) != NULL &&						\
	     (e = cds_hlist_entry_safe((entry)->member.next,		\
				       __typeof__(*(entry)), member), 1); \
	     entry = (e))

#ifdef __cplusplus
}
#endif

#endif /* RCUDS_HLIST_H */
