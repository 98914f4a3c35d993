/* SPDX-License-Identifier: MIT */
/*
 * tests/test_misuse.c - misuse of the table caught by debug checks, and the
 * invariant checker (lfht/check.c) catching a corrupted list.
 *
 * Each misuse runs in a forked child with its stderr on a pipe: the child
 * must die of SIGABRT and its stderr must hold "lfht: <call>: <rule>". A
 * correct sequence in a child is the control: exit 0, nothing on stderr.
 * Children inherit the parent's registration (test_main() registers it).
 * The parent uses a table in one test only, the healthy-table control,
 * which runs last so that every child is the fork of a process that has
 * started no thread (no resize worker, no call_rcu worker).
 *
 * Without RCU_DEBUG_CHECKS the misuse tests are left out (misuse is then
 * undefined, except where the reference says a call returns an error:
 * test_api.c tests those); the checker's tests run in every build.
 */
#define _GNU_SOURCE
#include "lfht_test.h"
#include "../lfht/internal.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_SECONDS 10.0
#define EXIT_SKIPPED 77
#define NR_KEYS 16

/* ---- children ------------------------------------------------------------- */

/* Calls the void (*)(void) that fn points to (in the child). */
static void call(void *fn)
{
	(*(void (**)(void))fn)();
}

/* Runs fn in a child, stderr on a pipe; waits at most CHILD_SECONDS. */
static void run_child(void (*fn)(void), struct test_child *c)
{
	double deadline = test_now() + CHILD_SECONDS;
	int err_fd;
	pid_t pid = test_child_start(call, &fn, &err_fd);

	ck_assert_msg(pid > 0, "pipe or fork: %s", strerror(errno));
	test_child_finish(pid, err_fd, deadline, c);
}

/* fn must abort with a line of stderr that begins with want. */
static void expect_abort(void (*fn)(void), const char *want)
{
	struct test_child c;
	char line[256];

	run_child(fn, &c);
	ck_assert_msg(c.finished && WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGABRT,
		      "child %s, not killed by SIGABRT; stderr: \"%s\"",
		      test_child_describe(&c), c.err);
	snprintf(line, sizeof(line), "%s\n", want);
	ck_assert_msg(strncmp(c.err, want, strlen(want)) == 0 || strstr(c.err, line) != NULL,
		      "stderr lacks \"%s\": \"%s\"", want, c.err);
}

/* ---- what the children do ------------------------------------------------- */

static struct cds_lfht *table;
static struct test_node *nodes[NR_KEYS];

/* In a child, registered (inherited), outside any section: a table of
 * NR_KEYS keys (no auto-resize: no worker thread). */
static void setup(void)
{
	table = cds_lfht_new(4, 4, 0, CDS_LFHT_ACCOUNTING, NULL);
	ck_assert_ptr_nonnull(table);
	rcu_read_lock();
	for (uint64_t k = 0; k < NR_KEYS; k++) {
		nodes[k] = test_node_new(k, 0);
		cds_lfht_add(table, test_hash(k), &nodes[k]->node);
	}
	rcu_read_unlock();
}

/* Leaves the read side: memb is already outside every section after
 * setup(); QSBR goes offline. */
static void leave_read_side(void)
{
	test_offline();
}

static uint64_t key3 = 3;

/* Registered, outside: setup(), then the read side left. */
static void setup_outside(void)
{
	setup();
	leave_read_side();
}

/* Looks key 3 up in a read-side section of its own. */
static void lookup_key3(struct cds_lfht_iter *iter)
{
	rcu_read_lock();
	cds_lfht_lookup(table, test_hash(3), test_match, &key3, iter);
	rcu_read_unlock();
}

/* Replaces what iter holds by a new node of key 3. */
static void replace_key3(struct cds_lfht_iter *iter)
{
	(void)cds_lfht_replace(table, iter, test_hash(3), test_match, &key3,
			       &test_node_new(3, 1)->node);
}

/* The reader rule, one child per call: setup, leave, then the call. */
static void lookup_outside(void)
{
	struct cds_lfht_iter iter;

	setup_outside();
	cds_lfht_lookup(table, test_hash(3), test_match, &key3, &iter);
}

static void exported_lookup_outside(void)
{
	struct cds_lfht_iter iter;

	setup_outside();
	lfht_lookup(table, test_hash(3), test_match, &key3, &iter);
}

static void lookup_batch_outside(void)
{
	unsigned long hash = test_hash(3);
	const void *key = &key3;
	struct cds_lfht_iter iter;

	setup_outside();
	lfht_lookup_batch(table, 1, &hash, test_match, &key, &iter);
}

