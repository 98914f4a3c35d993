/* SPDX-License-Identifier: MIT */
/*
 * tests/test_ds_history.c - the queues and stacks of rcuds under 2
 * producers and 2 consumers, every call recorded and each round judged by
 * the FIFO or LIFO checker (tests/history/queue.h); and, with --mutant, the
 * mutants of the rcuds headers, each of which the checker must report.
 *
 * A round: the main thread opens it, the four threads start together and
 * make their calls, then the main thread drains the structure alone and
 * checks the round. Odd rounds produce and consume: the producers put
 * ROUND_OPS items, the consumers take (now and then everything at once)
 * and put back about half of what they took, with a new value. Even rounds
 * churn: each thread puts one item, then takes and puts back, CHURN_OPS
 * times, so that the same few nodes come back to the top or the head while
 * other calls may still hold them (an ABA's chance). Every worker is
 * stalled 20 us every 200 us by a timer signal, as a preemption would stop
 * it, inside its calls too. Nothing is freed during a round: each thread's
 * items come from its own arena, reset once the round is drained (for
 * rculfqueue after rcu_barrier(): its taken items go through call_rcu).
 * Values are (thread << 40) | sequence, unique in the process.
 *
 * Structures (--structure NAME): wfcqueue (enqueue; dequeue blocking under
 * the queue's mutex, or nonblocking under cds_wfcq_dequeue_lock(); splice
 * into a local queue), wfstack (push; pop blocking or nonblocking under
 * the pop mutex; pop_all), lfstack (push; pop under the mutex, both forms;
 * pop_all), rculfqueue (enqueue and dequeue inside read-side sections).
 *
 * A call that never returns (a mutant can leave a link that never comes,
 * and a blocking take waits for it for ever) leaves the round stuck: after
 * STUCK_SECONDS the main thread checks what the round logged so far (an
 * open end: no drain) and exits, 1 in a plain run. A mutant run exits 0:
 * the stuck call is what the plain run fails on, whether or not the calls
 * that returned already break a rule (the broken one is often the stuck
 * call itself: wfcq_dequeue_unlocked's two takers lose a link and one waits
 * for it for ever, after a clean prefix).
 *
 * Run time: --seconds S, else LFHT_STRESS_SECONDS (test_stress_seconds():
 * 2 s natively, 0.3 s under qemu); a mutant run stops at the first round
 * that breaks a rule, at most --seconds (200 s by the meson tests).
 */
#define _GNU_SOURCE
#include "lfht_test.h"
#include "history/queue.h"
#include "history/record.h"

/* The mutants of the rcuds headers, by the names of their hooks. */
enum test_mutant {
	MUTANT_none,
	MUTANT_wfcq_enqueue_lost,
	MUTANT_wfcq_dequeue_unlocked,
	MUTANT_wfs_push_lost,
	MUTANT_wfs_pop_unlocked,
	MUTANT_lfs_push_lost,
	MUTANT_lfs_pop_twice,
	MUTANT_lfq_enqueue_lost,
	MUTANT_lfq_dequeue_twice,
	NR_MUTANTS
};

/* Set before any thread starts, read-only after. */
static int test_mutant_ = MUTANT_none;
#define RCUDS_MUTANT_(m) (test_mutant_ == MUTANT_##m)

#include <rcuds/lfstack.h>
#include <rcuds/rculfqueue.h>
#include <rcuds/wfcqueue.h>
#include <rcuds/wfstack.h>

#include <inttypes.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const mutant_names[NR_MUTANTS] = {
	[MUTANT_wfcq_enqueue_lost] = "wfcq_enqueue_lost",
	[MUTANT_wfcq_dequeue_unlocked] = "wfcq_dequeue_unlocked",
	[MUTANT_wfs_push_lost] = "wfs_push_lost",
	[MUTANT_wfs_pop_unlocked] = "wfs_pop_unlocked",
	[MUTANT_lfs_push_lost] = "lfs_push_lost",
	[MUTANT_lfs_pop_twice] = "lfs_pop_twice",
	[MUTANT_lfq_enqueue_lost] = "lfq_enqueue_lost",
	[MUTANT_lfq_dequeue_twice] = "lfq_dequeue_twice",
};

#define NR_PRODUCERS 2
#define NR_CONSUMERS 2
#define NR_THREADS (NR_PRODUCERS + NR_CONSUMERS)
/* Calls a thread makes in a round (consumers: takes; their puts back come
 * on top). */
#define ROUND_OPS 256
/* Steps a thread makes in a churn round (a take and a put back each):
 * longer, so that threads are preempted inside their calls, not only
 * between rounds. */
#define CHURN_OPS 256
/* A call that has not returned after this long is taken as never to
 * return. */
#define STUCK_SECONDS_MUTANT 10.0
#define STUCK_SECONDS 60.0
/* A link a take-all's walk waits for, at most (a put in flight has it on
 * the way; a mutant may lose it: then less, so that a round with a few such
 * walks stays under STUCK_SECONDS_MUTANT). */
#define LINK_WAIT_SECONDS 5.0
#define LINK_WAIT_SECONDS_MUTANT 0.5

/* ---- the element ------------------------------------------------------------- */

struct item {
	struct cds_wfcq_node wfcq;
	struct cds_wfs_node wfs;
	struct cds_lfs_node lfs;
	struct cds_lfq_node_rcu lfq;
	struct rcu_head rcu;
	/* rculfqueue: set by the call_rcu callback that stands for the
	 * free (the item stays in its arena); a take that reads it set saw
	 * a node after its grace period. */
	_Atomic(int) freed;
	/* Relaxed atomics: set before the put that publishes the item, read
	 * after the take; atomic only because a mutant may hand one item to
	 * two takers, who both put it back. */
	_Atomic(uint64_t) value;
};

