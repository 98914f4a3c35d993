/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_debug.c - the misuse checks of RCU_DEBUG_CHECKS builds.
 * Each misuse runs in a forked child with stderr on a pipe; the child must
 * die of SIGABRT and its stderr must hold "rcu: <call>:" naming the call.
 * A correct sequence in a child is the control: exit 0, nothing on stderr.
 *
 * Without debug checks the binary exits 77 (meson: skipped). rcu_barrier
 * called from a callback (a message, no abort) is tested in
 * test_callbacks.c, since it holds in every build.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#define CHILD_SECONDS 5.0
#define EXIT_SKIPPED 77

static void expect_abort(void (*misuse)(void *arg), const char *call)
{
	struct test_child child;
	char want[128];

	snprintf(want, sizeof(want), "rcu: %s:", call);
	test_run_child(misuse, NULL, CHILD_SECONDS, &child);
	ck_assert_msg(child.finished && WIFSIGNALED(child.status) &&
		      WTERMSIG(child.status) == SIGABRT,
		      "misuse of %s: child %s, not killed by SIGABRT; stderr: \"%s\"",
		      call, test_child_describe(&child),
		      test_child_err_tail(&child));
	ck_assert_msg(strstr(child.err, want) != NULL,
		      "misuse of %s: stderr lacks \"%s\": \"%s\"", call, want,
		      child.err);
}

static void correct_use(void *arg)
{
	struct test_obj *p = NULL;

	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_lock();
	(void)rcu_dereference(p);
	rcu_read_unlock();
	rcu_read_unlock();
	reader_quiescent();
	synchronize_rcu();
	rcu_barrier();
	reader_offline();
	synchronize_rcu();
	reader_online();
	rcu_unregister_thread();
	synchronize_rcu();
}

START_TEST(correct_use_neither_aborts_nor_prints)
{
	struct test_child child;

	test_run_child(correct_use, NULL, CHILD_SECONDS, &child);
	ck_assert_msg(child.finished && WIFEXITED(child.status) &&
		      WEXITSTATUS(child.status) == 0,
		      "child %s; stderr: \"%s\"", test_child_describe(&child),
		      test_child_err_tail(&child));
	ck_assert_msg(child.err[0] == '\0', "stderr: \"%s\"",
		      test_child_err_tail(&child));
}
END_TEST

static void sync_in_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	synchronize_rcu();
}

START_TEST(synchronize_rcu_inside_a_section_aborts)
{
	expect_abort(sync_in_section, "synchronize_rcu");
}
END_TEST

static void barrier_in_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_barrier();
}

START_TEST(rcu_barrier_inside_a_section_aborts)
{
	expect_abort(barrier_in_section, "rcu_barrier");
}
END_TEST

static void lock_unregistered(void *arg)
{
	(void)arg;
	rcu_read_lock();
	rcu_read_unlock();
}

START_TEST(read_lock_on_unregistered_thread_aborts)
{
	expect_abort(lock_unregistered, "rcu_read_lock");
}
END_TEST

static void unbalanced_unlock(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_unlock();
	rcu_read_unlock();
}

START_TEST(unbalanced_read_unlock_aborts)
{
	expect_abort(unbalanced_unlock, "rcu_read_unlock");
}
END_TEST

static void unregister_in_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_unregister_thread();
}

START_TEST(unregister_inside_a_section_aborts)
{
	expect_abort(unregister_in_section, "rcu_unregister_thread");
}
END_TEST

static void register_twice(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_register_thread();
}

START_TEST(registering_twice_aborts)
{
	expect_abort(register_twice, "rcu_register_thread");
}
END_TEST

/* QSBR only: the quiescent-state calls. */
static void quiescent_in_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	reader_quiescent();
}

START_TEST(quiescent_state_inside_a_section_aborts)
{
	expect_abort(quiescent_in_section, "rcu_quiescent_state");
}
END_TEST

static void quiescent_unregistered(void *arg)
{
	(void)arg;
	reader_quiescent();
}

START_TEST(quiescent_state_on_unregistered_thread_aborts)
{
	expect_abort(quiescent_unregistered, "rcu_quiescent_state");
}
END_TEST

static void offline_in_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	reader_offline();
}

START_TEST(thread_offline_inside_a_section_aborts)
{
	expect_abort(offline_in_section, "rcu_thread_offline");
}
END_TEST

static void online_unregistered(void *arg)
{
	(void)arg;
	reader_online();
}

START_TEST(thread_online_on_unregistered_thread_aborts)
{
	expect_abort(online_unregistered, "rcu_thread_online");
}
END_TEST

static void noop_cb(struct rcu_head *head)
{
	(void)head;
}

static void retire_unregistered(void *arg)
{
	static struct rcu_head head;

	(void)arg;
	rcu_retire(&head, noop_cb);
}

START_TEST(retire_on_unregistered_thread_aborts)
{
	expect_abort(retire_unregistered, "rcu_retire");
}
END_TEST

static void retire_barrier_in_section(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	rcu_retire_barrier();
}

START_TEST(retire_barrier_inside_a_section_aborts)
{
	expect_abort(retire_barrier_in_section, "rcu_retire_barrier");
}
END_TEST

static Suite *debug_suite(void)
{
	Suite *s = suite_create("rcu-debug-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, correct_use_neither_aborts_nor_prints, 10);
	TEST_ADD(s, synchronize_rcu_inside_a_section_aborts, 10);
	TEST_ADD(s, rcu_barrier_inside_a_section_aborts, 10);
	/* bp: a read lock registers the thread, and registering again is
	 * allowed (rcu/bp.h). */
	if (!TEST_IS_BP)
		TEST_ADD(s, read_lock_on_unregistered_thread_aborts, 10);
	TEST_ADD(s, unbalanced_read_unlock_aborts, 10);
	TEST_ADD(s, unregister_inside_a_section_aborts, 10);
	if (!TEST_IS_BP)
		TEST_ADD(s, registering_twice_aborts, 10);
	/* bp: an unregistered thread's retires go to the call_rcu worker. */
	if (!TEST_IS_BP)
		TEST_ADD(s, retire_on_unregistered_thread_aborts, 10);
	TEST_ADD(s, retire_barrier_inside_a_section_aborts, 10);
	if (TEST_IS_QSBR) {
		TEST_ADD(s, quiescent_state_inside_a_section_aborts, 10);
		TEST_ADD(s, quiescent_state_on_unregistered_thread_aborts, 10);
		TEST_ADD(s, thread_offline_inside_a_section_aborts, 10);
		TEST_ADD(s, thread_online_on_unregistered_thread_aborts, 10);
	}
	return s;
}

int main(void)
{
	if (!TEST_DEBUG_CHECKS) {
		puts("rcu debug checks are off in this build: skipped");
		return EXIT_SKIPPED;
	}
	return test_main(debug_suite());
}