static void first_outside(void)
{
	struct cds_lfht_iter iter;

	setup_outside();
	cds_lfht_first(table, &iter);
}

static void next_outside(void)
{
	struct cds_lfht_iter iter;

	setup();
	rcu_read_lock();
	cds_lfht_first(table, &iter);
	rcu_read_unlock();
	leave_read_side();
	cds_lfht_next(table, &iter);
}

static void next_duplicate_outside(void)
{
	struct cds_lfht_iter iter;

	setup();
	lookup_key3(&iter);
	leave_read_side();
	cds_lfht_next_duplicate(table, test_match, &key3, &iter);
}

static void for_each_outside(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	setup_outside();
	cds_lfht_for_each(table, &iter, node)
		n++;
	fprintf(stderr, "walked %lu\n", n);
}

static void for_each_entry_duplicate_outside(void)
{
	struct cds_lfht_iter iter;
	struct test_node *tn;
	unsigned long n = 0;

	setup_outside();
	cds_lfht_for_each_entry_duplicate(table, test_hash(3), test_match, &key3, &iter, tn,
					  node)
		n++;
	fprintf(stderr, "walked %lu\n", n);
}

static void add_outside(void)
{
	setup_outside();
	cds_lfht_add(table, test_hash(100), &test_node_new(100, 0)->node);
}

static void add_unique_outside(void)
{
	uint64_t key = 100;

	setup_outside();
	(void)cds_lfht_add_unique(table, test_hash(key), test_match, &key,
				  &test_node_new(key, 0)->node);
}

static void add_replace_outside(void)
{
	setup_outside();
	(void)cds_lfht_add_replace(table, test_hash(3), test_match, &key3,
				   &test_node_new(3, 1)->node);
}

static void replace_outside(void)
{
	struct cds_lfht_iter iter;

	setup();
	lookup_key3(&iter);
	leave_read_side();
	replace_key3(&iter);
}

static void del_outside(void)
{
	setup_outside();
	(void)cds_lfht_del(table, &nodes[3]->node);
}

static void del_key_outside(void)
{
	setup_outside();
	(void)lfht_del_key(table, test_hash(3), test_match, &key3);
}

static void count_nodes_outside(void)
{
	unsigned long count;
	long before, after;

	setup_outside();
	cds_lfht_count_nodes(table, &before, &count, &after);
}

/* An unregistered thread is no reader either. */
static void add_unregistered(void)
{
	struct cds_lfht *ht = cds_lfht_new(4, 4, 0, 0, NULL);

	rcu_unregister_thread();
	cds_lfht_add(ht, test_hash(1), &test_node_new(1, 0)->node);
}

/* Nodes never added. */
static void del_never_added(void)
{
	setup();
	rcu_read_lock();
	(void)cds_lfht_del(table, &test_node_new(100, 0)->node);
}

static void replace_never_added(void)
{
	struct test_node *stray = test_node_new(3, 0);
	struct cds_lfht_iter iter = { &stray->node, NULL };

	setup();
	stray->node.reverse_hash = lfht_reverse_bits_(test_hash(3));
	rcu_read_lock();
	replace_key3(&iter);
}

/* The outside rule: resize and destroy. */
static void resize_inside(void)
{
	setup();
	rcu_read_lock();
	cds_lfht_resize(table, 64);
}

static void destroy_inside(void)
{
	table = cds_lfht_new(4, 4, 0, 0, NULL);
	rcu_read_lock();
	(void)cds_lfht_destroy(table, NULL);
}

#if !defined(TEST_FLAVOUR_BP)
/* bp has no unregistered threads (see the table below). */
static void resize_unregistered(void)
{
	rcu_unregister_thread();
	table = cds_lfht_new(4, 4, 0, 0, NULL);
	cds_lfht_resize(table, 64);
}

static void destroy_unregistered(void)
{
	rcu_unregister_thread();
	table = cds_lfht_new(4, 4, 0, 0, NULL);
	(void)cds_lfht_destroy(table, NULL);
}
#endif

static struct rcu_head head;

static void resize_cb(struct rcu_head *h)
{
	(void)h;
	cds_lfht_resize(table, 64);
}

static void resize_from_callback(void)
{
	setup();
	call_rcu(&head, resize_cb);
	rcu_barrier();
}

/* A match function that never returns: the add_unique calling it stays in
 * flight until the child dies. */
static _Atomic(int) matcher_inside, matcher_release;

