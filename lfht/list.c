/* SPDX-License-Identifier: MIT */
/*
 * lfht/list.c - the split-ordered list: every write to a node's next word.
 * Insertion (plain, unique, replacing), replacement, deletion (of a node,
 * or of a key: lfht_del_key()), unlinking and helping, bucket insertion
 * and removal.
 *
 * One singly linked list holds all nodes, sorted by reverse hash; a bucket
 * node sorts before regular nodes of equal reverse hash, regular nodes of
 * equal reverse hash keep insertion order.
 *
 * Invariants between atomic steps:
 * - a node whose next word has REMOVED is frozen: no CAS ever succeeds on
 *   it again (every CAS expects a word without REMOVED), so its successor
 *   stays valid for readers that still hold it;
 * - a node without REMOVED that was linked is reachable from bucket 0;
 * - a node leaves the list only by a CAS on its predecessor's unremoved
 *   word, and nothing links it again (links expect that exact word);
 * - an update becomes visible by one commit, list_commit(): a seq_cst CAS
 *   between two full barriers, after the node's own fields are written;
 *   a bucket node is linked by a release CAS;
 * - a link's tag (<lfht/lfht-word.h>) is that of its holder and its
 *   node: every link written is lfht_link_() from the node that will hold
 *   it, or a replaced node's word moved to its replacement (the same
 *   reverse hash); reverse hashes never change while a node is linked.
 *
 * Builds and reads every word through its codec, <lfht/lfht-word.h>.
 * Calls lfht_view_bucket_() (<lfht/lfht-inline.h>) for the start bucket
 * of a hash, which is always linked: resize.c stores the size after
 * linking on grow and before removing on shrink, so a restart finds a live
 * bucket.
 */
#include "internal.h"

/* ---- the commit ----------------------------------------------------------- */

/*
 * The "full memory barrier before and after the atomic commit" that the API
 * promises for add, add_unique, add_replace, replace and del (on success).
 *
 * Before the commit it orders every earlier access of the caller (its writes
 * to the new entry, relaxed or plain, and its earlier reads) before the
 * commit; pairs with the acquire ->next loads of traversals
 * (lfht_load_next_() in <lfht/lfht-inline.h>, the cursor below), which see the
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
static inline void commit_fence(void)
{
	/* Compiler-only: the locked CAS next to it is the CPU's full barrier
	 * (see above); pairs as the fence below does. */
	rcu_compiler_barrier();
}
#else
static inline void commit_fence(void)
{
	/* Full fence: pairs with the acquire ->next loads of traversals
	 * (before the commit) and with other updaters' commit fences (after
	 * it), see above. */
	rcu_fence(memory_order_seq_cst);
}
#endif

/* One attempt at a commit: *expected -> desired on word. On failure,
 * *expected holds the word seen. */
static bool list_commit(_Atomic(uintptr_t) *word, uintptr_t *expected, uintptr_t desired)
{
	lfht_assert(!lfht_is_removed_(*expected),
		    "list.c: a commit expects a word without REMOVED (removed nodes are frozen)");
	commit_fence();
	/* Seq_cst: the commit. Its release half publishes the new node's
	 * fields (pairs with the acquire ->next loads of traversals); racing
	 * commits on one word (a link, a replace, a delete) all expect it
	 * without REMOVED, so one wins. Acquire on failure: pairs with the
	 * CAS that changed the word; the caller walks on from what it saw. */
	if (!rcu_atomic_cas(word, expected, desired, memory_order_seq_cst,
			    memory_order_acquire))
		return false;
	commit_fence();
	return true;
}

/* ---- the cursor: a walk from a bucket that helps unlink ------------------- */

struct list_cursor {
	struct cds_lfht *ht;
	unsigned long hash;
	struct cds_lfht_node *start;	/* restart here; NULL: hash's bucket */
	unsigned long start_rh;		/* start's reverse hash */
	/* The reverse hash the walk looks for: a cur that prev's tag shows
	 * to sort after it is left unread (cur_word stale, cur_rh_known
	 * false), as the walk stops there. */
	unsigned long bound;
	struct cds_lfht_node *prev, *cur;
	uintptr_t prev_word, cur_word;
	/* Their reverse hashes; a bucket's cur_rh is found from its index
	 * only when a tag does not settle a comparison (cur_rh_known). */
	unsigned long prev_rh, cur_rh;
	bool cur_rh_known;
};

