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
 * Structures (--structure NAME): wfcqueue, wfstack, lfstack, rculfqueue,
 * each a row of bare calls (struct ds_ops) that one recorder times and
 * logs.
 *
 * A call that never returns (a mutant can leave a link that never comes,
 * and a blocking take waits for it for ever) leaves the round stuck: after
 * STUCK_SECONDS the main thread checks what the round logged so far (an
 * open end: no drain) and ends the run as a broken round does: exit 1 in a
 * plain run. A mutant run exits 0:
 * the stuck call is what the plain run fails on, whether or not the calls
 * that returned already break a rule (the broken one is often the stuck
 * call itself: wfcq_dequeue_unlocked's two takers lose a link and one waits
 * for it for ever, after a clean prefix).
 *
 * Run time: --seconds S, else LFHT_STRESS_SECONDS (test_stress_seconds():
 * 2 s natively, 0.3 s under qemu). Every run, plain or mutant, ends at
 * the first round that breaks a rule (tests/history/harness.h: exit 1, a
 * mutant's 0); a mutant run that finds none ends after --seconds (200 s
 * by the meson tests) and fails.
 */
#define _GNU_SOURCE
#include "lfht_test.h"
#include "history/harness.h"
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
/* The value --break-round's take returns: thread 0xffffff's, never put. */
#define BROKEN_VALUE ((0xffffffULL << 40) | 1)

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
	 * with the acquire load in gather(). */
	rcu_atomic_store(&w->nr_ops, n + 1, memory_order_release);
	w->calls++;
}

/* ---- the structures ------------------------------------------------------------ */

/* A take's form: the workers pick one of the structure's two at random
 * (blocking or not, under its mutex or not: each structure says); the
 * drain, alone with the structure after the round, takes TAKE_DRAIN. */
enum take_form { TAKE_ONE_WAY, TAKE_OTHER_WAY, TAKE_DRAIN };

/* A structure's calls, bare: the recorder (below) times and logs them. */
struct ds_ops {
	const char *name;
	enum hq_order order;
	/* Its calls are made inside read-side sections (the RCU queue). */
	bool in_read_section;
	void (*init)(void);
	void (*fini)(void);
	void (*put)(struct item *it);
	/* One item, NULL when empty; *would_block (false on entry) when it
	 * would have waited, which for TAKE_DRAIN means a link that never
	 * comes: the structure is broken. */
	struct item *(*take)(enum take_form form, bool *would_block);
	/* Everything (NULL: the structure has no such call), at most cap
	 * items into taken, returns how many; *respond is stamped when the
	 * structure's call returned, before the walk of what it took. */
	size_t (*take_all)(struct item **taken, size_t cap, uint64_t *respond,
			   bool *would_block);
	/* Whether a taken item may be put again at once (else it is retired
	 * and a fresh one put instead). */
	bool reuse;
	/* What becomes of a taken item that is not put again (NULL: nothing,
	 * it stays in its arena). */
	void (*retire)(struct item *it);
};

/* Whether blocking takes are left out: a lost enqueue can leave a link
 * that never comes, for which a blocking take would wait for ever. */
static bool takes_never_block(void)
{
	return test_mutant_ == MUTANT_wfcq_enqueue_lost;
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

/* wfcqueue: dequeue blocking (under the queue's mutex) or nonblocking
 * under cds_wfcq_dequeue_lock(); splice into a local queue. */

static struct cds_wfcq_head wfcq_head;
static struct cds_wfcq_tail wfcq_tail;

static struct item *item_of_wfcq(struct cds_wfcq_node *n)
{
	return caa_container_of(n, struct item, wfcq);
}

static void wfcq_init(void)
{
	cds_wfcq_init(&wfcq_head, &wfcq_tail);
}

static void wfcq_fini(void)
{
	cds_wfcq_destroy(&wfcq_head, &wfcq_tail);
}

static void wfcq_put(struct item *it)
{
	cds_wfcq_node_init(&it->wfcq);
	(void)cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &it->wfcq);
}

