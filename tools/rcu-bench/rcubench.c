/* SPDX-License-Identifier: MIT */
/*
 * rcu-bench worker: the costs of one RCU implementation, one result line.
 * Built once per implementation from this source (BENCH_IMPL_HEADER picks
 * ours or liburcu's, QSBR or memb); the driver runs them interleaved.
 *
 *   read_ns      one rcu_read_lock() + rcu_read_unlock() pair, in ns
 *   syncK_us     median synchronize_rcu() latency with K other registered
 *                busy reader threads (K = 0, 1, 2), in us
 *   callrcu_mps  call_rcu() callbacks queued and run (through rcu_barrier),
 *                millions per second: no-op callbacks on preallocated heads,
 *                so the figure is call_rcu's own cost, no malloc or free
 *   callrcu2_mps the same with 2 threads queueing at once
 *   rw_reads_mps 2 busy readers (as for syncK_us: empty read-side sections) and
 *                2 writers looping on synchronize_rcu() at once: the
 *                readers' sections, millions per second in all
 *   rw_syncs_kps the writers' synchronize_rcu() calls in that run,
 *                thousands per second in all (each grace period fences
 *                the readers: memb and bp with membarrier(), an interrupt
 *                on each CPU running one)
 */
#define _GNU_SOURCE

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include BENCH_IMPL_HEADER

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * An empty read-side section, kept out of line so that its code can be
 * inspected: with QSBR in a release build it is a bare "ret" (see
 * docs/performance.md for the objdump command).
 */
__attribute__((noinline)) void bench_read_section(void);
__attribute__((noinline)) void bench_read_section(void)
{
	rcu_read_lock();
	rcu_read_unlock();
}

static double measure_read_ns(unsigned long n)
{
	double t0 = now();

	for (unsigned long i = 0; i < n; i++) {
		rcu_read_lock();
		/* Keeps the loop and its order: a compiler barrier only. */
		atomic_signal_fence(memory_order_seq_cst);
		rcu_read_unlock();
	}
	return (now() - t0) / (double)n * 1e9;
}

/* Stops the busy readers (and measure_rw()'s writers). */
static atomic_int readers_stop;
static atomic_int readers_ready;
/* Read-side sections the busy readers ran, added as each stops. */
static atomic_ulong reader_sections;

