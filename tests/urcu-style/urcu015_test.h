/* SPDX-License-Identifier: MIT */
/*
 * urcu015_test.h - the body of urcu015_memb.c, urcu015_qsbr.c,
 * urcu015_bp.c and urcu015_mb.c: a program
 * written for liburcu 0.15 (its headers and names only), using what 0.14
 * and 0.15 added for programs of the hash table:
 *
 * - <urcu/assert.h>: urcu_posix_assert, urcu_assert_debug (which does not
 *   evaluate its argument without DEBUG_RCU);
 * - <urcu/annotate.h>: an acquire and a release annotation group around a
 *   message passed with fences, and the single-address annotations;
 * - <urcu/uatomic.h> with memory orders: every operation with and without
 *   its optional order, the _mo forms, exact results; message passing
 *   with CMM_RELEASE / CMM_ACQUIRE between two threads, and a counter
 *   shared by threads (CMM_RELAXED adds, exact total);
 * - <urcu/urcu-poll.h>: start_poll_synchronize_rcu() while a reader that
 *   began before it is inside its section is not done
 *   (poll_state_synchronize_rcu) as long as the reader stays, and is done
 *   once the reader left and a grace period passed; the same through the
 *   prefixed names (TEST_FL) and the flavour object;
 * - struct cds_lfht_alloc: two tables made with cds_lfht_new_with_flavor_alloc
 *   and _cds_lfht_new_with_alloc on a counting allocator (one whose calloc
 *   returns memory aligned to 8 only), grown by readers' and a writer's
 *   work, must have used it and, after cds_lfht_destroy, returned every
 *   block; cds_lfht_entry on hits and misses, cds_lfht_iter_get_node on a
 *   const iterator.
 *
 * The including file has included its flavour header and defined
 * TEST_FLAVOR (a string), TEST_FL(name) (the prefixed name) and, for QSBR,
 * TEST_QSBR. Exits 0 on success, 1 with a message on the first failed
 * check. Bounded: every wait gives up after WAIT_S seconds.
 */
#ifndef URCU015_TEST_H
#define URCU015_TEST_H

#include <urcu/assert.h>
#include <urcu/annotate.h>
#include <urcu/uatomic.h>
#include <urcu/urcu-poll.h>
#include <urcu/rculfhash.h>
#include <urcu/compiler.h>
#include "test_check.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NR_READERS	2
#define NR_KEYS		4096UL
#define MIN_LOOKUPS	20000UL
#define WAIT_S		10.0
/* How long a poll that must not be done is watched. */
#define HOLD_S		0.05


#ifdef TEST_QSBR
#define test_quiescent()	rcu_quiescent_state()
#else
#define test_quiescent()	do { } while (0)
#endif

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- <urcu/assert.h> ----------------------------------------------------- */

static void check_assert(void)
{
	int evaluated = 0;

	urcu_posix_assert(evaluated == 0);
#if !defined(DEBUG_RCU) && !defined(CONFIG_RCU_DEBUG)
	/* Off: type-checked, never evaluated. */
	urcu_assert_debug(++evaluated > 0);
	CHECK(evaluated == 0);
#endif
	urcu_assert_debug(evaluated == 0);
}

/* ---- <urcu/uatomic.h> with memory orders ---------------------------------- */

