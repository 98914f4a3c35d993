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

#define LFHT_HIDDEN __attribute__((visibility("hidden")))

/* Large enough for any target's line (POWER: 128), so per-CPU counter
 * slots never share one. */
#define LFHT_CACHE_LINE 128

/* The largest bucket count ever reached: 2^(bits-1). */
#define LFHT_MAX_ORDER (LFHT_LONG_BITS_ - 1)
/*
 * Auto-resize grows a table holding more than LFHT_LOAD nodes per bucket,
 * to LFHT_LOAD / 2 to LFHT_LOAD per bucket, and (with accounting) shrinks
 * one holding less than a quarter of a node per bucket, to one to two. A
 * bucket costs 16 bytes: 4 bytes per entry at 4 nodes per bucket, the
 * bucket count liburcu's table reaches for the same keys when its resize
 * keeps up (docs/performance.md, memory).
 */
#define LFHT_LOAD 4UL

/* The two thresholds above, shared by the triggers (count.c) and the
 * decisions (resize.c). */
static inline bool lfht_load_too_high(unsigned long count, unsigned long size)
{
	return count > size * LFHT_LOAD;
}

static inline bool lfht_load_too_low(unsigned long count, unsigned long size)
{
	return count < size >> 2;
}

struct lfht_counters;
struct lfht_request;

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

	/* Split counters (CDS_LFHT_ACCOUNTING only), set at creation. */
	struct lfht_counters *counters;
	/* The link to the shared resize worker (CDS_LFHT_AUTO_RESIZE only),
	 * set at creation (worker.c). */
	struct lfht_request *request;

	/* Serialises resizes: the worker and cds_lfht_resize(). */
	struct lfht_lock resize_lock;

	/* Bucket 0 (order 0): its next word is written by adds, so it lives
	 * far from view. */
	struct cds_lfht_node bucket0;
};

/* ---- next-word helpers ---------------------------------------------------- */

static inline struct cds_lfht_node *lfht_ptr(uintptr_t word)
{
	return (struct cds_lfht_node *)(word & ~(uintptr_t)LFHT_FLAGS_);
}

static inline bool lfht_is_removed(uintptr_t word)
{
	return (word & LFHT_REMOVED_) != 0;
}

static inline bool lfht_is_bucket(uintptr_t word)
{
	return (word & LFHT_BUCKET_) != 0;
}

/*
 * The "full memory barrier before and after the atomic commit" that the API
 * promises for add, add_unique, add_replace, replace and del (on success).
 * Called right before and right after each commit CAS: the seq_cst CASes of
 * lfht_list_add(), cds_lfht_replace() and lfht_list_mark_removed().
 *
 * Before the commit it orders every earlier access of the caller (its writes
 * to the new entry, relaxed or plain, and its earlier reads) before the
 * commit; pairs with the acquire ->next loads of traversals
 * (lfht_lookup_inline_() in <lfht/lfht.h>, iter.c, list.c), which see the
 * entry once they see the commit. After the commit it orders the commit
 * before every later access of the caller (the unlink walk, the caller's
 * call_rcu() or later lookups); pairs with the commit fences of other
 * updaters and with full fences of the caller's own (store-buffering: of
 * two threads that each commit and then read the other's word, one sees
 * the other's commit). See docs/memory-ordering.md, "Commits".
 *
 * x86 (TSO): the commit is a locked cmpxchg, which the CPU already executes
 * as a full barrier (it drains the store buffer; TSO reorders nothing else),
 * so only the compiler must be kept from moving accesses across it, which
 * C11 would allow for relaxed and plain accesses around a seq_cst RMW; a
 * compiler barrier does that. Weaker targets (aarch64, ppc64le): a seq_cst
 * RMW is not a full fence there (later loads may pass it), so a seq_cst
 * fence is issued.
 */
#if defined(__x86_64__) || defined(__i386__)
static inline void lfht_commit_fence(void)
{
	/* Compiler-only: the locked CAS next to it is the CPU's full barrier
	 * (see above); pairs as the fence below does. */
	rcu_compiler_barrier();
}
#else
static inline void lfht_commit_fence(void)
{
	/* Full fence: pairs with the acquire ->next loads of traversals
	 * (before the commit) and with other updaters' commit fences (after
	 * it), see above. */
	rcu_fence(memory_order_seq_cst);
}
#endif

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
/* A grace period, from a thread outside any read-side section; the caller
 * ends in the RCU state it began in. */