static struct item *wfcq_take(enum take_form form, bool *would_block)
{
	struct cds_wfcq_node *n;

	if (form == TAKE_OTHER_WAY && !takes_never_block()) {
		n = cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail);
	} else {
		cds_wfcq_dequeue_lock(&wfcq_head, &wfcq_tail);
		n = __cds_wfcq_dequeue_nonblocking(&wfcq_head, &wfcq_tail);
		cds_wfcq_dequeue_unlock(&wfcq_head, &wfcq_tail);
	}
	*would_block = n == CDS_WFCQ_WOULDBLOCK;
	return n != NULL && !*would_block ? item_of_wfcq(n) : NULL;
}

static size_t wfcq_take_all(struct item **taken, size_t cap, uint64_t *respond,
			    bool *would_block)
{
	struct cds_wfcq_head h;
	struct cds_wfcq_tail t;
	enum cds_wfcq_ret ret;
	double deadline = 0;
	size_t n = 0;

	cds_wfcq_init(&h, &t);
	if (takes_never_block()) {
		cds_wfcq_dequeue_lock(&wfcq_head, &wfcq_tail);
		ret = __cds_wfcq_splice_nonblocking(&h, &t, &wfcq_head, &wfcq_tail);
		cds_wfcq_dequeue_unlock(&wfcq_head, &wfcq_tail);
	} else {
		ret = cds_wfcq_splice_blocking(&h, &t, &wfcq_head, &wfcq_tail);
	}
	*respond = hist_stamp_respond();
	*would_block = ret == CDS_WFCQ_RET_WOULDBLOCK;
	/* The local queue: a link on the way (a put in flight) is waited
	 * for, bounded. */
	while (!*would_block && n < cap) {
		struct cds_wfcq_node *node = __cds_wfcq_dequeue_nonblocking(&h, &t);

		if (node == NULL)
			break;
		if (node == CDS_WFCQ_WOULDBLOCK) {
			if (!link_wait(&deadline))
				break;
			continue;
		}
		taken[n++] = item_of_wfcq(node);
	}
	cds_wfcq_destroy(&h, &t);
	return n;
}

static const struct ds_ops wfcq_ops = {
	.name = "wfcqueue", .order = HQ_FIFO, .init = wfcq_init, .fini = wfcq_fini,
	.put = wfcq_put, .take = wfcq_take, .take_all = wfcq_take_all, .reuse = true,
};

/* wfstack: pop blocking or nonblocking under the pop mutex; pop_all. */

static struct cds_wfs_stack wfs;

static struct item *item_of_wfs(struct cds_wfs_node *n)
{
	return caa_container_of(n, struct item, wfs);
}

static void wfs_init(void)
{
	cds_wfs_init(&wfs);
}

static void wfs_fini(void)
{
	cds_wfs_destroy(&wfs);
}

static void wfs_put(struct item *it)
{
	cds_wfs_node_init(&it->wfs);
	(void)cds_wfs_push(&wfs, &it->wfs);
}

static struct item *wfs_take(enum take_form form, bool *would_block)
{
	struct cds_wfs_node *n;

	if (form == TAKE_OTHER_WAY) {
		n = cds_wfs_pop_blocking(&wfs);
	} else {
		cds_wfs_pop_lock(&wfs);
		n = __cds_wfs_pop_nonblocking(&wfs);
		cds_wfs_pop_unlock(&wfs);
	}
	*would_block = n == CDS_WFS_WOULDBLOCK;
	return n != NULL && !*would_block ? item_of_wfs(n) : NULL;
}

static size_t wfs_take_all(struct item **taken, size_t cap, uint64_t *respond,
			   bool *would_block)
{
	struct cds_wfs_head *h = cds_wfs_pop_all_blocking(&wfs);
	struct cds_wfs_node *node;
	size_t n = 0;

	*respond = hist_stamp_respond();
	(void)would_block;
	/* Bounded: a mutant may leave a cycle. */
	for (node = h ? cds_wfs_first(h) : NULL; node != NULL && n < cap;
	     node = cds_wfs_next_blocking(node))
		taken[n++] = item_of_wfs(node);
	return n;
}

