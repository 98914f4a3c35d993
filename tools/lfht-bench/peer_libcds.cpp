// SPDX-License-Identifier: MIT
//
// lfht-bench peer: libcds 2.3's SplitListMap (split-ordered list over a
// MichaelList, as lfht) on libcds's own general_buffered RCU, behind the
// bt_* interface (impl_extern.h).
//
// - A lookup (contains) holds an RCU read-side section, taken inside the
//   call; readers write only their own RCU record.
// - Sized up front: the constructor's item count fixes the largest bucket
//   count the list will use; the bucket table is segmented and allocates
//   a segment as its buckets are first used, and the bucket count follows
//   the item count up to that limit (load factor 1). A table made for N
//   keys is made for N items; one made for 1 (fill, autoread, pace,
//   memory: the tables that other implementations grow from one bucket)
//   for 2^22, the largest default key count. Measured here: a 2^16-key
//   table made for 2^22 items looks up at about half the rate of one made
//   for 2^16. There is no resize call: churn is refused (impl_libcds.h).
// - erase retires the node to the RCU's buffer (256 pointers); when the
//   buffer is full the erasing thread waits for a grace period and frees
//   them. add_replace is update(): the value is rewritten in place, as
//   SplitListMap offers no node replacement.
// - Every thread attaches to libcds's thread manager (bt_register), as
//   libcds requires of a thread that uses its RCU.
#include <cstdint>
#include <functional>
#include <mutex>

// The RCU first: the RCU containers' headers use its gc<> template.
#include <cds/init.h>
#include <cds/urcu/general_buffered.h>

#include <cds/container/michael_list_rcu.h>
#include <cds/container/split_list_map_rcu.h>

#include "peer.h"

namespace {

using rcu = cds::urcu::gc<cds::urcu::general_buffered<>>;

struct traits : public cds::container::split_list::traits {
	typedef cds::container::michael_list_tag ordered_list;
	typedef peer::hasher hash;
	struct ordered_list_traits : public cds::container::michael_list::traits {
		typedef std::less<std::uint64_t> less;
	};
};

using map = cds::container::SplitListMap<rcu, std::uint64_t, peer::value, traits>;

const unsigned long grown_items = 1UL << 22;

std::once_flag started;
rcu *the_rcu;

// libcds and its RCU singleton, once per process; never torn down (the
// process ends with the benchmark).
void start_libcds()
{
	cds::Initialize();
	the_rcu = new rcu();
}

} // namespace

struct bench_table : peer::table<map> { using table::table; };

extern "C" {

void bt_register(void)
{
	std::call_once(started, start_libcds);
	cds::threading::Manager::attachThread();
}

void bt_unregister(void)
{
	cds::threading::Manager::detachThread();
}

// Frees what the RCU buffer holds (after a grace period).
void bt_barrier(void)
{
	rcu::synchronize();
}

struct bench_table *bt_new(unsigned long init_size, int auto_resize)
{
	(void)auto_resize;
	return new bench_table(init_size > 1 ? init_size : grown_items);
}

int bt_destroy(struct bench_table *bt)
{
	delete bt;
	return 0;
}

int bt_lookup(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.contains(key);
}

// n lookups in one read-side section (contains() nests in it).
unsigned bt_lookup_batch(struct bench_table *bt, unsigned n, const std::uint64_t *keys)
{
	rcu::scoped_lock guard;

	return peer::lookup_each(bt, n, keys);
}

int bt_add_unique(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.insert(key, peer::value_of(key, 0));
}

// Inserts, or rewrites the value in place; returns 1 when the key was there.
int bt_add_replace(struct bench_table *bt, std::uint64_t key)
{
	std::pair<bool, bool> r = bt->m.update(key, [key](bool fresh, map::value_type &item) {
		(void)fresh;
		item.second = peer::value_of(key, 1);
	});

	return r.first && !r.second;
}

int bt_del(struct bench_table *bt, std::uint64_t key)
{
	return bt->m.erase(key);
}

// Unused: churn is refused.
void bt_resize(struct bench_table *, unsigned long)
{
	peer::refused();
}

} // extern "C"