static int blocking_match(struct cds_lfht_node *node, const void *key)
{
	(void)node;
	(void)key;
	/* Release: pairs with the acquire load in destroy_while_busy(). */
	rcu_atomic_store(&matcher_inside, 1, memory_order_release);
	/* Relaxed: never set; the child aborts first. */
	while (!rcu_atomic_load(&matcher_release, memory_order_relaxed))
		pause();
	return 0;
}

static void *busy_adder(void *arg)
{
	(void)arg;
	rcu_register_thread();
	rcu_read_lock();
	(void)cds_lfht_add_unique(table, test_hash(3), blocking_match, &key3,
				  &test_node_new(3, 1)->node);
	return NULL;
}

static void destroy_while_busy(void)
{
	pthread_t thread;
	double end = test_now() + CHILD_SECONDS / 2;

	setup();
	ck_assert_int_eq(pthread_create(&thread, NULL, busy_adder, NULL), 0);
	/* Acquire: pairs with the release store in blocking_match(). */
	while (!rcu_atomic_load(&matcher_inside, memory_order_acquire) && test_now() < end)
		test_spin_pause();
	(void)cds_lfht_destroy(table, NULL);
}

/* The control: every call in its right state, then a clean end. */
static void correct_use(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long count, n = 0;
	long before, after;

	setup();
	rcu_read_lock();
	cds_lfht_lookup(table, test_hash(3), test_match, &key3, &iter);
	cds_lfht_for_each(table, &iter, node)
		n++;
	cds_lfht_count_nodes(table, &before, &count, &after);
	if (n != NR_KEYS || count != NR_KEYS)
		fprintf(stderr, "walked %lu, counted %lu\n", n, count);
	rcu_read_unlock();
	cds_lfht_resize(table, 64);
	test_offline();
	cds_lfht_resize(table, 4);	/* QSBR: offline is allowed too */
	test_online();
	test_empty_and_destroy(table);
}

/* ---- the misuse tests ----------------------------------------------------- */

START_TEST(correct_use_neither_aborts_nor_prints)
{
	struct test_child c;

	run_child(correct_use, &c);
	ck_assert_msg(c.finished && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		      "child %s; stderr: \"%s\"", test_child_describe(&c), c.err);
	ck_assert_msg(c.err[0] == '\0', "stderr: \"%s\"", c.err);
}
END_TEST

#if defined(TEST_FLAVOUR_QSBR)
#define OUTSIDE "not inside a read-side critical section (QSBR: thread offline)"
#define UNREGISTERED "not inside a read-side critical section (QSBR: thread not registered)"
#else
#define OUTSIDE "not inside a read-side critical section"
#define UNREGISTERED "not inside a read-side critical section"
#endif

struct misuse {
	const char *name;
	void (*fn)(void);
	const char *want;
};

/* Every row: its child must abort with exactly this line. */
static const struct misuse misuses[] = {
	{ "lookup_outside_a_read_side_section_aborts", lookup_outside,
	  "lfht: cds_lfht_lookup: " OUTSIDE },
	{ "exported_lookup_outside_a_read_side_section_aborts", exported_lookup_outside,
	  "lfht: lfht_lookup: " OUTSIDE },
	{ "lookup_batch_outside_a_read_side_section_aborts", lookup_batch_outside,
	  "lfht: lfht_lookup_batch: " OUTSIDE },
	{ "first_outside_a_read_side_section_aborts", first_outside,
	  "lfht: cds_lfht_first: " OUTSIDE },
	{ "next_outside_a_read_side_section_aborts", next_outside,
	  "lfht: cds_lfht_next: " OUTSIDE },
	{ "next_duplicate_outside_a_read_side_section_aborts", next_duplicate_outside,
	  "lfht: cds_lfht_next_duplicate: " OUTSIDE },
	{ "for_each_outside_a_read_side_section_aborts_in_first", for_each_outside,
	  "lfht: cds_lfht_first: " OUTSIDE },
	{ "for_each_entry_duplicate_outside_a_read_side_section_aborts_in_lookup",
	  for_each_entry_duplicate_outside, "lfht: cds_lfht_lookup: " OUTSIDE },
	{ "add_outside_a_read_side_section_aborts", add_outside,
	  "lfht: cds_lfht_add: " OUTSIDE },
	{ "add_unique_outside_a_read_side_section_aborts", add_unique_outside,
	  "lfht: cds_lfht_add_unique: " OUTSIDE },
	{ "add_replace_outside_a_read_side_section_aborts", add_replace_outside,
	  "lfht: cds_lfht_add_replace: " OUTSIDE },
	{ "replace_outside_a_read_side_section_aborts", replace_outside,
	  "lfht: cds_lfht_replace: " OUTSIDE },
	{ "del_outside_a_read_side_section_aborts", del_outside,
	  "lfht: cds_lfht_del: " OUTSIDE },
	{ "del_key_outside_a_read_side_section_aborts", del_key_outside,
	  "lfht: lfht_del_key: " OUTSIDE },
	{ "count_nodes_outside_a_read_side_section_aborts", count_nodes_outside,
	  "lfht: cds_lfht_count_nodes: " OUTSIDE },
	{ "add_on_an_unregistered_thread_aborts", add_unregistered,
	  "lfht: cds_lfht_add: " UNREGISTERED },
	{ "del_of_a_node_never_added_aborts", del_never_added,
	  "lfht: cds_lfht_del: node was never added to a table (cds_lfht_node_init)" },
	{ "replace_of_a_node_never_added_aborts", replace_never_added,
	  "lfht: cds_lfht_replace: node was never added to a table (cds_lfht_node_init)" },
	{ "resize_inside_a_read_side_section_aborts", resize_inside,
	  "lfht: cds_lfht_resize: called inside a read-side critical section" },
	{ "destroy_inside_a_read_side_section_aborts", destroy_inside,
	  "lfht: cds_lfht_destroy: called inside a read-side critical section" },
#if !defined(TEST_FLAVOUR_BP)
	/* bp: every thread counts as registered. */
	{ "resize_on_an_unregistered_thread_aborts", resize_unregistered,
	  "lfht: cds_lfht_resize: thread not registered" },
	{ "destroy_on_an_unregistered_thread_aborts", destroy_unregistered,
	  "lfht: cds_lfht_destroy: thread not registered" },
#endif
	{ "resize_from_a_call_rcu_callback_aborts", resize_from_callback,
	  "lfht: cds_lfht_resize: called from a call_rcu callback" },
	{ "destroy_while_another_call_runs_aborts", destroy_while_busy,
	  "lfht: cds_lfht_destroy: another call on the table is still running" },
};