static const struct ds_ops wfs_ops = {
	.name = "wfstack", .order = HQ_LIFO, .init = wfs_init, .fini = wfs_fini,
	.put = wfs_put, .take = wfs_take, .take_all = wfs_take_all, .reuse = true,
};

/* lfstack: pop under the mutex, both forms; pop_all. */

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

static void lfs_put(struct item *it)
{
	cds_lfs_node_init(&it->lfs);
	(void)cds_lfs_push(&lfs, &it->lfs);
}

static struct item *lfs_take(enum take_form form, bool *would_block)
{
	struct cds_lfs_node *n;

	(void)would_block;
	if (form == TAKE_OTHER_WAY) {
		n = cds_lfs_pop_blocking(&lfs);
	} else {
		cds_lfs_pop_lock(&lfs);
		n = __cds_lfs_pop(&lfs);
		cds_lfs_pop_unlock(&lfs);
	}
	return n ? item_of_lfs(n) : NULL;
}

static size_t lfs_take_all(struct item **taken, size_t cap, uint64_t *respond,
			   bool *would_block)
{
	struct cds_lfs_head *h = cds_lfs_pop_all_blocking(&lfs);
	struct cds_lfs_node *node;
	size_t n = 0;

	*respond = hist_stamp_respond();
	(void)would_block;
	cds_lfs_for_each(h, node) {
		/* Bounded: a mutant may leave a cycle. */
		if (n == cap)
			break;
		taken[n++] = item_of_lfs(node);
	}
	return n;
}

