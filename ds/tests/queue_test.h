/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/queue_test.h - what the queue and stack tests share: the work
 * sizes (RCUDS_TEST_SCALE multiplies them, default 1), a per-element "seen"
 * count that proves every element was taken exactly once, thread start-up,
 * and the producers-against-consumers harness (struct ds_pc).
 *
 * The harness knows the structure only through a struct ds_pc_ops: put one
 * element, take one or a batch. The test owns its element type (a node of
 * its kind, the producer and its sequence number): the harness allocates
 * per_producer elements of elem_size bytes per producer, has the test fill
 * and put each, and the test's take reports each element it took with
 * ds_pc_took (no order), ds_pc_took_fifo (after the same producer's earlier
 * ones, per consumer) or ds_pc_took_newest_first (within one batch started
 * by ds_pc_batch_begin).
 *
 * Each test source defines _GNU_SOURCE before including this header.
 */
#ifndef QUEUE_TEST_H
#define QUEUE_TEST_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "ds_test.h"

/* Elements each producer hands over in the concurrent tests. */
static inline unsigned ds_test_per_producer(void)
{
	const char *s = getenv("RCUDS_TEST_SCALE");
	unsigned scale = s != NULL ? (unsigned)strtoul(s, NULL, 10) : 1;

	/* Under an emulator (meson sets it in cross builds): a tenth. */
	if (getenv("RCUDS_TEST_EMULATED") != NULL)
		return 5000 * (scale ? scale : 1);

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
	return 5000 * (scale ? scale : 1);
#endif
#endif
	return 50000 * (scale ? scale : 1);
}

#define DS_TEST_MAX_PRODUCERS 4

/* Per element: how many times a consumer took it. */
struct ds_seen {
	unsigned producers, per_producer;
	unsigned *count;	/* [producer * per_producer + seq], atomic adds */
};

static inline void ds_seen_init(struct ds_seen *s, unsigned producers, unsigned per_producer)
{
	s->producers = producers;
	s->per_producer = per_producer;
	s->count = (unsigned *)calloc((size_t)producers * per_producer, sizeof(unsigned));
	ck_assert_ptr_nonnull(s->count);
}

static inline void ds_seen_mark(struct ds_seen *s, unsigned producer, unsigned seq)
{
	__atomic_fetch_add(&s->count[(size_t)producer * s->per_producer + seq], 1,
			   __ATOMIC_RELAXED);
}

/* Every element taken exactly once. */
static inline void ds_seen_check_once(struct ds_seen *s)
{
	for (unsigned p = 0; p < s->producers; p++)
		for (unsigned i = 0; i < s->per_producer; i++)
			ck_assert_msg(s->count[(size_t)p * s->per_producer + i] == 1,
				      "producer %u element %u taken %u times", p, i,
				      s->count[(size_t)p * s->per_producer + i]);
	free(s->count);
}

static inline void ds_spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
	ck_assert_int_eq(pthread_create(t, NULL, fn, arg), 0);
}

static inline void ds_join(pthread_t t)
{
	ck_assert_int_eq(pthread_join(t, NULL), 0);
}

static inline void ds_sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Producers against consumers. */
struct ds_pc;

/* One consumer thread: its harness and, per producer, the sequence number
 * it took last (UINT32_MAX: none yet). */
struct ds_pc_consumer {
	struct ds_pc *pc;
	unsigned last[DS_TEST_MAX_PRODUCERS];
};

struct ds_pc_ops {
	size_t elem_size;
	/* Sets elem's producer and seq, initialises its node and puts it in
	 * pc->q. */
	void (*put)(struct ds_pc *pc, void *elem, unsigned producer, unsigned seq);
	/* Takes one element or a batch from pc->q, reporting each with a
	 * ds_pc_took*; false when it found none. */
	bool (*take)(struct ds_pc_consumer *c);
	/* Optional: run by each worker thread before and after its work
	 * (RCU registration), and by the main thread around its joins. */
	void (*thread_begin)(void), (*thread_end)(void);
	void (*join_begin)(void), (*join_end)(void);
};

struct ds_pc {
	const struct ds_pc_ops *ops;
	void *q;		/* the structure under test */
	int mode;		/* the test's own: how take takes */
	unsigned producers, per_producer;
	unsigned total_taken;	/* atomic */
	struct ds_seen seen;
	void *elems[DS_TEST_MAX_PRODUCERS];
};

struct ds_pc_producer {
	struct ds_pc *pc;
	unsigned id;
};

/*
 * The took functions run on consumer threads, so they note failures with
 * DS_CHECK (see ds_test.h) and ds_pc_run asserts after the joins. Each
 * taken element is counted even when a check fails, so the run still ends.
 */

/* One taken element: counted once. */
static inline void ds_pc_took(struct ds_pc_consumer *c, unsigned producer, unsigned seq)
{
	DS_CHECK(producer < c->pc->producers && seq < c->pc->per_producer);
	if (producer < c->pc->producers && seq < c->pc->per_producer)
		ds_seen_mark(&c->pc->seen, producer, seq);
	__atomic_fetch_add(&c->pc->total_taken, 1, __ATOMIC_RELAXED);
}

