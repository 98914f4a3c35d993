/* SPDX-License-Identifier: MIT */
/*
 * wrapped_names.c - a liburcu QSBR program that redefines the short names
 * over liburcu's own, as BIND 9.20 does to bring a thread online first:
 * rcu_read_lock, call_rcu and synchronize_rcu over the urcu_qsbr_* names,
 * and rcu_dereference over _rcu_dereference, each after #undef. In liburcu
 * the _rcu_ forms lie below the short names, so the wrapper reaches the
 * load; a layer whose _rcu_dereference expanded to rcu_dereference would
 * meet the wrapper again and leave a call to an undeclared function.
 * Built with _LGPL_SOURCE through the layer, and against liburcu where it
 * is installed.
 */
#define _GNU_SOURCE
/* liburcu declares the _rcu_ forms with _LGPL_SOURCE only. */
#define _LGPL_SOURCE
#include <stdlib.h>

#include <urcu-qsbr.h>
#include <urcu/pointer.h>

#define TEST_FLAVOR "qsbr"
#include "test_check.h"

static unsigned long nr_wrapped;

#define wrapped_online_first()				\
	do {						\
		if (!urcu_qsbr_read_ongoing())		\
			urcu_qsbr_thread_online();	\
		nr_wrapped++;				\
	} while (0)

#undef rcu_read_lock
#define rcu_read_lock()					\
	do {						\
		wrapped_online_first();			\
		urcu_qsbr_read_lock();			\
	} while (0)

#undef call_rcu
#define call_rcu(head, func)				\
	do {						\
		wrapped_online_first();			\
		urcu_qsbr_call_rcu(head, func);		\
	} while (0)

#undef synchronize_rcu
#define synchronize_rcu()				\
	do {						\
		wrapped_online_first();			\
		urcu_qsbr_synchronize_rcu();		\
	} while (0)

#undef rcu_dereference
#define rcu_dereference(p)				\
	__extension__ ({				\
		wrapped_online_first();			\
		_rcu_dereference(p);			\
	})

struct item {
	int value;
	struct rcu_head rcu;
};

static struct item *shared;
static int nr_freed;

static void free_item(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, rcu));
	nr_freed++;
}

int main(void)
{
	struct item *first = calloc(1, sizeof(*first)), *second = calloc(1, sizeof(*second));
	struct item *seen, *old;

	CHECK(first != NULL && second != NULL);
	first->value = 1;
	second->value = 2;
	rcu_register_thread();
	rcu_assign_pointer(shared, first);

	rcu_thread_offline();
	rcu_read_lock();
	seen = rcu_dereference(shared);
	CHECK(seen->value == 1);
	rcu_read_unlock();

	old = rcu_xchg_pointer(&shared, second);
	CHECK(old == first);
	synchronize_rcu();
	free(old);
	old = rcu_cmpxchg_pointer(&shared, second, NULL);
	CHECK(old == second);
	call_rcu(&second->rcu, free_item);
	rcu_barrier();
	CHECK(nr_freed == 1);
	CHECK(rcu_dereference(shared) == NULL);
	CHECK(nr_wrapped == 5);

	rcu_unregister_thread();
	printf("wrapped-names [qsbr]: rcu_read_lock, rcu_dereference, synchronize_rcu and "
	       "call_rcu redefined over urcu_qsbr_* and _rcu_dereference: %lu wrapped calls\n",
	       nr_wrapped);
	return 0;
}
