/* SPDX-License-Identifier: MIT */
/*
 * tests/history/harness.c - the history programs' command line and the
 * end of a failed run (harness.h).
 */
#define _GNU_SOURCE
#include "harness.h"
#include "../lfht_test.h"

#include <string.h>
#include <unistd.h>

static const struct hist_args *args;
static double started;

static _Noreturn void usage(const struct hist_args *a, const char *program, const char *why)
{
	fprintf(stderr, "%s: %s\nusage: %s%s [--seconds S] [--mutant NAME] [--break-round N]\n",
		program, why, program, a->nr_structures ? " --structure NAME" : "");
	if (a->nr_structures)
		fprintf(stderr, "structures:");
	for (int k = 0; k < a->nr_structures; k++)
		fprintf(stderr, " %s", a->structures[k]);
	fprintf(stderr, "%smutants:", a->nr_structures ? "\n" : "");
	for (int m = 1; m < a->nr_mutants; m++)
		fprintf(stderr, " %s", a->mutants[m]);
	fprintf(stderr, "\n");
	exit(2);
}

/* The index of name in names[from..n), or -1. */
static int name_index(const char *const *names, int from, int n, const char *name)
{
	for (int k = from; k < n; k++)
		if (strcmp(names[k], name) == 0)
			return k;
	return -1;
}

void hist_args_parse(struct hist_args *a, int argc, char **argv)
{
	static const char *const options[] = { "--seconds", "--mutant", "--structure",
					       "--break-round" };

	a->seconds = 0;
	a->mutant = 0;
	a->structure = -1;
	a->break_round = 0;
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (name_index(options, 0, (int)(sizeof(options) / sizeof(options[0])), opt) < 0)
			usage(a, argv[0], "unknown argument");
		if (val == NULL)
			usage(a, argv[0], "an option without its value");
		i++;
		if (strcmp(opt, "--seconds") == 0) {
			a->seconds = strtod(val, NULL);
			if (!(a->seconds > 0))
				usage(a, argv[0], "--seconds takes a positive number");
		} else if (strcmp(opt, "--mutant") == 0) {
			a->mutant = name_index(a->mutants, 1, a->nr_mutants, val);
			if (a->mutant < 0)
				usage(a, argv[0], "no such mutant");
		} else if (strcmp(opt, "--structure") == 0) {
			a->structure = name_index(a->structures, 0, a->nr_structures, val);
			if (a->structure < 0)
				usage(a, argv[0], "no such structure");
		} else {
			a->break_round = strtol(val, NULL, 10);
			if (a->break_round < 1)
				usage(a, argv[0], "--break-round takes a round number from 1");
		}
	}
	if (a->nr_structures && a->structure < 0)
		usage(a, argv[0], "--structure is required");
	/* Line by line: what Check prints comes before the report, not
	 * after it when the program ends. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	args = a;
	started = test_now();
}

bool hist_break_this_round(long round)
{
	if (args == NULL || args->break_round != round)
		return false;
	fprintf(stderr, "history: --break-round %ld: a call no correct run makes is added to "
		"round %ld\n", round, round);
	return true;
}

_Noreturn void hist_end_failed(const char *what, long round, const char *why)
{
	if (args != NULL && args->mutant) {
		fprintf(stderr, "history: [%s] %s: round %ld %s: mutant %s reported after %.2f s\n",
			TEST_FLAVOUR_NAME, what, round, why, args->mutants[args->mutant],
			test_now() - started);
		fflush(NULL);
		_exit(0);
	}
	fprintf(stderr, "history: [%s] %s: round %ld %s\n", TEST_FLAVOUR_NAME, what, round, why);
	fflush(NULL);
	/* At once: other threads may still hold the structure, and what a
	 * broken run allocated need not be freed. */
	_exit(1);
}
