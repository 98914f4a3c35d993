/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_callbacks.c - call_rcu and rcu_barrier: callbacks get their
 * own head, run in queue order per queueing thread, run only after a grace
 * period (a reader inside a section begun before call_rcu still sees the
 * object intact until it leaves), may take read-side sections and queue
 * more callbacks, and run after their thread has exited; rcu_barrier waits
 * for every callback queued before it, by any thread, and called from a
 * callback prints a message and returns.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CALL_SECONDS 5.0
#define HOLD_SECONDS 0.1

/* A callback item: who queued it and its place in that thread's order. */
struct item {
	struct rcu_head head;
	unsigned producer;
	long seq;
};

#define MAX_PRODUCERS 8
/* Per producer: callbacks run, and the seq of the last one run. */
static _Atomic long ran[MAX_PRODUCERS];
static _Atomic long last_seq[MAX_PRODUCERS];
static _Atomic long out_of_order;

static void counters_reset(void)
{
	for (int i = 0; i < MAX_PRODUCERS; i++) {
		rcu_atomic_store(&ran[i], 0, memory_order_relaxed);
		rcu_atomic_store(&last_seq[i], -1, memory_order_relaxed);
	}
	rcu_atomic_store(&out_of_order, 0, memory_order_relaxed);
}

static void item_cb(struct rcu_head *head)
{
	struct item *it = caa_container_of(head, struct item, head);
	unsigned producer = it->producer;
	long prev = rcu_atomic_xchg(&last_seq[producer], it->seq,
				    memory_order_relaxed);

	if (prev + 1 != it->seq) {
		TEST_CHECK(false, "producer %u: callback %ld ran after %ld",
			   producer, it->seq, prev);
		rcu_atomic_add(&out_of_order, 1, memory_order_relaxed);
	}
	free(it);
	/* Release: pairs with the acquire loads of ran[] after a barrier
	 * (belt and braces: rcu_barrier() itself must order them). */
	rcu_atomic_add(&ran[producer], 1, memory_order_release);
}

static struct item *item_new(unsigned producer, long seq)
{
	struct item *it = malloc(sizeof(*it));

	if (it == NULL)
		abort();
	it->producer = producer;
	it->seq = seq;
	return it;
}

/* ---- the head, and a plain barrier ------------------------------------ */

static _Atomic long heads_ok;
static struct test_obj *expected_objs[3];

static void head_cb(struct rcu_head *head)
{
	struct test_obj *o = caa_container_of(head, struct test_obj, head);
	uint64_t seq;

	TEST_CHECK(test_obj_intact(o, &seq), "callback object not intact");
	TEST_CHECK(seq < 3 && expected_objs[seq] == o,
		   "callback got head %p, not its own", (void *)head);
	test_obj_free(o);
	rcu_atomic_add(&heads_ok, 1, memory_order_release);
}

START_TEST(call_rcu_passes_its_own_head_to_the_callback)
{
	test_failures_reset();
	rcu_atomic_store(&heads_ok, 0, memory_order_relaxed);
	for (uint64_t i = 0; i < 3; i++)
		expected_objs[i] = test_obj_new(i);
	for (int i = 2; i >= 0; i--)
		call_rcu(&expected_objs[i]->head, head_cb);
	rcu_barrier();
	ck_assert_int_eq(rcu_atomic_load(&heads_ok, memory_order_acquire), 3);
	ck_assert_no_worker_failures();
}
END_TEST

static void barrier_twice(void *arg)
{
	(void)arg;
	rcu_barrier();
	rcu_register_thread();
	rcu_barrier();
	rcu_unregister_thread();
}

START_TEST(barrier_returns_with_nothing_queued)
{
	ck_assert_msg(test_call_within(barrier_twice, NULL, CALL_SECONDS),
		      "rcu_barrier with an empty queue hung (unregistered or"
		      " registered thread)");
}
END_TEST

/* ---- order and completeness ------------------------------------------- */

#define ORDER_PRODUCERS 4
#define ORDER_ITEMS 5000

struct producer {
	unsigned id;
	long count;
	bool registered;
	long ran_after_own_barrier;
};

static void *order_producer(void *p)
{
	struct producer *pr = p;

	if (pr->registered)
		rcu_register_thread();
	for (long i = 0; i < pr->count; i++) {
		call_rcu(&item_new(pr->id, i)->head, item_cb);
		if (pr->registered && i % 64 == 0)
			reader_quiescent();
	}
	/* Every one of ours was queued before this barrier. */
	rcu_barrier();
	/* Acquire: pairs with the release increment in item_cb(). */
	pr->ran_after_own_barrier = rcu_atomic_load(&ran[pr->id], memory_order_acquire);
	if (pr->registered)
		rcu_unregister_thread();
	return NULL;
}

