/* SPDX-License-Identifier: MIT */
/*
 * lfht/worker.c - the resize workers shared by tables and what fork() does
 * to them.
 *
 * Owns every struct lfht_worker and the worker's fields of each table's
 * struct lfht_request. One worker thread serves all the auto-resizing
 * tables that share a flavour and a pthread attr pointer (NULL for most),
 * so ten thousand tables cost one thread. It is created by the first
 * cds_lfht_new() that needs it and stopped by the cds_lfht_destroy() of its
 * last table. Updates reach it through its queue (queue.c), lock-free.
 *
 * Invariants:
 * - only the holder of w->lock pops the queue (the worker, or a destroyer
 *   taking its table out);
 * - a table being resized by the worker or waiting for a recheck is under
 *   w->lock or on a list only its holder touches, so cds_lfht_destroy(),
 *   which takes w->lock, never frees a table the worker still uses;
 * - workers and their table lists change only under workers_mutex, which
 *   fork() takes, so the child finds them consistent.
 *
 * fork(): prepare takes workers_mutex and closes the resize gate (sync.c),
 * so no resize step is half done. In the child every worker thread is gone:
 * each worker is reset, every table it serves is requested anew, and its
 * thread is created again. Locks a vanished thread held are taken over by
 * the child's generation (sync.c); resize.c completes an interrupted shrink.
 *
 * Calls resize.c (lfht_resize_auto), queue.c, sync.c, the flavour's ops.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "internal.h"

struct lfht_worker {
	const struct rcu_flavour *flavour;
	pthread_attr_t *attr;
	/* Tables served; under workers_mutex. */
	struct lfht_request *tables;
	unsigned long nr_tables;
	struct lfht_worker *next;	/* workers list; under workers_mutex */
	bool running;			/* the thread exists; workers_mutex */
	pthread_t thread;

	struct lfht_queue queue;

	/* Held while popping and resizing one table, and by destroy. */
	struct lfht_lock lock;
	struct lfht_request *recheck;	/* under lock */
};

static pthread_mutex_t workers_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct lfht_worker *workers;	/* under workers_mutex */
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

/* ---- the worker ----------------------------------------------------------- */

/* Takes req off the stack and the recheck list; caller holds w->lock. */
static void worker_forget(struct lfht_worker *w, struct lfht_request *req)
{
	lfht_queue_forget(&w->queue, req);
	for (struct lfht_request **link = &w->recheck; *link; link = &(*link)->recheck_next)
		if (*link == req) {
			*link = req->recheck_next;
			break;
		}
}

/* Tables whose count still moved go back on the stack. Holds w->lock. */
static void worker_requeue_rechecks(struct lfht_worker *w)
{
	while (w->recheck) {
		struct lfht_request *req = w->recheck;

		w->recheck = req->recheck_next;
		req->in_recheck = false;
		lfht_queue_request(req);
	}
}

static void worker_serve(struct lfht_worker *w, struct lfht_request *req)
{
	bool again = false;
	long count;

	/* Before the look, so a request made during it pushes the table
	 * again; the look itself reads the table anew. */
	lfht_queue_taken(req);
	count = lfht_resize_auto(req->ht, &again);
	if ((count != req->last_count || again) && !req->in_recheck) {
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
	while (!lfht_queue_stopped(&w->queue)) {
		struct lfht_request *req = lfht_queue_pop(&w->queue);

		if (req) {
			worker_serve(w, req);
			continue;
		}
		timeout_ns = w->recheck ? LFHT_RECHECK_NS : 0;
		lfht_unlock(&w->lock);
		lfht_queue_sleep(&w->queue, timeout_ns);
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
		lfht_queue_fork_child(&w->queue);
		w->recheck = NULL;
		/* Whatever the parent's worker was doing, look at every table
		 * again: the stack the updaters were pushing onto is no cut
		 * the child can trust, the tables list is. */
		for (struct lfht_request *req = w->tables; req; req = req->next) {
			req->in_recheck = false;
			lfht_queue_fork_requeue(req);
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
	req->queue = &w->queue;
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
		lfht_queue_stop(&w->queue);
		if (w->running)
			pthread_join(w->thread, NULL);
		free(w);
	}
	lfht_offline_end(ht->flavour, was_online);
	ht->request = NULL;
	lfht_free(ht, req, sizeof(*req));
}
