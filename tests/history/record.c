/* SPDX-License-Identifier: MIT */
/*
 * tests/history/record.c - the recorded calls and the rounds of
 * record.h.
 *
 * The clock. Stamps are CLOCK_MONOTONIC (the vDSO, no system call), taken
 * after a full fence at a response and before one at an invocation, so
 * that the call's own memory accesses lie between its two stamps. The
 * kernel keeps this clock consistent across CPUs: a reading taken after
 * another, on any CPU, is not smaller. Per architecture:
 *   - x86-64: the TSC, used by the kernel only when it is synchronized
 *     across CPUs (otherwise HPET or the ACPI timer, each one counter for
 *     the machine), read with a serializing rdtscp or lfence; rdtsc. Every
 *     update commits with a locked instruction, which drains the store
 *     buffer, so its effect is visible to all CPUs before its response
 *     stamp; the fence after an invocation stamp (mfence) keeps the
 *     call's first load after it.
 *   - aarch64: CNTVCT_EL0, the architected generic timer: one system
 *     counter seen by every core, read after an ISB by the vDSO; the
 *     fences are DMB ISH, and the commits of the table are themselves
 *     between full fences (lfht/list.c).
 *   - ppc64le: the timebase, kept synchronized across cores by firmware
 *     and the kernel; the fences are hwsync, which completes only when
 *     earlier stores are performed with respect to every processor.
 *   - qemu-user (the cross legs): the guest's clock is the host's, guest
 *     threads are host threads and guest fences become host fences, so
 *     the host's argument applies.
 * Two equal stamps are taken as overlapping calls (history.h), so a clock
 * tick coarser than a call only makes the checker more lenient.
 *
 * Rounds: see record.h. The handshake is two counters: a parking thread
 * adds itself to parked (release: its log is complete), the main thread
 * waits for all (acquire), checks, resets the logs and increments round
 * (release), which the parked threads wait for (acquire).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include "../../lfht/mutant.h"
/* The inline lookup of hist_lookup() can be broken on purpose
 * (LFHT_MUTANT_LOOKUP_SKIP, the mutant tests of tests/test_history.c). */
#define LFHT_WALK_MUTANT_(next)						\
	(lfht_test_mutant_ == LFHT_MUTANT_LOOKUP_SKIP ? lfht_mutant_walk_(&(next)) : (void)0)
#include "record.h"
#include "harness.h"

#include <sched.h>
#include <string.h>
#include <time.h>

/* A worker records at most this many operations between two calls of
 * hist_continue(). */
#define HIST_OPS_PER_STEP 8
/* A parked thread or the main thread waits at most this long for the
 * other side of a round's handshake. */
#define HIST_HANDSHAKE_SECONDS 120.0
/* The node --break-round's lookup finds: thread 0xffffff's, never made. */
#define BROKEN_NODE ((0xffffffULL << 40) | 1)

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t hist_stamp_invoke(void)
{
	uint64_t t = clock_ns();

	/* Full fence: the call's accesses stay after its invocation stamp;
	 * pairs with the fence before every response stamp (hist_stamp_respond()),
	 * so that a call that responded before this stamp was read ordered
	 * its effects before it (see the top of this file). */
	rcu_fence(memory_order_seq_cst);
	return t;
}

uint64_t hist_stamp_respond(void)
{
	/* Full fence: the call's accesses stay before its response stamp;
	 * pairs with the fence after every invocation stamp (hist_stamp_invoke()). */
	rcu_fence(memory_order_seq_cst);
	return clock_ns();
}

/* ---- the recorded calls ------------------------------------------------------ */

static struct hist_op *op_begin(struct hist_log *log, enum hist_kind kind, uint64_t key)
{
	struct hist_op *op;

	if (log->nr_ops == log->cap_ops) {
		fprintf(stderr, "history: a log is full: %d operations between two calls of "
			"hist_continue()\n", HIST_OPS_PER_STEP);
		abort();
	}
	op = &log->ops[log->nr_ops];
	*op = (struct hist_op){ .kind = (uint16_t)kind, .key = key, .thread = log->thread };
	op->invoke = hist_stamp_invoke();
	return op;
}

static void op_end(struct hist_log *log, struct hist_op *op)
{
	op->respond = hist_stamp_respond();
	log->nr_ops++;
	log->total_ops++;
}

static uint64_t id_of(struct cds_lfht_node *node)
{
	struct test_node *tn = test_node_of(node);

	return tn ? tn->id : 0;
}

