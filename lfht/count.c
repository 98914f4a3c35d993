/* SPDX-License-Identifier: MIT */
/*
 * lfht/count.c - split counters (CDS_LFHT_ACCOUNTING): counting and
 * summing, nothing else (resize.c decides what the counts mean).
 *
 * Owns the counter slots, each a cache-line-padded signed count, in two
 * kinds:
 * - owned slots, one per number the flavour's registry gives a thread
 *   (rcu_flavour.thread_slot(), 1..nr_owned): only the thread holding that
 *   number changes its slot, with a relaxed load and a relaxed store, no
 *   read-modify-write (no lock prefix, no CPU number to look up);
 * - CPU slots, one per CPU (sched_getcpu(), masked, so any CPU number is
 *   safe), for a thread with no owned slot (bp, past nr_owned, not
 *   registered): a relaxed atomic add.
 * An add adds one to its slot, a del subtracts one: the sum of all slots is
 * the exact node count whenever no update is in flight. No counter is
 * shared on the update path.
 *
 * Invariants: an owned slot has one writer at a time, the thread holding
 * its number; the next holder registered after the last one unregistered,
 * under the registry's lock, so the last store happens before the next
 * holder's first load (rcu/flavour.h). A CPU slot changes only by relaxed
 * atomic +-1. Each slot also counts the table's updates made on it, which
 * paces resize.c's looks at the sum: a table's triggers depend on its own
 * updates only.
 *
 * Calls internal.h and the table's flavour's thread_slot op only.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include "internal.h"

struct lfht_counter_slot {
	_Alignas(LFHT_CACHE_LINE) _Atomic(long) value;
	/* Updates counted in this slot, to pace the looks at the sum: the
	 * table's own, so its triggers depend on nothing else. */
	_Atomic(unsigned long) ops;
};

struct lfht_counters {
	unsigned long nr_owned;	/* owned slots: slots[0, nr_owned) */
	unsigned long cpu_mask;	/* CPU slots - 1: slots[nr_owned + cpu] */
	unsigned (*thread_slot)(void);	/* the flavour's op */
	struct lfht_counter_slot *slots;
	void *raw;		/* the allocation (slots are aligned inside it) */
	size_t raw_size;
};

/* Owned slots per table: one per CPU, and at least 8, so that on small
 * machines the library's own threads (the call_rcu and resize workers) and
 * a main thread leave numbers for the application's. A slot is 128 bytes:
 * with the CPU slots, 2 * 128 bytes per CPU. */
#define COUNT_MIN_OWNED 8

int lfht_counters_create(struct cds_lfht *ht)
{
	long nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long nr = 1, nr_owned;
	struct lfht_counters *c;

	if (nr_cpus < 1)
		nr_cpus = 1;
	while (nr < (unsigned long)nr_cpus && nr < 4096)
		nr <<= 1;
	nr_owned = nr < COUNT_MIN_OWNED ? COUNT_MIN_OWNED : nr;
	c = lfht_zalloc(ht, sizeof(*c));
	if (!c)
		return -ENOMEM;
	/* The allocator promises 16-byte alignment: over-allocate a line. */
	c->raw_size = (nr_owned + nr + 1) * sizeof(struct lfht_counter_slot);
	c->raw = lfht_zalloc(ht, c->raw_size);
	if (!c->raw) {
		lfht_free(ht, c, sizeof(*c));
		return -ENOMEM;
	}
	c->slots = (struct lfht_counter_slot *)(((uintptr_t)c->raw + LFHT_CACHE_LINE - 1) &
						~(uintptr_t)(LFHT_CACHE_LINE - 1));
	c->nr_owned = nr_owned;
	c->cpu_mask = nr - 1;
	c->thread_slot = ht->flavour->thread_slot;
	ht->counters = c;
	return 0;
}

void lfht_counters_destroy(struct cds_lfht *ht)
{
	struct lfht_counters *c = ht->counters;

	if (!c)
		return;
	lfht_free(ht, c->raw, c->raw_size);
	lfht_free(ht, c, sizeof(*c));
	ht->counters = NULL;
}

long lfht_counters_sum(struct cds_lfht *ht)
{
	struct lfht_counters *c = ht->counters;
	long sum = 0;

	if (!c)
		return 0;
	for (unsigned long i = 0; i < c->nr_owned + c->cpu_mask + 1; i++)
		/* Relaxed: a sum of snapshots, exact when updates are quiet. */
		sum += rcu_atomic_load(&c->slots[i].value, memory_order_relaxed);
	return sum;
}

unsigned long lfht_counters_count(struct cds_lfht *ht)
{
	long sum = lfht_counters_sum(ht);

	/* Slots are split: mid-update snapshots can add up below zero. */
	return sum < 0 ? 0 : (unsigned long)sum;
}

/* This CPU's slot, for a thread that holds no owned one. */
static struct lfht_counter_slot *count_cpu_slot(struct lfht_counters *c)
{
	int cpu = sched_getcpu();

	return &c->slots[c->nr_owned + ((unsigned long)(cpu < 0 ? 0 : cpu) & c->cpu_mask)];
}

/* Counts one update of the table in slot (the resize triggers' pace);
 * returns the slot's count of updates. */
static unsigned long count_update(struct lfht_counter_slot *slot)
{
	/* Relaxed, and not an RMW: a pacing hint, where a count lost to a
	 * thread that moved CPU between the two costs nothing; the slot's
	 * line is already this CPU's (the value's change). */
	unsigned long ops = rcu_atomic_load(&slot->ops, memory_order_relaxed) + 1;

	rcu_atomic_store(&slot->ops, ops, memory_order_relaxed);
	return ops;
}

/* Adds delta (+1 or -1) to the caller's slot; returns the slot's update
 * count (0 without accounting). */
static unsigned long count_change(struct cds_lfht *ht, long delta)
{
	struct lfht_counters *c = ht->counters;
	struct lfht_counter_slot *slot;
	unsigned long owned;

	if (!c)
		return 0;
	owned = c->thread_slot();
	/* Numbers run from 1; none (0) wraps past nr_owned. */
	if (owned - 1 < c->nr_owned) {
		slot = &c->slots[owned - 1];
		/* Relaxed load and store, not an RMW: only this thread
		 * writes the slot while it holds the number (see the top
		 * comment for the hand-over); sums read it relaxed. */
		rcu_atomic_store(&slot->value,
				 rcu_atomic_load(&slot->value, memory_order_relaxed) + delta,
				 memory_order_relaxed);
	} else {
		slot = count_cpu_slot(c);
		/* Relaxed: the count is a statistic; no data hangs on it. */
		rcu_atomic_add(&slot->value, delta, memory_order_relaxed);
	}
	return count_update(slot);
}

unsigned long lfht_count_add(struct cds_lfht *ht)
{
	return count_change(ht, 1);
}

unsigned long lfht_count_del(struct cds_lfht *ht)
{
	return count_change(ht, -1);
}