START_TEST(each_misuse_aborts_naming_the_call_and_the_rule)
{
	const struct misuse *m = &misuses[_i];

	fprintf(stderr, "[%s] %s\n", TEST_FLAVOUR_NAME, m->name);
	expect_abort(m->fn, m->want);
}
END_TEST

/* ---- nodes that no link can hold ---------------------------------------- */

/* An address above 2^48, where tagged links keep their tags; never
 * dereferenced: the entry points refuse it first. */
#define HIGH_NODE ((struct cds_lfht_node *)(uintptr_t)(1ULL << 50))

static void add_high_node(void)
{
	setup();
	rcu_read_lock();
	cds_lfht_add(table, test_hash(99), HIGH_NODE);
	rcu_read_unlock();
}

static void replace_by_high_node(void)
{
	struct cds_lfht_iter iter;

	setup();
	rcu_read_lock();
	cds_lfht_lookup(table, test_hash(3), test_match, &key3, &iter);
	(void)cds_lfht_replace(table, &iter, test_hash(3), test_match, &key3, HIGH_NODE);
	rcu_read_unlock();
}

#define ABOVE "the node lies above 2^48, where a link keeps its tag " \
	"(build lfht with -Dtagged_links=false)"

/* In every build with tagged links, not only with debug checks. */
START_TEST(a_node_above_2_48_aborts_naming_the_call)
{
	expect_abort(add_high_node, "lfht: cds_lfht_add: " ABOVE);
	expect_abort(replace_by_high_node, "lfht: cds_lfht_replace: " ABOVE);
}
END_TEST

/* ---- the invariant checker ------------------------------------------------ */

/* Registered, outside: a table of size 4 (no auto-resize), NR_KEYS keys. */
static struct cds_lfht *quiet_table(void)
{
	struct cds_lfht *ht = cds_lfht_new(4, 4, 0, CDS_LFHT_ACCOUNTING, NULL);

	ck_assert_ptr_nonnull(ht);
	test_fill(ht, 0, NR_KEYS);
	return ht;
}

START_TEST(checker_passes_a_healthy_table_across_resizes)
{
	struct cds_lfht *ht = quiet_table();

	lfht_check_invariants_(ht);
	cds_lfht_resize(ht, 64);
	lfht_check_invariants_(ht);
	cds_lfht_resize(ht, 1);
	lfht_check_invariants_(ht);
	test_empty_and_destroy(ht);
}
END_TEST