static uint64_t item_value(const struct item *it)
{
	/* Relaxed: published by the structure's put and take. */
	return rcu_atomic_load(&it->value, memory_order_relaxed);
}

static void item_set_value(struct item *it, uint64_t value)
{
	/* Relaxed: as item_value(). */
	rcu_atomic_store(&it->value, value, memory_order_relaxed);
}

/* ---- a thread's log ---------------------------------------------------------- */

struct worker {
	struct run *run;
	uint16_t thread;		/* 1..NR_THREADS */
	bool producer;
	uint64_t seed, next_seq;
	struct hq_op *ops;
	_Atomic(size_t) nr_ops;		/* published after each call */
	size_t cap_ops;
	uint64_t *seq;			/* take-all sequences */
	size_t nr_seq, cap_seq;
	struct item *arena;		/* this round's fresh items */
	size_t nr_arena, cap_arena;
	struct item **taken;		/* scratch: a take-all's items */
	long calls, would_block, take_alls, recycled;
};

static uint64_t new_value(struct worker *w)
{
	return ((uint64_t)w->thread << 40) | ++w->next_seq;
}

static void log_op(struct worker *w, const struct hq_op *op)
{
	size_t n = rcu_atomic_load(&w->nr_ops, memory_order_relaxed);

	if (n == w->cap_ops) {
		fprintf(stderr, "ds-history: a log is full\n");
		abort();
	}
	w->ops[n] = *op;
	/* Release: the entry is complete before the count says so; pairs
	 * with the acquire load in check_stuck_round(). */
	rcu_atomic_store(&w->nr_ops, n + 1, memory_order_release);
	w->calls++;
}

/* ---- the structures ------------------------------------------------------------ */

struct ds_ops {
	const char *name;
	enum hq_order order;
	void (*init)(void);
	void (*fini)(void);
	void (*put)(struct worker *w, struct item *it);
	/* Takes one: logs it; returns the item, or NULL when empty or when
	 * it would have waited (nothing logged then). */
	struct item *(*take)(struct worker *w);
	/* Takes everything: logs it; the items into w->taken, returns how
	 * many. */
	size_t (*take_all)(struct worker *w);
	/* The drain: one item, NULL when empty; *broken when a link never
	 * came. */
	struct item *(*drain_one)(bool *broken);
	/* Whether a taken item may be put again at once (else it is retired
	 * and a fresh one put instead). */
	bool reuse;
	/* What becomes of a taken item that is not put again (NULL: nothing,
	 * it stays in its arena). */
	void (*retire)(struct item *it);
};

static struct item *item_of_wfcq(struct cds_wfcq_node *n)
{
	return caa_container_of(n, struct item, wfcq);
}

static struct item *item_of_wfs(struct cds_wfs_node *n)
{
	return caa_container_of(n, struct item, wfs);
}

/* Whether blocking takes are left out: a lost enqueue can leave a link
 * that never comes, for which a blocking take would wait for ever. */
static bool takes_never_block(void)
{
	return test_mutant_ == MUTANT_wfcq_enqueue_lost;
}

static void op_put(struct worker *w, uint64_t invoke, uint64_t respond, uint64_t value)
{
	struct hq_op op = { .invoke = invoke, .respond = respond, .value = value,
			    .kind = HQ_PUT, .thread = w->thread };

	log_op(w, &op);
}

static void op_take(struct worker *w, uint64_t invoke, uint64_t respond, uint64_t value)
{
	struct hq_op op = { .invoke = invoke, .respond = respond, .value = value,
			    .kind = HQ_TAKE, .thread = w->thread };

	log_op(w, &op);
}

/* Waits (bounded) for a walk's next link; false if it never came. */
static bool link_wait(double *deadline)
{
	if (*deadline == 0)
		*deadline = test_now() + (test_mutant_ ? LINK_WAIT_SECONDS_MUTANT : LINK_WAIT_SECONDS);
	if (test_now() > *deadline)
		return false;
	sched_yield();
	return true;
}

/* wfcqueue */

static struct cds_wfcq_head wfcq_head;
static struct cds_wfcq_tail wfcq_tail;

static void wfcq_init(void)
{
	cds_wfcq_init(&wfcq_head, &wfcq_tail);
}

static void wfcq_fini(void)
{
	cds_wfcq_destroy(&wfcq_head, &wfcq_tail);
}

static void wfcq_put(struct worker *w, struct item *it)
{
	uint64_t value = new_value(w), invoke;

	cds_wfcq_node_init(&it->wfcq);
	item_set_value(it, value);
	invoke = hist_stamp_invoke();
	(void)cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &it->wfcq);
	op_put(w, invoke, hist_stamp_respond(), value);
}

static struct item *wfcq_take(struct worker *w)
{
	bool blocking = !takes_never_block() && (test_rand(&w->seed) & 1);
	struct cds_wfcq_node *n;
	uint64_t invoke = hist_stamp_invoke(), respond;
	struct item *it;

	if (blocking) {
		n = cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail);
	} else {
		cds_wfcq_dequeue_lock(&wfcq_head, &wfcq_tail);
		n = __cds_wfcq_dequeue_nonblocking(&wfcq_head, &wfcq_tail);
		cds_wfcq_dequeue_unlock(&wfcq_head, &wfcq_tail);
	}
	respond = hist_stamp_respond();
	if (n == CDS_WFCQ_WOULDBLOCK) {
		w->would_block++;
		return NULL;
	}
	it = n ? item_of_wfcq(n) : NULL;
	op_take(w, invoke, respond, it ? item_value(it) : 0);
	return it;
}

/* Dequeues the local queue q, up to cap items, into w->taken. */
static size_t wfcq_walk_local(struct worker *w, struct cds_wfcq_head *h,
			      struct cds_wfcq_tail *t, size_t cap)
{
	size_t n = 0;
	double deadline = 0;

