/* SPDX-License-Identifier: MIT */
/**
 * \file rcuds/rcuhlist.h
 * \brief The RCU forms of <rcuds/hlist.h> (liburcu's cds_hlist_*_rcu
 * names): readers traverse an hlist while one updater at a time changes
 * it.
 *
 * Owns: the order in which an update writes the links, so that a reader
 * walking with cds_hlist_for_each_rcu() or cds_hlist_for_each_entry_rcu()
 * inside a read-side section follows initialised nodes to the NULL end.
 *
 * Invariants, for readers, between any two steps of an update: every next
 * link (and the head) points at NULL or at a node whose next link and
 * element were written before it became reachable; a node removed with
 * cds_hlist_del_rcu() keeps its next link. Readers never use prev: prev
 * links, like every other access of the updaters, are serialised by the
 * caller. A removed node may be freed or reused only after a grace period.
 *
 * Relies on: <rcu/pointer.h> (rcu_dereference: consume;
 * rcu_assign_pointer: release); <rcuds/hlist.h> for the types and its
 * helper that names the link to rewrite.
 */
#ifndef RCUDS_RCUHLIST_H
#define RCUDS_RCUHLIST_H

#include <rcu/pointer.h>
#include <rcuds/hlist.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * \brief Inserts \a newp at the front of \a head's list, visibly to
 * concurrent RCU readers.
 * \param newp The node, its element fully initialised; not in any list.
 * \param head The head.
 * \rcustate Updater: serialised against the list's other updaters.
 * \ordering Release: readers that reach \a newp see it initialised.
 */
static inline void cds_hlist_add_head_rcu(struct cds_hlist_node *newp,
					  struct cds_hlist_head *head)
{
	newp->next = head->next;
	newp->prev = (struct cds_hlist_node *)(void *)head;
	if (head->next)
		head->next->prev = newp;
	/* Release: newp's links and element before newp is reachable; pairs
	 * with the consume of head->next in the readers' rcu_dereference(). */
	rcu_assign_pointer(head->next, newp);
}

/**
 * \brief Unlinks \a elem for readers that start after it; readers on
 * \a elem go on along its next link, left as it was. Free or reuse
 * \a elem only after a grace period.
 * \param elem A node of the list.
 * \rcustate Updater: serialised against the list's other updaters.
 * \ordering Release (see cds_list_del_rcu()).
 */
static inline void cds_hlist_del_rcu(struct cds_hlist_node *elem)
{
	if (elem->next)
		elem->next->prev = elem->prev;
	/* Release, not relaxed: a reader that loads this link goes straight
	 * to elem->next, published earlier through another link; republish
	 * it (C11 carries no happens-before through a relaxed store). Pairs
	 * with the consume of this link in the readers' rcu_dereference(). */
	__atomic_store_n(cds_hlist_link_(elem->prev), elem->next, __ATOMIC_RELEASE);
}

/**
 * \brief Loops \a pos (a struct cds_hlist_node *) over the nodes of
 * \a head, safe against one concurrent updater.
 * \rcustate Inside a read-side critical section.
 * \ordering Each step is an rcu_dereference() of a next link.
 */
#define cds_hlist_for_each_rcu(pos, head)				\
	for (pos = rcu_dereference((head)->next); (pos) != NULL;	\
	     pos = rcu_dereference((pos)->next))

/**
 * \brief Loops \a entry over the elements of \a head and \a pos over their
 * nodes (liburcu's four-argument form), safe against one concurrent
 * updater. \a entry is NULL after the loop.
 * \rcustate Inside a read-side critical section.
 * \ordering Each step is an rcu_dereference() of a next link.
 */
#define cds_hlist_for_each_entry_rcu(entry, pos, head, member)		\
	for (pos = rcu_dereference((head)->next),			\
	     entry = cds_hlist_entry_safe(pos, __typeof__(*(entry)), member); \
	     (pos) != NULL;						\
	     pos = rcu_dereference((pos)->next),			\
	     entry = cds_hlist_entry_safe(pos, __typeof__(*(entry)), member))

/**
 * \brief Loops \a entry over the elements of \a head (the Linux kernel's
 * three-argument form), safe against one concurrent updater.
 * \rcustate Inside a read-side critical section.
 * \ordering Each step is an rcu_dereference() of a next link.
 */
#define cds_hlist_for_each_entry_rcu_2(entry, head, member)		\
	for (entry = cds_hlist_entry_safe(rcu_dereference((head)->next), \
					  __typeof__(*(entry)), member); \
	     (entry) != NULL;						\
	     entry = cds_hlist_entry_safe(rcu_dereference((entry)->member.next), \
					  __typeof__(*(entry)), member))

#ifdef __cplusplus
}
#endif

#endif /* RCUDS_RCUHLIST_H */
