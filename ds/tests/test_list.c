/* SPDX-License-Identifier: MIT */
/*
 * test_list.c - the plain lists and hlists (<rcuds/list.h>,
 * <rcuds/hlist.h>), single-threaded: each operation and iterator against
 * the order of the elements it should leave or visit.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include <rcuds/hlist.h>
#include <rcuds/list.h>

#include "ds_test.h"

struct item {
	int key;
	struct cds_list_head link;
	struct cds_hlist_node hnode;
};

static struct item items[8];

static void items_init(void)
{
	for (int i = 0; i < 8; i++)
		items[i].key = i;
}

/* Writes the keys of head's list, front to back, into out; returns how
 * many, and checks that the prev links mirror the next links. */
static int keys_of(struct cds_list_head *head, int *out, int max)
{
	struct cds_list_head *pos;
	int n = 0;

	cds_list_for_each(pos, head) {
		ck_assert_ptr_eq(pos->next->prev, pos);
		ck_assert_ptr_eq(pos->prev->next, pos);
		ck_assert_int_lt(n, max);
		out[n++] = cds_list_entry(pos, struct item, link)->key;
	}
	ck_assert_ptr_eq(head->next->prev, head);
	return n;
}

#define ASSERT_KEYS(head, ...)						\
	do {								\
		const int want_[] = { __VA_ARGS__ };			\
		int got_[16];						\
		int n_ = keys_of((head), got_, 16);			\
		ck_assert_int_eq(n_, (int)(sizeof(want_) / sizeof(want_[0]))); \
		for (int i_ = 0; i_ < n_; i_++)				\
			ck_assert_int_eq(got_[i_], want_[i_]);		\
	} while (0)

START_TEST(list_head_starts_empty_and_add_puts_in_front)
{
	CDS_LIST_HEAD(head);
	struct cds_list_head other = CDS_LIST_HEAD_INIT(other);
	struct cds_list_head third;

	items_init();
	CDS_INIT_LIST_HEAD(&third);
	ck_assert(cds_list_empty(&head));
	ck_assert(cds_list_empty(&other));
	ck_assert(cds_list_empty(&third));
	cds_list_add(&items[1].link, &head);
	cds_list_add(&items[0].link, &head);
	ck_assert(!cds_list_empty(&head));
	ASSERT_KEYS(&head, 0, 1);
	ck_assert_int_eq(cds_list_first_entry(&head, struct item, link)->key, 0);
}
END_TEST

START_TEST(list_add_tail_appends_and_del_unlinks)
{
	CDS_LIST_HEAD(head);

	items_init();
	for (int i = 0; i < 4; i++)
		cds_list_add_tail(&items[i].link, &head);
	ASSERT_KEYS(&head, 0, 1, 2, 3);
	cds_list_del(&items[0].link);
	cds_list_del(&items[2].link);
	ASSERT_KEYS(&head, 1, 3);
	cds_list_del_init(&items[3].link);
	ck_assert(cds_list_empty(&items[3].link));
	ASSERT_KEYS(&head, 1);
	cds_list_del(&items[1].link);
	ck_assert(cds_list_empty(&head));
}
END_TEST

START_TEST(list_move_replace_and_replace_init_keep_the_order)
{
	CDS_LIST_HEAD(a);
	CDS_LIST_HEAD(b);

	items_init();
	for (int i = 0; i < 3; i++)
		cds_list_add_tail(&items[i].link, &a);
	cds_list_move(&items[2].link, &b);
	ASSERT_KEYS(&a, 0, 1);
	ASSERT_KEYS(&b, 2);
	cds_list_move(&items[0].link, &a);	/* to the front of its own list */
	ASSERT_KEYS(&a, 0, 1);
	cds_list_replace(&items[0].link, &items[5].link);
	ASSERT_KEYS(&a, 5, 1);
	cds_list_replace_init(&items[1].link, &items[6].link);
	ASSERT_KEYS(&a, 5, 6);
	ck_assert(cds_list_empty(&items[1].link));
	/* The only element. */
	cds_list_replace_init(&items[2].link, &items[7].link);
	ASSERT_KEYS(&b, 7);
	ck_assert(cds_list_empty(&items[2].link));
}
END_TEST

