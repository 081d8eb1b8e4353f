/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Timed child processes.
 *
 * The clock (CLOCK_MONOTONIC) is read just before posix_spawn() and just
 * after waitpid() returns; nothing polls in between, so the whole-process
 * time carries no tick of ours. The child's stdout and stderr go to one
 * memfd, read back after it exits (shown when it fails); stdin is
 * /dev/null, which also makes dpdk-test's prompt see end of file and exit.
 * A start-up child also gets a pipe on MPERF_CHILD_FD, where it writes
 * its own CLOCK_MONOTONIC stamps (the clock is the same in every process).
 *
 * Signals: SIGINT and SIGTERM set a flag (once: the second one kills);
 * SIGALRM bounds a child's run. None restarts waitpid(), so either ends
 * the wait, and the child is then killed.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mperf.h"

extern char **environ;

#define OUTPUT_MAX (1 << 20) /* bytes of a child's output kept */
#define FD_MIN 10 /* our descriptors stay clear of 0-3 in the child */

static volatile sig_atomic_t mperf_sig_int; /* SIGINT or SIGTERM seen */
static volatile sig_atomic_t mperf_sig_alarm; /* the child's time is up */

static void
mperf_on_signal(int sig)
{
	if (sig == SIGALRM)
		mperf_sig_alarm = 1;
	else
		mperf_sig_int = 1;
}

void
mperf_signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = mperf_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool
mperf_interrupted(void)
{
	return mperf_sig_int != 0;
}

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Move @p fd to a number >= FD_MIN, close-on-exec. @return it, or -1. */
static int
fd_high(int fd)
{
	int nfd;

	if (fd < 0)
		return -1;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, FD_MIN);
	close(fd);
	return nfd;
}

/* The environment of the child (malloc'd array of borrowed strings). */
static char **
proc_env(const struct mperf_proc *p)
{
	unsigned int n = 0, i;
	char **envp;

	while (environ[n] != NULL)
		n++;
	envp = calloc(n + 2, sizeof(*envp));
	if (envp == NULL)
		return NULL;
	n = 0;
	for (i = 0; environ[i] != NULL; i++) {
		if (p->clean_env &&
				(strncmp(environ[i], "DPDK_TEST=", 10) == 0 ||
						strncmp(environ[i],
								"DPDK_TEST_PARAMS=",
								17) == 0))
			continue;
		envp[n++] = environ[i];
	}
	if (p->env_add != NULL)
		envp[n++] = (char *)(uintptr_t)p->env_add;
	envp[n] = NULL;
	return envp;
}

static void
proc_read_output(struct mperf_proc *p, int fd)
{
	struct stat st;
	off_t off = 0;
	ssize_t r;
	size_t len;

	if (fstat(fd, &st) != 0)
		return;
	len = (size_t)st.st_size;
	if (len > OUTPUT_MAX) {
		off = (off_t)(len - OUTPUT_MAX);
		len = OUTPUT_MAX;
	}
	p->output = malloc(len + 1);
	if (p->output == NULL)
		return;
	r = pread(fd, p->output, len, off);
	p->output[r > 0 ? r : 0] = '\0';
}

static void
proc_read_stamps(struct mperf_proc *p, int fd, int64_t t0)
{
	long long s[2];
	char buf[128];
	ssize_t r;
	int i;

	p->stamp_ms[0] = -1;
	p->stamp_ms[1] = -1;
	r = read(fd, buf, sizeof(buf) - 1);
	if (r <= 0)
		return;
	buf[r] = '\0';
	if (sscanf(buf, "%lld %lld", &s[0], &s[1]) != 2)
		return;
	for (i = 0; i < 2; i++)
		p->stamp_ms[i] = (double)(s[i] - t0) / 1e6;
}

/*
 * Find @p name in $PATH. @return 0 with the path in @p buf, or -1. A
 * candidate longer than @p buf is skipped, not cut.
 */
