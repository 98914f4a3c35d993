// SPDX-License-Identifier: MIT
//
// cxx_table.cc - lfht from C++, quoted by docs/using-the-table.md: a small
// owning wrapper over a table of strings, filled by one std::thread and
// read by two others. The C headers need nothing special: include them as
// they are (they carry their own extern "C").
#include <rcu/memb.h>
#include <lfht/lfht.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

class string_set {
public:
	string_set() : ht_(cds_lfht_new(64, 1, 0, CDS_LFHT_AUTO_RESIZE, nullptr))
	{
		if (ht_ == nullptr)
			std::abort();
	}
	string_set(const string_set &) = delete;
	string_set &operator=(const string_set &) = delete;

	// Outside any read-side section, once no other thread uses the set.
	~string_set()
	{
		cds_lfht_iter iter;
		entry *e;

		rcu_read_lock();
		cds_lfht_for_each_entry(ht_, &iter, e, node) {
			cds_lfht_del(ht_, &e->node);
			call_rcu(&e->rcu, free_entry);
		}
		rcu_read_unlock();
		rcu_barrier();	// every free_entry has run
		cds_lfht_destroy(ht_, nullptr);
	}

	// Any registered thread. False when the key was already there.
	bool insert(const std::string &key)
	{
		entry *e = new entry(key);

		rcu_read_lock();
		cds_lfht_node *in = cds_lfht_add_unique(ht_, hash(key), match, &e->key,
							&e->node);
		rcu_read_unlock();
		if (in != &e->node)
			delete e;
		return in == &e->node;
	}

	// Any registered thread; takes its own read-side section.
	bool contains(const std::string &key) const
	{
		cds_lfht_iter iter;

		rcu_read_lock();
		cds_lfht_lookup(ht_, hash(key), match, &key, &iter);
		bool found = cds_lfht_iter_get_node(&iter) != nullptr;
		rcu_read_unlock();
		return found;
	}

private:
	struct entry {
		explicit entry(const std::string &k) : key(k) { cds_lfht_node_init(&node); }
		std::string key;
		cds_lfht_node node;
		rcu_head rcu;
	};

	static unsigned long hash(const std::string &key)
	{
		return std::hash<std::string>()(key);
	}
	// The table calls back through a C function pointer: a static member
	// (or a free function) converts to cds_lfht_match_fct.
	static int match(cds_lfht_node *node, const void *key)
	{
		return caa_container_of(node, entry, node)->key ==
		       *static_cast<const std::string *>(key);
	}
	static void free_entry(rcu_head *head)
	{
		delete caa_container_of(head, entry, rcu);
	}

	cds_lfht *ht_;
};

int main()
{
	rcu_register_thread();
	{
		string_set set;
		std::vector<std::thread> threads;

		threads.emplace_back([&set] {
			rcu_register_thread();
			for (int i = 0; i < 1000; i++)
				set.insert("key-" + std::to_string(i));
			rcu_unregister_thread();
		});
		for (int r = 0; r < 2; r++)
			threads.emplace_back([&set] {
				rcu_register_thread();
				while (!set.contains("key-999"))
					std::this_thread::yield();
				rcu_unregister_thread();
			});
		for (std::thread &t : threads)
			t.join();
		std::printf("key-500: %s\n", set.contains("key-500") ? "found" : "missing");
	}
	rcu_unregister_thread();
	return 0;
}
