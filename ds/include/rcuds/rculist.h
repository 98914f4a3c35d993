/* SPDX-License-Identifier: MIT */
/**
 * \file rcuds/rculist.h
 * \brief The RCU forms of <rcuds/list.h> (liburcu's cds_list_*_rcu names):
 * readers traverse a list while one updater at a time changes it.
 *
 * Owns: the order in which an update writes a list's links, so that a
 * reader walking forward with cds_list_for_each_rcu() or
 * cds_list_for_each_entry_rcu() inside a read-side section always follows
 * a chain of initialised elements from the head back to the head.
 *
 * Invariants between any two steps of an update, for readers: every next
 * link a reader can load points at the head or at an element whose next
 * link and contents were written before it became reachable; an element
 * removed with cds_list_del_rcu() or replaced with cds_list_replace_rcu()
 * keeps its own next link, so a reader standing on it still gets back to
 * the list. Readers never use prev links: those, like everything else the
 * updaters touch, belong to the updaters, which the caller serialises (a
 * mutex). An element removed from the list may be freed or reused only
 * after a grace period (synchronize_rcu() or call_rcu() of the flavour the
 * readers use).
 *
 * Relies on: <rcu/pointer.h> (rcu_dereference: a consume load;
 * rcu_assign_pointer: a release store); the links are plain pointers, as
 * in liburcu, and every store to a next link that readers may be loading
 * is one of those __atomic accesses.
 */
#ifndef RCUDS_RCULIST_H
#define RCUDS_RCULIST_H

#include <rcu/pointer.h>
#include <rcuds/list.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * \brief Inserts \a newp at the front of \a head's list, visibly to
 * concurrent RCU readers.
 * \param newp The new element's link, its element fully initialised.
 * \param head The list head (or an element to insert after).
 * \rcustate Updater: serialised against the list's other updaters.
 * \ordering Release: readers that reach \a newp see it initialised.
 */
static inline void cds_list_add_rcu(struct cds_list_head *newp, struct cds_list_head *head)
{
	newp->next = head->next;
	newp->prev = head;
	head->next->prev = newp;
	/* Release: newp's links and its element's contents before newp is
	 * reachable; pairs with the consume of head->next in the readers'
	 * rcu_dereference(). */
	rcu_assign_pointer(head->next, newp);
}

/**
 * \brief Inserts \a newp at the back of \a head's list, visibly to
 * concurrent RCU readers.
 * \param newp The new element's link, its element fully initialised.
 * \param head The list head (or an element to insert before).
 * \rcustate Updater: serialised against the list's other updaters.
 * \ordering Release: readers that reach \a newp see it initialised.
 */
static inline void cds_list_add_tail_rcu(struct cds_list_head *newp, struct cds_list_head *head)
{
	newp->next = head;
	newp->prev = head->prev;
	/* Release: as in cds_list_add_rcu(); pairs with the consume of the
	 * last element's next link in the readers' rcu_dereference(). */
	rcu_assign_pointer(head->prev->next, newp);
	head->prev = newp;
}

/**
 * \brief Puts \a _new in \a old's place in one step for readers: each
 * finds either \a old or \a _new, never neither. \a old keeps its next
 * link, so a reader on it goes on; free it after a grace period.
 * \param old An element of the list.
 * \param _new The replacement, fully initialised; not in any list.
 * \rcustate Updater: serialised against the list's other updaters.
 * \ordering Release: readers that reach \a _new see it initialised.
 */
static inline void cds_list_replace_rcu(struct cds_list_head *old, struct cds_list_head *_new)
{
	_new->next = old->next;
	_new->prev = old->prev;
	/* Release: _new's links and contents before it replaces old; pairs
	 * with the consume of the previous element's next link in the
	 * readers' rcu_dereference(). */
	rcu_assign_pointer(_new->prev->next, _new);
	_new->next->prev = _new;
}

/**
 * \brief Unlinks \a elem for readers that start after it; readers already
 * on \a elem go on along its next link, which is left as it was. Free or
 * reuse \a elem only after a grace period.
 * \param elem An element of the list.
 * \rcustate Updater: serialised against the list's other updaters.
 * \ordering Release: see the comment in the body.
 */
static inline void cds_list_del_rcu(struct cds_list_head *elem)
{
	elem->next->prev = elem->prev;
	/* Release, not relaxed: a reader that loads this link goes straight
	 * to elem->next, whose contents were published by an earlier release
	 * to another link; C11 carries no happens-before through a relaxed
	 * store, so this one publishes elem->next again. Pairs with the
	 * consume of the previous element's next link in the readers'
	 * rcu_dereference(). */
	__atomic_store_n(&elem->prev->next, elem->next, __ATOMIC_RELEASE);
}

/**
 * \brief Loops \a pos (a struct cds_list_head *) over the links of
 * \a head front to back, safe against one concurrent updater.
 * \rcustate Inside a read-side critical section.
 * \ordering Each step is an rcu_dereference() of a next link.
 */
#define cds_list_for_each_rcu(pos, head)				\
	for (pos = rcu_dereference((head)->next); (pos) != (head);	\
	     pos = rcu_dereference((pos)->next))

/**
 * \brief Loops \a pos (a pointer to the element type) over the elements of
 * \a head front to back, safe against one concurrent updater; \a member
 * names the elements' link.
 * \rcustate Inside a read-side critical section.
 * \ordering Each step is an rcu_dereference() of a next link.
 */
#define cds_list_for_each_entry_rcu(pos, head, member)			\
	for (pos = cds_list_entry(rcu_dereference((head)->next),	\
				  __typeof__(*(pos)), member);		\
	     &(pos)->member != (head);					\
	     pos = cds_list_entry(rcu_dereference((pos)->member.next),	\
				  __typeof__(*(pos)), member))

#ifdef __cplusplus
}
#endif

#endif /* RCUDS_RCULIST_H */
