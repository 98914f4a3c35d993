/* SPDX-License-Identifier: MIT */
/*
 * lfht/sync.c - the few blocking primitives of the resize side: a futex, a
 * lock that survives fork(), the resize gate, and waiting outside RCU.
 * Updates and lookups never use any of them.
 *
 * Owns the fork generation and the gate.
 *
 * - struct lfht_lock: a futex lock whose word records the fork generation
 *   of its holder. fork() copies a held lock into the child without the
 *   thread that holds it; the child's generation is one higher, so the
 *   first thread there to want the lock sees a holder of an older
 *   generation and takes it over. The resize work that holder left is in a
 *   state the gate makes consistent (below), and resize.c finishes it.
 * - The gate: a resizer holds it (shared) across each step that changes
 *   the list or the bucket tables (link one order, remove one order, free
 *   tables), never across a wait for readers or for a lock. fork() takes it
 *   exclusively (worker.c), so the child inherits the tables between two
 *   steps, never in the middle of one.
 *
 * Calls nothing of the table; the flavour's ops for going offline.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* Bumped in the child of every fork() (worker.c), single-threaded there. */
static _Atomic(uint32_t) fork_generation = 1;

/*
 * The gate: the number of resize steps under way, and GATE_CLOSED while a
 * fork() waits for them or runs. Not a pthread rwlock: the child must open
 * a gate that its forking thread closed under another thread id, which
 * glibc's rwlock does not allow. Closing comes first: a stream of resize
 * steps cannot starve fork().
 */
#define GATE_CLOSED 0x80000000U
static _Atomic(uint32_t) gate;

void lfht_futex_wait(_Atomic(uint32_t) *word, uint32_t expected, long timeout_ns)
{
	struct timespec ts = { timeout_ns / 1000000000L, timeout_ns % 1000000000L };

	/* Returns on a wake-up, a signal, a changed word or the timeout: every
	 * caller re-tests its condition. */
	(void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected,
		      timeout_ns > 0 ? &ts : NULL, NULL, 0);
}

void lfht_futex_wake(_Atomic(uint32_t) *word, int nr)
{
	(void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

/* Lock word: 0 free, else generation << 2 | 1 (held) or | 2 (held, and a
 * thread may sleep on it). */
void lfht_lock(struct lfht_lock *lock)
{
	/* Relaxed: changes only in a single-threaded fork child. */
	uint32_t gen = rcu_atomic_load(&fork_generation, memory_order_relaxed) << 2;
	uint32_t take = gen | 1;

	for (;;) {
		/* Relaxed: the CAS below validates what it read. */
		uint32_t word = rcu_atomic_load(&lock->word, memory_order_relaxed);

		if (word == 0 || (word & ~3U) != gen) {
			/* Free, or held by a thread that fork() left behind.
			 * Acquire: pairs with the release in lfht_unlock(), so
			 * the previous holder's writes are visible. */
			if (rcu_atomic_cas(&lock->word, &word, take, memory_order_acquire,
					   memory_order_relaxed))
				return;
			continue;
		}
		/* Relaxed: only announces a sleeper; ordering comes from the
		 * acquire above once the lock is taken. */
		if ((word & 3) == 1 &&
		    !rcu_atomic_cas(&lock->word, &word, gen | 2, memory_order_relaxed,
				    memory_order_relaxed))
			continue;
		lfht_futex_wait(&lock->word, gen | 2, 0);
		/* Others may sleep too: keep the "sleepers" mark when taking. */
		take = gen | 2;
	}
}

void lfht_unlock(struct lfht_lock *lock)
{
	/* Release: pairs with the acquire CAS in lfht_lock(). */
	if ((rcu_atomic_xchg(&lock->word, 0, memory_order_release) & 3) == 2)
		lfht_futex_wake(&lock->word, 1);
}

void lfht_gate_enter(void)
{
	/* Relaxed: the CAS validates it. */
	uint32_t word = rcu_atomic_load(&gate, memory_order_relaxed);

	for (;;) {
		if (word & GATE_CLOSED) {
			lfht_futex_wait(&gate, word, 0);
			/* Relaxed: as above. */
			word = rcu_atomic_load(&gate, memory_order_relaxed);
			continue;
		}
		/* Acquire: pairs with the release in lfht_gate_open_after_fork()
		 * (nothing is handed over; it keeps the step after the fork).
		 * Relaxed on failure: retried. */
		if (rcu_atomic_cas(&gate, &word, word + 1, memory_order_acquire,
				   memory_order_relaxed))
			return;
	}
}

void lfht_gate_leave(void)
{
	/* Release: the step's writes come before the fork that waits for the
	 * count to drop; pairs with the acquire loads in
	 * lfht_gate_close_for_fork(). */
	if (rcu_atomic_sub(&gate, 1, memory_order_release) == (GATE_CLOSED | 1))
		lfht_futex_wake(&gate, 1);
}

void lfht_gate_close_for_fork(void)
{
	/* Acquire: pairs with the release in lfht_gate_leave() of a step
	 * that ended before; the fork handlers' workers_mutex (worker.c)
	 * serialises closers. */
	uint32_t word = rcu_atomic_or(&gate, GATE_CLOSED, memory_order_acquire) | GATE_CLOSED;

	while (word != GATE_CLOSED) {
		lfht_futex_wait(&gate, word, 0);
		/* Acquire: pairs with the release in lfht_gate_leave(). */
		word = rcu_atomic_load(&gate, memory_order_acquire);
	}
}

void lfht_lock_fork_child(void)
{
	/* Relaxed: the child has one thread; threads it creates later are
	 * ordered after this by pthread_create. */
	rcu_atomic_add(&fork_generation, 1, memory_order_relaxed);
}

void lfht_gate_open_after_fork(void)
{
	/* Release: pairs with the acquire CAS in lfht_gate_enter(). No step
	 * ran while closed, so the count is 0 (in the child too). */
	rcu_atomic_store(&gate, 0, memory_order_release);
	lfht_futex_wake(&gate, INT32_MAX);
}

bool lfht_offline_begin(const struct rcu_flavour *f)
{
	/* QSBR: read_ongoing() is "online"; memb's offline is a no-op. */
	if (!f->read_ongoing())
		return false;
	f->thread_offline();
	return true;
}

void lfht_offline_end(const struct rcu_flavour *f, bool was_online)
{
	if (was_online)
		f->thread_online();
}

bool lfht_online_begin(const struct rcu_flavour *f)
{
	/* QSBR: read_ongoing() is "online"; memb: 0 outside a section, and
	 * its online is a no-op. */
	if (f->read_ongoing())
		return false;
	f->thread_online();
	return true;
}

void lfht_online_end(const struct rcu_flavour *f, bool went_online)
{
	if (went_online)
		f->thread_offline();
}

void lfht_wait_grace_period(const struct rcu_flavour *f)
{
	/* synchronize_rcu() goes offline for the wait by itself (QSBR) and
	 * leaves the caller as it found it. */
	f->synchronize_rcu();
}
