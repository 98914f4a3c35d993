/* SPDX-License-Identifier: MIT */
/*
 * lfht-bench worker: one workload run, one result line. Built once per
 * implementation (impl.c includes the header that BENCH_IMPL_HEADER
 * names); the driver (lfht-bench) runs these executables interleaved and
 * compares them.
 *
 *   lfht-bench-<impl> --workload W [--keys N] [--threads T] [--seconds S]
 *                     [--auto-flags acct|plain] [--cleanup] [--pin]
 *   lfht-bench-<impl> --info
 *
 * Output: "RESULT impl=... workload=... keys=... threads=... name=value ..."
 * (report.c); a workload the implementation cannot run: "UNSUPPORTED ...
 * reason=..." and exit status 3.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
	struct options o = { .w = NULL, .keys = 1UL << 16, .threads = 1,
			     .seconds = 1.0, .cleanup = 0, .auto_mode = 1 };
	const char *name = NULL;
	const struct bench_workload *w = NULL;
	struct bench_result r = { 0 };
	const char *refused;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--info")) {
			print_info();
			return 0;
		} else if (!strcmp(a, "--cleanup")) {
			o.cleanup = 1;
		} else if (!strcmp(a, "--pin")) {
			bench_pin = 1;
		} else if (!v) {
			usage();
		} else if (!strcmp(a, "--workload")) {
			name = v, i++;
		} else if (!strcmp(a, "--keys")) {
			o.keys = strtoul(v, NULL, 0), i++;
		} else if (!strcmp(a, "--threads")) {
			o.threads = (unsigned)strtoul(v, NULL, 0), i++;
		} else if (!strcmp(a, "--auto-flags")) {
			o.auto_mode = strcmp(v, "plain") ? 1 : 2, i++;
		} else if (!strcmp(a, "--seconds")) {
			o.seconds = strtod(v, NULL), i++;
		} else {
			usage();
		}
	}
	for (unsigned i = 0; name && i < bench_nworkloads; i++)
		if (!strcmp(name, bench_workloads[i].name))
			w = o.w = &bench_workloads[i];
	if (!w || o.keys == 0 || o.threads == 0 || o.threads > 1024 || o.seconds <= 0 ||
	    ((o.keys & (o.keys - 1)) && !(w->flags & WL_ANY_KEY_COUNT)))
		usage();
	/* Refused before registering: a header's set-up (DPDK's EAL) is not
	 * paid for a workload that does not run. */
	refused = workload_refused(w);
	if (refused)
		print_unsupported(w, refused);
	bench_pin_self(0);
	bench_impl.register_thread();
	r.keys = o.keys;
	r.threads = o.threads;
	w->run(&o, &r);
	print_result(w, &r);
	fflush(stdout);
	bench_impl.unregister_thread();
	return 0;
}
