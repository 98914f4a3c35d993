/* SPDX-License-Identifier: MIT */
/*
 * hash_test.h - the body of hash_memb.c, hash_qsbr.c, hash_bp.c and
 * hash_mb.c: a hash-table program written in liburcu's idiom (liburcu's
 * headers and names only), so that it builds unchanged against liburcu and
 * against lfht's compatibility layer. The including file has included its
 * flavour header and defined TEST_FLAVOR (a string) and TEST_FL(name) (the
 * flavour's prefixed name, urcu_memb_<name>, urcu_qsbr_<name>,
 * urcu_bp_<name> or urcu_mb_<name>), and TEST_INIT where the flavour has an
 * init function. bp defines
 * TEST_BP: its readers never register (their first read lock does), and
 * fork() goes through liburcu-bp's fork hooks. TEST_HAVE_NODE_INIT_DELETED
 * (from meson: liburcu 0.13 lacks cds_lfht_node_init_deleted, and neither
 * 0.13 nor 0.14 has a version macro to test) selects the 0.14 name.
 *
 * Two writers own disjoint keys and add, add_unique, add_replace, replace,
 * add duplicates and delete, checking every return value against what they
 * know their keys hold; two readers look keys up and walk the table
 * (checking each entry's invariant); a reader on the prefixed names and the
 * flavour object does the same; the main thread resizes the table
 * meanwhile. Removed entries are freed by call_rcu (writers go through a
 * call_rcu_data of their own). At the end the table must hold exactly what
 * the writers think, and every retired entry must have been freed. Also:
 * tables made by cds_lfht_new_flavor and by _cds_lfht_new with each memory
 * backend, uatomic operations with exact results, barriers and shared
 * accesses (message passing), TLS counters, RCU pointers, fork.
 *
 * URCU_STYLE_SECONDS (default 0.5) sets how long the threads run (at least
 * MIN_OPS operations each, within HARD_LIMIT_S). Exits 0 on success,
 * 1 with a message on the first failed check.
 */
#ifndef HASH_TEST_H
#define HASH_TEST_H

#include <urcu/rculfhash.h>
#include <urcu-call-rcu.h>
#include <urcu/call-rcu.h>
#include <urcu-flavor.h>
#include <urcu/flavor.h>
#include <urcu-pointer.h>
#include <urcu/pointer.h>
#include <urcu/compiler.h>
#include "test_check.h"
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>
#include <urcu/tls-compat.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef TEST_BP
/* bp: the readers' first rcu_read_lock() registers them. */
static void reader_register(void) { }
static void reader_unregister(void) { }
static void bp_before_fork(void) { TEST_FL(before_fork)(); }
static void bp_after_fork_parent(void) { TEST_FL(after_fork_parent)(); }
static void bp_after_fork_child(void) { TEST_FL(after_fork_child)(); }
#else
static void reader_register(void) { rcu_register_thread(); }
static void reader_unregister(void) { rcu_unregister_thread(); }
static void bp_before_fork(void) { }
static void bp_after_fork_parent(void) { }
static void bp_after_fork_child(void) { }
#endif

#define NR_WRITERS	2
#define NR_READERS	2
#define NR_KEYS		512UL			/* keys 0..NR_KEYS-1: owned by key % NR_WRITERS */
#define DUP_KEY_BASE	(NR_KEYS + 1000)	/* writer w's duplicate key: DUP_KEY_BASE + w */
#define VALUE_MAGIC	0x5a5a1234UL
#define CONFIG_MAGIC	0xc0ffeeUL
#define MIN_OPS		2000UL
#define HARD_LIMIT_S	20.0


/* node first: the for_each_entry macros apply caa_container_of to the
 * NULL that ends a walk, which is only harmless at offset 0. */
struct entry {
	struct cds_lfht_node node;
	unsigned long key;
	unsigned long value;		/* key ^ VALUE_MAGIC, always */
	struct rcu_head rcu;
};

struct config {
	unsigned long magic;
	unsigned long generation;
	struct rcu_head rcu;
};

/* Per-thread progress, one cache line each. */
struct progress {
	unsigned long ops;
} __attribute__((aligned(CAA_CACHE_LINE_SIZE)));