START_TEST(list_splice_moves_all_to_the_front_in_order)
{
	CDS_LIST_HEAD(a);
	CDS_LIST_HEAD(b);
	CDS_LIST_HEAD(empty);

	items_init();
	cds_list_add_tail(&items[0].link, &a);
	cds_list_add_tail(&items[1].link, &a);
	cds_list_add_tail(&items[5].link, &b);
	cds_list_add_tail(&items[6].link, &b);
	cds_list_splice(&empty, &a);
	ASSERT_KEYS(&a, 0, 1);
	cds_list_splice(&b, &a);
	ASSERT_KEYS(&a, 5, 6, 0, 1);
	CDS_INIT_LIST_HEAD(&b);
	cds_list_splice(&a, &b);
	ASSERT_KEYS(&b, 5, 6, 0, 1);
}
END_TEST

START_TEST(list_iterators_visit_in_order_and_safe_ones_allow_removal)
{
	CDS_LIST_HEAD(head);
	struct cds_list_head *pos, *p;
	struct item *it, *next;
	int seen[8], n;

	items_init();
	for (int i = 0; i < 5; i++)
		cds_list_add_tail(&items[i].link, &head);

	n = 0;
	cds_list_for_each_prev(pos, &head)
		seen[n++] = cds_list_entry(pos, struct item, link)->key;
	ck_assert_int_eq(n, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(seen[i], 4 - i);

	n = 0;
	cds_list_for_each_entry(it, &head, link)
		seen[n++] = it->key;
	ck_assert_int_eq(n, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(seen[i], i);

	n = 0;
	cds_list_for_each_entry_reverse(it, &head, link)
		seen[n++] = it->key;
	ck_assert_int_eq(n, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(seen[i], 4 - i);

	/* Remove the odd keys while walking forward. */
	cds_list_for_each_safe(pos, p, &head) {
		if (cds_list_entry(pos, struct item, link)->key % 2)
			cds_list_del(pos);
	}
	ASSERT_KEYS(&head, 0, 2, 4);
	/* Remove 4 walking backward. */
	cds_list_for_each_prev_safe(pos, p, &head) {
		if (cds_list_entry(pos, struct item, link)->key == 4)
			cds_list_del(pos);
	}
	ASSERT_KEYS(&head, 0, 2);
	cds_list_add_tail(&items[7].link, &head);
	/* From 2 (inclusive) to the end, removing each. */
	it = &items[2];
	n = 0;
	cds_list_for_each_entry_safe_from(it, next, &head, link) {
		seen[n++] = it->key;
		cds_list_del(&it->link);
	}
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(seen[0], 2);
	ck_assert_int_eq(seen[1], 7);
	ASSERT_KEYS(&head, 0);
	cds_list_for_each_entry_safe(it, next, &head, link)
		cds_list_del_init(&it->link);
	ck_assert(cds_list_empty(&head));
}
END_TEST

/* The keys of an hlist, front to back; checks the prev links. */
static int hkeys_of(struct cds_hlist_head *head, int *out, int max)
{
	struct cds_hlist_node *pos;
	struct cds_hlist_node *prev = (struct cds_hlist_node *)(void *)head;
	int n = 0;

	cds_hlist_for_each(pos, head) {
		ck_assert_ptr_eq(pos->prev, prev);
		ck_assert_int_lt(n, max);
		out[n++] = cds_hlist_entry(pos, struct item, hnode)->key;
		prev = pos;
	}
	return n;
}

#define ASSERT_HKEYS(head, n_want, ...)					\
	do {								\
		const int want_[] = { __VA_ARGS__ };			\
		int got_[16];						\
		int n_ = hkeys_of((head), got_, 16);			\
		ck_assert_int_eq(n_, (n_want));				\
		for (int i_ = 0; i_ < n_; i_++)				\
			ck_assert_int_eq(got_[i_], want_[i_]);		\
	} while (0)

START_TEST(hlist_add_head_and_del_first_middle_last)
{
	CDS_HLIST_HEAD(head);
	struct cds_hlist_head other = CDS_HLIST_HEAD_INIT(other);
	struct cds_hlist_head third;

	items_init();
	CDS_INIT_HLIST_HEAD(&third);
	ck_assert_ptr_null(head.next);
	ck_assert_ptr_null(other.next);
	ck_assert_ptr_null(third.next);
	for (int i = 4; i >= 0; i--)
		cds_hlist_add_head(&items[i].hnode, &head);
	ASSERT_HKEYS(&head, 5, 0, 1, 2, 3, 4);
	cds_hlist_del(&items[0].hnode);		/* first: rewrites the head */
	ASSERT_HKEYS(&head, 4, 1, 2, 3, 4);
	cds_hlist_del(&items[2].hnode);		/* middle */
	ASSERT_HKEYS(&head, 3, 1, 3, 4);
	cds_hlist_del(&items[4].hnode);		/* last */
	ASSERT_HKEYS(&head, 2, 1, 3);
	cds_hlist_del(&items[1].hnode);
	cds_hlist_del(&items[3].hnode);
	ck_assert_ptr_null(head.next);
	ASSERT_HKEYS(&head, 0, 0);
}
END_TEST

START_TEST(hlist_iterators_visit_in_order_and_safe_ones_allow_removal)
{
	CDS_HLIST_HEAD(head);
	struct cds_hlist_node *pos, *p;
	struct item *it, *e;
	int seen[8], n;

	items_init();
	for (int i = 4; i >= 0; i--)
		cds_hlist_add_head(&items[i].hnode, &head);

	n = 0;
	cds_hlist_for_each_entry(it, pos, &head, hnode)
		seen[n++] = it->key;
	ck_assert_int_eq(n, 5);
	ck_assert_ptr_null(it);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(seen[i], i);

	n = 0;
	cds_hlist_for_each_entry_2(it, &head, hnode)
		seen[n++] = it->key;
	ck_assert_int_eq(n, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(seen[i], i);

	cds_hlist_for_each_safe(pos, p, &head) {
		if (cds_hlist_entry(pos, struct item, hnode)->key == 0)
			cds_hlist_del(pos);
	}
	ASSERT_HKEYS(&head, 4, 1, 2, 3, 4);
	cds_hlist_for_each_entry_safe(it, pos, p, &head, hnode) {
		if (it->key == 2)
			cds_hlist_del(&it->hnode);
	}
	ASSERT_HKEYS(&head, 3, 1, 3, 4);
	n = 0;
	cds_hlist_for_each_entry_safe_2(it, e, &head, hnode) {
		seen[n++] = it->key;
		cds_hlist_del(&it->hnode);
	}
	ck_assert_int_eq(n, 3);
	ck_assert_ptr_null(head.next);
	ck_assert_ptr_null(cds_hlist_entry_safe(head.next, struct item, hnode));
}
END_TEST

DS_MAIN("rcuds-list",
	DS_CASE(list_head_starts_empty_and_add_puts_in_front, 10),
	DS_CASE(list_add_tail_appends_and_del_unlinks, 10),
	DS_CASE(list_move_replace_and_replace_init_keep_the_order, 10),
	DS_CASE(list_splice_moves_all_to_the_front_in_order, 10),
	DS_CASE(list_iterators_visit_in_order_and_safe_ones_allow_removal, 10),
	DS_CASE(hlist_add_head_and_del_first_middle_last, 10),
	DS_CASE(hlist_iterators_visit_in_order_and_safe_ones_allow_removal, 10))
