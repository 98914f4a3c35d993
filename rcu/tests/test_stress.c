/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_stress.c - rcutorture-style stress of one flavour.
 *
 * Three published slots, each replaced by its own kind of writer:
 *   slot 0  rcu_assign_pointer under a writer lock, freed after
 *           synchronize_rcu (by a registered writer: QSBR online);
 *   slot 1  rcu_xchg_pointer, freed by call_rcu (unregistered writer);
 *   slot 2  rcu_cmpxchg_pointer by two racing writers, one freeing after
 *           synchronize_rcu, one by call_rcu;
 *   slot 3  rcu_xchg_pointer, freed by rcu_retire() (registered writer:
 *           its callbacks run on it, or, past its bound and when it
 *           unregisters, on the call_rcu worker; out of pool objects, it
 *           runs its own with rcu_retire_barrier()).
 * A call_rcu writer with CALL_QUOTA callbacks not yet run waits in
 * rcu_barrier() and checks that all of its callbacks ran.
 * Objects come from a pool, never from malloc: "freeing" poisons an object
 * and returns it to the pool, and the next writer refills it with a new
 * sequence number. Readers check magic, payload and sequence number at the
 * start and end of each section, so an object freed (poisoned) or reused
 * while held is caught, and reading it is never undefined behaviour.
 *
 * Age: one thread runs grace periods back to back and ticks age_clock after
 * each. The writer that unpublishes an object stamps it with age_clock. A
 * reader that saw the object began its section before it was unpublished;
 * a tick from a grace period that began after the stamp cannot come while
 * the reader is inside. The tick after the stamp may (its grace period may
 * have begun before the unpublish), the one after that must not: a reader
 * seeing age_clock - stamp >= 2 inside its section is an error.
 *
 * Readers stall: a timer signal every 200 us sleeps 20 us in a handler,
 * at any instruction, sections included, so a reader holds objects across
 * grace periods' polls as a preempted one would.
 *
 * The mutants (RCU_TEST_MUTANT, rcu/tests/meson.build) fail it too, though
 * by chance: a retired batch run before its grace period, a poll that
 * skips a reader (both: a reader sees a poisoned object), an exiting thread
 * that drops its pending callbacks (objects lost from the pool). The suite
 * runs them against test_retire.c, which catches each on every run.
 *
 * Duration: RCU_STRESS_SECONDS (default 2).
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <sched.h>
#include <string.h>

#define NR_SLOTS 4
#define NR_READERS 4
/* Room for the retire writer's bound (9 batches of up to 2048) too. */
#define POOL_SIZE 32768
/* Callbacks a call_rcu writer may have queued and not yet run; beyond it
 * the writer waits in rcu_barrier(). Keeps the pool from running dry. */
#define CALL_QUOTA 256
#define JOIN_SECONDS 20.0
/* Longest extension of a run that has not done every kind of work yet. */
#define EXTRA_SECONDS 10.0

enum writer_kind {
	W_ASSIGN_SYNC,		/* slot 0 */
	W_XCHG_CALL,		/* slot 1 */
	W_CMPXCHG_SYNC,		/* slot 2 */
	W_CMPXCHG_CALL,		/* slot 2 */
	W_XCHG_RETIRE,		/* slot 3 */
	NR_WRITERS
};

static struct test_obj *slots[NR_SLOTS];
static pthread_mutex_t slot0_lock = PTHREAD_MUTEX_INITIALIZER;

static struct test_obj pool_objs[POOL_SIZE];
static struct test_obj *pool_free[POOL_SIZE];
static int pool_nfree;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
/* The call_rcu writer that queued each pool object, and per writer how
 * many of its callbacks have not run yet. */
static _Atomic int queued_by[POOL_SIZE];
static _Atomic long in_flight[NR_WRITERS];

static _Atomic uint64_t next_seq;
static _Atomic uint64_t age_clock;
static _Atomic long stop;

