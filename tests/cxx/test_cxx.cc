// SPDX-License-Identifier: MIT
//
// test_cxx.cc - lfht from C++: the same table and RCU calls as the C
// suites, compiled as C++ (std::thread workers, nullptr, static_cast) to
// show that the headers' inline fast paths and macros work there. Built
// once per flavour (-DTEST_FLAVOUR_QSBR / _MEMB / _BP / _MB), suite named
// after it.
#if defined(TEST_FLAVOUR_QSBR)
#include <rcu/qsbr.h>
#define FLAVOUR_NAME "qsbr"
#elif defined(TEST_FLAVOUR_BP)
#include <rcu/bp.h>
#define FLAVOUR_NAME "bp"
#elif defined(TEST_FLAVOUR_MB)
#include <rcu/mb.h>
#define FLAVOUR_NAME "mb"
#else
#include <rcu/memb.h>
#define FLAVOUR_NAME "memb"
#endif
#include <lfht/lfht.h>
#include <lfht/extensions.h>

#include <check.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

// A reader's point where it holds no RCU pointer: QSBR must say so.
// A QSBR thread that blocks (joining workers) must go offline so that it
// delays no grace period meanwhile.
#if defined(TEST_FLAVOUR_QSBR)
void reader_quiescent() { rcu_quiescent_state(); }
void join_offline(std::vector<std::thread> &threads)
{
	rcu_thread_offline();
	for (std::thread &t : threads)
		t.join();
	rcu_thread_online();
}
#else
void reader_quiescent() {}
void join_offline(std::vector<std::thread> &threads)
{
	for (std::thread &t : threads)
		t.join();
}
#endif

struct entry {
	long key;
	cds_lfht_node node;
	rcu_head rcu;
};

unsigned long hash_key(long key)
{
	std::uint64_t x = static_cast<std::uint64_t>(key);

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return static_cast<unsigned long>(x);
}

int match_key(cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, entry, node)->key == *static_cast<const long *>(key);
}

entry *new_entry(long key)
{
	entry *e = new entry();

	e->key = key;
	cds_lfht_node_init(&e->node);
	return e;
}

void free_entry(rcu_head *head)
{
	delete caa_container_of(head, entry, rcu);
}

// Deletes every entry and destroys the table (single-threaded by then).
void empty_and_destroy(cds_lfht *ht)
{
	cds_lfht_iter iter;
	entry *pos;

	rcu_read_lock();
	cds_lfht_for_each_entry(ht, &iter, pos, node) {
		ck_assert_int_eq(cds_lfht_del(ht, &pos->node), 0);
		call_rcu(&pos->rcu, free_entry);
	}
	rcu_read_unlock();
	rcu_barrier();
	ck_assert_int_eq(cds_lfht_destroy(ht, nullptr), 0);
}

enum { STABLE_KEYS = 512, WRITER_ROUNDS = 4000, READER_ROUNDS = 20000 };

START_TEST(cxx_threads_share_a_table)
{
	cds_lfht *ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				    nullptr);
	std::atomic<long> adds{0}, dels{0}, hits{0}, walked{0};
	std::vector<std::thread> threads;

	ck_assert_ptr_nonnull(ht);
	rcu_register_thread();
	rcu_read_lock();
	for (long k = 0; k < STABLE_KEYS; k++) {
		entry *e = new_entry(k);

		ck_assert_ptr_eq(cds_lfht_add_unique(ht, hash_key(k), match_key, &e->key,
						     &e->node), &e->node);
	}
	rcu_read_unlock();

	// Writers churn keys of their own range; the stable keys stay.
	for (long w = 1; w <= 2; w++)
		threads.emplace_back([ht, w, &adds, &dels] {
			rcu_register_thread();
			for (long i = 0; i < WRITER_ROUNDS; i++) {
				long key = w * 1000000 + i % 64;
				entry *e = new_entry(key);
				cds_lfht_iter iter;

				rcu_read_lock();
				if (cds_lfht_add_unique(ht, hash_key(key), match_key, &e->key,
							&e->node) == &e->node)
					adds.fetch_add(1, std::memory_order_relaxed);
				else
					delete e;
				cds_lfht_lookup(ht, hash_key(key), match_key, &key, &iter);
				cds_lfht_node *found = cds_lfht_iter_get_node(&iter);
				if (found != nullptr && cds_lfht_del(ht, found) == 0) {
					dels.fetch_add(1, std::memory_order_relaxed);
					call_rcu(&caa_container_of(found, entry, node)->rcu,
						 free_entry);
				}
				rcu_read_unlock();
				reader_quiescent();
			}
			rcu_unregister_thread();
		});
	// Readers must find every stable key, whatever the writers and the
	// resizes they cause are doing.
	for (long r = 0; r < 2; r++)
		threads.emplace_back([ht, r, &hits, &walked] {
			rcu_register_thread();
			for (long i = 0; i < READER_ROUNDS; i++) {
				long key = (i * 7 + r) % STABLE_KEYS;
				cds_lfht_iter iter;

				rcu_read_lock();
				cds_lfht_lookup(ht, hash_key(key), match_key, &key, &iter);
				if (cds_lfht_iter_get_node(&iter) != nullptr)
					hits.fetch_add(1, std::memory_order_relaxed);
				if (i % 1000 == 0) {
					entry *pos;
					long n = 0;

					cds_lfht_for_each_entry(ht, &iter, pos, node)
						n += pos->key < STABLE_KEYS;
					walked.fetch_add(n, std::memory_order_relaxed);
				}
				rcu_read_unlock();
				reader_quiescent();
			}
			rcu_unregister_thread();
		});
	join_offline(threads);

	ck_assert_int_eq(hits.load(), 2L * READER_ROUNDS);
	ck_assert_int_eq(walked.load(), 2L * (READER_ROUNDS / 1000) * STABLE_KEYS);
	ck_assert_int_gt(adds.load(), 0);
	ck_assert_int_eq(adds.load(), dels.load());

	long before, after;
	unsigned long count;

	rcu_read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	rcu_read_unlock();
	ck_assert_uint_eq(count, STABLE_KEYS);
	empty_and_destroy(ht);
	rcu_unregister_thread();
}
END_TEST

