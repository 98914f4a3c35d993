/* SPDX-License-Identifier: MIT */
/*
 * tests/lfht_test.h - what every table test shares: the flavour chosen at
 * build time (-DTEST_FLAVOUR_QSBR, _MEMB, _BP or _MB) behind
 * flavour-neutral helpers, a test entry with a magic word that is poisoned
 * when the entry is freed, hash and match functions, a counting allocator
 * that can be told to fail, stress deadlines and bounded waits.
 *
 * Each test source defines _GNU_SOURCE before including this header.
 */
#ifndef LFHT_TEST_H
#define LFHT_TEST_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#if defined(TEST_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#define TEST_FLAVOUR_NAME "qsbr"
/* A QSBR thread announces quiescent states itself; memb needs nothing. */
static inline void quiescent(void) { rcu_quiescent_state(); }
static inline void test_offline(void) { rcu_thread_offline(); }
static inline void test_online(void) { rcu_thread_online(); }
/* QSBR read-side sections are empty: nothing to leave. */
static inline void test_leave_read_sections(void) { }
#elif defined(TEST_FLAVOUR_MEMB) || defined(TEST_FLAVOUR_BP) || \
	defined(TEST_FLAVOUR_MB)
/* bp behaves like memb here; its rcu_register_thread() calls are allowed
 * and harmless (a thread that reads first registers itself anyway). mb is
 * memb with fences on the read side. */
#if defined(TEST_FLAVOUR_MEMB)
#include <rcu/memb.h>
#define TEST_FLAVOUR_NAME "memb"
#elif defined(TEST_FLAVOUR_MB)
#include <rcu/mb.h>
#define TEST_FLAVOUR_NAME "mb"
#else
#include <rcu/bp.h>
#define TEST_FLAVOUR_NAME "bp"
#endif
static inline void quiescent(void) { }
static inline void test_offline(void) { }
static inline void test_online(void) { }
static inline void test_leave_read_sections(void)
{
	while (rcu_read_ongoing())
		rcu_read_unlock();
}
#else
#error "build with -DTEST_FLAVOUR_QSBR, -DTEST_FLAVOUR_MEMB, -DTEST_FLAVOUR_BP or -DTEST_FLAVOUR_MB"
#endif

/* Sanitizers, debug checks, the clock, stalls (rcu/tests/). */
#include "test_common.h"

#include <rcu/atomic.h>
#include <lfht/lfht.h>
#include <lfht/extensions.h>

#include <check.h>

/* ---- entries ----------------------------------------------------------- */

#define TEST_MAGIC_LIVE 0x4c464854u	/* "LFHT" */
#define TEST_MAGIC_DEAD 0xdeadbeefu

struct test_node {
	struct cds_lfht_node node;
	uint64_t key;
	uint64_t value;
	/* Unique in the process, never 0 or 1: (thread number << 40) |
	 * sequence, for the history checker (tests/history/). */
	uint64_t id;
	_Atomic(unsigned) magic;
	struct rcu_head rcu;
};

/* Entries whose magic was not live when a reader or a match call saw them. */
extern _Atomic(long) test_bad_magic;
/* Entries allocated and not yet freed (directly or by call_rcu). */
extern _Atomic(long) test_nodes_live;

struct test_node *test_node_new(uint64_t key, uint64_t value);
/* Frees at once: only for an entry no reader can reach (never published). */
void test_node_free_now(struct test_node *tn);
/* Frees after a grace period, poisoning the magic first. */
void test_node_free_rcu(struct test_node *tn);
/* Checks the magic; counts a bad one. Returns the entry or NULL. */
struct test_node *test_node_of(struct cds_lfht_node *node);

/* 64-bit mix of the key (splitmix64 finaliser). */
unsigned long test_hash(uint64_t key);
/* Maps each group of TEST_COLLIDE_GROUP consecutive keys to one hash. */
#define TEST_COLLIDE_GROUP 4
unsigned long test_collide_hash(uint64_t key);
/* Match on key (a const uint64_t *); also checks the magic. */
int test_match(struct cds_lfht_node *node, const void *key);

/* A table that must be created, cds_lfht_new(init, 1, 0, flags, attr),
 * holding keys [0, nr) (test_fill()). attr: NULL, or one to
 * pthread_attr_init() here (the caller destroys it after the table). */
struct cds_lfht *test_new_table(unsigned long init, int flags, pthread_attr_t *attr,
				uint64_t nr);
/* Inside a read-side section: the entry of key, or NULL. */
struct test_node *test_lookup(struct cds_lfht *ht, uint64_t key);
/* The same, leaving *iter at it (for cds_lfht_replace()). */
struct test_node *test_lookup_iter(struct cds_lfht *ht, uint64_t key, struct cds_lfht_iter *iter);
/* Inside a read-side section: how many entries hold key. */
unsigned long test_count_key(struct cds_lfht *ht, uint64_t key);
/* Takes its own read-side section: count_nodes's exact count. */
unsigned long test_count_nodes(struct cds_lfht *ht, long *before, long *after);
/* Deletes every entry (own read-side sections) and frees them by call_rcu;
 * returns how many. */