static void check_uatomic_orders(void)
{
	unsigned long v = 0;
	int i = 5;
	enum cmm_memorder mo = CMM_ACQ_REL;	/* an order held in a variable */

	uatomic_store(&v, 10, CMM_RELEASE);
	CHECK(uatomic_load(&v, CMM_ACQUIRE) == 10);
	uatomic_set(&v, 11, CMM_RELAXED);
	CHECK(uatomic_read(&v, CMM_CONSUME) == 11);
	uatomic_store(&v, 12);
	CHECK(uatomic_load(&v) == 12);
	CHECK(uatomic_load(&v, CMM_SEQ_CST_FENCE) == 12);
	uatomic_store(&v, 13, CMM_SEQ_CST);
	CHECK(uatomic_add_return(&v, 2, CMM_RELAXED) == 15);
	CHECK(uatomic_sub_return(&v, 5, CMM_SEQ_CST_FENCE) == 10);
	CHECK(uatomic_add_return(&v, 1) == 11);
	CHECK(uatomic_xchg(&v, 20, CMM_ACQ_REL) == 11);
	CHECK(uatomic_xchg(&v, 21) == 20);
	/* cmpxchg: the value seen; one order (failure relaxed), two, none. */
	CHECK(uatomic_cmpxchg(&v, 21, 22, CMM_SEQ_CST) == 21);
	CHECK(uatomic_cmpxchg(&v, 99, 23, CMM_ACQ_REL, CMM_ACQUIRE) == 22);
	CHECK(uatomic_cmpxchg(&v, 22, 24) == 22 && uatomic_load(&v) == 24);
	CHECK(uatomic_cmpxchg(&v, 24, 25, mo, CMM_RELAXED) == 24);
	uatomic_add(&v, 5, CMM_RELAXED);
	uatomic_sub(&v, 10, CMM_RELEASE);
	uatomic_inc(&v, CMM_SEQ_CST);
	uatomic_dec(&v, CMM_RELAXED);
	uatomic_inc(&v);
	CHECK(uatomic_load(&v) == 21);
	uatomic_and(&v, 0x11UL, CMM_RELAXED);
	uatomic_or(&v, 0x100UL, CMM_SEQ_CST_FENCE);
	uatomic_or(&v, 0x200UL);
	CHECK(uatomic_load(&v) == 0x311UL);
	/* The _mo forms take the order always. */
	uatomic_store_mo(&v, 1, CMM_RELAXED);
	CHECK(uatomic_load_mo(&v, CMM_ACQUIRE) == 1);
	CHECK(uatomic_add_return_mo(&v, 1, CMM_SEQ_CST_FENCE) == 2);
	CHECK(uatomic_sub_return_mo(&v, 1, CMM_RELAXED) == 1);
	CHECK(uatomic_xchg_mo(&v, 7, CMM_RELEASE) == 1);
	CHECK(uatomic_cmpxchg_mo(&v, 7, 8, CMM_SEQ_CST, CMM_SEQ_CST) == 7);
	uatomic_add_mo(&v, 2, CMM_RELAXED);
	uatomic_sub_mo(&v, 1, CMM_RELAXED);
	uatomic_inc_mo(&v, CMM_RELAXED);
	uatomic_dec_mo(&v, CMM_SEQ_CST);
	uatomic_and_mo(&v, 0xfUL, CMM_RELAXED);
	uatomic_or_mo(&v, 0x10UL, CMM_RELEASE);
	CHECK(uatomic_load(&v) == 0x19UL);
	/* Other widths, signed, pointers (in bytes, as liburcu). */
	CHECK(uatomic_add_return(&i, -7, CMM_RELAXED) == -2);
	{
		char buf[4];
		char *p = buf;

		CHECK(uatomic_xchg(&p, buf + 2, CMM_SEQ_CST) == buf);
		CHECK(uatomic_load(&p, CMM_ACQUIRE) == buf + 2);
	}
}

/* Message passing: a payload written relaxed, published by a release
 * store, read after an acquire load that saw the flag. Also the fence
 * form with the annotation groups (a relaxed flag between fences). */
struct message {
	unsigned long payload[4];
	int flag;
	int fenced_flag;
	unsigned long shared_count;
};

#define SHARED_ADDS 100000UL

static void *mp_sender(void *arg)
{
	struct message *m = (struct message *)arg;
	cmm_annotate_define(release_group);

	for (unsigned long j = 0; j < SHARED_ADDS; j++)
		uatomic_add(&m->shared_count, 1, CMM_RELAXED);
	for (int k = 0; k < 4; k++)
		uatomic_store(&m->payload[k], 0x1000UL + (unsigned long)k, CMM_RELAXED);
	uatomic_store(&m->flag, 1, CMM_RELEASE);
	cmm_smp_mb();
	cmm_annotate_group_mb_release(&release_group);
	cmm_annotate_group_mem_release(&release_group, &m->fenced_flag);
	uatomic_store(&m->fenced_flag, 1, CMM_RELAXED);
	return NULL;
}