	while (n < cap) {
		struct cds_wfcq_node *node = __cds_wfcq_dequeue_nonblocking(h, t);

		if (node == NULL)
			break;
		if (node == CDS_WFCQ_WOULDBLOCK) {
			if (!link_wait(&deadline))
				break;
			continue;
		}
		w->taken[n++] = item_of_wfcq(node);
	}
	return n;
}

static size_t wfcq_take_all(struct worker *w)
{
	struct cds_wfcq_head h;
	struct cds_wfcq_tail t;
	enum cds_wfcq_ret ret;
	uint64_t invoke, respond;
	size_t n;
	struct hq_op op = { .kind = HQ_TAKE_ALL, .thread = w->thread };

	cds_wfcq_init(&h, &t);
	invoke = hist_stamp_invoke();
	if (takes_never_block()) {
		cds_wfcq_dequeue_lock(&wfcq_head, &wfcq_tail);
		ret = __cds_wfcq_splice_nonblocking(&h, &t, &wfcq_head, &wfcq_tail);
		cds_wfcq_dequeue_unlock(&wfcq_head, &wfcq_tail);
	} else {
		ret = cds_wfcq_splice_blocking(&h, &t, &wfcq_head, &wfcq_tail);
	}
	respond = hist_stamp_respond();
	if (ret == CDS_WFCQ_RET_WOULDBLOCK) {
		w->would_block++;
		cds_wfcq_destroy(&h, &t);
		return 0;
	}
	n = wfcq_walk_local(w, &h, &t, w->cap_seq - w->nr_seq);
	cds_wfcq_destroy(&h, &t);
	op.invoke = invoke;
	op.respond = respond;
	op.seq_start = (uint32_t)w->nr_seq;
	op.seq_len = (uint32_t)n;
	for (size_t k = 0; k < n; k++)
		w->seq[w->nr_seq++] = item_value(w->taken[k]);
	log_op(w, &op);
	w->take_alls++;
	return n;
}

/* The drain runs after every put returned: no link is on the way, and
 * one missing never comes. */
static struct item *wfcq_drain_one(bool *broken)
{
	struct cds_wfcq_node *n;

	cds_wfcq_dequeue_lock(&wfcq_head, &wfcq_tail);
	n = __cds_wfcq_dequeue_nonblocking(&wfcq_head, &wfcq_tail);
	cds_wfcq_dequeue_unlock(&wfcq_head, &wfcq_tail);
	if (n == CDS_WFCQ_WOULDBLOCK) {
		*broken = true;
		return NULL;
	}
	return n ? item_of_wfcq(n) : NULL;
}

static const struct ds_ops wfcq_ops = {
	.name = "wfcqueue", .order = HQ_FIFO, .init = wfcq_init, .fini = wfcq_fini,
	.put = wfcq_put, .take = wfcq_take, .take_all = wfcq_take_all,
	.drain_one = wfcq_drain_one, .reuse = true,
};

/* wfstack */

static struct cds_wfs_stack wfs;

static void wfs_init(void)
{
	cds_wfs_init(&wfs);
}

static void wfs_fini(void)
{
	cds_wfs_destroy(&wfs);
}

static void wfs_put(struct worker *w, struct item *it)
{
	uint64_t value = new_value(w), invoke;

	cds_wfs_node_init(&it->wfs);
	item_set_value(it, value);
	invoke = hist_stamp_invoke();
	(void)cds_wfs_push(&wfs, &it->wfs);
	op_put(w, invoke, hist_stamp_respond(), value);
}

static struct item *wfs_take(struct worker *w)
{
	bool blocking = test_rand(&w->seed) & 1;
	struct cds_wfs_node *n;
	uint64_t invoke = hist_stamp_invoke(), respond;
	struct item *it;

	if (blocking) {
		n = cds_wfs_pop_blocking(&wfs);
	} else {
		cds_wfs_pop_lock(&wfs);
		n = __cds_wfs_pop_nonblocking(&wfs);
		cds_wfs_pop_unlock(&wfs);
	}
	respond = hist_stamp_respond();
	if (n == CDS_WFS_WOULDBLOCK) {
		w->would_block++;
		return NULL;
	}
	it = n ? item_of_wfs(n) : NULL;
	op_take(w, invoke, respond, it ? item_value(it) : 0);
	return it;
}

static size_t wfs_take_all(struct worker *w)
{
	struct hq_op op = { .kind = HQ_TAKE_ALL, .thread = w->thread };
	struct cds_wfs_head *h;
	struct cds_wfs_node *node;
	size_t n = 0, cap = w->cap_seq - w->nr_seq;

	op.invoke = hist_stamp_invoke();
	h = cds_wfs_pop_all_blocking(&wfs);
	op.respond = hist_stamp_respond();
	/* Bounded: a mutant may leave a cycle. */
	for (node = h ? cds_wfs_first(h) : NULL; node != NULL && n < cap;
	     node = cds_wfs_next_blocking(node))
		w->taken[n++] = item_of_wfs(node);
	op.seq_start = (uint32_t)w->nr_seq;
	op.seq_len = (uint32_t)n;
	for (size_t k = 0; k < n; k++)
		w->seq[w->nr_seq++] = item_value(w->taken[k]);
	log_op(w, &op);
	w->take_alls++;
	return n;
}

/* As wfcq_drain_one(). */
static struct item *wfs_drain_one(bool *broken)
{
	struct cds_wfs_node *n;

	cds_wfs_pop_lock(&wfs);
	n = __cds_wfs_pop_nonblocking(&wfs);
	cds_wfs_pop_unlock(&wfs);
	if (n == CDS_WFS_WOULDBLOCK) {
		*broken = true;
		return NULL;
	}
	return n ? item_of_wfs(n) : NULL;
}

