/* SPDX-License-Identifier: MIT */
/*
 * resize.c - growing and shrinking, quoted by docs/resizing.md: a manual
 * resize, automatic growth with accounting, node counts, and the attributes
 * of the resize worker handed back by cds_lfht_destroy(). memb flavour.
 * cds_lfht_resize() is done when it returns; automatic resizes run in the
 * table's worker thread, so the program waits for the bucket count it
 * expects, with a bound.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <rcu/memb.h>
#include <lfht/lfht.h>
#include <lfht/extensions.h>

enum { NR_ENTRIES = 4096 };

struct entry {
	unsigned long key;
	struct cds_lfht_node node;
};

static unsigned long hash_ulong(unsigned long key)
{
	uint64_t x = key;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (unsigned long)x;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits until the bucket count satisfies want (at least, or at most, n);
 * gives up after timeout seconds. Returns the last count seen. */
static unsigned long wait_buckets(struct cds_lfht *ht, int at_least, unsigned long n,
				  double timeout)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 1000000 };
	double deadline = now() + timeout;
	unsigned long size;

	for (;;) {
		size = lfht_nr_buckets(ht);
		if ((at_least ? size >= n : size <= n) || now() > deadline)
			return size;
		nanosleep(&tick, NULL);
	}
}

static int manual_resize(void)
{
	/* No flags: the table keeps its size until asked. */
	struct cds_lfht *ht = cds_lfht_new(4, 4, 1UL << 12, 0, NULL);
	int ok = 1;

	if (ht == NULL)
		return 0;
	/* Done in this thread: the size holds when the call returns. */
	cds_lfht_resize(ht, 1024);	/* registered, outside a read-side section */
	ok &= lfht_nr_buckets(ht) == 1024;
	cds_lfht_resize(ht, 1);		/* clamped to min_nr_alloc_buckets */
	ok &= lfht_nr_buckets(ht) == 4;
	ok &= cds_lfht_destroy(ht, NULL) == 0;
	return ok;
}

static int automatic_resize(void)
{
	static struct entry entries[NR_ENTRIES];
	pthread_attr_t attr, *attr_back = NULL;
	long before, after;
	unsigned long count, grown, shrunk;
	struct cds_lfht *ht;
	int ok = 1;

	/* The resize worker's attributes: a small stack, for example. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, &attr);
	if (ht == NULL)
		return 0;

	rcu_read_lock();
	for (unsigned long i = 0; i < NR_ENTRIES; i++) {
		entries[i].key = i;
		cds_lfht_node_init(&entries[i].node);
		cds_lfht_add(ht, hash_ulong(i), &entries[i].node);
	}
	rcu_read_unlock();
	grown = wait_buckets(ht, 1, 64, 10.0);

	rcu_read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	printf("%d entries: %lu buckets, count %lu (split counters %ld/%ld)\n",
	       NR_ENTRIES, grown, count, before, after);
	ok &= grown >= 64 && count == NR_ENTRIES;

	rcu_read_lock();
	for (unsigned long i = 0; i < NR_ENTRIES; i++)
		ok &= cds_lfht_del(ht, &entries[i].node) == 0;
	rcu_read_unlock();
	/* With accounting the table shrinks again; how far is its choice. */
	shrunk = wait_buckets(ht, 0, grown / 2, 2.0);
	printf("empty: %lu buckets\n", shrunk);

	synchronize_rcu();	/* entries is static: nothing to free */
	ok &= cds_lfht_destroy(ht, &attr_back) == 0;
	ok &= attr_back == &attr;
	pthread_attr_destroy(&attr);
	return ok;
}

int main(void)
{
	int ok;

	rcu_register_thread();
	ok = manual_resize() && automatic_resize();
	rcu_unregister_thread();
	printf("resize: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
