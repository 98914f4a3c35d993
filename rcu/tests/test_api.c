/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_api.c - unit tests of every call of the flavour header:
 * registration, the read side and rcu_read_ongoing, synchronize_rcu from
 * every kind of thread and what it waits for, the QSBR quiescent-state
 * calls, the pointer macros, caa_container_of, and the exported flavour
 * object's ops.
 */
#define _GNU_SOURCE
#include "rcu_test.h"

#include <string.h>

#define CALL_SECONDS 5.0
/* How long a grace period that must not end is watched before the reader
 * lets it end: long enough that a broken wait would have returned. */
#define HOLD_SECONDS 0.1

/* ---- registration and the read side ----------------------------------- */

static void register_cycle(void *arg)
{
	(void)arg;
	TEST_CHECK(!rcu_read_ongoing(), "unregistered thread reports a section");
	rcu_register_thread();
	/* QSBR: a registered thread starts online, and online is ongoing. */
	TEST_CHECK(!!rcu_read_ongoing() == TEST_IS_QSBR,
		   "after register: rcu_read_ongoing() = %d", rcu_read_ongoing());
	rcu_read_lock();
	TEST_CHECK(rcu_read_ongoing(), "inside a section: not ongoing");
	rcu_read_unlock();
	rcu_unregister_thread();
	TEST_CHECK(!rcu_read_ongoing(), "after unregister: still ongoing");
}

START_TEST(register_then_unregister_round_trips)
{
	test_failures_reset();
	ck_assert_msg(test_call_within(register_cycle, NULL, CALL_SECONDS),
		      "register/unregister hung");
	ck_assert_no_worker_failures();
}
END_TEST

static void register_many_times(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++) {
		rcu_register_thread();
		rcu_read_lock();
		TEST_CHECK(rcu_read_ongoing(), "cycle %d: not ongoing", i);
		rcu_read_unlock();
		reader_quiescent();
		rcu_unregister_thread();
		if (i % 100 == 0)
			synchronize_rcu();
	}
}

START_TEST(register_unregister_repeats_in_one_thread)
{
	test_failures_reset();
	ck_assert_msg(test_call_within(register_many_times, NULL, CALL_SECONDS),
		      "1000 register/unregister cycles hung");
	ck_assert_no_worker_failures();
}
END_TEST

static void nesting(void *arg)
{
	(void)arg;
	rcu_register_thread();
	reader_offline();
	/* memb: outside every section; QSBR: offline. */
	TEST_CHECK(!rcu_read_ongoing(), "idle: ongoing");
	reader_online();
	rcu_read_lock();
	TEST_CHECK(rcu_read_ongoing(), "depth 1: not ongoing");
	rcu_read_lock();
	TEST_CHECK(rcu_read_ongoing(), "depth 2: not ongoing");
	rcu_read_lock();
	rcu_read_unlock();
	TEST_CHECK(rcu_read_ongoing(), "back to depth 2: not ongoing");
	rcu_read_unlock();
	TEST_CHECK(rcu_read_ongoing(), "back to depth 1: not ongoing");
	rcu_read_unlock();
	/* memb: the outermost unlock ends the section; QSBR: still online. */
	TEST_CHECK(!!rcu_read_ongoing() == TEST_IS_QSBR,
		   "after the outermost unlock: ongoing = %d", rcu_read_ongoing());
	rcu_unregister_thread();
}

START_TEST(read_lock_nests_and_ongoing_follows_outermost)
{
	test_failures_reset();
	ck_assert_msg(test_call_within(nesting, NULL, CALL_SECONDS), "hung");
	ck_assert_no_worker_failures();
}
END_TEST

static void unregistered_ongoing(void *arg)
{
	(void)arg;
	TEST_CHECK(!rcu_read_ongoing(), "fresh thread: ongoing");
}

