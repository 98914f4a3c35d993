/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench: the thread harness and what the run functions set up with:
 * the worker threads (each runs one role, impl.c), tables made and filled,
 * the waits for growth and for the heap to settle, the heap and RSS probes.
 * Nothing here is timed per operation: the implementation is reached
 * through struct bench_impl.
 */
#define _GNU_SOURCE

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_common.h"

int bench_pin;

void bench_pin_self(unsigned i)
{
	long nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int err;

	if (!bench_pin)
		return;
	CPU_ZERO(&set);
	CPU_SET(i % (unsigned long)(nr_cpus > 0 ? nr_cpus : 1), &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err) {
		fprintf(stderr, "lfht-bench-%s: --pin: pthread_setaffinity_np: %s\n",
			bench_impl.name, strerror(err));
		exit(1);
	}
}

static void *worker_main(void *arg)
{
	struct bench_worker *w = arg;

	bench_pin_self(w->id);
	bench_impl.register_thread();
	/* Offline while waiting, so that no grace period waits for us. */
	bench_impl.offline();
	pthread_barrier_wait(&w->sh->start);
	bench_impl.online();
	w->role(w);
	w->end = bench_now();
	bench_impl.unregister_thread();
	return NULL;
}

static void add_counts(struct bench_counts *to, const struct bench_counts *c)
{
	to->lookups += c->lookups;
	to->hits += c->hits;
	to->updates += c->updates;
	to->inserts += c->inserts;
	to->deletes += c->deletes;
	to->resizes += c->resizes;
	to->sections += c->sections;
	to->walked += c->walked;
	to->callbacks += c->callbacks;
}

/*
 * Runs the workers (roles[i] for worker i) on sh->bt: for `seconds`, or
 * until all finish when seconds is 0 (fill). The calling thread is
 * registered and stays offline meanwhile. A run to completion lasts until
 * the last role returns: the workers' unregistration, exit and join come
 * after (on this VM they took 0.4-2 ms, a fifth to a half of a sweep of
 * 2^16 keys, and more for some implementations than others).
 */
struct bench_totals run_workers(struct bench_shared *sh, bench_role *const *roles,
				unsigned n, double seconds)
{
	struct bench_worker *ws = aligned_alloc(_Alignof(struct bench_worker), n * sizeof(*ws));
	struct bench_totals t = { 0 };
	double t0;

	if (!ws)
		abort();
	memset(ws, 0, n * sizeof(*ws));
	atomic_store_explicit(&sh->stop, 0, memory_order_relaxed);
	pthread_barrier_init(&sh->start, NULL, n + 1);
	for (unsigned i = 0; i < n; i++) {
		ws[i] = (struct bench_worker){ .sh = sh, .role = roles[i], .id = i,
					       .rng = UINT64_C(0x9e3779b97f4a7c15) * (i + 1) };
		if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
			perror("pthread_create");
			exit(1);
		}
	}
	bench_impl.offline();
	pthread_barrier_wait(&sh->start);
	t0 = t.t0 = bench_now();
	if (seconds > 0) {
		struct timespec ts = { (time_t)seconds,
				       (long)((seconds - (double)(time_t)seconds) * 1e9) };

		nanosleep(&ts, NULL);
		atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
		t.secs = bench_now() - t0;
	}
	for (unsigned i = 0; i < n; i++) {
		pthread_join(ws[i].tid, NULL);
		add_counts(&t.n, &ws[i].n);
	}
	if (seconds <= 0)
		for (unsigned i = 0; i < n; i++)
			if (ws[i].end - t0 > t.secs)
				t.secs = ws[i].end - t0;
	bench_impl.online();
	pthread_barrier_destroy(&sh->start);
	free(ws);
	return t;
}

/* Adds keys 0..n-1 from this thread; stops early (and says so) if the
 * table stalls, see run_fill(). Returns how many were added. */
unsigned long fill_keys(struct bench_table *bt, unsigned long n)
{
	double deadline = bench_now() + FILL_LIMIT_SECONDS;
	uint64_t k;

	for (k = 0; k < n; k++) {
		bench_impl.add_unique(bt, k);
		if (k % BATCH == 0) {
			bench_impl.quiescent();
			if (bench_now() > deadline) {
				fprintf(stderr, "lfht-bench: %s: fill stalled at %lu of %lu keys\n",
					bench_impl.name, (unsigned long)k, n);
				break;
			}
		}
	}
	return (unsigned long)k;
}

/* An auto-resizing table is made as --auto-flags says (o->auto_mode). */
struct bench_table *new_table(const struct options *o, unsigned long init, int auto_resize)
{
	struct bench_table *bt = bench_impl.new_table(init, auto_resize ? o->auto_mode : 0);

	if (!bt) {
		fprintf(stderr, "lfht-bench: cannot create a table\n");
		exit(1);
	}
	return bt;
}

void finish(struct bench_table *bt, int cleanup)
{
	if (cleanup && bench_impl.destroy(bt) != 0) {
		fprintf(stderr, "lfht-bench: destroy failed\n");
		exit(1);
	}
}

/*
 * After a fill from one bucket, lets growth finish before lookups are
 * timed: a resize running in a worker (lfht) would be measured with them.
 * The heap stops changing once the bucket arrays are allocated; where the
 * bucket count is known, also wait (offline, bounded) until it has stayed
 * the same for 0.2 s, since the buckets are linked in after allocation.
 */
void growth_settled(struct bench_table *bt)
{
	unsigned long last = bench_impl.bucket_count(bt), now;
	double deadline = bench_now() + 10.0;
	int same = 0;

	(void)heap_settled();
	while (last && same < 10 && bench_now() < deadline) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		bench_impl.offline();
		nanosleep(&ts, NULL);
		bench_impl.online();
		now = bench_impl.bucket_count(bt);
		same = now == last ? same + 1 : 0;
		last = now;
	}
}

/* Bytes in use: malloc's (mmapped chunks included, all arenas), and what
 * the table's library maps for itself (maps.c), or, for one that has an
 * allocator of its own (DPDK's rte_malloc), what that says it holds. */
long heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	long extra = bench_impl.heap_extra ? bench_impl.heap_extra() : mapped_resident_bytes();

	return (long)(mi.uordblks + mi.hblkhd) + extra;
}

/* CPU seconds this process has run, every thread (a table's resize
 * threads and RCU workers included), user and system. */
double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* Resident bytes: sees what the allocator maps outside malloc too (liburcu
 * maps its bucket tables with mmap). Page-grained, hence large counts. */
long rss_bytes(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * sysconf(_SC_PAGESIZE);
}

/* Waits (bounded) until the heap stops changing: deferred frees and an
 * asynchronous resize must be over before the count means anything. */
long heap_settled(void)
{
	long last = -1, now;
	int same = 0;

	for (int i = 0; i < 100 && same < 3; i++) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		bench_impl.barrier();
		bench_impl.offline();
		nanosleep(&ts, NULL);
		bench_impl.online();
		now = heap_in_use();
		same = now == last ? same + 1 : 0;
		last = now;
	}
	return last;
}
