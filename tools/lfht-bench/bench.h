/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench worker: what its files share. Every executable is built from
 * the same files; only impl.c includes the implementation's header
 * (BENCH_IMPL_HEADER: its inline bt_* and its static state live in that one
 * translation unit) and hands the rest of the program the thread roles
 * (the timed loops, bt_* inline in them) and struct bench_impl (the calls
 * made outside the timed loops).
 *
 *   table.c    the workload table: name, shape, thread roles, metrics,
 *              what each needs of an implementation
 *   report.c   the RESULT line, --info, UNSUPPORTED, usage
 *   harness.c  the worker threads, table set-up, the heap and RSS probes
 *   maps.c     the memory a library maps for itself (mmap, munmap)
 *   runs.c     the run functions: one per family of workloads
 *   impl.c     the implementation: thread roles and struct bench_impl
 *   main.c     options, then the table's run function
 */
#ifndef BENCH_H
#define BENCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Operations between two checks of the stop flag and two quiescent states
 * (QSBR readers must announce them; memb ignores the call). */
#define BATCH 256
/* Bound on a fill (see run_fill). */
#define FILL_LIMIT_SECONDS 20.0
/* Keys per bt_lookup_batch() call in the batch workload. */
#define LOOKUP_BATCH 16
/* longread: whole-table walks per read-side section, and the range the
 * writers' random keys come from. */
#define LONG_WALKS 1024
#define LONG_KEY_RANGE 100000000UL
/* Most worker threads a run starts. */
#define MAX_WORKERS 2050
/* flush: deletes per read-side section, and the bound on the whole flush
 * (it is quadratic where each pass walks again over emptied buckets). */
#define FLUSH_PASS 4096UL
#define FLUSH_LIMIT_SECONDS 120.0

struct bench_table;

/* What a workload needs of an implementation. An implementation without
 * it says why (BENCH_NO_<NEED> in its header, see impl.c), and refuses the
 * workloads that need it with that reason. */
enum bench_need {
	NEED_NONE,
	NEED_GROW,		/* start at 1 bucket and grow with the keys */
	NEED_RESIZE,		/* resize to a bucket count, under load */
	NEED_ERASE,		/* delete concurrently with other operations */
	NEED_WALK,		/* walk the table inside one read-side section */
	NEED_DEFER_FREE,	/* defer a free past a grace period (call_rcu) */
	NEED_DUP_ADD,		/* add a key that is already there, as a duplicate */
	NEED_COUNT
};

/* The implementation, for what runs outside the timed loops. */
struct bench_impl {
	const char *name;
	/* What the driver lists, tabulates and pairs (--info's "impl"):
	 * kind "lfht" (ours), "urcu" (liburcu's cds_lfht), "extra" (a
	 * baseline or Concurrency Kit) or "peer" (another library); help, a
	 * line for --help; note, for peers, a line under the throughput
	 * table (or NULL); pair, the liburcu column an lfht column is
	 * divided by (or NULL); vs, further implementations an lfht column
	 * is divided by, comma-separated (or NULL). */
	const char *kind, *help, *note, *pair, *vs;
	int native_batch;		/* bt_lookup_batch() is the library's own */
	const char *cannot[NEED_COUNT];	/* why it lacks a need, or NULL */
	size_t entry_size;		/* an item alone (memory's "entry") */
	size_t wrapper_size;		/* the harness's struct around the table, or 0 */
	/* Bytes the implementation holds outside malloc's heap (rte_hash:
	 * EAL's rte_malloc), counted into heap_in_use(); NULL: none. */
	long (*heap_extra)(void);
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*online)(void);
	void (*offline)(void);
	void (*quiescent)(void);
	void (*barrier)(void);		/* waits for every deferred free */
	struct bench_table *(*new_table)(unsigned long init, int auto_mode);
	int (*destroy)(struct bench_table *bt);
	int (*add_unique)(struct bench_table *bt, uint64_t key);
	unsigned long (*bucket_count)(struct bench_table *bt);	/* 0: unknown */
};
extern const struct bench_impl bench_impl;

/* What the workers count; each field means one thing. */
struct bench_counts {
	unsigned long lookups, hits;	/* lookups made, keys found */
	unsigned long updates;		/* writer operations (see each role) */
	unsigned long inserts;		/* keys added */
	unsigned long deletes;		/* keys deleted */
	unsigned long resizes;		/* resize calls */
	unsigned long sections;		/* longread, flush: read-side sections */
	unsigned long walked;		/* longread: nodes seen by the walks */
	unsigned long callbacks;	/* rcufree: frees deferred */
};

/* A sweep's operation: each worker applies it once to each key of its
 * share of 0..N-1 (role_sweep). */
enum bench_op {
	OP_NONE,
	OP_ADD_UNIQUE,		/* counted in inserts */
	OP_DEL,			/* counted in deletes */
	OP_ADD,			/* pool-add: add, duplicates allowed */
	OP_ADD_REPLACE,		/* pool-replace: add or replace */
};

struct bench_shared {
	struct bench_table *bt;
	unsigned long keys;		/* a power of two */
	unsigned threads;		/* sweep: how many share the keys */
	double deadline;		/* sweep: give up then (a stalled table) */
	enum bench_op op;		/* sweep: what is done to each key;
					 * pool: how the writers add */
	atomic_int stop;
	pthread_barrier_t start;
};

/* Inline: the roles call these in their timed loops. */
static inline uint64_t rng_next(uint64_t *s)
{
	/* xorshift64*: cheap, and the same sequence for every implementation. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static inline int stopped(struct bench_shared *sh)
{
	/* Relaxed: a plain flag; the counters are read after pthread_join,
	 * which orders everything the worker did. */
	return atomic_load_explicit(&sh->stop, memory_order_relaxed);
}

