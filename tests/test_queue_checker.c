/* SPDX-License-Identifier: MIT */
/*
 * tests/test_queue_checker.c - the queue and stack checker
 * (tests/history/queue.h) on histories written by hand: races it must
 * accept, each rule's violation it must report, violations only the exact
 * search sees, a round over the search's bound, and thousands of random
 * sequential runs stretched into overlapping intervals, which it must
 * accept and must reject once a result is changed. Flavour-free: no RCU,
 * no structure.
 */
#define _GNU_SOURCE
#include "history/queue.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define V(i) ((1ULL << 40) | (uint64_t)(i))	/* values of thread 1 */

static struct hq_op put(uint64_t invoke, uint64_t respond, uint64_t value)
{
	return (struct hq_op){ .invoke = invoke, .respond = respond, .value = value,
			       .kind = HQ_PUT, .thread = 1 };
}

/* value 0: returned empty. */
static struct hq_op take(uint64_t invoke, uint64_t respond, uint64_t value)
{
	return (struct hq_op){ .invoke = invoke, .respond = respond, .value = value,
			       .kind = HQ_TAKE, .thread = 2 };
}

static struct hq_op take_all(uint64_t invoke, uint64_t respond, uint32_t start, uint32_t len)
{
	return (struct hq_op){ .invoke = invoke, .respond = respond, .seq_start = start,
			       .seq_len = len, .kind = HQ_TAKE_ALL, .thread = 3 };
}

/* Judges ops with the drain's values after[0..) (0-terminated) and the
 * take-all sequences seq; checks that each violation printed one
 * "history:" line. Returns the verdict. */
static struct hq_verdict judge(enum hq_order order, const struct hq_op *ops, size_t n,
			       const uint64_t *after, const uint64_t *seq)
{
	struct hq_verdict v = { 0 };
	size_t na = 0, lines = 0;
	struct hq_round r;
	char line[512];
	FILE *report = tmpfile();

	ck_assert_ptr_nonnull(report);
	while (after != NULL && after[na] != 0)
		na++;
	r = (struct hq_round){ .order = order, .ops = ops, .nr_ops = n, .seq_vals = seq,
			       .after = after, .nr_after = na };
	ck_assert_int_eq(hq_check_round(&r, &v, report), v.violations == 0);
	rewind(report);
	while (fgets(line, sizeof(line), report) != NULL)
		lines += strncmp(line, "history: ", 9) == 0;
	ck_assert_uint_eq(lines, v.violations);
	fclose(report);
	ck_assert_uint_eq(v.rounds, 1);
	ck_assert_uint_eq(v.ops, n);
	return v;
}

static unsigned long violations(enum hq_order order, const struct hq_op *ops, size_t n,
				const uint64_t *after, const uint64_t *seq)
{
	struct hq_verdict v = judge(order, ops, n, after, seq);

	/* A clean round was settled by the search (these are small). */
	if (v.violations == 0)
		ck_assert_uint_eq(v.searched_rounds, 1);
	return v.violations;
}

START_TEST(checker_accepts_racing_puts_taken_in_either_order)
{
	/* Two overlapping puts: either order out is right, for both orders. */
	struct hq_op ops[] = {
		put(10, 30, V(1)), put(20, 40, V(2)), take(50, 60, V(2)), take(70, 80, V(1)),
	};

	ck_assert_uint_eq(violations(HQ_FIFO, ops, 4, NULL, NULL), 0);
	ck_assert_uint_eq(violations(HQ_LIFO, ops, 4, NULL, NULL), 0);
	ops[2].value = V(1);
	ops[3].value = V(2);
	ck_assert_uint_eq(violations(HQ_FIFO, ops, 4, NULL, NULL), 0);
	ck_assert_uint_eq(violations(HQ_LIFO, ops, 4, NULL, NULL), 0);
}
END_TEST

START_TEST(checker_reports_fresh_twice_and_lost_values)
{
	uint64_t left[] = { V(2), 0 };
	struct hq_op fresh[] = { take(10, 20, V(9)) };
	struct hq_op early[] = { take(10, 20, V(1)), put(30, 40, V(1)) };
	struct hq_op twice[] = { put(10, 20, V(1)), take(30, 40, V(1)), take(35, 45, V(1)) };
	struct hq_op lost[] = { put(10, 20, V(1)), put(30, 40, V(2)) };

	for (int o = HQ_FIFO; o <= HQ_LIFO; o++) {
		ck_assert_uint_eq(violations(o, fresh, 1, NULL, NULL), 1);
		ck_assert_uint_eq(violations(o, early, 2, NULL, NULL), 1);
		ck_assert_uint_eq(violations(o, twice, 3, NULL, NULL), 1);
		/* Taken once more by the drain. */
		ck_assert_uint_eq(violations(o, twice, 2, (uint64_t[]){ V(1), 0 }, NULL), 1);
		/* V(1) is nowhere. */
		ck_assert_uint_eq(violations(o, lost, 2, left, NULL), 1);
		ck_assert_uint_eq(violations(o, lost, 2, o == HQ_FIFO ?
					     (uint64_t[]){ V(1), V(2), 0 } :
					     (uint64_t[]){ V(2), V(1), 0 }, NULL), 0);
	}
}
END_TEST