START_TEST(callbacks_of_one_thread_run_in_queue_order)
{
	struct producer pr[ORDER_PRODUCERS];
	pthread_t t[ORDER_PRODUCERS];

	test_failures_reset();
	counters_reset();
	for (unsigned i = 0; i < ORDER_PRODUCERS; i++) {
		pr[i] = (struct producer){ .id = i, .count = ORDER_ITEMS,
					   .registered = i % 2 == 0 };
		test_start(&t[i], order_producer, &pr[i]);
	}
	for (unsigned i = 0; i < ORDER_PRODUCERS; i++)
		ck_assert_joined(t[i]);
	ck_assert_no_worker_failures();
	ck_assert_int_eq(rcu_atomic_load(&out_of_order, memory_order_relaxed), 0);
	for (unsigned i = 0; i < ORDER_PRODUCERS; i++) {
		ck_assert_msg(pr[i].ran_after_own_barrier == ORDER_ITEMS,
			      "producer %u: its rcu_barrier returned after %ld of its"
			      " %d callbacks", i, pr[i].ran_after_own_barrier,
			      ORDER_ITEMS);
		ck_assert_int_eq(rcu_atomic_load(&last_seq[i], memory_order_relaxed),
				 ORDER_ITEMS - 1);
	}
}
END_TEST

/* Producers queue without pause; they count a callback queued once its
 * call_rcu has returned. */
struct flood {
	_Atomic long stop;
	_Atomic long queued[MAX_PRODUCERS];
	unsigned nr;
};

/* A member of the flood's team. */
static void *flood_producer(void *p)
{
	struct test_member *a = p;
	struct flood *f = a->team;
	unsigned id = (unsigned)a->id;
	long n = 0;

	while (!test_flag_set(&f->stop)) {
		/* Bounded backlog: let the worker catch up. */
		if (n - rcu_atomic_load(&ran[id], memory_order_relaxed) > 20000) {
			sched_yield();
			continue;
		}
		call_rcu(&item_new(id, n)->head, item_cb);
		n++;
		/* Release: pairs with the acquire snapshot before a barrier;
		 * the call_rcu above happened before that barrier began. */
		rcu_atomic_store(&f->queued[id], n, memory_order_release);
	}
	return NULL;
}

static bool all_queued(struct flood *f, long n)
{
	for (unsigned i = 0; i < f->nr; i++)
		if (rcu_atomic_load(&f->queued[i], memory_order_relaxed) < n)
			return false;
	return true;
}

START_TEST(barrier_waits_for_every_earlier_callback)
{
	struct flood f = { .nr = 3 };
	struct test_member args[3];
	pthread_t t[3];
	long snap[3], after, barriers = 0;
	double end = test_now() + 0.5, hard_end = end + CALL_SECONDS;

	test_failures_reset();
	counters_reset();
	/* QSBR: an online caller; rcu_barrier must not wait for itself. */
	rcu_register_thread();
	for (unsigned i = 0; i < f.nr; i++) {
		args[i] = (struct test_member){ .team = &f, .id = (int)i };
		test_start(&t[i], flood_producer, &args[i]);
	}
	while (test_now() < hard_end &&
	       (test_now() < end || barriers < 20 || !all_queued(&f, 100))) {
		for (unsigned i = 0; i < f.nr; i++)
			/* Acquire: pairs with the release in flood_producer(). */
			snap[i] = rcu_atomic_load(&f.queued[i], memory_order_acquire);
		rcu_barrier();
		barriers++;
		for (unsigned i = 0; i < f.nr; i++) {
			after = rcu_atomic_load(&ran[i], memory_order_acquire);
			ck_assert_msg(after >= snap[i],
				      "barrier %ld returned with producer %u's callback"
				      " %ld of %ld not run", barriers, i, after, snap[i]);
		}
	}
	rcu_atomic_store(&f.stop, 1, memory_order_release);
	for (unsigned i = 0; i < f.nr; i++)
		ck_assert_joined(t[i]);
	rcu_barrier();
	for (unsigned i = 0; i < f.nr; i++) {
		ck_assert_msg(rcu_atomic_load(&f.queued[i], memory_order_relaxed) > 0,
			      "producer %u queued nothing", i);
		ck_assert_int_eq(rcu_atomic_load(&ran[i], memory_order_acquire),
				 rcu_atomic_load(&f.queued[i], memory_order_relaxed));
	}
	rcu_unregister_thread();
	ck_assert_int_eq(rcu_atomic_load(&out_of_order, memory_order_relaxed), 0);
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- threads that queue and exit --------------------------------------- */

#define EXIT_ROUNDS 32
#define EXIT_THREADS 2
#define EXIT_ITEMS 100

static _Atomic long exited_ran;

static void exited_cb(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, head));
	/* Release: pairs with the acquire loads in the test below. */
	rcu_atomic_add(&exited_ran, 1, memory_order_release);
}

