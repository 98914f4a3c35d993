/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench: the run functions the workload table (table.c) names, one per
 * family: steady state on a filled table (read, autoread, mixed, addel,
 * churn, batch), sweeps over the keys (fill, delonly), a flush by
 * restarted iteration (flush), growth (pace, longread), contention (rw1, hot10,
 * hot1), reclamation (rcufree) and memory. Each sets up a table, runs
 * worker roles (impl.c) through the harness (harness.c) and fills the
 * result; report.c prints it.
 */
#define _GNU_SOURCE

#include <malloc.h>
#include <stdlib.h>

#include "bench.h"
#include "bench_common.h"

/* n workers: the first `first` run role a, the rest role b. */
static unsigned roles_split(bench_role **roles, unsigned n, unsigned first, bench_role *a,
			    bench_role *b)
{
	for (unsigned i = 0; i < n; i++)
		roles[i] = i < first ? a : b;
	return n;
}

/* Steady-state workloads: the table starts with one bucket per key, or
 * (grown) at one bucket, auto-resized as the keys go in; T threads run
 * `role`, and with `resizer` one more resizes. */
static void run_steady(const struct options *o, struct bench_result *r, bench_role *role,
		       int resizer, int grown)
{
	struct bench_shared sh = { .keys = o->keys, .threads = o->threads };
	bench_role *roles[MAX_WORKERS];
	unsigned n = roles_split(roles, o->threads + !!resizer, o->threads, role, role_resizer);
	struct bench_totals t;
	unsigned long filled;

	sh.bt = grown ? new_table(o, 1, 1) : new_table(o, o->keys, !resizer);
	filled = fill_keys(sh.bt, o->keys);
	if (grown)
		growth_settled(sh.bt);
	t = run_workers(&sh, roles, n, o->seconds);
	result_add(r, "secs", FMT_SECS, t.secs);
	if (role == role_addel) {
		result_rate(r, "ops_per_s", t.n.updates, t.secs);
	} else {
		result_rate(r, "lookups_per_s", t.n.lookups, t.secs);
		result_hit_ratio(r, &t.n);
		if (role == role_mixed)
			result_rate(r, "updates_per_s", t.n.updates, t.secs);
		if (resizer)
			result_rate(r, "resizes_per_s", t.n.resizes, t.secs);
	}
	/* A table grown from one bucket whose fill stalled is a broken table:
	 * the driver lists it under the table. */
	if (grown)
		result_add(r, "stalled", FMT_COUNT, filled < o->keys);
	finish(sh.bt, o->cleanup);
}

void run_read(const struct options *o, struct bench_result *r)
{
	run_steady(o, r, role_read, 0, 0);
}

void run_autoread(const struct options *o, struct bench_result *r)
{
	run_steady(o, r, role_read, 0, 1);
}

void run_mixed(const struct options *o, struct bench_result *r)
{
	run_steady(o, r, role_mixed, 0, 0);
}

void run_addel(const struct options *o, struct bench_result *r)
{
	run_steady(o, r, role_addel, 0, 0);
}

void run_churn(const struct options *o, struct bench_result *r)
{
	run_steady(o, r, role_read, 1, 0);
}

/* batch: T threads look up LOOKUP_BATCH keys at a time, in one read-side
 * section per batch (see bt_lookup_batch). */
void run_batch(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = o->keys, .threads = o->threads };
	bench_role *roles[MAX_WORKERS];
	unsigned n = roles_split(roles, o->threads, o->threads, role_batch, NULL);
	struct bench_totals t;

	sh.bt = new_table(o, o->keys, 1);
	(void)fill_keys(sh.bt, o->keys);
	t = run_workers(&sh, roles, n, o->seconds);
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, "lookups_per_s", t.n.lookups, t.secs);
	result_hit_ratio(r, &t.n);
	result_add(r, "batch", FMT_COUNT, LOOKUP_BATCH);
	result_add(r, "native_batch", FMT_COUNT, bench_impl.native_batch);
	finish(sh.bt, o->cleanup);
}

/*
 * A sweep: T threads share keys 0..N-1 and apply the table entry's
 * operation once to each; the rate (the entry's first metric) is keys over
 * wall time. Adds (fill) go to a table that starts at one bucket with
 * auto-resize; any other operation to an auto-resizing table filled with
 * the N keys first. Fields: secs, the rate, the count ("inserted" for adds,
 * "deleted" for deletes) and stalled (the bound was hit first). A fill
 * also gives inserts_per_cpu_s: keys over the CPU time of the whole
 * process from the start until growth has settled, so that work a table
 * does on threads of its own (lfht's resize worker, on a CPU the sweep
 * leaves idle) counts as it does for a user whose CPUs are all busy.
 */