/* cur's reverse hash (a bucket's from its index, once). Never asked of a
 * cur left unread, which sorts after the bound: callers compare with the
 * bound and stop first. */
static unsigned long cursor_cur_rh(struct list_cursor *c)
{
	if (!c->cur_rh_known) {
		lfht_assert(lfht_is_bucket_(c->cur_word) &&
			    !lfht_tag_after_(c->prev_word, c->prev_rh, c->bound),
			    "list.c: a cur left unread sorts after the bound and is never walked past");
		c->cur_rh = lfht_bucket_reverse_hash_(&c->ht->view, c->cur);
		c->cur_rh_known = true;
		lfht_assert(c->cur_rh != ~0UL,
			    "list.c: a bucket reached by a walk lies in a table of its orders "
			    "array");
	}
	return c->cur_rh;
}

/* Whether the list ends at cur or cur sorts after reverse hash rh. */
static bool cursor_cur_after(struct list_cursor *c, unsigned long rh)
{
	if (!c->cur)
		return true;
	if (!c->cur_rh_known && lfht_tag_after_(c->prev_word, c->prev_rh, rh))
		return true;
	return cursor_cur_rh(c) > rh;
}

/* The link to cur for a new holder of reverse hash holder, between prev
 * and cur: exact when cur's reverse hash is known, else prev's (a lower
 * bound from any later holder, <lfht/lfht-word.h>). */
static uintptr_t cursor_link_to_cur(const struct list_cursor *c, unsigned long holder)
{
	return c->cur_rh_known ? lfht_link_to_(holder, c->cur, c->cur_rh)
			       : lfht_link_of_(c->prev_word);
}

static void cursor_restart(struct list_cursor *c)
{
	c->prev_rh = c->start_rh;
	/* Without a start, bound is hash's reverse (cursor_start()'s
	 * callers). */
	c->prev = c->start ? c->start
			   : lfht_view_bucket_(&c->ht->view, c->hash, c->bound, &c->prev_rh);
	/* Acquire (here and every ->next load of the cursor): pairs with the
	 * CAS that stored the word (list_commit(), the release CASes of
	 * lfht_list_add_bucket() and help_unlink()), so the successor's
	 * reverse_hash and next are visible. A REMOVED word of a bucket that
	 * a shrink marked also makes the lowered size visible (release half
	 * of that mark, after the size store in shrink_order()): the restart
	 * reads it. */
	c->prev_word = rcu_atomic_load(&c->prev->next, memory_order_acquire);
}

/* Unlinks cur (removed, frozen at cur_word) from prev: true when this
 * CAS did. On failure prev_word holds the word seen. */
static bool help_unlink(struct list_cursor *c)
{
	/* cur's link to its successor, its tag a lower bound from prev
	 * (<lfht/lfht-word.h>), with prev's flag. */
	uintptr_t desired = lfht_relink_(c->prev_word, lfht_link_of_(c->cur_word));

	lfht_assert(!lfht_is_removed_(c->prev_word) && lfht_ptr_(c->prev_word) == c->cur &&
		    lfht_is_removed_(c->cur_word),
		    "list.c: a node leaves the list only by a CAS on its predecessor's "
		    "unremoved word, once removed");
	/* Release: pairs with the acquire ->next loads of traversals that
	 * read the new word. Our acquire load of cur's word synchronized with
	 * the link of cur's successor, so the release hands its fields on to
	 * those readers, and keeps our reads of cur before the unlink.
	 * Acquire on failure: pairs with the CAS that changed prev's word, as
	 * for a traversal. */
	if (!rcu_atomic_cas(&c->prev->next, &c->prev_word, desired, memory_order_release,
			    memory_order_acquire))
		return false;
	c->prev_word = desired;
	return true;
}

/*
 * Moves the cursor to the first live node after prev: unlinks removed
 * nodes on the way, restarts when prev itself was removed. Then cur is that
 * node (cur_word its word), or NULL at the end of the list; or, when prev's
 * tag shows that cur sorts after the bound, cur unread, whatever its state:
 * the walk stops before it, and a removed cur is the business of walks
 * that look for it. That saves loading the element after a node
 * (a cache miss, often a bucket in another order's table) on every add
 * and every unlink.
 *
 * With a target (a removed node that an unlink walk is for), it returns
 * true as soon as its own CAS unlinked the target, the cursor then stale:
 * the walk ends before loading the target's successor, which the lookup
 * that found the target never read (a cache miss). Callers without one
 * pass NULL (cursor_settle()), which the compiler folds away.
 */