static const struct ds_ops wfs_ops = {
	.name = "wfstack", .order = HQ_LIFO, .init = wfs_init, .fini = wfs_fini,
	.put = wfs_put, .take = wfs_take, .take_all = wfs_take_all,
	.drain_one = wfs_drain_one, .reuse = true,
};

/* lfstack */

static struct cds_lfs_stack lfs;

static struct item *item_of_lfs(struct cds_lfs_node *n)
{
	return caa_container_of(n, struct item, lfs);
}

static void lfs_init(void)
{
	cds_lfs_init(&lfs);
}

static void lfs_fini(void)
{
	cds_lfs_destroy(&lfs);
}

static void lfs_put(struct worker *w, struct item *it)
{
	uint64_t value = new_value(w), invoke;

	cds_lfs_node_init(&it->lfs);
	item_set_value(it, value);
	invoke = hist_stamp_invoke();
	(void)cds_lfs_push(&lfs, &it->lfs);
	op_put(w, invoke, hist_stamp_respond(), value);
}

static struct item *lfs_take(struct worker *w)
{
	bool locked_form = test_rand(&w->seed) & 1;
	struct cds_lfs_node *n;
	uint64_t invoke = hist_stamp_invoke(), respond;
	struct item *it;

	if (locked_form) {
		n = cds_lfs_pop_blocking(&lfs);
	} else {
		cds_lfs_pop_lock(&lfs);
		n = __cds_lfs_pop(&lfs);
		cds_lfs_pop_unlock(&lfs);
	}
	respond = hist_stamp_respond();
	it = n ? item_of_lfs(n) : NULL;
	op_take(w, invoke, respond, it ? item_value(it) : 0);
	return it;
}

static size_t lfs_take_all(struct worker *w)
{
	struct hq_op op = { .kind = HQ_TAKE_ALL, .thread = w->thread };
	struct cds_lfs_head *h;
	struct cds_lfs_node *node;
	size_t n = 0, cap = w->cap_seq - w->nr_seq;

	op.invoke = hist_stamp_invoke();
	h = cds_lfs_pop_all_blocking(&lfs);
	op.respond = hist_stamp_respond();
	cds_lfs_for_each(h, node) {
		/* Bounded: a mutant may leave a cycle. */
		if (n == cap)
			break;
		w->taken[n++] = item_of_lfs(node);
	}
	op.seq_start = (uint32_t)w->nr_seq;
	op.seq_len = (uint32_t)n;
	for (size_t k = 0; k < n; k++)
		w->seq[w->nr_seq++] = item_value(w->taken[k]);
	log_op(w, &op);
	w->take_alls++;
	return n;
}

static struct item *lfs_drain_one(bool *broken)
{
	struct cds_lfs_node *n = cds_lfs_pop_blocking(&lfs);

	(void)broken;
	return n ? item_of_lfs(n) : NULL;
}

static const struct ds_ops lfs_ops = {
	.name = "lfstack", .order = HQ_LIFO, .init = lfs_init, .fini = lfs_fini,
	.put = lfs_put, .take = lfs_take, .take_all = lfs_take_all,
	.drain_one = lfs_drain_one, .reuse = true,
};

/* rculfqueue: every call inside a read-side section; a taken item is
 * "freed" by call_rcu (a callback that marks it, the item staying in its
 * arena until every callback of the round ran), and a take that finds an
 * item already marked counts a node read after its grace period. */

static struct cds_lfq_queue_rcu lfq;
static _Atomic(long) lfq_read_after_free;

static struct item *item_of_lfq(struct cds_lfq_node_rcu *n)
{
	return caa_container_of(n, struct item, lfq);
}

/* The queue's call_rcu under the lfq_dequeue_twice mutant: a dummy node
 * that two dequeues both took would be handed to call_rcu twice (its
 * rcu_head queued twice: a crash, not a report). Each head is queued once;
 * the test's own callback runs the queue's and forgets the head. */
#define LFQ_PENDING_MAX 4096
static pthread_mutex_t lfq_pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	struct rcu_head *head;
	void (*func)(struct rcu_head *);
} lfq_pending[LFQ_PENDING_MAX];
static _Atomic(long) lfq_double_call_rcu;