static const struct ds_ops lfs_ops = {
	.name = "lfstack", .order = HQ_LIFO, .init = lfs_init, .fini = lfs_fini,
	.put = lfs_put, .take = lfs_take, .take_all = lfs_take_all, .reuse = true,
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

static void lfq_put(struct item *it)
{
	cds_lfq_node_init_rcu(&it->lfq);
	/* Relaxed: the arena was reset after every callback of the last
	 * round ran (rcu_barrier() in check_round()). */
	rcu_atomic_store(&it->freed, 0, memory_order_relaxed);
	cds_lfq_enqueue_rcu(&lfq, &it->lfq);
}

/* The dequeue and the check of the item, in the caller's section. */
static struct item *lfq_dequeue_item(void)
{
	struct cds_lfq_node_rcu *n = cds_lfq_dequeue_rcu(&lfq);
	struct item *it = n ? item_of_lfq(n) : NULL;

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

/* Inside the recorder's read-side section. */
static struct item *lfq_take(enum take_form form, bool *would_block)
{
	bool mutant = test_mutant_ == MUTANT_lfq_enqueue_lost;
	struct item *it;
	sigjmp_buf jump;

	if ((mutant || form == TAKE_DRAIN) && lfq_off_chain()) {
		*would_block = true;
		return NULL;
	}
	if (mutant) {
		if (sigsetjmp(jump, 1) != 0) {
			lfq_fault_jump = NULL;
			*would_block = true;
			return NULL;
		}
		lfq_fault_jump = &jump;
	}
	it = lfq_dequeue_item();
	lfq_fault_jump = NULL;
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
	.name = "rculfqueue", .order = HQ_FIFO, .in_read_section = true, .init = lfq_init,
	.fini = lfq_fini, .put = lfq_put, .take = lfq_take, .retire = lfq_retire,
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
};

/* ---- the recorder: a structure's calls, timed and logged --------------------- */

static void section_enter(const struct ds_ops *ds)
{
	if (ds->in_read_section)
		rcu_read_lock();
}

static void section_leave(const struct ds_ops *ds)
{
	if (ds->in_read_section)
		rcu_read_unlock();
}

static void record_put(struct worker *w, struct item *it)
{
	const struct ds_ops *ds = w->run->ds;
	struct hq_op op = { .kind = HQ_PUT, .thread = w->thread, .value = new_value(w) };

	item_set_value(it, op.value);
	section_enter(ds);
	op.invoke = hist_stamp_invoke();
	ds->put(it);
	op.respond = hist_stamp_respond();
	section_leave(ds);
	log_op(w, &op);
}

/* Takes one, in a form picked at random: logs it; returns the item, or
 * NULL when empty or when it would have waited (nothing logged then). */
static struct item *record_take(struct worker *w)
{
	const struct ds_ops *ds = w->run->ds;
	enum take_form form = test_rand(&w->seed) & 1 ? TAKE_OTHER_WAY : TAKE_ONE_WAY;
	struct hq_op op = { .kind = HQ_TAKE, .thread = w->thread };
	bool would_block = false;
	struct item *it;

	section_enter(ds);
	op.invoke = hist_stamp_invoke();
	it = ds->take(form, &would_block);
	op.respond = hist_stamp_respond();
	op.value = it ? item_value(it) : 0;
	section_leave(ds);
	if (would_block) {
		w->would_block++;
		return NULL;
	}
	log_op(w, &op);
	return it;
}

/* Takes everything (no structure with a take-all needs a read-side
 * section): logs it; the items into w->taken, returns how many. */
static size_t record_take_all(struct worker *w)
{
	struct hq_op op = { .kind = HQ_TAKE_ALL, .thread = w->thread };
	bool would_block = false;
	size_t n;

	op.invoke = hist_stamp_invoke();
	n = w->run->ds->take_all(w->taken, w->cap_seq - w->nr_seq, &op.respond, &would_block);
	if (would_block) {
		w->would_block++;
		return 0;
	}
	op.seq_start = (uint32_t)w->nr_seq;
	op.seq_len = (uint32_t)n;
	for (size_t k = 0; k < n; k++)
		w->seq[w->nr_seq++] = item_value(w->taken[k]);
	log_op(w, &op);
	w->take_alls++;
	return n;
}

/* The drain runs after every put returned: no link is on the way, and
 * one missing never comes (*broken). */
static struct item *drain_one(const struct ds_ops *ds, bool *broken)
{
	struct item *it;

	section_enter(ds);
	it = ds->take(TAKE_DRAIN, broken);
	section_leave(ds);
	return it;
}

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
	record_put(w, it);
	w->recycled++;
}

static void take_step(struct worker *w, bool churn)
{
	if (w->run->ds->take_all != NULL && test_rand(&w->seed) % 16 == 0) {
		size_t n = record_take_all(w);

		for (size_t k = 0; k < n; k++)
			after_take(w, w->taken[k], churn);
	} else {
		struct item *it = record_take(w);

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
		record_put(w, &w->arena[w->nr_arena++]);
	for (int k = 0; k < (churn ? CHURN_OPS : ROUND_OPS); k++) {
		if (!churn && w->producer)
			record_put(w, &w->arena[w->nr_arena++]);
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
	/* Room for --break-round's call. */
	ops = hist_calloc(n + 1, sizeof(*ops));
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

	char why[160];

	ops = gather(run, &n, &seq);
	r = (struct hq_round){ .order = run->ds->order, .ops = ops, .nr_ops = n,
			       .seq_vals = seq, .open_end = true };
	clean = hq_check_round(&r, &run->verdict, stderr);
	snprintf(why, sizeof(why), "did not finish in %.0f s (a call never returned); its %zu "
		 "calls that did are %s", test_mutant_ ? STUCK_SECONDS_MUTANT : STUCK_SECONDS, n,
		 clean ? "clean" : "NOT clean (above)");
	hist_end_failed(run->ds->name, run->rounds + 1, why);
}

/* The drain, then the check of the round; a round that broke a rule ends
 * the program (harness.h). --break-round adds to its round a take of a
 * value nobody put. */
static void check_round(struct run *run)
{
	size_t n, cap = 0, na = 0;
	struct hq_op *ops;
	uint64_t *seq, *after;
	struct hq_round r;
	bool clean, broken = false;

	ops = gather(run, &n, &seq);
	if (hist_break_this_round(run->rounds + 1))
		ops[n++] = (struct hq_op){ .kind = HQ_TAKE, .value = BROKEN_VALUE,
					   .invoke = hist_stamp_invoke(),
					   .respond = hist_stamp_respond() };
	for (size_t k = 0; k < n; k++)
		cap += ops[k].kind == HQ_PUT;
	/* Bounded: a mutant may hand out more than was put. */
	after = hist_calloc(cap + 2, sizeof(*after));
	while (na < cap + 2) {
		struct item *it = drain_one(run->ds, &broken);

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
		hist_end_failed(run->ds->name, run->rounds + 1, "broke a rule (above)");
	free(ops);
	free(seq);
	free(after);
}

/* Runs the workload on ds for seconds (at least two rounds); a round that
 * breaks a rule ends the program instead. */
static void run_for(struct run *run, const struct ds_ops *ds, double seconds)
{
	pthread_t threads[NR_THREADS];
	double end = test_now() + seconds;
	long r = 0;

	*run = (struct run){ .ds = ds };
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
		check_round(run);
		run->rounds++;
	} while (r < 2 || test_now() < end ||
		 /* A slow run (an emulator) whose rounds were all left to the
		  * rules goes on, bounded, until the search settled one. */
		 (run->verdict.searched_rounds == 0 && test_now() < end + 9 * seconds + 30));
	/* Release: pairs with the acquire load in worker_main(). */
	rcu_atomic_store(&run->round, -1, memory_order_release);
	for (int t = 0; t < NR_THREADS; t++)
		test_join(threads[t]);
	ds->fini();
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

#define NR_STRUCTURES (sizeof(structures) / sizeof(structures[0]))

static const char *structure_names[NR_STRUCTURES];
static struct hist_args args = { .mutants = mutant_names, .nr_mutants = NR_MUTANTS,
				 .structures = structure_names,
				 .nr_structures = (int)NR_STRUCTURES };

static double seconds_for_run(void)
{
	return args.seconds > 0 ? args.seconds : test_stress_seconds();
}

START_TEST(history_of_the_structure_is_linearizable)
{
	const struct ds_ops *ds = structures[args.structure];
	struct run run;
	double start = test_now();
	long calls = 0;

	run_for(&run, ds, seconds_for_run());
	run_print(&run, test_now() - start);
	for (int t = 0; t < NR_THREADS; t++)
		calls += run.workers[t].calls;
	ck_assert_uint_eq(run.verdict.violations, 0);
	ck_assert_int_ge(run.rounds, 2);
	ck_assert_int_gt(calls, 4 * ROUND_OPS);
	ck_assert_uint_gt(run.verdict.values, 2 * ROUND_OPS);
	ck_assert_uint_ge(run.verdict.searched_rounds, 1);
	/* Relaxed: the threads are joined. */
	ck_assert_int_eq(rcu_atomic_load(&lfq_read_after_free, memory_order_relaxed), 0);
	if (ds->take_all != NULL) {
		long take_alls = 0;

		for (int t = 0; t < NR_THREADS; t++)
			take_alls += run.workers[t].take_alls;
		ck_assert_int_gt(take_alls, 0);
	}
	run_free(&run);
}
END_TEST

/* The checker's report ends the program (exit 0): a run that returns
 * found nothing. */
START_TEST(mutant_is_reported_by_the_checker)
{
	struct run run;
	double start = test_now();

	run_for(&run, structures[args.structure], seconds_for_run());
	run_print(&run, test_now() - start);
	run_free(&run);
	ck_abort_msg("mutant %s [%s]: NOT reported in %.1f s (%ld rounds)",
		     mutant_names[test_mutant_], structures[args.structure]->name,
		     test_now() - start, run.rounds);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create(TEST_FLAVOUR_NAME);

	for (size_t k = 0; k < NR_STRUCTURES; k++)
		structure_names[k] = structures[k]->name;
	hist_args_parse(&args, argc, argv);
	test_mutant_ = args.mutant;
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
