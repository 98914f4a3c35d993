/* SPDX-License-Identifier: MIT */
/*
 * tests/history/record.h - recording a concurrent run of table calls, in
 * rounds that the history checker judges one by one (history.h).
 *
 * Each test thread has a log of bounded size. A round ends when a log is
 * full, when its time is up or when the run ends: every recording thread
 * parks outside its read-side sections (offline under QSBR), which is a
 * quiescent point of the table; the main thread reads the table's content,
 * checks the round's history from the content at its start to this one,
 * and opens the next round. Built with each test source, per flavour
 * (it includes lfht_test.h).
 */
#ifndef LFHT_HISTORY_RECORD_H
#define LFHT_HISTORY_RECORD_H

#include "../lfht_test.h"
#include "history.h"

struct hist_run;

/* Calls every recording thread logs before a run may end. */
#define HIST_MIN_THREAD_OPS 256

/* One recording thread's log. */
struct hist_log {
	struct hist_run *run;
	uint16_t thread;
	long round;			/* the round this thread records in */
	struct hist_op *ops;
	size_t nr_ops, cap_ops;
	unsigned long total_ops;	/* in every round so far */
	uint64_t *walk_ids;
	size_t nr_ids, cap_ids;
	/* Nodes made by hist_node_new() this round (runs that own nodes). */
	struct test_node **made;
	size_t nr_made;
};

struct hist_run {
	struct cds_lfht *ht;
	unsigned long (*hash)(uint64_t key);
	int nr_threads;
	struct hist_log *logs;
	/* Frees, at the end of each round, the nodes made by hist_node_new()
	 * that the table no longer holds (nobody frees them in between: a
	 * mutant may report one removal twice). */
	bool owns_nodes;
	/* Room a walk may need in a log: a round ends before less is left. */
	size_t walk_reserve;
	double round_seconds;

	_Atomic(int) pause;		/* a round is ending: park */
	_Atomic(int) parked;		/* threads parked in this round */
	_Atomic(long) round;		/* the round open now */
	_Atomic(int) stop;

	/* The table's content at the start of the round: sorted by key and
	 * id, and the nodes (owns_nodes: to free them once gone). */
	struct hist_node *present;
	struct test_node **present_nodes;
	size_t nr_present;

	struct hist_verdict verdict;
	unsigned long rounds;
	/* Every round so far was clean: a round that breaks a rule ends
	 * the program once checked (hist_end_failed(), harness.h). */
	bool clean;
	/* The run's name in that end's last line (NULL: "table"). */
	const char *what;
	double check_seconds;		/* time spent checking */
	/* Optional: the run goes on past its time while more(more_arg) says
	 * the workload has not yet done what the test needs (at most ten
	 * times as long, plus 30 s). */
	bool (*more)(void *arg);
	void *more_arg;
};

/* Sets up run for nr_threads recording threads (logs of ops_per_thread
 * operations and ids_per_thread walk entries) on ht, whose keys hash with
 * hash; reads the table's content as the first round's start. */
void hist_run_init(struct hist_run *run, struct cds_lfht *ht, unsigned long (*hash)(uint64_t),
		   int nr_threads, size_t ops_per_thread, size_t ids_per_thread);
/* Runs rounds for seconds (checking each), then stops the threads; they
 * see hist_continue() return false. Two rounds at least, and until every
 * recording thread logged HIST_MIN_THREAD_OPS calls (a slow start under
 * an emulator), bounded as more() is. A round that breaks a rule ends the
 * program instead (harness.h), so it returns true: every round was clean.
 * --break-round N (harness.h) adds to round N a lookup that finds a node
 * never added. */
bool hist_run_for(struct hist_run *run, double seconds);
/* Frees the logs (owns_nodes: deletes the nodes left and frees them). */
void hist_run_destroy(struct hist_run *run);
/* Prints the run's totals: "[flavour] what: N rounds, ..." */
void hist_run_print(const struct hist_run *run, const char *what);

/* Worker side, outside read-side sections: false once the run stopped;
 * parks at the end of a round. */
bool hist_continue(struct hist_log *log);

/* A node for log's thread (owns_nodes runs). */
struct test_node *hist_node_new(struct hist_log *log, uint64_t key);

/* The clock of the recorded calls (record.c says why it orders calls
 * across CPUs): a call's invocation stamp, taken before it, and its
 * response stamp, taken after it; also for histories of other structures
 * (tests/test_ds_history.c). */
uint64_t hist_stamp_invoke(void);
uint64_t hist_stamp_respond(void);

/* The recorded calls: each makes the cds_lfht call it names on the run's
 * table, inside the caller's read-side section, and logs it. */
void hist_add(struct hist_log *log, struct test_node *tn);
struct test_node *hist_add_unique(struct hist_log *log, struct test_node *tn);
struct test_node *hist_add_replace(struct hist_log *log, struct test_node *tn);
/* Replaces the node of old_iter (found by hist_lookup()) by tn. */
int hist_replace(struct hist_log *log, struct cds_lfht_iter *old_iter, struct test_node *tn);
int hist_del(struct hist_log *log, struct test_node *tn);
/* lfht_del_key(): returns the node removed, or NULL. */
struct test_node *hist_del_key(struct hist_log *log, uint64_t key);
struct test_node *hist_lookup(struct hist_log *log, uint64_t key, struct cds_lfht_iter *iter);
/* lfht_lookup_batch() of keys[0..n), n <= HIST_OPS_PER_STEP: logged as n
 * lookups, each spanning the whole batch call; returns the hits. */
unsigned long hist_lookup_batch(struct hist_log *log, size_t n, const uint64_t *keys);
/* cds_lfht_for_each_duplicate over key; returns the nodes seen. */
unsigned long hist_duplicates(struct hist_log *log, uint64_t key);
/* cds_lfht_for_each over the table; returns the nodes seen. */
unsigned long hist_iteration(struct hist_log *log);

#endif /* LFHT_HISTORY_RECORD_H */
