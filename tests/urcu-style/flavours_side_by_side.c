/* SPDX-License-Identifier: MIT */
/*
 * flavours_side_by_side.c - a liburcu program (liburcu's headers and names
 * only) that uses the four flavours, memb, qsbr, mb and bp, in one
 * translation unit by their prefixed names, as liburcu 0.11 and later
 * allow: the four flavour headers without URCU_API_MAP, so no short name
 * (rcu_read_lock, call_rcu, rcu_flavor ...) may be left defined; the
 * shared declarations (call_rcu, the flavour object) come from the first
 * flavour header, memb. Built through lfht's compatibility layer and,
 * where installed, against liburcu itself (which shows it is liburcu code).
 *
 * For each flavour:
 * - read_ongoing_only_inside_sections: urcu_X_read_ongoing() is true in a
 *   section (nested too) and false outside (QSBR: offline);
 * - sections_belong_to_their_flavour: inside an X section, no other
 *   flavour sees a section of this thread;
 * - synchronize_with_no_reader: urcu_X_synchronize_rcu() returns (QSBR:
 *   called offline and online);
 * - grace_period_waits_for_its_own_reader: a second thread registers (bp:
 *   implicitly, by its first read lock), takes NR_SECTIONS sections, each
 *   seen ongoing (counted), then holds one; meanwhile every other
 *   flavour's synchronize_rcu(), from other threads, returns, X's does not
 *   (not within HOLD_S), and returns once the reader left, having seen
 *   what the reader wrote inside its section;
 * - poll_done_only_after_reader_left (TEST_HAVE_POLL: liburcu 0.14's
 *   polling, always in the layer): a poll started while the reader is in
 *   its section is not done, and is done (within WAIT_S) after it left.
 * And table_on_first_flavour: a table on urcu_memb_flavor, NR_KEYS adds,
 * lookups, deletes freed by urcu_memb_call_rcu(), urcu_memb_barrier(),
 * cds_lfht_destroy(): every deleted node freed.
 *
 * Every wait is for a condition (pthread_cond_timedwait, or a grace
 * period's poll state) and bounded; no result depends on a sleep. Prints
 * "N passed, N failed" and exits 1 if any check failed (at once, with the
 * summary, if a thread is stuck).
 */
#define _GNU_SOURCE
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-bp.h>
#include <urcu/rculfhash.h>
#include <urcu/compiler.h>
#include <urcu/uatomic.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* No URCU_API_MAP: each flavour header undid the short names. */
#include "no_short_names.h"

static const char *current_flavour = "-";
#define TEST_FLAVOR current_flavour
#include "test_check.h"

#define NR_SECTIONS	1000UL
#define NR_KEYS		1000UL
#define WAIT_S		10.0
/* How long a grace period that must wait is watched not returning. */
#define HOLD_S		0.05

static unsigned long nr_passed, nr_failed;