static struct cds_lfht *table;
static struct config *current_config;
static struct call_rcu_data *writer_crdp;
static int stop;				/* CMM_LOAD_SHARED / CMM_STORE_SHARED */
static unsigned long nr_retired, nr_freed;	/* uatomic */
static unsigned long nr_reads, nr_walks, nr_updates; /* uatomic */
static unsigned long threads_seen;		/* uatomic_or, one bit a thread */
static unsigned long tls_ops_total;		/* uatomic_add */
static struct progress progress[NR_WRITERS + NR_READERS + 1];
/* What the writers' keys hold: each slot written by its owner only. */
static struct entry *present[NR_KEYS];

extern DECLARE_URCU_TLS(unsigned long, thread_ops);
DEFINE_URCU_TLS(unsigned long, thread_ops);

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned long hash_key(unsigned long key)
{
	unsigned long long h = key * 0x9e3779b97f4a7c15ULL;

	return (unsigned long)(h ^ (h >> 29));
}

static unsigned long next_rand(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct entry, node)->key == *(const unsigned long *)key;
}

static struct entry *entry_new(unsigned long key)
{
	struct entry *e = (struct entry *)calloc(1, sizeof(*e));

	CHECK(e != NULL);
	e->key = key;
	e->value = key ^ VALUE_MAGIC;
#ifdef TEST_HAVE_NODE_INIT_DELETED
	/* liburcu 0.14: reads as deleted until added. */
	cds_lfht_node_init_deleted(&e->node);
	CHECK(cds_lfht_is_node_deleted(&e->node));
#else
	cds_lfht_node_init(&e->node);
#endif
	return e;
}

static void entry_free_rcu(struct rcu_head *head)
{
	free(caa_container_of(head, struct entry, rcu));
	uatomic_inc(&nr_freed);
}

static void entry_retire(struct entry *e)
{
	uatomic_inc(&nr_retired);
	call_rcu(&e->rcu, entry_free_rcu);
}

static void config_free_rcu(struct rcu_head *head)
{
	free(caa_container_of(head, struct config, rcu));
}

static struct config *config_new(unsigned long generation)
{
	struct config *c = (struct config *)calloc(1, sizeof(*c));

	CHECK(c != NULL);
	c->magic = CONFIG_MAGIC;
	c->generation = generation;
	return c;
}

/* Inside a read-side section: the entry at node is whole. */
static void check_entry(struct cds_lfht_node *node, unsigned long key)
{
	struct entry *e = caa_container_of(node, struct entry, node);

	CHECK(e->key == key);
	CHECK(e->value == (key ^ VALUE_MAGIC));
}

static void count_op(unsigned idx)
{
	URCU_TLS(thread_ops)++;
	/* Relaxed: progress for the main thread's stop rule only. */
	CMM_STORE_SHARED(progress[idx].ops, progress[idx].ops + 1);
}

static void thread_done(unsigned idx)
{
	CHECK(URCU_TLS(thread_ops) == progress[idx].ops);
	uatomic_add(&tls_ops_total, URCU_TLS(thread_ops));
	uatomic_or(&threads_seen, 1UL << idx);
}

/* ---- writers ------------------------------------------------------------ */

static void writer_add_unique(unsigned long key)
{
	struct entry *e = entry_new(key);
	struct cds_lfht_node *ret;

	rcu_read_lock();
	ret = cds_lfht_add_unique(table, hash_key(key), match_key, &key, &e->node);
	rcu_read_unlock();
	if (present[key] == NULL) {
		CHECK(ret == &e->node);
		present[key] = e;
	} else {
		CHECK(ret == &present[key]->node);
		free(e);	/* never published */
	}
}

static void writer_del(unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	rcu_read_lock();
	cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (present[key] == NULL) {
		CHECK(node == NULL);
	} else {
		CHECK(node == &present[key]->node);
		CHECK(cds_lfht_del(table, node) == 0);
		CHECK(cds_lfht_is_node_deleted(node));
		CHECK(cds_lfht_del(table, node) == -ENOENT);
	}
	rcu_read_unlock();
	if (present[key] != NULL) {
		entry_retire(present[key]);
		present[key] = NULL;
	}
}

static void writer_add_replace(unsigned long key)
{
	struct entry *e = entry_new(key);
	struct cds_lfht_node *old;

	rcu_read_lock();
	old = cds_lfht_add_replace(table, hash_key(key), match_key, &key, &e->node);
	rcu_read_unlock();
	CHECK(old == (present[key] ? &present[key]->node : NULL));
	if (present[key] != NULL)
		entry_retire(present[key]);
	present[key] = e;
}

