/* SPDX-License-Identifier: MIT */
/*
 * lfht/worker.c - the resize workers shared by tables, the lock-free
 * requests that wake them, and what fork() does to them.
 *
 * Owns every struct lfht_worker and every table's struct lfht_request. One
 * worker thread serves all the auto-resizing tables that share a flavour
 * and a pthread attr pointer (NULL for most), so ten thousand tables cost
 * one thread. It is created by the first cds_lfht_new() that needs it and
 * stopped by the cds_lfht_destroy() of its last table.
 *
 * A request is lock-free: an update that flips its table's `pending` from 0
 * to 1 pushes the table onto its worker's stack (one CAS loop) and, if the
 * worker sleeps, wakes it (one futex wake). Nothing else: no lock, no
 * allocation, no wait.
 *
 * Invariants:
 * - a table is on its worker's stack at most once: only the 0 -> 1 flip of
 *   pending pushes, and only the worker clears pending, after it popped the
 *   table;
 * - only the holder of w->lock pops (the worker, or a destroyer taking its
 *   table out), so the stack has one consumer at a time and no ABA;
 * - a table being resized by the worker (w->current) or waiting for a
 *   recheck (w->recheck) has its worker's lock held, or is on a list that
 *   only the holder of that lock touches, so cds_lfht_destroy(), which
 *   takes w->lock, never frees a table the worker still uses;
 * - workers and their table lists change only under workers_mutex, which
 *   fork() takes, so the child finds them consistent.
 *
 * fork(): prepare takes workers_mutex and closes the resize gate (sync.c),
 * so no resize step is half done. In the child every worker thread is gone:
 * each worker is reset, every table it serves is requested anew, and its
 * thread is created again. Locks a vanished thread held are taken over by
 * the child's generation (sync.c); resize.c completes an interrupted shrink.
 *
 * Relies on: resize.c (lfht_resize_auto), sync.c, the flavour's ops.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "internal.h"

/* How soon the worker looks again at a table whose count still moved. */
#define WORKER_RECHECK_NS 20000000L

struct lfht_request {
	struct cds_lfht *ht;
	struct lfht_worker *worker;
	/* 1 from a request until the worker takes it. */
	_Atomic(uint32_t) pending;
	/* The worker's stack: written by the pusher before its CAS. */
	struct lfht_request *stack_next;
	/* The worker's recheck list; under w->lock. */
	struct lfht_request *recheck_next;
	bool in_recheck;
	long last_count;	/* the sum at the worker's last look; w->lock */
	/* The worker's tables; under workers_mutex. */
	struct lfht_request *prev, *next;
};

struct lfht_worker {
	const struct rcu_flavour *flavour;
	pthread_attr_t *attr;
	/* Tables served; under workers_mutex. */
	struct lfht_request *tables;
	unsigned long nr_tables;
	struct lfht_worker *next;	/* workers list; under workers_mutex */
	bool running;			/* the thread exists; workers_mutex */
	pthread_t thread;

	_Atomic(struct lfht_request *) stack;
	/* 1 while the worker sleeps or is about to: the futex word. */
	_Atomic(uint32_t) sleeping;
	_Atomic(bool) stop;

	/* Held while popping and resizing one table, and by destroy. */
	struct lfht_lock lock;
	struct lfht_request *recheck;	/* under lock */
};

static pthread_mutex_t workers_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct lfht_worker *workers;	/* under workers_mutex */
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

/* ---- requests (updates) --------------------------------------------------- */

static void stack_push(struct lfht_worker *w, struct lfht_request *req)
{
	/* Relaxed: the CAS validates it. */
	struct lfht_request *head = rcu_atomic_load(&w->stack, memory_order_relaxed);

	do {
		req->stack_next = head;
		/* Seq_cst: release publishes stack_next to the popper (pairs
		 * with its acquire load of the head); the store-load order
		 * against the load of sleeping in worker_wake() pairs with the
		 * fence in worker_sleep(). Relaxed on failure: retried. */
	} while (!rcu_atomic_cas(&w->stack, &head, req, memory_order_seq_cst,
				 memory_order_relaxed));
}

static void worker_wake(struct lfht_worker *w)
{
	/* The push (or stop) before the load of sleeping; pairs with the
	 * fence in worker_sleep() between its store of sleeping and its look
	 * at the stack: of the two, one sees the other's store. */
	rcu_fence(memory_order_seq_cst);
	/* Relaxed: ordered by the fence; the exchange picks one waker. */
	if (rcu_atomic_load(&w->sleeping, memory_order_relaxed) &&
	    rcu_atomic_xchg(&w->sleeping, 0, memory_order_relaxed))
		lfht_futex_wake(&w->sleeping, 1);
}