struct bench_worker;
/* A thread role: the loop a worker runs (impl.c). */
typedef void bench_role(struct bench_worker *w);

/* One cache line pair per worker: the counters are written in the loops,
 * and neighbours sharing a line would slow every implementation down. */
struct bench_worker {
	_Alignas(128) pthread_t tid;
	struct bench_shared *sh;
	bench_role *role;
	unsigned id;
	uint64_t rng;
	struct bench_counts n;
	double end;	/* bench_now() when its role returned */
};

bench_role role_read, role_mixed, role_writer, role_addel, role_sweep, role_resizer,
	role_hot_read, role_hot_writer, role_batch, role_long_read, role_grow_writer,
	role_hot1_writer, role_rcufree, role_pool_read, role_pool_writer, role_flush;

struct bench_workload;

/* Options of one run. */
struct options {
	const struct bench_workload *w;	/* the table's entry */
	unsigned long keys;
	unsigned threads;
	double seconds;
	int cleanup;
	int auto_mode;			/* auto-resizing tables: 1 acct, 2 plain */
};

/* One RESULT line: the run's shape and its fields, in order. */
enum bench_fmt {
	FMT_RATE,		/* %.6g */
	FMT_SECS,		/* %.3f */
	FMT_RATIO,		/* %.3f */
	FMT_BYTES,		/* %.2f */
	FMT_COUNT,		/* an integer */
};
struct bench_field {
	const char *name;
	enum bench_fmt fmt;
	double value;
};
#define MAX_FIELDS 16
struct bench_result {
	unsigned long keys;
	unsigned threads;
	unsigned n;
	struct bench_field f[MAX_FIELDS];
};

void result_add(struct bench_result *r, const char *name, enum bench_fmt fmt, double value);
/* name=count/secs, as a rate. */
void result_rate(struct bench_result *r, const char *name, unsigned long count, double secs);
/* hit_ratio=hits/lookups. */
void result_hit_ratio(struct bench_result *r, const struct bench_counts *c);

/* A metric the driver tabulates: the RESULT field and its column label. */
enum { METRIC_ZERO_OK = 1, METRIC_LOWER_IS_BETTER = 2 };
struct bench_metric {
	const char *name, *label;
	unsigned flags;
};

/*
 * A workload, as the driver reads it (--info). The shape says which points
 * the driver runs: keys "list" (its --keys), "fill" or "batch" (their own
 * key lists), "first=N" (the first --keys, else N), "fixed=N", or "none"
 * (no table of keys: the point's keys are 1, printed "-"); threads "list"
 * (its --threads) or "fixed=N". roles: the threads as the tables print
 * them, T standing for the thread count. report: the table it goes to
 * ("throughput", "pace" or "memory"); runs: repeats per point (0: the
 * driver's --repeats).
 */
enum { WL_ANY_KEY_COUNT = 1 };
struct bench_workload {
	const char *name;
	const char *what;
	const char *keys, *threads, *roles, *report;
	unsigned runs;
	unsigned long smoke_keys;
	unsigned flags;
	unsigned char needs[4];		/* in the order the reasons are given */
	enum bench_op op;		/* run_sweep: the operation swept */
	struct bench_metric metrics[8];
	void (*run)(const struct options *o, struct bench_result *r);
};
extern const struct bench_workload bench_workloads[];
extern const unsigned bench_nworkloads;

/* Why this implementation cannot run w, or NULL. */
const char *workload_refused(const struct bench_workload *w);

/* report.c */
void print_result(const struct bench_workload *w, const struct bench_result *r);
void print_info(void);
_Noreturn void print_unsupported(const struct bench_workload *w, const char *reason);
_Noreturn void usage(void);

/* harness.c */
struct bench_totals {
	double t0, secs;	/* start (bench_now), timed length */
	struct bench_counts n;
};
/* --pin: the main thread (which fills the tables) runs on CPU 0 and worker
 * i on CPU i mod the CPUs online, so that which worker shares a CPU, and
 * so its caches, with the fill is the same in every run (harness.c). */
extern int bench_pin;
void bench_pin_self(unsigned i);
struct bench_totals run_workers(struct bench_shared *sh, bench_role *const *roles,
				unsigned n, double seconds);
struct bench_table *new_table(const struct options *o, unsigned long init, int auto_resize);
void finish(struct bench_table *bt, int cleanup);
unsigned long fill_keys(struct bench_table *bt, unsigned long n);
void growth_settled(struct bench_table *bt);
double cpu_seconds(void);
long heap_in_use(void);
/* maps.c: resident bytes of the anonymous mappings made through mmap()
 * and not unmapped since (a library's own, outside malloc). */
long mapped_resident_bytes(void);
long heap_settled(void);
long rss_bytes(void);

/* runs.c: the run functions the table names. */
void run_read(const struct options *o, struct bench_result *r);
void run_autoread(const struct options *o, struct bench_result *r);
void run_mixed(const struct options *o, struct bench_result *r);
void run_addel(const struct options *o, struct bench_result *r);
void run_churn(const struct options *o, struct bench_result *r);
void run_sweep(const struct options *o, struct bench_result *r);
void run_pace(const struct options *o, struct bench_result *r);
void run_pool(const struct options *o, struct bench_result *r);
void run_rw1(const struct options *o, struct bench_result *r);
void run_hot10(const struct options *o, struct bench_result *r);
void run_hot1(const struct options *o, struct bench_result *r);
void run_longread(const struct options *o, struct bench_result *r);
void run_batch(const struct options *o, struct bench_result *r);
void run_rcufree(const struct options *o, struct bench_result *r);
void run_memory(const struct options *o, struct bench_result *r);
void run_flush(const struct options *o, struct bench_result *r);

#endif /* BENCH_H */