void run_sweep(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = o->keys, .threads = o->threads, .op = o->w->op };
	bench_role *roles[MAX_WORKERS];
	unsigned n = roles_split(roles, o->threads, o->threads, role_sweep, NULL);
	struct bench_totals t;
	unsigned long done;
	double cpu0;

	if (sh.op == OP_ADD_UNIQUE) {
		sh.bt = new_table(o, 1, 1);
	} else {
		sh.bt = new_table(o, o->keys, 1);
		(void)fill_keys(sh.bt, o->keys);
	}
	/* A table whose growth stalls turns every add into a list walk; stop
	 * after a bound and report the rate reached and the stall. */
	sh.deadline = bench_now() + FILL_LIMIT_SECONDS;
	cpu0 = cpu_seconds();
	t = run_workers(&sh, roles, n, 0);
	done = sh.op == OP_ADD_UNIQUE ? t.n.inserts : t.n.deletes;
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, o->w->metrics[0].name, done, t.secs);
	if (sh.op == OP_ADD_UNIQUE) {
		growth_settled(sh.bt);
		result_rate(r, "inserts_per_cpu_s", done, cpu_seconds() - cpu0);
	}
	result_add(r, sh.op == OP_ADD_UNIQUE ? "inserted" : "deleted", FMT_COUNT, (double)done);
	result_add(r, "stalled", FMT_COUNT, done < o->keys);
	finish(sh.bt, o->cleanup && done == o->keys);
}

/*
 * flush: fill N keys into a table that starts at one bucket (auto-resize,
 * as users get it by default), let growth settle, then one thread deletes
 * them all by restarted iteration (role_flush). Fields: secs (the flush
 * alone), deletes_per_s, deleted, passes (read-side sections), buckets (at
 * the start of the flush; 0 where unknown) and stalled (the bound was hit).
 */
void run_flush(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = o->keys, .threads = 1 };
	bench_role *const roles[1] = { role_flush };
	struct bench_totals t;
	unsigned long filled, buckets;

	sh.bt = new_table(o, 1, 1);
	filled = fill_keys(sh.bt, o->keys);
	growth_settled(sh.bt);
	buckets = bench_impl.bucket_count(sh.bt);
	sh.deadline = bench_now() + FLUSH_LIMIT_SECONDS;
	t = run_workers(&sh, roles, 1, 0);
	r->threads = 1;
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, "deletes_per_s", t.n.deletes, t.secs);
	result_add(r, "deleted", FMT_COUNT, (double)t.n.deletes);
	result_add(r, "passes", FMT_COUNT, (double)t.n.sections);
	result_add(r, "buckets", FMT_COUNT, (double)buckets);
	result_add(r, "stalled", FMT_COUNT, t.n.deletes < filled || filled < o->keys);
	finish(sh.bt, o->cleanup);
}

/*
 * Auto-resize keeps pace: fill from one bucket, then at once one reader
 * and one writer. A table whose growth lags leaves long chains behind and
 * the lookup rate shows it; the driver runs this 8 times and compares.
 */
void run_pace(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = o->keys, .threads = 2 };
	bench_role *const roles[2] = { role_read, role_writer };
	struct bench_totals t;
	unsigned long filled;

	sh.bt = new_table(o, 1, 1);
	filled = fill_keys(sh.bt, o->keys);
	t = run_workers(&sh, roles, 2, o->seconds);
	r->threads = 2;
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, "lookups_per_s", t.n.lookups, t.secs);
	result_rate(r, "updates_per_s", t.n.updates, t.secs);
	result_add(r, "stalled", FMT_COUNT, filled < o->keys);
	finish(sh.bt, o->cleanup && filled == o->keys);
}

/*
 * longread: growth under long readers. T readers each walk the whole table
 * LONG_WALKS times per read-side section (a quiescent state after each
 * section), while 2 writers add_unique random keys of [0, LONG_KEY_RANGE)
 * to an auto-resizing table that starts at 1 bucket. A resize that waits
 * for a grace period stalls behind the readers, chains grow and the adds
 * slow down: inserts_per_s counts the keys added.
 */