START_TEST(checker_reports_fifo_order)
{
	/* put(1) before put(2); 2 leaves first. */
	struct hq_op ops[] = {
		put(10, 20, V(1)), put(30, 40, V(2)), take(50, 60, V(2)), take(70, 80, V(1)),
	};

	ck_assert_uint_eq(violations(HQ_FIFO, ops, 4, NULL, NULL), 1);
	/* The takes overlap: fine. */
	ops[2] = take(50, 75, V(2));
	ck_assert_uint_eq(violations(HQ_FIFO, ops, 4, NULL, NULL), 0);
	/* 2 taken while 1 stays for the drain. */
	ck_assert_uint_eq(violations(HQ_FIFO, ops, 3, (uint64_t[]){ V(1), 0 }, NULL), 1);
	/* The drain's own order. */
	ck_assert_uint_eq(violations(HQ_FIFO, ops, 2, (uint64_t[]){ V(2), V(1), 0 }, NULL), 1);
	ck_assert_uint_eq(violations(HQ_FIFO, ops, 2, (uint64_t[]){ V(1), V(2), 0 }, NULL), 0);
}
END_TEST

START_TEST(checker_reports_lifo_order)
{
	/* put(1), put(2), then 1 taken while 2 stands above it. */
	struct hq_op ops[] = {
		put(10, 20, V(1)), put(30, 40, V(2)), take(50, 60, V(1)), take(70, 80, V(2)),
	};

	ck_assert_uint_eq(violations(HQ_LIFO, ops, 4, NULL, NULL), 1);
	ck_assert_uint_eq(violations(HQ_FIFO, ops, 4, NULL, NULL), 0);
	/* put(2) overlaps take(1): 1 may leave before 2 comes. */
	ops[1] = put(30, 55, V(2));
	ck_assert_uint_eq(violations(HQ_LIFO, ops, 4, NULL, NULL), 0);
	/* The drain pops top first. */
	ck_assert_uint_eq(violations(HQ_LIFO, ops, 0, NULL, NULL), 0);
	ops[1] = put(30, 40, V(2));
	ck_assert_uint_eq(violations(HQ_LIFO, ops, 2, (uint64_t[]){ V(2), V(1), 0 }, NULL), 0);
	ck_assert_uint_eq(violations(HQ_LIFO, ops, 2, (uint64_t[]){ V(1), V(2), 0 }, NULL), 1);
}
END_TEST

START_TEST(checker_reports_an_empty_take_with_a_value_present_throughout)
{
	struct hq_op ops[] = { put(10, 20, V(1)), take(30, 40, 0), take(50, 60, V(1)) };

	for (int o = HQ_FIFO; o <= HQ_LIFO; o++) {
		ck_assert_uint_eq(violations(o, ops, 3, NULL, NULL), 1);
		/* Left for the drain: present throughout too. */
		ck_assert_uint_eq(violations(o, ops, 2, (uint64_t[]){ V(1), 0 }, NULL), 1);
		/* The put overlaps the empty take: fine. */
		ops[0] = put(10, 35, V(1));
		ck_assert_uint_eq(violations(o, ops, 3, NULL, NULL), 0);
		ops[0] = put(10, 20, V(1));
	}
}
END_TEST

