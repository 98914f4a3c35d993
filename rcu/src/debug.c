/* SPDX-License-Identifier: MIT */
/*
 * debug.c - the misuse report of RCU_DEBUG_CHECKS builds: one line on
 * stderr, "rcu: <call>: <rule broken>", then abort(). Exported because the
 * inline read side of the flavour headers calls it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

_Noreturn void RCU_SYM_(misuse_)(const char *call, const char *rule)
{
	fprintf(stderr, "rcu: %s: %s\n", call, rule);
	fflush(stderr);
	abort();
}
