/* SPDX-License-Identifier: MIT */
/*
 * ds/tests/ds_test.h - what the queue and stack tests share: the element
 * they queue (a node of each kind, the producer and its sequence number),
 * a per-element "seen" count that proves every element was taken exactly
 * once, thread start-up, the work sizes (RCUDS_TEST_SCALE multiplies them,
 * default 1) and Check's main.
 */
#ifndef DS_TEST_H
#define DS_TEST_H

#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

#define DS_TEST_ADD(suite_, tc_name, seconds)				\
	do {								\
		TCase *tc_ = tcase_create(#tc_name);			\
		tcase_set_timeout(tc_, (seconds));			\
		tcase_add_test(tc_, tc_name);				\
		suite_add_tcase((suite_), tc_);				\
	} while (0)

static inline int ds_test_main(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif /* DS_TEST_H */
