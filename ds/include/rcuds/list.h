/* SPDX-License-Identifier: MIT */
/**
 * \file rcuds/list.h
 * \brief Circular doubly linked lists with a sentinel head (liburcu's
 * cds_list_* names), for use under the caller's own lock.
 *
 * A list is a struct cds_list_head that links to itself when empty; each
 * element embeds a struct cds_list_head and is reached from it with
 * cds_list_entry(). Nothing here is atomic and nothing is RCU-safe: the
 * caller serialises every access. The forms that RCU readers may traverse
 * while one updater changes the list are in <rcuds/rculist.h>.
 *
 * The _entry iterators compute the entry that would hold the head (an
 * address that is never dereferenced) to test for the end, as the Linux
 * and liburcu macros of the same names do.
 */
#ifndef RCUDS_LIST_H
#define RCUDS_LIST_H

#include <rcu/flavour.h>	/* caa_container_of */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * \brief A list head, or the link embedded in a list element.
 *
 * In the head, next is the first element and prev the last; both point at
 * the head itself when the list is empty.
 */
struct cds_list_head {
	struct cds_list_head *next;	/**< The next element, or the head. */
	struct cds_list_head *prev;	/**< The previous element, or the head. */
};

/**
 * \brief Defines a variable \a name, an empty list head.
 * \param name The variable's name.
 */
#define CDS_LIST_HEAD(name)						\
	struct cds_list_head name = { &(name), &(name) }

/**
 * \brief Makes the list head at \a ptr empty (both links at itself).
 * \param ptr A struct cds_list_head *.
 */
#define CDS_INIT_LIST_HEAD(ptr)						\
	((ptr)->next = (ptr)->prev = (ptr))

/**
 * \brief An initialiser of an empty list head named \a name:
 * `struct cds_list_head h = CDS_LIST_HEAD_INIT(h);`
 * \param name The variable being initialised.
 */
#define CDS_LIST_HEAD_INIT(name)	{ &(name), &(name) }

/**
 * \brief Inserts \a newp right after \a head (at the front of the list).
 * \param newp The element's link; not in any list.
 * \param head The list head (or an element to insert after).
 */
static inline void cds_list_add(struct cds_list_head *newp, struct cds_list_head *head)
{
	newp->next = head->next;
	newp->prev = head;
	head->next->prev = newp;
	head->next = newp;
}

/**
 * \brief Inserts \a newp right before \a head (at the back of the list).
 * \param newp The element's link; not in any list.
 * \param head The list head (or an element to insert before).
 */
static inline void cds_list_add_tail(struct cds_list_head *newp, struct cds_list_head *head)
{
	newp->next = head;
	newp->prev = head->prev;
	head->prev->next = newp;
	head->prev = newp;
}

/**
 * \brief Links \a prev and \a next to each other, dropping whatever lay
 * between them (liburcu's helper of cds_list_del()).
 * \param prev The element that stays before the gap.
 * \param next The element that stays after it.
 */
