/* SPDX-License-Identifier: MIT */
/**
 * \file
 * \brief The table: an RCU-protected, lock-free, resizable hash table (the
 * `cds_lfht` API).
 *
 * Include a flavour header first, `<rcu/qsbr.h>`, `<rcu/memb.h>`,
 * `<rcu/bp.h>` or `<rcu/mb.h>`, then this one: cds_lfht_new() then builds a table driven by
 * that flavour. The library itself (`liblfht`) is built once and serves
 * every flavour. Under bp every thread counts as registered (its first
 * read lock registers it).
 *
 * Each entry below says what RCU asks of its caller (RCU state) and what
 * memory ordering it gives (Ordering). The RCU rules in one place:
 *
 * | Call | Registered thread? | Read-side critical section? |
 * |------|--------------------|-----------------------------|
 * | cds_lfht_new(), cds_lfht_new_flavour(), cds_lfht_node_init(), cds_lfht_node_init_deleted() | not needed | either |
 * | cds_lfht_destroy() | yes (QSBR: online or offline) | outside (a call_rcu() callback may call it) |
 * | cds_lfht_resize() | yes (QSBR: online or offline) | outside |
 * | lookups, iteration, cds_lfht_count_nodes() | yes | inside, across the whole traversal |
 * | cds_lfht_add(), cds_lfht_add_unique(), cds_lfht_add_replace(), cds_lfht_replace(), cds_lfht_del() | yes | inside |
 *
 * With debug checks (`RCU_DEBUG_CHECKS`, which the `.pc` files and meson
 * dependencies of a checked build define), each call checks the state this
 * table asks of its caller and aborts with "lfht: <call>: <rule>" when it
 * is wrong (QSBR: "inside" is a registered, online thread); without them
 * nothing is checked and misuse is undefined, except where an entry
 * defines an error code.
 *
 * A node removed by cds_lfht_del(), cds_lfht_replace() or
 * cds_lfht_add_replace() may still be seen by readers that started before
 * the removal: free it only after a grace period (synchronize_rcu(), or
 * call_rcu() with a callback that frees it). The guide "Using the table"
 * has worked examples.
 */
#ifndef LFHT_LFHT_H
#define LFHT_LFHT_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <rcu/atomic.h>
#include <rcu/flavour.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define LFHT_API __attribute__((visibility("default")))
#else
#define LFHT_API
#endif

#ifdef __cplusplus
#define LFHT_ALIGNAS_(n) alignas(n)
#else
#define LFHT_ALIGNAS_(n) _Alignas(n)
#endif

/**
 * \brief The hook a user embeds in each entry stored in a table.
 *
 * Two words, both the table's from cds_lfht_add() (or one of its variants)
 * until the node is freed. Recover the entry from a node with
 * caa_container_of(). Call cds_lfht_node_init() before handing a node to
 * the table.
 */
struct cds_lfht_node {
	/** The table's: a link to the successor in its ordered list, and
	 * flags in the low three bits (hence the 8-byte alignment). On 64-bit
	 * builds the top 16 bits of the link are a tag, a lower bound on the
	 * successor's sort key that lets a lookup stop without loading it
	 * (<lfht/lfht-word.h>). Never read or write it. */
	LFHT_ALIGNAS_(8) RCU_ATOMIC_(uintptr_t) next;
	/** The bit-reversed hash, the list's sort key. Set by the table when the
	 * node is added; never write it. */
	unsigned long reverse_hash;
};

/**
 * \brief Traversal state: the current node and the successor seen with it.
 *
 * Filled in by cds_lfht_lookup(), cds_lfht_first(), cds_lfht_next() and
 * cds_lfht_next_duplicate(); read with cds_lfht_iter_get_node(). It keeps
 * two pointers because the successor must be read in the same step that
 * checks that the current node is still present (a concurrent replace swaps
 * the two in one atomic step). Valid only inside the read-side critical
 * section that produced it.
 */
