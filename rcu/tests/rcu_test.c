/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/rcu_test.c - the shared helpers of rcu_test.h, built once per
 * flavour with each test binary.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

/* ---- test objects ------------------------------------------------------ */

static uint64_t obj_payload_word(uint64_t seq, unsigned i)
{
	return (seq * 0x9e3779b97f4a7c15ull) ^ (i + 1);
}

void test_obj_fill(struct test_obj *obj, uint64_t seq)
{
	rcu_atomic_store(&obj->seq, seq, memory_order_relaxed);
	for (unsigned i = 0; i < TEST_PAYLOAD_WORDS; i++)
		rcu_atomic_store(&obj->payload[i], obj_payload_word(seq, i),
				 memory_order_relaxed);
	rcu_atomic_store(&obj->retired, TEST_NOT_RETIRED, memory_order_relaxed);
	rcu_atomic_store(&obj->magic, TEST_MAGIC_LIVE, memory_order_relaxed);
}

void test_obj_poison(struct test_obj *obj)
{
	rcu_atomic_store(&obj->magic, TEST_MAGIC_POISON, memory_order_relaxed);
	rcu_atomic_store(&obj->seq, TEST_POISON_WORD, memory_order_relaxed);
	for (unsigned i = 0; i < TEST_PAYLOAD_WORDS; i++)
		rcu_atomic_store(&obj->payload[i], TEST_POISON_WORD,
				 memory_order_relaxed);
}

bool test_obj_intact(struct test_obj *obj, uint64_t *seq)
{
	uint64_t s;

	if (rcu_atomic_load(&obj->magic, memory_order_relaxed) != TEST_MAGIC_LIVE)
		return false;
	s = rcu_atomic_load(&obj->seq, memory_order_relaxed);
	for (unsigned i = 0; i < TEST_PAYLOAD_WORDS; i++)
		if (rcu_atomic_load(&obj->payload[i], memory_order_relaxed) !=
		    obj_payload_word(s, i))
			return false;
	if (rcu_atomic_load(&obj->magic, memory_order_relaxed) != TEST_MAGIC_LIVE)
		return false;
	*seq = s;
	return true;
}

struct test_obj *test_obj_new(uint64_t seq)
{
	struct test_obj *obj = malloc(sizeof(*obj));

	if (obj == NULL) {
		fputs("test: out of memory\n", stderr);
		abort();
	}
	test_obj_fill(obj, seq);
	return obj;
}

void test_obj_free(struct test_obj *obj)
{
	test_obj_poison(obj);
	free(obj);
}

void test_obj_free_cb(struct rcu_head *head)
{
	test_obj_free(caa_container_of(head, struct test_obj, head));
}

/* ---- failures ---------------------------------------------------------- */

static _Atomic long failures;