static inline bool cursor_settle_for(struct list_cursor *c, const struct cds_lfht_node *target)
{
	for (;;) {
		if (lfht_is_removed_(c->prev_word)) {
			cursor_restart(c);	/* a shrink removed prev */
			continue;
		}
		c->cur = lfht_ptr_(c->prev_word);
		c->cur_rh_known = true;
		if (!c->cur)
			return false;
		if (lfht_tag_after_(c->prev_word, c->prev_rh, c->bound)) {
			c->cur_rh_known = false;
			return false;
		}
		/* Acquire: as in cursor_restart(). */
		c->cur_word = rcu_atomic_load(&c->cur->next, memory_order_acquire);
		if (!lfht_is_removed_(c->cur_word)) {
			c->cur_rh_known = !lfht_is_bucket_(c->cur_word);
			if (c->cur_rh_known)
				c->cur_rh = c->cur->reverse_hash;
			return false;
		}
		if (help_unlink(c) && c->cur == target)
			return true;
	}
}

static void cursor_settle(struct list_cursor *c)
{
	(void)cursor_settle_for(c, NULL);
}

/* A cursor at start (NULL: hash's bucket), before its first settle. */
static void cursor_init(struct list_cursor *c, struct cds_lfht *ht, unsigned long hash,
			struct cds_lfht_node *start, unsigned long start_rh, unsigned long bound)
{
	*c = (struct list_cursor){ .ht = ht, .hash = hash, .start = start, .start_rh = start_rh,
				   .bound = bound };
	lfht_assert(start || bound == lfht_reverse_bits_(hash),
		    "list.c: a walk from hash's bucket looks for hash's reverse");
	cursor_restart(c);
}

static void cursor_start(struct list_cursor *c, struct cds_lfht *ht, unsigned long hash,
			 struct cds_lfht_node *start, unsigned long start_rh, unsigned long bound)
{
	cursor_init(c, ht, hash, start, start_rh, bound);
	cursor_settle(c);
}

/* prev moves to cur, a live node or bucket; cur is then unsettled. */
static void cursor_step(struct list_cursor *c)
{
	c->prev_rh = cursor_cur_rh(c);
	c->prev = c->cur;
	c->prev_word = c->cur_word;
}

static void cursor_advance(struct list_cursor *c)
{
	cursor_step(c);
	cursor_settle(c);
}

/* Links node between prev and cur; on failure the cursor re-settles. */
static bool cursor_link(struct list_cursor *c, struct cds_lfht_node *node)
{
	lfht_assert(c->prev_rh <= node->reverse_hash && cursor_cur_after(c, node->reverse_hash),
		    "list.c: a node is linked after the last node of reverse hash <= its own");
	/* Relaxed: published by the commit. */
	rcu_atomic_store(&node->next, cursor_link_to_cur(c, node->reverse_hash),
			 memory_order_relaxed);
	if (list_commit(&c->prev->next, &c->prev_word,
			lfht_relink_(c->prev_word, lfht_link_(c->prev_rh, node))))
		return true;
	cursor_settle(c);
	return false;
}

/* ---- updates -------------------------------------------------------------- */

/*
 * The replace commit: old's word, seen as *old_word, becomes new_node with
 * REMOVED and REMOVAL_OWNER, new_node pointing at old's successor; one CAS,
 * so readers find one of the two. True with *old_word the word committed;
 * false when old was removed (by a racing del or replace) or its word
 * changed (*old_word then holds it).
 */
static bool replace_commit(struct cds_lfht_node *old, uintptr_t *old_word,
			   struct cds_lfht_node *new_node)
{
	uintptr_t committed = lfht_removed_word_(lfht_link_(old->reverse_hash, new_node), 1);

	if (lfht_is_removed_(*old_word))
		return false;
	/* Relaxed: published by the commit. A reader that reaches new_node
	 * through it also synchronizes with the CAS that stored the successor
	 * in old's word (the commit is an RMW on that word, continuing its
	 * release sequence), so the successor's fields are visible to it. */
	rcu_atomic_store(&new_node->next, *old_word, memory_order_relaxed);
	if (!list_commit(&old->next, old_word, committed))
		return false;
	*old_word = committed;
	return true;
}

/*
 * Returns once no removed node with reverse hash <= that of hash is
 * reachable from hash's bucket, so a node removed before is unlinked; or,
 * with a target (a removed node of hash's reverse hash), as soon as its own
 * CAS unlinked the target: the removed nodes it passed on the way are
 * unlinked by then, and those after the target are the business of their
 * own removers' walks.
 */