void lfht_resize_request(struct cds_lfht *ht)
{
	struct lfht_request *req = ht->request;

	/* Relaxed: a hint; the exchange decides who pushes. Acquire on the
	 * exchange: pairs with the release clear in worker_serve(), so the
	 * worker's read of stack_next when it popped the table comes before
	 * our write of it in stack_push(). */
	if (!req || rcu_atomic_load(&req->pending, memory_order_relaxed) ||
	    rcu_atomic_xchg(&req->pending, 1, memory_order_acquire))
		return;
	stack_push(req->worker, req);
	worker_wake(req->worker);
}

/* ---- the worker ----------------------------------------------------------- */

/* One consumer at a time: the caller holds w->lock. */
static struct lfht_request *stack_pop(struct lfht_worker *w)
{
	/* Acquire (load and CAS): pairs with the seq_cst CAS in
	 * stack_push(), so the popped request's stack_next is visible. */
	struct lfht_request *head = rcu_atomic_load(&w->stack, memory_order_acquire);

	while (head && !rcu_atomic_cas(&w->stack, &head, head->stack_next,
				       memory_order_acquire, memory_order_acquire))
		;
	return head;
}

/* Takes req off the stack and the recheck list; caller holds w->lock. */
static void worker_forget(struct lfht_worker *w, struct lfht_request *req)
{
	struct lfht_request *keep = NULL, *r, **link;

	while ((r = stack_pop(w)) != NULL)
		if (r != req) {
			r->stack_next = keep;
			keep = r;
		}
	while (keep) {
		r = keep;
		keep = keep->stack_next;
		stack_push(w, r);
	}
	for (link = &w->recheck; *link; link = &(*link)->recheck_next)
		if (*link == req) {
			*link = req->recheck_next;
			break;
		}
}

/* Sleeps until a push or stop, or at most timeout_ns when > 0. */
static void worker_sleep(struct lfht_worker *w, long timeout_ns)
{
	/* Relaxed: ordered before the look at the stack by the fence. */
	rcu_atomic_store(&w->sleeping, 1, memory_order_relaxed);
	/* Pairs with the fence in worker_wake() (see there). */
	rcu_fence(memory_order_seq_cst);
	/* Relaxed (both): ordered after our store of sleeping by the fence. */
	if (!rcu_atomic_load(&w->stack, memory_order_relaxed) &&
	    !rcu_atomic_load(&w->stop, memory_order_relaxed))
		lfht_futex_wait(&w->sleeping, 1, timeout_ns);
	/* Relaxed: only the worker reads it as "asleep" again. */
	rcu_atomic_store(&w->sleeping, 0, memory_order_relaxed);
}

/* Tables whose count still moved go back on the stack. Holds w->lock. */
static void worker_requeue_rechecks(struct lfht_worker *w)
{
	while (w->recheck) {
		struct lfht_request *req = w->recheck;

		w->recheck = req->recheck_next;
		req->in_recheck = false;
		/* Relaxed: as in lfht_resize_request(). */
		if (!rcu_atomic_xchg(&req->pending, 1, memory_order_relaxed))
			stack_push(w, req);
	}
}

static void worker_serve(struct lfht_worker *w, struct lfht_request *req)
{
	long count;

	/* Cleared before the look, so a request made during it pushes the
	 * table again; the look itself reads the table anew. Release: our pop
	 * (its read of stack_next) comes before the next pusher's write of
	 * it; pairs with the acquire exchange in lfht_resize_request(). */
	rcu_atomic_store(&req->pending, 0, memory_order_release);
	count = lfht_resize_auto(req->ht);
	if (count != req->last_count && !req->in_recheck) {
		req->in_recheck = true;
		req->recheck_next = w->recheck;
		w->recheck = req;
	}
	req->last_count = count;
}

static void *worker_main(void *arg)
{
	struct lfht_worker *w = arg;
	long timeout_ns;

	w->flavour->register_thread();
	/* Offline whenever not resizing: blocking here must not stall grace
	 * periods (QSBR; a no-op for memb). */
	w->flavour->thread_offline();
	lfht_lock(&w->lock);
	/* Relaxed: stop is also ordered by the wake-up's fence. */
	while (!rcu_atomic_load(&w->stop, memory_order_relaxed)) {
		struct lfht_request *req = stack_pop(w);

		if (req) {
			worker_serve(w, req);
			continue;
		}
		timeout_ns = w->recheck ? WORKER_RECHECK_NS : 0;
		lfht_unlock(&w->lock);
		worker_sleep(w, timeout_ns);
		lfht_lock(&w->lock);
		worker_requeue_rechecks(w);
	}
	lfht_unlock(&w->lock);
	w->flavour->thread_online();
	w->flavour->unregister_thread();
	return NULL;
}