static void *queue_and_exit(void *p)
{
	(void)p;
	for (long i = 0; i < EXIT_ITEMS; i++)
		call_rcu(&item_new(0, i)->head, exited_cb);
	return NULL;
}

/* Each thread queues on a queue of its own, which outlives it and is
 * handed to a later thread: the callbacks still run, with no barrier to
 * make the worker look (the announcements alone). */
START_TEST(callbacks_of_exited_threads_run_without_a_barrier)
{
	const long total = (long)EXIT_ROUNDS * EXIT_THREADS * EXIT_ITEMS;
	pthread_t t[EXIT_THREADS];
	long ran_now;
	double end;

	rcu_atomic_store(&exited_ran, 0, memory_order_relaxed);
	for (int round = 0; round < EXIT_ROUNDS; round++) {
		for (int i = 0; i < EXIT_THREADS; i++)
			test_start(&t[i], queue_and_exit, NULL);
		for (int i = 0; i < EXIT_THREADS; i++)
			ck_assert_joined(t[i]);
	}
	end = test_now() + CALL_SECONDS;
	/* Acquire: pairs with the release add in exited_cb(). */
	while ((ran_now = rcu_atomic_load(&exited_ran, memory_order_acquire)) < total &&
	       test_now() < end)
		sched_yield();
	ck_assert_msg(ran_now == total, "%ld of %ld callbacks of exited threads ran"
		      " within %.0f s, with no barrier", ran_now, total, CALL_SECONDS);
	rcu_barrier();
	/* Acquire: as above. */
	ran_now = rcu_atomic_load(&exited_ran, memory_order_acquire);
	ck_assert_msg(ran_now == total, "%ld callbacks ran, %ld queued", ran_now, total);
}
END_TEST

/* ---- a callback waits for a grace period ------------------------------ */

struct held {
	struct test_obj *slot;
	struct test_obj *obj;
	_Atomic long inside;
	_Atomic long release;
	_Atomic long cb_ran;
	_Atomic long left;
};

static struct held *held_for_cb;

static void poison_cb(struct rcu_head *head)
{
	struct test_obj *o = caa_container_of(head, struct test_obj, head);

	TEST_CHECK(test_flag_set(&held_for_cb->left),
		   "callback ran while a reader that saw the object was inside");
	/* Poison but keep the memory: the reader checks it after a bug. */
	test_obj_poison(o);
	rcu_atomic_store(&held_for_cb->cb_ran, 1, memory_order_release);
}

static void *held_reader(void *p)
{
	struct held *h = p;
	struct test_obj *o;
	uint64_t seq;

	rcu_register_thread();
	rcu_read_lock();
	o = rcu_dereference(h->slot);
	TEST_CHECK(o != NULL, "nothing published");
	rcu_atomic_store(&h->inside, 1, memory_order_release);
	while (o != NULL && !test_flag_set(&h->release)) {
		TEST_CHECK(test_obj_intact(o, &seq),
			   "object poisoned while the reader held it");
		rcu_cpu_relax();
	}
	/* Release: pairs with the acquire in poison_cb(); a correct grace
	 * period makes the callback run after this anyway. */
	rcu_atomic_store(&h->left, 1, memory_order_release);
	rcu_read_unlock();
	reader_quiescent();
	rcu_unregister_thread();
	return NULL;
}