static inline void __cds_list_del(struct cds_list_head *prev, struct cds_list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

/**
 * \brief Unlinks \a elem from its list. Its own links are left as they
 * were (stale): re-add it, or use cds_list_del_init().
 * \param elem An element of a list (not the head).
 */
static inline void cds_list_del(struct cds_list_head *elem)
{
	__cds_list_del(elem->prev, elem->next);
}

/**
 * \brief Unlinks \a elem and makes it an empty list of its own, so that
 * cds_list_empty(elem) is then true.
 * \param elem An element of a list.
 */
static inline void cds_list_del_init(struct cds_list_head *elem)
{
	cds_list_del(elem);
	CDS_INIT_LIST_HEAD(elem);
}

/**
 * \brief Moves \a elem from its list to the front of \a head's list.
 * \param elem An element of a list.
 * \param head The destination list's head.
 */
static inline void cds_list_move(struct cds_list_head *elem, struct cds_list_head *head)
{
	__cds_list_del(elem->prev, elem->next);
	cds_list_add(elem, head);
}

/**
 * \brief Puts \a _new in \a old's place; \a old's links are left stale.
 * \param old An element of a list.
 * \param _new The replacement; not in any list.
 */
static inline void cds_list_replace(struct cds_list_head *old, struct cds_list_head *_new)
{
	_new->next = old->next;
	_new->prev = old->prev;
	_new->prev->next = _new;
	_new->next->prev = _new;
}

/**
 * \brief Moves every element of the list \a add to the front of \a head,
 * keeping their order. \a add itself is left stale (not empty): call
 * CDS_INIT_LIST_HEAD(add) before using it again. Nothing happens when
 * \a add is empty.
 * \param add The head of the list whose elements move.
 * \param head The head of the destination list.
 */
static inline void cds_list_splice(struct cds_list_head *add, struct cds_list_head *head)
{
	if (add->next == add)
		return;
	add->next->prev = head;
	add->prev->next = head->next;
	head->next->prev = add->prev;
	head->next = add->next;
}

/**
 * \brief The structure of type \a type that embeds the link \a ptr as its
 * member \a member.
 * \param ptr A struct cds_list_head *.
 * \param type The element type.
 * \param member The link's member name in \a type.
 * \return A \a type *.
 */
#define cds_list_entry(ptr, type, member)	caa_container_of(ptr, type, member)

/**
 * \brief The first element of a non-empty list, as a \a type *.
 * \param ptr The list head.
 * \param type The element type.
 * \param member The link's member name in \a type.
 */
#define cds_list_first_entry(ptr, type, member)				\
	cds_list_entry((ptr)->next, type, member)

/**
 * \brief Loops \a pos (a struct cds_list_head *) over the links of the
 * list \a head, front to back. The loop body must not remove \a pos.
 */
#define cds_list_for_each(pos, head)					\
	for (pos = (head)->next; (pos) != (head); pos = (pos)->next)

/**
 * \brief Loops \a pos over the links of \a head, back to front. The loop
 * body must not remove \a pos.
 */
#define cds_list_for_each_prev(pos, head)				\
	for (pos = (head)->prev; (pos) != (head); pos = (pos)->prev)

/**
 * \brief cds_list_for_each(), but the body may remove (and free) \a pos:
 * \a p (a struct cds_list_head *) holds the next link meanwhile.
 */
#define cds_list_for_each_safe(pos, p, head)				\
	for (pos = (head)->next, p = (pos)->next; (pos) != (head);	\
	     pos = (p), p = (pos)->next)

/**
 * \brief cds_list_for_each_prev(), but the body may remove (and free)
 * \a pos: \a p holds the previous link meanwhile.
 */
#define cds_list_for_each_prev_safe(pos, p, head)			\
	for (pos = (head)->prev, p = (pos)->prev; (pos) != (head);	\
	     pos = (p), p = (pos)->prev)

/**
 * \brief Loops \a pos (a pointer to the element type) over the elements of
 * \a head, front to back; \a member names their link. The body must not
 * remove \a pos.
 */
#define cds_list_for_each_entry(pos, head, member)			\
	for (pos = cds_list_entry((head)->next, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     pos = cds_list_entry((pos)->member.next, __typeof__(*(pos)), member))

/**
 * \brief cds_list_for_each_entry(), back to front.
 */
#define cds_list_for_each_entry_reverse(pos, head, member)		\
	for (pos = cds_list_entry((head)->prev, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     pos = cds_list_entry((pos)->member.prev, __typeof__(*(pos)), member))

/**
 * \brief cds_list_for_each_entry(), but the body may remove (and free)
 * \a pos: \a p (same type as \a pos) holds the next element meanwhile.
 */
#define cds_list_for_each_entry_safe(pos, p, head, member)		\
	for (pos = cds_list_entry((head)->next, __typeof__(*(pos)), member), \
	     p = cds_list_entry((pos)->member.next, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     pos = (p), p = cds_list_entry((pos)->member.next, __typeof__(*(pos)), member))

/**
 * \brief cds_list_for_each_entry_safe() from \a pos (an element of the list
 * \a head, which the loop visits first) to the end.
 */
#define cds_list_for_each_entry_safe_from(pos, p, head, member)	\
	for (p = cds_list_entry((pos)->member.next, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     pos = (p), p = cds_list_entry((pos)->member.next, __typeof__(*(pos)), member))

/**
 * \brief Whether the list \a head has no element.
 * \param head A list head.
 * \return Nonzero when empty.
 */
static inline int cds_list_empty(struct cds_list_head *head)
{
	return head == head->next;
}

/**
 * \brief Puts \a _new in \a old's place and makes \a old an empty list of
 * its own.
 * \param old An element of a list.
 * \param _new The replacement; not in any list.
 */
static inline void cds_list_replace_init(struct cds_list_head *old, struct cds_list_head *_new)
{
	cds_list_replace(old, _new);
	CDS_INIT_LIST_HEAD(old);
}

#ifdef __cplusplus
}
#endif

#endif /* RCUDS_LIST_H */
