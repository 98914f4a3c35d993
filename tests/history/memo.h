/* SPDX-License-Identifier: MIT */
/*
 * tests/history/memo.h - Lowe's memo of the (operations placed, state)
 * pairs a linearizability search has explored, shared by the two searches
 * (linearize.c for a table key, qsearch.c for a queue or stack round; its
 * top comment gives the references). Each search packs its key (the state
 * and the set placed) into a caller-given number of words.
 */
#ifndef LFHT_HISTORY_MEMO_H
#define LFHT_HISTORY_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* splitmix64's finalizer: the searches' hash of states and placed sets. */
static inline uint64_t hist_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The hash of operation i in a placed set (a set hashes to the xor of its
 * operations'). */
static inline uint64_t hist_op_hash(uint32_t i)
{
	return hist_mix64(0x9e3779b97f4a7c15ULL * (i + 1));
}

/* Open addressing over entries of 1 + words words: the hash, then the
 * key the caller gives (its words compared exactly). */
struct hist_memo {
	size_t words, stride;
	size_t max_bytes;
	uint64_t *entries;
	size_t nr, cap;		/* entries stored, room */
	uint32_t *slots;	/* entry index + 1; 0: free */
	size_t nr_slots;	/* a power of two */
};

/* A memo of keys of words words, at most max_bytes of entries. */
void hist_memo_init(struct hist_memo *m, size_t words, size_t max_bytes);
void hist_memo_free(struct hist_memo *m);
/* Adds key[0..words) with its hash: 1 when new, 0 when stored before, -1
 * when it would pass max_bytes (the search is then left unchecked). */
int hist_memo_add(struct hist_memo *m, uint64_t hash, const uint64_t *key);

#endif /* LFHT_HISTORY_MEMO_H */