unsigned long test_del_all(struct cds_lfht *ht);
/* Deletes keys from, from + step, ... below to, which must be present, and
 * frees them by call_rcu (own read-side sections, quiescent now and then). */
void test_del_keys(struct cds_lfht *ht, uint64_t from, uint64_t to, uint64_t step);
/* Adds keys [from, to) (own read-side sections, quiescent now and then). */
void test_fill(struct cds_lfht *ht, uint64_t from, uint64_t to);
/* Takes its own read-side section: how many of keys [from, to) are found. */
unsigned long test_count_found(struct cds_lfht *ht, uint64_t from, uint64_t to);
/* Deletes every entry, destroys the table (must succeed), waits for the
 * callbacks and asserts no reader saw a poisoned entry. */
void test_empty_and_destroy(struct cds_lfht *ht);
/* Asserts that ht holds nr entries (count_nodes), then
 * test_empty_and_destroy(). */
void test_destroy_holding(struct cds_lfht *ht, unsigned long nr);

/* The invariant checker of the test build of the library (lfht/check.c;
 * binaries linked with it only): aborts with "lfht: invariant: <what>"
 * when ht, quiet, breaks one. Registered caller, outside any read-side
 * section. */
void lfht_check_invariants_(struct cds_lfht *ht);

/* ---- counting allocator ----------------------------------------------- */

struct test_alloc {
	_Atomic(long) attempts;		/* zalloc calls, failed ones included */
	_Atomic(long) allocs;		/* successful zalloc calls */
	_Atomic(long) frees;
	_Atomic(long) bytes_total;	/* sum of successful sizes */
	_Atomic(long) bytes_outstanding;
	_Atomic(long) bad_frees;	/* free with a size other than asked */
	_Atomic(long) fail_at;		/* attempt number that fails; 0: none */
	_Atomic(int) fail_all;		/* non-zero: every attempt fails */
};

extern struct test_alloc test_alloc;
/* Zeroes the counters and installs the counting allocator. */
void test_alloc_install(void);
/* Restores the default allocator (counters stay readable). */
void test_alloc_uninstall(void);

/* ---- time, threads, waits --------------------------------------------- */

/* LFHT_STRESS_SECONDS, default 2 s (0.3 s under an emulator), times
 * LFHT_STRESS_SCALE when that is below 1 (see test_common.h). */
static inline double test_stress_seconds(void)
{
	return test_stress_seconds_of("LFHT");
}
/* Waits for the child pid (offline while it sleeps: QSBR) and returns its
 * wait status; past test_now() == end, kills it, reaps it and returns -1. */
int test_wait_child(pid_t pid, double end);
/* A bucket count to wait for, with test_wait_until(test_size_reached, ...). */
struct test_size_goal {
	struct cds_lfht *ht;
	unsigned long at_least, at_most;
};
bool test_size_reached(void *goal);

/* Polls cond(arg) for up to seconds, offline between polls; true if met. */
bool test_wait_until(bool (*cond)(void *arg), void *arg, double seconds);
/* pthread_join while offline, so a QSBR grace period never waits on us. */
void test_join(pthread_t thread);
void test_start(pthread_t *thread, void *(*fn)(void *), void *arg);
/* Yields the CPU from a spin loop, quiescent first. */
void test_spin_pause(void);

/* Rounds in lock-step: the main thread sets round r up and opens it, each
 * of nr racer threads plays it, registered (play(r, id, round), id in
 * [0, nr)), and reports; the main thread judges it once all have. A
 * test's race embeds its struct test_rounds. */
#define TEST_MAX_RACERS 8
struct test_rounds {
	_Atomic(long) round;	/* last round opened; -1: stop */
	_Atomic(long) done;	/* total racer reports */
	void (*play)(struct test_rounds *r, int id, long round);
	int nr;
	pthread_t threads[TEST_MAX_RACERS];
	struct test_member racers[TEST_MAX_RACERS];	/* team: this */
};
/* Starts nr racers (at most TEST_MAX_RACERS) that play each round. */
void test_rounds_start(struct test_rounds *r, int nr,
		       void (*play)(struct test_rounds *r, int id, long round));
/* Opens round (after the last, from 1), waits (bounded) for every racer to
 * play it; false on timeout. */
bool test_rounds_run(struct test_rounds *r, long round);
/* Stops the racers and joins them. */
void test_rounds_stop(struct test_rounds *r);

/* Builds a runner over suite and runs it; every test binary's main. */
int test_main(Suite *suite);
/* Appends a test case of one test with a timeout (seconds). */
void test_add(Suite *s, const char *name, const TTest *test, double timeout);
#define TEST_ADD(s, fn, timeout) test_add((s), #fn, fn, (timeout))

#endif /* LFHT_TEST_H */
