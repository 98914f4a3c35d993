/* SPDX-License-Identifier: MIT */
/*
 * test_rculist.c - the RCU lists and hlists (<rcuds/rculist.h>,
 * <rcuds/rcuhlist.h>) under one flavour (-DTEST_FLAVOUR_*): first what
 * each update leaves behind, single-threaded; then readers that walk the
 * list with every iterator while one writer replaces elements, adds
 * elements at both ends and deletes them, freeing each a grace period
 * later. The readers must find every fixed element exactly once and in
 * order, and never an element that was freed (poisoned first).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "ds_test.h"

#include <rcuds/rcuhlist.h>
#include <rcuds/rculist.h>

#define NSLOTS		16
#define MAX_TEMPS	8
#define NREADERS	3
#define MAGIC_LIVE	0x11ce11ceUL
#define MAGIC_DEAD	0xdeadbeefUL

struct elem {
	unsigned long magic;
	int key;		/* < NSLOTS: a fixed slot; else a temporary */
	struct cds_list_head link;
	struct cds_hlist_node hnode;
};

static struct elem *elem_new(int key)
{
	struct elem *e = calloc(1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	e->magic = MAGIC_LIVE;
	e->key = key;
	return e;
}

/* Called a grace period after e was unlinked: no reader may see this. */
static void elem_free(struct elem *e)
{
	/* Relaxed: a reader that reads it is already a failure (and an ASan
	 * report); atomic so that the report is the reader's check. */
	__atomic_store_n(&e->magic, MAGIC_DEAD, __ATOMIC_RELAXED);
	free(e);
}

/* ---- Single-threaded: what each update leaves. */

START_TEST(rculist_updates_leave_consistent_links)
{
	CDS_LIST_HEAD(head);
	struct elem *a = elem_new(0), *b = elem_new(1), *c = elem_new(2), *d = elem_new(3);
	struct cds_list_head *pos;
	int keys[4], n = 0;

	cds_list_add_rcu(&b->link, &head);
	cds_list_add_rcu(&a->link, &head);
	cds_list_add_tail_rcu(&c->link, &head);
	cds_list_for_each_rcu(pos, &head) {
		ck_assert_ptr_eq(pos->next->prev, pos);
		keys[n++] = cds_list_entry(pos, struct elem, link)->key;
	}
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(keys[0], 0);
	ck_assert_int_eq(keys[1], 1);
	ck_assert_int_eq(keys[2], 2);

	cds_list_replace_rcu(&b->link, &d->link);
	/* A reader standing on b still gets back to the list. */
	ck_assert_ptr_eq(b->link.next, &c->link);
	cds_list_del_rcu(&a->link);
	ck_assert_ptr_eq(a->link.next, &d->link);
	n = 0;
	struct elem *e;
	cds_list_for_each_entry_rcu(e, &head, link) {
		ck_assert_ptr_eq(e->link.prev->next, &e->link);
		keys[n++] = e->key;
	}
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(keys[0], 3);
	ck_assert_int_eq(keys[1], 2);
	ck_assert_ptr_eq(head.prev, &c->link);
	free(a);
	free(b);
	free(c);
	free(d);
}
END_TEST

START_TEST(rcuhlist_updates_leave_consistent_links)
{
	CDS_HLIST_HEAD(head);
	struct elem *a = elem_new(0), *b = elem_new(1), *c = elem_new(2);
	struct cds_hlist_node *pos;
	struct elem *e;
	int keys[3], n = 0;

	cds_hlist_add_head_rcu(&c->hnode, &head);
	cds_hlist_add_head_rcu(&b->hnode, &head);
	cds_hlist_add_head_rcu(&a->hnode, &head);
	ck_assert_ptr_eq(a->hnode.prev, (struct cds_hlist_node *)(void *)&head);
	cds_hlist_for_each_rcu(pos, &head)
		keys[n++] = cds_hlist_entry(pos, struct elem, hnode)->key;
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(keys[0], 0);
	ck_assert_int_eq(keys[2], 2);

	cds_hlist_del_rcu(&b->hnode);		/* middle */
	ck_assert_ptr_eq(b->hnode.next, &c->hnode);
	cds_hlist_del_rcu(&a->hnode);		/* first: the head's link */
	ck_assert_ptr_eq(head.next, &c->hnode);
	ck_assert_ptr_eq(c->hnode.prev, (struct cds_hlist_node *)(void *)&head);
	n = 0;
	cds_hlist_for_each_entry_rcu(e, pos, &head, hnode)
		keys[n++] = e->key;
	ck_assert_int_eq(n, 1);
	ck_assert_ptr_null(e);
	n = 0;
	cds_hlist_for_each_entry_rcu_2(e, &head, hnode)
		keys[n++] = e->key;
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(keys[0], 2);
	cds_hlist_del_rcu(&c->hnode);		/* the only one */
	ck_assert_ptr_null(head.next);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* ---- Concurrent: one writer, NREADERS readers. */

enum kind { KIND_LIST, KIND_HLIST };

struct shared {
	enum kind kind;
	struct cds_list_head list;
	struct cds_hlist_head hlist;
	int stop;			/* atomic */
	unsigned long passes[NREADERS];	/* atomic: each reader's walks */
	unsigned long temps_seen;	/* atomic */
	int reader_started;		/* atomic */
};

struct reader_arg {
	struct shared *sh;
	int id;
};

/* Checks one element met by a walk; updates the next fixed slot expected. */
static void reader_visit(struct elem *e, int *next_slot, unsigned long *temps)
{
	DS_CHECK(__atomic_load_n(&e->magic, __ATOMIC_RELAXED) == MAGIC_LIVE);
	if (e->key < NSLOTS) {
		DS_CHECK(e->key == *next_slot);
		*next_slot = e->key + 1;
	} else {
		(*temps)++;
	}
}

/* One walk with iterator number `way`; returns the temporaries met. */
static unsigned long reader_walk(struct shared *sh, unsigned long way)
{
	int next_slot = 0;
	unsigned long temps = 0;

	rcu_read_lock();
	if (sh->kind == KIND_LIST) {
		if (way % 2) {
			struct cds_list_head *pos;

			cds_list_for_each_rcu(pos, &sh->list)
				reader_visit(cds_list_entry(pos, struct elem, link), &next_slot, &temps);
		} else {
			struct elem *e;

			cds_list_for_each_entry_rcu(e, &sh->list, link)
				reader_visit(e, &next_slot, &temps);
		}
	} else {
		struct cds_hlist_node *pos;
		struct elem *e;

		switch (way % 3) {
		case 0:
			cds_hlist_for_each_rcu(pos, &sh->hlist)
				reader_visit(cds_hlist_entry(pos, struct elem, hnode), &next_slot, &temps);
			break;
		case 1:
			cds_hlist_for_each_entry_rcu(e, pos, &sh->hlist, hnode)
				reader_visit(e, &next_slot, &temps);
			break;
		default:
			cds_hlist_for_each_entry_rcu_2(e, &sh->hlist, hnode)
				reader_visit(e, &next_slot, &temps);
			break;
		}
	}
	rcu_read_unlock();
	DS_CHECK(next_slot == NSLOTS);
	return temps;
}

static void *reader_main(void *p)
{
	struct reader_arg *arg = p;
	struct shared *sh = arg->sh;
	unsigned long temps = 0;

	rcu_register_thread();
	__atomic_add_fetch(&sh->reader_started, 1, __ATOMIC_RELAXED);
	/* Acquire: pairs with the writer's release of stop, after its last
	 * update (nothing is read through it; it only ends the loop). */
	for (unsigned long way = 0; !__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE); way++) {
		temps += reader_walk(sh, way);
		__atomic_store_n(&sh->passes[arg->id], way + 1, __ATOMIC_RELAXED);
		reader_quiescent();
	}
	__atomic_add_fetch(&sh->temps_seen, temps, __ATOMIC_RELAXED);
	rcu_unregister_thread();
	return NULL;
}

/* The writer's counts. */
struct writes {
	unsigned long replaces, adds, dels, frees;
};

#define RETIRE_BATCH 16

struct retired {
	struct elem *e[RETIRE_BATCH];
	int n;
};

/* Frees the retired elements after one grace period. */
static void retire_flush(struct retired *r, struct writes *w)
{
	if (!r->n)
		return;
	synchronize_rcu();
	for (int i = 0; i < r->n; i++)
		elem_free(r->e[i]);
	w->frees += (unsigned long)r->n;
	r->n = 0;
}

static void retire(struct retired *r, struct elem *e, struct writes *w)
{
	r->e[r->n++] = e;
	if (r->n == RETIRE_BATCH)
		retire_flush(r, w);
}

static void run_concurrent(enum kind kind)
{
	static struct shared sh;
	struct elem *slot[NSLOTS];
	struct elem *temp[MAX_TEMPS];
	int ntemps = 0;
	struct retired ret = { .n = 0 };
	struct writes w = { 0, 0, 0, 0 };
	pthread_t readers[NREADERS];
	struct reader_arg args[NREADERS];
	unsigned int seed = 12345;
	int next_temp_key = NSLOTS;

	sh.kind = kind;
	sh.stop = 0;
	sh.temps_seen = 0;
	sh.reader_started = 0;
	CDS_INIT_LIST_HEAD(&sh.list);
	CDS_INIT_HLIST_HEAD(&sh.hlist);
	for (int i = 0; i < NREADERS; i++)
		sh.passes[i] = 0;
	for (int i = NSLOTS - 1; i >= 0; i--) {
		slot[i] = elem_new(i);
		if (kind == KIND_LIST)
			cds_list_add_rcu(&slot[i]->link, &sh.list);
		else
			cds_hlist_add_head_rcu(&slot[i]->hnode, &sh.hlist);
	}
	for (int i = 0; i < NREADERS; i++) {
		args[i].sh = &sh;
		args[i].id = i;
		ck_assert_int_eq(pthread_create(&readers[i], NULL, reader_main, &args[i]), 0);
	}

	double end = ds_now() + ds_stress_seconds();
	/* Run at least until every reader has walked a few times (bounded by
	 * the deadline times 20), so that the test never passes idle. */
	double hard_end = ds_now() + 20 * ds_stress_seconds() + 5;
	for (;;) {
		double now = ds_now();
		bool readers_done = true;

		for (int i = 0; i < NREADERS; i++)
			readers_done &= __atomic_load_n(&sh.passes[i], __ATOMIC_RELAXED) >= 10;
		if ((now >= end && readers_done) || now >= hard_end)
			break;
		unsigned int r = (unsigned int)rand_r(&seed);
		unsigned int op = r % 3;

		if (op == 0 && kind == KIND_LIST) {
			int i = (int)((r >> 4) % NSLOTS);
			struct elem *e = elem_new(i);

			cds_list_replace_rcu(&slot[i]->link, &e->link);
			retire(&ret, slot[i], &w);
			slot[i] = e;
			w.replaces++;
		} else if (op != 2 && ntemps < MAX_TEMPS) {
			struct elem *e = elem_new(next_temp_key++);

			if (kind == KIND_HLIST)
				cds_hlist_add_head_rcu(&e->hnode, &sh.hlist);
			else if ((r >> 8) % 2)
				cds_list_add_rcu(&e->link, &sh.list);
			else
				cds_list_add_tail_rcu(&e->link, &sh.list);
			temp[ntemps++] = e;
			w.adds++;
		} else if (ntemps > 0) {
			int t = (int)((r >> 4) % (unsigned int)ntemps);
			struct elem *e = temp[t];

			if (kind == KIND_LIST)
				cds_list_del_rcu(&e->link);
			else
				cds_hlist_del_rcu(&e->hnode);
			temp[t] = temp[--ntemps];
			retire(&ret, e, &w);
			w.dels++;
		}
	}
	/* Release: ends the readers' loops; pairs with their acquire. */
	__atomic_store_n(&sh.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < NREADERS; i++)
		ck_assert_int_eq(pthread_join(readers[i], NULL), 0);
	retire_flush(&ret, &w);

	ck_assert_int_eq(ds_failures(), 0);
	for (int i = 0; i < NREADERS; i++)
		ck_assert_uint_ge(sh.passes[i], 1);
	if (kind == KIND_LIST)
		ck_assert_uint_gt(w.replaces, 0);
	ck_assert_uint_gt(w.adds, 0);
	ck_assert_uint_gt(w.dels, 0);
	ck_assert_uint_gt(w.frees, 0);
	fprintf(stderr, "[%s] %s: %lu replaces, %lu adds, %lu dels, %lu frees; "
		"walks %lu %lu %lu, temporaries seen %lu\n",
		TEST_FLAVOUR_NAME, kind == KIND_LIST ? "list" : "hlist",
		w.replaces, w.adds, w.dels, w.frees,
		sh.passes[0], sh.passes[1], sh.passes[2], sh.temps_seen);

	/* Quiescent now: one last walk, then free everything. */
	rcu_register_thread();
	ck_assert_uint_eq(reader_walk(&sh, 0), (unsigned long)ntemps);
	reader_quiescent();
	rcu_unregister_thread();
	ck_assert_int_eq(ds_failures(), 0);
	for (int i = 0; i < NSLOTS; i++)
		free(slot[i]);
	for (int i = 0; i < ntemps; i++)
		free(temp[i]);
}

START_TEST(rculist_readers_see_every_fixed_element_once_while_writer_replaces_adds_dels)
{
	run_concurrent(KIND_LIST);
}
END_TEST

START_TEST(rcuhlist_readers_see_every_fixed_element_once_while_writer_adds_dels)
{
	run_concurrent(KIND_HLIST);
}
END_TEST

DS_MAIN("rcuds-rculist-" TEST_FLAVOUR_NAME,
	DS_CASE(rculist_updates_leave_consistent_links, 10),
	DS_CASE(rcuhlist_updates_leave_consistent_links, 10),
	DS_CASE(rculist_readers_see_every_fixed_element_once_while_writer_replaces_adds_dels, 60),
	DS_CASE(rcuhlist_readers_see_every_fixed_element_once_while_writer_adds_dels, 60))