void test_note_failure(const char *file, int line, const char *fmt, ...)
{
	long n = rcu_atomic_add(&failures, 1, memory_order_relaxed);
	va_list ap;

	if (n >= 10)
		return;
	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

long test_failures(void)
{
	return rcu_atomic_load(&failures, memory_order_relaxed);
}

void test_failures_reset(void)
{
	rcu_atomic_store(&failures, 0, memory_order_relaxed);
}

/* ---- time, waits, threads ---------------------------------------------- */

static void pause_briefly(unsigned round)
{
	struct timespec ts = { 0, 50 * 1000 };

	if (round < 100) {
		rcu_cpu_relax();
		return;
	}
	nanosleep(&ts, NULL);
}

bool test_spin_until(bool (*cond)(void *arg), void *arg, double seconds)
{
	double deadline = test_now() + seconds;

	for (unsigned round = 0; !cond(arg); round++) {
		if (test_now() > deadline)
			return cond(arg);
		pause_briefly(round);
	}
	return true;
}

bool test_wait_until(bool (*cond)(void *arg), void *arg, double seconds)
{
	bool was_online = reader_pause();
	bool met = test_spin_until(cond, arg, seconds);

	reader_resume(was_online);
	return met;
}

bool test_flag_set(void *flag)
{
	/* Acquire: pairs with the release store that raised the flag. */
	return rcu_atomic_load((_Atomic long *)flag, memory_order_acquire) != 0;
}

bool test_count_reached(void *goal)
{
	struct test_count_goal *g = goal;

	/* Acquire: pairs with the release increments of the count. */
	return rcu_atomic_load(g->count, memory_order_acquire) >= g->goal;
}

void test_spin(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		rcu_compiler_barrier();
}

void *test_held_reader_run(void *reader)
{
	struct test_held_reader *r = reader;

	rcu_register_thread();
	rcu_read_lock();
	/* Release: pairs with the acquire in test_flag_set(). */
	rcu_atomic_store(&r->inside, 1, memory_order_release);
	TEST_CHECK(test_spin_until(test_flag_set, &r->release, TEST_HOLD_SECONDS),
		   "held reader never released");
	/* Still inside: what waits for us may end as soon as we leave.
	 * Release: pairs with the acquire in test_flag_set(). */
	rcu_atomic_store(&r->left, 1, memory_order_release);
	rcu_read_unlock();
	reader_quiescent();
	rcu_unregister_thread();
	return NULL;
}

void test_hold_until(_Atomic long *release, struct test_obj *obj,
		     _Atomic long *synced)
{
	uint64_t seq;

	while (!test_flag_set(release)) {
		TEST_CHECK(test_obj_intact(obj, &seq),
			   "object freed while a reader held it");
		TEST_CHECK(!test_flag_set(synced),
			   "synchronize_rcu returned inside the section");
		rcu_cpu_relax();
	}
}

void *test_synchronize_then_flag(void *synced)
{
	synchronize_rcu();
	/* Release: pairs with the acquire in test_flag_set(). */
	rcu_atomic_store((_Atomic long *)synced, 1, memory_order_release);
	return NULL;
}

void test_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(thread, NULL, fn, arg);

	ck_assert_msg(err == 0, "pthread_create: %s", strerror(err));
}

bool test_join_within(pthread_t thread, double seconds)
{
	bool was_online = reader_pause();
	struct timespec deadline;
	int err;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += (time_t)seconds;
	deadline.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	do
		err = pthread_timedjoin_np(thread, NULL, &deadline);
	while (err == EINTR);
	reader_resume(was_online);
	if (err != 0 && err != ETIMEDOUT)
		fprintf(stderr, "test: pthread_timedjoin_np: %s\n", strerror(err));
	return err == 0;
}

struct bounded_call {
	void (*fn)(void *arg);
	void *arg;
};

static void *bounded_call_run(void *p)
{
	struct bounded_call *c = p;

	c->fn(c->arg);
	return NULL;
}

bool test_call_within(void (*fn)(void *arg), void *arg, double seconds)
{
	/* Static: a call that hangs keeps using it after we return. */
	static struct bounded_call calls[64];
	static _Atomic unsigned next_call;
	struct bounded_call *c = &calls[rcu_atomic_add(&next_call, 1,
				 memory_order_relaxed) % 64];
	pthread_t thread;

	c->fn = fn;
	c->arg = arg;
	test_start(&thread, bounded_call_run, c);
	return test_join_within(thread, seconds);
}

void test_run_child(void (*fn)(void *arg), void *arg, double seconds,
		    struct test_child *child)
{
	double deadline = test_now() + seconds;
	int err_fd;
	pid_t pid = test_child_start(fn, arg, &err_fd);
	bool was_online;

	ck_assert_msg(pid > 0, "pipe or fork: %s", strerror(errno));
	was_online = reader_pause();
	test_child_finish(pid, err_fd, deadline, child);
	reader_resume(was_online);
}

/* ---- runner ------------------------------------------------------------ */

void test_add(Suite *s, const char *name, const TTest *test, double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, timeout);
	tcase_add_test(tc, test);
	suite_add_tcase(s, tc);
}

int test_main(Suite *suite)
{
	SRunner *sr = srunner_create(suite);
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int test_main_one(const char *suite_name, const char *name, const TTest *test, double timeout)
{
	Suite *s = suite_create(suite_name);

	test_add(s, name, test, timeout);
	return test_main(s);
}