static void list_unlink_removed(struct cds_lfht *ht, unsigned long hash,
				const struct cds_lfht_node *target)
{
	unsigned long reverse_hash = lfht_reverse_bits_(hash);
	struct list_cursor c;

	cursor_init(&c, ht, hash, NULL, 0, reverse_hash);
	while (!cursor_settle_for(&c, target) && !cursor_cur_after(&c, reverse_hash))
		cursor_step(&c);
}

/* Returns once node, removed, is unreachable from its bucket. */
static void list_unlink_node(struct cds_lfht *ht, const struct cds_lfht_node *node)
{
	/* Its reverse hash gives back a hash with the same bucket bits. */
	list_unlink_removed(ht, lfht_reverse_bits_(node->reverse_hash), node);
}

/* Whether cur, settled, is a live node of reverse hash rh that match
 * accepts for key: the node an update by key is for. */
static bool cursor_cur_matches(const struct list_cursor *c, unsigned long rh,
			       cds_lfht_match_fct match, const void *key)
{
	return !lfht_is_bucket_(c->cur_word) && c->cur_rh == rh && match(c->cur, key);
}

/* cur, which this thread's commit just removed (cur_word the word it
 * committed), unlinked from where the walk stands (prev links cur unless
 * that changed), else by a walk; returns cur. */
static struct cds_lfht_node *cursor_unlink_cur(struct cds_lfht *ht, struct list_cursor *c)
{
	if (!help_unlink(c))
		list_unlink_node(ht, c->cur);
	return c->cur;
}

struct cds_lfht_node *lfht_list_add(struct cds_lfht *ht, unsigned long hash,
				    struct cds_lfht_node *node, enum lfht_add_mode mode,
				    cds_lfht_match_fct match, const void *key,
				    unsigned *chain)
{
	unsigned long reverse_hash = node->reverse_hash;
	struct list_cursor c;

	*chain = 0;
	cursor_start(&c, ht, hash, NULL, 0, reverse_hash);
	for (;;) {
		if (cursor_cur_after(&c, reverse_hash)) {
			if (cursor_link(&c, node))
				return mode == LFHT_ADD_REPLACE ? NULL : node;
			/* The link failed: whatever came in between is looked at
			 * again from the cursor, unless a mutant skips that. */
			if (lfht_mutant(LFHT_MUTANT_UNIQUE_NO_RECHECK) && mode == LFHT_ADD_UNIQUE)
				mode = LFHT_ADD_DUP;
			continue;
		}
		if (mode != LFHT_ADD_DUP && cursor_cur_matches(&c, reverse_hash, match, key)) {
			if (mode == LFHT_ADD_UNIQUE)
				return c.cur;
			if (replace_commit(c.cur, &c.cur_word, node))
				return cursor_unlink_cur(ht, &c);
			cursor_settle(&c);	/* cur changed: look again */
			continue;
		}
		*chain += !lfht_is_bucket_(c.cur_word);
		cursor_advance(&c);
	}
}

/* LFHT_MUTANT_REPLACE_AS_DEL_ADD: a window in which neither node is in. */
static int replace_by_del_add(struct cds_lfht *ht, unsigned long hash,
			      struct cds_lfht_node *old, struct cds_lfht_node *new_node)
{
	unsigned chain;

	if (!lfht_list_del(ht, old))
		return -ENOENT;
	(void)lfht_list_add(ht, hash, new_node, LFHT_ADD_DUP, NULL, NULL, &chain);
	return 0;
}

int lfht_list_replace(struct cds_lfht *ht, unsigned long hash, struct cds_lfht_node *old,
		      struct cds_lfht_node *new_node)
{
	/* Relaxed: the commit validates the word, and nothing is read
	 * through it (see replace_commit()). */
	uintptr_t word = rcu_atomic_load(&old->next, memory_order_relaxed);

	if (lfht_mutant(LFHT_MUTANT_REPLACE_AS_DEL_ADD))
		return replace_by_del_add(ht, hash, old, new_node);
	while (!replace_commit(old, &word, new_node))
		if (lfht_is_removed_(word))
			return -ENOENT;
	/* old must be unreachable before the caller starts its grace period. */
	list_unlink_node(ht, old);
	return 0;
}

/* Sets REMOVED (and REMOVAL_OWNER when owner: a regular node) in node's
 * word: the commit of a del or of a bucket's removal. False if already
 * removed. */
