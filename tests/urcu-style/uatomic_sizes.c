/* SPDX-License-Identifier: MIT */
/*
 * uatomic_sizes.c - a liburcu program (liburcu's headers and names only)
 * for issue 33's fourth item: UATOMIC_HAS_ATOMIC_BYTE and _SHORT are
 * defined where liburcu defines them (x86-64 and aarch64: both; POWER:
 * neither; checked at compile time, so a regression fails the build), and
 * every classic uatomic operation works on each size they advertise, and
 * on unsigned int and unsigned long always: the value, wrap-around, and
 * the guard bytes on either side of the object left as they were (an
 * operation of the wrong width would overwrite them). Then two threads
 * increment neighbouring 8-, 16- and 32-bit counters at once, which loses
 * counts unless each increment is atomic at its own size. Built through
 * lfht's layer, and against liburcu itself where it is installed (which
 * shows it is liburcu 0.13 code). Prints what it checked; exits 1 on any
 * failure.
 */
#define _GNU_SOURCE	/* pthread_barrier_t under -std=c11 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/arch.h>
#include <urcu/compiler.h>
#include <urcu/uatomic.h>

/* liburcu's choice, per architecture (0.13's urcu/uatomic/<arch>.h). */
#if defined(__x86_64__) || defined(__aarch64__)
#if !defined(UATOMIC_HAS_ATOMIC_BYTE) || !defined(UATOMIC_HAS_ATOMIC_SHORT)
#error "liburcu defines UATOMIC_HAS_ATOMIC_BYTE and _SHORT on x86-64 and aarch64"
#endif
#elif defined(__powerpc64__)
#if defined(UATOMIC_HAS_ATOMIC_BYTE) || defined(UATOMIC_HAS_ATOMIC_SHORT)
#error "liburcu defines neither UATOMIC_HAS_ATOMIC_BYTE nor _SHORT on POWER"
#endif
#endif

#define GUARD_BYTE 0xa5
#define GUARDS 8

static unsigned int passed, failed;

static void check(const char *type, const char *what, int ok)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "FAIL: %s: %s\n", type, what);
	}
}

static int guards_intact(const unsigned char *before, const unsigned char *after)
{
	for (int i = 0; i < GUARDS; i++)
		if (before[i] != GUARD_BYTE || after[i] != GUARD_BYTE)
			return 0;
	return 1;
}

/* ok, and the neighbours intact; then mends them, so that one failure
 * does not fail every later check too. */
static void check_box(const char *type, const char *what, int ok,
		      unsigned char *before, unsigned char *after)
{
	check(type, what, ok && guards_intact(before, after));
	memset(before, GUARD_BYTE, GUARDS);
	memset(after, GUARD_BYTE, GUARDS);
}

/* In a check_ops_<name>(). */
#define CHECK_BOX(what, cond)						\
	check_box(type_name, what, (cond), box.before, box.after)

/* liburcu 0.15's names; 0.13 has uatomic_read and uatomic_set only. */
#if defined(uatomic_load) && defined(uatomic_store)
#define CHECK_LOAD_STORE(value)						\
	do {								\
		uatomic_store(&box.v, (value));				\
		CHECK_BOX("store/load", uatomic_load(&box.v) == (value)); \
	} while (0)
#else
#define CHECK_LOAD_STORE(value)	do { } while (0)
#endif

/*
 * check_ops_<name>(): every classic operation once on a <type> between
 * guard bytes, wrapping around at its largest value. uatomic_and clears
 * the top byte and uatomic_or sets the top bit, so an operation on the
 * low byte only would show.
 */
