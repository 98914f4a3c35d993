/* SPDX-License-Identifier: MIT */
/*
 * tests/history/walks.c - the iteration rule, for the walks of a round's
 * history: a cds_lfht_for_each walk (HIST_ITERATION) or a lookup followed
 * by cds_lfht_next_duplicate() (HIST_DUPLICATES, the nodes of one key).
 *
 * A walk is not atomic: it may see a node added after it started and miss
 * one removed before it ended. What it must do, resizes or not:
 *   - return no node twice;
 *   - return only nodes present at some instant inside it: added by an
 *     operation invoked before the walk responded, and not removed by one
 *     that responded before the walk was invoked (or present at the start
 *     of the round);
 *   - return every node present during the whole walk: added by an
 *     operation that responded before the walk was invoked (or present at
 *     the start), and not removed by one invoked before the walk responded.
 * A duplicates walk returns only nodes of its key.
 */
#include "history.h"

#include <inttypes.h>
#include <stdlib.h>

/* What the round did to one node. */
struct life {
	uint64_t id, key;
	const struct hist_op *added;	/* NULL: present at the start */
	const struct hist_op *removed;	/* NULL: not removed in the round */
};

static int id_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int life_id_cmp(const void *a, const void *b)
{
	const struct life *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int life_key_cmp(const void *a, const void *b)
{
	const struct life *x = *(const struct life *const *)a;
	const struct life *y = *(const struct life *const *)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void note_add(struct life *lives, size_t *nr, const struct hist_op *op, uint64_t id)
{
	lives[(*nr)++] = (struct life){ .id = id, .key = op->key, .added = op };
}

/* One entry per node the round added or found (removals are folded in by
 * fold_removals()); sorted by id. */
static struct life *collect_lives(const struct hist_round *r, size_t *nr_out)
{
	struct life *lives = hist_calloc(r->nr_before + r->nr_ops, sizeof(*lives));
	size_t nr = 0;

	for (size_t k = 0; k < r->nr_before; k++)
		lives[nr++] = (struct life){ .id = r->before[k].id, .key = r->before[k].key };
	for (size_t k = 0; k < r->nr_ops; k++) {
		const struct hist_op *op = &r->ops[k];

		switch (op->kind) {
		case HIST_ADD:
		case HIST_ADD_REPLACE:
			note_add(lives, &nr, op, op->node);
			break;
		case HIST_ADD_UNIQUE:
			if (op->result == op->node)
				note_add(lives, &nr, op, op->node);
			break;
		case HIST_REPLACE:
			if (op->result == HIST_OK)
				note_add(lives, &nr, op, op->node);
			break;
		default:
			break;
		}
	}
	qsort(lives, nr, sizeof(*lives), life_id_cmp);
	*nr_out = nr;
	return lives;
}

static struct life *find_life(struct life *lives, size_t nr, uint64_t id)
{
	struct life probe = { .id = id };

	return bsearch(&probe, lives, nr, sizeof(*lives), life_id_cmp);
}

/* The earliest removal of each node. */
static void note_removal(struct life *lives, size_t nr, const struct hist_op *op, uint64_t id)
{
	struct life *l = find_life(lives, nr, id);

	if (l != NULL && (l->removed == NULL || op->invoke < l->removed->invoke))
		l->removed = op;
}

static void fold_removals(const struct hist_round *r, struct life *lives, size_t nr)
{
	for (size_t k = 0; k < r->nr_ops; k++) {
		const struct hist_op *op = &r->ops[k];

		if (op->kind == HIST_DEL && op->result == HIST_OK)
			note_removal(lives, nr, op, op->node);
		else if (op->kind == HIST_REPLACE && op->result == HIST_OK)
			note_removal(lives, nr, op, op->old);
		else if ((op->kind == HIST_ADD_REPLACE || op->kind == HIST_DEL_KEY) &&
			 op->result != 0)
			note_removal(lives, nr, op, op->result);
	}
}

static bool possibly_present(const struct life *l, const struct hist_op *walk)
{
	return (l->added == NULL || l->added->invoke <= walk->respond) &&
	       (l->removed == NULL || l->removed->respond >= walk->invoke);
}

static bool surely_present(const struct life *l, const struct hist_op *walk)
{
	return (l->added == NULL || l->added->respond < walk->invoke) &&
	       (l->removed == NULL || l->removed->invoke > walk->respond);
}

struct walk_ctx {
	const struct hist_round *r;
	struct hist_verdict *v;
	FILE *report;
	uint64_t t0;
	bool clean;
};

static void report_walk(struct walk_ctx *c, const struct hist_op *walk, const char *rule,
			uint64_t id, const struct life *l)
{
	c->clean = false;
	c->v->violations++;
	if (c->report == NULL)
		return;
	fprintf(c->report, "history: %s walk: %s: ",
		walk->kind == HIST_ITERATION ? "iteration" : "duplicates", rule);
	hist_print_node(c->report, id);
	fprintf(c->report, "\n");
	hist_print_op(c->report, walk, c->t0, c->r->walk_ids);
	if (l == NULL)
		return;
	fprintf(c->report, "  the node (key %" PRIu64 "): %s\n", l->key,
		l->added ? "added by" : "present at the start of the round");
	if (l->added)
		hist_print_op(c->report, l->added, c->t0, c->r->walk_ids);
	if (l->removed) {
		fprintf(c->report, "  removed by\n");
		hist_print_op(c->report, l->removed, c->t0, c->r->walk_ids);
	}
}

/* Checks one walk; cands[0..nr_cands) are the nodes it must consider. */
static void check_walk(struct walk_ctx *c, const struct hist_op *walk, struct life *lives,
		       size_t nr, struct life *const *cands, size_t nr_cands)
{
	uint64_t *seen = hist_calloc(walk->walk_len, sizeof(*seen));

	for (uint32_t k = 0; k < walk->walk_len; k++)
		seen[k] = c->r->walk_ids[walk->walk_start + k];
	qsort(seen, walk->walk_len, sizeof(*seen), id_cmp);
	for (uint32_t k = 0; k < walk->walk_len; k++) {
		struct life *l = find_life(lives, nr, seen[k]);

		if (k > 0 && seen[k] == seen[k - 1])
			report_walk(c, walk, "returned a node twice", seen[k], l);
		else if (l == NULL)
			report_walk(c, walk, "returned a node never added", seen[k], NULL);
		else if (walk->kind == HIST_DUPLICATES && l->key != walk->key)
			report_walk(c, walk, "returned a node of another key", seen[k], l);
		else if (!possibly_present(l, walk))
			report_walk(c, walk, "returned a node absent during the whole walk",
				    seen[k], l);
	}
	for (size_t k = 0; k < nr_cands; k++) {
		if (surely_present(cands[k], walk) &&
		    !bsearch(&cands[k]->id, seen, walk->walk_len, sizeof(*seen), id_cmp))
			report_walk(c, walk, "missed a node present during the whole walk",
				    cands[k]->id, cands[k]);
	}
	free(seen);
}

bool hist_check_walks(const struct hist_round *r, struct hist_verdict *v, FILE *report)
{
	struct walk_ctx c = { .r = r, .v = v, .report = report, .t0 = UINT64_MAX, .clean = true };
	size_t nr = 0, nr_walks = 0;
	struct life *lives;
	struct life **by_key;

	for (size_t k = 0; k < r->nr_ops; k++) {
		if (r->ops[k].invoke < c.t0)
			c.t0 = r->ops[k].invoke;
		nr_walks += r->ops[k].kind >= HIST_DUPLICATES;
	}
	if (nr_walks == 0)
		return true;
	lives = collect_lives(r, &nr);
	fold_removals(r, lives, nr);
	by_key = hist_calloc(nr, sizeof(*by_key));
	for (size_t k = 0; k < nr; k++)
		by_key[k] = &lives[k];
	qsort(by_key, nr, sizeof(*by_key), life_key_cmp);

	for (size_t k = 0; k < r->nr_ops; k++) {
		const struct hist_op *walk = &r->ops[k];
		size_t lo = 0, hi = nr;

		if (walk->kind < HIST_DUPLICATES)
			continue;
		if (walk->truncated) {
			v->unchecked_walks++;
			continue;
		}
		if (walk->kind == HIST_DUPLICATES) {
			/* The lives of the walk's key: by_key[lo..hi). */
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (by_key[mid]->key < walk->key)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (hi = lo; hi < nr && by_key[hi]->key == walk->key; hi++)
				;
		}
		check_walk(&c, walk, lives, nr, by_key + lo, hi - lo);
		v->walks++;
		v->walk_nodes += walk->walk_len;
	}
	free(by_key);
	free(lives);
	return c.clean;
}