struct cds_lfht_iter {
	/** \var cds_lfht_iter::node
	 * The current node, or NULL at the end. Read it through
	 * cds_lfht_iter_get_node(). */
	/** \var cds_lfht_iter::next
	 * The successor read together with cds_lfht_iter::node; the table's,
	 * never use it. */
	struct cds_lfht_node *node, *next;
};

/**
 * \struct cds_lfht
 * \brief A hash table (opaque). Create it with cds_lfht_new(), free it with
 * cds_lfht_destroy().
 */
struct cds_lfht;

/**
 * \brief The caller's key comparison.
 * \param node A node of the table whose hash is the hash looked for.
 * \param key The key given to the lookup or update.
 * \return Non-zero when \p key is the key of the entry that holds \p node,
 * zero otherwise.
 *
 * The table compares only hashes; whether two keys are equal is the match
 * function's call. It runs inside the caller's read-side critical section
 * and must not block or call back into the table.
 */
typedef int (*cds_lfht_match_fct)(struct cds_lfht_node *node, const void *key);

/** Flags for cds_lfht_new(), or'ed together. */
enum {
	/** Grow the table automatically when chains get long (and, with
	 * #CDS_LFHT_ACCOUNTING, shrink it when the load falls), in the resize
	 * worker (see cds_lfht_new()); a grow goes to #LFHT_RESIZE_FLOOR
	 * buckets at least, and a shrink stops there (within the table's
	 * bounds). cds_lfht_resize() still works. */
	CDS_LFHT_AUTO_RESIZE = (1U << 0),
	/** Keep split (per-thread and per-CPU) counts of the nodes: needed by
	 * cds_lfht_count_nodes() to report counts, and, with
	 * #CDS_LFHT_AUTO_RESIZE, for the table to shrink as well as grow. */
	CDS_LFHT_ACCOUNTING = (1U << 1),
};

/* The symbols liblfht exports behind the cds_lfht_* inlines below:
 * <lfht/lfht-exports.h>. */
#include <lfht/lfht-exports.h>

/* The inline lookup and what it reads of a table: <lfht/lfht-inline.h>,
 * not API. */
#include <lfht/lfht-inline.h>

/**
 * \brief Prepares a node before it is added to a table.
 * \param node The node embedded in the new entry.
 *
 * Until it is added, the node reads as deleted: cds_lfht_is_node_deleted()
 * is nonzero, and cds_lfht_del() and cds_lfht_replace() refuse it instead
 * of corrupting a table it was never in: with debug checks
 * (`RCU_DEBUG_CHECKS`) they abort with "lfht: cds_lfht_del: node was never
 * added to a table", without them they return -ENOENT. A node that may
 * legitimately be deleted before it is added is prepared with
 * cds_lfht_node_init_deleted() instead.
 *
 * \rcustate None: the node is still private to the caller.
 * \ordering None: cds_lfht_add() and its variants publish the node.
 */
static inline void cds_lfht_node_init(struct cds_lfht_node *node)
{
	/* Relaxed: the node is private; an add stores its word anew and
	 * publishes it. */
	rcu_atomic_store(&node->next, lfht_removed_word_(0, 0), memory_order_relaxed);
}

/**
 * \brief Prepares a node that reads as deleted until it is added (liburcu
 * 0.14's name).
 * \param node The node embedded in the new entry.
 *
 * The node looks as if cds_lfht_del() had removed it: until it is added,
 * cds_lfht_is_node_deleted() is nonzero and cds_lfht_del() and
 * cds_lfht_replace() return -ENOENT, in every build (debug checks
 * included).
 *
 * \rcustate None: the node is still private to the caller.
 * \ordering None: cds_lfht_add() and its variants publish the node.
 */
static inline void cds_lfht_node_init_deleted(struct cds_lfht_node *node)
{
	/* Relaxed: as in cds_lfht_node_init(). */
	rcu_atomic_store(&node->next, lfht_removed_word_(0, 1), memory_order_relaxed);
}