static void writer_replace(unsigned long key)
{
	struct entry *e = entry_new(key);
	struct cds_lfht_iter iter;
	int ret;

	rcu_read_lock();
	cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
	ret = cds_lfht_replace(table, &iter, hash_key(key), match_key, &key, &e->node);
	rcu_read_unlock();
	if (present[key] == NULL) {
		CHECK(ret == -ENOENT);
		free(e);	/* never published */
	} else {
		CHECK(ret == 0);
		entry_retire(present[key]);
		present[key] = e;
	}
}

/* Two entries with one key (cds_lfht_add), counted both ways, removed. */
static void writer_duplicates(unsigned long key)
{
	struct entry *a = entry_new(key), *b = entry_new(key), *pos;
	struct cds_lfht_node *node, *found[4];
	struct cds_lfht_iter iter;
	unsigned n = 0, n_entries = 0;

	rcu_read_lock();
	cds_lfht_add(table, hash_key(key), &a->node);
	cds_lfht_add(table, hash_key(key), &b->node);
	cds_lfht_for_each_duplicate(table, hash_key(key), match_key, &key, &iter, node) {
		CHECK(n < CAA_ARRAY_SIZE(found));
		check_entry(node, key);
		found[n++] = node;
	}
	cds_lfht_for_each_entry_duplicate(table, hash_key(key), match_key, &key, &iter, pos, node)
		n_entries += pos->key == key;
	CHECK(n == 2 && n_entries == 2);
	while (n > 0)
		CHECK(cds_lfht_del(table, found[--n]) == 0);
	rcu_read_unlock();
	entry_retire(a);
	entry_retire(b);
}

/* Writer 0 swaps the configuration, writer 1 compares-and-swaps it. */
static void writer_config(unsigned w, unsigned long generation)
{
	struct config *c = config_new(generation), *old;

	if (w == 0) {
		old = rcu_xchg_pointer(&current_config, c);
		CHECK(old != NULL && old->magic == CONFIG_MAGIC);
		call_rcu(&old->rcu, config_free_rcu);
		return;
	}
	/* The read-side section keeps cur from being freed (and reused)
	 * between the read and the compare-and-swap. */
	rcu_read_lock();
	old = rcu_dereference(current_config);
	if (rcu_cmpxchg_pointer(&current_config, old, c) != old)
		old = NULL;
	rcu_read_unlock();
	if (old != NULL)
		call_rcu(&old->rcu, config_free_rcu);
	else
		free(c);	/* never published */
}

static void *writer(void *arg)
{
	unsigned w = (unsigned)(unsigned long)arg;
	unsigned long rnd = 88172645463325252UL + w, ops = 0;

	rcu_register_thread();
	set_thread_call_rcu_data(writer_crdp);
	CHECK(get_call_rcu_data() != NULL);
	while (!CMM_LOAD_SHARED(stop)) {
		unsigned long r = next_rand(&rnd);
		unsigned long key = (r >> 8) % (NR_KEYS / NR_WRITERS) * NR_WRITERS + w;

		switch (r % 8) {
		case 0: case 1: writer_add_unique(key); break;
		case 2: case 3: writer_del(key); break;
		case 4: writer_add_replace(key); break;
		case 5: writer_replace(key); break;
		case 6: writer_duplicates(DUP_KEY_BASE + w); break;
		default:
			if (++ops % 16 == 0)
				writer_config(w, ops);
			break;
		}
		count_op(w);
		(void)uatomic_add_return(&nr_updates, 1);
		rcu_quiescent_state();
	}
	thread_done(w);
	set_thread_call_rcu_data(NULL);
	rcu_unregister_thread();
	return NULL;
}

/* ---- readers ------------------------------------------------------------ */

static unsigned long walk_table(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct entry *e;
	unsigned long n = 0, n_entries = 0;

	cds_lfht_for_each(table, &iter, node) {
		struct entry *ne = caa_container_of(node, struct entry, node);

		check_entry(node, ne->key);
		n++;
	}
	cds_lfht_for_each_entry(table, &iter, e, node) {
		CHECK(e->value == (e->key ^ VALUE_MAGIC));
		n_entries++;
	}
	return n + n_entries;
}