static void check_message_passing(void)
{
	struct message m;
	pthread_t t;
	double end;
	cmm_annotate_define(acquire_group);

	memset(&m, 0, sizeof(m));
	CHECK(pthread_create(&t, NULL, mp_sender, &m) == 0);
	for (unsigned long j = 0; j < SHARED_ADDS; j++)
		uatomic_add(&m.shared_count, 1, CMM_RELAXED);
	end = now_s() + WAIT_S;
	while (uatomic_load(&m.flag, CMM_ACQUIRE) == 0)
		CHECK(now_s() < end);
	for (int k = 0; k < 4; k++)
		CHECK(uatomic_load(&m.payload[k], CMM_RELAXED) == 0x1000UL + (unsigned long)k);
	while (uatomic_load(&m.fenced_flag, CMM_RELAXED) == 0)
		CHECK(now_s() < end);
	cmm_annotate_group_mem_acquire(&acquire_group, &m.fenced_flag);
	cmm_smp_mb();
	cmm_annotate_group_mb_acquire(&acquire_group);
	CHECK(pthread_join(t, NULL) == 0);
	cmm_annotate_mem_acquire(&m.shared_count);
	CHECK(uatomic_load(&m.shared_count) == 2 * SHARED_ADDS);
	cmm_annotate_mem_release(&m.shared_count);
}

/* ---- polling grace periods ------------------------------------------------ */

struct holder {
	int inside;
	int release;
};

static void *holder_run(void *arg)
{
	struct holder *h = (struct holder *)arg;
	double end = now_s() + WAIT_S;

	rcu_register_thread();
	rcu_read_lock();
	uatomic_store(&h->inside, 1, CMM_RELEASE);
	while (uatomic_load(&h->release, CMM_ACQUIRE) == 0)
		CHECK(now_s() < end);
	rcu_read_unlock();
	test_quiescent();
	rcu_unregister_thread();
	return NULL;
}

enum poll_api { POLL_SHORT, POLL_PREFIXED, POLL_FLAVOR };

static struct urcu_gp_poll_state poll_start(enum poll_api api)
{
	switch (api) {
	case POLL_SHORT:
		return start_poll_synchronize_rcu();
	case POLL_PREFIXED:
		return TEST_FL(start_poll_synchronize_rcu)();
	default:
		return rcu_flavor.update_start_poll_synchronize_rcu();
	}
}

static bool poll_done(enum poll_api api, struct urcu_gp_poll_state s)
{
	switch (api) {
	case POLL_SHORT:
		return poll_state_synchronize_rcu(s);
	case POLL_PREFIXED:
		return TEST_FL(poll_state_synchronize_rcu)(s);
	default:
		return rcu_flavor.update_poll_state_synchronize_rcu(s);
	}
}

/* The calling thread is registered; QSBR: online. */
static void check_poll(enum poll_api api)
{
	struct holder h = { 0, 0 };
	struct urcu_gp_poll_state s;
	pthread_t t;
	double end;

	CHECK(pthread_create(&t, NULL, holder_run, &h) == 0);
	end = now_s() + WAIT_S;
	while (uatomic_load(&h.inside, CMM_ACQUIRE) == 0)
		CHECK(now_s() < end);
	s = poll_start(api);
	/* QSBR: offline, or this thread would hold the grace period up. */
	rcu_thread_offline();
	end = now_s() + HOLD_S;
	while (now_s() < end)
		CHECK(!poll_done(api, s));
	uatomic_store(&h.release, 1, CMM_RELEASE);
	CHECK(pthread_join(t, NULL) == 0);
	synchronize_rcu();
#ifdef LFHT_URCU_COMPAT
	/* lfht: the synchronize_rcu() covered the start. */
	CHECK(poll_done(api, s));
#endif
	/* liburcu: the grace period the start asked for (a call_rcu
	 * callback) has ended once rcu_barrier() returns. */
	rcu_barrier();
	CHECK(poll_done(api, s));
	rcu_thread_online();
	/* A second start, with nobody in the way: done within the bound
	 * without this thread doing anything but waiting (offline). */
	s = poll_start(api);
	rcu_thread_offline();
	end = now_s() + WAIT_S;
	while (!poll_done(api, s))
		CHECK(now_s() < end);
	rcu_thread_online();
}

/* ---- tables on a struct cds_lfht_alloc ------------------------------------ */

/*
 * A counting allocator. Each block has a header (the raw block, its size)
 * right before the pointer returned; calloc returns pointers that are
 * 8 mod 16 when misalign_calloc is set (still good for 8-byte alignment).
 */
