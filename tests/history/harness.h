/* SPDX-License-Identifier: MIT */
/*
 * tests/history/harness.h - what the history test programs
 * (tests/test_history.c, tests/test_ds_history.c) share around their
 * workloads: the command line, and the end of a run once a round broke a
 * rule. That end comes right after the check of the round: the checker's
 * report, one line saying so, and exit 1, or 0 in a mutant's run (the
 * report is what it looks for); no round after it, and no run of the
 * program's other tests. Built with each flavour's test, as record.c.
 */
#ifndef LFHT_HISTORY_HARNESS_H
#define LFHT_HISTORY_HARNESS_H

#include <stdbool.h>

/*
 * A program's arguments:
 *   --seconds S      each run's time;
 *   --mutant NAME    break one rule of the code under test (mutants[1..]);
 *   --structure NAME the structure to run (structures[], when given);
 *   --break-round N  hand the checker a broken round N: a call that no
 *                    correct run makes is added to it (the test that a
 *                    broken round ends the run: tests/history/stops.py).
 */
struct hist_args {
	/* In: the names the program knows (mutants[0] stands for none). */
	const char *const *mutants;
	int nr_mutants;
	const char *const *structures;
	int nr_structures;
	/* Out: what was asked; 0, 0, -1, 0 when not. */
	double seconds;
	int mutant;
	int structure;
	long break_round;
};

/* Parses argv into *a (exits 2 with the usage on a wrong argument) and
 * keeps a for hist_end_failed(). */
void hist_args_parse(struct hist_args *a, int argc, char **argv);

/* Whether round (counted from 1) is the one --break-round names; if so,
 * says on stderr that it is broken on purpose. */
bool hist_break_this_round(long round);

/* Ends the program after round (counted from 1) of the run named what
 * failed as why says ("broke a rule (above)"). */
_Noreturn void hist_end_failed(const char *what, long round, const char *why);

#endif /* LFHT_HISTORY_HARNESS_H */