static void *reader(void *arg)
{
	unsigned idx = (unsigned)(unsigned long)arg;
	unsigned long rnd = 0x2545f4914f6cdd1dUL + idx;

	reader_register();
	while (!CMM_LOAD_SHARED(stop)) {
		unsigned long key = next_rand(&rnd) % NR_KEYS;
		struct cds_lfht_iter iter;
		struct cds_lfht_node *node;
		struct config *c;

		rcu_read_lock();
		CHECK(rcu_read_ongoing());
		cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node != NULL)
			check_entry(node, key);
		c = rcu_dereference(current_config);
		CHECK(c->magic == CONFIG_MAGIC);
		if (key % 64 == 0) {
			(void)walk_table();
			uatomic_inc(&nr_walks);
		}
		rcu_read_unlock();
		uatomic_inc(&nr_reads);
		count_op(idx);
		rcu_quiescent_state();
		if (key % 32 == 1) {
			rcu_thread_offline();
			CHECK(!rcu_read_ongoing());
			caa_cpu_relax();
			rcu_thread_online();
		}
	}
	thread_done(idx);
	reader_unregister();
	return NULL;
}

/* A reader on the prefixed names and on the flavour object. */
static void *flavor_reader(void *arg)
{
	unsigned idx = (unsigned)(unsigned long)arg;
	const struct rcu_flavor_struct *fl = &rcu_flavor;
	unsigned long key = 0;

	CHECK(fl == &TEST_FL(flavor));
	TEST_FL(register_thread)();
	while (!CMM_LOAD_SHARED(stop)) {
		struct cds_lfht_iter iter;

		key = (key + 7) % NR_KEYS;
		TEST_FL(read_lock)();
		CHECK(TEST_FL(read_ongoing)());
		cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
		if (cds_lfht_iter_get_node(&iter) != NULL)
			check_entry(cds_lfht_iter_get_node(&iter), key);
		TEST_FL(read_unlock)();
		TEST_FL(quiescent_state)();
		fl->read_lock();
		CHECK(fl->read_ongoing());
		cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
		if (cds_lfht_iter_get_node(&iter) != NULL)
			check_entry(cds_lfht_iter_get_node(&iter), key);
		fl->read_unlock();
		fl->read_quiescent_state();
		if (key % 16 == 3) {
			TEST_FL(thread_offline)();
			fl->thread_online();
			fl->thread_offline();
			TEST_FL(thread_online)();
		}
		uatomic_inc(&nr_reads);
		count_op(idx);
	}
	thread_done(idx);
	TEST_FL(unregister_thread)();
	return NULL;
}

/* ---- single-threaded checks --------------------------------------------- */

static void check_uatomic(void)
{
	static unsigned long u;
	static int i;
	static long l;

	uatomic_set(&u, 5);
	CHECK(uatomic_read(&u) == 5);
	CHECK(uatomic_cmpxchg(&u, 5, 7) == 5);
	CHECK(uatomic_cmpxchg(&u, 5, 9) == 7);
	CHECK(uatomic_xchg(&u, 10) == 7);
	CHECK(uatomic_add_return(&u, 5) == 15);
	CHECK(uatomic_sub_return(&u, 3) == 12);
	cmm_smp_mb__before_uatomic_add();
	uatomic_add(&u, 8);
	cmm_smp_mb__after_uatomic_add();
	CHECK(uatomic_read(&u) == 20);
	cmm_smp_mb__before_uatomic_sub();
	uatomic_sub(&u, 4);
	cmm_smp_mb__after_uatomic_sub();
	CHECK(uatomic_read(&u) == 16);
	cmm_smp_mb__before_uatomic_inc();
	uatomic_inc(&u);
	cmm_smp_mb__after_uatomic_inc();
	CHECK(uatomic_read(&u) == 17);
	cmm_smp_mb__before_uatomic_dec();
	uatomic_dec(&u);
	cmm_smp_mb__after_uatomic_dec();
	CHECK(uatomic_read(&u) == 16);
	cmm_smp_mb__before_uatomic_or();
	uatomic_or(&u, 0x101UL);
	cmm_smp_mb__after_uatomic_or();
	CHECK(uatomic_read(&u) == 0x111);
	cmm_smp_mb__before_uatomic_and();
	uatomic_and(&u, 0x0f0UL);
	cmm_smp_mb__after_uatomic_and();
	CHECK(uatomic_read(&u) == 0x010);

	uatomic_set(&i, 0);
	uatomic_dec(&i);
	CHECK(uatomic_read(&i) == -1);
	CHECK(uatomic_add_return(&i, -2) == -3);
	uatomic_set(&l, LONG_MAX - 1);
	uatomic_inc(&l);
	CHECK(uatomic_read(&l) == LONG_MAX);
}

