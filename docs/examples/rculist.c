/* SPDX-License-Identifier: MIT */
/*
 * rculist.c - an RCU-protected list of routes with reference counts,
 * quoted by docs/lists.md. Readers look a route up inside a read-side
 * section and take a reference with urcu_ref_get_unless_zero() to keep it
 * past the section; one writer at a time (a mutex) replaces and deletes
 * routes, and the last reference frees a route through call_rcu(). An
 * hlist of buckets indexes the same routes by destination.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <rcu/memb.h>
#include <rcuds/rcuhlist.h>
#include <rcuds/rculist.h>
#include <rcuds/ref.h>

enum { NR_READERS = 2, NR_LOOKUPS = 100000, NR_UPDATES = 300, NR_DESTS = 8, NR_BUCKETS = 4 };

struct route {
	int dest;
	int gateway;
	struct urcu_ref ref;		/* the list's reference plus the readers' */
	struct cds_list_head link;	/* in routes, in order of dest */
	struct cds_hlist_node bucket;	/* in buckets[dest % NR_BUCKETS] */
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(routes);
static struct cds_hlist_head buckets[NR_BUCKETS];
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;
static long freed;

static void free_route(struct rcu_head *head)
{
	free(caa_container_of(head, struct route, rcu));
	__atomic_add_fetch(&freed, 1, __ATOMIC_RELAXED);
}

/* The last reference is gone: free after a grace period, since a reader
 * may still be looking at the route (without a reference). */
static void release_route(struct urcu_ref *ref)
{
	call_rcu(&caa_container_of(ref, struct route, ref)->rcu, free_route);
}

static struct route *new_route(int dest, int gateway)
{
	struct route *r = malloc(sizeof(*r));

	if (r == NULL)
		abort();
	r->dest = dest;
	r->gateway = gateway;
	urcu_ref_init(&r->ref);		/* the list's reference */
	return r;
}

/* Finds dest's route and returns it with a reference, or NULL. */
static struct route *route_get(int dest)
{
	struct route *r, *found = NULL;

	rcu_read_lock();
	cds_hlist_for_each_entry_rcu_2(r, &buckets[dest % NR_BUCKETS], bucket) {
		if (r->dest == dest) {
			/* Fails once the last put has happened: the route is
			 * on its way out. */
			if (urcu_ref_get_unless_zero(&r->ref))
				found = r;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/* Replaces dest's route by a new one through gateway (writer). */
static void route_update(int dest, int gateway)
{
	struct route *old, *r = new_route(dest, gateway);

	pthread_mutex_lock(&update_lock);
	cds_list_for_each_entry(old, &routes, link) {
		if (old->dest == dest)
			break;
	}
	if (&old->link == &routes) {
		cds_list_add_tail_rcu(&r->link, &routes);
		cds_hlist_add_head_rcu(&r->bucket, &buckets[dest % NR_BUCKETS]);
		old = NULL;
	} else {
		cds_list_replace_rcu(&old->link, &r->link);
		cds_hlist_add_head_rcu(&r->bucket, &buckets[dest % NR_BUCKETS]);
		cds_hlist_del_rcu(&old->bucket);
	}
	pthread_mutex_unlock(&update_lock);
	if (old != NULL)
		urcu_ref_put(&old->ref, release_route);	/* the list's reference */
}

static void *reader(void *arg)
{
	long *hits = arg;

	rcu_register_thread();
	for (long i = 0; i < NR_LOOKUPS; i++) {
		struct route *r = route_get((int)(i % NR_DESTS));

		if (r != NULL) {
			/* The reference keeps r alive outside the section. */
			if (r->gateway >= 0)
				(*hits)++;
			urcu_ref_put(&r->ref, release_route);
		}
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t threads[NR_READERS];
	long hits[NR_READERS] = { 0 };
	struct route *r, *next;
	long total = 0;
	int count = 0;

	for (int b = 0; b < NR_BUCKETS; b++)
		CDS_INIT_HLIST_HEAD(&buckets[b]);
	for (int d = 0; d < NR_DESTS; d++)
		route_update(d, 0);
	for (int i = 0; i < NR_READERS; i++)
		pthread_create(&threads[i], NULL, reader, &hits[i]);
	for (int u = 1; u <= NR_UPDATES; u++)
		route_update(u % NR_DESTS, u);
	for (int i = 0; i < NR_READERS; i++) {
		pthread_join(threads[i], NULL);
		total += hits[i];
	}

	/* Walk the list in a read-side section, then empty it. */
	rcu_register_thread();
	rcu_read_lock();
	cds_list_for_each_entry_rcu(r, &routes, link)
		count++;
	rcu_read_unlock();
	pthread_mutex_lock(&update_lock);
	cds_list_for_each_entry_safe(r, next, &routes, link) {
		cds_list_del_rcu(&r->link);
		cds_hlist_del_rcu(&r->bucket);
		urcu_ref_put(&r->ref, release_route);
	}
	pthread_mutex_unlock(&update_lock);
	rcu_barrier();		/* every free_route() has run */
	rcu_unregister_thread();

	printf("%d routes, %ld lookups hit, %ld routes freed\n", count, total, freed);
	return count == NR_DESTS && total > 0 && freed == NR_DESTS + NR_UPDATES ? 0 : 1;
}