START_TEST(checker_judges_splice_and_pop_all)
{
	uint64_t seq12[] = { V(1), V(2) }, seq21[] = { V(2), V(1) }, seq1[] = { V(1) };
	struct hq_op ops[] = { put(10, 20, V(1)), put(30, 40, V(2)), take_all(50, 60, 0, 2) };

	for (int o = HQ_FIFO; o <= HQ_LIFO; o++) {
		/* FIFO: oldest first; LIFO: top first. */
		uint64_t *right = o == HQ_FIFO ? seq12 : seq21;
		uint64_t *wrong = o == HQ_FIFO ? seq21 : seq12;

		ck_assert_uint_eq(violations(o, ops, 3, NULL, right), 0);
		ck_assert_uint_eq(violations(o, ops, 3, NULL, wrong), 1);
		/* Overlapping puts: either order. */
		ops[1] = put(15, 40, V(2));
		ck_assert_uint_eq(violations(o, ops, 3, NULL, wrong), 0);
		ops[1] = put(30, 40, V(2));
	}
	/* A take-all that leaves V(2), present throughout, for the drain. */
	ops[2] = take_all(50, 60, 0, 1);
	for (int o = HQ_FIFO; o <= HQ_LIFO; o++) {
		/* (LIFO: also V(1) taken while V(2) stood above it.) */
		ck_assert_uint_ge(violations(o, ops, 3, (uint64_t[]){ V(2), 0 }, seq1), 1);
		/* V(2) put during the take-all: it may come after. */
		ops[1] = put(30, 55, V(2));
		ck_assert_uint_eq(violations(o, ops, 3, (uint64_t[]){ V(2), 0 }, seq1), 0);
		ops[1] = put(30, 40, V(2));
	}
}
END_TEST

/* Found by comparing the rules with a brute-force enumeration on random
 * small histories: violations no single rule sees. */
START_TEST(checker_search_finds_what_the_rules_miss)
{
	/* FIFO: V(1) is in the queue until a dequeue that overlaps the empty
	 * one's end, and V(2), put before that dequeue began and during
	 * the empty one, stays to the end: the queue is never empty while
	 * the empty dequeue runs, though no one value was there throughout. */
	struct hq_op fifo[] = {
		put(953, 1157, V(1)), take(1175, 1346, 0), put(1167, 1254, V(2)),
		take(1258, 1387, V(1)), take(1391, 1547, V(2)),
	};
	/* LIFO, the same shape: V(2) may be pushed below V(1) (their pushes
	 * overlap), so V(1)'s pop is fine, but then V(2) stays and the empty
	 * pop has no instant with the stack empty. */
	struct hq_op lifo[] = {
		put(895, 1099, V(1)), put(1097, 1205, V(2)), take(1179, 1272, 0),
		take(1267, 1453, V(1)),
	};
	/* FIFO with a splice: V(2) must leave before the splice (which took
	 * only V(1)) ended, hence before V(1), which was put first. */
	uint64_t seq1[] = { V(1) };
	struct hq_op splice[] = {
		put(997, 1018, V(1)), put(1179, 1215, V(2)), take_all(1276, 1339, 0, 1),
		take(1279, 1312, V(2)),
	};
	struct hq_verdict v;

	v = judge(HQ_FIFO, fifo, 5, NULL, NULL);
	ck_assert_uint_eq(v.violations, 1);
	ck_assert_uint_eq(v.searched_rounds, 0);
	v = judge(HQ_LIFO, lifo, 4, (uint64_t[]){ V(2), 0 }, NULL);
	ck_assert_uint_eq(v.violations, 1);
	v = judge(HQ_FIFO, splice, 4, NULL, seq1);
	ck_assert_uint_eq(v.violations, 1);
	/* Each one fixed by letting V(2)'s put end later (after V(1) may
	 * have left), or V(1)'s put overlap V(2)'s: accepted. */
	fifo[2] = put(1167, 1300, V(2));
	ck_assert_uint_eq(violations(HQ_FIFO, fifo, 5, NULL, NULL), 0);
	lifo[1] = put(1097, 1300, V(2));
	ck_assert_uint_eq(violations(HQ_LIFO, lifo, 4, (uint64_t[]){ V(2), 0 }, NULL), 0);
	splice[0] = put(997, 1200, V(1));
	ck_assert_uint_eq(violations(HQ_FIFO, splice, 4, NULL, seq1), 0);
}
END_TEST

START_TEST(checker_leaves_a_round_over_the_search_bound_to_the_rules)
{
	size_t n = HQ_MAX_SEARCH_OPS;
	struct hq_op *ops = calloc(n, sizeof(*ops));
	struct hq_verdict v;

	ck_assert_ptr_nonnull(ops);
	/* n/2 values put and taken in turn: with the drain's last take, one
	 * call over the bound. */
	for (size_t k = 0; k < n; k += 2) {
		ops[k] = put(10 * k + 1, 10 * k + 2, V(k + 1));
		ops[k + 1] = take(10 * k + 3, 10 * k + 4, V(k + 1));
	}
	v = judge(HQ_FIFO, ops, n, NULL, NULL);
	ck_assert_uint_eq(v.violations, 0);
	ck_assert_uint_eq(v.unsearched_rounds, 1);
	ck_assert_uint_eq(v.searched_rounds, 0);
	free(ops);
}
END_TEST