static int mp_data, mp_flag;	/* CMM_LOAD_SHARED / CMM_STORE_SHARED */

static void *mp_receiver(void *arg)
{
	double limit = now_s() + HARD_LIMIT_S;

	(void)arg;
	while (!CMM_LOAD_SHARED(mp_flag)) {
		CHECK(now_s() < limit);
		caa_cpu_relax();
	}
	/* Pairs with the cmm_smp_wmb() of check_barriers(). */
	cmm_smp_rmb();
	CHECK(CMM_LOAD_SHARED(mp_data) == 42);
	return NULL;
}

static void check_barriers(void)
{
	pthread_t t;
	int local = 0;

	CHECK(pthread_create(&t, NULL, mp_receiver, NULL) == 0);
	CMM_STORE_SHARED(mp_data, 42);
	/* Pairs with the cmm_smp_rmb() of mp_receiver(). */
	cmm_smp_wmb();
	CHECK(CMM_STORE_SHARED(mp_flag, 1) == 1);
	CHECK(pthread_join(t, NULL) == 0);

	CMM_ACCESS_ONCE(local) = 3;
	cmm_barrier();
	CHECK(CMM_ACCESS_ONCE(local) == 3);
	/* Single-threaded: nothing pairs; they must only compile and run. */
	cmm_mb();
	cmm_rmb();
	cmm_wmb();
	cmm_smp_mb();
	CHECK(CAA_BITS_PER_LONG == sizeof(long) * CHAR_BIT);
	CHECK(CAA_CACHE_LINE_SIZE >= 32);
	CHECK(caa_likely(local == 3) && !caa_unlikely(local != 3));
}

/*
 * liburcu 0.13 QSBR deadlocks when cds_lfht_resize() runs on a table whose
 * automatic resize is also at work: its resize worker registers (online)
 * and then blocks on the table's resize mutex, which cds_lfht_resize()
 * holds while it waits for a grace period, and that grace period waits for
 * the blocked worker. Seen here as a hang of the liburcu build in about 1
 * run in 6. So this program resizes by hand only tables created without
 * CDS_LFHT_AUTO_RESIZE (lfht has no such deadlock: its resizes wait for
 * grace periods offline).
 */
static int resizes_by_hand(int flags)
{
	return !(flags & CDS_LFHT_AUTO_RESIZE);
}

/* Adds, finds and removes n entries in a table of its own, resizes it
 * (where resizes_by_hand()), destroys it. */
static void check_other_table(struct cds_lfht *ht, int flags, unsigned long n)
{
	struct entry **es = (struct entry **)calloc(n, sizeof(*es));
	struct cds_lfht_iter iter;
	long before, after;
	unsigned long count;

	CHECK(ht != NULL && es != NULL);
	rcu_read_lock();
	for (unsigned long k = 0; k < n; k++) {
		es[k] = entry_new(k);
		CHECK(cds_lfht_add_unique(ht, hash_key(k), match_key, &k, &es[k]->node) ==
		      &es[k]->node);
	}
	rcu_read_unlock();
	if (resizes_by_hand(flags))
		cds_lfht_resize(ht, 64);
	rcu_read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	CHECK(count == n);
	for (unsigned long k = 0; k < n; k++) {
		cds_lfht_lookup(ht, hash_key(k), match_key, &k, &iter);
		CHECK(cds_lfht_iter_get_node(&iter) == &es[k]->node);
		CHECK(cds_lfht_del(ht, &es[k]->node) == 0);
	}
	rcu_read_unlock();
	for (unsigned long k = 0; k < n; k++)
		entry_retire(es[k]);
	free(es);
	/* Offline (a no-op in memb): liburcu's destroy waits for a resize in
	 * flight, whose grace period would wait for this thread if online. */
	rcu_thread_offline();
	CHECK(cds_lfht_destroy(ht, NULL) == 0);
	rcu_thread_online();
}