void run_longread(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = LONG_KEY_RANGE, .threads = o->threads };
	bench_role *roles[MAX_WORKERS];
	unsigned n = roles_split(roles, o->threads + 2, o->threads, role_long_read,
				 role_grow_writer);
	struct bench_totals t;

	sh.bt = new_table(o, 1, 1);
	t = run_workers(&sh, roles, n, o->seconds);
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, "inserts_per_s", t.n.inserts, t.secs);
	result_add(r, "inserts", FMT_COUNT, (double)t.n.inserts);
	result_rate(r, "sections_per_s", t.n.sections, t.secs);
	result_rate(r, "walked_per_s", t.n.walked, t.secs);
	/* buckets: how far the resizes kept up (0 where the table keeps its
	 * bucket count private: liburcu). */
	result_add(r, "buckets", FMT_COUNT, (double)bench_impl.bucket_count(sh.bt));
	finish(sh.bt, o->cleanup);
}

/*
 * rw1: one reader and one writer on a table of N keys. The writer adds or
 * deletes random keys of [0, 2N), add or delete decided by a bit of the
 * random word that the key does not use, so the table keeps changing
 * around N keys; the reader looks up keys of [0, 2N).
 */
void run_rw1(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = o->keys, .threads = 2 };
	bench_role *const roles[2] = { role_read, role_addel };
	struct bench_totals t;

	sh.bt = new_table(o, o->keys, 1);
	(void)fill_keys(sh.bt, o->keys);
	t = run_workers(&sh, roles, 2, o->seconds);
	r->threads = 2;
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, "lookups_per_s", t.n.lookups, t.secs);
	result_hit_ratio(r, &t.n);
	result_rate(r, "updates_per_s", t.n.updates, t.secs);
	finish(sh.bt, o->cleanup);
}

/*
 * hot10: a table of a few keys (10 by default) in one bucket, without
 * auto-resize, so that every operation meets on one chain: T readers look
 * them up, T writers replace them (add_replace) or delete and re-add them
 * (add_unique). updates_per_s counts writer operations (a replace, or a
 * delete + add pair).
 */
/* T readers and T writers on a table of o->keys keys filled first, from
 * 1 bucket; autosize: auto-resized with accounting. The rates are named by the
 * table entry's first two metrics (lookups, then writer operations). */
static void run_readers_writers(const struct options *o, struct bench_result *r,
				bench_role *reader, bench_role *writer, int autosize)
{
	struct bench_shared sh = { .keys = o->keys, .threads = o->threads, .op = o->w->op };
	bench_role *roles[MAX_WORKERS];
	unsigned n = roles_split(roles, 2 * o->threads, o->threads, reader, writer);
	struct bench_totals t;

	sh.bt = new_table(o, 1, autosize);
	(void)fill_keys(sh.bt, o->keys);
	t = run_workers(&sh, roles, n, o->seconds);
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, o->w->metrics[0].name, t.n.lookups, t.secs);
	result_hit_ratio(r, &t.n);
	result_rate(r, o->w->metrics[1].name, t.n.updates, t.secs);
	finish(sh.bt, o->cleanup);
}

void run_hot10(const struct options *o, struct bench_result *r)
{
	run_readers_writers(o, r, role_hot_read, role_hot_writer, 0);
}

/*
 * pool-add, pool-unique, pool-replace: liburcu's test_urcu_hash with
 * `-A -M N -N N -O N -R 0 -T 0 -S N -k N` (and -u or -s): an auto-resized
 * table with accounting from 1 bucket, the lookup pool [0, N) filled first
 * (the init pool), T readers on it and T writers on [N, 2N). The table's op
 * says how the writers add (OP_ADD keeps duplicates).
 */
void run_pool(const struct options *o, struct bench_result *r)
{
	run_readers_writers(o, r, role_pool_read, role_pool_writer, 1);
}

/*
 * hot1: one key, T writers (4 by default) and no reader, one bucket, no
 * resize: half replace the key and delete it, half add it (add_unique) and
 * delete it. updates_per_s counts pairs.
 */
void run_hot1(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = 1, .threads = o->threads };
	bench_role *roles[MAX_WORKERS];
	unsigned n = roles_split(roles, o->threads, o->threads, role_hot1_writer, NULL);
	struct bench_totals t;

	sh.bt = new_table(o, 1, 0);
	(void)bench_impl.add_unique(sh.bt, 0);
	t = run_workers(&sh, roles, n, o->seconds);
	result_add(r, "secs", FMT_SECS, t.secs);
	result_rate(r, "updates_per_s", t.n.updates, t.secs);
	finish(sh.bt, o->cleanup);
}