/* xorshift64* */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * A sequential run of the model, NR calls, each stretched into a random
 * interval around its instant (so neighbours overlap): linearizable by
 * construction. The checker must accept it; changing one take's result
 * must be rejected.
 */
static void stretched_run(enum hq_order order, uint64_t seed)
{
	enum { NR = 3000 };
	struct hq_op *ops = calloc(NR, sizeof(*ops));
	uint64_t *content = calloc(NR, sizeof(*content)), *seq = calloc(NR, sizeof(*seq));
	uint64_t *after = calloc(NR + 1, sizeof(*after)), next_value = 1;
	size_t head = 0, tail = 0, nr_seq = 0, na = 0, changed = NR;
	struct hq_round r;
	struct hq_verdict v = { 0 };

	ck_assert(ops && content && seq && after);
	for (size_t i = 0; i < NR; i++) {
		uint64_t x = next_rand(&seed), at = 100 * (i + 10);
		struct hq_op *op = &ops[i];
		unsigned what = (unsigned)((x >> 40) % 16);

		*op = (struct hq_op){ .invoke = at - (x >> 8) % 150, .respond = at + (x >> 20) % 150,
				      .thread = (uint16_t)(1 + i % 4) };
		if (what < 8) {
			op->kind = HQ_PUT;
			op->value = ((uint64_t)op->thread << 40) | next_value++;
			content[tail++] = op->value;
		} else if (what < 15 || head == tail) {
			op->kind = HQ_TAKE;
			if (head == tail)
				op->value = 0;
			else if (order == HQ_FIFO)
				op->value = content[head++];
			else
				op->value = content[--tail];
		} else {
			op->kind = HQ_TAKE_ALL;
			op->seq_start = (uint32_t)nr_seq;
			op->seq_len = (uint32_t)(tail - head);
			for (size_t k = 0; k < tail - head; k++)
				seq[nr_seq++] = order == HQ_FIFO ? content[head + k] :
					content[tail - 1 - k];
			head = tail;
		}
		if (order == HQ_LIFO && head == tail)
			head = tail = 0;
	}
	for (size_t k = 0; k < tail - head; k++)
		after[na++] = order == HQ_FIFO ? content[head + k] : content[tail - 1 - k];
	r = (struct hq_round){ .order = order, .ops = ops, .nr_ops = NR, .seq_vals = seq,
			       .after = after, .nr_after = na };
	ck_assert(hq_check_round(&r, &v, NULL));
	ck_assert_uint_eq(v.searched_rounds, 1);
	ck_assert_uint_eq(v.violations, 0);
	ck_assert_uint_gt(v.empties, 0);
	/* A take in the second half returns the value of an earlier one. */
	for (size_t i = NR / 2; i < NR && changed == NR; i++)
		if (ops[i].kind == HQ_TAKE && ops[i].value != 0)
			for (size_t j = i + 1; j < NR && changed == NR; j++)
				if (ops[j].kind == HQ_TAKE && ops[j].value != 0) {
					ops[j].value = ops[i].value;
					changed = j;
				}
	ck_assert_uint_lt(changed, NR);
	memset(&v, 0, sizeof(v));
	ck_assert(!hq_check_round(&r, &v, NULL));
	ck_assert_uint_gt(v.violations, 0);
	free(ops);
	free(content);
	free(seq);
	free(after);
}

START_TEST(checker_accepts_every_stretched_sequential_history)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		stretched_run(HQ_FIFO, seed * 0x9e3779b97f4a7c15ULL);
		stretched_run(HQ_LIFO, seed * 0x9e3779b97f4a7c15ULL);
	}
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		checker_accepts_racing_puts_taken_in_either_order,
		checker_reports_fresh_twice_and_lost_values,
		checker_reports_fifo_order,
		checker_reports_lifo_order,
		checker_reports_an_empty_take_with_a_value_present_throughout,
		checker_judges_splice_and_pop_all,
		checker_search_finds_what_the_rules_miss,
		checker_leaves_a_round_over_the_search_bound_to_the_rules,
		checker_accepts_every_stretched_sequential_history,
	};
	Suite *s = suite_create("queue-checker");
	TCase *tc = tcase_create("checker");
	SRunner *sr = srunner_create(s);
	int failed;

	tcase_set_timeout(tc, 120);
	for (size_t k = 0; k < sizeof(tests) / sizeof(tests[0]); k++)
		tcase_add_test(tc, tests[k]);
	suite_add_tcase(s, tc);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
