/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The shared lock that a dead owner cannot keep (eal_mplock.h), across
 * real processes sharing a mapping: exclusion under contention (an exact
 * count), take-over from an owner killed with SIGKILL while holding it
 * (before and after it is reaped), from an owner whose PID another process
 * reused, and never from a live owner.
 */

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eal_mplock.h"
#include "eal_sys.h"
#include "test.h"

#define MPL_ROUNDS 20000 /* increments per process */
#define MPL_PROCS 3 /* contending children */
#define MPL_TIMEOUT_S 30 /* SIGALRM ends a case that hangs */

struct mpl_shared {
	struct eal_mplock lock;
	uint64_t counter; /* changed under the lock only */
	volatile int go; /* children start together */
	volatile int held; /* a child holds the lock */
};

static struct mpl_shared *
mpl_map(void)
{
	void *p = mmap(NULL, sizeof(struct mpl_shared), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* In a forked child: count under the lock; exit 1 on any surprise. */
static void
mpl_count(struct mpl_shared *s)
{
	uint64_t self = eal_proc_self_id();
	unsigned int i;

	while (!s->go)
		;
	for (i = 0; i < MPL_ROUNDS; i++) {
		if (eal_mplock_lock(&s->lock, self) != 0)
			_exit(1);
		s->counter++;
		eal_mplock_unlock(&s->lock);
	}
	_exit(0);
}

static int
test_mplock_exclusion(void)
{
	struct mpl_shared *s = mpl_map();
	pid_t pids[MPL_PROCS];
	unsigned int i;
	int st, bad = 0;

	TEST_ASSERT_NOT_NULL(s, "mmap");
	for (i = 0; i < MPL_PROCS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			mpl_count(s);
	}
	s->go = 1;
	for (i = 0; i < MPL_PROCS; i++)
		if (pids[i] < 0 || waitpid(pids[i], &st, 0) != pids[i] ||
				!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			bad++;
	TEST_ASSERT_EQUAL(bad, 0, "%d children failed", bad);
	TEST_ASSERT_EQUAL(s->counter, (uint64_t)MPL_PROCS * MPL_ROUNDS,
			"counted %lu", (unsigned long)s->counter);
	TEST_ASSERT_EQUAL(eal_mplock_owner(&s->lock), 0, "left held");
	munmap(s, sizeof(*s));
	return TEST_SUCCESS;
}

/* A child that takes the lock and is killed holding it. */
static pid_t
mpl_die_holding(struct mpl_shared *s)
{
	pid_t pid = fork();

	if (pid == 0) {
		eal_mplock_lock(&s->lock, eal_proc_self_id());
		s->held = 1;
		raise(SIGKILL);
		_exit(2);
	}
	while (pid > 0 && !s->held)
		;
	return pid;
}

static int
test_mplock_dead_owner(void)
{
	struct mpl_shared *s = mpl_map();
	uint64_t self = eal_proc_self_id();
	pid_t pid;
	int st;

	TEST_ASSERT_NOT_NULL(s, "mmap");
	TEST_ASSERT_NOT_EQUAL(self, 0, "no identity");
	/* Killed, not reaped yet: a zombie is not a live owner. */
	pid = mpl_die_holding(s);
	TEST_ASSERT(pid > 0, "fork");
	TEST_ASSERT_EQUAL(
			eal_proc_pid(eal_mplock_owner(&s->lock)), pid, "owner");
	TEST_ASSERT_EQUAL(eal_mplock_lock(&s->lock, self), -EOWNERDEAD,
			"taken from a zombie");
	TEST_ASSERT_EQUAL(eal_mplock_owner(&s->lock), self, "now ours");
	eal_mplock_unlock(&s->lock);
	waitpid(pid, &st, 0);
	TEST_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status");
	/* Reaped: the PID is gone. */
	s->held = 0;
	pid = mpl_die_holding(s);
	TEST_ASSERT(pid > 0, "fork");
	waitpid(pid, &st, 0);
	TEST_ASSERT_EQUAL(eal_mplock_lock(&s->lock, self), -EOWNERDEAD,
			"taken from a reaped owner");
	eal_mplock_unlock(&s->lock);
	/* Our PID with another start time: a process that reused the PID. */
	s->lock.owner = self ^ (UINT64_C(1) << 40);
	TEST_ASSERT_EQUAL(eal_mplock_lock(&s->lock, self), -EOWNERDEAD,
			"taken from an owner whose PID was reused");
	eal_mplock_unlock(&s->lock);
	TEST_ASSERT_EQUAL(eal_mplock_lock(&s->lock, self), 0, "free again");
	eal_mplock_unlock(&s->lock);
	munmap(s, sizeof(*s));
	return TEST_SUCCESS;
}

/* A live owner keeps the lock however long it holds it. */
static int
test_mplock_live_owner(void)
{
	struct mpl_shared *s = mpl_map();
	uint64_t self = eal_proc_self_id();
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	pid_t pid;
	int st;

	TEST_ASSERT_NOT_NULL(s, "mmap");
	pid = fork();
	if (pid == 0) {
		eal_mplock_lock(&s->lock, eal_proc_self_id());
		s->held = 1;
		nanosleep(&pause, NULL);
		s->counter = 1;
		eal_mplock_unlock(&s->lock);
		_exit(0);
	}
	TEST_ASSERT(pid > 0, "fork");
	while (!s->held)
		;
	TEST_ASSERT(!eal_mplock_trylock(&s->lock, self), "taken while held");
	/* Waits out the 200 ms (many liveness checks) without taking it. */
	TEST_ASSERT_EQUAL(eal_mplock_lock(&s->lock, self), 0, "lock");
	TEST_ASSERT_EQUAL(s->counter, 1, "taken before the owner let go");
	eal_mplock_unlock(&s->lock);
	waitpid(pid, &st, 0);
	TEST_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child");
	munmap(s, sizeof(*s));
	return TEST_SUCCESS;
}

/* A lock that never comes back must fail the test, not hang it. */
static int
mpl_alarm_set(void)
{
	alarm(MPL_TIMEOUT_S);
	return TEST_SUCCESS;
}

static void
mpl_alarm_clear(void)
{
	alarm(0);
}

static struct unit_test_suite mplock_suite = {
	.suite_name = "shared lock with dead-owner take-over",
	.unit_test_cases = {
		TEST_CASE_ST(mpl_alarm_set, mpl_alarm_clear,
				test_mplock_exclusion),
		TEST_CASE_ST(mpl_alarm_set, mpl_alarm_clear,
				test_mplock_dead_owner),
		TEST_CASE_ST(mpl_alarm_set, mpl_alarm_clear,
				test_mplock_live_owner),
		TEST_CASES_END(),
	},
};

static int
test_mplock(void)
{
	return unit_test_suite_runner(&mplock_suite);
}

REGISTER_FAST_TEST(mplock_autotest, NOHUGE_OK, ASAN_OK, test_mplock);
