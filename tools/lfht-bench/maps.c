/* SPDX-License-Identifier: MIT */
/*
 * maps.c - the memory a table's library maps for itself, outside malloc's
 * heap (liburcu's bucket tables under its mmap backend, lfht's bucket
 * region), for the memory workload. The benchmark defines mmap() and
 * munmap(): a shared library's call reaches them through its PLT, a static
 * one's through libc's weak aliases, and each is recorded before it goes
 * to the kernel. glibc's malloc maps its own chunks through internal calls
 * that never come here (mallinfo2() counts those), and so does
 * pthread_create() its stacks. mapped_resident_bytes() adds up the resident
 * pages (mincore()) of the ranges still mapped: an address-space
 * reservation costs nothing until its pages are written.
 *
 * Not the table's code: a mutex guards the ranges (mappings are rare: a
 * table's creation, its resizes, its destruction).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

/* More live mappings than any table here makes; past it, new ones go
 * uncounted and maps_overflowed says so. */
#define MAX_RANGES 4096

struct range {
	uintptr_t start, end;
};

static struct range ranges[MAX_RANGES];
static unsigned nr_ranges;
static int maps_overflowed;
static pthread_mutex_t ranges_lock = PTHREAD_MUTEX_INITIALIZER;

static void ranges_add(uintptr_t start, uintptr_t end)
{
	for (unsigned i = 0; i < nr_ranges; i++)
		if (ranges[i].start <= start && end <= ranges[i].end)
			return;	/* a MAP_FIXED remap inside a range held */
	if (nr_ranges == MAX_RANGES) {
		maps_overflowed = 1;
		return;
	}
	ranges[nr_ranges++] = (struct range){ start, end };
}

/* Takes [start, end) out of every range: a range may shrink or split. */
static void ranges_remove(uintptr_t start, uintptr_t end)
{
	for (unsigned i = 0; i < nr_ranges; i++) {
		struct range r = ranges[i];

		if (r.end <= start || end <= r.start)
			continue;
		if (r.start < start && end < r.end && nr_ranges < MAX_RANGES)
			ranges[nr_ranges++] = (struct range){ end, r.end };
		if (r.start < start)
			ranges[i].end = start;
		else if (end < r.end)
			ranges[i].start = end;
		else
			ranges[i--] = ranges[--nr_ranges];
	}
}

static uintptr_t page_up(uintptr_t x)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	return (x + page - 1) & ~(page - 1);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);

	if (p != MAP_FAILED && (flags & MAP_ANONYMOUS)) {
		pthread_mutex_lock(&ranges_lock);
		ranges_add((uintptr_t)p, page_up((uintptr_t)p + len));
		pthread_mutex_unlock(&ranges_lock);
	}
	return p;
}

int munmap(void *addr, size_t len)
{
	int ret = (int)syscall(SYS_munmap, addr, len);

	if (ret == 0) {
		pthread_mutex_lock(&ranges_lock);
		ranges_remove((uintptr_t)addr, page_up((uintptr_t)addr + len));
		pthread_mutex_unlock(&ranges_lock);
	}
	return ret;
}

long mapped_resident_bytes(void)
{
	static unsigned char vec[4096];
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	long resident = 0;

	pthread_mutex_lock(&ranges_lock);
	if (maps_overflowed) {
		fprintf(stderr, "lfht-bench: memory: more than %d live mappings: "
			"mapped bytes are not all counted\n", MAX_RANGES);
		abort();
	}
	for (unsigned i = 0; i < nr_ranges; i++) {
		for (uintptr_t at = ranges[i].start; at < ranges[i].end;) {
			uintptr_t chunk = ranges[i].end - at;

			if (chunk > sizeof(vec) * page)
				chunk = sizeof(vec) * page;
			if (mincore((void *)at, chunk, vec) == 0)
				for (uintptr_t p = 0; p < chunk / page; p++)
					resident += vec[p] & 1;
			at += chunk;
		}
	}
	pthread_mutex_unlock(&ranges_lock);
	return resident * (long)page;
}