static void lfq_pending_cb(struct rcu_head *head)
{
	void (*func)(struct rcu_head *) = NULL;

	pthread_mutex_lock(&lfq_pending_lock);
	for (int k = 0; k < LFQ_PENDING_MAX; k++) {
		if (lfq_pending[k].head == head) {
			func = lfq_pending[k].func;
			lfq_pending[k].head = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&lfq_pending_lock);
	if (func != NULL)
		func(head);
}

static void lfq_call_rcu_once(struct rcu_head *head, void (*func)(struct rcu_head *))
{
	int free_slot = -1;

	pthread_mutex_lock(&lfq_pending_lock);
	for (int k = 0; k < LFQ_PENDING_MAX; k++) {
		if (lfq_pending[k].head == head) {
			pthread_mutex_unlock(&lfq_pending_lock);
			/* Relaxed: a count read after the run. */
			rcu_atomic_add(&lfq_double_call_rcu, 1, memory_order_relaxed);
			return;
		}
		if (lfq_pending[k].head == NULL && free_slot < 0)
			free_slot = k;
	}
	if (free_slot < 0) {
		pthread_mutex_unlock(&lfq_pending_lock);
		fprintf(stderr, "ds-history: more than %d dummies pending\n", LFQ_PENDING_MAX);
		abort();
	}
	lfq_pending[free_slot].head = head;
	lfq_pending[free_slot].func = func;
	pthread_mutex_unlock(&lfq_pending_lock);
	call_rcu(head, lfq_pending_cb);
}

static void lfq_fault_handler(int sig);
static bool lfq_off_chain(void);

static void lfq_init(void)
{
	if (test_mutant_ == MUTANT_lfq_enqueue_lost)
		signal(SIGSEGV, lfq_fault_handler);
	if (test_mutant_ == MUTANT_lfq_dequeue_twice)
		cds_lfq_init_rcu(&lfq, lfq_call_rcu_once);
	else
		cds_lfq_init_rcu(&lfq, call_rcu);
}

static void lfq_fini(void)
{
	bool broken;

	rcu_read_lock();
	broken = lfq_off_chain();
	rcu_read_unlock();
	/* The drain emptied it; a mutant may leave it otherwise, or broken
	 * (its head NULL: not even destroy can look at it). The nodes are
	 * the test's: nothing to free then. */
	if (broken || cds_lfq_destroy_rcu(&lfq) != 0)
		ck_assert_msg(test_mutant_ != MUTANT_none, "the drained queue is not empty");
	rcu_barrier();
}

static void lfq_put(struct worker *w, struct item *it)
{
	uint64_t value = new_value(w), invoke;

	cds_lfq_node_init_rcu(&it->lfq);
	item_set_value(it, value);
	/* Relaxed: the arena was reset after every callback of the last
	 * round ran (rcu_barrier() in check_round()). */
	rcu_atomic_store(&it->freed, 0, memory_order_relaxed);
	rcu_read_lock();
	invoke = hist_stamp_invoke();
	cds_lfq_enqueue_rcu(&lfq, &it->lfq);
	op_put(w, invoke, hist_stamp_respond(), value);
	rcu_read_unlock();
}

/* The dequeue and the reads of the item, in the caller's section. */
static struct item *lfq_dequeue_item(uint64_t *value)
{
	struct cds_lfq_node_rcu *n = cds_lfq_dequeue_rcu(&lfq);
	struct item *it = n ? item_of_lfq(n) : NULL;

	*value = it ? item_value(it) : 0;
	/* Relaxed: the callback's store and this load are both inside the
	 * item, which the section keeps; only a count. */
	if (it != NULL && rcu_atomic_load(&it->freed, memory_order_relaxed))
		rcu_atomic_add(&lfq_read_after_free, 1, memory_order_relaxed);
	return it;
}

/*
 * Whether the queue is already broken so that a dequeue would crash: the
 * lfq_enqueue_lost mutant can leave the tail off the chain; a dequeue of
 * the last node then links its dummy there, finds no successor and sets
 * the head to NULL, which the next dequeue dereferences. The drain, alone
 * with the queue, looks first (a correct queue at rest has the last node
 * as its tail), and so does each take in that mutant's run (racy there,
 * but it makes the crash rare). Inside a read-side section.
 */
static bool lfq_off_chain(void)
{
	/* Acquire (all three): as the dequeue's own loads. */
	struct cds_lfq_node_rcu *head = rcu_atomic_load(&lfq.head, memory_order_acquire);

	if (head == NULL)
		return true;
	return !head->dummy && rcu_atomic_load(&head->next, memory_order_acquire) == NULL &&
	       rcu_atomic_load(&lfq.tail, memory_order_acquire) != head;
}

/* The lfq_enqueue_lost run: a take that still finds the head NULL (the
 * check above raced with the dequeue that broke the queue) faults on its
 * first load, before it changed anything; the handler returns it here,
 * and it counts as a take that did not happen. */
static _Thread_local sigjmp_buf *lfq_fault_jump;

static void lfq_fault_handler(int sig)
{
	if (lfq_fault_jump != NULL)
		siglongjmp(*lfq_fault_jump, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static struct item *lfq_take(struct worker *w)
{
	uint64_t invoke, respond, value;
	struct item *it;
	sigjmp_buf jump;

	if (test_mutant_ == MUTANT_lfq_enqueue_lost) {
		bool off;

		rcu_read_lock();
		off = lfq_off_chain();
		rcu_read_unlock();
		if (off) {
			w->would_block++;
			return NULL;
		}
		if (sigsetjmp(jump, 1) != 0) {
			lfq_fault_jump = NULL;
			rcu_read_unlock();
			w->would_block++;
			return NULL;
		}
		lfq_fault_jump = &jump;
	}
	rcu_read_lock();
	invoke = hist_stamp_invoke();
	it = lfq_dequeue_item(&value);
	respond = hist_stamp_respond();
	lfq_fault_jump = NULL;
	rcu_read_unlock();
	op_take(w, invoke, respond, value);
	return it;
}

static struct item *lfq_drain_one(bool *broken)
{
	uint64_t value;
	struct item *it;

	rcu_read_lock();
	if (lfq_off_chain()) {
		rcu_read_unlock();
		*broken = true;
		return NULL;
	}
	it = lfq_dequeue_item(&value);
	rcu_read_unlock();
	return it;
}

static void lfq_freed_cb(struct rcu_head *head)
{
	struct item *it = caa_container_of(head, struct item, rcu);

	/* Relaxed: read by a take that should not exist (see above). */
	rcu_atomic_store(&it->freed, 1, memory_order_relaxed);
}

static void lfq_retire(struct item *it)
{
	/* A mutant may hand one item to two takers: its rcu_head would be
	 * queued twice. */
	if (test_mutant_ == MUTANT_none)
		call_rcu(&it->rcu, lfq_freed_cb);
}

static const struct ds_ops lfq_ops = {
	.name = "rculfqueue", .order = HQ_FIFO, .init = lfq_init, .fini = lfq_fini,
	.put = lfq_put, .take = lfq_take, .drain_one = lfq_drain_one,
	.retire = lfq_retire,
};

static const struct ds_ops *const structures[] = { &wfcq_ops, &wfs_ops, &lfs_ops, &lfq_ops };

/* ---- rounds ------------------------------------------------------------------------ */

struct run {
	const struct ds_ops *ds;
	struct worker workers[NR_THREADS];
	_Atomic(long) round;		/* the round open; -1: stop */
	_Atomic(long) done;		/* rounds finished, all threads */
	struct hq_verdict verdict;
	long rounds;
	long drained;
	bool stop_at_violation;
	bool clean;
};

/* What a thread does with an item it took: in a churn round it puts it
 * back (or, when the structure forbids reuse, retires it and puts a fresh
 * one), otherwise it puts back about half; the rest are retired. Room for
 * the rest of the round's takes is kept in the log (a mutant may hand out
 * more than was put). */
static void after_take(struct worker *w, struct item *it, bool churn)
{
	const struct ds_ops *ds = w->run->ds;
	/* Relaxed: this thread's own count. */
	size_t used = rcu_atomic_load(&w->nr_ops, memory_order_relaxed);
	bool again = used + CHURN_OPS < w->cap_ops && (churn || (test_rand(&w->seed) & 1));

	if (!ds->reuse || !again) {
		if (ds->retire != NULL)
			ds->retire(it);
		if (!again || !churn || w->nr_arena == w->cap_arena)
			return;
		it = &w->arena[w->nr_arena++];
	}
	ds->put(w, it);
	w->recycled++;
}

static void take_step(struct worker *w, bool churn)
{
	const struct ds_ops *ds = w->run->ds;

	if (ds->take_all != NULL && test_rand(&w->seed) % 16 == 0) {
		size_t n = ds->take_all(w);

		for (size_t k = 0; k < n; k++)
			after_take(w, w->taken[k], churn);
	} else {
		struct item *it = ds->take(w);

		if (it != NULL)
			after_take(w, it, churn);
	}
}

/*
 * Odd rounds: the producers put ROUND_OPS items, the consumers take (and
 * put back about half). Even rounds churn: every thread puts one item,
 * then takes and puts back what it took, CHURN_OPS times, so that the
 * structure holds at most four items and the same nodes come back to the
 * top or the head while other calls may still hold them (an unlocked pop
 * then sees its ABA, two unlocked dequeues meet).
 */
static void run_round(struct worker *w, long round)
{
	bool churn = round % 2 == 0;

	if (churn)
		w->run->ds->put(w, &w->arena[w->nr_arena++]);
	for (int k = 0; k < (churn ? CHURN_OPS : ROUND_OPS); k++) {
		if (!churn && w->producer)
			w->run->ds->put(w, &w->arena[w->nr_arena++]);
		else
			take_step(w, churn);
		if (k % 16 == 15)
			quiescent();
	}
}

/*
 * Stalls: a timer (test_stalls_start()) interrupts each worker every
 * TEST_STALL_PERIOD_US and its handler sleeps TEST_STALL_US, as a
 * preemption would stop the thread, at any instruction, calls included,
 * and the CPU goes to another worker. On two CPUs (or one, when the machine is busy) a
 * thread is otherwise almost never stopped between two steps of one call
 * (say, between reading the top's next and its compare-and-swap) long
 * enough for the others to take and put back: the ABA that an unlocked pop
 * needs to go wrong.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *run = w->run;
	long last = 0;
	timer_t timer;
	bool stalls = test_stalls_start(&timer);

	rcu_register_thread();
	for (;;) {
		long r;

		test_offline();
		/* Acquire: pairs with the release store in open_round(): the
		 * reset logs and arenas. */
		while ((r = rcu_atomic_load(&run->round, memory_order_acquire)) == last)
			sched_yield();
		test_online();
		if (r < 0)
			break;
		last = r;
		run_round(w, r);
		/* Release: this thread's log and items are complete; pairs
		 * with the acquire load in wait_round(). */
		rcu_atomic_add(&run->done, 1, memory_order_release);
	}
	if (stalls)
		timer_delete(timer);
	rcu_unregister_thread();
	return NULL;
}

static void open_round(struct run *run, long r)
{
	for (int t = 0; t < NR_THREADS; t++) {
		struct worker *w = &run->workers[t];

		/* Relaxed: published by the release store of round below. */
		rcu_atomic_store(&w->nr_ops, 0, memory_order_relaxed);
		w->nr_seq = 0;
		w->nr_arena = 0;
	}
	/* Release: pairs with the acquire load in worker_main(). */
	rcu_atomic_store(&run->round, r, memory_order_release);
}

/* Whether every thread finished round r within the stuck bound. */
static bool wait_round(struct run *run, long r)
{
	double end = test_now() + (test_mutant_ ? STUCK_SECONDS_MUTANT : STUCK_SECONDS);
	bool finished = true;

	test_offline();
	/* Acquire: pairs with the release add in worker_main(). */
	while (rcu_atomic_load(&run->done, memory_order_acquire) < r * NR_THREADS) {
		if (test_now() > end) {
			finished = false;
			break;
		}
		sched_yield();
	}
	test_online();
	return finished;
}

/* The round's calls, from every log (up to what each published; a
 * take-all's sequence is written before the call is logged). */
static struct hq_op *gather(struct run *run, size_t *nr_ops, uint64_t **seq)
{
	size_t n = 0, ns = 0, published[NR_THREADS], seq_used[NR_THREADS];
	struct hq_op *ops;

	for (int t = 0; t < NR_THREADS; t++) {
		struct worker *w = &run->workers[t];

		/* Acquire: pairs with the release store in log_op(). */
		published[t] = rcu_atomic_load(&w->nr_ops, memory_order_acquire);
		seq_used[t] = 0;
		for (size_t k = 0; k < published[t]; k++)
			if (w->ops[k].kind == HQ_TAKE_ALL &&
			    w->ops[k].seq_start + w->ops[k].seq_len > seq_used[t])
				seq_used[t] = w->ops[k].seq_start + w->ops[k].seq_len;
		n += published[t];
		ns += seq_used[t];
	}
	ops = hist_calloc(n, sizeof(*ops));
	*seq = hist_calloc(ns, sizeof(**seq));
	n = ns = 0;
	for (int t = 0; t < NR_THREADS; t++) {
		struct worker *w = &run->workers[t];

		for (size_t k = 0; k < published[t]; k++) {
			ops[n] = w->ops[k];
			if (ops[n].kind == HQ_TAKE_ALL)
				ops[n].seq_start += (uint32_t)ns;
			n++;
		}
		memcpy(*seq + ns, w->seq, seq_used[t] * sizeof(**seq));
		ns += seq_used[t];
	}
	*nr_ops = n;
	return ops;
}

/* A round that never finished: judges the calls that returned (an open
 * end) and exits, since the stuck thread cannot be joined. */
static _Noreturn void check_stuck_round(struct run *run)
{
	struct hq_op *ops;
	uint64_t *seq;
	size_t n;
	struct hq_round r;
	bool clean;

	ops = gather(run, &n, &seq);
	r = (struct hq_round){ .order = run->ds->order, .ops = ops, .nr_ops = n,
			       .seq_vals = seq, .open_end = true };
	clean = hq_check_round(&r, &run->verdict, stderr);
	fprintf(stderr, "ds-history: [%s] %s: round %ld did not finish in %.0f s (a call never "
		"returned); its %zu calls that did are %s\n", TEST_FLAVOUR_NAME, run->ds->name,
		run->rounds + 1, test_mutant_ ? STUCK_SECONDS_MUTANT : STUCK_SECONDS, n,
		clean ? "clean" : "NOT clean (above)");
	fflush(NULL);
	if (test_mutant_ != MUTANT_none) {
		printf("mutant %s: reported (%s)\n", mutant_names[test_mutant_],
		       clean ? "a call that never returned" : "in a round cut short");
		fflush(NULL);
		_exit(0);
	}
	_exit(1);
}

/* The drain, then the check of the round. */
static bool check_round(struct run *run)
{
	size_t n, cap = 0, na = 0;
	struct hq_op *ops;
	uint64_t *seq, *after;
	struct hq_round r;
	bool clean, broken = false;

	ops = gather(run, &n, &seq);
	for (size_t k = 0; k < n; k++)
		cap += ops[k].kind == HQ_PUT;
	/* Bounded: a mutant may hand out more than was put. */
	after = hist_calloc(cap + 2, sizeof(*after));
	while (na < cap + 2) {
		struct item *it = run->ds->drain_one(&broken);

		if (it == NULL)
			break;
		after[na++] = item_value(it);
		if (run->ds->retire != NULL)
			run->ds->retire(it);
	}
	/* The arenas are reset for the next round: every callback of this
	 * one first (rculfqueue). */
	if (run->ds->retire != NULL)
		rcu_barrier();
	run->drained += (long)na;
	r = (struct hq_round){ .order = run->ds->order, .ops = ops, .nr_ops = n,
			       .seq_vals = seq, .after = after, .nr_after = na };
	clean = hq_check_round(&r, &run->verdict, stderr);
	if (broken) {
		fprintf(stderr, "history: %s: the drain found the structure broken (a link "
			"missing though every put had returned, or a tail off the chain)\n",
			run->ds->name);
		run->verdict.violations++;
		clean = false;
	} else if (na == cap + 2) {
		fprintf(stderr, "history: %s: the drain took more than the round put\n",
			run->ds->name);
		run->verdict.violations++;
		clean = false;
	}
	if (!clean)
		fprintf(stderr, "ds-history: [%s] %s: round %ld broke a rule (above)\n",
			TEST_FLAVOUR_NAME, run->ds->name, run->rounds + 1);
	free(ops);
	free(seq);
	free(after);
	return clean;
}

/* Runs the workload on ds for seconds (at least two rounds); returns
 * whether every round was clean. */
static bool run_for(struct run *run, const struct ds_ops *ds, double seconds,
		    bool stop_at_violation)
{
	pthread_t threads[NR_THREADS];
	double end = test_now() + seconds;
	long r = 0;

	*run = (struct run){ .ds = ds, .clean = true, .stop_at_violation = stop_at_violation };
	for (int t = 0; t < NR_THREADS; t++) {
		struct worker *w = &run->workers[t];

		*w = (struct worker){ .run = run, .thread = (uint16_t)(t + 1),
				      .producer = t < NR_PRODUCERS,
				      .seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 7),
				      .cap_ops = 4 * CHURN_OPS, .cap_seq = 8 * ROUND_OPS,
				      .cap_arena = CHURN_OPS + ROUND_OPS + 1 };
		w->ops = hist_calloc(w->cap_ops, sizeof(*w->ops));
		w->seq = hist_calloc(w->cap_seq, sizeof(*w->seq));
		w->taken = hist_calloc(w->cap_seq, sizeof(*w->taken));
		w->arena = hist_calloc(w->cap_arena, sizeof(*w->arena));
	}
	ds->init();
	for (int t = 0; t < NR_THREADS; t++)
		test_start(&threads[t], worker_main, &run->workers[t]);

	do {
		open_round(run, ++r);
		if (!wait_round(run, r))
			check_stuck_round(run);
		run->clean &= check_round(run);
		run->rounds++;
	} while ((run->clean || !stop_at_violation) &&
		 (r < 2 || test_now() < end ||
		  /* A slow run (an emulator) whose rounds were all left to the
		   * rules goes on, bounded, until the search settled one. */
		  (run->verdict.searched_rounds == 0 && test_now() < end + 9 * seconds + 30)));
	/* Release: pairs with the acquire load in worker_main(). */
	rcu_atomic_store(&run->round, -1, memory_order_release);
	for (int t = 0; t < NR_THREADS; t++)
		test_join(threads[t]);
	ds->fini();
	return run->clean;
}

