// SPDX-License-Identifier: MIT
//
// ds/tests/test_cxx.cc - the queues and stacks from C++11, memb flavour:
// both head and stack kinds through the overloads that stand in for C's
// transparent unions (as in liburcu 0.15), the iteration macros, and a
// std::thread producer against a consumer, every node taken once.
#include <check.h>

#include <cstdlib>
#include <thread>
#include <vector>

#include <rcu/memb.h>
#include <rcuds/lfstack.h>
#include <rcuds/rculfqueue.h>
#include <rcuds/wfcqueue.h>
#include <rcuds/wfstack.h>

struct elem {
	struct cds_wfcq_node qnode;
	struct cds_wfs_node wnode;
	struct cds_lfs_node lnode;
	struct cds_lfq_node_rcu fnode;
	int value;
};

START_TEST(both_queue_heads_go_through_the_overloads)
{
	struct cds_wfcq_head h;
	struct __cds_wfcq_head uh;
	struct cds_wfcq_tail t, ut;
	struct cds_wfcq_node *n, *next;
	elem e[4];
	int state = 0, i = 0;

	cds_wfcq_init(&h, &t);
	__cds_wfcq_init(&uh, &ut);
	for (int k = 0; k < 4; k++) {
		e[k].value = k;
		cds_wfcq_node_init(&e[k].qnode);
		// The pointer itself (an overload), or the union built by hand.
		if (k % 2)
			ck_assert(cds_wfcq_enqueue(&h, &t, &e[k].qnode));
		else
			ck_assert(cds_wfcq_enqueue(cds_wfcq_head_cast(&h), &t, &e[k].qnode) == (k != 0));
	}
	ck_assert(!cds_wfcq_empty(&h, &t));
	ck_assert_int_eq(__cds_wfcq_splice_blocking(&uh, &ut, &h, &t), CDS_WFCQ_RET_DEST_EMPTY);
	ck_assert(cds_wfcq_empty(&h, &t));
	__cds_wfcq_for_each_blocking(&uh, &ut, n)
		ck_assert_int_eq(caa_container_of(n, elem, qnode)->value, i++);
	ck_assert_int_eq(i, 4);
	ck_assert_ptr_eq(__cds_wfcq_first_nonblocking(&uh, &ut), &e[0].qnode);
	ck_assert_ptr_eq(__cds_wfcq_next_nonblocking(&uh, &ut, &e[0].qnode), &e[1].qnode);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&uh, &ut), &e[0].qnode);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_blocking(&uh, &ut, &state), &e[1].qnode);
	ck_assert_int_eq(__cds_wfcq_splice_nonblocking(&h, &t, &uh, &ut), CDS_WFCQ_RET_DEST_EMPTY);
	i = 2;
	__cds_wfcq_for_each_blocking_safe(&h, &t, n, next)
		ck_assert_int_eq(caa_container_of(n, elem, qnode)->value, i++);
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&h, &t), &e[2].qnode);
	ck_assert_ptr_eq(cds_wfcq_dequeue_with_state_blocking(&h, &t, &state), &e[3].qnode);
	ck_assert_int_eq(state, CDS_WFCQ_STATE_LAST);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_nonblocking(&h, &t, &state), NULL);
	cds_wfcq_destroy(&h, &t);
}
END_TEST

START_TEST(both_stack_kinds_go_through_the_overloads)
{
	struct cds_wfs_stack ws;
	struct __cds_wfs_stack uws;
	struct cds_lfs_stack ls;
	struct __cds_lfs_stack uls;
	struct cds_wfs_node *wn;
	struct cds_lfs_node *ln;
	elem e[3];
	int i = 2;

	cds_wfs_init(&ws);
	__cds_wfs_init(&uws);
	cds_lfs_init(&ls);
	__cds_lfs_init(&uls);
	for (int k = 0; k < 3; k++) {
		e[k].value = k;
		cds_wfs_node_init(&e[k].wnode);
		cds_lfs_node_init(&e[k].lnode);
		ck_assert_int_eq(cds_wfs_push(&uws, &e[k].wnode), k != 0);
		ck_assert(cds_lfs_push(&uls, &e[k].lnode) == (k != 0));
	}
	ck_assert(!cds_wfs_empty(&uws) && !cds_lfs_empty(&uls));
	ck_assert(cds_wfs_empty(&ws) && cds_lfs_empty(&ls));
	ck_assert_ptr_eq(__cds_wfs_pop_nonblocking(&uws), &e[2].wnode);
	ck_assert_ptr_eq(__cds_lfs_pop(&uls), &e[2].lnode);
	cds_wfs_for_each_blocking(__cds_wfs_pop_all(&uws), wn)
		ck_assert_int_eq(caa_container_of(wn, elem, wnode)->value, --i);
	i = 2;
	cds_lfs_for_each(__cds_lfs_pop_all(&uls), ln)
		ck_assert_int_eq(caa_container_of(ln, elem, lnode)->value, --i);
	cds_wfs_node_init(&e[0].wnode);
	ck_assert_int_eq(cds_wfs_push(&ws, &e[0].wnode), 0);
	ck_assert_ptr_eq(__cds_wfs_pop_blocking(&ws), &e[0].wnode);
	ck_assert_ptr_eq(cds_wfs_pop_blocking(&ws), NULL);
	ck_assert(!cds_lfs_push(&ls, &e[0].lnode));
	ck_assert_ptr_eq(cds_lfs_pop_blocking(&ls), &e[0].lnode);
	cds_wfs_destroy(&ws);
	cds_lfs_destroy(&ls);
}
END_TEST

START_TEST(a_thread_producer_and_the_rcu_queue_hand_over_every_node_once)
{
	const int n = 20000;
	std::vector<elem> elems(n);
	struct cds_wfcq_head h;
	struct cds_wfcq_tail t;
	struct cds_lfq_queue_rcu q;
	std::vector<int> seen(n, 0);
	int taken = 0;

	rcu_register_thread();
	cds_wfcq_init(&h, &t);
	cds_lfq_init_rcu(&q, call_rcu);
	std::thread producer([&] {
		for (int i = 0; i < n; i++) {
			elems[i].value = i;
			cds_wfcq_node_init(&elems[i].qnode);
			cds_wfcq_enqueue(&h, &t, &elems[i].qnode);
		}
	});
	// Each node from the wait-free queue goes through the RCU queue.
	while (taken < n) {
		struct cds_wfcq_node *node = cds_wfcq_dequeue_blocking(&h, &t);

		if (node == NULL) {
			std::this_thread::yield();
			continue;
		}
		elem *e = caa_container_of(node, elem, qnode);
		ck_assert_int_eq(e->value, taken);
		cds_lfq_node_init_rcu(&e->fnode);
		rcu_read_lock();
		cds_lfq_enqueue_rcu(&q, &e->fnode);
		struct cds_lfq_node_rcu *f = cds_lfq_dequeue_rcu(&q);
		rcu_read_unlock();
		ck_assert_ptr_eq(f, &e->fnode);
		seen[caa_container_of(f, elem, fnode)->value]++;
		taken++;
	}
	producer.join();
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(seen[i], 1);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
	cds_wfcq_destroy(&h, &t);
	synchronize_rcu();
	rcu_barrier();
	rcu_unregister_thread();
}
END_TEST

int main()
{
	Suite *s = suite_create("rcuds-cxx");
	TCase *tc = tcase_create("cxx");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, both_queue_heads_go_through_the_overloads);
	tcase_add_test(tc, both_stack_kinds_go_through_the_overloads);
	tcase_add_test(tc, a_thread_producer_and_the_rcu_queue_hand_over_every_node_once);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
