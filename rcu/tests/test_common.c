/* SPDX-License-Identifier: MIT */
/*
 * rcu/tests/test_common.c - the flavour-free helpers of test_common.h,
 * built once for the tests of the RCU core and of the table.
 */
#define _GNU_SOURCE
#include "test_common.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

/* ---- children --------------------------------------------------------- */

static void child_side(int fds[2], void (*fn)(void *arg), void *arg)
{
	struct rlimit no_core = { 0, 0 };

	close(fds[0]);
	(void)setrlimit(RLIMIT_CORE, &no_core);
	if (dup2(fds[1], STDERR_FILENO) < 0)
		_exit(125);
	close(fds[1]);
	fn(arg);
	fflush(stderr);
	_exit(0);
}

pid_t test_child_start(void (*fn)(void *arg), void *arg, int *err_fd)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(fds[0]);
		close(fds[1]);
		errno = err;
		return -1;
	}
	if (pid == 0)
		child_side(fds, fn, arg);
	close(fds[1]);
	*err_fd = fds[0];
	return pid;
}

/* Reads the child's stderr until EOF or the deadline; past a full buffer
 * it reads on into a sink, so the child never blocks on the pipe. */
static void drain_stderr(int fd, double deadline, struct test_child *child)
{
	size_t len = 0;

	for (;;) {
		double left = deadline - test_now();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (left <= 0)
			break;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		if (len + 1 >= sizeof(child->err)) {
			char sink[256];

			n = read(fd, sink, sizeof(sink));
		} else {
			n = read(fd, child->err + len, sizeof(child->err) - 1 - len);
			if (n > 0)
				len += (size_t)n;
		}
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	child->err[len] = '\0';
}

void test_child_finish(pid_t pid, int err_fd, double deadline, struct test_child *child)
{
	struct timespec pause = { .tv_nsec = 50 * 1000 };
	pid_t done;

	memset(child, 0, sizeof(*child));
	drain_stderr(err_fd, deadline, child);
	close(err_fd);
	for (;;) {
		done = waitpid(pid, &child->status, WNOHANG);
		if (done == pid || (done < 0 && errno != EINTR))
			break;
		if (test_now() > deadline) {
			kill(pid, SIGKILL);
			(void)waitpid(pid, &child->status, 0);
			break;
		}
		nanosleep(&pause, NULL);
	}
	child->finished = done == pid;
	if (!child->finished ||
	    (WIFEXITED(child->status) && WEXITSTATUS(child->status) != 0))
		fprintf(stderr, "test: child %d %s, its stderr:\n%s\n", (int)pid,
			test_child_describe(child), child->err);
}

const char *test_child_err_tail(const struct test_child *child)
{
	size_t len = strlen(child->err);

	return len > 400 ? child->err + len - 400 : child->err;
}

const char *test_child_describe(const struct test_child *child)
{
	static char buf[64];

	if (!child->finished)
		return "still running at the deadline (killed)";
	if (WIFEXITED(child->status))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(child->status));
	else if (WIFSIGNALED(child->status))
		snprintf(buf, sizeof(buf), "killed by %s",
			 strsignal(WTERMSIG(child->status)));
	else
		snprintf(buf, sizeof(buf), "status 0x%x", child->status);
	return buf;
}

/* ---- the rest ------------------------------------------------------------ */

uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}
