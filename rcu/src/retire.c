/* SPDX-License-Identifier: MIT */
/*
 * retire.c - rcu_retire(): callbacks that run on the thread that retired
 * them, after a grace period found by its own polls.
 *
 * Owns: each registered thread's retire state: the open batch, filling
 * (self_open, the exported TLS object that the inline rcu_retire() pushes
 * onto, rcu/flavour-api.h; this file sets its limit: RETIRE_BATCH on a
 * registered thread outside its own callbacks, else 0, so that every
 * other call comes here), and (self_retire, static TLS) up to
 * RETIRE_SEALED sealed batches, each with the grace-period ticket taken
 * when it was sealed, oldest first, and the thread's last RETIRE_SEALED
 * counter increments (each its target, with the newest ticket it covers).
 *
 * Invariants: only the owner thread touches its state; callbacks within a
 * batch run in no particular order, batches oldest first. A sealed batch's
 * callbacks were all retired before its ticket was taken, so a grace
 * period that covers the ticket (gp_ticket_done()) covers them; a batch
 * runs only then. The open batch has no ticket: it runs only after a
 * grace period begun later (rcu_retire_barrier()'s), or goes to the
 * call_rcu worker, whose own grace period begins after the hand-over.
 * Pending callbacks are bounded: at most RETIRE_BATCH in the open batch
 * and RETIRE_SEALED sealed batches; sealing when all are taken hands the
 * oldest to the call_rcu worker (never waits: call_rcu_queue() is
 * wait-free). Unregistering or exiting hands everything over the same way.
 *
 * Polls: sealing a batch takes its ticket, increments the grace-period
 * counter once (gp_poll_advance(): its target covers every ticket taken
 * so far, this one included), fences every reader once (QSBR and mb: a
 * fence; memb and bp: one membarrier(), unless one that any thread ran
 * since the thread's advance RETIRE_FENCE_LAG seals back serves: gp.c note
 * 9), and scans the registry without a lock for the lowest snapshot a
 * reader holds (gp_poll_floor(), gp.c note 8): the newest of the thread's
 * increments whose target is at or below it, and at or below the counter
 * the fence came after, is a grace period, and the tickets it covers are
 * done for every thread (synchronize_rcu() and the worker's grace periods
 * mark them too). Then every sealed batch whose ticket is done runs, in order.
 * QSBR: an online caller holds up its own targets until its next
 * quiescent state, so its batches run after that state, at a later seal.
 *
 * No lock, no allocation, no wait in rcu_retire(); one ticket and one
 * counter increment (shared cache lines) per RETIRE_BATCH calls.
 *
 * retire_defer() (the layer's defer_rcu(fct, p)) wraps a call in a record
 * from the thread's pool (self_retire.records, refilled as its batches
 * run; malloc() when empty, freed at exit) and retires it.
 *
 * Relies on: gp.c (tickets, polled grace periods, synchronize), the
 * flavour's fence (qsbr.c, memb.c), call_rcu.c (the hand-over and
 * rcu_barrier()), registry.c (registered).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "internal.h"

/*
 * Callbacks per batch. memb and bp fence every reader with one membarrier()
 * (an interrupt to each running CPU, a VM exit on a virtual machine) per
 * poll, so their batches are the largest (rcufree, 2 threads on 2 CPUs:
 * 2048 ran at 0.81 of ck_epoch_call, 4096 at 0.83-0.98). QSBR and mb fence
 * only the caller; QSBR's are still 4 times mb's, as an online thread that
 * the scheduler preempts holds every poll up until it runs again
 * (milliseconds, with more threads than CPUs), and with 8 x 128 pending a
 * thread then handed batches to the worker (hot1, 4 writers on 2 CPUs:
 * 1.1-1.7x the updates with 512).
 */
#if defined(RCU_BUILD_MEMB) || defined(RCU_BUILD_BP)
#define RETIRE_BATCH 4096
#elif defined(RCU_BUILD_QSBR)
#define RETIRE_BATCH 512
#else
#define RETIRE_BATCH 128
#endif
/* Sealed batches a thread keeps before it hands the oldest over; as many
 * of its increments are remembered. */
#define RETIRE_SEALED 8
/*
 * memb and bp: a poll runs its own membarrier() only when no thread (a
 * poll or a grace period) has run one since this thread's advance
 * RETIRE_FENCE_LAG seals back (gp.c note 9), so a lone thread fences once
 * per RETIRE_FENCE_LAG seals, and threads that seal together share one;
 * each batch then runs up to that many seals after its own, well inside
 * RETIRE_SEALED. rcufree, 2 threads on 2 CPUs, against ck_epoch_call in
 * the same minute: a membarrier() per seal 0.99, a lag of 1 1.13, 3 1.18,
 * 7 1.20.
 */