START_TEST(read_ongoing_is_zero_on_unregistered_thread)
{
	test_failures_reset();
	ck_assert_msg(test_call_within(unregistered_ongoing, NULL, CALL_SECONDS),
		      "hung");
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- synchronize_rcu from every kind of thread ------------------------ */

static void sync_unregistered(void *arg)
{
	(void)arg;
	synchronize_rcu();
	synchronize_rcu();
}

START_TEST(synchronize_rcu_returns_on_unregistered_thread)
{
	ck_assert_msg(test_call_within(sync_unregistered, NULL, CALL_SECONDS),
		      "synchronize_rcu on an unregistered thread hung");
}
END_TEST

static void sync_registered(void *arg)
{
	(void)arg;
	rcu_register_thread();
	/* QSBR: online here; synchronize_rcu must not wait for itself. */
	synchronize_rcu();
	TEST_CHECK(!!rcu_read_ongoing() == TEST_IS_QSBR,
		   "synchronize_rcu changed the online state: ongoing = %d",
		   rcu_read_ongoing());
	synchronize_rcu();
	rcu_unregister_thread();
}

START_TEST(synchronize_rcu_returns_on_registered_thread)
{
	test_failures_reset();
	ck_assert_msg(test_call_within(sync_registered, NULL, CALL_SECONDS),
		      "synchronize_rcu on a registered (QSBR: online) thread hung");
	ck_assert_no_worker_failures();
}
END_TEST

static void sync_offline(void *arg)
{
	(void)arg;
	rcu_register_thread();
	reader_offline();
	synchronize_rcu();
	TEST_CHECK(!rcu_read_ongoing(), "synchronize_rcu put an offline thread online");
	reader_online();
	rcu_unregister_thread();
}

START_TEST(synchronize_rcu_returns_on_offline_thread)
{
	test_failures_reset();
	ck_assert_msg(test_call_within(sync_offline, NULL, CALL_SECONDS),
		      "synchronize_rcu on an offline thread hung");
	ck_assert_no_worker_failures();
}
END_TEST

static void sync_many(void *arg)
{
	(void)arg;
	for (int i = 0; i < 200; i++)
		synchronize_rcu();
}

static void *sync_many_thread(void *arg)
{
	sync_many(arg);
	return NULL;
}

START_TEST(concurrent_synchronize_rcu_callers_all_return)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		test_start(&t[i], sync_many_thread, NULL);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(test_join_within(t[i], 2 * CALL_SECONDS),
			      "4 threads x 200 synchronize_rcu: thread %d hung", i);
}
END_TEST

/* ---- what a grace period waits for ------------------------------------ */

enum hold_how {
	HOLD_SECTION,		/* rcu_read_lock (QSBR: online since register) */
	HOLD_AFTER_ONLINE,	/* QSBR: offline, then online, then hold */
	HOLD_NOTHING,		/* registered and idle (QSBR: offline) */
};

struct holder {
	enum hold_how how;
	struct test_obj *obj;
	_Atomic long inside;
	_Atomic long release;
	_Atomic long synced;
	_Atomic long left;
};

static void *holder_run(void *p)
{
	struct holder *h = p;

	rcu_register_thread();
	if (h->how == HOLD_AFTER_ONLINE) {
		reader_offline();
		reader_online();
	}
	if (h->how == HOLD_NOTHING)
		reader_offline();
	else
		rcu_read_lock();
	/* Release: pairs with the acquire in test_flag_set(). */
	rcu_atomic_store(&h->inside, 1, memory_order_release);
	if (h->how != HOLD_NOTHING) {
		/* Held: the grace period begun after this must not free it. */
		test_hold_until(&h->release, h->obj, &h->synced);
		/* Still inside: a grace period may end as soon as we leave. */
		rcu_atomic_store(&h->left, 1, memory_order_release);
		rcu_read_unlock();
		reader_quiescent();
	} else {
		/* Blocks for as long as it likes: it must not matter. */
		TEST_CHECK(test_spin_until(test_flag_set, &h->release, CALL_SECONDS),
			   "never released");
		reader_online();
		rcu_atomic_store(&h->left, 1, memory_order_release);
	}
	rcu_unregister_thread();
	return NULL;
}

static void check_grace_period_waits(enum hold_how how)
{
	struct holder h = { .how = how, .obj = test_obj_new(1) };
	pthread_t reader, syncer;

	test_failures_reset();
	test_start(&reader, holder_run, &h);
	ck_assert_msg(test_wait_until(test_flag_set, &h.inside, CALL_SECONDS),
		      "reader never entered its section");
	test_start(&syncer, test_synchronize_then_flag, &h.synced);
	ck_assert_msg(!test_wait_until(test_flag_set, &h.synced, HOLD_SECONDS),
		      "synchronize_rcu returned while a reader was inside");
	rcu_atomic_store(&h.release, 1, memory_order_release);
	ck_assert_msg(test_wait_until(test_flag_set, &h.synced, CALL_SECONDS),
		      "synchronize_rcu did not return after the reader left");
	ck_assert_msg(test_flag_set(&h.left), "synchronize_rcu returned before the reader left");
	ck_assert_joined(syncer);
	ck_assert_joined(reader);
	test_obj_free(h.obj);
	ck_assert_no_worker_failures();
}