/**
 * \brief The node an iterator is at.
 * \param iter An iterator filled in by a lookup or traversal call.
 * \return The current node, or NULL when the lookup found nothing or the
 * traversal is past its end.
 *
 * \rcustate Registered thread, inside the read-side critical section that
 * covers the whole traversal, from the cds_lfht_lookup() or cds_lfht_first()
 * that began it.
 * \ordering None of its own (the call that filled \p iter gave it).
 */
static inline struct cds_lfht_node *cds_lfht_iter_get_node(const struct cds_lfht_iter *iter)
{
	return iter->node;
}

/**
 * \brief Creates a table for a flavour chosen at run time: cds_lfht_new()
 * with the flavour given explicitly.
 * \param init_size As for cds_lfht_new().
 * \param min_nr_alloc_buckets As for cds_lfht_new().
 * \param max_nr_buckets As for cds_lfht_new().
 * \param flags As for cds_lfht_new().
 * \param attr As for cds_lfht_new().
 * \param flavour The RCU flavour whose readers use the table (the
 * `rcu_flavour` object of `<rcu/qsbr.h>`, `<rcu/memb.h>`, `<rcu/bp.h>` or
 * `<rcu/mb.h>`).
 * \return The table, or NULL with errno set: as cds_lfht_new(), and EINVAL
 * when \p flavour is NULL.
 *
 * Most programs call cds_lfht_new().
 * \rcustate As cds_lfht_new(): any thread, registered or not.
 * \ordering As cds_lfht_new().
 */
static inline struct cds_lfht *cds_lfht_new_flavour(unsigned long init_size,
						    unsigned long min_nr_alloc_buckets,
						    unsigned long max_nr_buckets,
						    int flags, pthread_attr_t *attr,
						    const struct rcu_flavour *flavour)
{
	return lfht_new_flavour(init_size, min_nr_alloc_buckets, max_nr_buckets, flags, attr,
				flavour);
}

#ifdef RCU_FLAVOUR_SELECTED
/**
 * \brief Creates a table using the flavour whose header was included.
 * \param init_size Number of buckets to start with; a power of two (brought
 * within the two bounds below).
 * \param min_nr_alloc_buckets The table never shrinks below this many
 * buckets; a power of two.
 * \param max_nr_buckets The table never grows beyond this many buckets; a
 * power of two not below \p min_nr_alloc_buckets, or 0 for no limit.
 * \param flags 0, or #CDS_LFHT_AUTO_RESIZE and/or #CDS_LFHT_ACCOUNTING
 * or'ed together, and optionally LFHT_BUCKETS_PER_NODE(n) of
 * `<lfht/extensions.h>` (the bucket density auto-resize keeps).
 * \param attr Thread attributes for the threads that run this table's
 * resizes (for example a real-time priority, so that a flood of additions
 * cannot starve them), or NULL for the defaults. Must stay valid until
 * cds_lfht_destroy(), which hands it back.
 * \return The table, or NULL with errno EINVAL (a size that is not a power
 * of two, \p max_nr_buckets below \p min_nr_alloc_buckets, or
 * LFHT_BUCKETS_PER_NODE(n) with n not 1, 2, 4 or 8), ENOMEM, or,
 * with #CDS_LFHT_AUTO_RESIZE, the error of pthread_create() when the resize
 * worker for \p attr cannot be started (an \p attr with which no thread can
 * be created is refused here, not at the first resize).
 *
 * \p attr is used for exactly these threads: the resize worker, one thread
 * shared by every #CDS_LFHT_AUTO_RESIZE table of the same flavour and the
 * same \p attr pointer (created by the first such cds_lfht_new(), stopped by
 * the cds_lfht_destroy() of the last), and the helper threads that split a
 * large resize of this table. Updates never wait for the worker: they flag
 * the table and wake it, lock-free. The worker survives fork(): in the child
 * it is started again.
 *
 * \rcustate Any thread, registered or not; cds_lfht_new() may run before
 * anything else in the program touches RCU.
 * \ordering None needed; publish the returned pointer to other threads as
 * any pointer (for example with rcu_assign_pointer()).
 */