static void run_free(struct run *run)
{
	for (int t = 0; t < NR_THREADS; t++) {
		free(run->workers[t].ops);
		free(run->workers[t].seq);
		free(run->workers[t].taken);
		free(run->workers[t].arena);
	}
}

static void run_print(const struct run *run, double seconds)
{
	const struct hq_verdict *v = &run->verdict;
	long calls = 0, would_block = 0, take_alls = 0, recycled = 0;

	for (int t = 0; t < NR_THREADS; t++) {
		calls += run->workers[t].calls;
		would_block += run->workers[t].would_block;
		take_alls += run->workers[t].take_alls;
		recycled += run->workers[t].recycled;
	}
	fprintf(stderr, "[%s] %s, %d producers + %d consumers, %.2f s: %ld rounds, %ld calls "
		"(%ld take-alls, %ld puts back, %ld would-block retries), %lu values, "
		"%lu empty takes, %ld drained; searched %lu rounds (%lu calls), unsearched %lu, "
		"%lu violations\n", TEST_FLAVOUR_NAME, run->ds->name, NR_PRODUCERS, NR_CONSUMERS,
		seconds, run->rounds, calls, take_alls, recycled, would_block, v->values,
		v->empties, run->drained, v->searched_rounds, v->searched_ops,
		v->unsearched_rounds, v->violations);
}