static struct {
	_Atomic long reads;
	_Atomic long nested_reads;
	_Atomic long seen_retired;
	_Atomic long seen_age[2];
	_Atomic long bad_intact;
	_Atomic long bad_reused;
	_Atomic long bad_age;
	_Atomic long bad_null;
	_Atomic long updates[NR_WRITERS];
	_Atomic long cas_failures;
	_Atomic long freed_sync;
	_Atomic long freed_cb;
	_Atomic long freed_retire;
	_Atomic long retire_barriers;
	_Atomic long pool_empty;
	_Atomic long barriers;
	_Atomic long ticks;
} st;

static void pool_reset(void)
{
	pool_nfree = 0;
	for (int i = POOL_SIZE - 1; i >= 0; i--) {
		test_obj_poison(&pool_objs[i]);
		pool_free[pool_nfree++] = &pool_objs[i];
	}
}

static struct test_obj *pool_get(void)
{
	struct test_obj *o = NULL;

	pthread_mutex_lock(&pool_lock);
	if (pool_nfree > 0)
		o = pool_free[--pool_nfree];
	pthread_mutex_unlock(&pool_lock);
	if (o != NULL)
		test_obj_fill(o, rcu_atomic_add(&next_seq, 1, memory_order_relaxed) + 1);
	return o;
}

/* After a grace period: poison, then back to the pool for reuse. */
static void pool_put(struct test_obj *o)
{
	test_obj_poison(o);
	pthread_mutex_lock(&pool_lock);
	pool_free[pool_nfree++] = o;
	pthread_mutex_unlock(&pool_lock);
}

static void pool_put_cb(struct rcu_head *head)
{
	struct test_obj *o = caa_container_of(head, struct test_obj, head);
	int writer = rcu_atomic_load(&queued_by[o - pool_objs], memory_order_relaxed);

	pool_put(o);
	rcu_atomic_add(&st.freed_cb, 1, memory_order_relaxed);
	rcu_atomic_sub(&in_flight[writer], 1, memory_order_relaxed);
}

static void pool_put_retire_cb(struct rcu_head *head)
{
	pool_put(caa_container_of(head, struct test_obj, head));
	rcu_atomic_add(&st.freed_retire, 1, memory_order_relaxed);
}

/* The caller removed o from its slot and owns it. */
static void retire(struct test_obj *o)
{
	uint64_t now;

	/* Full fence: the unpublishing store (a release store for slot 0)
	 * is visible before age_clock is read, so the stamp is no older
	 * than the unpublish; pairs with the seq_cst tick in clock_run()
	 * (see the age argument at the top). */
	rcu_fence(memory_order_seq_cst);
	now = rcu_atomic_load(&age_clock, memory_order_seq_cst);

	/* Release: pairs with the reader's acquire load of retired. */
	rcu_atomic_store(&o->retired, now, memory_order_release);
}

/* ---- readers ----------------------------------------------------------- */

static void read_once(uint64_t *rng, unsigned iteration)
{
	unsigned slot = (unsigned)(test_rand(rng) % NR_SLOTS);
	bool nested = iteration % 8 == 0;
	struct test_obj *o;
	uint64_t s1 = 0, s2 = 0, stamp, now;
	bool ok1, ok2;

	rcu_read_lock();
	if (nested)
		rcu_read_lock();
	o = rcu_dereference(slots[slot]);
	if (o == NULL) {
		rcu_atomic_add(&st.bad_null, 1, memory_order_relaxed);
		TEST_CHECK(false, "slot %u empty", slot);
		goto out;
	}
	ok1 = test_obj_intact(o, &s1);
	test_spin((unsigned)(test_rand(rng) % 256));
	if (nested) {
		rcu_read_unlock();
		test_spin(16);
	}
	ok2 = test_obj_intact(o, &s2);
	/* Acquire: pairs with the release in retire(); with the seq_cst
	 * load below, now >= stamp. */
	stamp = rcu_atomic_load(&o->retired, memory_order_acquire);
	now = rcu_atomic_load(&age_clock, memory_order_seq_cst);
	if (!ok1 || !ok2) {
		rcu_atomic_add(&st.bad_intact, 1, memory_order_relaxed);
		TEST_CHECK(false, "slot %u: object %p poisoned while held"
			   " (start %s, end %s)", slot, (void *)o,
			   ok1 ? "ok" : "poisoned", ok2 ? "ok" : "poisoned");
	} else if (s1 != s2) {
		rcu_atomic_add(&st.bad_reused, 1, memory_order_relaxed);
		TEST_CHECK(false, "slot %u: object %p reused while held (seq %llu"
			   " then %llu)", slot, (void *)o,
			   (unsigned long long)s1, (unsigned long long)s2);
	} else if (stamp != TEST_NOT_RETIRED) {
		uint64_t age = now - stamp;

		rcu_atomic_add(&st.seen_retired, 1, memory_order_relaxed);
		if (now < stamp || age >= 2) {
			rcu_atomic_add(&st.bad_age, 1, memory_order_relaxed);
			TEST_CHECK(false, "slot %u: object seen %lld grace periods"
				   " after it was unpublished", slot,
				   (long long)(now - stamp));
		} else {
			rcu_atomic_add(&st.seen_age[age], 1, memory_order_relaxed);
		}
	}
	if (nested)
		rcu_atomic_add(&st.nested_reads, 1, memory_order_relaxed);
out:
	rcu_read_unlock();
	rcu_atomic_add(&st.reads, 1, memory_order_relaxed);
}