static unsigned long hash_of(struct hist_log *log, uint64_t key)
{
	return log->run->hash(key);
}

void hist_add(struct hist_log *log, struct test_node *tn)
{
	struct hist_op *op = op_begin(log, HIST_ADD, tn->key);

	cds_lfht_add(log->run->ht, hash_of(log, tn->key), &tn->node);
	op_end(log, op);
	op->node = tn->id;
}

/* Ends op, a call that offered tn and returned got; returns got's entry. */
static struct test_node *end_add(struct hist_log *log, struct hist_op *op,
				 struct test_node *tn, struct cds_lfht_node *got)
{
	op_end(log, op);
	op->node = tn->id;
	op->result = id_of(got);
	return test_node_of(got);
}

struct test_node *hist_add_unique(struct hist_log *log, struct test_node *tn)
{
	struct hist_op *op = op_begin(log, HIST_ADD_UNIQUE, tn->key);

	return end_add(log, op, tn, cds_lfht_add_unique(log->run->ht, hash_of(log, tn->key),
							test_match, &tn->key, &tn->node));
}

struct test_node *hist_add_replace(struct hist_log *log, struct test_node *tn)
{
	struct hist_op *op = op_begin(log, HIST_ADD_REPLACE, tn->key);

	return end_add(log, op, tn, cds_lfht_add_replace(log->run->ht, hash_of(log, tn->key),
							 test_match, &tn->key, &tn->node));
}

static uint64_t errno_result(int ret, const char *call)
{
	if (ret != 0 && ret != -ENOENT) {
		fprintf(stderr, "history: %s returned %d\n", call, ret);
		abort();
	}
	return ret == 0 ? HIST_OK : HIST_ENOENT;
}

int hist_replace(struct hist_log *log, struct cds_lfht_iter *old_iter, struct test_node *tn)
{
	uint64_t old = id_of(cds_lfht_iter_get_node(old_iter));
	struct hist_op *op = op_begin(log, HIST_REPLACE, tn->key);
	int ret = cds_lfht_replace(log->run->ht, old_iter, hash_of(log, tn->key), test_match,
				   &tn->key, &tn->node);

	op_end(log, op);
	op->node = tn->id;
	op->old = old;
	op->result = errno_result(ret, "cds_lfht_replace");
	return ret;
}

int hist_del(struct hist_log *log, struct test_node *tn)
{
	struct hist_op *op = op_begin(log, HIST_DEL, tn->key);
	int ret = cds_lfht_del(log->run->ht, &tn->node);

	op_end(log, op);
	op->node = tn->id;
	op->result = errno_result(ret, "cds_lfht_del");
	return ret;
}

struct test_node *hist_del_key(struct hist_log *log, uint64_t key)
{
	struct hist_op *op = op_begin(log, HIST_DEL_KEY, key);
	struct cds_lfht_node *node = lfht_del_key(log->run->ht, hash_of(log, key), test_match,
						  &key);

	op_end(log, op);
	op->result = id_of(node);
	return test_node_of(node);
}

struct test_node *hist_lookup(struct hist_log *log, uint64_t key, struct cds_lfht_iter *iter)
{
	struct hist_op *op = op_begin(log, HIST_LOOKUP, key);

	cds_lfht_lookup(log->run->ht, hash_of(log, key), test_match, &key, iter);
	op_end(log, op);
	op->result = id_of(cds_lfht_iter_get_node(iter));
	return test_node_of(cds_lfht_iter_get_node(iter));
}

unsigned long hist_lookup_batch(struct hist_log *log, size_t n, const uint64_t *keys)
{
	unsigned long hashes[HIST_OPS_PER_STEP];
	const void *key_ptrs[HIST_OPS_PER_STEP];
	struct cds_lfht_iter iters[HIST_OPS_PER_STEP];
	struct hist_op *first;
	unsigned long hits = 0;

	if (n > HIST_OPS_PER_STEP || log->nr_ops + n > log->cap_ops) {
		fprintf(stderr, "history: a batch of %zu lookups does not fit the log\n", n);
		abort();
	}
	for (size_t i = 0; i < n; i++) {
		hashes[i] = hash_of(log, keys[i]);
		key_ptrs[i] = &keys[i];
	}
	first = op_begin(log, HIST_LOOKUP, 0);
	lfht_lookup_batch(log->run->ht, n, hashes, test_match, key_ptrs, iters);
	op_end(log, first);
	log->nr_ops--;
	log->total_ops += n - 1;
	for (size_t i = 0; i < n; i++) {
		struct hist_op *op = &log->ops[log->nr_ops++];

		*op = *first;
		op->key = keys[i];
		op->result = id_of(cds_lfht_iter_get_node(&iters[i]));
		hits += op->result != 0;
	}
	return hits;
}