/* The writers' view against the table's: same entries, same count. */
static unsigned long check_final_table(void)
{
	struct cds_lfht_iter iter;
	struct entry *e;
	unsigned long expected = 0, seen = 0, count;
	long before, after;

	rcu_read_lock();
	for (unsigned long k = 0; k < NR_KEYS; k++) {
		cds_lfht_lookup(table, hash_key(k), match_key, &k, &iter);
		CHECK(cds_lfht_iter_get_node(&iter) == (present[k] ? &present[k]->node : NULL));
		expected += present[k] != NULL;
	}
	cds_lfht_for_each_entry(table, &iter, e, node) {
		CHECK(e->key < NR_KEYS && present[e->key] == e);
		seen++;
	}
	cds_lfht_count_nodes(table, &before, &count, &after);
	rcu_read_unlock();
	CHECK(seen == expected && count == expected);
	return expected;
}

/* fork() with the call_rcu fork hooks; the child looks a key up. */
static void check_fork(void)
{
	pid_t pid;
	int status;

	if (getenv("URCU_STYLE_EMULATED") != NULL) {
		puts("emulated target: fork() of a multi-threaded process can hang "
		     "qemu-user: fork check skipped");
		return;
	}
	bp_before_fork();
	call_rcu_before_fork();
	pid = fork();
	if (pid == 0) {
		struct cds_lfht_iter iter;
		unsigned long key = 1;
		int ok;

		call_rcu_after_fork_child();
		bp_after_fork_child();
		rcu_read_lock();
		cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
		ok = cds_lfht_iter_get_node(&iter) == (present[key] ? &present[key]->node : NULL);
		rcu_read_unlock();
		_exit(ok ? 0 : 3);
	}
	call_rcu_after_fork_parent();
	bp_after_fork_parent();
	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	static const unsigned long sizes[] = { 1024, 16, 4096, 8, 256 };
	pthread_t threads[NR_WRITERS + NR_READERS + 1];
	const char *env = getenv("URCU_STYLE_SECONDS");
	double seconds = env ? atof(env) : 0.5, start, limit;
	unsigned long nr_resizes = 0, ops_total = 0, expected;
	unsigned i;

#ifdef TEST_INIT
	TEST_INIT();
#endif
	check_uatomic();
	check_barriers();
	rcu_register_thread();
	CHECK(rcu_read_ongoing() == (strcmp(TEST_FLAVOR, "qsbr") == 0));

	/* call_rcu_data: a worker for the writers, per-CPU workers. */
	writer_crdp = create_call_rcu_data(0, -1);
	CHECK(writer_crdp != NULL);
	CHECK(get_default_call_rcu_data() != NULL);
	CHECK(create_all_cpu_call_rcu_data(0) == 0);
	{
		/* CPU 0 back to the default worker; free its own after a
		 * grace period, as liburcu asks. */
		struct call_rcu_data *cpu0 = get_cpu_call_rcu_data(0);

		CHECK(set_cpu_call_rcu_data(0, NULL) == 0);
		synchronize_rcu();
		call_rcu_data_free(cpu0);
	}
	set_thread_call_rcu_data(writer_crdp);
	CHECK(get_thread_call_rcu_data() == writer_crdp || get_thread_call_rcu_data() == NULL);
	set_thread_call_rcu_data(NULL);

	/* Tables of other constructors and memory backends. */
	check_other_table(cds_lfht_new_flavor(4, 4, 0, CDS_LFHT_AUTO_RESIZE,
					      &TEST_FL(flavor), NULL), CDS_LFHT_AUTO_RESIZE, 100);
	check_other_table(_cds_lfht_new(4, 4, 1024, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					&cds_lfht_mm_order, &rcu_flavor, NULL),
			  CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, 100);
	check_other_table(_cds_lfht_new(4, 4, 1024, 0, &cds_lfht_mm_chunk, &rcu_flavor, NULL),
			  0, 100);
	check_other_table(_cds_lfht_new(4, 4, 1024, CDS_LFHT_AUTO_RESIZE, &cds_lfht_mm_mmap,
					&rcu_flavor, NULL), CDS_LFHT_AUTO_RESIZE, 100);

	/* Resized by hand while the threads run: no CDS_LFHT_AUTO_RESIZE
	 * (see resizes_by_hand()). */
	table = cds_lfht_new(8, 8, 0, CDS_LFHT_ACCOUNTING, NULL);
	CHECK(table != NULL);
	rcu_set_pointer(&current_config, config_new(0));

	for (i = 0; i < NR_WRITERS; i++)
		CHECK(pthread_create(&threads[i], NULL, writer, (void *)(unsigned long)i) == 0);
	for (; i < NR_WRITERS + NR_READERS; i++)
		CHECK(pthread_create(&threads[i], NULL, reader, (void *)(unsigned long)i) == 0);
	CHECK(pthread_create(&threads[i], NULL, flavor_reader, (void *)(unsigned long)i) == 0);

	/* Resize while they run, until the time is up and each thread did
	 * MIN_OPS (or the hard limit). */
	start = now_s();
	limit = start + HARD_LIMIT_S;
	for (;;) {
		int enough = now_s() >= start + seconds;

		for (i = 0; i < CAA_ARRAY_SIZE(progress); i++)
			enough = enough && CMM_LOAD_SHARED(progress[i].ops) >= MIN_OPS;
		if (enough || now_s() >= limit)
			break;
		cds_lfht_resize(table, sizes[nr_resizes++ % CAA_ARRAY_SIZE(sizes)]);
		rcu_quiescent_state();
	}
	CMM_STORE_SHARED(stop, 1);
	rcu_thread_offline();
	for (i = 0; i < CAA_ARRAY_SIZE(threads); i++)
		CHECK(pthread_join(threads[i], NULL) == 0);
	rcu_thread_online();

	for (i = 0; i < CAA_ARRAY_SIZE(progress); i++) {
		CHECK(progress[i].ops > 0);
		ops_total += progress[i].ops;
	}
	CHECK(uatomic_read(&tls_ops_total) == ops_total);
	CHECK(uatomic_read(&threads_seen) == (1UL << CAA_ARRAY_SIZE(threads)) - 1);
	CHECK(uatomic_read(&nr_updates) > 0 && uatomic_read(&nr_reads) > 0);
	CHECK(nr_resizes > 0);
	expected = check_final_table();
	check_fork();

	/* Empty the table, retire everything, wait for the callbacks. */
	rcu_read_lock();
	for (unsigned long k = 0; k < NR_KEYS; k++) {
		if (present[k] != NULL)
			CHECK(cds_lfht_del(table, &present[k]->node) == 0);
	}
	rcu_read_unlock();
	for (unsigned long k = 0; k < NR_KEYS; k++) {
		if (present[k] != NULL)
			entry_retire(present[k]);
		present[k] = NULL;
	}
	rcu_thread_offline();	/* as in check_other_table() */
	CHECK(cds_lfht_destroy(table, NULL) == 0);
	rcu_thread_online();
	{
		struct config *last = rcu_dereference(current_config);

		rcu_assign_pointer(current_config, NULL);
		TEST_FL(synchronize_rcu)();
		rcu_flavor.update_synchronize_rcu();
		synchronize_rcu();
		free(last);
	}
	rcu_thread_offline();
	rcu_barrier();
	rcu_thread_online();
	CHECK(uatomic_read(&nr_freed) == uatomic_read(&nr_retired));

	/* One more callback through the prefixed names and the flavour
	 * object, then the workers go. */
	{
		struct entry *e = entry_new(1), *f = entry_new(2);

		uatomic_add(&nr_retired, 2);
		TEST_FL(call_rcu)(&e->rcu, entry_free_rcu);
		rcu_flavor.update_call_rcu(&f->rcu, entry_free_rcu);
		TEST_FL(thread_offline)();
		TEST_FL(barrier)();
		rcu_flavor.barrier();
		TEST_FL(thread_online)();
		CHECK(uatomic_read(&nr_freed) == uatomic_read(&nr_retired));
	}
	free_all_cpu_call_rcu_data();
	call_rcu_data_free(writer_crdp);
	rcu_unregister_thread();
	printf("%s: %lu ops (%lu reads, %lu walks, %lu updates), %lu resizes, "
	       "%lu entries at the end, %lu freed by call_rcu\n",
	       TEST_FLAVOR, ops_total, uatomic_read(&nr_reads), uatomic_read(&nr_walks),
	       uatomic_read(&nr_updates), nr_resizes, expected, uatomic_read(&nr_freed));
	return 0;
}

#endif /* HASH_TEST_H */