static void *reader_run(void *arg)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull * ((uintptr_t)arg + 1);
	timer_t timer;
	bool stalls = test_stalls_start(&timer);

	rcu_register_thread();
	for (unsigned i = 0; !test_stopping(&stop); i++) {
		read_once(&rng, i);
		/* QSBR: between sections, nothing held. */
		reader_quiescent();
		if (i % 1024 == 0) {
			/* QSBR: offline now and then, as a real reader might. */
			reader_offline();
			sched_yield();
			reader_online();
		}
	}
	if (stalls)
		timer_delete(timer);
	rcu_unregister_thread();
	return NULL;
}

/* ---- writers ----------------------------------------------------------- */

static struct test_obj *new_or_wait(enum writer_kind kind, bool registered)
{
	struct test_obj *o;

	while ((o = pool_get()) == NULL) {
		rcu_atomic_add(&st.pool_empty, 1, memory_order_relaxed);
		if (test_stopping(&stop))
			return NULL;
		if (kind == W_XCHG_RETIRE) {
			/* Its pending objects only come back through it. */
			rcu_retire_barrier();
			rcu_atomic_add(&st.retire_barriers, 1, memory_order_relaxed);
		}
		if (registered)
			reader_quiescent();
		sched_yield();
	}
	return o;
}

static struct test_obj *replace_slot0(struct test_obj *o)
{
	struct test_obj *old;

	pthread_mutex_lock(&slot0_lock);
	/* Plain read: every store to slots[0] is made under slot0_lock. */
	old = slots[0];
	rcu_assign_pointer(slots[0], o);
	pthread_mutex_unlock(&slot0_lock);
	return old;
}

static struct test_obj *replace_slot2(struct test_obj *o)
{
	struct test_obj *cur, *seen;

	for (;;) {
		cur = rcu_dereference(slots[2]);
		seen = rcu_cmpxchg_pointer(&slots[2], cur, o);
		if (seen == cur)
			return cur;
		rcu_atomic_add(&st.cas_failures, 1, memory_order_relaxed);
	}
}