LFHT_HIDDEN void lfht_wait_grace_period(const struct rcu_flavour *f);

/* ---- buckets (buckets.c) -------------------------------------------------- */

LFHT_HIDDEN struct cds_lfht_node *lfht_bucket_at(struct cds_lfht *ht,
						 unsigned long index);
LFHT_HIDDEN struct cds_lfht_node *lfht_bucket_for_hash(struct cds_lfht *ht,
						       unsigned long hash,
						       unsigned long *size);
LFHT_HIDDEN int lfht_orders_init(struct cds_lfht *ht, unsigned long init_size);
LFHT_HIDDEN int lfht_orders_reserve(struct cds_lfht *ht, unsigned order);
LFHT_HIDDEN struct cds_lfht_node *lfht_order_alloc(struct cds_lfht *ht, unsigned order);
LFHT_HIDDEN void lfht_order_publish(struct cds_lfht *ht, unsigned order,
				    struct cds_lfht_node *table);
/* The table of order, or NULL; resize_lock holder only. */
LFHT_HIDDEN struct cds_lfht_node *lfht_order_table(struct cds_lfht *ht, unsigned order);
/* Whether tables above size or retired arrays wait to be freed, and the
 * freeing, after a grace period since they became unreachable. */
LFHT_HIDDEN bool lfht_orders_unused(struct cds_lfht *ht);
LFHT_HIDDEN void lfht_orders_free_unused(struct cds_lfht *ht);
LFHT_HIDDEN void lfht_orders_destroy(struct cds_lfht *ht);

static inline unsigned long lfht_order_len(unsigned order)
{
	return (1UL << order) >> 1 ? (1UL << order) >> 1 : 1UL;
}

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
/* Links bucket node (next = BUCKET, reverse_hash set) after start. */
LFHT_HIDDEN void lfht_list_add_bucket(struct cds_lfht_node *start,
				      struct cds_lfht_node *bucket);
/* Returns once no removed node with reverse hash <= that of hash is
 * reachable from hash's bucket (so a node removed before the call is
 * unlinked). */
LFHT_HIDDEN void lfht_list_unlink_removed(struct cds_lfht *ht, unsigned long hash);
/* Sets REMOVED (and REMOVAL_OWNER unless bucket) on node's next; false if
 * it was already set. */
LFHT_HIDDEN bool lfht_list_mark_removed(struct cds_lfht_node *node, bool bucket);

/* ---- counters (count.c) --------------------------------------------------- */

LFHT_HIDDEN int lfht_counters_create(struct cds_lfht *ht);
LFHT_HIDDEN void lfht_counters_destroy(struct cds_lfht *ht);
LFHT_HIDDEN long lfht_counters_sum(struct cds_lfht *ht);
/* The sum, never below zero: the node count the resize decisions use. */
LFHT_HIDDEN unsigned long lfht_counters_count(struct cds_lfht *ht);
LFHT_HIDDEN void lfht_count_add(struct cds_lfht *ht, unsigned long size);
LFHT_HIDDEN void lfht_count_del(struct cds_lfht *ht);

/* ---- resize (resize.c) ---------------------------------------------------- */

/* The chain-length trigger of an add. */
LFHT_HIDDEN void lfht_resize_check_chain(struct cds_lfht *ht, unsigned long size,
					 unsigned chain);
/* The worker's look at one table: resizes it as its load asks; returns
 * the counters' sum (0 without accounting) for the worker's rechecks. */
LFHT_HIDDEN long lfht_resize_auto(struct cds_lfht *ht);

/* ---- the shared resize workers (worker.c) --------------------------------- */

/* Links an auto-resizing table to the worker of its flavour and attr,
 * starting that worker if needed; 0 or an errno value. */
LFHT_HIDDEN int lfht_worker_attach(struct cds_lfht *ht);
/* Unlinks it (stops the worker after its last table). */
LFHT_HIDDEN void lfht_worker_detach(struct cds_lfht *ht);
/* Lock-free: flags the table for its worker and wakes the worker. */
LFHT_HIDDEN void lfht_resize_request(struct cds_lfht *ht);

#endif /* LFHT_INTERNAL_H */
