/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_common.c - the flavour-free helpers of test_common.h,
 * built once for the tests of the RCU core and of the table.
 */
#define _GNU_SOURCE
#include "test_common.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

double test_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* getenv() of <prefix>_<name>. */
static const char *getenv_of(const char *prefix, const char *name)
{
	char var[64];

	snprintf(var, sizeof(var), "%s_%s", prefix, name);
	return getenv(var);
}

/* The share of the stress time this flavour runs (<prefix>_STRESS_SCALE,
 * set by meson for a flavour whose code paths another flavour's suite
 * already stresses at length), never bringing a run below 0.3 s (or below
 * the unscaled time when that is shorter). */
static double stress_scaled(const char *prefix, double seconds)
{
	const char *s = getenv_of(prefix, "STRESS_SCALE");
	double scale = s != NULL ? strtod(s, NULL) : 1.0;
	double least = seconds < 0.3 ? seconds : 0.3;

	if (!(scale > 0.0) || scale >= 1.0)
		return seconds;
	return seconds * scale > least ? seconds * scale : least;
}

/* <prefix>_STRESS_SECONDS, or 2 s natively and 0.3 s under an emulator
 * (<prefix>_TEST_EMULATED, set by meson for cross builds). */
static double stress_unscaled(const char *prefix)
{
	const char *s = getenv_of(prefix, "STRESS_SECONDS");
	double fallback = getenv_of(prefix, "TEST_EMULATED") != NULL ? 0.3 : 2.0;
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return fallback;
	v = strtod(s, &end);
	if (end == s || !(v > 0.0)) {
		fprintf(stderr, "test: %s_STRESS_SECONDS=%s is not a positive number; using %g\n",
			prefix, s, fallback);
		return fallback;
	}
	return v;
}

double test_stress_seconds_of(const char *prefix)
{
	return stress_scaled(prefix, stress_unscaled(prefix));
}

/*
 * Stalls: the timer signal's handler sleeps, as a preemption would stop the
 * thread at any instruction; on two CPUs a thread is otherwise almost never
 * stopped between two steps (inside a read-side section, between a load
 * and its compare-and-swap) long enough for the others to move on.
 * nanosleep() is async-signal-safe.
 */
#ifndef sigev_notify_thread_id	/* glibc before 2.36 names it only so */
#define sigev_notify_thread_id _sigev_un._tid
#endif

static void stall_handler(int sig)
{
	struct timespec t = { .tv_nsec = TEST_STALL_US * 1000L };

	(void)sig;
	nanosleep(&t, NULL);
}

bool test_stalls_start(timer_t *timer)
{
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGRTMIN + 1 };
	struct itimerspec period = {
		.it_interval = { .tv_nsec = TEST_STALL_PERIOD_US * 1000L },
		.it_value = { .tv_nsec = TEST_STALL_PERIOD_US * 1000L },
	};
	struct sigaction sa = { .sa_handler = stall_handler, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGRTMIN + 1, &sa, NULL) != 0)
		return false;
	ev.sigev_notify_thread_id = (pid_t)gettid();
	if (timer_create(CLOCK_MONOTONIC, &ev, timer) != 0)
		return false;
	if (timer_settime(*timer, 0, &period, NULL) != 0) {
		timer_delete(*timer);
		return false;
	}
	return true;
}

uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}