static void *writer_run(void *arg)
{
	enum writer_kind kind = (enum writer_kind)(uintptr_t)arg;
	bool registered = kind == W_ASSIGN_SYNC || kind == W_CMPXCHG_SYNC ||
			  kind == W_XCHG_RETIRE;
	struct test_obj *o, *old;

	if (registered)
		rcu_register_thread();
	for (long n = 0; !test_stopping(&stop); n++) {
		o = new_or_wait(kind, registered);
		if (o == NULL)
			break;
		switch (kind) {
		case W_ASSIGN_SYNC:
			old = replace_slot0(o);
			break;
		case W_XCHG_CALL:
			old = rcu_xchg_pointer(&slots[1], o);
			break;
		case W_XCHG_RETIRE:
			old = rcu_xchg_pointer(&slots[3], o);
			break;
		default:
			old = replace_slot2(o);
			break;
		}
		retire(old);
		if (kind == W_XCHG_RETIRE) {
			rcu_retire(&old->head, pool_put_retire_cb);
		} else if (kind == W_XCHG_CALL || kind == W_CMPXCHG_CALL) {
			rcu_atomic_store(&queued_by[old - pool_objs], (int)kind,
					 memory_order_relaxed);
			rcu_atomic_add(&in_flight[kind], 1, memory_order_relaxed);
			call_rcu(&old->head, pool_put_cb);
			if (rcu_atomic_load(&in_flight[kind], memory_order_relaxed) >=
			    CALL_QUOTA) {
				rcu_barrier();
				rcu_atomic_add(&st.barriers, 1, memory_order_relaxed);
				TEST_CHECK(rcu_atomic_load(&in_flight[kind],
							   memory_order_relaxed) == 0,
					   "writer %d: rcu_barrier returned with %ld"
					   " of its callbacks not run", (int)kind,
					   rcu_atomic_load(&in_flight[kind],
							   memory_order_relaxed));
			}
		} else {
			/* QSBR: an online writer; must not wait for itself. */
			synchronize_rcu();
			pool_put(old);
			rcu_atomic_add(&st.freed_sync, 1, memory_order_relaxed);
		}
		rcu_atomic_add(&st.updates[kind], 1, memory_order_relaxed);
		if (registered)
			reader_quiescent();
	}
	if (kind == W_XCHG_RETIRE) {
		/* One last update, so that this writer leaves with a callback
		 * pending, which unregistering must hand to the worker. */
		while ((o = pool_get()) == NULL) {
			rcu_retire_barrier();
			sched_yield();
		}
		old = rcu_xchg_pointer(&slots[3], o);
		retire(old);
		rcu_retire(&old->head, pool_put_retire_cb);
		rcu_atomic_add(&st.updates[kind], 1, memory_order_relaxed);
	}
	if (registered)
		rcu_unregister_thread();
	return NULL;
}

static void *clock_run(void *arg)
{
	(void)arg;
	while (!test_stopping(&stop)) {
		synchronize_rcu();
		/* Seq_cst: pairs with the seq_cst loads in retire() and
		 * read_once(); the tick comes after the grace period. */
		rcu_atomic_add(&age_clock, 1, memory_order_seq_cst);
		rcu_atomic_add(&st.ticks, 1, memory_order_relaxed);
	}
	return NULL;
}

static bool any_failure(void *arg)
{
	(void)arg;
	return test_failures() != 0;
}

static bool all_work_done(void *arg)
{
	(void)arg;
	if (test_failures() != 0)
		return true;
	for (int i = 0; i < NR_WRITERS; i++)
		if (test_count(&st.updates[i]) == 0)
			return false;
	return test_count(&st.nested_reads) > 0 && test_count(&st.ticks) > 0 &&
	       test_count(&st.freed_cb) > 0 && test_count(&st.freed_sync) > 0 &&
	       test_count(&st.freed_retire) > 0;
}