#define RETIRE_FENCE_LAG 3

struct retire_batch {
	struct rcu_head *first;
	uint64_t ticket;
};

struct retire_state {
	/* Sealed batches: sealed[(sealed_head + i) % RETIRE_SEALED] for i
	 * below sealed_count, oldest first. */
	struct retire_batch sealed[RETIRE_SEALED];
	unsigned sealed_head;
	unsigned sealed_count;
	/* This thread's last counter increments: advances[(advance_next - 1
	 * - i) % RETIRE_SEALED] is the i-th newest (target 0: none). */
	struct {
		uint64_t target;
		uint64_t covered;
	} advances[RETIRE_SEALED];
	unsigned advance_next;
	/* Callbacks of this thread are running (a callback's own
	 * rcu_retire() only queues). */
	bool running;
	/* Some callback went to the call_rcu worker since the last
	 * rcu_retire_barrier(). */
	bool handed_over;
	/* Records of retire_defer() for reuse, linked by head.next. */
	struct rcu_head *records;
	unsigned nr_records;
};

/* Initial-exec, as the reader state (rcu/reader.h): one thread-pointer
 * relative access, no __tls_get_addr() call. */
#define self_open		RCU_SYM_(retire_)
_Thread_local struct rcu_retire_ self_open RCU_TLS_MODEL_;
static _Thread_local struct retire_state self_retire RCU_TLS_MODEL_;

/* The open batch's limit: the inline path may fill it while this thread is
 * registered and not running its own callbacks. */
static void retire_set_limit(const struct retire_state *s)
{
	self_open.limit = self_reader.registered && !s->running ? RETIRE_BATCH : 0;
}

/* Runs the chain from first (each callback may free its head). */
static void retire_run_chain(struct retire_state *s, struct rcu_head *first)
{
	if (first == NULL)
		return;
	s->running = true;
	retire_set_limit(s);
	while (first != NULL) {
		struct rcu_head *next = first->next;

		first->func(first);
		first = next;
	}
	s->running = false;
	retire_set_limit(s);
}

/* Gives the chain from first to the call_rcu worker. */
static void retire_hand_over(struct retire_state *s, struct rcu_head *first)
{
	while (first != NULL) {
		struct rcu_head *next = first->next;

		call_rcu_queue(first, first->func);
		first = next;
	}
	s->handed_over = true;
}

/* Detaches the open batch and returns its chain. */
static struct rcu_head *retire_take_open(void)
{
	struct rcu_head *first = self_open.first;

	self_open.first = NULL;
	self_open.count = 0;
	return first;
}

static struct retire_batch *retire_oldest(struct retire_state *s)
{
	return &s->sealed[s->sealed_head];
}

static struct rcu_head *retire_drop_oldest(struct retire_state *s)
{
	struct rcu_head *first = retire_oldest(s)->first;

	s->sealed_head = (s->sealed_head + 1) % RETIRE_SEALED;
	s->sealed_count--;
	return first;
}

/* Runs, oldest first, every sealed batch whose ticket is done. */
static void retire_run_done(struct retire_state *s)
{
	while (s->sealed_count > 0 &&
	       (gp_ticket_done(retire_oldest(s)->ticket) ||
		rcu_mutant(RCU_MUTANT_RETIRE_EARLY)))
		retire_run_chain(s, retire_drop_oldest(s));
}

/* One polled grace period (see the top comment). */
static void retire_poll(struct retire_state *s)
{
	unsigned newest = s->advance_next++ % RETIRE_SEALED;
	uint64_t lagging = s->advances[(newest + RETIRE_SEALED - RETIRE_FENCE_LAG) %
				       RETIRE_SEALED].target;
	uint64_t clear, floor;

	s->advances[newest].target = gp_poll_advance(&s->advances[newest].covered);
	/* Every reader, after the counter reached the targets up to clear
	 * (gp.c notes 3 and 9): the scan loads their slots after it. */
	clear = gp_poll_fence(lagging != 0 ? lagging : s->advances[newest].target);
	floor = gp_poll_floor();
	if (floor < clear)
		clear = floor;
	for (unsigned i = 0; i < RETIRE_SEALED; i++) {
		unsigned a = (newest + RETIRE_SEALED - i) % RETIRE_SEALED;

		if (s->advances[a].target != 0 && s->advances[a].target <= clear) {
			gp_poll_covered(s->advances[a].covered);
			break;
		}
	}
	retire_run_done(s);
}