START_TEST(synchronize_rcu_waits_for_section_begun_before_it)
{
	check_grace_period_waits(HOLD_SECTION);
}
END_TEST

START_TEST(synchronize_rcu_waits_for_thread_back_online)
{
	check_grace_period_waits(HOLD_AFTER_ONLINE);
}
END_TEST

START_TEST(idle_registered_thread_does_not_delay_synchronize_rcu)
{
	struct holder h = { .how = HOLD_NOTHING, .obj = test_obj_new(1) };
	pthread_t reader;

	test_failures_reset();
	test_start(&reader, holder_run, &h);
	ck_assert_msg(test_wait_until(test_flag_set, &h.inside, CALL_SECONDS),
		      "reader never started");
	ck_assert_msg(test_call_within(sync_unregistered, NULL, CALL_SECONDS),
		      "synchronize_rcu waited for a thread outside any section"
		      " (QSBR: offline)");
	rcu_atomic_store(&h.release, 1, memory_order_release);
	ck_assert_joined(reader);
	test_obj_free(h.obj);
	ck_assert_no_worker_failures();
}
END_TEST

struct announcer {
	_Atomic long started;
	_Atomic long stop;
	_Atomic long announced;
};

static void *announcer_run(void *p)
{
	struct announcer *a = p;

	rcu_register_thread();
	rcu_atomic_store(&a->started, 1, memory_order_release);
	while (!test_flag_set(&a->stop)) {
		reader_quiescent();
		rcu_atomic_add(&a->announced, 1, memory_order_relaxed);
		rcu_cpu_relax();
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(quiescent_states_let_synchronize_rcu_finish)
{
	struct announcer a = { 0 };
	pthread_t t;

	test_start(&t, announcer_run, &a);
	ck_assert(test_wait_until(test_flag_set, &a.started, CALL_SECONDS));
	ck_assert_msg(test_call_within(sync_many, NULL, CALL_SECONDS),
		      "200 grace periods with an online, announcing reader hung");
	rcu_atomic_store(&a.stop, 1, memory_order_release);
	ck_assert_joined(t);
	ck_assert(rcu_atomic_load(&a.announced, memory_order_relaxed) > 0);
}
END_TEST

/* ---- pointers ---------------------------------------------------------- */

static struct test_obj *shared_ptr;
static int side_effects;

static struct test_obj *counted(struct test_obj *p)
{
	side_effects++;
	return p;
}

START_TEST(rcu_dereference_returns_what_rcu_assign_pointer_stored)
{
	struct test_obj a, b;

	rcu_assign_pointer(shared_ptr, &a);
	ck_assert_ptr_eq(rcu_dereference(shared_ptr), &a);
	side_effects = 0;
	rcu_assign_pointer(shared_ptr, counted(&b));
	ck_assert_int_eq(side_effects, 1);
	ck_assert_ptr_eq(rcu_dereference(shared_ptr), &b);
	rcu_assign_pointer(shared_ptr, NULL);
	ck_assert_ptr_null(rcu_dereference(shared_ptr));
}
END_TEST

START_TEST(rcu_xchg_pointer_returns_old_and_stores_new)
{
	struct test_obj a, b;
	struct test_obj *old;

	shared_ptr = &a;
	old = rcu_xchg_pointer(&shared_ptr, &b);
	ck_assert_ptr_eq(old, &a);
	ck_assert_ptr_eq(rcu_dereference(shared_ptr), &b);
	old = rcu_xchg_pointer(&shared_ptr, NULL);
	ck_assert_ptr_eq(old, &b);
	ck_assert_ptr_null(shared_ptr);
}
END_TEST

START_TEST(rcu_cmpxchg_pointer_swaps_only_when_expected)
{
	struct test_obj a, b, c;
	struct test_obj *seen;

	shared_ptr = &a;
	seen = rcu_cmpxchg_pointer(&shared_ptr, &a, &b);
	ck_assert_msg(seen == &a, "success must return the old value");
	ck_assert_ptr_eq(rcu_dereference(shared_ptr), &b);
	seen = rcu_cmpxchg_pointer(&shared_ptr, &a, &c);
	ck_assert_msg(seen == &b, "failure must return the current value");
	ck_assert_msg(rcu_dereference(shared_ptr) == &b, "failure must not store");
	seen = rcu_cmpxchg_pointer(&shared_ptr, &b, NULL);
	ck_assert_ptr_eq(seen, &b);
	ck_assert_ptr_null(shared_ptr);
}
END_TEST

/* A pointer published by one thread is seen with its contents by another. */
struct publish {
	struct test_obj *slot;
	_Atomic long stop;
	_Atomic long seen;
};

static void *publish_reader(void *p)
{
	struct publish *pb = p;
	uint64_t seq, last = 0;

	rcu_register_thread();
	while (!test_flag_set(&pb->stop)) {
		struct test_obj *o;

		rcu_read_lock();
		o = rcu_dereference(pb->slot);
		if (o != NULL) {
			TEST_CHECK(test_obj_intact(o, &seq),
				   "published object seen uninitialised");
			TEST_CHECK(seq >= last, "sequence went back: %llu after %llu",
				   (unsigned long long)seq, (unsigned long long)last);
			last = seq;
			/* Release: pairs with test_count_reached(). */
			rcu_atomic_add(&pb->seen, 1, memory_order_release);
		}
		rcu_read_unlock();
		reader_quiescent();
	}
	rcu_unregister_thread();
	return NULL;
}

START_TEST(rcu_assign_pointer_publishes_initialised_object)
{
	struct publish pb = { 0 };
	struct test_count_goal goal = { &pb.seen, 1 };
	pthread_t t;

	test_failures_reset();
	test_start(&t, publish_reader, &pb);
	for (uint64_t i = 1; i <= 2000; i++) {
		struct test_obj *o = test_obj_new(i);
		struct test_obj *old = pb.slot;

		rcu_assign_pointer(pb.slot, o);
		if (old != NULL) {
			synchronize_rcu();
			test_obj_free(old);
		}
	}
	/* The reader may start late: it must see the last one at least. */
	ck_assert_msg(test_wait_until(test_count_reached, &goal, CALL_SECONDS),
		      "the reader never saw a published object");
	rcu_atomic_store(&pb.stop, 1, memory_order_release);
	ck_assert_joined(t);
	test_obj_free(pb.slot);
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- caa_container_of -------------------------------------------------- */

struct outer {
	int a;
	char b[3];
	struct rcu_head head;
	long c;
};

START_TEST(caa_container_of_recovers_enclosing_object)
{
	struct outer o;
	struct rcu_head *h = &o.head;
	struct test_obj t;

	ck_assert_ptr_eq(caa_container_of(h, struct outer, head), &o);
	ck_assert_ptr_eq(caa_container_of(&o.a, struct outer, a), &o);
	ck_assert_ptr_eq(caa_container_of(&o.c, struct outer, c), &o);
	ck_assert_ptr_eq(caa_container_of(&t.head, struct test_obj, head), &t);
}
END_TEST

/* ---- the flavour object ------------------------------------------------ */

START_TEST(flavour_object_names_this_flavour_and_has_every_op)
{
	const struct rcu_flavour *f = &rcu_flavour;

	ck_assert_ptr_nonnull(f->name);
	ck_assert_str_eq(f->name, TEST_FLAVOUR_NAME);
	ck_assert_ptr_nonnull(f->read_lock);
	ck_assert_ptr_nonnull(f->read_unlock);
	ck_assert_ptr_nonnull(f->read_ongoing);
	ck_assert_ptr_nonnull(f->quiescent_state);
	ck_assert_ptr_nonnull(f->thread_offline);
	ck_assert_ptr_nonnull(f->thread_online);
	ck_assert_ptr_nonnull(f->register_thread);
	ck_assert_ptr_nonnull(f->unregister_thread);
	ck_assert_ptr_nonnull(f->synchronize_rcu);
	ck_assert_ptr_nonnull(f->call_rcu);
	ck_assert_ptr_nonnull(f->barrier);
}
END_TEST

static _Atomic long ops_callback_ran;

static void ops_callback(struct rcu_head *head)
{
	struct test_obj *o = caa_container_of(head, struct test_obj, head);
	uint64_t seq;

	TEST_CHECK(test_obj_intact(o, &seq) && seq == 42,
		   "callback got a different object");
	test_obj_free(o);
	rcu_atomic_add(&ops_callback_ran, 1, memory_order_release);
}

static void ops_cycle(void *arg)
{
	const struct rcu_flavour *f = arg;

	TEST_CHECK(!f->read_ongoing(), "unregistered: ongoing");
	f->register_thread();
	TEST_CHECK(!!f->read_ongoing() == TEST_IS_QSBR,
		   "registered: ongoing = %d", f->read_ongoing());
	f->read_lock();
	TEST_CHECK(f->read_ongoing() && rcu_read_ongoing(),
		   "read_lock op: no section (op %d, inline %d)",
		   f->read_ongoing(), rcu_read_ongoing());
	f->read_lock();
	f->read_unlock();
	TEST_CHECK(f->read_ongoing(), "nested read_unlock op ended the section");
	f->read_unlock();
	f->quiescent_state();
	f->thread_offline();
	/* memb: no-ops; QSBR: offline is not ongoing. */
	TEST_CHECK(!f->read_ongoing(), "thread_offline op: ongoing");
	f->thread_online();
	TEST_CHECK(!!f->read_ongoing() == TEST_IS_QSBR,
		   "thread_online op: ongoing = %d", f->read_ongoing());
	f->synchronize_rcu();
	f->call_rcu(&test_obj_new(42)->head, ops_callback);
	f->barrier();
	TEST_CHECK(rcu_atomic_load(&ops_callback_ran, memory_order_acquire) == 1,
		   "barrier op returned before the call op's callback ran");
	f->unregister_thread();
	TEST_CHECK(!f->read_ongoing(), "unregistered again: ongoing");
}

START_TEST(flavour_ops_work_through_the_pointers)
{
	test_failures_reset();
	rcu_atomic_store(&ops_callback_ran, 0, memory_order_relaxed);
	ck_assert_msg(test_call_within(ops_cycle, (void *)&rcu_flavour, CALL_SECONDS),
		      "an op hung");
	ck_assert_no_worker_failures();
}
END_TEST

/* ---- memb, bp: the fence fallback; mb: always fences ------------------ */

START_TEST(memb_readers_use_fences_when_env_forces_them)
{
	const char *force = getenv(TEST_FORCE_FENCES_ENV);
	int mode = test_memb_fence_mode();

	ck_assert_msg(mode == 0 || mode == 1, "fence mode %d", mode);
	if (force != NULL && strcmp(force, "1") == 0)
		ck_assert_msg(mode == 1, "%s=1 but readers are not in fence mode",
			      TEST_FORCE_FENCES_ENV);
	printf(TEST_FLAVOUR_NAME " readers: %s\n",
	       mode ? "full fences" : "membarrier");
}
END_TEST

/* mb never uses membarrier, so its grace periods fence for the readers'
 * fences from the first call on (src/memb.c). */
START_TEST(mb_readers_and_grace_periods_always_use_fences)
{
	ck_assert_int_eq(test_memb_fence_mode(), 1);
	synchronize_rcu();
	ck_assert_int_eq(test_memb_fence_mode(), 1);
}
END_TEST

static Suite *api_suite(void)
{
	Suite *s = suite_create("rcu-api-" TEST_FLAVOUR_NAME);

	TEST_ADD(s, register_then_unregister_round_trips, 10);
	TEST_ADD(s, register_unregister_repeats_in_one_thread, 10);
	TEST_ADD(s, read_lock_nests_and_ongoing_follows_outermost, 10);
	TEST_ADD(s, read_ongoing_is_zero_on_unregistered_thread, 10);
	TEST_ADD(s, synchronize_rcu_returns_on_unregistered_thread, 10);
	TEST_ADD(s, synchronize_rcu_returns_on_registered_thread, 10);
	TEST_ADD(s, concurrent_synchronize_rcu_callers_all_return, 10);
	TEST_ADD(s, synchronize_rcu_waits_for_section_begun_before_it, 10);
	TEST_ADD(s, idle_registered_thread_does_not_delay_synchronize_rcu, 10);
	if (TEST_IS_QSBR) {
		TEST_ADD(s, synchronize_rcu_returns_on_offline_thread, 10);
		TEST_ADD(s, synchronize_rcu_waits_for_thread_back_online, 10);
		TEST_ADD(s, quiescent_states_let_synchronize_rcu_finish, 10);
	}
	TEST_ADD(s, rcu_dereference_returns_what_rcu_assign_pointer_stored, 10);
	TEST_ADD(s, rcu_xchg_pointer_returns_old_and_stores_new, 10);
	TEST_ADD(s, rcu_cmpxchg_pointer_swaps_only_when_expected, 10);
	TEST_ADD(s, rcu_assign_pointer_publishes_initialised_object, 10);
	TEST_ADD(s, caa_container_of_recovers_enclosing_object, 10);
	TEST_ADD(s, flavour_object_names_this_flavour_and_has_every_op, 10);
	TEST_ADD(s, flavour_ops_work_through_the_pointers, 10);
	if (!TEST_IS_QSBR && !TEST_IS_MB)
		TEST_ADD(s, memb_readers_use_fences_when_env_forces_them, 10);
	if (TEST_IS_MB)
		TEST_ADD(s, mb_readers_and_grace_periods_always_use_fences, 10);
	return s;
}

int main(void)
{
	return test_main(api_suite());
}
