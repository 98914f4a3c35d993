// SPDX-License-Identifier: MIT
//
// uses_rcuds.cc - every inline and macro of the rcuds headers (ds/include),
// used once from C++. Compiled (not run) by check-headers.py for each C++
// compiler and standard, once per flavour (-DUSES_FLAVOUR_QSBR, _MEMB,
// _BP or _MB), so that a construct C++ rejects fails even where a plain
// #include does not expand it.
#if defined(USES_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#elif defined(USES_FLAVOUR_BP)
#include <rcu/bp.h>
#elif defined(USES_FLAVOUR_MB)
#include <rcu/mb.h>
#else
#include <rcu/memb.h>
#endif
#include <rcuds/futex.h>
#include <rcuds/rcuhlist.h>
#include <rcuds/rculist.h>
#include <rcuds/ref.h>

struct item {
	int key;
	cds_list_head link;
	cds_hlist_node hnode;
	urcu_ref ref;
};

namespace {

CDS_LIST_HEAD(list_a);
cds_list_head list_b = CDS_LIST_HEAD_INIT(list_b);
CDS_HLIST_HEAD(hlist_a);
cds_hlist_head hlist_b = CDS_HLIST_HEAD_INIT(hlist_b);
int released;

void release(urcu_ref *ref)
{
	released += caa_container_of(ref, item, ref)->key;
}

} // namespace

int uses_rcuds(item *x, item *y, item *z)
{
	cds_list_head *pos, *p;
	cds_hlist_node *hpos, *hp;
	item *it, *n;
	int sum = 0;

	CDS_INIT_LIST_HEAD(&list_b);
	cds_list_add(&x->link, &list_a);
	cds_list_add_tail(&y->link, &list_a);
	cds_list_move(&y->link, &list_b);
	cds_list_replace(&x->link, &z->link);
	cds_list_replace_init(&z->link, &x->link);
	cds_list_splice(&list_b, &list_a);
	cds_list_for_each(pos, &list_a) sum++;
	cds_list_for_each_prev(pos, &list_a) sum++;
	cds_list_for_each_safe(pos, p, &list_a) sum++;
	cds_list_for_each_prev_safe(pos, p, &list_a) sum++;
	cds_list_for_each_entry(it, &list_a, link) sum += it->key;
	cds_list_for_each_entry_reverse(it, &list_a, link) sum += it->key;
	cds_list_for_each_entry_safe(it, n, &list_a, link) sum += it->key;
	it = cds_list_first_entry(&list_a, item, link);
	cds_list_for_each_entry_safe_from(it, n, &list_a, link) sum += it->key;
	sum += cds_list_empty(&list_a);
	cds_list_del(&y->link);
	cds_list_del_init(&x->link);
	__cds_list_del(&list_a, &list_a);

	cds_list_add_rcu(&x->link, &list_a);
	cds_list_add_tail_rcu(&y->link, &list_a);
	cds_list_replace_rcu(&y->link, &z->link);
	cds_list_del_rcu(&x->link);
	rcu_read_lock();
	cds_list_for_each_rcu(pos, &list_a) sum++;
	cds_list_for_each_entry_rcu(it, &list_a, link) sum += it->key;
	rcu_read_unlock();

	CDS_INIT_HLIST_HEAD(&hlist_b);
	cds_hlist_add_head(&x->hnode, &hlist_a);
	cds_hlist_add_head_rcu(&y->hnode, &hlist_a);
	cds_hlist_for_each(hpos, &hlist_a) sum++;
	cds_hlist_for_each_safe(hpos, hp, &hlist_a) sum++;
	cds_hlist_for_each_entry(it, hpos, &hlist_a, hnode) sum += it->key;
	cds_hlist_for_each_entry_safe(it, hpos, hp, &hlist_a, hnode) sum += it->key;
	cds_hlist_for_each_entry_2(it, &hlist_a, hnode) sum += it->key;
	cds_hlist_for_each_entry_safe_2(it, n, &hlist_a, hnode) sum += it->key;
	rcu_read_lock();
	cds_hlist_for_each_rcu(hpos, &hlist_a) sum++;
	cds_hlist_for_each_entry_rcu(it, hpos, &hlist_a, hnode) sum += it->key;
	cds_hlist_for_each_entry_rcu_2(it, &hlist_a, hnode) sum += it->key;
	rcu_read_unlock();
	it = cds_hlist_entry_safe(hlist_a.next, item, hnode);
	sum += it ? cds_hlist_entry(&it->hnode, item, hnode)->key : 0;
	cds_hlist_del_rcu(&y->hnode);
	cds_hlist_del(&x->hnode);

	urcu_ref_init(&x->ref);
	urcu_ref_set(&x->ref, 2);
	urcu_ref_get(&x->ref);
	sum += urcu_ref_get_safe(&x->ref);
	sum += urcu_ref_get_unless_zero(&x->ref);
	urcu_ref_put(&x->ref, release);

	int32_t word = 0;
	sum += futex(&word, FUTEX_WAKE, 1, nullptr, nullptr, 0);
	sum += futex_async(&word, FUTEX_WAKE, 1, nullptr, nullptr, 0);
	sum += futex_noasync(&word, FUTEX_WAIT, 1, nullptr, nullptr, 0);
	return sum + released;
}