/* The first regular node gets the largest reverse hash: out of order. */
static void break_the_order(void)
{
	struct cds_lfht *ht;
	uintptr_t word;

	ht = quiet_table();
	word = rcu_atomic_load(&ht->bucket0.next, memory_order_relaxed);
	while (lfht_is_bucket_(rcu_atomic_load(&lfht_ptr_(word)->next, memory_order_relaxed)))
		word = rcu_atomic_load(&lfht_ptr_(word)->next, memory_order_relaxed);
	lfht_ptr_(word)->reverse_hash = ~0UL;
	lfht_check_invariants_(ht);
}

/* Bucket 1's predecessor is pointed past it. */
static void unlink_a_bucket(void)
{
	struct cds_lfht *ht;
	struct cds_lfht_node *bucket, *prev;
	uintptr_t word;

	ht = quiet_table();
	bucket = lfht_bucket_at(ht, 1);
	for (prev = &ht->bucket0;
	     lfht_ptr_(word = rcu_atomic_load(&prev->next, memory_order_relaxed)) != bucket;
	     prev = lfht_ptr_(word))
		;
	rcu_atomic_store(&prev->next,
			 lfht_relink_(word, lfht_link_of_(rcu_atomic_load(&bucket->next,
									  memory_order_relaxed))),
			 memory_order_relaxed);
	lfht_check_invariants_(ht);
}

/* Bucket 0's link tagged as leading to an element of reverse hash ~0UL:
 * more than any of the table's (a bucket of 4 or a node of 16 keys). */
static void spoil_a_tag(void)
{
	struct cds_lfht *ht = quiet_table();
	uintptr_t word = rcu_atomic_load(&ht->bucket0.next, memory_order_relaxed);

	rcu_atomic_store(&ht->bucket0.next,
			 lfht_relink_(word, lfht_link_to_(0, lfht_ptr_(word), ~0UL)),
			 memory_order_relaxed);
	lfht_check_invariants_(ht);
}

/* A node marked removed and left linked. */
static void leave_a_removed_node_linked(void)
{
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;

	ht = quiet_table();
	rcu_read_lock();
	cds_lfht_first(ht, &iter);
	rcu_atomic_or(&cds_lfht_iter_get_node(&iter)->next, (uintptr_t)LFHT_REMOVED_,
		      memory_order_relaxed);
	rcu_read_unlock();
	lfht_check_invariants_(ht);
}

START_TEST(checker_aborts_on_a_list_out_of_order)
{
	expect_abort(break_the_order, "lfht: invariant: the list is not sorted by reverse hash");
}
END_TEST

START_TEST(checker_aborts_on_a_bucket_unlinked_by_hand)
{
	expect_abort(unlink_a_bucket,
		     "lfht: invariant: a bucket node below size is not reachable from bucket 0");
}
END_TEST

START_TEST(checker_aborts_on_a_link_with_a_wrong_tag)
{
	expect_abort(spoil_a_tag, "lfht: invariant: a link's tag overstates the reverse "
		     "hash of the element it links to");
}
END_TEST

START_TEST(checker_aborts_on_a_removed_node_left_linked)
{
	expect_abort(leave_a_removed_node_linked,
		     "lfht: invariant: a removed node is reachable in a quiet table");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lfht-misuse-" TEST_FLAVOUR_NAME);
	TCase *tc;

	TEST_ADD(s, checker_aborts_on_a_list_out_of_order, 30);
	TEST_ADD(s, checker_aborts_on_a_bucket_unlinked_by_hand, 30);
	TEST_ADD(s, checker_aborts_on_a_removed_node_left_linked, 30);
	if (LFHT_TAG_MASK_) {
		TEST_ADD(s, checker_aborts_on_a_link_with_a_wrong_tag, 30);
		TEST_ADD(s, a_node_above_2_48_aborts_naming_the_call, 30);
	} else {
		fprintf(stderr, "[%s] links are plain pointers in this build: the tests "
			"of tags are left out\n", TEST_FLAVOUR_NAME);
	}
	if (!TEST_DEBUG_CHECKS) {
		fprintf(stderr, "[%s] debug checks are off in this build: the misuse tests "
			"are left out\n", TEST_FLAVOUR_NAME);
	} else {
		TEST_ADD(s, correct_use_neither_aborts_nor_prints, 30);
		tc = tcase_create("each_misuse_aborts_naming_the_call_and_the_rule");
		tcase_set_timeout(tc, 120);
		tcase_add_loop_test(tc, each_misuse_aborts_naming_the_call_and_the_rule, 0,
				    (int)(sizeof(misuses) / sizeof(misuses[0])));
		suite_add_tcase(s, tc);
	}
	/* Last: the only test that starts threads in the parent. */
	TEST_ADD(s, checker_passes_a_healthy_table_across_resizes, 30);
	return test_main(s);
}
