/* SPDX-License-Identifier: MIT */
/*
 * lfht/internal.h - what the table's files share: struct cds_lfht, the
 * flag helpers on next words, and the internal entry points of each file.
 *
 * Layout rule: struct cds_lfht begins with struct cds_lfht_view_ (read by
 * the inline lookup in <lfht/lfht.h>); fields written on the update path
 * (bucket 0's next word) sit at least a cache line away from it.
 */
#ifndef LFHT_INTERNAL_H
#define LFHT_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rcu/atomic.h>
#include <rcu/flavour.h>
#include <lfht/lfht.h>
#include <lfht/extensions.h>

#include "mutant.h"

#define LFHT_HIDDEN __attribute__((visibility("hidden")))

/* Large enough for any target's line (POWER: 128), so per-CPU counter
 * slots never share one. */
#define LFHT_CACHE_LINE 128

/* The largest bucket count ever reached: 2^(bits-1). */
#define LFHT_MAX_ORDER (LFHT_LONG_BITS_ - 1)

struct lfht_counters;
struct lfht_request;
struct lfht_worker;

/* A lock of the resize side that fork() cannot leave held (sync.c). */
struct lfht_lock {
	_Atomic(uint32_t) word;
};

struct cds_lfht {
	/* Must stay first: the inline lookup casts the table to it. */
	struct cds_lfht_view_ view;

	/* Read-mostly, set at creation. */
	const struct rcu_flavour *flavour;
	struct lfht_allocator alloc;
	unsigned long min_nr_alloc_buckets;
	unsigned long max_nr_buckets;	/* a power of two, never 0 */
	pthread_attr_t *attr;
	int flags;
	/* log2 of the buckets per node auto-resize keeps
	 * (LFHT_BUCKETS_PER_NODE()); 0 by default. */
	unsigned density_shift;
	/* Whether the table may take a bucket region (the default allocator,
	 * 64-bit, no reservation refused yet): region.c's, under resize_lock
	 * or at creation. */
	bool region_allowed;

	/* Split counters (CDS_LFHT_ACCOUNTING only), set at creation. */
	struct lfht_counters *counters;
	/* The link to the shared resize worker (CDS_LFHT_AUTO_RESIZE only),
	 * set at creation (worker.c). */
	struct lfht_request *request;

	/* Serialises resizes: the worker and cds_lfht_resize(). */
	struct lfht_lock resize_lock;
	/* resize.c's, written under resize_lock: the window in which a
	 * wanted shrink waits for the deletes to pause (shrink_after_quiet()):
	 * the count when it opened, and when (0: no window open). Deletes
	 * read quiet_since_ns too: while a window is open the worker looks
	 * again by itself, so they neither look nor ask it to. */
	unsigned long quiet_count;
	_Atomic(uint64_t) quiet_since_ns;
	/* call_rcu callbacks queued by the resizer that still use the table
	 * (buckets.c: replaced orders arrays); destroy waits for them. */
	_Atomic(long) rcu_pending;

	/* Bucket 0 (order 0): its next word is written by adds, so it lives
	 * far from view. */
	struct cds_lfht_node bucket0;

	/* RCU_DEBUG_CHECKS: exported calls on the table in flight, for
	 * cds_lfht_destroy() to see one still running (debug.c). */
	_Atomic(long) debug_calls;
};

/* ---- debug checks (debug.c) ---------------------------------------------- */

#ifdef RCU_DEBUG_CHECKS
#define LFHT_CHECKS_ON 1
#else
#define LFHT_CHECKS_ON 0
#endif

/* Prints "lfht: <call>: <rule>" and aborts. */
LFHT_HIDDEN _Noreturn void lfht_misuse(const char *call, const char *rule);
/* lfht_misuse("invariant", what): a broken invariant of list.c/resize.c. */
LFHT_HIDDEN _Noreturn void lfht_invariant_broken(const char *what);
/* Abort unless the caller is registered, outside any read-side section and
 * (unless callback_ok: destroy) not running call_rcu callbacks (resize). */
LFHT_HIDDEN void lfht_debug_require_outside(struct cds_lfht *ht, const char *call,
					    bool callback_ok);
/* Abort when another exported call on ht is in flight (destroy). */
LFHT_HIDDEN void lfht_debug_require_idle(struct cds_lfht *ht, const char *call);
/* Abort when node is as cds_lfht_node_init() left it (never added). */
LFHT_HIDDEN void lfht_debug_require_added(const struct cds_lfht_node *node,
					  const char *call);
LFHT_HIDDEN void lfht_debug_calls_add(struct cds_lfht *ht, long delta);

/*
 * The checks at the entry points, nothing without RCU_DEBUG_CHECKS: a call
 * that reads or updates the table begins with lfht_call_reader(), resize
 * with lfht_call_outside(); both count the call in flight until
 * lfht_call_end().
 */
