/* SPDX-License-Identifier: MIT */
/*
 * tests/history/memo.c - the memo of explored (placed set, state) pairs
 * (memo.h): open addressing over entries of the hash and the caller's
 * key words, both arrays doubled as they fill.
 */
#include "memo.h"
#include "history.h"

#include <stdlib.h>
#include <string.h>

void hist_memo_init(struct hist_memo *m, size_t words, size_t max_bytes)
{
	/* Small at first: most of the table's segments hold a few calls,
	 * and a large calloc per segment (155 KB: 1024 entries of 152 B)
	 * was most of a stress test's time under AddressSanitizer (mmap,
	 * shadow memset, quarantine). hist_memo_add() doubles both. */
	*m = (struct hist_memo){ .words = words, .stride = 1 + words, .max_bytes = max_bytes,
				 .cap = 16, .nr_slots = 32 };
	m->entries = hist_calloc(m->cap * m->stride, sizeof(uint64_t));
	m->slots = hist_calloc(m->nr_slots, sizeof(uint32_t));
}

void hist_memo_free(struct hist_memo *m)
{
	free(m->entries);
	free(m->slots);
}

static void grow_slots(struct hist_memo *m)
{
	free(m->slots);
	m->nr_slots *= 2;
	m->slots = hist_calloc(m->nr_slots, sizeof(uint32_t));
	for (size_t i = 0; i < m->nr; i++) {
		size_t j = m->entries[i * m->stride] & (m->nr_slots - 1);

		while (m->slots[j])
			j = (j + 1) & (m->nr_slots - 1);
		m->slots[j] = (uint32_t)(i + 1);
	}
}

int hist_memo_add(struct hist_memo *m, uint64_t hash, const uint64_t *key)
{
	size_t j = hash & (m->nr_slots - 1);
	uint64_t *e;

	for (; m->slots[j]; j = (j + 1) & (m->nr_slots - 1)) {
		e = &m->entries[(m->slots[j] - 1) * m->stride];
		if (e[0] == hash && memcmp(&e[1], key, m->words * sizeof(uint64_t)) == 0)
			return 0;
	}
	if (m->nr == m->cap) {
		size_t bytes = 2 * m->cap * m->stride * sizeof(uint64_t);

		if (bytes > m->max_bytes)
			return -1;
		m->entries = realloc(m->entries, bytes);
		if (m->entries == NULL)
			abort();
		m->cap *= 2;
	}
	e = &m->entries[m->nr * m->stride];
	e[0] = hash;
	memcpy(&e[1], key, m->words * sizeof(uint64_t));
	m->slots[j] = (uint32_t)++m->nr;
	if (2 * m->nr > m->nr_slots)
		grow_slots(m);
	return 1;
}