/* CHECK's message, without the exit: the program goes on to the next check. */
#define EXPECT(cond)							\
	do {								\
		if (caa_likely(cond)) {					\
			nr_passed++;					\
		} else {						\
			nr_failed++;					\
			fprintf(stderr, "%s:%d: [%s] check failed: %s\n", \
				__FILE__, __LINE__, TEST_FLAVOR, #cond); \
		}							\
	} while (0)

static void finish(void)
{
	printf("flavours side by side: %lu passed, %lu failed\n", nr_passed, nr_failed);
	exit(nr_failed == 0 ? 0 : 1);
}

/* EXPECT where going on is impossible (a thread that never returns). */
#define REQUIRE(cond)							\
	do {								\
		unsigned long failed_before_ = nr_failed;		\
		EXPECT(cond);						\
		if (nr_failed != failed_before_)			\
			finish();					\
	} while (0)

/* ---- a state under a mutex, waited for with a bound ---------------------- */

struct event {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state;
};

static void event_init(struct event *ev)
{
	pthread_condattr_t attr;

	CHECK(pthread_mutex_init(&ev->lock, NULL) == 0);
	CHECK(pthread_condattr_init(&attr) == 0);
	CHECK(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0);
	CHECK(pthread_cond_init(&ev->cond, &attr) == 0);
	CHECK(pthread_condattr_destroy(&attr) == 0);
	ev->state = 0;
}

static void event_destroy(struct event *ev)
{
	CHECK(pthread_cond_destroy(&ev->cond) == 0);
	CHECK(pthread_mutex_destroy(&ev->lock) == 0);
}

/* Raises the state (never lowers it) and wakes the waiters. */
static void event_set(struct event *ev, int state)
{
	CHECK(pthread_mutex_lock(&ev->lock) == 0);
	if (ev->state < state)
		ev->state = state;
	CHECK(pthread_cond_broadcast(&ev->cond) == 0);
	CHECK(pthread_mutex_unlock(&ev->lock) == 0);
}

/* True once ev->state >= state, false if seconds passed first. */
static bool event_wait(struct event *ev, int state, double seconds)
{
	struct timespec deadline;
	double end;
	bool reached;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	end = (double)deadline.tv_sec + (double)deadline.tv_nsec * 1e-9 + seconds;
	deadline.tv_sec = (time_t)end;
	deadline.tv_nsec = (long)((end - (double)deadline.tv_sec) * 1e9);
	CHECK(pthread_mutex_lock(&ev->lock) == 0);
	while (ev->state < state) {
		int ret = pthread_cond_timedwait(&ev->cond, &ev->lock, &deadline);

		CHECK(ret == 0 || ret == ETIMEDOUT);
		if (ret == ETIMEDOUT)
			break;
	}
	reached = ev->state >= state;
	CHECK(pthread_mutex_unlock(&ev->lock) == 0);
	return reached;
}

/* ---- the four flavours, by their prefixed names -------------------------- */

struct flavour {
	const char *name;
	/* A reader thread's registration: bp's first read lock does it. */
	void (*register_reader)(void);
	void (*unregister_reader)(void);
	void (*read_lock)(void);
	void (*read_unlock)(void);
	int (*read_ongoing)(void);
	void (*synchronize_rcu)(void);
	/* QSBR's thread states; no-ops for the others. */
	void (*online)(void);
	void (*offline)(void);
	void (*quiescent)(void);
#ifdef TEST_HAVE_POLL
	struct urcu_gp_poll_state (*start_poll)(void);
	bool (*poll_done)(struct urcu_gp_poll_state state);
#endif
};

static void no_op(void)
{
}

#ifdef TEST_HAVE_POLL
#define FLAVOUR_POLL_WRAPPERS(fl)					\
	static struct urcu_gp_poll_state fl##_start_poll(void)		\
	{ return urcu_##fl##_start_poll_synchronize_rcu(); }		\
	static bool fl##_poll_done(struct urcu_gp_poll_state s)		\
	{ return urcu_##fl##_poll_state_synchronize_rcu(s); }
#define FLAVOUR_POLL_OPS(fl)	.start_poll = fl##_start_poll, .poll_done = fl##_poll_done,
#else
#define FLAVOUR_POLL_WRAPPERS(fl)
#define FLAVOUR_POLL_OPS(fl)
#endif

/* Calls through functions of this file: a prefixed name may be a function
 * or (with _LGPL_SOURCE) a macro over an inline one. */
#define FLAVOUR_WRAPPERS(fl)						\
	static void fl##_read_lock(void) { urcu_##fl##_read_lock(); }	\
	static void fl##_read_unlock(void) { urcu_##fl##_read_unlock(); } \
	static int fl##_read_ongoing(void) { return urcu_##fl##_read_ongoing(); } \
	static void fl##_synchronize(void) { urcu_##fl##_synchronize_rcu(); } \
	FLAVOUR_POLL_WRAPPERS(fl)

#define FLAVOUR_OPS(fl)							\
	.name = #fl,							\
	.read_lock = fl##_read_lock,					\
	.read_unlock = fl##_read_unlock,				\
	.read_ongoing = fl##_read_ongoing,				\
	.synchronize_rcu = fl##_synchronize,				\
	FLAVOUR_POLL_OPS(fl)

FLAVOUR_WRAPPERS(memb)
FLAVOUR_WRAPPERS(qsbr)
FLAVOUR_WRAPPERS(mb)
FLAVOUR_WRAPPERS(bp)

static void memb_register(void) { urcu_memb_register_thread(); }
static void memb_unregister(void) { urcu_memb_unregister_thread(); }
static void qsbr_register(void) { urcu_qsbr_register_thread(); }
static void qsbr_unregister(void) { urcu_qsbr_unregister_thread(); }
static void mb_register(void) { urcu_mb_register_thread(); }
static void mb_unregister(void) { urcu_mb_unregister_thread(); }
static void qsbr_online(void) { urcu_qsbr_thread_online(); }
static void qsbr_offline(void) { urcu_qsbr_thread_offline(); }
static void qsbr_quiescent(void) { urcu_qsbr_quiescent_state(); }

#define NR_FLAVOURS 4

static const struct flavour flavours[NR_FLAVOURS] = {
	{ FLAVOUR_OPS(memb) .register_reader = memb_register,
	  .unregister_reader = memb_unregister,
	  .online = no_op, .offline = no_op, .quiescent = no_op },
	{ FLAVOUR_OPS(qsbr) .register_reader = qsbr_register,
	  .unregister_reader = qsbr_unregister,
	  .online = qsbr_online, .offline = qsbr_offline, .quiescent = qsbr_quiescent },
	{ FLAVOUR_OPS(mb) .register_reader = mb_register,
	  .unregister_reader = mb_unregister,
	  .online = no_op, .offline = no_op, .quiescent = no_op },
	{ FLAVOUR_OPS(bp) .register_reader = no_op, .unregister_reader = no_op,
	  .online = no_op, .offline = no_op, .quiescent = no_op },
};

/*
 * The main thread is registered with every flavour (bp explicitly, with
 * urcu_bp_register_thread()) and, outside its own QSBR work, offline for
 * QSBR, so that no grace period waits for it while it waits itself.
 */

static void read_ongoing_only_inside_sections(const struct flavour *fl)
{
	EXPECT(!fl->read_ongoing());
	fl->online();
	fl->read_lock();
	EXPECT(fl->read_ongoing());
	fl->read_lock();
	EXPECT(fl->read_ongoing());
	fl->read_unlock();
	EXPECT(fl->read_ongoing());
	fl->read_unlock();
	fl->quiescent();
	fl->offline();
	EXPECT(!fl->read_ongoing());
}

static void sections_belong_to_their_flavour(const struct flavour *fl)
{
	fl->online();
	fl->read_lock();
	for (int i = 0; i < NR_FLAVOURS; i++)
		if (&flavours[i] != fl)
			EXPECT(!flavours[i].read_ongoing());
	fl->read_unlock();
	fl->offline();
}

static void synchronize_with_no_reader(const struct flavour *fl)
{
	fl->synchronize_rcu();
	fl->online();
	fl->synchronize_rcu();	/* QSBR: from an online thread too */
	fl->offline();
	EXPECT(!fl->read_ongoing());
}

/* A reader thread: NR_SECTIONS short sections, then one it holds until
 * released; what it writes in that section is `wrote`. */
enum { READER_INSIDE = 1, READER_RELEASED, READER_LEFT };

struct reader {
	const struct flavour *fl;
	pthread_t thread;
	struct event ev;
	unsigned long seen_inside;	/* sections where read_ongoing() held */
	int wrote;
};

static void *reader_run(void *arg)
{
	struct reader *r = (struct reader *)arg;
	const struct flavour *fl = r->fl;

	fl->register_reader();
	for (unsigned long i = 0; i < NR_SECTIONS; i++) {
		fl->read_lock();
		if (fl->read_ongoing())
			r->seen_inside++;
		fl->read_unlock();
		fl->quiescent();
	}
	fl->read_lock();
	event_set(&r->ev, READER_INSIDE);
	/* Longer than the main thread waits on anything: a grace period that
	 * waits for this reader wrongly is seen stuck, not late. */
	if (event_wait(&r->ev, READER_RELEASED, 2 * WAIT_S))
		uatomic_set(&r->wrote, 1);
	fl->read_unlock();
	fl->unregister_reader();
	event_set(&r->ev, READER_LEFT);
	return NULL;
}

/* Returns once the reader holds its section. */
static void reader_start(struct reader *r, const struct flavour *fl)
{
	r->fl = fl;
	r->seen_inside = 0;
	r->wrote = 0;
	event_init(&r->ev);
	CHECK(pthread_create(&r->thread, NULL, reader_run, r) == 0);
	REQUIRE(event_wait(&r->ev, READER_INSIDE, WAIT_S));
	EXPECT(r->seen_inside == NR_SECTIONS);
}

static void reader_release(struct reader *r)
{
	event_set(&r->ev, READER_RELEASED);
	REQUIRE(event_wait(&r->ev, READER_LEFT, WAIT_S));
	CHECK(pthread_join(r->thread, NULL) == 0);
	event_destroy(&r->ev);
}

/* A thread that runs one flavour's synchronize_rcu() and then reads what
 * the reader wrote. */
struct synchronizer {
	const struct flavour *fl;
	const struct reader *r;
	pthread_t thread;
	struct event done;
	int saw_write;
};

static void *synchronizer_run(void *arg)
{
	struct synchronizer *s = (struct synchronizer *)arg;

	s->fl->synchronize_rcu();
	s->saw_write = uatomic_read(&s->r->wrote);
	event_set(&s->done, 1);
	return NULL;
}

static void synchronizer_start(struct synchronizer *s, const struct flavour *fl,
			       const struct reader *r)
{
	s->fl = fl;
	s->r = r;
	s->saw_write = 0;
	event_init(&s->done);
	CHECK(pthread_create(&s->thread, NULL, synchronizer_run, s) == 0);
}

static void synchronizer_join(struct synchronizer *s)
{
	CHECK(pthread_join(s->thread, NULL) == 0);
	event_destroy(&s->done);
}

static void grace_period_waits_for_its_own_reader(const struct flavour *fl)
{
	struct reader r;
	struct synchronizer own, others[NR_FLAVOURS];
	int nr_others = 0;

	reader_start(&r, fl);
	synchronizer_start(&own, fl, &r);
	for (int i = 0; i < NR_FLAVOURS; i++)
		if (&flavours[i] != fl)
			synchronizer_start(&others[nr_others++], &flavours[i], &r);
	/* Another flavour's grace period does not wait for this reader. */
	for (int i = 0; i < nr_others; i++) {
		current_flavour = others[i].fl->name;
		REQUIRE(event_wait(&others[i].done, 1, WAIT_S));
		EXPECT(others[i].saw_write == 0);
		synchronizer_join(&others[i]);
	}
	current_flavour = fl->name;
	/* This flavour's does, as long as the reader stays. */
	EXPECT(!event_wait(&own.done, 1, HOLD_S));
	reader_release(&r);
	REQUIRE(event_wait(&own.done, 1, WAIT_S));
	/* The reader's write, in its section, is seen after the grace period. */
	EXPECT(own.saw_write == 1);
	synchronizer_join(&own);
}

#ifdef TEST_HAVE_POLL
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void poll_done_only_after_reader_left(const struct flavour *fl)
{
	struct reader r;
	const struct timespec poll_interval = { 0, 1000000 };
	struct urcu_gp_poll_state state;
	double end;
	bool done;

	reader_start(&r, fl);
	/* QSBR: started online, as call_rcu() is. */
	fl->online();
	state = fl->start_poll();
	fl->offline();
	EXPECT(!fl->poll_done(state));
	reader_release(&r);
	end = now_s() + WAIT_S;
	while (!(done = fl->poll_done(state)) && now_s() < end)
		nanosleep(&poll_interval, NULL);
	EXPECT(done);
}
#endif

/* ---- a table on the first flavour's object ------------------------------- */

struct item {
	unsigned long key;
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

static unsigned long nr_freed;

static void free_item(struct rcu_head *head)
{
	struct item *it = caa_container_of(head, struct item, rcu);

	uatomic_inc(&nr_freed);
	free(it);
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const unsigned long *)key;
}

static unsigned long hash_key(unsigned long key)
{
	return key * 0x9e3779b97f4a7c15UL;
}

static struct item *lookup(struct cds_lfht *ht, unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(ht, hash_key(key), match_key, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	return node ? caa_container_of(node, struct item, node) : NULL;
}

/* Deletes the keys k with k % step == first; each freed by call_rcu. */
static unsigned long delete_keys(struct cds_lfht *ht, unsigned long first, unsigned long step)
{
	unsigned long deleted = 0;

	for (unsigned long k = first; k < NR_KEYS; k += step) {
		struct item *it;

		urcu_memb_read_lock();
		it = lookup(ht, k);
		if (it != NULL && cds_lfht_del(ht, &it->node) == 0) {
			urcu_memb_call_rcu(&it->rcu, free_item);
			deleted++;
		}
		urcu_memb_read_unlock();
	}
	return deleted;
}

static void table_on_first_flavour(void)
{
	struct cds_lfht *ht;
	unsigned long hits = 0, misses = 0, deleted;
	long split_before, split_after;
	unsigned long count;

	current_flavour = "memb table";
	ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				 &urcu_memb_flavor, NULL);
	REQUIRE(ht != NULL);
	for (unsigned long k = 0; k < NR_KEYS; k++) {
		struct item *it = malloc(sizeof(*it));

		CHECK(it != NULL);
		it->key = k;
		cds_lfht_node_init(&it->node);
		urcu_memb_read_lock();
		cds_lfht_add(ht, hash_key(k), &it->node);
		urcu_memb_read_unlock();
	}
	urcu_memb_read_lock();
	for (unsigned long k = 0; k < 2 * NR_KEYS; k++) {
		struct item *it = lookup(ht, k);

		if (it != NULL && it->key == k)
			hits++;
		else if (it == NULL)
			misses++;
	}
	cds_lfht_count_nodes(ht, &split_before, &count, &split_after);
	urcu_memb_read_unlock();
	EXPECT(hits == NR_KEYS);
	EXPECT(misses == NR_KEYS);
	EXPECT(count == NR_KEYS);

	deleted = delete_keys(ht, 0, 2);
	EXPECT(deleted == NR_KEYS / 2);
	urcu_memb_barrier();
	EXPECT(uatomic_read(&nr_freed) == deleted);
	/* A second delete of the same keys finds nothing. */
	EXPECT(delete_keys(ht, 0, 2) == 0);
	deleted += delete_keys(ht, 1, 2);
	EXPECT(deleted == NR_KEYS);
	urcu_memb_barrier();
	EXPECT(uatomic_read(&nr_freed) == NR_KEYS);
	urcu_memb_read_lock();
	cds_lfht_count_nodes(ht, &split_before, &count, &split_after);
	urcu_memb_read_unlock();
	EXPECT(count == 0);
	EXPECT(cds_lfht_destroy(ht, NULL) == 0);
}

int main(void)
{
	urcu_memb_register_thread();
	urcu_qsbr_register_thread();
	urcu_qsbr_thread_offline();
	urcu_mb_register_thread();
	urcu_bp_register_thread();

	for (int i = 0; i < NR_FLAVOURS; i++) {
		const struct flavour *fl = &flavours[i];

		current_flavour = fl->name;
		read_ongoing_only_inside_sections(fl);
		sections_belong_to_their_flavour(fl);
		synchronize_with_no_reader(fl);
		grace_period_waits_for_its_own_reader(fl);
#ifdef TEST_HAVE_POLL
		poll_done_only_after_reader_left(fl);
#endif
	}
	table_on_first_flavour();

	urcu_bp_unregister_thread();
	urcu_mb_unregister_thread();
	urcu_qsbr_thread_online();
	urcu_qsbr_unregister_thread();
	urcu_memb_unregister_thread();
	finish();
	return 0;
}