static bool mark_removed(struct cds_lfht_node *node, bool owner)
{
	/* Relaxed: the commit validates the word. */
	uintptr_t word = rcu_atomic_load(&node->next, memory_order_relaxed);

	do {
		if (lfht_is_removed_(word))
			return lfht_mutant(LFHT_MUTANT_DEL_TWICE) && owner;
		/* The winner of racing dels and replaces (replace_commit()
		 * CASes the same word) is the one whose commit sets REMOVED.
		 * For a bucket, the commit's release half also hands the
		 * lowered size stored before it in shrink_order() to the
		 * updaters that see REMOVED and restart (cursor_restart()). */
	} while (!list_commit(&node->next, &word, lfht_removed_word_(word, owner)));
	return true;
}

bool lfht_list_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	if (!mark_removed(node, true))
		return false;
	/* node must be unreachable before the caller starts its grace period. */
	list_unlink_node(ht, node);
	return true;
}

/*
 * Removes the first live node of hash's reverse hash that match accepts,
 * the node a lookup would find, and returns it; NULL when there is none.
 * One walk: the mark commits on the word the walk loaded, and the unlink
 * CAS goes on the predecessor word it holds, a walk from the bucket only
 * when that word changed.
 */
struct cds_lfht_node *lfht_list_del_key(struct cds_lfht *ht, unsigned long hash,
					cds_lfht_match_fct match, const void *key)
{
	unsigned long reverse_hash = lfht_reverse_bits_(hash);
	struct list_cursor c;

	cursor_start(&c, ht, hash, NULL, 0, reverse_hash);
	for (;;) {
		if (cursor_cur_after(&c, reverse_hash))
			return NULL;
		if (!cursor_cur_matches(&c, reverse_hash, match, key)) {
			cursor_advance(&c);
			continue;
		}
		uintptr_t removed = lfht_removed_word_(c.cur_word, true);

		/* The del's commit (as mark_removed()) on the word the walk
		 * loaded. On failure (a racing del or replace, or a link after
		 * cur) cur_word holds the word seen: look again. */
		if (!list_commit(&c.cur->next, &c.cur_word, removed)) {
			cursor_settle(&c);
			continue;
		}
		c.cur_word = removed;
		return cursor_unlink_cur(ht, &c);
	}
}

/* ---- bucket nodes (resize.c) ---------------------------------------------- */

void lfht_list_add_bucket(struct cds_lfht *ht, unsigned long index)
{
	unsigned order = lfht_order_of_index_(index);
	unsigned long parent = index - lfht_order_first_(order);
	unsigned long bucket_rh = lfht_reverse_bits_(index);
	struct cds_lfht_node *bucket = lfht_bucket_at(ht, index);
	struct list_cursor c;

	/* From the parent, which only the resizer (this thread) could remove. */
	cursor_start(&c, ht, 0, lfht_bucket_at(ht, parent), lfht_reverse_bits_(parent),
		     bucket_rh - 1);
	for (;;) {
		/* Reverse hashes of buckets are distinct and not 0 here. */
		if (!cursor_cur_after(&c, bucket_rh - 1)) {
			cursor_advance(&c);
			continue;
		}
		lfht_assert(!lfht_is_removed_(c.prev_word) && c.prev_rh < bucket_rh,
			    "list.c: a bucket node is linked after an unremoved node of smaller "
			    "reverse hash, before regular nodes of its own");
		/* Relaxed: published by the release CAS below. */
		rcu_atomic_store(&bucket->next,
				 lfht_as_bucket_(cursor_link_to_cur(&c, bucket_rh)),
				 memory_order_relaxed);
		/* Release: publishes the bucket's fields; pairs with the acquire
		 * ->next loads of traversals (lfht_load_next_() in lfht-inline.h, the
		 * cursor). Acquire on failure: pairs with the CAS that changed
		 * prev's word, as in cursor_restart(). */
		if (rcu_atomic_cas(&c.prev->next, &c.prev_word,
				   lfht_relink_(c.prev_word,
						lfht_link_to_(c.prev_rh, bucket, bucket_rh)),
				   memory_order_release, memory_order_acquire))
			return;
		cursor_settle(&c);
	}
}

void lfht_list_remove_bucket(struct cds_lfht *ht, struct cds_lfht_node *bucket,
			     unsigned long index)
{
	mark_removed(bucket, false);
	/* From its parent's bucket: the index is its own hash. */
	list_unlink_removed(ht, index, NULL);
}
