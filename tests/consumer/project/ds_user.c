/* SPDX-License-Identifier: MIT */
/* ds_user.c - the consumer's program with rcuds: an RCU list read under
 * the memb flavour, and the wait-free queue. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include <rcu/memb.h>
#include <rcuds/rculist.h>
#include <rcuds/wfcqueue.h>

struct item {
	int value;
	struct cds_list_head link;
	struct cds_wfcq_node qnode;
};

int main(void)
{
	static CDS_LIST_HEAD(items);
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item it[3];
	struct item *pos;
	struct cds_wfcq_node *node;
	int sum = 0, order_ok = 1;

	rcu_register_thread();
	cds_wfcq_init(&head, &tail);
	for (int i = 0; i < 3; i++) {
		it[i].value = i + 1;
		cds_list_add_tail_rcu(&it[i].link, &items);
		cds_wfcq_node_init(&it[i].qnode);
		cds_wfcq_enqueue(&head, &tail, &it[i].qnode);
	}
	rcu_read_lock();
	cds_list_for_each_entry_rcu(pos, &items, link)
		sum += pos->value;
	rcu_read_unlock();
	for (int i = 0; i < 3; i++) {
		node = cds_wfcq_dequeue_blocking(&head, &tail);
		order_ok &= node == &it[i].qnode;
	}
	order_ok &= cds_wfcq_empty(&head, &tail);
	cds_wfcq_destroy(&head, &tail);
	rcu_unregister_thread();
	printf("ds-user: sum %d, FIFO %s\n", sum, order_ok ? "kept" : "broken");
	return sum == 6 && order_ok ? 0 : 1;
}