#define DEFINE_CHECK_OPS(name, type)					\
struct box_##name {							\
	unsigned char before[GUARDS];					\
	type v;								\
	unsigned char after[GUARDS];					\
};									\
/* No padding: the guards are the object's next-door bytes. */		\
_Static_assert(offsetof(struct box_##name, after) ==			\
	       GUARDS + sizeof(type), "padding around " #type);		\
static void check_ops_##name(void)					\
{									\
	const char *type_name = #type;					\
	const type max = (type)~(type)0;				\
	const type top = (type)(max ^ (max >> 1));			\
	unsigned int before = passed + failed;				\
	struct box_##name box;						\
	type r;								\
									\
	memset(&box, GUARD_BYTE, sizeof(box));				\
	uatomic_set(&box.v, 0);						\
	CHECK_BOX("set/read 0", uatomic_read(&box.v) == 0);		\
	uatomic_set(&box.v, max);					\
	CHECK_BOX("set/read max", uatomic_read(&box.v) == max);		\
	CHECK_LOAD_STORE(max);						\
	r = uatomic_cmpxchg(&box.v, max, 1);				\
	CHECK_BOX("cmpxchg success", r == max && box.v == 1);		\
	r = uatomic_cmpxchg(&box.v, max, 2);				\
	CHECK_BOX("cmpxchg failure", r == 1 && box.v == 1);		\
	r = uatomic_xchg(&box.v, max);					\
	CHECK_BOX("xchg", r == 1 && box.v == max);			\
	r = uatomic_add_return(&box.v, 2);				\
	CHECK_BOX("add_return wraps", r == 1 && box.v == 1);		\
	r = uatomic_sub_return(&box.v, 2);				\
	CHECK_BOX("sub_return wraps", r == max && box.v == max);	\
	uatomic_add(&box.v, 1);						\
	CHECK_BOX("add wraps", box.v == 0);				\
	uatomic_sub(&box.v, 1);						\
	CHECK_BOX("sub wraps", box.v == max);				\
	uatomic_and(&box.v, 0x0f);					\
	CHECK_BOX("and clears the top byte", box.v == 0x0f);		\
	uatomic_or(&box.v, top);					\
	CHECK_BOX("or sets the top bit", box.v == (type)(top | 0x0f));	\
	uatomic_set(&box.v, max);					\
	uatomic_inc(&box.v);						\
	CHECK_BOX("inc wraps", box.v == 0);				\
	uatomic_dec(&box.v);						\
	CHECK_BOX("dec wraps", box.v == max);				\
	printf("%s (size %zu): %u checks\n", type_name, sizeof(type),	\
	       passed + failed - before);				\
}

#ifdef UATOMIC_HAS_ATOMIC_BYTE
DEFINE_CHECK_OPS(uchar, unsigned char)
#endif
#ifdef UATOMIC_HAS_ATOMIC_SHORT
DEFINE_CHECK_OPS(ushort, unsigned short)
#endif
DEFINE_CHECK_OPS(uint, unsigned int)
DEFINE_CHECK_OPS(ulong, unsigned long)

static void (*const check_ops[])(void) = {
#ifdef UATOMIC_HAS_ATOMIC_BYTE
	check_ops_uchar,
#endif
#ifdef UATOMIC_HAS_ATOMIC_SHORT
	check_ops_ushort,
#endif
	check_ops_uint,
	check_ops_ulong,
};

/*
 * The two-thread check: c8 and c16 share a 4-byte word (with guard_lo),
 * next to c32, so an increment that is not atomic at its own size loses
 * counts of its own or of a neighbour. 2 * INCS stays below 65536, so c16
 * counts exactly; c8 counts modulo 256 (a loss shows unless a multiple of
 * 256 is lost).
 */
#define INCS 30000

struct counters {
	unsigned char guard_lo;
	unsigned char c8;
	unsigned short c16;
	unsigned int c32;
	unsigned char guard_hi;
};

static struct counters counters;
static pthread_barrier_t start;

#ifdef UATOMIC_HAS_ATOMIC_BYTE
#define HAS_BYTE 1
static void count_byte(void) { uatomic_inc(&counters.c8); }
#else
#define HAS_BYTE 0
static void count_byte(void) { }
#endif
#ifdef UATOMIC_HAS_ATOMIC_SHORT
#define HAS_SHORT 1
static void count_short(void) { uatomic_inc(&counters.c16); }
#else
#define HAS_SHORT 0
static void count_short(void) { }
#endif

static void *counting_thread(void *arg)
{
	(void)arg;
	/* Both threads start together, so their increments interleave. */
	pthread_barrier_wait(&start);
	for (int i = 0; i < INCS; i++) {
		count_byte();
		count_short();
		uatomic_inc(&counters.c32);
	}
	return NULL;
}

static void check_two_threads(void)
{
	pthread_t threads[2];

	counters.guard_lo = GUARD_BYTE;
	counters.guard_hi = GUARD_BYTE;
	if (pthread_barrier_init(&start, NULL, 2) != 0) {
		check("counters", "pthread_barrier_init", 0);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (pthread_create(&threads[i], NULL, counting_thread, NULL) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			exit(1);
		}
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&start);

	check("unsigned char", "two threads' increments",
	      uatomic_read(&counters.c8) == (HAS_BYTE ? (unsigned char)(2 * INCS) : 0));
	check("unsigned short", "two threads' increments",
	      uatomic_read(&counters.c16) == (HAS_SHORT ? 2 * INCS : 0));
	check("unsigned int", "two threads' increments",
	      uatomic_read(&counters.c32) == 2 * INCS);
	check("counters", "guards intact",
	      counters.guard_lo == GUARD_BYTE && counters.guard_hi == GUARD_BYTE);
	printf("two threads, %d increments each: c8 %u, c16 %u, c32 %u\n", INCS,
	       (unsigned int)counters.c8, (unsigned int)counters.c16, counters.c32);
}

int main(void)
{
	printf("UATOMIC_HAS_ATOMIC_BYTE %s, UATOMIC_HAS_ATOMIC_SHORT %s\n",
	       HAS_BYTE ? "defined" : "undefined", HAS_SHORT ? "defined" : "undefined");
	for (size_t i = 0; i < sizeof(check_ops) / sizeof(check_ops[0]); i++)
		check_ops[i]();
	check_two_threads();
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
