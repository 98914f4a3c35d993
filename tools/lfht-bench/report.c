/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench: what the worker prints. One RESULT line per run, from the
 * result the run function filled:
 *
 *   RESULT impl=... workload=... keys=... threads=... name=value ...
 *
 * --info: the implementation's description ("impl": name, kind, help,
 * note, pair, vs; impl.c) and the workload table (table.c) as JSON, with
 * this implementation's reason for each workload it cannot run; the
 * driver reads both. A refused
 * workload: "UNSUPPORTED impl=... workload=... reason=..." and exit 3.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifndef BENCH_BUILDTYPE
#define BENCH_BUILDTYPE "unknown"
#endif
#ifndef BENCH_DEBUG_CHECKS
#define BENCH_DEBUG_CHECKS "unknown"
#endif

void result_add(struct bench_result *r, const char *name, enum bench_fmt fmt, double value)
{
	if (r->n == MAX_FIELDS) {
		fprintf(stderr, "lfht-bench: more than %d result fields\n", MAX_FIELDS);
		abort();
	}
	r->f[r->n++] = (struct bench_field){ name, fmt, value };
}

void result_rate(struct bench_result *r, const char *name, unsigned long count, double secs)
{
	result_add(r, name, FMT_RATE, (double)count / secs);
}

void result_hit_ratio(struct bench_result *r, const struct bench_counts *c)
{
	result_add(r, "hit_ratio", FMT_RATIO,
		   c->lookups ? (double)c->hits / (double)c->lookups : 0.0);
}

static const struct bench_field *field(const struct bench_result *r, const char *name)
{
	for (unsigned i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].name, name))
			return &r->f[i];
	return NULL;
}

void print_result(const struct bench_workload *w, const struct bench_result *r)
{
	/* The table promises these metrics to the driver. */
	for (const struct bench_metric *m = w->metrics; m->name; m++) {
		if (!field(r, m->name)) {
			fprintf(stderr, "lfht-bench: %s gave no %s\n", w->name, m->name);
			abort();
		}
	}
	printf("RESULT impl=%s workload=%s keys=%lu threads=%u", bench_impl.name, w->name,
	       r->keys, r->threads);
	for (unsigned i = 0; i < r->n; i++) {
		const struct bench_field *f = &r->f[i];

		switch (f->fmt) {
		case FMT_RATE: printf(" %s=%.6g", f->name, f->value); break;
		case FMT_SECS: printf(" %s=%.3f", f->name, f->value); break;
		case FMT_RATIO: printf(" %s=%.3f", f->name, f->value); break;
		case FMT_BYTES: printf(" %s=%.2f", f->name, f->value); break;
		case FMT_COUNT: printf(" %s=%.0f", f->name, f->value); break;
		}
	}
	printf("\n");
}

/* A JSON string: the table's texts have no control characters. */
static void json_str(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void json_key(const char *key, const char *s)
{
	printf("\"%s\": ", key);
	json_str(s);
}

/* n string members, key and value each, separated by ", ". */
static void json_keys(const char *const kv[][2], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		printf("%s", i ? ", " : "");
		json_key(kv[i][0], kv[i][1]);
	}
}

static void print_workload_info(const struct bench_workload *w)
{
	const char *const info[][2] = {
		{ "name", w->name }, { "what", w->what }, { "keys", w->keys },
		{ "threads", w->threads }, { "roles", w->roles }, { "report", w->report },
	};

	printf("  {");
	json_keys(info, sizeof(info) / sizeof(info[0]));
	printf(", \"runs\": %u, \"smoke_keys\": %lu, \"metrics\": [", w->runs,
	       w->smoke_keys ? w->smoke_keys : 1024);
	for (const struct bench_metric *m = w->metrics; m->name; m++) {
		printf("%s{", m == w->metrics ? "" : ", ");
		json_key("name", m->name);
		printf(", ");
		json_key("label", m->label);
		printf(", \"zero_ok\": %s, \"lower_is_better\": %s}",
		       m->flags & METRIC_ZERO_OK ? "true" : "false",
		       m->flags & METRIC_LOWER_IS_BETTER ? "true" : "false");
	}
	printf("], ");
	json_key("refused", workload_refused(w));
	printf("}");
}

void print_info(void)
{
	const char *const impl[][2] = {
		{ "name", bench_impl.name }, { "kind", bench_impl.kind },
		{ "help", bench_impl.help }, { "note", bench_impl.note },
		{ "pair", bench_impl.pair }, { "vs", bench_impl.vs },
	};

	printf("{\"impl\": {");
	json_keys(impl, sizeof(impl) / sizeof(impl[0]));
	printf("},\n ");
	json_key("buildtype", BENCH_BUILDTYPE);
	printf(", ");
	json_key("debug_checks", BENCH_DEBUG_CHECKS);
	printf(", \"native_batch\": %d,\n \"workloads\": [\n", bench_impl.native_batch);
	for (unsigned i = 0; i < bench_nworkloads; i++) {
		print_workload_info(&bench_workloads[i]);
		printf("%s\n", i + 1 < bench_nworkloads ? "," : "");
	}
	printf(" ]}\n");
}

_Noreturn void print_unsupported(const struct bench_workload *w, const char *reason)
{
	printf("UNSUPPORTED impl=%s workload=%s reason=%s\n", bench_impl.name, w->name, reason);
	fflush(stdout);
	exit(3);
}

_Noreturn void usage(void)
{
	fprintf(stderr, "usage: lfht-bench-%s --workload ", bench_impl.name);
	for (unsigned i = 0; i < bench_nworkloads; i++)
		fprintf(stderr, "%s%s", i ? "|" : "", bench_workloads[i].name);
	fprintf(stderr, " [--keys N] [--threads T] [--seconds S] [--auto-flags acct|plain]"
		" [--cleanup] [--pin] | --info\n"
		"  N: a power of two (hot10, pool-*: any count; hot1, longread: unused)\n"
		"  T: threads (hot10, pool-*: readers and as many writers; hot1: writers;"
		" longread: readers, beside 2 writers)\n"
		"  --pin: this thread (the fill) on CPU 0, worker i on CPU i mod the CPUs\n"
		"  --info: the workloads (JSON): shape, thread roles, metrics, and why this"
		" implementation cannot run some\n");
	exit(2);
}