/* workers_mutex held. */
static int worker_start(struct lfht_worker *w)
{
	int err = pthread_create(&w->thread, w->attr, worker_main, w);

	w->running = err == 0;
	if (w->running)
		pthread_setname_np(w->thread, "lfht-resize");
	return err;
}

/* ---- fork ----------------------------------------------------------------- */

static void fork_prepare(void)
{
	pthread_mutex_lock(&workers_mutex);
	lfht_gate_close_for_fork();
}

static void fork_parent(void)
{
	lfht_gate_open_after_fork();
	pthread_mutex_unlock(&workers_mutex);
}

/* Single-threaded: every access below is relaxed, nothing runs beside. */
static void fork_child(void)
{
	/* Before any thread starts: the locks the parent's threads held are
	 * free for the child's. */
	lfht_lock_fork_child();
	for (struct lfht_worker *w = workers; w; w = w->next) {
		rcu_atomic_store(&w->stack, NULL, memory_order_relaxed);
		rcu_atomic_store(&w->sleeping, 0, memory_order_relaxed);
		w->recheck = NULL;
		/* Whatever the parent's worker was doing, look at every table
		 * again: the stack the updaters were pushing onto is no cut
		 * the child can trust, the tables list is. */
		for (struct lfht_request *req = w->tables; req; req = req->next) {
			req->in_recheck = false;
			rcu_atomic_store(&req->pending, 1, memory_order_relaxed);
			stack_push(w, req);
		}
		(void)worker_start(w);
	}
	lfht_gate_open_after_fork();
	pthread_mutex_unlock(&workers_mutex);
}

static void fork_handlers_install(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* ---- attach / detach (new / destroy) -------------------------------------- */

int lfht_worker_attach(struct cds_lfht *ht)
{
	struct lfht_request *req;
	struct lfht_worker *w;
	int err = 0;

	pthread_once(&fork_handlers_once, fork_handlers_install);
	req = lfht_zalloc(ht, sizeof(*req));
	if (!req)
		return ENOMEM;
	req->ht = ht;
	pthread_mutex_lock(&workers_mutex);
	for (w = workers; w; w = w->next)
		if (w->flavour == ht->flavour && w->attr == ht->attr)
			break;
	if (!w) {
		w = calloc(1, sizeof(*w));
		if (!w) {
			err = ENOMEM;
			goto out;
		}
		w->flavour = ht->flavour;
		w->attr = ht->attr;
		w->next = workers;
		workers = w;
	}
	/* A worker whose thread could not be created again in a fork child
	 * gets another try here. */
	if (!w->running && (err = worker_start(w)) != 0) {
		if (!w->tables) {
			workers = w->next;
			free(w);
		}
		goto out;
	}
	req->worker = w;
	req->next = w->tables;
	if (w->tables)
		w->tables->prev = req;
	w->tables = req;
	w->nr_tables++;
	ht->request = req;
out:
	pthread_mutex_unlock(&workers_mutex);
	if (err)
		lfht_free(ht, req, sizeof(*req));
	return err;
}

static void worker_unlink(struct lfht_worker *w)
{
	struct lfht_worker **link = &workers;

	while (*link != w)
		link = &(*link)->next;
	*link = w->next;
}

void lfht_worker_detach(struct cds_lfht *ht)
{
	struct lfht_request *req = ht->request;
	struct lfht_worker *w;
	bool last, was_online;

	if (!req)
		return;
	w = req->worker;
	/* Offline while blocked: the worker may hold w->lock across a wait
	 * for a grace period (QSBR). */
	was_online = lfht_offline_begin(ht->flavour);
	lfht_lock(&w->lock);
	worker_forget(w, req);
	pthread_mutex_lock(&workers_mutex);
	if (req->prev)
		req->prev->next = req->next;
	else
		w->tables = req->next;
	if (req->next)
		req->next->prev = req->prev;
	last = --w->nr_tables == 0;
	if (last)
		worker_unlink(w);
	pthread_mutex_unlock(&workers_mutex);
	lfht_unlock(&w->lock);
	if (last) {
		/* Relaxed: published by the fence in worker_wake(). */
		rcu_atomic_store(&w->stop, true, memory_order_relaxed);
		worker_wake(w);
		if (w->running)
			pthread_join(w->thread, NULL);
		free(w);
	}
	lfht_offline_end(ht->flavour, was_online);
	ht->request = NULL;
	lfht_free(ht, req, sizeof(*req));
}