static inline void lfht_call_reader(struct cds_lfht *ht, const char *call)
{
	if (LFHT_CHECKS_ON) {
		lfht_check_reader_(ht, call);
		lfht_debug_calls_add(ht, 1);
	}
}

static inline void lfht_call_outside(struct cds_lfht *ht, const char *call)
{
	if (LFHT_CHECKS_ON) {
		lfht_debug_require_outside(ht, call, false);
		lfht_debug_calls_add(ht, 1);
	}
}

static inline void lfht_call_end(struct cds_lfht *ht)
{
	if (LFHT_CHECKS_ON)
		lfht_debug_calls_add(ht, -1);
}

/* destroy: outside a section (a call_rcu callback may destroy, as liburcu
 * 0.10 and later allow), and no other call in flight. */
static inline void lfht_call_destroy(struct cds_lfht *ht, const char *call)
{
	if (LFHT_CHECKS_ON) {
		lfht_debug_require_outside(ht, call, true);
		lfht_debug_require_idle(ht, call);
	}
}

/* del and replace: the node was added once. */
static inline void lfht_call_node_added(const struct cds_lfht_node *node, const char *call)
{
	if (LFHT_CHECKS_ON && node)
		lfht_debug_require_added(node, call);
}

/* An invariant stated in a file's top comment, checked in debug builds;
 * a macro, so that cond is not even evaluated without them. */
#define lfht_assert(cond, what)						\
	((void)(LFHT_CHECKS_ON && !(cond) ? (lfht_invariant_broken(what), 0) : 0))

/* ---- memory ----------------------------------------------------------------- */

static inline void *lfht_zalloc(struct cds_lfht *ht, size_t size)
{
	return ht->alloc.zalloc(size, ht->alloc.ctx);
}

static inline void lfht_free(struct cds_lfht *ht, void *ptr, size_t size)
{
	ht->alloc.free(ptr, size, ht->alloc.ctx);
}

/* ---- blocking primitives of the resize side (sync.c) ---------------------- */

/* Sleeps while *word == expected, at most timeout_ns when > 0; may return
 * early (callers re-test). */
LFHT_HIDDEN void lfht_futex_wait(_Atomic(uint32_t) *word, uint32_t expected,
				 long timeout_ns);
LFHT_HIDDEN void lfht_futex_wake(_Atomic(uint32_t) *word, int nr);
LFHT_HIDDEN void lfht_lock(struct lfht_lock *lock);
LFHT_HIDDEN void lfht_unlock(struct lfht_lock *lock);
/* Around each resize step that writes the list or the bucket tables. */
LFHT_HIDDEN void lfht_gate_enter(void);
LFHT_HIDDEN void lfht_gate_leave(void);
/* fork(): prepare closes the gate; parent and child open it again. The
 * child first moves to a new generation: locks held before are free. */
LFHT_HIDDEN void lfht_gate_close_for_fork(void);
LFHT_HIDDEN void lfht_gate_open_after_fork(void);
LFHT_HIDDEN void lfht_lock_fork_child(void);
/* Goes offline if the caller is an online QSBR thread; returns whether it
 * did, for lfht_offline_end(). No-ops for memb. */
LFHT_HIDDEN bool lfht_offline_begin(const struct rcu_flavour *f);
LFHT_HIDDEN void lfht_offline_end(const struct rcu_flavour *f, bool was_online);
/* Comes online if the caller is an offline QSBR thread, so that its
 * read-side sections protect it; returns whether it did, for
 * lfht_online_end(). No-ops for memb. */
LFHT_HIDDEN bool lfht_online_begin(const struct rcu_flavour *f);
LFHT_HIDDEN void lfht_online_end(const struct rcu_flavour *f, bool went_online);
/* A grace period, from a thread outside any read-side section; the caller
 * ends in the RCU state it began in. */
LFHT_HIDDEN void lfht_wait_grace_period(const struct rcu_flavour *f);

/* ---- buckets (buckets.c) -------------------------------------------------- */

LFHT_HIDDEN struct cds_lfht_node *lfht_bucket_at(struct cds_lfht *ht,
						 unsigned long index);
LFHT_HIDDEN int lfht_orders_init(struct cds_lfht *ht, unsigned long init_size);
struct lfht_orders_block;
/* Makes room for entry order; an array it replaced comes back in
 * *replaced (else NULL), for lfht_orders_retire() after the gate step:
 * call_rcu frees it, and cds_lfht_destroy waits for that. */
LFHT_HIDDEN int lfht_orders_reserve(struct cds_lfht *ht, unsigned order,
				    struct lfht_orders_block **replaced);
