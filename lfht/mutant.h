/* SPDX-License-Identifier: MIT */
/*
 * lfht/mutant.h - the mutants of the history checker (tests/test_history.c,
 * docs/verification.md): a test build of the library (LFHT_TEST_HOOKS,
 * never liblfht) breaks one rule of the table on purpose when the test
 * names it in lfht_test_mutant_, so that the test can show the checker
 * catches it. In every other build lfht_mutant() is the constant 0 and the
 * compiler drops the broken paths.
 */
#ifndef LFHT_MUTANT_H
#define LFHT_MUTANT_H

#include <stdint.h>

enum lfht_mutant {
	LFHT_MUTANT_NONE,
	/* add_unique links without looking again after a failed link CAS */
	LFHT_MUTANT_UNIQUE_NO_RECHECK,
	/* del of a node already removed reports success */
	LFHT_MUTANT_DEL_TWICE,
	/* replace deletes the old node, then adds the new one */
	LFHT_MUTANT_REPLACE_AS_DEL_ADD,
	/* a lookup at a removed node skips that node's successor */
	LFHT_MUTANT_LOOKUP_SKIP,
	/* cds_lfht_next restarts from the bucket when its node was removed */
	LFHT_MUTANT_ITER_RESTART,
	LFHT_NR_MUTANTS
};

/* Set by the test before it starts any thread, read-only after; defined
 * in the test build of the library only (lfht/check.c). */
extern int lfht_test_mutant_;

#ifdef LFHT_TEST_HOOKS
#define lfht_mutant(m) (lfht_test_mutant_ == (m))
#else
#define lfht_mutant(m) 0
#endif

/* LFHT_MUTANT_LOOKUP_SKIP in the inline lookup: a test source defines
 * LFHT_WALK_MUTANT_(next) as lfht_mutant_walk_(&(next)) before it includes
 * <lfht/lfht.h> (lfht/check.c). */
void lfht_mutant_walk_(uintptr_t *next);

#endif /* LFHT_MUTANT_H */