static inline struct cds_lfht *cds_lfht_new(unsigned long init_size,
					    unsigned long min_nr_alloc_buckets,
					    unsigned long max_nr_buckets,
					    int flags, pthread_attr_t *attr)
{
	return cds_lfht_new_flavour(init_size, min_nr_alloc_buckets,
				    max_nr_buckets, flags, attr, &rcu_flavour);
}
#endif

/**
 * \brief Frees an empty table.
 * \param ht The table; every node must have been removed.
 * \param attr When not NULL, receives the \p attr pointer given to
 * cds_lfht_new(), so that the caller can free it.
 * \return 0 on success; -EPERM, with the table left as it was, when the
 * table is not empty.
 *
 * Every other operation on the table must have finished before the call:
 * destroy is not concurrent with anything on the same table. When the table
 * is the last of its resize worker's, the worker is stopped and joined.
 * \rcustate Registered thread, outside any read-side critical section (it
 * waits for the resize worker to let go of the table, and the worker may be
 * waiting for a grace period); a call_rcu() callback may call it, as in
 * liburcu 0.10 and later: the orders arrays that a recent grow replaced are
 * then freed, with the table, by their own callbacks after it returns, so
 * the table's allocator must outlive them (rcu_barrier() from a thread
 * waits for them). A QSBR caller may be online or offline, and returns in
 * the same state.
 * \ordering None promised: order the end of every other use of the table
 * before the call yourself (for example by joining the threads that used
 * it).
 */
static inline int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	return lfht_destroy(ht, attr);
}

/**
 * \brief Resizes the table to a bucket count, in the calling thread.
 * \param ht The table.
 * \param new_size The wanted number of buckets; rounded up to a power of two
 * and clamped to the table's minimum and maximum.
 *
 * Returns when the resize is done (large steps are split over helper threads
 * created with the table's \p attr); lookups and updates go on meanwhile, and
 * no node ever moves. Automatic resizes (#CDS_LFHT_AUTO_RESIZE) run in the
 * resize worker instead.
 * \rcustate Registered thread, outside any read-side critical section (it
 * waits for grace periods). A QSBR caller may be online or offline, and
 * returns in the same state.
 * \ordering No memory barrier is promised.
 */
static inline void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size)
{
	lfht_resize(ht, new_size);
}

/**
 * \brief Counts the nodes by walking the whole table.
 * \param ht The table.
 * \param split_count_before Receives the sum of the split counters read
 * before the walk; 0 without #CDS_LFHT_ACCOUNTING.
 * \param count Receives the number of nodes met during the walk.
 * \param split_count_after Receives the sum of the split counters read after
 * the walk; 0 without #CDS_LFHT_ACCOUNTING.
 *
 * Exact only while nothing adds or removes nodes. A walk costs O(size): a
 * program that needs a fast count keeps its own per-thread counters.
 * \rcustate Registered thread, inside a read-side critical section.
 * \ordering None promised: a node added or removed during the walk may or
 * may not be counted.
 */
static inline void cds_lfht_count_nodes(struct cds_lfht *ht, long *split_count_before,
					unsigned long *count, long *split_count_after)
{
	lfht_count_nodes(ht, split_count_before, count, split_count_after);
}

/**
 * \brief cds_lfht_lookup() as an exported function, for callers that need
 * its address (cds_lfht_lookup() is its static inline twin, so that the
 * compiler can inline \p match).
 * \param ht As for cds_lfht_lookup().
 * \param hash As for cds_lfht_lookup().
 * \param match As for cds_lfht_lookup().
 * \param key As for cds_lfht_lookup().
 * \param iter As for cds_lfht_lookup().
 *
 * \rcustate As cds_lfht_lookup().
 * \ordering As cds_lfht_lookup().
 */