/*
 * rcufree: T threads each malloc an object and queue a callback that frees
 * it (call_rcu, or ck_epoch_call), for the run's length; then every queued
 * callback is waited for (rcu_barrier, or each thread's ck_epoch_barrier).
 * The rate is callbacks over the whole time, the wait included: what the
 * reclamation sustains, not what the queue swallows.
 */
void run_rcufree(const struct options *o, struct bench_result *r)
{
	struct bench_shared sh = { .keys = o->keys, .threads = o->threads };
	bench_role *roles[MAX_WORKERS];
	unsigned n = roles_split(roles, o->threads, o->threads, role_rcufree, NULL);
	struct bench_totals t;
	double total;

	t = run_workers(&sh, roles, n, o->seconds);
	bench_impl.barrier();
	total = bench_now() - t.t0;
	result_add(r, "secs", FMT_SECS, total);
	result_rate(r, "callbacks_per_s", t.n.callbacks, total);
	result_add(r, "callbacks", FMT_COUNT, (double)t.n.callbacks);
}

/*
 * cds tables: the wrapper struct bench_table is the harness's, not the
 * table's; its glibc chunk (usable size plus the 8-byte header) is taken
 * off the table's figures. mallinfo2 cannot see it: small chunks come from
 * the tcache, which mallinfo2 already counts as in use.
 */
static long wrapper_bytes(void)
{
	void *wrapper;
	long bytes;

	if (!bench_impl.wrapper_size)
		return 0;
	wrapper = malloc(bench_impl.wrapper_size);
	if (!wrapper)
		abort();
	bytes = (long)(malloc_usable_size(wrapper) + sizeof(size_t));
	free(wrapper);
	return bytes;
}

void run_memory(const struct options *o, struct bench_result *r)
{
	struct bench_table *bt;
	void **blocks;
	long m0, m1, m2, m3, m4, m5 = 0, m6 = 0, r0, r1, r2, wrapper = wrapper_bytes();
	/* A table that cannot grow (rte_hash) is made for the N keys and
	 * charged from before it was made: it takes its memory at creation.
	 * It gets no warm-up and no second table: its library may size its
	 * memory at its first table (impl_dpdk.h). */
	int fixed = bench_impl.cannot[NEED_GROW] != NULL;
	unsigned long filled;
	double entry, per_entry;

	if (!fixed) {
		/* Warm-up: one-time allocations (worker threads, queues,
		 * per-thread state) must not be charged to the table measured
		 * next. */
		bt = new_table(o, 1, 1);
		fill_keys(bt, 1024);
		finish(bt, 1);

		/* An empty table without flags (no counters, no worker). */
		m5 = heap_settled();
		bt = new_table(o, 1, 0);
		m6 = heap_settled();
		finish(bt, 1);
	}

	m0 = heap_settled();
	r0 = rss_bytes();
	bt = new_table(o, fixed ? o->keys : 1, 1);
	m1 = heap_settled();
	r1 = rss_bytes();
	if (fixed) {
		m5 = m0;
		m6 = m1;
	}
	filled = fill_keys(bt, o->keys);
	m2 = heap_settled();
	r2 = rss_bytes();
	if (fixed) {
		m1 = m0 + wrapper;
		r1 = r0;
	}
	/* Not emptied: the process ends here, and a stalled table is one long
	 * chain whose emptying would be quadratic. */

	/* What the entries alone cost, measured the same way. */
	blocks = malloc(o->keys * sizeof(*blocks));
	if (!blocks)
		abort();
	m3 = heap_in_use();
	for (unsigned long i = 0; i < o->keys; i++)
		blocks[i] = malloc(bench_impl.entry_size);
	m4 = heap_in_use();
	for (unsigned long i = 0; i < o->keys; i++)
		free(blocks[i]);
	free(blocks);

	entry = (double)(m4 - m3) / (double)o->keys;
	per_entry = (double)(m2 - m1) / (double)filled;
	result_add(r, "empty_plain_table_bytes", FMT_COUNT, (double)((m6 - m5) - wrapper));
	result_add(r, "empty_table_bytes", FMT_COUNT,
		   (double)((fixed ? m6 - m5 : m1 - m0) - wrapper));
	result_add(r, "heap_bytes_per_entry", FMT_BYTES, per_entry);
	result_add(r, "table_bytes_per_entry", FMT_BYTES, per_entry - entry);
	result_add(r, "entry_bytes", FMT_BYTES, entry);
	result_add(r, "rss_bytes_per_entry", FMT_BYTES, (double)(r2 - r1) / (double)filled);
	result_add(r, "stalled", FMT_COUNT, filled < o->keys);
}