struct test_alloc {
	unsigned long allocs, frees, aligned_allocs;
	int misalign_calloc;
};

struct block_header {
	void *raw;
	size_t size;
};

static void *block_new(size_t size, size_t align, size_t offset)
{
	size_t lead = align < sizeof(struct block_header) ? sizeof(struct block_header) : align;
	size_t total = (lead + offset + size + align - 1) / align * align;
	char *raw = (char *)aligned_alloc(align, total);
	char *p;

	if (raw == NULL)
		return NULL;
	p = raw + lead + offset;
	((struct block_header *)(void *)p)[-1].raw = raw;
	((struct block_header *)(void *)p)[-1].size = size;
	return p;
}

static void *ta_malloc(void *state, size_t size)
{
	struct test_alloc *ta = (struct test_alloc *)state;

	uatomic_inc(&ta->allocs, CMM_RELAXED);
	return block_new(size, 16, 0);
}

static void *ta_calloc(void *state, size_t nmemb, size_t size)
{
	struct test_alloc *ta = (struct test_alloc *)state;
	void *p;

	uatomic_inc(&ta->allocs, CMM_RELAXED);
	p = block_new(nmemb * size, 16, ta->misalign_calloc ? 8 : 0);
	if (p != NULL)
		memset(p, 0, nmemb * size);
	return p;
}

static void *ta_aligned_alloc(void *state, size_t alignment, size_t size)
{
	struct test_alloc *ta = (struct test_alloc *)state;

	uatomic_inc(&ta->allocs, CMM_RELAXED);
	uatomic_inc(&ta->aligned_allocs, CMM_RELAXED);
	return block_new(size, alignment < 16 ? 16 : alignment, 0);
}

static void ta_free(void *state, void *ptr)
{
	struct test_alloc *ta = (struct test_alloc *)state;

	if (ptr == NULL)
		return;
	uatomic_inc(&ta->frees, CMM_RELAXED);
	free(((struct block_header *)ptr)[-1].raw);
}

static void *ta_realloc(void *state, void *ptr, size_t size)
{
	void *n;

	if (ptr == NULL)
		return ta_malloc(state, size);
	n = ta_malloc(state, size);
	if (n != NULL) {
		size_t old = ((struct block_header *)ptr)[-1].size;

		memcpy(n, ptr, old < size ? old : size);
		ta_free(state, ptr);
	}
	return n;
}

struct entry {
	struct cds_lfht_node node;
	unsigned long key;
	struct rcu_head rcu;
};

static struct cds_lfht *table;
static int stop_readers;
static unsigned long lookups_done;

static unsigned long hash_key(unsigned long key)
{
	unsigned long long h = key * 0x9e3779b97f4a7c15ULL;

	return (unsigned long)(h ^ (h >> 29));
}

static int match_key(struct cds_lfht_node *node, const void *key)
{
	return cds_lfht_entry(node, struct entry, node)->key == *(const unsigned long *)key;
}

static void entry_free(struct rcu_head *head)
{
	free(caa_container_of(head, struct entry, rcu));
}

/* Looks key up; the entry (cds_lfht_entry) or NULL. Inside a section. */
static struct entry *lookup(unsigned long key)
{
	struct cds_lfht_iter iter;
	const struct cds_lfht_iter *citer = &iter;
	struct entry *e;

	cds_lfht_lookup(table, hash_key(key), match_key, &key, &iter);
	e = cds_lfht_entry(cds_lfht_iter_get_node(citer), struct entry, node);
	CHECK(e == NULL || e->key == key);
	return e;
}

static void *reader_run(void *arg)
{
	unsigned long key = (unsigned long)(size_t)arg;

	rcu_register_thread();
	while (!uatomic_load(&stop_readers, CMM_ACQUIRE)) {
		rcu_read_lock();
		(void)lookup(key % NR_KEYS);
		rcu_read_unlock();
		test_quiescent();
		key = key * 7 + 1;
		uatomic_inc(&lookups_done, CMM_RELAXED);
	}
	rcu_unregister_thread();
	return NULL;
}

/* Fills the table with the readers running, checks every key, empties it
 * by deletions freed with call_rcu. The calling thread is registered. */
