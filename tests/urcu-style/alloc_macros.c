/* SPDX-License-Identifier: MIT */
/*
 * alloc_macros.c - every header of the layer (all_headers.h), or with
 * TEST_NATIVE_HEADERS every header of lfht, of the RCU core and of rcuds,
 * included after the unit has defined malloc, calloc, realloc, free and
 * aligned_alloc as function-like macros, as a unit under test does:
 *
 * - by default with libc's arities, each counting its calls and going on
 *   to libc's function (cmocka's UNIT_TESTING does this with its test
 *   allocators): a header that calls one of these names, a member of
 *   struct cds_lfht_alloc included, expands the macro;
 * - with TEST_ODD_ARITIES with other arities, which a header's call of one
 *   of these names cannot match: such a call stops the build.
 *
 * Then a table is made on the program's own allocator hooks (struct
 * cds_lfht_alloc through the layer, struct lfht_allocator natively),
 * grown through several bucket orders, emptied and destroyed, and an RCU
 * lock-free queue (which allocates its dummy nodes in the header) is used:
 * the hooks must have been called, for every allocation of the table and
 * every free, and the unit's macros never (the headers call libc's own
 * functions, or the hooks, as the program asked).
 */
#define _GNU_SOURCE
/* What a unit under test includes before its allocator macros (cmocka
 * wants the C library's headers first). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Calls through the unit's macros (no header calls the counting
 * functions: marked unused, or clang warns). */
static unsigned long nr_macro_calls;

#ifdef TEST_ODD_ARITIES
#define malloc(a, b) malloc_macro_expanded_
#define calloc(a) calloc_macro_expanded_
#define realloc(a, b, c) realloc_macro_expanded_
#define free(a, b) free_macro_expanded_
#define aligned_alloc(a, b, c) aligned_alloc_macro_expanded_
#define TEST_ARITIES "other arities"
#else
__attribute__((unused)) static void *counted_malloc_(size_t size) { nr_macro_calls++; return (malloc)(size); }
__attribute__((unused)) static void *counted_calloc_(size_t n, size_t size) { nr_macro_calls++; return (calloc)(n, size); }
__attribute__((unused)) static void *counted_realloc_(void *p, size_t size) { nr_macro_calls++; return (realloc)(p, size); }
__attribute__((unused)) static void counted_free_(void *p) { nr_macro_calls++; (free)(p); }
__attribute__((unused)) static void *counted_aligned_alloc_(size_t al, size_t size)
{
	nr_macro_calls++;
	return (aligned_alloc)(al, size);
}
#define malloc(size) counted_malloc_(size)
#define calloc(n, size) counted_calloc_(n, size)
#define realloc(p, size) counted_realloc_(p, size)
#define free(p) counted_free_(p)
#define aligned_alloc(al, size) counted_aligned_alloc_(al, size)
#define TEST_ARITIES "libc's arities"
#endif

#ifdef TEST_NATIVE_HEADERS
#include <rcu/memb.h>
#include <rcu/atomic.h>
#include <rcu/bp-prefixed.h>
#include <rcu/flavour-api.h>
#include <rcu/flavour.h>
#include <rcu/mb-prefixed.h>
#include <rcu/memb-prefixed.h>
#include <rcu/pointer.h>
#include <rcu/qsbr-prefixed.h>
#include <rcu/reader.h>
#include <lfht/extensions.h>
#include <lfht/lfht-exports.h>
#include <lfht/lfht-inline.h>
#include <lfht/lfht-word.h>
#include <lfht/lfht.h>
#include <rcuds/futex.h>
#include <rcuds/hlist.h>
#include <rcuds/internal.h>
#include <rcuds/lfstack.h>
#include <rcuds/list.h>
#include <rcuds/rcuhlist.h>
#include <rcuds/rculfqueue.h>
#include <rcuds/rculist.h>
#include <rcuds/ref.h>
#include <rcuds/wfcqueue.h>
#include <rcuds/wfstack.h>
#define TEST_HEADERS "lfht's, rcu's and rcuds' headers"
#define test_register() rcu_register_thread()
#define test_unregister() rcu_unregister_thread()
#define test_read_lock() rcu_read_lock()
#define test_read_unlock() rcu_read_unlock()
#define test_barrier() rcu_barrier()
#define test_call_rcu call_rcu
#else
#include "all_headers.h"
#define TEST_HEADERS "the layer's headers"
#define test_register() urcu_memb_register_thread()
#define test_unregister() urcu_memb_unregister_thread()
#define test_read_lock() urcu_memb_read_lock()
#define test_read_unlock() urcu_memb_read_unlock()
#define test_barrier() urcu_memb_barrier()
#define test_call_rcu urcu_memb_call_rcu
#endif

#define FAIL_UNLESS(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: [%s, %s] check failed: %s\n", \
				__FILE__, __LINE__, TEST_HEADERS, TEST_ARITIES, #cond); \
			exit(1);					\
		}							\
	} while (0)

/* Keys for a table resized from 1 bucket through several bucket orders
 * (no auto-resize: the resize below allocates them, on this thread). */
#define NR_KEYS 4096

struct item {
	struct cds_lfht_node node;
	unsigned long key;
	struct cds_lfq_node_rcu qnode;
};

/* The program's hooks: what they were asked for and gave back. */
static atomic_ulong nr_hook_allocs, nr_hook_frees;

static void *zeroed_aligned(size_t size)
{
	size_t rounded = (size + 15) & ~(size_t)15;
	void *p = (aligned_alloc)(16, rounded);

	if (p != NULL)
		memset(p, 0, rounded);
	return p;
}