/* ---- the tests ------------------------------------------------------------------------ */

static const struct ds_ops *structure;
static double run_seconds = -1;

static double seconds_for_run(void)
{
	return run_seconds > 0 ? run_seconds : test_stress_seconds();
}

START_TEST(history_of_the_structure_is_linearizable)
{
	struct run run;
	double start = test_now();
	bool clean = run_for(&run, structure, seconds_for_run(), false);
	long calls = 0;

	run_print(&run, test_now() - start);
	for (int t = 0; t < NR_THREADS; t++)
		calls += run.workers[t].calls;
	ck_assert_msg(clean, "the history checker reported a violation (above)");
	ck_assert_uint_eq(run.verdict.violations, 0);
	ck_assert_int_ge(run.rounds, 2);
	ck_assert_int_gt(calls, 4 * ROUND_OPS);
	ck_assert_uint_gt(run.verdict.values, 2 * ROUND_OPS);
	ck_assert_uint_ge(run.verdict.searched_rounds, 1);
	/* Relaxed: the threads are joined. */
	ck_assert_int_eq(rcu_atomic_load(&lfq_read_after_free, memory_order_relaxed), 0);
	if (structure->take_all != NULL) {
		long take_alls = 0;

		for (int t = 0; t < NR_THREADS; t++)
			take_alls += run.workers[t].take_alls;
		ck_assert_int_gt(take_alls, 0);
	}
	run_free(&run);
}
END_TEST