int
mperf_path_search(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096], cand[PATH_MAX], *dir, *save;
	int n;

	snprintf(dirs, sizeof(dirs), "%s",
			path != NULL ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir != NULL;
			dir = strtok_r(NULL, ":", &save)) {
		n = snprintf(cand, sizeof(cand), "%s/%s",
				dir[0] != '\0' ? dir : ".", name);
		if (n < 0 || (size_t)n >= sizeof(cand) || (size_t)n >= len)
			continue;
		if (access(cand, X_OK) == 0) {
			memcpy(buf, cand, (size_t)n + 1);
			return 0;
		}
	}
	if (len > 0)
		buf[0] = '\0';
	return -1;
}

/* Wait for @p pid, killing it on a signal or when its time is up. */
static int
proc_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
		if (mperf_sig_alarm || mperf_sig_int)
			kill(pid, SIGKILL);
	}
	return status;
}

int
mperf_proc_run(struct mperf_proc *p)
{
	int out = -1, pfd[2] = { -1, -1 }, status = -1, err;
	posix_spawn_file_actions_t fa;
	char **envp = proc_env(p);
	int64_t t0, t1;
	pid_t pid;

	p->status = -1;
	p->output = NULL;
	p->exit_ms = -1;
	p->stamp_ms[0] = -1;
	p->stamp_ms[1] = -1;
	out = fd_high(memfd_create("mperf-output", MFD_CLOEXEC));
	if (p->stamps && pipe2(pfd, O_CLOEXEC) == 0) {
		pfd[0] = fd_high(pfd[0]);
		pfd[1] = fd_high(pfd[1]);
	}
	if (envp == NULL || out < 0 ||
			(p->stamps && (pfd[0] < 0 || pfd[1] < 0))) {
		fprintf(stderr, "%s: cannot set up a child process: %s\n",
				MPERF_PROG, strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
	if (p->stamps)
		posix_spawn_file_actions_adddup2(&fa, pfd[1], MPERF_CHILD_FD);
	mperf_sig_alarm = 0;
	alarm(p->timeout_s);
	t0 = now_ns();
	err = posix_spawn(&pid, p->path, &fa, NULL, p->argv, envp);
	if (err == 0)
		status = proc_wait(pid);
	t1 = now_ns();
	alarm(0);
	posix_spawn_file_actions_destroy(&fa);
	if (err != 0 || status == -1) {
		fprintf(stderr, "%s: cannot run %s: %s\n", MPERF_PROG, p->path,
				strerror(err != 0 ? err : errno));
		goto out;
	}
	if (p->stamps) {
		close(pfd[1]);
		pfd[1] = -1;
		proc_read_stamps(p, pfd[0], t0);
	}
	proc_read_output(p, out);
	p->exit_ms = (double)(t1 - t0) / 1e6;
	if (WIFEXITED(status))
		p->status = WEXITSTATUS(status);
	if (mperf_sig_alarm && p->output != NULL)
		fprintf(stderr, "%s: %s ran past %u s: killed\n", MPERF_PROG,
				p->path, p->timeout_s);
out:
	free(envp);
	if (out >= 0)
		close(out);
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	return p->status == 0 ? 0 : -1;
}

void
mperf_proc_release(struct mperf_proc *p)
{
	free(p->output);
	p->output = NULL;
}

void
mperf_proc_report(const struct mperf_proc *p, const char *what)
{
	const char *out = p->output != NULL ? p->output : "";
	const char *tail = out + strlen(out);
	unsigned int lines = 0, i;

	/* The last 20 lines are enough to see what went wrong. */
	while (tail > out && lines <= 20)
		if (*--tail == '\n')
			lines++;
	fprintf(stderr, "%s: %s failed (exit status %d):", MPERF_PROG, what,
			p->status);
	for (i = 0; p->argv[i] != NULL; i++)
		fprintf(stderr, " %s", p->argv[i]);
	fprintf(stderr, "\n%s%s", tail, tail[0] != '\0' ? "" : "(no output)\n");
}