LFHT_HIDDEN void lfht_orders_retire(struct cds_lfht *ht, struct lfht_orders_block *replaced);
LFHT_HIDDEN struct cds_lfht_node *lfht_order_alloc(struct cds_lfht *ht, unsigned order);
LFHT_HIDDEN void lfht_order_publish(struct cds_lfht *ht, unsigned order,
				    struct cds_lfht_node *table);
/* The table of order, or NULL; resize_lock holder only. */
LFHT_HIDDEN struct cds_lfht_node *lfht_order_table(struct cds_lfht *ht, unsigned order);
/* Whether tables above size wait to be freed, and the freeing, after a
 * grace period since they became unreachable (a shrink's). Replaced orders
 * arrays go to call_rcu at once (no wait); lfht_orders_destroy() waits for
 * those callbacks, then frees the orders and struct cds_lfht itself, except
 * in a call_rcu callback, where the last of those callbacks frees it. */
LFHT_HIDDEN bool lfht_orders_unused(struct cds_lfht *ht);
LFHT_HIDDEN void lfht_orders_free_unused(struct cds_lfht *ht);
LFHT_HIDDEN void lfht_orders_destroy(struct cds_lfht *ht);

/* ---- the bucket region (region.c), for buckets.c ------------------------ */

/* The place of order's table in ht's region, made readable and writable
 * (the region reserved at the first order it holds), with *in_region set;
 * NULL with *in_region set when that failed; NULL with *in_region clear
 * when the table goes to the allocator instead. */
LFHT_HIDDEN lfht_bucket_word_ *lfht_region_take(struct cds_lfht *ht, unsigned order,
						bool *in_region);
/* Whether table lies in ht's region. */
LFHT_HIDDEN bool lfht_region_holds(struct cds_lfht *ht, const void *table);
/* Gives order's pages back (a grace period after the shrink that
 * unlinked them, or at destroy). */
LFHT_HIDDEN void lfht_region_give_back(struct cds_lfht *ht, unsigned order);
LFHT_HIDDEN void lfht_region_unmap(struct cds_lfht *ht);

static inline unsigned lfht_log2(unsigned long pow2)
{
	return (unsigned)__builtin_ctzl(pow2);
}

/* ---- list (list.c) -------------------------------------------------------- */

enum lfht_add_mode {
	LFHT_ADD_DUP,		/* cds_lfht_add: duplicates allowed */
	LFHT_ADD_UNIQUE,	/* cds_lfht_add_unique */
	LFHT_ADD_REPLACE,	/* cds_lfht_add_replace */
};

/* Links node (reverse_hash set by the caller) after the last node whose
 * reverse hash is <= its own. UNIQUE: returns the matching node instead if
 * one is present; REPLACE: replaces it and returns it. Else returns node
 * (DUP, UNIQUE) or NULL (REPLACE). *chain: regular nodes walked past in the
 * bucket (the auto-resize hint). */
LFHT_HIDDEN struct cds_lfht_node *lfht_list_add(struct cds_lfht *ht, unsigned long hash,
						struct cds_lfht_node *node,
						enum lfht_add_mode mode,
						cds_lfht_match_fct match, const void *key,
						unsigned *chain);
/* Replaces old (reverse_hash of hash) by new_node in one commit and
 * unlinks old; -ENOENT if old was removed first. */
LFHT_HIDDEN int lfht_list_replace(struct cds_lfht *ht, unsigned long hash,
				  struct cds_lfht_node *old, struct cds_lfht_node *new_node);
/* Removes node (commit) and unlinks it; false if it was removed before. */
LFHT_HIDDEN bool lfht_list_del(struct cds_lfht *ht, struct cds_lfht_node *node);
/* Removes the first live node of hash that match accepts and unlinks it;
 * returns it, or NULL when there is none. */
LFHT_HIDDEN struct cds_lfht_node *lfht_list_del_key(struct cds_lfht *ht, unsigned long hash,
						    cds_lfht_match_fct match, const void *key);
/* Links bucket index (its order published, its word BUCKET) after its
 * parent (index without its top bit); resizer. */
LFHT_HIDDEN void lfht_list_add_bucket(struct cds_lfht *ht, unsigned long index);
/* Removes bucket index (a shrink, after lowering the size) and unlinks it. */
LFHT_HIDDEN void lfht_list_remove_bucket(struct cds_lfht *ht, struct cds_lfht_node *bucket,
					 unsigned long index);

/* ---- read walks (iter.c) ---------------------------------------------------- */

/* Inside a read-side section: whether no live node is left, how many there
 * are, and an estimate of the count from samples of size buckets. */