static void count_alloc(void *p)
{
	if (p != NULL)
		atomic_fetch_add_explicit(&nr_hook_allocs, 1, memory_order_relaxed);
}

static void count_free(void *p)
{
	if (p != NULL)
		atomic_fetch_add_explicit(&nr_hook_frees, 1, memory_order_relaxed);
	(free)(p);
}

static int same_key(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key == *(const unsigned long *)key;
}

#ifdef TEST_NATIVE_HEADERS
static void *hook_zalloc(size_t size, void *ctx)
{
	void *p = zeroed_aligned(size);

	(void)ctx;
	count_alloc(p);
	return p;
}

static void hook_free(void *ptr, size_t size, void *ctx)
{
	(void)size;
	(void)ctx;
	count_free(ptr);
}

static const struct lfht_allocator hooks = {
	.zalloc = hook_zalloc, .free = hook_free, .ctx = NULL,
};

static struct cds_lfht *new_table(void)
{
	return lfht_new_with_allocator(1, 1, 0, 0, NULL, &hooks);
}
#else
static void *hook_malloc(void *state, size_t size)
{
	void *p = (malloc)(size);

	(void)state;
	count_alloc(p);
	return p;
}

static void *hook_calloc(void *state, size_t n, size_t size)
{
	void *p = (calloc)(n, size);

	(void)state;
	count_alloc(p);
	return p;
}

static void *hook_realloc(void *state, void *ptr, size_t size)
{
	(void)state;
	(void)ptr;
	(void)size;
	fprintf(stderr, "alloc_macros: realloc hook called: the table never resizes a block\n");
	exit(1);
}

static void *hook_aligned_alloc(void *state, size_t alignment, size_t size)
{
	void *p = alignment <= 16 ? zeroed_aligned(size) : (aligned_alloc)(alignment, size);

	(void)state;
	count_alloc(p);
	return p;
}

static void hook_free(void *state, void *ptr)
{
	(void)state;
	count_free(ptr);
}

static const struct cds_lfht_alloc hooks = {
	.malloc = hook_malloc, .calloc = hook_calloc, .realloc = hook_realloc,
	.aligned_alloc = hook_aligned_alloc, .free = hook_free, .state = NULL,
};

static struct cds_lfht *new_table(void)
{
	return cds_lfht_new_with_flavor_alloc(1, 1, 0, 0, &urcu_memb_flavor,
					      &hooks, NULL);
}
#endif

int main(void)
{
	static struct item items[NR_KEYS];
	struct cds_lfq_queue_rcu queue;
	struct cds_lfht_iter iter;
	struct cds_lfht *ht;
	unsigned long k, found = 0, dequeued = 0, allocs_before_resize;

	test_register();
	ht = new_table();
	FAIL_UNLESS(ht != NULL);
	FAIL_UNLESS(atomic_load_explicit(&nr_hook_allocs, memory_order_relaxed) > 0);
	for (k = 0; k < NR_KEYS; k++) {
		items[k].key = k;
		cds_lfht_node_init(&items[k].node);
		test_read_lock();
		cds_lfht_add(ht, k * 0x9E3779B97F4A7C15UL, &items[k].node);
		test_read_unlock();
	}
	/* Bucket tables of several more orders, from the hooks. */
	allocs_before_resize = atomic_load_explicit(&nr_hook_allocs, memory_order_relaxed);
	cds_lfht_resize(ht, NR_KEYS);
	FAIL_UNLESS(atomic_load_explicit(&nr_hook_allocs, memory_order_relaxed) >
		    allocs_before_resize);
	test_read_lock();
	for (k = 0; k < NR_KEYS; k++) {
		cds_lfht_lookup(ht, k * 0x9E3779B97F4A7C15UL, same_key, &k, &iter);
		if (cds_lfht_iter_get_node(&iter) == &items[k].node)
			found++;
	}
	for (k = 0; k < NR_KEYS; k++)
		FAIL_UNLESS(cds_lfht_del(ht, &items[k].node) == 0);
	test_read_unlock();
	FAIL_UNLESS(found == NR_KEYS);
	/* Readers are gone (this thread was the only one): the nodes are
	 * static, and destroy frees what the table holds through the hooks. */
	FAIL_UNLESS(cds_lfht_destroy(ht, NULL) == 0);
	FAIL_UNLESS(atomic_load_explicit(&nr_hook_frees, memory_order_relaxed) ==
		    atomic_load_explicit(&nr_hook_allocs, memory_order_relaxed));

	/* The RCU lock-free queue allocates and frees its dummies itself. */
	cds_lfq_init_rcu(&queue, test_call_rcu);
	for (k = 0; k < 64; k++) {
		cds_lfq_node_init_rcu(&items[k].qnode);
		test_read_lock();
		cds_lfq_enqueue_rcu(&queue, &items[k].qnode);
		test_read_unlock();
	}
	for (;;) {
		struct cds_lfq_node_rcu *qnode;

		test_read_lock();
		qnode = cds_lfq_dequeue_rcu(&queue);
		test_read_unlock();
		if (qnode == NULL)
			break;
		dequeued++;
	}
	FAIL_UNLESS(dequeued == 64);
	test_barrier();
	FAIL_UNLESS(cds_lfq_destroy_rcu(&queue) == 0);
	test_unregister();

	/* No header called the unit's allocator macros. */
	FAIL_UNLESS(nr_macro_calls == 0);
	printf("alloc_macros: %s, %s: ok (%lu hook allocations, all freed)\n", TEST_HEADERS,
	       TEST_ARITIES, atomic_load_explicit(&nr_hook_allocs, memory_order_relaxed));
	return 0;
}