LFHT_API void lfht_lookup(struct cds_lfht *ht, unsigned long hash,
			  cds_lfht_match_fct match, const void *key,
			  struct cds_lfht_iter *iter);
/**
 * \brief Moves an iterator to the next node with the same key.
 * \param ht The table.
 * \param match The key comparison.
 * \param key The key (the table keeps only hashes, so it asks again).
 * \param iter An iterator at a node with that key; receives the next one, or
 * NULL.
 *
 * \rcustate Registered thread, inside the read-side critical section that
 * began the traversal.
 * \ordering Acts as rcu_dereference() on the node found.
 */
static inline void cds_lfht_next_duplicate(struct cds_lfht *ht, cds_lfht_match_fct match,
					   const void *key, struct cds_lfht_iter *iter)
{
	lfht_debug_reader_(ht, "cds_lfht_next_duplicate");
	lfht_next_duplicate_inline_(ht, match, key, iter);
}

/**
 * \brief Starts a walk over the whole table.
 * \param ht The table.
 * \param iter Receives the first node in table order, or NULL when the table
 * is empty.
 *
 * \rcustate Registered thread, inside a read-side critical section that
 * covers the whole walk.
 * \ordering Acts as rcu_dereference() on the node found.
 */
static inline void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	lfht_first(ht, iter);
}

/**
 * \brief Moves an iterator to the next node, whatever its bucket.
 * \param ht The table.
 * \param iter An iterator from cds_lfht_first() or an earlier
 * cds_lfht_next(); receives the next node, or NULL at the end.
 *
 * A walk meets every node present for its whole duration exactly once;
 * nodes added or removed during the walk may or may not be met.
 * \rcustate Registered thread, inside the read-side critical section that
 * began the walk.
 * \ordering Acts as rcu_dereference() on the node found.
 */
static inline void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	lfht_next(ht, iter);
}

/**
 * \brief Adds a node, even when nodes with the same key are present.
 * \param ht The table.
 * \param hash The hash of the new entry's key.
 * \param node The node embedded in the new entry (see cds_lfht_node_init()).
 *
 * The only way to store duplicate keys.
 * \rcustate Registered thread, inside a read-side critical section.
 * \ordering A full memory barrier before and after the atomic step that
 * makes the node visible, so everything written to the entry before the call
 * is seen by any reader that finds it.
 */
static inline void cds_lfht_add(struct cds_lfht *ht, unsigned long hash,
				struct cds_lfht_node *node)
{
	lfht_add(ht, hash, node);
}

/**
 * \brief Adds a node unless a node with the same key is present.
 * \param ht The table.
 * \param hash The hash of \p key.
 * \param match The key comparison.
 * \param key The new entry's key.
 * \param node The node embedded in the new entry.
 * \return \p node when it was added; otherwise the node already in the
 * table with that key (\p node was not added: it was never published, and
 * the caller may free it at once).
 *
 * \rcustate Registered thread, inside a read-side critical section (which
 * also protects the node returned).
 * \ordering Added: a full memory barrier before and after the atomic step
 * that adds the node. Not added: acts as rcu_dereference() on the node
 * returned.
 */
static inline struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht, unsigned long hash,
							cds_lfht_match_fct match,
							const void *key,
							struct cds_lfht_node *node)
{
	return lfht_add_unique(ht, hash, match, key, node);
}

/**
 * \brief Adds a node, replacing the node with the same key if there is one.
 * \param ht The table.
 * \param hash The hash of \p key.
 * \param match The key comparison.
 * \param key The new entry's key.
 * \param node The node embedded in the new entry.
 * \return The node replaced, or NULL when none had that key.
 *
 * A concurrent lookup of the key finds the old node or the new one, never
 * neither.
 * \rcustate Registered thread, inside a read-side critical section; free the
 * node returned only after a grace period.
 * \ordering A full memory barrier before and after the atomic step that
 * swaps the nodes.
 */