LFHT_HIDDEN bool lfht_iter_empty(struct cds_lfht *ht);
LFHT_HIDDEN unsigned long lfht_iter_count(struct cds_lfht *ht);
LFHT_HIDDEN unsigned long lfht_iter_estimate_count(struct cds_lfht *ht, unsigned long size,
						   unsigned long samples);

/* ---- counters (count.c) --------------------------------------------------- */

LFHT_HIDDEN int lfht_counters_create(struct cds_lfht *ht);
LFHT_HIDDEN void lfht_counters_destroy(struct cds_lfht *ht);
LFHT_HIDDEN long lfht_counters_sum(struct cds_lfht *ht);
/* The sum, never below zero: the node count the resize decisions use. */
LFHT_HIDDEN unsigned long lfht_counters_count(struct cds_lfht *ht);
/* Count one add or del; return the count of updates of the table seen by
 * this CPU's slot (0 without accounting), which paces resize.c's looks. */
LFHT_HIDDEN unsigned long lfht_count_add(struct cds_lfht *ht);
LFHT_HIDDEN unsigned long lfht_count_del(struct cds_lfht *ht);

/* ---- resize requests (queue.c) -------------------------------------------- */

/* A worker's queue of tables to look at. */
struct lfht_queue {
	_Atomic(struct lfht_request *) stack;
	/* 1 while the worker sleeps or is about to: the futex word. */
	_Atomic(uint32_t) sleeping;
	_Atomic(bool) stop;
};

/* A table's link to its worker (CDS_LFHT_AUTO_RESIZE tables). */
struct lfht_request {
	struct cds_lfht *ht;
	/* queue.c's: the queue, pending (1 from a request until the worker
	 * takes it), the stack link (written by the pusher before its CAS). */
	struct lfht_queue *queue;
	_Atomic(uint32_t) pending;
	struct lfht_request *stack_next;
	/* worker.c's: the recheck list and the sum at the last look (under
	 * the worker's lock), the worker's tables (under workers_mutex). */
	struct lfht_worker *worker;
	struct lfht_request *recheck_next;
	bool in_recheck;
	long last_count;
	struct lfht_request *prev, *next;
};

/* Lock-free: flags req's table and wakes its worker (no-op for NULL). */
LFHT_HIDDEN void lfht_queue_request(struct lfht_request *req);
/* The worker's side; the caller holds the worker's lock (one consumer). */
LFHT_HIDDEN struct lfht_request *lfht_queue_pop(struct lfht_queue *q);
/* Clears pending of a popped request before the worker looks. */
LFHT_HIDDEN void lfht_queue_taken(struct lfht_request *req);
/* Takes req off the stack (destroy). */
LFHT_HIDDEN void lfht_queue_forget(struct lfht_queue *q, struct lfht_request *req);
/* Sleeps until a push or a stop, at most timeout_ns when > 0. */
LFHT_HIDDEN void lfht_queue_sleep(struct lfht_queue *q, long timeout_ns);
LFHT_HIDDEN void lfht_queue_stop(struct lfht_queue *q);
LFHT_HIDDEN bool lfht_queue_stopped(struct lfht_queue *q);
/* fork() child, single-threaded: empty the stack; push req again. */
LFHT_HIDDEN void lfht_queue_fork_child(struct lfht_queue *q);
LFHT_HIDDEN void lfht_queue_fork_requeue(struct lfht_request *req);

/* ---- resize (resize.c) ---------------------------------------------------- */

/* After an update: the auto-resize triggers (chain: regular nodes an add
 * walked past in its bucket; ops: lfht_count_add()/lfht_count_del()). */
LFHT_HIDDEN void lfht_resize_after_add(struct cds_lfht *ht, unsigned chain,
				       unsigned long ops);
LFHT_HIDDEN void lfht_resize_after_del(struct cds_lfht *ht, unsigned long ops);
/* The worker's look at one table: resizes it as its load asks; returns
 * the counters' sum (0 without accounting) for the worker's rechecks, and
 * sets *again when a shrink waits for a later look (the worker looks again
 * within its recheck period). */
LFHT_HIDDEN long lfht_resize_auto(struct cds_lfht *ht, bool *again);
/* How long a wanted shrink waits for the deletes to pause (resize.c), and
 * so how soon the worker looks again at a table whose shrink waits or
 * whose count still moved (worker.c). */
#define LFHT_RECHECK_NS 20000000L

/* ---- the shared resize workers (worker.c) --------------------------------- */

/* Links an auto-resizing table to the worker of its flavour and attr,
 * starting that worker if needed; 0 or an errno value. */
LFHT_HIDDEN int lfht_worker_attach(struct cds_lfht *ht);
/* Unlinks it (stops the worker after its last table). */
LFHT_HIDDEN void lfht_worker_detach(struct cds_lfht *ht);

#endif /* LFHT_INTERNAL_H */