/* Logs a node a walk returned; past the log's room the walk is marked
 * truncated (left unchecked, counted). */
static void walk_note(struct hist_log *log, struct hist_op *op, struct cds_lfht_node *node)
{
	if (log->nr_ids == log->cap_ids) {
		op->truncated = 1;
		return;
	}
	log->walk_ids[log->nr_ids++] = id_of(node);
	op->walk_len++;
}

unsigned long hist_duplicates(struct hist_log *log, uint64_t key)
{
	struct hist_op *op = op_begin(log, HIST_DUPLICATES, key);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	op->walk_start = (uint32_t)log->nr_ids;
	cds_lfht_for_each_duplicate(log->run->ht, hash_of(log, key), test_match, &key, &iter,
				    node) {
		walk_note(log, op, node);
		n++;
	}
	op_end(log, op);
	return n;
}

unsigned long hist_iteration(struct hist_log *log)
{
	struct hist_op *op = op_begin(log, HIST_ITERATION, 0);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	op->walk_start = (uint32_t)log->nr_ids;
	cds_lfht_for_each(log->run->ht, &iter, node) {
		walk_note(log, op, node);
		n++;
	}
	op_end(log, op);
	return n;
}

struct test_node *hist_node_new(struct hist_log *log, uint64_t key)
{
	struct test_node *tn = test_node_new(key, 0);

	if (log->nr_made == log->cap_ops) {
		fprintf(stderr, "history: more nodes made than a round holds operations\n");
		abort();
	}
	log->made[log->nr_made++] = tn;
	return tn;
}

/* ---- rounds ---------------------------------------------------------------------- */

static bool handshake_late(double end, const char *what)
{
	if (test_now() < end)
		return false;
	fprintf(stderr, "history: no %s within %.0f s\n", what, HIST_HANDSHAKE_SECONDS);
	abort();
}

static void park(struct hist_log *log)
{
	struct hist_run *run = log->run;
	struct timespec pause = { .tv_sec = 0, .tv_nsec = 100000 };
	double end = test_now() + HIST_HANDSHAKE_SECONDS;

	test_offline();
	/* Release: publishes this thread's log, complete; pairs with the
	 * acquire load of parked in wait_parked(). */
	rcu_atomic_add(&run->parked, 1, memory_order_release);
	/* Acquire: pairs with the release increment of round in
	 * hist_run_for(), after which the logs are reset and pause is 0. */
	while (rcu_atomic_load(&run->round, memory_order_acquire) == log->round) {
		handshake_late(end, "next round");
		nanosleep(&pause, NULL);
	}
	test_online();
	log->round++;
}

bool hist_continue(struct hist_log *log)
{
	struct hist_run *run = log->run;

	if (log->nr_ops + HIST_OPS_PER_STEP > log->cap_ops ||
	    log->cap_ids - log->nr_ids < run->walk_reserve)
		/* Relaxed: a request; the handshake orders the rest. */
		rcu_atomic_store(&run->pause, 1, memory_order_relaxed);
	/* Relaxed: as above. */
	if (rcu_atomic_load(&run->pause, memory_order_relaxed))
		park(log);
	/* Relaxed: the main thread stores stop before the release increment
	 * of round that park() waited for. */
	return !rcu_atomic_load(&run->stop, memory_order_relaxed);
}

static void wait_parked(struct hist_run *run)
{
	double end = test_now() + HIST_HANDSHAKE_SECONDS;

	/* Acquire: pairs with the release increment in park(): every log is
	 * complete. */
	while (rcu_atomic_load(&run->parked, memory_order_acquire) < run->nr_threads) {
		handshake_late(end, "parking of every recording thread");
		test_spin_pause();
	}
}

struct snap_entry {
	uint64_t key, id;
	struct test_node *tn;
};

