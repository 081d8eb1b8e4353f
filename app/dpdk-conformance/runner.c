/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The runner of DPDK's memory tests compiled against rtemem:
 *
 *   dpdk-conformance-test [EAL options] [--] COMMAND...
 *
 * runs each registered COMMAND (malloc_autotest, ...) after rte_eal_init()
 * and prints one line per command, "case COMMAND: ok", "case COMMAND:
 * FAILED (file:line function)" or "case COMMAND: skipped". It exits 0 when
 * every command passed, 77 when none failed but some skipped, 1 otherwise.
 *
 * With RTE_TEST_RECURSIVE in the environment it is a child started by a
 * test (process.h): it only starts and stops the EAL, as DPDK's dpdk-test
 * does for its option tests, and exits 0 if rte_eal_init() succeeded.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "test.h"

#define RECURSIVE_ENV "RTE_TEST_RECURSIVE"

const char *prgname;
char conformance_prefix[256] = "rtemap";

static struct conformance_command *commands;

/* Where the running command's first failed assertion was. */
static char first_failure[256];

void
conformance_register(struct conformance_command *cmd)
{
	cmd->next = commands;
	commands = cmd;
}

void
conformance_trace_failure(const char *file, int line, const char *func)
{
	const char *base = strrchr(file, '/');

	if (first_failure[0] != '\0')
		return;
	snprintf(first_failure, sizeof(first_failure), "%s:%d %s",
			base != NULL ? base + 1 : file, line, func);
}

int
conformance_on_workers(int (*fn)(void *))
{
	unsigned int lcore, n = 0;
	int ret = 0;

	RTE_LCORE_FOREACH_WORKER (lcore) {
		if (rte_eal_remote_launch(fn, NULL, lcore) != 0)
			return -1;
		n++;
	}
	RTE_LCORE_FOREACH_WORKER (lcore) {
		if (rte_eal_wait_lcore(lcore) < 0)
			ret = -1;
	}
	if (n == 0) {
		printf("no worker lcore: run with -l 0-1 or more\n");
		return -1;
	}
	return ret;
}

static struct conformance_command *
find_command(const char *name)
{
	struct conformance_command *c;

	for (c = commands; c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* @return 0 passed, 1 failed, 2 skipped. */
static int
run_command(const char *name)
{
	struct conformance_command *c = find_command(name);
	int ret;

	if (c == NULL) {
		printf("case %s: FAILED (no such command)\n", name);
		return 1;
	}
	first_failure[0] = '\0';
	printf("RTE>>%s\n", name);
	fflush(stdout);
	ret = c->fn();
	if (ret == TEST_SKIPPED) {
		printf("case %s: skipped\n", name);
		return 2;
	}
	if (ret != 0) {
		printf("case %s: FAILED (returned %d%s%s)\n", name, ret,
				first_failure[0] != '\0' ? ", at " : "",
				first_failure);
		return 1;
	}
	printf("case %s: ok\n", name);
	return 0;
}

/* Note the --file-prefix among the EAL options, for get_current_prefix(). */
static void
note_prefix(int argc, char **argv)
{
	static const char opt[] = "--file-prefix";
	const char *v;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strncmp(argv[i], opt, sizeof(opt) - 1) != 0)
			continue;
		v = argv[i] + sizeof(opt) - 1;
		if (*v == '=')
			v++;
		else if (*v == '\0' && i + 1 < argc)
			v = argv[++i];
		else
			continue;
		snprintf(conformance_prefix, sizeof(conformance_prefix), "%s",
				v);
	}
}

int
main(int argc, char **argv)
{
	int n, i, failed = 0, skipped = 0;

	prgname = argv[0];
	note_prefix(argc, argv);
	n = rte_eal_init(argc, argv);
	if (getenv(RECURSIVE_ENV) != NULL) {
		if (n < 0)
			return 1;
		return rte_eal_cleanup() == 0 ? 0 : 1;
	}
	if (n < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	for (i = n + 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			continue;
		switch (run_command(argv[i])) {
		case 1:
			failed++;
			break;
		case 2:
			skipped++;
			break;
		}
	}
	if (rte_eal_cleanup() != 0) {
		printf("rte_eal_cleanup: %s\n", rte_strerror(rte_errno));
		failed++;
	}
	if (failed != 0)
		return 1;
	return skipped != 0 ? TEST_SKIPPED : 0;
}