START_TEST(mutant_is_reported_by_the_checker)
{
	struct run run;
	double start = test_now();
	bool clean = run_for(&run, structure, seconds_for_run(), true);

	run_print(&run, test_now() - start);
	run_free(&run);
	ck_assert_msg(!clean, "mutant %s [%s]: NOT reported in %.1f s (%ld rounds)",
		      mutant_names[test_mutant_], structure->name, test_now() - start,
		      run.rounds);
	printf("mutant %s: reported after %.2f s (%ld rounds)\n", mutant_names[test_mutant_],
	       test_now() - start, run.rounds);
}
END_TEST

static _Noreturn void usage(const char *why)
{
	fprintf(stderr, "test_ds_history: %s\nusage: lfht-test-ds-history-%s --structure NAME "
		"[--seconds S] [--mutant NAME]\nstructures:", why, TEST_FLAVOUR_NAME);
	for (size_t k = 0; k < sizeof(structures) / sizeof(structures[0]); k++)
		fprintf(stderr, " %s", structures[k]->name);
	fprintf(stderr, "\nmutants:");
	for (int m = 1; m < NR_MUTANTS; m++)
		fprintf(stderr, " %s", mutant_names[m]);
	fprintf(stderr, "\n");
	exit(2);
}

int main(int argc, char **argv)
{
	Suite *s = suite_create(TEST_FLAVOUR_NAME);

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			run_seconds = strtod(argv[++i], NULL);
			if (!(run_seconds > 0))
				usage("--seconds takes a positive number");
		} else if (strcmp(argv[i], "--structure") == 0 && i + 1 < argc) {
			i++;
			for (size_t k = 0; k < sizeof(structures) / sizeof(structures[0]); k++)
				if (strcmp(argv[i], structures[k]->name) == 0)
					structure = structures[k];
			if (structure == NULL)
				usage("no such structure");
		} else if (strcmp(argv[i], "--mutant") == 0 && i + 1 < argc) {
			i++;
			for (int m = 1; m < NR_MUTANTS; m++)
				if (strcmp(argv[i], mutant_names[m]) == 0)
					test_mutant_ = m;
			if (test_mutant_ == MUTANT_none)
				usage("no such mutant");
		} else {
			usage("unknown argument");
		}
	}
	if (structure == NULL)
		usage("--structure is required");
	if (test_mutant_ != MUTANT_none) {
		int ret;

		TEST_ADD(s, mutant_is_reported_by_the_checker, 3 * seconds_for_run() + 60);
		ret = test_main(s);
		/* A broken structure may keep what it allocated (the RCU
		 * queue's dummies): no leak check at exit. */
		fflush(NULL);
		_exit(ret);
	}
	TEST_ADD(s, history_of_the_structure_is_linearizable, 20 * seconds_for_run() + 120);
	return test_main(s);
}
