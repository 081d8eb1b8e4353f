/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The primary that an attach mode's secondaries attach to: this program
 * again, with MPERF_HOLD_ARG and the case's size, on lcore id 64 of the
 * measured CPU (the secondaries run on the CPU's own id, so no lcore is
 * shared). It says "ready" on a pipe once rte_eal_init() returned and
 * holds its memory until the parent closes its stdin.
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>

#include "mperf.h"

extern char **environ;

#define HOLD_LCORE 64

int
mperf_hold_child(int argc, char **argv)
{
	char c;

	if (rte_eal_init(argc, argv) < 0)
		return MPERF_CHILD_INIT_FAILED;
	if (write(MPERF_CHILD_FD, "ready\n", 6) != 6)
		return 1;
	close(MPERF_CHILD_FD);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	return rte_eal_cleanup() == 0 ? 0 : 1;
}

/* Wait for "ready" on @p fd. @return 0, or -1 if the holder failed. */
static int
hold_wait_ready(int fd)
{
	char buf[8] = "";
	ssize_t n, got = 0;

	while (got < 6) {
		n = read(fd, buf + got, (size_t)(6 - got));
		if (n < 0 && errno == EINTR && !mperf_interrupted())
			continue;
		if (n <= 0)
			return -1;
		got += n;
	}
	return strncmp(buf, "ready\n", 6) == 0 ? 0 : -1;
}

static int
hold_spawn(char *const argv[], int in_fd, int ready_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int err;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, ready_fd, MPERF_CHILD_FD);
	/* Its EAL lines would cut the progress line; failures are said. */
	posix_spawn_file_actions_addopen(
			&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	err = posix_spawn(pid, "/proc/self/exe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return err == 0 ? 0 : -1;
}

int
mperf_hold_start(const struct mperf_ctx *ctx, unsigned int size_mb,
		struct mperf_hold *h)
{
	char size[16], lcores[32];
	char *argv[] = { (char *)(uintptr_t)MPERF_PROG,
		(char *)(uintptr_t)MPERF_HOLD_ARG,
		(char *)(uintptr_t) "--huge-dir",
		(char *)(uintptr_t)ctx->rt_dir,
		(char *)(uintptr_t) "--file-prefix",
		(char *)(uintptr_t)ctx->prefix, (char *)(uintptr_t) "--lcores",
		lcores, (char *)(uintptr_t) "-m", size,
		(char *)(uintptr_t) "--huge-unlink=never", NULL };
	int in[2], ready[2], ret;

	snprintf(size, sizeof(size), "%u", size_mb);
	snprintf(lcores, sizeof(lcores), "%d@%d", HOLD_LCORE, ctx->machine.cpu);
	h->pid = -1;
	h->in_fd = -1;
	if (pipe2(in, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(ready, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	ret = hold_spawn(argv, in[0], ready[1], &h->pid);
	close(in[0]);
	close(ready[1]);
	h->in_fd = in[1];
	if (ret == 0)
		ret = hold_wait_ready(ready[0]);
	close(ready[0]);
	if (ret < 0) {
		fprintf(stderr, "%s: the primary of the attach mode did not start\n",
				MPERF_PROG);
		mperf_hold_stop(h);
	}
	return ret;
}

int
mperf_hold_stop(struct mperf_hold *h)
{
	int status = -1;

	if (h->in_fd >= 0)
		close(h->in_fd);
	h->in_fd = -1;
	if (h->pid > 0) {
		while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
			if (mperf_interrupted())
				kill(h->pid, SIGKILL);
	}
	h->pid = -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
