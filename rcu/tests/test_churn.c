/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_churn.c - thread churn: short-lived threads register, read,
 * queue a callback, unregister and exit in a loop, while other threads run
 * synchronize_rcu back to back and one replaces the published object (and
 * frees the old one after a grace period). Bounded by a fixed number of
 * threads; every count is checked at the end.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <string.h>

#define CHURNERS 3
#define THREADS_PER_CHURNER 120
#define READS_PER_THREAD 50
#define SYNCERS 2
#define JOIN_SECONDS 20.0

static struct test_obj *slot;
static _Atomic long stop;

static struct {
	_Atomic long threads_done;
	_Atomic long reads;
	_Atomic long bad_reads;
	_Atomic long queued;
	_Atomic long ran;
	_Atomic long syncs;
	_Atomic long replacements;
	_Atomic long double_registrations;
} ct;

static void churn_cb(struct rcu_head *head)
{
	free(head);
	rcu_atomic_add(&ct.ran, 1, memory_order_relaxed);
}

static void read_some(int n)
{
	uint64_t seq;

	for (int i = 0; i < n; i++) {
		struct test_obj *o;

		rcu_read_lock();
		o = rcu_dereference(slot);
		if (!test_obj_intact(o, &seq)) {
			rcu_atomic_add(&ct.bad_reads, 1, memory_order_relaxed);
			TEST_CHECK(false, "short-lived reader saw a freed object");
		}
		rcu_read_unlock();
		reader_quiescent();
		rcu_atomic_add(&ct.reads, 1, memory_order_relaxed);
	}
}

static void *short_lived(void *arg)
{
	uintptr_t n = (uintptr_t)arg;
	struct rcu_head *head = malloc(sizeof(*head));

	if (head == NULL)
		abort();
	rcu_register_thread();
	read_some(READS_PER_THREAD);
	if (n % 3 == 0) {
		/* Leave and come back within one thread's life. */
		rcu_unregister_thread();
		rcu_register_thread();
		read_some(1);
		rcu_atomic_add(&ct.double_registrations, 1, memory_order_relaxed);
	}
	/* Queued by a thread about to exit: must still run. */
	call_rcu(head, churn_cb);
	rcu_atomic_add(&ct.queued, 1, memory_order_relaxed);
	rcu_unregister_thread();
	rcu_atomic_add(&ct.threads_done, 1, memory_order_relaxed);
	return NULL;
}

static void *churner(void *arg)
{
	(void)arg;
	for (uintptr_t i = 0; i < THREADS_PER_CHURNER; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, short_lived, (void *)i) != 0) {
			TEST_CHECK(false, "pthread_create failed");
			break;
		}
		if (!test_join_within(t, JOIN_SECONDS)) {
			TEST_CHECK(false, "a short-lived reader hung");
			break;
		}
	}
	return NULL;
}

static void *syncer(void *arg)
{
	(void)arg;
	while (!test_stopping(&stop)) {
		synchronize_rcu();
		rcu_atomic_add(&ct.syncs, 1, memory_order_relaxed);
	}
	return NULL;
}

static void *replacer(void *arg)
{
	(void)arg;
	for (uint64_t seq = 2; !test_stopping(&stop); seq++) {
		struct test_obj *old = rcu_xchg_pointer(&slot, test_obj_new(seq));

		synchronize_rcu();
		test_obj_free(old);
		rcu_atomic_add(&ct.replacements, 1, memory_order_relaxed);
	}
	return NULL;
}

/* Both kinds of grace-period loop have completed one. */
static bool syncs_and_replacements_done(void *arg)
{
	(void)arg;
	return test_count(&ct.syncs) > 0 && test_count(&ct.replacements) > 0;
}

START_TEST(threads_register_read_and_exit_while_grace_periods_run)
{
	pthread_t churners[CHURNERS], syncers[SYNCERS], repl;
	long expected = (long)CHURNERS * THREADS_PER_CHURNER;

	test_failures_reset();
	memset(&ct, 0, sizeof(ct));
	rcu_atomic_store(&stop, 0, memory_order_relaxed);
	slot = test_obj_new(1);
	for (int i = 0; i < SYNCERS; i++)
		test_start(&syncers[i], syncer, NULL);
	test_start(&repl, replacer, NULL);
	for (int i = 0; i < CHURNERS; i++)
		test_start(&churners[i], churner, NULL);
	for (int i = 0; i < CHURNERS; i++)
		ck_assert_msg(test_join_within(churners[i], 2 * JOIN_SECONDS),
			      "churner %d did not finish", i);
	/* The churn can end before a loop was scheduled (a loaded machine:
	 * syncs 0 once in CI); a synchronize_rcu() that waits for the lock
	 * while the replacer's grace periods cover it returns (gp.c). */
	ck_assert_msg(test_wait_until(syncs_and_replacements_done, NULL, JOIN_SECONDS),
		      "syncs %ld, replacements %ld", test_count(&ct.syncs),
		      test_count(&ct.replacements));
	test_stop(&stop);
	for (int i = 0; i < SYNCERS; i++)
		ck_assert_msg(test_join_within(syncers[i], JOIN_SECONDS),
			      "syncer %d hung", i);
	ck_assert_msg(test_join_within(repl, JOIN_SECONDS), "replacer hung");
	rcu_barrier();

	printf("churn %s: threads %ld, reads %ld, re-registrations %ld,"
	       " syncs %ld, replacements %ld, callbacks %ld/%ld\n",
	       TEST_FLAVOUR_NAME, test_count(&ct.threads_done), test_count(&ct.reads),
	       test_count(&ct.double_registrations), test_count(&ct.syncs),
	       test_count(&ct.replacements), test_count(&ct.ran), test_count(&ct.queued));
	fflush(stdout);
	ck_assert_no_worker_failures();
	ck_assert_int_eq(test_count(&ct.bad_reads), 0);
	ck_assert_int_eq(test_count(&ct.threads_done), expected);
	ck_assert_int_eq(test_count(&ct.reads), expected * READS_PER_THREAD +
			 test_count(&ct.double_registrations));
	ck_assert_int_eq(test_count(&ct.double_registrations), CHURNERS * (THREADS_PER_CHURNER / 3));
	ck_assert_int_eq(test_count(&ct.queued), expected);
	ck_assert_msg(test_count(&ct.ran) == expected,
		      "rcu_barrier returned with %ld of %ld callbacks run (queued"
		      " by threads that have exited)", test_count(&ct.ran), expected);
	ck_assert_msg(test_count(&ct.syncs) > 0, "no synchronize_rcu completed");
	ck_assert_msg(test_count(&ct.replacements) > 0, "no replacement");
	test_obj_free(slot);
	slot = NULL;
}
END_TEST

int main(void)
{
	return TEST_MAIN_ONE("rcu-churn-" TEST_FLAVOUR_NAME,
			     threads_register_read_and_exit_while_grace_periods_run, 60);
}