START_TEST(cxx_batch_lookup_matches_single_lookups)
{
	enum { KEYS = 300 };
	cds_lfht *ht = cds_lfht_new(16, 1, 0, 0, nullptr);
	unsigned long hashes[KEYS];
	long keys[KEYS];
	const void *key_ptrs[KEYS];
	cds_lfht_iter batch[KEYS];

	ck_assert_ptr_nonnull(ht);
	rcu_register_thread();
	rcu_read_lock();
	for (long k = 0; k < KEYS; k += 2) {
		entry *e = new_entry(k);

		cds_lfht_add(ht, hash_key(k), &e->node);
	}
	for (long i = 0; i < KEYS; i++) {
		keys[i] = i;
		hashes[i] = hash_key(i);
		key_ptrs[i] = &keys[i];
	}
	lfht_lookup_batch(ht, KEYS, hashes, match_key, key_ptrs, batch);
	for (long i = 0; i < KEYS; i++) {
		cds_lfht_iter single;

		cds_lfht_lookup(ht, hashes[i], match_key, &keys[i], &single);
		ck_assert_ptr_eq(cds_lfht_iter_get_node(&batch[i]),
				 cds_lfht_iter_get_node(&single));
		ck_assert_int_eq(cds_lfht_iter_get_node(&single) != nullptr, i % 2 == 0);
	}
	rcu_read_unlock();
	empty_and_destroy(ht);
	rcu_unregister_thread();
}
END_TEST

struct config {
	long a, b;
};

config *current_config;

config *new_config(long v)
{
	config *c = new config();

	c->a = c->b = v;
	return c;
}

START_TEST(cxx_pointer_updates_are_never_torn)
{
	enum { UPDATES = 2000 };
	std::atomic<bool> done{false};
	std::atomic<long> reads{0};

	rcu_register_thread();
	rcu_assign_pointer(current_config, new_config(0));
	std::vector<std::thread> threads;

	threads.emplace_back([&done, &reads] {
		rcu_register_thread();
		// Acquire: pairs with the release store of done below.
		while (!done.load(std::memory_order_acquire) || reads.load() == 0) {
			rcu_read_lock();
			config *c = rcu_dereference(current_config);
			ck_assert_int_eq(c->a, c->b);
			rcu_read_unlock();
			reads.fetch_add(1, std::memory_order_relaxed);
			reader_quiescent();
		}
		rcu_unregister_thread();
	});
	for (long v = 1; v <= UPDATES; v++) {
		config *old = rcu_xchg_pointer(&current_config, new_config(v));

		synchronize_rcu();
		delete old;
	}
	// Release: pairs with the reader's acquire load of done; its reads of
	// current_config end before the join.
	done.store(true, std::memory_order_release);
	join_offline(threads);
	config *last = rcu_cmpxchg_pointer(&current_config, current_config,
					   static_cast<config *>(nullptr));
	synchronize_rcu();
	ck_assert_int_eq(last->a, UPDATES);
	delete last;
	ck_assert_int_gt(reads.load(), 0);
	rcu_unregister_thread();
}
END_TEST

} // namespace

int main()
{
	Suite *s = suite_create("cxx-" FLAVOUR_NAME);
	TCase *tc = tcase_create("cxx");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, cxx_threads_share_a_table);
	tcase_add_test(tc, cxx_batch_lookup_matches_single_lookups);
	tcase_add_test(tc, cxx_pointer_updates_are_never_torn);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