/* Seals the open batch (RETIRE_BATCH callbacks) and polls. */
static void retire_seal(struct retire_state *s)
{
	struct retire_batch *b;

	if (s->sealed_count == RETIRE_SEALED) {
		retire_run_done(s);
		if (s->sealed_count == RETIRE_SEALED)
			retire_hand_over(s, retire_drop_oldest(s));
	}
	b = &s->sealed[(s->sealed_head + s->sealed_count) % RETIRE_SEALED];
	b->first = retire_take_open();
	b->ticket = gp_ticket_take();
	s->sealed_count++;
	retire_poll(s);
}

void retire_queue(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	struct retire_state *s = &self_retire;

	if (!self_reader.registered) {
		/* bp's threads need not register: theirs go to the worker. */
		rcu_check_(!FLAVOUR_JOINS_IMPLICITLY, "rcu_retire", "thread not registered");
		call_rcu_queue(head, func);
		s->handed_over = true;
		return;
	}
	head->func = func;
	head->next = self_open.first;
	self_open.first = head;
	self_open.count++;
	retire_set_limit(s);
	if (self_open.count < RETIRE_BATCH || s->running)
		return;
	retire_seal(s);
	/* Callbacks that retired more while running may have filled the
	 * open batch again; one more seal keeps it bounded. */
	if (self_open.count >= RETIRE_BATCH)
		retire_seal(s);
}

void retire_barrier(void)
{
	struct retire_state *s = &self_retire;

	rcu_check_outside_section_("rcu_retire_barrier");
	rcu_check_(s->running, "rcu_retire_barrier", "called from a retired callback");
	/* A grace period begun after every retire of this thread. */
	gp_synchronize_rcu();
	while (s->sealed_count > 0)
		retire_run_chain(s, retire_drop_oldest(s));
	retire_run_chain(s, retire_take_open());
	if (s->handed_over) {
		s->handed_over = false;
		call_rcu_barrier();
	}
}

/* ---- (fct, p) calls: liburcu's defer_rcu() ----------------------------- */

/* Records a thread keeps for reuse: a batch that runs gives back what the
 * next one takes, so that a thread that defers steadily allocates none. */
#define RETIRE_RECORDS_KEPT (2 * RETIRE_BATCH)

struct retire_record {
	struct rcu_head head;
	void (*fct)(void *p);
	void *p;
};

/* A record's call. The record goes back to the pool of the thread running
 * its own batch (the one that took it), else (on the call_rcu worker:
 * handed over, or deferred by a thread not registered) to free(). */
static void retire_record_run(struct rcu_head *head)
{
	struct retire_record *r = caa_container_of(head, struct retire_record, head);
	struct retire_state *s = &self_retire;
	void (*fct)(void *p) = r->fct;
	void *p = r->p;

	if (s->running && s->nr_records < RETIRE_RECORDS_KEPT) {
		r->head.next = s->records;
		s->records = &r->head;
		s->nr_records++;
	} else {
		free(r);
	}
	fct(p);
}

void retire_defer(void (*fct)(void *p), void *p)
{
	struct retire_state *s = &self_retire;
	struct retire_record *r;

	if (s->records != NULL) {
		r = caa_container_of(s->records, struct retire_record, head);
		s->records = r->head.next;
		s->nr_records--;
	} else {
		r = malloc(sizeof(*r));
		if (r == NULL) {
			/* As liburcu's defer_rcu() when its queue is full. */
			gp_synchronize_rcu();
			fct(p);
			return;
		}
	}
	r->fct = fct;
	r->p = p;
	if (self_reader.registered)
		retire_queue(&r->head, retire_record_run);
	else
		call_rcu_queue(&r->head, retire_record_run);
}

void retire_thread_exit(void)
{
	struct retire_state *s = &self_retire;

	while (s->records != NULL) {
		struct rcu_head *head = s->records;

		s->records = head->next;
		free(caa_container_of(head, struct retire_record, head));
	}
	s->nr_records = 0;

	/* From now on every call comes to the library (retire_queue()). */
	self_open.limit = 0;
	if (rcu_mutant(RCU_MUTANT_EXIT_DROPS_PENDING)) {
		s->sealed_count = 0;
		(void)retire_take_open();
		return;
	}
	while (s->sealed_count > 0)
		retire_hand_over(s, retire_drop_oldest(s));
	retire_hand_over(s, retire_take_open());
	s->handed_over = false;
}