START_TEST(readers_never_see_freed_reused_or_stale_objects)
{
	double seconds = test_stress_seconds();
	pthread_t readers[NR_READERS], writers[NR_WRITERS], clock;
	int in_pool;

	test_failures_reset();
	memset(&st, 0, sizeof(st));
	rcu_atomic_store(&stop, 0, memory_order_relaxed);
	pool_reset();
	for (int i = 0; i < NR_WRITERS; i++)
		rcu_atomic_store(&in_flight[i], 0, memory_order_relaxed);
	for (int i = 0; i < NR_SLOTS; i++)
		slots[i] = pool_get();

	for (uintptr_t i = 0; i < NR_READERS; i++)
		test_start(&readers[i], reader_run, (void *)i);
	for (uintptr_t i = 0; i < NR_WRITERS; i++)
		test_start(&writers[i], writer_run, (void *)i);
	test_start(&clock, clock_run, NULL);

	/* The workload's length, cut short by the first failure, and made
	 * longer (bounded) until every kind of work has been done once: a
	 * short run on a slow emulator must still test something. */
	(void)test_wait_until(any_failure, NULL, seconds);
	(void)test_wait_until(all_work_done, NULL, EXTRA_SECONDS);
	test_stop(&stop);

	for (int i = 0; i < NR_READERS; i++)
		ck_assert_msg(test_join_within(readers[i], JOIN_SECONDS),
			      "reader %d did not stop", i);
	for (int i = 0; i < NR_WRITERS; i++)
		ck_assert_msg(test_join_within(writers[i], JOIN_SECONDS),
			      "writer %d did not stop (grace period or barrier hung?)", i);
	ck_assert_msg(test_join_within(clock, JOIN_SECONDS),
		      "the grace-period clock did not stop");
	rcu_barrier();

	printf("stress %s %.2fs: reads %ld (nested %ld), retired seen %ld"
	       " (age 0: %ld, age 1: %ld); updates assign %ld xchg %ld"
	       " cmpxchg-sync %ld cmpxchg-call %ld, cas failures %ld;"
	       " retire %ld; freed sync %ld cb %ld retire %ld; barriers %ld,"
	       " retire barriers %ld; clock ticks %ld; pool empty %ld\n",
	       TEST_FLAVOUR_NAME, seconds,
	       test_count(&st.reads), test_count(&st.nested_reads), test_count(&st.seen_retired),
	       test_count(&st.seen_age[0]), test_count(&st.seen_age[1]),
	       test_count(&st.updates[W_ASSIGN_SYNC]), test_count(&st.updates[W_XCHG_CALL]),
	       test_count(&st.updates[W_CMPXCHG_SYNC]), test_count(&st.updates[W_CMPXCHG_CALL]),
	       test_count(&st.cas_failures), test_count(&st.updates[W_XCHG_RETIRE]),
	       test_count(&st.freed_sync), test_count(&st.freed_cb), test_count(&st.freed_retire),
	       test_count(&st.barriers), test_count(&st.retire_barriers), test_count(&st.ticks),
	       test_count(&st.pool_empty));
	fflush(stdout);

	ck_assert_msg(test_count(&st.bad_intact) == 0, "%ld reads saw a freed (poisoned) object",
		      test_count(&st.bad_intact));
	ck_assert_msg(test_count(&st.bad_reused) == 0, "%ld reads saw an object reused",
		      test_count(&st.bad_reused));
	ck_assert_msg(test_count(&st.bad_age) == 0, "%ld reads saw an object two or more"
		      " grace periods after its removal", test_count(&st.bad_age));
	ck_assert_int_eq(test_count(&st.bad_null), 0);
	ck_assert_no_worker_failures();

	ck_assert_msg(test_count(&st.reads) > 0, "no reads done");
	ck_assert_msg(test_count(&st.nested_reads) > 0, "no nested reads done");
	for (int i = 0; i < NR_WRITERS; i++)
		ck_assert_msg(test_count(&st.updates[i]) > 0, "writer %d made no update", i);
	ck_assert_msg(test_count(&st.ticks) > 0, "no grace period completed on the clock");
	ck_assert_msg(test_count(&st.freed_sync) > 0 && test_count(&st.freed_cb) > 0,
		      "frees: %ld by synchronize_rcu, %ld by call_rcu",
		      test_count(&st.freed_sync), test_count(&st.freed_cb));
	/* Every object is published or back in the pool, none lost. */
	ck_assert_int_eq(test_count(&st.freed_cb),
			 test_count(&st.updates[W_XCHG_CALL]) + test_count(&st.updates[W_CMPXCHG_CALL]));
	/* The retire writer's last ones went to the worker when it
	 * unregistered; the barrier above waited for them. */
	ck_assert_msg(test_count(&st.freed_retire) == test_count(&st.updates[W_XCHG_RETIRE]),
		      "%ld of %ld retired objects freed (lost on exit?)",
		      test_count(&st.freed_retire), test_count(&st.updates[W_XCHG_RETIRE]));
	pthread_mutex_lock(&pool_lock);
	in_pool = pool_nfree;
	pthread_mutex_unlock(&pool_lock);
	ck_assert_int_eq(in_pool + NR_SLOTS, POOL_SIZE);
	for (int i = 0; i < NR_SLOTS; i++) {
		uint64_t seq;

		ck_assert_msg(test_obj_intact(slots[i], &seq),
			      "published object of slot %d not intact at the end", i);
	}
}
END_TEST

int main(void)
{
	return TEST_MAIN_ONE("rcu-stress-" TEST_FLAVOUR_NAME,
			     readers_never_see_freed_reused_or_stale_objects, 100);
}