static void exercise_table(void)
{
	pthread_t readers[NR_READERS];
	double end;

	uatomic_store(&stop_readers, 0);
	uatomic_store(&lookups_done, 0);
	for (unsigned long r = 0; r < NR_READERS; r++)
		CHECK(pthread_create(&readers[r], NULL, reader_run, (void *)(size_t)(r + 1)) == 0);
	for (unsigned long k = 0; k < NR_KEYS; k++) {
		struct entry *e = (struct entry *)calloc(1, sizeof(*e));

		CHECK(e != NULL);
		e->key = k;
		cds_lfht_node_init_deleted(&e->node);
		rcu_read_lock();
		CHECK(cds_lfht_add_unique(table, hash_key(k), match_key, &k, &e->node) == &e->node);
		rcu_read_unlock();
		test_quiescent();
	}
	rcu_read_lock();
	for (unsigned long k = 0; k < NR_KEYS; k++)
		CHECK(lookup(k) != NULL);
	CHECK(lookup(NR_KEYS + 1) == NULL);
	rcu_read_unlock();
	test_quiescent();
	for (unsigned long k = 0; k < NR_KEYS; k++) {
		struct entry *e;

		rcu_read_lock();
		e = lookup(k);
		CHECK(e != NULL && cds_lfht_del(table, &e->node) == 0);
		rcu_read_unlock();
		call_rcu(&e->rcu, entry_free);
		test_quiescent();
	}
	/* The readers did some work before they stop. */
	end = now_s() + WAIT_S;
	rcu_thread_offline();
	while (uatomic_load(&lookups_done) < MIN_LOOKUPS && now_s() < end)
		caa_cpu_relax();
	uatomic_store(&stop_readers, 1, CMM_RELEASE);
	for (int r = 0; r < NR_READERS; r++)
		CHECK(pthread_join(readers[r], NULL) == 0);
	rcu_barrier();
	rcu_thread_online();
	CHECK(uatomic_load(&lookups_done) >= MIN_LOOKUPS);
}

static void check_table_with_alloc(bool misalign, bool underscore)
{
	struct test_alloc ta;
	struct cds_lfht_alloc alloc;

	memset(&ta, 0, sizeof(ta));
	ta.misalign_calloc = misalign;
	alloc.malloc = ta_malloc;
	alloc.calloc = ta_calloc;
	alloc.realloc = ta_realloc;
	alloc.aligned_alloc = ta_aligned_alloc;
	alloc.free = ta_free;
	alloc.state = &ta;
	if (underscore)
		table = _cds_lfht_new_with_alloc(8, 8, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
						 &cds_lfht_mm_order, &rcu_flavor, &alloc, NULL);
	else
		table = cds_lfht_new_with_flavor_alloc(8, 8, 0, CDS_LFHT_AUTO_RESIZE,
						       &rcu_flavor, &alloc, NULL);
	CHECK(table != NULL);
	CHECK(uatomic_load(&ta.allocs) > 0);
	exercise_table();
	CHECK(cds_lfht_destroy(table, NULL) == 0);
	table = NULL;
	CHECK(uatomic_load(&ta.allocs) > 1);	/* grown */
	CHECK(uatomic_load(&ta.frees) == uatomic_load(&ta.allocs));
#ifdef LFHT_URCU_COMPAT
	/* lfht wants 16-byte alignment: misaligned calloc memory goes back,
	 * aligned_alloc serves instead. */
	CHECK(!misalign || uatomic_load(&ta.aligned_allocs) > 0);
#endif
	/* The default allocator: alloc NULL. */
	table = cds_lfht_new_with_flavor_alloc(8, 8, 0, 0, &rcu_flavor, NULL, NULL);
	CHECK(table != NULL);
	CHECK(cds_lfht_destroy(table, NULL) == 0);
	table = NULL;
}

int main(void)
{
	check_assert();
	check_uatomic_orders();
	check_message_passing();
	rcu_register_thread();
	check_poll(POLL_SHORT);
	check_poll(POLL_PREFIXED);
	check_poll(POLL_FLAVOR);
	check_table_with_alloc(false, false);
	check_table_with_alloc(true, true);
	rcu_unregister_thread();
	printf("urcu015 %s: ok\n", TEST_FLAVOR);
	return 0;
}

#endif /* URCU015_TEST_H */