/* One taken element, after the same producer's earlier ones. */
static inline void ds_pc_took_fifo(struct ds_pc_consumer *c, unsigned producer, unsigned seq)
{
	if (producer < DS_TEST_MAX_PRODUCERS) {
		if (c->last[producer] != UINT32_MAX && seq <= c->last[producer])
			fprintf(stderr, "producer %u: %u after %u\n", producer, seq,
				c->last[producer]);
		DS_CHECK(c->last[producer] == UINT32_MAX || seq > c->last[producer]);
		c->last[producer] = seq;
	}
	ds_pc_took(c, producer, seq);
}

/* A batch starts: no element of it seen yet. */
static inline void ds_pc_batch_begin(struct ds_pc_consumer *c)
{
	for (unsigned i = 0; i < DS_TEST_MAX_PRODUCERS; i++)
		c->last[i] = UINT32_MAX;
}

/* One element of a batch, before the same producer's earlier ones. */
static inline void ds_pc_took_newest_first(struct ds_pc_consumer *c, unsigned producer,
					   unsigned seq)
{
	if (producer < DS_TEST_MAX_PRODUCERS) {
		if (seq >= c->last[producer])
			fprintf(stderr, "producer %u: %u before %u\n", producer, seq,
				c->last[producer]);
		DS_CHECK(seq < c->last[producer]);
		c->last[producer] = seq;
	}
	ds_pc_took(c, producer, seq);
}

static inline void *ds_pc_producer_main(void *arg)
{
	struct ds_pc_producer *p = (struct ds_pc_producer *)arg;
	struct ds_pc *pc = p->pc;
	char *elems = (char *)pc->elems[p->id];

	if (pc->ops->thread_begin)
		pc->ops->thread_begin();
	for (unsigned i = 0; i < pc->per_producer; i++)
		pc->ops->put(pc, elems + (size_t)i * pc->ops->elem_size, p->id, i);
	if (pc->ops->thread_end)
		pc->ops->thread_end();
	return NULL;
}

static inline void *ds_pc_consumer_main(void *arg)
{
	struct ds_pc_consumer *c = (struct ds_pc_consumer *)arg;
	struct ds_pc *pc = c->pc;
	unsigned total = pc->producers * pc->per_producer;

	ds_pc_batch_begin(c);
	if (pc->ops->thread_begin)
		pc->ops->thread_begin();
	while (__atomic_load_n(&pc->total_taken, __ATOMIC_RELAXED) < total)
		if (!pc->ops->take(c))
			sched_yield();
	if (pc->ops->thread_end)
		pc->ops->thread_end();
	return NULL;
}

/*
 * Runs consumers, then producers, against pc->q until every element was
 * taken, and asserts each was taken exactly once. pc->ops, q and mode are
 * the caller's; the caller checks the structure is empty, then frees the
 * elements with ds_pc_free (after a grace period where readers may still
 * hold them).
 */
static inline void ds_pc_run(struct ds_pc *pc, unsigned producers, unsigned consumers,
			     unsigned per_producer)
{
	struct ds_pc_producer pa[DS_TEST_MAX_PRODUCERS];
	struct ds_pc_consumer ca[DS_TEST_MAX_PRODUCERS];
	pthread_t pt[DS_TEST_MAX_PRODUCERS], ct[DS_TEST_MAX_PRODUCERS];

	ck_assert_uint_le(producers, DS_TEST_MAX_PRODUCERS);
	ck_assert_uint_le(consumers, DS_TEST_MAX_PRODUCERS);
	pc->producers = producers;
	pc->per_producer = per_producer;
	pc->total_taken = 0;
	ds_seen_init(&pc->seen, producers, per_producer);
	for (unsigned i = 0; i < consumers; i++) {
		ca[i].pc = pc;
		ds_spawn(&ct[i], ds_pc_consumer_main, &ca[i]);
	}
	for (unsigned i = 0; i < producers; i++) {
		pa[i].pc = pc;
		pa[i].id = i;
		pc->elems[i] = calloc(per_producer, pc->ops->elem_size);
		ck_assert_ptr_nonnull(pc->elems[i]);
		ds_spawn(&pt[i], ds_pc_producer_main, &pa[i]);
	}
	if (pc->ops->join_begin)
		pc->ops->join_begin();
	for (unsigned i = 0; i < producers; i++)
		ds_join(pt[i]);
	for (unsigned i = 0; i < consumers; i++)
		ds_join(ct[i]);
	if (pc->ops->join_end)
		pc->ops->join_end();
	ck_assert_int_eq(ds_failures(), 0);
	ck_assert_uint_eq(pc->total_taken, producers * per_producer);
	ds_seen_check_once(&pc->seen);
}

static inline void ds_pc_free(struct ds_pc *pc)
{
	for (unsigned i = 0; i < pc->producers; i++)
		free(pc->elems[i]);
}

#endif /* QUEUE_TEST_H */
