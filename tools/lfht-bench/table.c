/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench: the workload table. One entry per workload, in the order the
 * driver runs them: what it runs, the points the driver runs it at, the
 * threads as the tables show them, the metrics the tables report (RESULT
 * fields; report.c checks that each run gives them), what it needs of an
 * implementation, and the run function (runs.c). The driver reads this
 * table from every executable (--info, with each implementation's refusals)
 * and has no list of its own: a workload is added here.
 */
#define _GNU_SOURCE

#include <stddef.h>

#include "bench.h"

#define M_LOOKUPS { "lookups_per_s", "lookup/s", 0 }
#define M_UPDATES { "updates_per_s", "update/s", 0 }
#define M_INSERTS { "inserts_per_s", "insert/s", 0 }
#define M_READS { "reads_per_s", "read/s", 0 }
#define M_WRITES { "writes_per_s", "write/s", 0 }

const struct bench_workload bench_workloads[] = {
	{ .name = "read",
	  .what = "T threads look up random keys of a table of N keys (50% hits)",
	  .keys = "list", .threads = "list", .roles = "T", .report = "throughput",
	  .metrics = { M_LOOKUPS },
	  .run = run_read },
	{ .name = "mixed",
	  .what = "T threads, 90% lookups, 10% updates (delete a key, add it back)",
	  .keys = "list", .threads = "list", .roles = "T", .report = "throughput",
	  .needs = { NEED_ERASE },
	  .metrics = { M_LOOKUPS, M_UPDATES },
	  .run = run_mixed },
	{ .name = "addel",
	  .what = "T threads, 50% add_unique, 50% lookup + delete",
	  .keys = "list", .threads = "list", .roles = "T", .report = "throughput",
	  .needs = { NEED_ERASE },
	  .metrics = { { "ops_per_s", "op/s", 0 } },
	  .run = run_addel },
	{ .name = "fill",
	  .what = "T threads add N keys to a table that starts at 1 bucket",
	  .keys = "fill", .threads = "list", .roles = "T", .report = "throughput",
	  .smoke_keys = 4096,
	  .needs = { NEED_GROW }, .op = OP_ADD_UNIQUE,
	  .metrics = { M_INSERTS, { "inserts_per_cpu_s", "insert/CPU-s", 0 } },
	  .run = run_sweep },
	{ .name = "delonly",
	  .what = "T threads delete the N keys of a filled table (each its share)",
	  .keys = "list", .threads = "list", .roles = "T", .report = "throughput",
	  .needs = { NEED_ERASE }, .op = OP_DEL,
	  .metrics = { { "deletes_per_s", "delete/s", 0 } },
	  .run = run_sweep },
	{ .name = "flush",
	  .what = "fill N keys from 1 bucket (auto-resize), then 1 thread deletes them all by "
		  "restarted iteration: from cds_lfht_first, up to 4096 deletes per read-side "
		  "section, then again from the first",
	  .keys = "list", .threads = "fixed=1", .roles = "1", .report = "throughput",
	  .needs = { NEED_WALK, NEED_GROW, NEED_ERASE },
	  .metrics = { { "deletes_per_s", "delete/s", 0 } },
	  .run = run_flush },
	{ .name = "churn",
	  .what = "T lookup threads while one thread resizes between N and N/8 buckets",
	  .keys = "list", .threads = "list", .roles = "T", .report = "throughput",
	  .needs = { NEED_RESIZE },
	  .metrics = { M_LOOKUPS, { "resizes_per_s", "resize/s", 0 } },
	  .run = run_churn },
	{ .name = "rw1",
	  .what = "1 reader + 1 writer at 2^16 keys; the writer adds or deletes random keys "
		  "of [0, 2N) (coin independent of the key)",
	  .keys = "first=65536", .threads = "fixed=2", .roles = "1+1", .report = "throughput",
	  .needs = { NEED_ERASE },
	  .metrics = { M_LOOKUPS, M_UPDATES },
	  .run = run_rw1 },
	{ .name = "hot10",
	  .what = "10 keys on one chain (1 bucket, no resize): 2 readers + 2 writers "
		  "(add_replace, or delete + add_unique)",
	  .keys = "fixed=10", .threads = "fixed=2", .roles = "T+T", .report = "throughput",
	  .smoke_keys = 10, .flags = WL_ANY_KEY_COUNT,
	  .needs = { NEED_ERASE },
	  .metrics = { M_LOOKUPS, M_UPDATES },
	  .run = run_hot10 },
	{ .name = "hot1",
	  .what = "one key, 4 writers (no reader, 1 bucket, no resize): half replace it "
		  "(add_replace) and delete it, half add it (add_unique) and delete it",
	  .keys = "fixed=1", .threads = "fixed=4", .roles = "0+T", .report = "throughput",
	  .smoke_keys = 1,
	  .needs = { NEED_ERASE },
	  .metrics = { M_UPDATES },
	  .run = run_hot1 },
	{ .name = "pool-add",
	  .what = "liburcu's test_urcu_hash -A -M 10 -N 10 -O 10 -R 0 -T 0 -S 10 -k 10: "
		  "auto-resized (accounting) from 1 bucket, keys 0-9 added first; 2 readers "
		  "look up keys 0-9, 2 writers add (duplicates kept) or delete keys 10-19",
	  .keys = "fixed=10", .threads = "fixed=2", .roles = "T+T", .report = "throughput",
	  .smoke_keys = 10, .flags = WL_ANY_KEY_COUNT,
	  .needs = { NEED_ERASE, NEED_DUP_ADD }, .op = OP_ADD,
	  .metrics = { M_READS, M_WRITES },
	  .run = run_pool },
	{ .name = "pool-unique",
	  .what = "as pool-add with -u: the writers add_unique or delete",
	  .keys = "fixed=10", .threads = "fixed=2", .roles = "T+T", .report = "throughput",
	  .smoke_keys = 10, .flags = WL_ANY_KEY_COUNT,
	  .needs = { NEED_ERASE }, .op = OP_ADD_UNIQUE,
	  .metrics = { M_READS, M_WRITES },
	  .run = run_pool },
	{ .name = "pool-replace",
	  .what = "as pool-add with -s: the writers add_replace or delete",
	  .keys = "fixed=10", .threads = "fixed=2", .roles = "T+T", .report = "throughput",
	  .smoke_keys = 10, .flags = WL_ANY_KEY_COUNT,
	  .needs = { NEED_ERASE }, .op = OP_ADD_REPLACE,
	  .metrics = { M_READS, M_WRITES },
	  .run = run_pool },
	{ .name = "longread",
	  .what = "growth under long readers: 2 readers each walk the whole table 1024 times "
		  "per read-side section while 2 writers add_unique random keys of [0, 1e8) "
		  "to an auto-resizing table from 1 bucket",
	  .keys = "none", .threads = "fixed=2", .roles = "T+2", .report = "throughput",
	  .needs = { NEED_WALK, NEED_GROW },
	  .metrics = { M_INSERTS },
	  .run = run_longread },
	{ .name = "batch",
	  .what = "T threads look up 16 random keys per read-side section (50% hits): "
		  "lfht_lookup_batch() where lfht has it, else 16 single lookups",
	  .keys = "batch", .threads = "list", .roles = "T", .report = "throughput",
	  .metrics = { M_LOOKUPS },
	  .run = run_batch },
	{ .name = "rcufree",
	  .what = "T threads malloc objects and queue a callback freeing each (call_rcu; ck: "
		  "ck_epoch_call); rate includes the final barrier",
	  .keys = "none", .threads = "list", .roles = "T", .report = "throughput",
	  .needs = { NEED_DEFER_FREE },
	  .metrics = { { "callbacks_per_s", "callback/s", 0 } },
	  .run = run_rcufree },
	{ .name = "autoread",
	  .what = "as read, in an auto-resized table filled from 1 bucket",
	  .keys = "list", .threads = "list", .roles = "T", .report = "throughput",
	  .needs = { NEED_GROW },
	  .metrics = { M_LOOKUPS },
	  .run = run_autoread },
	{ .name = "pace",
	  .what = "fill 2^16 keys from 1 bucket, then 1 reader + 1 writer (8 runs)",
	  .keys = "first=65536", .threads = "fixed=2", .roles = "1+1", .report = "pace",
	  .runs = 8,
	  .needs = { NEED_GROW, NEED_ERASE },
	  .metrics = { M_LOOKUPS },
	  .run = run_pace },
	{ .name = "memory",
	  .what = "memory (heap and own mappings) and RSS of an empty table and of N entries",
	  .keys = "list", .threads = "fixed=1", .roles = "T", .report = "memory",
	  .runs = 1,
	  /* A table that cannot grow is made for the N keys (run_memory). */
	  .needs = { NEED_NONE },
	  .metrics = {
		{ "empty_plain_table_bytes", "empty table B (no flags)", METRIC_ZERO_OK },
		{ "empty_table_bytes", "empty table B (auto+acct)", METRIC_ZERO_OK },
		{ "heap_bytes_per_entry", "B/entry (heap+maps)", METRIC_LOWER_IS_BETTER },
		{ "table_bytes_per_entry", "table B/entry (heap+maps)",
		  METRIC_ZERO_OK | METRIC_LOWER_IS_BETTER },
		{ "rss_bytes_per_entry", "B/entry (RSS)",
		  METRIC_ZERO_OK | METRIC_LOWER_IS_BETTER },
		{ "entry_bytes", "entry alone B (heap)", 0 } },
	  .run = run_memory },
};
const unsigned bench_nworkloads = sizeof(bench_workloads) / sizeof(bench_workloads[0]);

const char *workload_refused(const struct bench_workload *w)
{
	for (unsigned i = 0; i < sizeof(w->needs) && w->needs[i] != NEED_NONE; i++)
		if (bench_impl.cannot[w->needs[i]])
			return bench_impl.cannot[w->needs[i]];
	return NULL;
}
