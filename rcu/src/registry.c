/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the registered readers of one flavour: who they are, and
 * every change to that.
 *
 * Owns: the calling thread's reader state (self_reader, the exported TLS
 * object the inline read side uses; here its links and registered flag),
 * the list of registered readers with its lock, the lock-free stack of
 * readers pushed but not yet on the list (bp), and the thread-exit key.
 * Nothing outside this file links or unlinks a reader: joining (locked
 * add, or lock-free push), leaving (remove), and the grace period's sweep
 * of the list onto its private "done" list and back are the functions
 * below. The list helpers are this file's own.
 *
 * Invariants: a reader is on exactly one list while registered (between
 * atomic steps): the pushed stack (bp only), the registry list, or, for the
 * length of a grace period, that grace period's private "done" list (gp.c).
 * The lists only change under the lock (the stack's push aside), so
 * removing a reader works whichever list it is on. Only a holder of the
 * lock moves readers off the stack, and every holder finds it empty (the
 * lock absorbs it). The lock is only ever held for bounded work (never
 * across a sleep waiting for readers; gp.c drops it to sleep), which is
 * what lets threads register and unregister at any rate while grace periods
 * run, and lets fork() take it (lifecycle.c).
 *
 * The pushed stack (bp: a thread joins on its first rcu_read_lock(), maybe
 * in a signal handler that interrupted malloc() or a holder of this lock;
 * bp.c keeps its handlers out): registry_push() is a compare-and-swap
 * push, no lock, no allocation; registry_lock() takes the whole stack at
 * once with an exchange, so items are never popped one by one: no ABA
 * problem, and pushers never wait. Ordering (besides gp.c notes 1-5): a
 * grace period absorbs the stack when it takes the lock, before it
 * increments the counter. A reader pushed before that exchange is on the
 * list and is scanned as any other. A reader pushed after it read the
 * exchange's NULL (or a later value) with the acquire half of its CAS, so
 * the unlinks the updater made before synchronize_rcu() happen before that
 * reader's section: it cannot find what they removed, and the grace period
 * need not wait for it. Flavours that never push (FLAVOUR_JOINS_IMPLICITLY
 * 0) skip the exchange, so their lock costs what a mutex costs.
 *
 * The slot table (polled grace periods, gp.c note 8): each registered
 * reader also has a slot, registry_slots[r->poll_slot - 1], claimed and
 * cleared under the lock, which registry_poll_floor() reads with no lock.
 * A reader the table has no room for (more than REGISTRY_SLOTS) counts in
 * registry_unslotted, and while any is, polls prove nothing (the
 * callers fall back to locked grace periods). A pushed reader (bp) is not
 * in the table until a lock holder absorbs it, and while any is pushed,
 * polls prove nothing either. Ordering:
 * - A reader a poll misses was published after the poll's load of its slot
 *   (seq_cst store, then a seq_cst fence, before the thread reads the
 *   counter); the poll's counter increment comes before that load, so the
 *   reader's first snapshot is the new counter or a later one and does not
 *   hold the target up. (bp's push: its seq_cst CAS and the poll's seq_cst
 *   load of registry_pushed, with the membarrier between increment and
 *   load, give the same.)
 * - A reader leaving must not have its TLS freed while a poll reads it:
 *   registry_remove() raises registry_poll_pending (seq_cst), clears the
 *   slot, and waits until registry_poll_active is 0; a poll adds itself to
 *   registry_poll_active (seq_cst) and then backs out if it sees the flag.
 *   Of the poll's add and the remover's load of the count, the seq_cst
 *   order puts one first: if the add, the remover waits for the poll's
 *   release decrement (acquire); if the load, the poll sees the flag (or
 *   the slot already cleared) and never reads the reader. A poll looks at
 *   the flag before it adds itself too, so while a remover waits, new polls
 *   stay off the count (but for those that passed that first look just
 *   before the flag rose): the remover waits for polls already running,
 *   each scanning a bounded table, and the few that back out at once.
 *
 * The exit key: a thread that exits still registered would leave its
 * (freed) TLS on a list; the key's value is non-NULL exactly while the
 * thread is registered, and its destructor (lifecycle.c's, given at
 * start-up) unregisters it first.
 *
 * Relies on: internal.h (the flavour's names, reader_holds_up()), debug.c
 * (misuse report). Nothing else: the policy around joining and leaving
 * (QSBR online/offline, bp's signal mask) is thread.c's and bp.c's.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "internal.h"

_Thread_local struct rcu_reader_ self_reader RCU_TLS_MODEL_;

/* Sentinel of the registered readers; under registry_mutex. */
static struct rcu_reader_ registry_readers = READER_LIST_INIT(registry_readers);

static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Readers pushed since the lock was last taken (bp), linked through their
 * next. */
static RCU_ATOMIC_(struct rcu_reader_ *) registry_pushed;

/* The slot table polls read (see the top comment). Slots and
 * registry_slots_used are written under the lock; polls load them. */
#define REGISTRY_SLOTS 1024
static RCU_ATOMIC_(struct rcu_reader_ *) registry_slots[REGISTRY_SLOTS];
static RCU_ATOMIC_(uint32_t) registry_slots_used;
static RCU_ATOMIC_(uint32_t) registry_unslotted;
/* Polls scanning now; a remover waiting for them (under the lock). */
static RCU_ATOMIC_(uint32_t) registry_poll_active;
static RCU_ATOMIC_(uint32_t) registry_poll_pending;

/* Circular doubly linked lists of readers, with a sentinel. */
static inline void reader_list_init(struct rcu_reader_ *head)
{
	head->next = head;
	head->prev = head;
}

static inline bool reader_list_empty(const struct rcu_reader_ *head)
{
	return head->next == head;
}

static inline void reader_list_add_tail(struct rcu_reader_ *r,
					struct rcu_reader_ *head)
{
	r->prev = head->prev;
	r->next = head;
	head->prev->next = r;
	head->prev = r;
}

static inline void reader_list_del(struct rcu_reader_ *r)
{
	r->prev->next = r->next;
	r->next->prev = r->prev;
	r->next = r;
	r->prev = r;
}

/* Moves every reader of from to the tail of to; from ends empty. */
static inline void reader_list_splice_tail(struct rcu_reader_ *from,
					   struct rcu_reader_ *to)
{
	if (reader_list_empty(from))
		return;
	from->next->prev = to->prev;
	to->prev->next = from->next;
	from->prev->next = to;
	to->prev = from->prev;
	reader_list_init(from);
}

/* Under the lock: gives r (just put on the list) a slot, or counts it
 * unslotted. */
static void registry_slot_claim(struct rcu_reader_ *r)
{
	/* Relaxed: written only under the lock, which we hold. */
	uint32_t used = rcu_atomic_load(&registry_slots_used, memory_order_relaxed);
	uint32_t i;

	for (i = 0; i < used; i++)
		/* Relaxed: under the lock, as every store of a slot. */
		if (rcu_atomic_load(&registry_slots[i], memory_order_relaxed) == NULL)
			break;
	if (i == REGISTRY_SLOTS) {
		r->poll_slot = 0;
		/* Relaxed: polls only need to see it before the reader
		 * reads, which the fence below orders. */
		rcu_atomic_add(&registry_unslotted, 1, memory_order_relaxed);
	} else {
		if (i == used)
			/* Release: pairs with the acquire load of the bound
			 * in registry_poll_floor(): the slot is NULL or r
			 * when a poll reads it within the new bound. */
			rcu_atomic_store(&registry_slots_used, used + 1,
					 memory_order_release);
		r->poll_slot = i + 1;
		/* Seq_cst: pairs with the seq_cst load of the slot in
		 * registry_poll_floor() (see the top comment). */
		rcu_atomic_store(&registry_slots[i], r, memory_order_seq_cst);
	}
	/* Orders the publication before the thread's first read of the
	 * counter; pairs with the seq_cst increment in gp_poll_advance()
	 * and the slot loads of registry_poll_floor() (top comment). */
	rcu_fence(memory_order_seq_cst);
}

/* Under the lock: takes r's slot away and waits until no poll can still
 * be reading r. */
static void registry_slot_release(struct rcu_reader_ *r)
{
	if (r->poll_slot == 0) {
		/* Relaxed: under the lock; polls only test it for nonzero. */
		rcu_atomic_sub(&registry_unslotted, 1, memory_order_relaxed);
		return;
	}
	/* Seq_cst: pairs with the poll's seq_cst add to
	 * registry_poll_active and load of this flag (top comment). */
	rcu_atomic_store(&registry_poll_pending, 1, memory_order_seq_cst);
	/* Relaxed: the flag keeps polls that start from now on away. */
	rcu_atomic_store(&registry_slots[r->poll_slot - 1], NULL,
			 memory_order_relaxed);
	r->poll_slot = 0;
	/* Seq_cst: a poll that added itself before is counted; acquire:
	 * pairs with its release decrement, after its last read of r. */
	while (rcu_atomic_load(&registry_poll_active, memory_order_seq_cst) != 0)
		rcu_cpu_relax();
	/* Release: pairs with the seq_cst load of the flag in
	 * registry_poll_floor(): a poll that sees 0 sees the cleared slot. */
	rcu_atomic_store(&registry_poll_pending, 0, memory_order_release);
}

uint64_t registry_poll_floor(void)
{
	uint64_t floor = UINT64_MAX;
	bool skipped = false;

	/* Relaxed: only keeps new polls off the count while a remover waits
	 * (the seq_cst load below decides). */
	if (rcu_atomic_load(&registry_poll_pending, memory_order_relaxed) != 0)
		return 0;
	/* Seq_cst: see the top comment (paired with registry_slot_release()). */
	rcu_atomic_add(&registry_poll_active, 1, memory_order_seq_cst);
	/* Seq_cst: the flag (top comment); the unslotted count and bp's
	 * pushed stack (seq_cst: pairs with the CAS in registry_push()). */
	if (rcu_atomic_load(&registry_poll_pending, memory_order_seq_cst) != 0 ||
	    rcu_atomic_load(&registry_unslotted, memory_order_seq_cst) != 0 ||
	    (FLAVOUR_JOINS_IMPLICITLY &&
	     rcu_atomic_load(&registry_pushed, memory_order_seq_cst) != NULL))
		floor = 0;
	/* Acquire: pairs with the release store of the bound in
	 * registry_slot_claim(). */
	uint32_t used = rcu_atomic_load(&registry_slots_used, memory_order_acquire);

	for (uint32_t i = 0; floor != 0 && i < used; i++) {
		/* Seq_cst: pairs with the seq_cst store in
		 * registry_slot_claim() (top comment). */
		struct rcu_reader_ *r = rcu_atomic_load(&registry_slots[i],
							memory_order_seq_cst);
		uint64_t c;

		if (r == NULL)
			continue;
		/* Acquire: pairs with the release stores of the slot in
		 * read_unlock, quiescent_state and thread_offline (gp.c
		 * note 4). */
		c = rcu_atomic_load(&r->ctr, memory_order_acquire);
		if (c == 0 || c >= floor)
			continue;
		if (rcu_mutant(RCU_MUTANT_POLL_SKIPS_READER) && !skipped)
			skipped = true;
		else
			floor = c;
	}
	/* Release: our reads of the readers are done before a remover that
	 * sees the count drop frees one; pairs with its acquire load. */
	rcu_atomic_sub(&registry_poll_active, 1, memory_order_release);
	return floor;
}

void registry_push(struct rcu_reader_ *r)
{
	/* Relaxed: only the first guess; the CAS checks it. */
	struct rcu_reader_ *head = rcu_atomic_load(&registry_pushed,
						   memory_order_relaxed);

	do {
		r->next = head;
		/* (Seq_cst below also pairs with the seq_cst load of
		 * registry_pushed in registry_poll_floor().) */
		/* Release: publishes r->next; pairs with the acquire half of
		 * the exchange in registry_absorb_pushed(). Acquire: pairs with
		 * the release half of that exchange; a grace period that missed
		 * us made its caller's unlinks visible to our sections (see
		 * the top comment). Relaxed on failure: head is retried. */
	} while (!rcu_atomic_cas_weak(&registry_pushed, &head, r,
				      memory_order_seq_cst,
				      memory_order_relaxed));
	/* A plain store: the caller's handlers are kept out (bp.c), and no
	 * other thread reads it. */
	r->registered = true;
}

/* Under the lock: moves every pushed reader onto the list. */
static void registry_absorb_pushed(void)
{
	/* Acq_rel: pairs with the CAS in registry_push(), both ways (see
	 * there). */
	struct rcu_reader_ *r = rcu_atomic_xchg(&registry_pushed, NULL,
						memory_order_acq_rel);

	while (r != NULL) {
		struct rcu_reader_ *next = r->next;

		reader_list_add_tail(r, &registry_readers);
		registry_slot_claim(r);
		r = next;
	}
}

void registry_lock(void)
{
	pthread_mutex_lock(&registry_mutex);
	if (FLAVOUR_JOINS_IMPLICITLY)
		registry_absorb_pushed();
}

void registry_unlock(void)
{
	pthread_mutex_unlock(&registry_mutex);
}

void registry_add(struct rcu_reader_ *r)
{
	registry_lock();
	reader_list_add_tail(r, &registry_readers);
	registry_slot_claim(r);
	r->registered = true;
	registry_unlock();
}

void registry_remove(struct rcu_reader_ *r)
{
	registry_lock();
	reader_list_del(r);
	registry_slot_release(r);
	r->registered = false;
	registry_unlock();
}

bool registry_sweep(struct rcu_reader_ *done, uint64_t target)
{
	struct rcu_reader_ *r = registry_readers.next;

	while (r != &registry_readers) {
		struct rcu_reader_ *next = r->next;
		/* Acquire: pairs with the release stores of the slot in
		 * read_unlock, quiescent_state and thread_offline (gp.c
		 * note 4). */
		uint64_t c = rcu_atomic_load(&r->ctr, memory_order_acquire);

		if (!reader_holds_up(c, target)) {
			reader_list_del(r);
			reader_list_add_tail(r, done);
		}
		r = next;
	}
	return reader_list_empty(&registry_readers);
}

void registry_restore(struct rcu_reader_ *done)
{
	reader_list_splice_tail(done, &registry_readers);
}

bool registry_has_other(void)
{
	const struct rcu_reader_ *first = registry_readers.next;

	if (first == &registry_readers)
		return false;
	return first != &self_reader || first->next != &registry_readers;
}

unsigned long registry_count(void)
{
	unsigned long n = 0;

	registry_lock();
	for (const struct rcu_reader_ *r = registry_readers.next;
	     r != &registry_readers; r = r->next)
		n++;
	registry_unlock();
	return n;
}

/*
 * bp arms the exit hook from the first rcu_read_lock(), which may run in a
 * signal handler. glibc keeps the values of keys below 32
 * (PTHREAD_KEY_2NDLEVEL_SIZE) in the thread descriptor, so setting one is a
 * store, with no allocation and no lock; a constructor's key is one of the
 * first. Other C libraries (musl) keep every key in one per-thread array.
 */
#if FLAVOUR_JOINS_IMPLICITLY && defined(__GLIBC__)
static inline bool registry_key_signal_safe(pthread_key_t key)
{
	return key < 32;
}
#else
static inline bool registry_key_signal_safe(pthread_key_t key)
{
	(void)key;
	return true;
}
#endif

static pthread_key_t registry_exit_key;

void registry_exit_key_init(void (*on_exit)(void *))
{
	if (pthread_key_create(&registry_exit_key, on_exit) != 0)
		RCU_SYM_(misuse_)("init", "cannot create the thread-exit key");
	rcu_check_(!registry_key_signal_safe(registry_exit_key), "init",
		   "thread-exit key above 31: its first use may allocate");
}

void registry_arm_exit_hook(struct rcu_reader_ *r)
{
	(void)pthread_setspecific(registry_exit_key, r);
}

void registry_fork_prepare(void)
{
	registry_lock();
}

void registry_fork_parent(void)
{
	registry_unlock();
}

/*
 * The child has one thread, the forking one: drop every other reader (their
 * threads do not exist here) and any grace period's private list. The
 * stack is empty or holds only readers of threads that do not exist here
 * (registry_lock() in the prepare step absorbed the forking thread if it
 * was pushed); relaxed: no other thread exists.
 */
void registry_fork_child(void)
{
	rcu_atomic_store(&registry_pushed, NULL, memory_order_relaxed);
	reader_list_init(&registry_readers);
	for (uint32_t i = 0; i < REGISTRY_SLOTS; i++)
		rcu_atomic_store(&registry_slots[i], NULL, memory_order_relaxed);
	rcu_atomic_store(&registry_slots_used, 0, memory_order_relaxed);
	rcu_atomic_store(&registry_unslotted, 0, memory_order_relaxed);
	/* Polls of threads that do not exist here never end theirs. */
	rcu_atomic_store(&registry_poll_active, 0, memory_order_relaxed);
	rcu_atomic_store(&registry_poll_pending, 0, memory_order_relaxed);
	if (self_reader.registered) {
		reader_list_add_tail(&self_reader, &registry_readers);
		registry_slot_claim(&self_reader);
	}
	/* Locked by this very thread in registry_fork_prepare(). */
	registry_unlock();
}
