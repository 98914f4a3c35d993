/* SPDX-License-Identifier: MIT */
/*
 * docs/examples/queues.c - the queues and stacks of <rcuds/...>, as
 * docs/queues-and-stacks.md shows them: a work queue fed by several
 * threads (wfcqueue), a stack drained all at once (wfstack), a lock-free
 * stack (lfstack) and the RCU queue (rculfqueue) with its nodes freed by
 * call_rcu. Runs as a test (suite docs): exits 0 when every item came out
 * once, in order where the structure promises one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/memb.h>
#include <rcuds/lfstack.h>
#include <rcuds/rculfqueue.h>
#include <rcuds/wfcqueue.h>
#include <rcuds/wfstack.h>

#define PRODUCERS 3
#define PER_PRODUCER 1000

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "queues: %s\n", what);
		failures++;
	}
}

/* A job for the work queue. */
struct job {
	struct cds_wfcq_node node;
	int producer, seq;
};

static struct cds_wfcq_head jobs_head;
static struct cds_wfcq_tail jobs_tail;

static void *produce(void *arg)
{
	int id = *(int *)arg;

	for (int i = 0; i < PER_PRODUCER; i++) {
		struct job *job = malloc(sizeof(*job));

		if (job == NULL)
			abort();
		job->producer = id;
		job->seq = i;
		cds_wfcq_node_init(&job->node);
		cds_wfcq_enqueue(&jobs_head, &jobs_tail, &job->node);
	}
	return NULL;
}

static void work_queue(void)
{
	pthread_t threads[PRODUCERS];
	int ids[PRODUCERS], next[PRODUCERS] = { 0 }, done = 0;

	cds_wfcq_init(&jobs_head, &jobs_tail);
	for (int i = 0; i < PRODUCERS; i++) {
		ids[i] = i;
		pthread_create(&threads[i], NULL, produce, &ids[i]);
	}
	while (done < PRODUCERS * PER_PRODUCER) {
		struct cds_wfcq_node *node = cds_wfcq_dequeue_blocking(&jobs_head, &jobs_tail);
		struct job *job;

		if (node == NULL)
			continue;	/* empty for now: the producers are still at it */
		job = caa_container_of(node, struct job, node);
		/* Each producer's jobs come out in the order it queued them. */
		check(job->seq == next[job->producer]++, "work queue out of order");
		free(job);
		done++;
	}
	for (int i = 0; i < PRODUCERS; i++)
		pthread_join(threads[i], NULL);
	check(cds_wfcq_empty(&jobs_head, &jobs_tail), "work queue not empty");
	cds_wfcq_destroy(&jobs_head, &jobs_tail);
}

/* A wait-free stack of items drained in one step. */
struct item {
	struct cds_wfs_node node;
	int value;
};

static void drain_stack(void)
{
	struct cds_wfs_stack stack;
	struct cds_wfs_head *all;
	struct cds_wfs_node *node, *next;
	int expect = 9;

	cds_wfs_init(&stack);
	for (int i = 0; i < 10; i++) {
		struct item *item = malloc(sizeof(*item));

		if (item == NULL)
			abort();
		item->value = i;
		cds_wfs_node_init(&item->node);
		cds_wfs_push(&stack, &item->node);
	}
	all = cds_wfs_pop_all_blocking(&stack);
	cds_wfs_for_each_blocking_safe(all, node, next) {
		struct item *item = caa_container_of(node, struct item, node);

		check(item->value == expect--, "stack out of order");
		free(item);
	}
	check(expect == -1, "stack lost items");
	cds_wfs_destroy(&stack);
}

/* A lock-free stack used as a free list. */
struct buffer {
	struct cds_lfs_node node;
	char bytes[64];
};

static void free_list(void)
{
	struct cds_lfs_stack free_buffers;
	struct buffer pool[4];
	struct cds_lfs_node *node;
	int taken = 0;

	cds_lfs_init(&free_buffers);
	for (int i = 0; i < 4; i++) {
		cds_lfs_node_init(&pool[i].node);
		cds_lfs_push(&free_buffers, &pool[i].node);
	}
	while ((node = cds_lfs_pop_blocking(&free_buffers)) != NULL)
		taken++;
	check(taken == 4, "free list lost buffers");
	cds_lfs_destroy(&free_buffers);
}

/* The RCU queue: messages freed after a grace period. */
struct message {
	struct cds_lfq_node_rcu node;
	struct rcu_head rcu;
	int seq;
};

static void free_message(struct rcu_head *head)
{
	free(caa_container_of(head, struct message, rcu));
}

static void rcu_queue(void)
{
	struct cds_lfq_queue_rcu queue;
	struct cds_lfq_node_rcu *node;
	int expect = 0;

	cds_lfq_init_rcu(&queue, call_rcu);
	for (int i = 0; i < 10; i++) {
		struct message *msg = malloc(sizeof(*msg));

		if (msg == NULL)
			abort();
		msg->seq = i;
		cds_lfq_node_init_rcu(&msg->node);
		rcu_read_lock();
		cds_lfq_enqueue_rcu(&queue, &msg->node);
		rcu_read_unlock();
	}
	check(cds_lfq_destroy_rcu(&queue) == -EPERM, "destroy of a non-empty queue");
	for (;;) {
		struct message *msg;

		rcu_read_lock();
		node = cds_lfq_dequeue_rcu(&queue);
		rcu_read_unlock();
		if (node == NULL)
			break;
		msg = caa_container_of(node, struct message, node);
		check(msg->seq == expect++, "RCU queue out of order");
		/* Other threads may still read the node: free it later. */
		call_rcu(&msg->rcu, free_message);
	}
	check(expect == 10, "RCU queue lost messages");
	check(cds_lfq_destroy_rcu(&queue) == 0, "destroy of an empty queue");
	rcu_barrier();
}

int main(void)
{
	rcu_register_thread();
	work_queue();
	drain_stack();
	free_list();
	rcu_queue();
	rcu_unregister_thread();
	if (failures == 0)
		printf("queues: every item came out once, in order\n");
	return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
