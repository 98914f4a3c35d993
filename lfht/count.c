/* SPDX-License-Identifier: MIT */
/*
 * lfht/count.c - split counters (CDS_LFHT_ACCOUNTING): counting and
 * summing, nothing else (resize.c decides what the counts mean).
 *
 * Owns the counter slots: one cache-line-padded signed counter per CPU
 * (sched_getcpu(); slot index masked, so any CPU number is safe). An add
 * adds one to its CPU's slot, a del subtracts one, both relaxed: the sum of
 * all slots is the exact node count whenever no update is in flight. No
 * counter is shared on the update path.
 *
 * Invariant: a slot's value changes only by relaxed atomic +-1. Each slot
 * also counts the table's updates made on it, which paces resize.c's looks
 * at the sum: a table's triggers depend on its own updates only.
 *
 * Calls internal.h only.
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
	unsigned long mask;	/* number of slots - 1 */
	struct lfht_counter_slot *slots;
	void *raw;		/* the allocation (slots are aligned inside it) */
	size_t raw_size;
};

int lfht_counters_create(struct cds_lfht *ht)
{
	long nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long nr = 1;
	struct lfht_counters *c;

	if (nr_cpus < 1)
		nr_cpus = 1;
	while (nr < (unsigned long)nr_cpus && nr < 4096)
		nr <<= 1;
	c = lfht_zalloc(ht, sizeof(*c));
	if (!c)
		return -ENOMEM;
	/* The allocator promises 16-byte alignment: over-allocate a line. */
	c->raw_size = (nr + 1) * sizeof(struct lfht_counter_slot);
	c->raw = lfht_zalloc(ht, c->raw_size);
	if (!c->raw) {
		lfht_free(ht, c, sizeof(*c));
		return -ENOMEM;
	}
	c->slots = (struct lfht_counter_slot *)(((uintptr_t)c->raw + LFHT_CACHE_LINE - 1) &
						~(uintptr_t)(LFHT_CACHE_LINE - 1));
	c->mask = nr - 1;
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
	for (unsigned long i = 0; i <= c->mask; i++)
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

static struct lfht_counter_slot *count_slot(struct lfht_counters *c)
{
	int cpu = sched_getcpu();

	return &c->slots[(unsigned long)(cpu < 0 ? 0 : cpu) & c->mask];
}

/* Counts one update of the table in slot (the resize triggers' pace);
 * returns the slot's count of updates. */
static unsigned long count_update(struct lfht_counter_slot *slot)
{
	/* Relaxed, and not an RMW: a pacing hint, where a count lost to a
	 * thread that moved CPU between the two costs nothing; the slot's
	 * line is already this CPU's (the value's RMW). */
	unsigned long ops = rcu_atomic_load(&slot->ops, memory_order_relaxed) + 1;

	rcu_atomic_store(&slot->ops, ops, memory_order_relaxed);
	return ops;
}

/* Adds delta (+1 or -1) to this CPU's slot; returns the slot's update
 * count (0 without accounting). */
static unsigned long count_change(struct cds_lfht *ht, long delta)
{
	struct lfht_counter_slot *slot;

	if (!ht->counters)
		return 0;
	slot = count_slot(ht->counters);
	/* Relaxed: the count is a statistic; no data hangs on it. */
	rcu_atomic_add(&slot->value, delta, memory_order_relaxed);
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