static inline struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht, unsigned long hash,
							 cds_lfht_match_fct match,
							 const void *key,
							 struct cds_lfht_node *node)
{
	return lfht_add_replace(ht, hash, match, key, node);
}

/**
 * \brief Replaces the node an iterator is at by a new node with the same key.
 * \param ht The table.
 * \param old_iter An iterator at the node to replace (from a lookup in the
 * same read-side critical section).
 * \param hash The hash of \p key; must be the old node's hash.
 * \param match The key comparison.
 * \param key The key; must be the old node's key.
 * \param new_node The node embedded in the replacement entry.
 * \return 0 on success; -ENOENT when \p old_iter is at no node or the old
 * node was removed first (by another del or replace); -EINVAL when \p hash
 * and \p key are not the old node's. On failure \p new_node was not added.
 *
 * A concurrent lookup of the key finds the old node or the new one, never
 * neither.
 * \rcustate Registered thread, inside a read-side critical section that also
 * covered the lookup; free the old node only after a grace period.
 * \ordering Replaced: a full memory barrier before and after the atomic
 * step. Failed: none.
 */
static inline int cds_lfht_replace(struct cds_lfht *ht, struct cds_lfht_iter *old_iter,
				   unsigned long hash, cds_lfht_match_fct match,
				   const void *key, struct cds_lfht_node *new_node)
{
	return lfht_replace(ht, old_iter, hash, match, key, new_node);
}

/**
 * \brief Removes a node from the table.
 * \param ht The table.
 * \param node The node to remove, found by a lookup or traversal.
 * \return 0 on success; -ENOENT when \p node is NULL, was already removed
 * (by another del or replace: exactly one of them wins), or was initialised
 * by cds_lfht_node_init_deleted() (or, without debug checks,
 * cds_lfht_node_init()) and never added.
 *
 * With debug checks (`RCU_DEBUG_CHECKS`), a node initialised by
 * cds_lfht_node_init() and never added is misuse: the call aborts with
 * "lfht: cds_lfht_del: node was never added to a table".
 *
 * \rcustate Registered thread, inside a read-side critical section that also
 * covered the lookup that found \p node. Free the entry only after a grace
 * period: readers that started earlier may still hold it.
 * \ordering Removed: a full memory barrier before and after the atomic step
 * that removes the node. Failed: none.
 */
static inline int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	return lfht_del(ht, node);
}

/**
 * \brief Tells whether a node has been removed.
 * \param node A node found by a lookup or traversal.
 * \return Non-zero when the node was removed (by cds_lfht_del(), or
 * replaced).
 *
 * \rcustate Registered thread, inside the read-side critical section that
 * covered the lookup or traversal that found the node.
 * \ordering A plain snapshot; the answer may be stale as soon as it is
 * returned unless the caller excludes the node's removal.
 */
static inline int cds_lfht_is_node_deleted(const struct cds_lfht_node *node)
{
	return lfht_is_node_deleted(node);
}


/**
 * \brief Finds the first node whose hash is \p hash and which \p match
 * accepts.
 * \param ht The table.
 * \param hash The hash of \p key, computed by the caller.
 * \param match The key comparison.
 * \param key The key to look for, passed to \p match.
 * \param iter Receives the result: cds_lfht_iter_get_node() gives the node,
 * or NULL when nothing matched.
 *
 * Inline, so that the compiler can inline \p match; lfht_lookup() is the
 * exported twin, with the same behaviour.
 * \rcustate Registered thread, inside a read-side critical section that
 * lasts as long as the node is used.
 * \ordering Acts as rcu_dereference() on the node found: the fields the
 * adder wrote before adding it are visible.
 */
static inline void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
				   cds_lfht_match_fct match, const void *key,
				   struct cds_lfht_iter *iter)
{
	lfht_debug_reader_(ht, "cds_lfht_lookup");
	lfht_lookup_inline_(ht, hash, match, key, iter);
}