START_TEST(callback_waits_for_reader_inside_before_call_rcu)
{
	struct held h = { .obj = test_obj_new(7) };
	pthread_t t;

	test_failures_reset();
	held_for_cb = &h;
	rcu_assign_pointer(h.slot, h.obj);
	test_start(&t, held_reader, &h);
	ck_assert(test_wait_until(test_flag_set, &h.inside, CALL_SECONDS));
	rcu_assign_pointer(h.slot, NULL);
	call_rcu(&h.obj->head, poison_cb);
	ck_assert_msg(!test_wait_until(test_flag_set, &h.cb_ran, HOLD_SECONDS),
		      "the callback ran while the reader was inside");
	rcu_atomic_store(&h.release, 1, memory_order_release);
	ck_assert_msg(test_wait_until(test_flag_set, &h.cb_ran, CALL_SECONDS),
		      "the callback did not run after the reader left");
	ck_assert_joined(t);
	rcu_barrier();
	free(h.obj);
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- what a callback may do ------------------------------------------- */

static struct test_obj *cb_slot;
static _Atomic long cb_sections;

static void reading_cb(struct rcu_head *head)
{
	struct test_obj *o;
	uint64_t seq;

	free(caa_container_of(head, struct item, head));
	rcu_read_lock();
	TEST_CHECK(rcu_read_ongoing(), "callback: rcu_read_lock took no section");
	o = rcu_dereference(cb_slot);
	TEST_CHECK(o != NULL && test_obj_intact(o, &seq) && seq == 9,
		   "callback: published object not seen intact");
	rcu_read_unlock();
	rcu_atomic_add(&cb_sections, 1, memory_order_release);
}

START_TEST(callbacks_may_take_read_side_sections)
{
	test_failures_reset();
	rcu_atomic_store(&cb_sections, 0, memory_order_relaxed);
	rcu_assign_pointer(cb_slot, test_obj_new(9));
	for (int i = 0; i < 10; i++)
		call_rcu(&item_new(0, i)->head, reading_cb);
	rcu_barrier();
	ck_assert_int_eq(rcu_atomic_load(&cb_sections, memory_order_acquire), 10);
	test_obj_free(cb_slot);
	cb_slot = NULL;
	ck_assert_no_worker_failures();
}
END_TEST

#define REQUEUES 100
static _Atomic long requeue_runs;
static struct rcu_head requeue_head;

static void requeue_cb(struct rcu_head *head)
{
	long n = rcu_atomic_add(&requeue_runs, 1, memory_order_release) + 1;

	if (n < REQUEUES)
		call_rcu(head, requeue_cb);
}

START_TEST(call_rcu_from_a_callback_queues_it_again)
{
	struct test_count_goal goal = { &requeue_runs, REQUEUES };

	rcu_atomic_store(&requeue_runs, 0, memory_order_relaxed);
	call_rcu(&requeue_head, requeue_cb);
	ck_assert_msg(test_wait_until(test_count_reached, &goal, CALL_SECONDS),
		      "a callback queued from a callback: %ld of %d runs",
		      rcu_atomic_load(&requeue_runs, memory_order_relaxed), REQUEUES);
	rcu_barrier();
	ck_assert_int_eq(rcu_atomic_load(&requeue_runs, memory_order_acquire), REQUEUES);
}
END_TEST

/* ---- rcu_barrier from a callback -------------------------------------- */

static _Atomic long nested_barrier_returned;

static void barrier_cb(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, head));
	rcu_barrier();
	rcu_atomic_store(&nested_barrier_returned, 1, memory_order_release);
}

static void barrier_in_callback_child(void *arg)
{
	(void)arg;
	call_rcu(&item_new(0, 0)->head, barrier_cb);
	if (!test_wait_until(test_flag_set, &nested_barrier_returned, CALL_SECONDS)) {
		fputs("child: rcu_barrier in a callback did not return\n", stderr);
		_exit(3);
	}
	_exit(0);
}

START_TEST(barrier_in_a_callback_prints_and_returns)
{
	struct test_child child;

	test_run_child(barrier_in_callback_child, NULL, 2 * CALL_SECONDS, &child);
	ck_assert_msg(child.finished && WIFEXITED(child.status) &&
		      WEXITSTATUS(child.status) == 0,
		      "child: %s; stderr: %s", test_child_describe(&child),
		      test_child_err_tail(&child));
	ck_assert_msg(strstr(child.err, "rcu_barrier") != NULL,
		      "no message naming rcu_barrier; stderr: \"%s\"",
		      test_child_err_tail(&child));
}
END_TEST

static Suite *callbacks_suite(void)
{
	Suite *s = suite_create("rcu-callbacks-" TEST_FLAVOUR_NAME);

	/* First, while this process has one thread: a multi-threaded fork
	 * is what ThreadSanitizer cannot follow. */
	TEST_ADD(s, barrier_in_a_callback_prints_and_returns, 20);
	TEST_ADD(s, call_rcu_passes_its_own_head_to_the_callback, 10);
	TEST_ADD(s, barrier_returns_with_nothing_queued, 10);
	TEST_ADD(s, callbacks_of_one_thread_run_in_queue_order, 20);
	TEST_ADD(s, barrier_waits_for_every_earlier_callback, 20);
	TEST_ADD(s, callbacks_of_exited_threads_run_without_a_barrier, 20);
	TEST_ADD(s, callback_waits_for_reader_inside_before_call_rcu, 10);
	TEST_ADD(s, callbacks_may_take_read_side_sections, 10);
	TEST_ADD(s, call_rcu_from_a_callback_queues_it_again, 10);
	return s;
}

int main(void)
{
	return test_main(callbacks_suite());
}