static void *busy_reader(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	rcu_register_thread();
	/* Relaxed: a counter the main thread polls; nothing is published. */
	atomic_fetch_add_explicit(&readers_ready, 1, memory_order_relaxed);
	while (!atomic_load_explicit(&readers_stop, memory_order_relaxed)) {
		for (int i = 0; i < 64; i++) {
			rcu_read_lock();
			atomic_signal_fence(memory_order_seq_cst);
			rcu_read_unlock();
			bench_quiescent();
		}
		n += 64;
	}
	/* Relaxed: read after the join. */
	atomic_fetch_add_explicit(&reader_sections, n, memory_order_relaxed);
	rcu_unregister_thread();
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median latency of synchronize_rcu() over `seconds` (at most max calls). */
static double measure_sync_us(unsigned nreaders, double seconds)
{
	enum { MAX_CALLS = 4096 };
	static double lat[MAX_CALLS];
	pthread_t tids[8];
	unsigned n = 0;
	double end;

	atomic_store_explicit(&readers_stop, 0, memory_order_relaxed);
	atomic_store_explicit(&readers_ready, 0, memory_order_relaxed);
	for (unsigned i = 0; i < nreaders; i++)
		if (pthread_create(&tids[i], NULL, busy_reader, NULL) != 0)
			abort();
	/* Bounded wait until every reader is registered and running. */
	for (double limit = now() + 5.0;
	     atomic_load_explicit(&readers_ready, memory_order_relaxed) < (int)nreaders &&
	     now() < limit;)
		sched_yield();
	end = now() + seconds;
	while (n < MAX_CALLS && (n < 8 || now() < end)) {
		double t0 = now();

		synchronize_rcu();
		lat[n++] = (now() - t0) * 1e6;
	}
	atomic_store_explicit(&readers_stop, 1, memory_order_relaxed);
	for (unsigned i = 0; i < nreaders; i++)
		pthread_join(tids[i], NULL);
	qsort(lat, n, sizeof(lat[0]), cmp_double);
	return lat[n / 2];
}

/* The 2 + 2 run: the writers' synchronize_rcu() calls. */
static atomic_ulong rw_syncs;

static void *rw_writer(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	rcu_register_thread();
	bench_offline();
	/* Relaxed: a stop flag only. */
	while (!atomic_load_explicit(&readers_stop, memory_order_relaxed)) {
		synchronize_rcu();
		n++;
	}
	bench_online();
	/* Relaxed: read after the join. */
	atomic_fetch_add_explicit(&rw_syncs, n, memory_order_relaxed);
	rcu_unregister_thread();
	return NULL;
}

/* 2 readers and 2 writers for seconds; the rates through *reads_mps and
 * *syncs_kps. The calling thread is offline meanwhile. */
static void measure_rw(double seconds, double *reads_mps, double *syncs_kps)
{
	pthread_t tids[4];
	struct timespec ts = { (time_t)seconds,
			       (long)((seconds - (double)(time_t)seconds) * 1e9) };
	double t0;

	atomic_store_explicit(&readers_stop, 0, memory_order_relaxed);
	atomic_store_explicit(&reader_sections, 0, memory_order_relaxed);
	atomic_store_explicit(&rw_syncs, 0, memory_order_relaxed);
	t0 = now();
	for (unsigned i = 0; i < 4; i++)
		if (pthread_create(&tids[i], NULL, i < 2 ? busy_reader : rw_writer, NULL) != 0)
			abort();
	nanosleep(&ts, NULL);
	atomic_store_explicit(&readers_stop, 1, memory_order_relaxed);
	for (unsigned i = 0; i < 4; i++)
		pthread_join(tids[i], NULL);
	t0 = now() - t0;
	*reads_mps =
		(double)atomic_load_explicit(&reader_sections, memory_order_relaxed) / t0 / 1e6;
	*syncs_kps = (double)atomic_load_explicit(&rw_syncs, memory_order_relaxed) / t0 / 1e3;
}

static atomic_ulong callbacks_run;

static void count_callback(struct rcu_head *head)
{
	(void)head;
	/* Relaxed: read after rcu_barrier(), which orders the callbacks. */
	atomic_fetch_add_explicit(&callbacks_run, 1, memory_order_relaxed);
}

/* One thread's share of a call_rcu measurement: n heads to queue. */
struct call_share {
	struct rcu_head *heads;
	unsigned long n;
};

static void queue_share(const struct call_share *share)
{
	for (unsigned long i = 0; i < share->n; i++) {
		call_rcu(&share->heads[i], count_callback);
		if (i % 256 == 0)
			bench_quiescent();
	}
}

static void *queue_share_thread(void *arg)
{
	rcu_register_thread();
	queue_share(arg);
	rcu_unregister_thread();
	return NULL;
}

/* nr_threads threads (this one and nr_threads - 1 more) queue n
 * callbacks in all; the time runs until rcu_barrier() saw them all run. */
static double measure_call_rcu_mps(unsigned long n, unsigned nr_threads)
{
	struct rcu_head *heads = calloc(n, sizeof(*heads));
	struct call_share shares[2];
	pthread_t helper;
	double t0, secs;

	if (!heads || nr_threads < 1 || nr_threads > 2)
		abort();
	for (unsigned t = 0; t < nr_threads; t++)
		shares[t] = (struct call_share){ .heads = heads + t * (n / nr_threads),
						 .n = t + 1 < nr_threads ? n / nr_threads :
						      n - t * (n / nr_threads) };
	atomic_store_explicit(&callbacks_run, 0, memory_order_relaxed);
	t0 = now();
	if (nr_threads == 2 && pthread_create(&helper, NULL, queue_share_thread, &shares[1]))
		abort();
	queue_share(&shares[0]);
	if (nr_threads == 2) {
		bench_offline();
		pthread_join(helper, NULL);
		bench_online();
	}
	rcu_barrier();
	secs = now() - t0;
	if (atomic_load_explicit(&callbacks_run, memory_order_relaxed) != n) {
		fprintf(stderr, "rcu-bench: %lu of %lu callbacks ran\n",
			atomic_load_explicit(&callbacks_run, memory_order_relaxed), n);
		exit(1);
	}
	free(heads);
	return (double)n / secs / 1e6;
}

int main(int argc, char **argv)
{
	double seconds = 0.3;
	double read_ns, sync_us[3], mps, mps2, rw_reads_mps, rw_syncs_kps;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			seconds = strtod(argv[++i], NULL);
		} else if (!strcmp(argv[i], "--info")) {
			printf("INFO impl=%s\n", BENCH_IMPL);
			return 0;
		} else {
			fprintf(stderr, "usage: rcu-bench-%s [--seconds S] | --info\n", BENCH_IMPL);
			return 2;
		}
	}
	if (seconds <= 0)
		seconds = 0.3;

	rcu_register_thread();
	bench_read_section();
	/* About seconds/3 of lock/unlock pairs at ~1 ns each. */
	read_ns = measure_read_ns((unsigned long)(seconds / 3 * 1e9));
	bench_offline();
	for (unsigned k = 0; k < 3; k++)
		sync_us[k] = measure_sync_us(k, seconds / 4);
	measure_rw(seconds / 2, &rw_reads_mps, &rw_syncs_kps);
	bench_online();
	mps = measure_call_rcu_mps((unsigned long)(seconds * 1e6) + 1000, 1);
	mps2 = measure_call_rcu_mps((unsigned long)(seconds * 1e6) + 1000, 2);
	rcu_unregister_thread();

	printf("RESULT impl=%s read_ns=%.4g sync0_us=%.4g sync1_us=%.4g sync2_us=%.4g"
	       " callrcu_mps=%.4g callrcu2_mps=%.4g rw_reads_mps=%.4g rw_syncs_kps=%.4g\n",
	       BENCH_IMPL, read_ns, sync_us[0], sync_us[1], sync_us[2], mps, mps2, rw_reads_mps,
	       rw_syncs_kps);
	return 0;
}