static int snap_cmp(const void *a, const void *b)
{
	const struct snap_entry *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The table's content now (a quiescent point), into run->present. */
static void read_present(struct hist_run *run)
{
	size_t cap = 1024, n = 0;
	struct snap_entry *snap = hist_calloc(cap, sizeof(*snap));
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	rcu_read_lock();
	cds_lfht_for_each(run->ht, &iter, node) {
		struct test_node *tn = test_node_of(node);

		if (n == cap) {
			cap *= 2;
			snap = realloc(snap, cap * sizeof(*snap));
			if (snap == NULL)
				abort();
		}
		snap[n++] = (struct snap_entry){ .key = tn->key, .id = tn->id, .tn = tn };
	}
	rcu_read_unlock();
	qsort(snap, n, sizeof(*snap), snap_cmp);
	free(run->present);
	free(run->present_nodes);
	run->present = hist_calloc(n, sizeof(*run->present));
	run->present_nodes = hist_calloc(n, sizeof(*run->present_nodes));
	for (size_t k = 0; k < n; k++) {
		run->present[k] = (struct hist_node){ .key = snap[k].key, .id = snap[k].id };
		run->present_nodes[k] = snap[k].tn;
	}
	run->nr_present = n;
	free(snap);
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;

	return x < y ? -1 : x > y;
}

/* owns_nodes: frees the nodes of the round (made, or present at its start)
 * that the table does not hold now, after a grace period (the resize
 * worker may still be walking past them). */
static void free_gone_nodes(struct hist_run *run, struct test_node **was_present,
			    size_t nr_was)
{
	size_t n = nr_was;
	struct test_node **cands;

	for (int t = 0; t < run->nr_threads; t++)
		n += run->logs[t].nr_made;
	cands = hist_calloc(n, sizeof(*cands));
	memcpy(cands, was_present, nr_was * sizeof(*cands));
	n = nr_was;
	for (int t = 0; t < run->nr_threads; t++) {
		memcpy(cands + n, run->logs[t].made, run->logs[t].nr_made * sizeof(*cands));
		n += run->logs[t].nr_made;
	}
	qsort(cands, n, sizeof(*cands), ptr_cmp);
	synchronize_rcu();
	for (size_t k = 0; k < n; k++) {
		if ((k > 0 && cands[k] == cands[k - 1]) ||
		    bsearch(&cands[k], run->present_nodes, run->nr_present, sizeof(*cands),
			    ptr_cmp))
			continue;
		test_node_free_now(cands[k]);
	}
	free(cands);
}

static bool check_round(struct hist_run *run)
{
	size_t nr_ops = 0, nr_ids = 0, nr_was = run->nr_present;
	struct hist_node *before = run->present;
	struct test_node **was_present = run->present_nodes;
	struct hist_op *ops;
	uint64_t *ids;
	struct hist_round round;
	double start = test_now();
	bool clean;

	for (int t = 0; t < run->nr_threads; t++) {
		nr_ops += run->logs[t].nr_ops;
		nr_ids += run->logs[t].nr_ids;
	}
	ops = hist_calloc(nr_ops + 1, sizeof(*ops));
	ids = hist_calloc(nr_ids, sizeof(*ids));
	nr_ops = nr_ids = 0;
	for (int t = 0; t < run->nr_threads; t++) {
		struct hist_log *log = &run->logs[t];

		for (size_t k = 0; k < log->nr_ops; k++) {
			ops[nr_ops] = log->ops[k];
			ops[nr_ops++].walk_start += (uint32_t)nr_ids;
		}
		memcpy(ids + nr_ids, log->walk_ids, log->nr_ids * sizeof(*ids));
		nr_ids += log->nr_ids;
	}
	if (hist_break_this_round((long)run->rounds + 1))
		ops[nr_ops++] = (struct hist_op){ .kind = HIST_LOOKUP, .key = UINT64_MAX - 1,
						  .result = BROKEN_NODE,
						  .invoke = hist_stamp_invoke(),
						  .respond = hist_stamp_respond() };
	/* The new content; the old one stays until the check is done. */
	run->present = NULL;
	run->present_nodes = NULL;
	read_present(run);
	round = (struct hist_round){
		.ops = ops, .nr_ops = nr_ops, .walk_ids = ids,
		.before = before, .nr_before = nr_was,
		.after = run->present, .nr_after = run->nr_present,
	};
	/* Offline while checking: a QSBR grace period (the resize worker's,
	 * a resizing test thread's) need not wait for it. */
	test_offline();
	clean = hist_check_round(&round, &run->verdict, stderr);
	test_online();
	if (!clean)
		hist_end_failed(run->what ? run->what : "table", (long)run->rounds + 1,
				"broke a rule (above)");
	if (run->owns_nodes) {
		qsort(run->present_nodes, run->nr_present, sizeof(*run->present_nodes), ptr_cmp);
		free_gone_nodes(run, was_present, nr_was);
	}
	for (int t = 0; t < run->nr_threads; t++)
		run->logs[t].nr_ops = run->logs[t].nr_ids = run->logs[t].nr_made = 0;
	free(before);
	free(was_present);
	free(ops);
	free(ids);
	run->rounds++;
	run->check_seconds += test_now() - start;
	return clean;
}

void hist_run_init(struct hist_run *run, struct cds_lfht *ht, unsigned long (*hash)(uint64_t),
		   int nr_threads, size_t ops_per_thread, size_t ids_per_thread)
{
	*run = (struct hist_run){
		.ht = ht, .hash = hash, .nr_threads = nr_threads, .clean = true,
		.round_seconds = 0.05, .walk_reserve = ids_per_thread / 4,
	};
	run->logs = hist_calloc((size_t)nr_threads, sizeof(*run->logs));
	for (int t = 0; t < nr_threads; t++) {
		struct hist_log *log = &run->logs[t];

		*log = (struct hist_log){ .run = run, .thread = (uint16_t)(t + 1),
					  .cap_ops = ops_per_thread, .cap_ids = ids_per_thread };
		log->ops = hist_calloc(ops_per_thread, sizeof(*log->ops));
		log->walk_ids = hist_calloc(ids_per_thread, sizeof(*log->walk_ids));
		log->made = hist_calloc(ops_per_thread, sizeof(*log->made));
	}
	read_present(run);
}

/* Whether every recording thread has logged HIST_MIN_THREAD_OPS calls
 * (the main thread reads the logs of parked threads). */
static bool every_thread_worked(const struct hist_run *run)
{
	for (int t = 0; t < run->nr_threads; t++)
		if (run->logs[t].total_ops < HIST_MIN_THREAD_OPS)
			return false;
	return true;
}

/* Whether the round just checked is the run's last. */
static bool run_over(struct hist_run *run, double end, double hard_end)
{
	double now = test_now();

	/* Two rounds at least: the carry-over of the table's content from
	 * one round to the next is always checked. */
	if (run->rounds < 2 || now < end)
		return false;
	if (now >= hard_end)
		return true;
	return every_thread_worked(run) && (!run->more || !run->more(run->more_arg));
}

bool hist_run_for(struct hist_run *run, double seconds)
{
	double end = test_now() + seconds, hard_end = end + 9 * seconds + 30;
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	bool last;

	do {
		double round_end = test_now() + run->round_seconds;

		/* Relaxed: a worker's request to end the round. */
		while (!rcu_atomic_load(&run->pause, memory_order_relaxed) &&
		       test_now() < round_end) {
			test_offline();
			nanosleep(&ms, NULL);
			test_online();
		}
		/* Relaxed: the handshake orders the rest. */
		rcu_atomic_store(&run->pause, 1, memory_order_relaxed);
		wait_parked(run);
		run->clean &= check_round(run);
		last = run_over(run, end, hard_end);
		/* Relaxed, all three: published by the release increment of
		 * round below. */
		if (last)
			rcu_atomic_store(&run->stop, 1, memory_order_relaxed);
		rcu_atomic_store(&run->parked, 0, memory_order_relaxed);
		rcu_atomic_store(&run->pause, 0, memory_order_relaxed);
		/* Release: pairs with the acquire load of round in park(). */
		rcu_atomic_add(&run->round, 1, memory_order_release);
	} while (!last);
	return run->clean;
}

void hist_run_destroy(struct hist_run *run)
{
	for (int t = 0; t < run->nr_threads; t++) {
		free(run->logs[t].ops);
		free(run->logs[t].walk_ids);
		free(run->logs[t].made);
	}
	free(run->logs);
	free(run->present);
	free(run->present_nodes);
}

void hist_run_print(const struct hist_run *run, const char *what)
{
	const struct hist_verdict *v = &run->verdict;

	fprintf(stderr, "[%s] %s: %lu rounds, %lu operations checked on %lu keys "
		"(%lu segments), %lu walks (%lu nodes), unchecked: %lu keys %lu operations "
		"%lu walks, %lu violations, %.2f s checking\n", TEST_FLAVOUR_NAME, what,
		run->rounds, v->ops, v->keys, v->segments, v->walks, v->walk_nodes,
		v->unchecked_keys, v->unchecked_ops, v->unchecked_walks, v->violations,
		run->check_seconds);
}
