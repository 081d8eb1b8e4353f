/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _CONFORMANCE_PROCESS_H_
#define _CONFORMANCE_PROCESS_H_

/*
 * DPDK's option tests start a copy of the test program with other EAL
 * options and look only at its exit status. process_dup() does that: the
 * child is this program again (through /proc/self/exe, so that argv[0]
 * may be any name), with RTE_TEST_RECURSIVE set to @p env_value, so that
 * runner.c only starts and stops the EAL in it. Descriptors other than
 * 0, 1 and 2 are not inherited: a lock held through one would make the
 * child see its parent's files as its own.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>

/* The --file-prefix of this process, which runner.c takes from argv. */
extern char conformance_prefix[];

/*
 * DPDK reads the prefix back from the path of its runtime configuration
 * file; rtemem's process has none, so the runner keeps what it was given.
 */
static inline char *
get_current_prefix(char *prefix, int size)
{
	snprintf(prefix, (size_t)size, "%s", conformance_prefix);
	return prefix;
}

static inline void
conformance_close_from(int first)
{
	int fd, max = (int)sysconf(_SC_OPEN_MAX);

	for (fd = first; fd < max; fd++)
		close(fd);
}

/* @return the child's exit status, or -1 if it could not run or died. */
static inline int
process_dup(const char *const argv[], int numargs, const char *env_value)
{
	char **args;
	int i, status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		args = calloc((size_t)numargs + 1, sizeof(*args));
		if (args == NULL)
			_exit(127);
		for (i = 0; i < numargs; i++)
			args[i] = (char *)(uintptr_t)argv[i];
		conformance_close_from(3);
		if (setenv("RTE_TEST_RECURSIVE", env_value, 1) != 0)
			_exit(127);
		execv("/proc/self/exe", args);
		fprintf(stderr, "exec of the test program: %s\n",
				strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif /* _CONFORMANCE_PROCESS_H_ */