/**
 * \brief A `for` statement over every node of the table.
 * \param ht The table.
 * \param iter A caller's struct cds_lfht_iter, used for the walk.
 * \param node A `struct cds_lfht_node *` variable set to each node in turn.
 *
 * Follow it with a statement or a block.
 * \rcustate Registered thread, inside a read-side critical section around
 * the whole loop; leaving it inside the body is not allowed.
 * \ordering As cds_lfht_first() and cds_lfht_next().
 */
#define cds_lfht_for_each(ht, iter, node)				\
	for (cds_lfht_first(ht, iter),					\
		     node = cds_lfht_iter_get_node(iter);		\
	     node != NULL;						\
	     cds_lfht_next(ht, iter),					\
		     node = cds_lfht_iter_get_node(iter))

/**
 * \brief A `for` statement over every node with a given key.
 * \param ht The table.
 * \param hash The hash of \p key.
 * \param match The key comparison.
 * \param key The key.
 * \param iter A caller's struct cds_lfht_iter, used for the walk.
 * \param node A `struct cds_lfht_node *` variable set to each match in turn.
 *
 * \rcustate Registered thread, inside a read-side critical section around
 * the whole loop.
 * \ordering As cds_lfht_lookup() and cds_lfht_next_duplicate().
 */
#define cds_lfht_for_each_duplicate(ht, hash, match, key, iter, node)	\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
		     node = cds_lfht_iter_get_node(iter);		\
	     node != NULL;						\
	     cds_lfht_next_duplicate(ht, match, key, iter),		\
		     node = cds_lfht_iter_get_node(iter))

/* The entry holding the iterator's node, or NULL at the end (no arithmetic
 * on a null pointer). */
#define cds_lfht_iter_entry_(iter, pos, member)			\
	(cds_lfht_iter_get_node(iter) ?					\
	 caa_container_of(cds_lfht_iter_get_node(iter),			\
			  __typeof__(*(pos)), member) : NULL)

/**
 * \brief A `for` statement over every entry of the table.
 * \param ht The table.
 * \param iter A caller's struct cds_lfht_iter, used for the walk.
 * \param pos A pointer to the entry type, set to each entry in turn.
 * \param member The name of the struct cds_lfht_node member in the entry
 * type.
 *
 * \rcustate Registered thread, inside a read-side critical section around
 * the whole loop.
 * \ordering As cds_lfht_first() and cds_lfht_next().
 */
#define cds_lfht_for_each_entry(ht, iter, pos, member)			\
	for (cds_lfht_first(ht, iter),					\
		     pos = cds_lfht_iter_entry_(iter, pos, member);	\
	     pos != NULL;						\
	     cds_lfht_next(ht, iter),					\
		     pos = cds_lfht_iter_entry_(iter, pos, member))

/**
 * \brief A `for` statement over every entry with a given key.
 * \param ht The table.
 * \param hash The hash of \p key.
 * \param match The key comparison.
 * \param key The key.
 * \param iter A caller's struct cds_lfht_iter, used for the walk.
 * \param pos A pointer to the entry type, set to each match in turn.
 * \param member The name of the struct cds_lfht_node member in the entry
 * type.
 *
 * \rcustate Registered thread, inside a read-side critical section around
 * the whole loop.
 * \ordering As cds_lfht_lookup() and cds_lfht_next_duplicate().
 */
#define cds_lfht_for_each_entry_duplicate(ht, hash, match, key,	\
					  iter, pos, member)		\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
		     pos = cds_lfht_iter_entry_(iter, pos, member);	\
	     pos != NULL;						\
	     cds_lfht_next_duplicate(ht, match, key, iter),		\
		     pos = cds_lfht_iter_entry_(iter, pos, member))

#ifdef __cplusplus
}
#endif

#endif /* LFHT_LFHT_H */
