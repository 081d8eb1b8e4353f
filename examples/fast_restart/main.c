/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * fast_restart: a DPDK-style application restarted K times with
 * --huge-unlink=never, its cold start and warm restarts side by side.
 *
 *   fast_restart [EAL options] -- [--size MB] [--restarts K]
 *                [--serve-ms MS] [--keep-files]
 *
 * One binary in several processes. The launcher (the process the user
 * starts) never initializes the EAL. It checks that the memory fits in
 * the hugepages there are, makes the first start cold by removing the
 * hugepage files an earlier run of this file prefix left (with a clean-up
 * run of itself, see launcher.c), runs itself K + 1 times with
 * --huge-unlink=never, prints one table, and gives the hugepages back at
 * the end. Each start (start.c) initializes the EAL,
 * allocates the pools, checks that rte_zmalloc() memory is zero while it
 * writes a pattern into all of it, serves, and exits without freeing, as
 * a process being restarted does. It sends its timestamps and counters
 * to the launcher through a pipe.
 *
 * This file: the options of the application and the choice of role.
 * Only public rtemem headers are used, so the example also builds with
 * `cc *.c $(pkg-config --cflags --libs rtemem)`.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fast_restart.h"

uint64_t
fr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void
fr_usage(FILE *f, const char *prgname)
{
	fprintf(f,
			"Usage: %s [EAL options] -- [--size MB] [--restarts K] [--serve-ms MS] [--keep-files]\n"
			"\n"
			"Start an application that allocates --size MB of pools (rte_zmalloc\n"
			"and memzones) with --huge-unlink=never, restart it K times, and\n"
			"print how long each start took and how much memory came back dirty.\n"
			"The first start is cold: the hugepage files of the file prefix left\n"
			"by an earlier run are removed first.\n"
			"\n"
			"  --size MB      memory of the pools, in MB (default %u, at least %u)\n"
			"  --restarts K   warm restarts after the cold start (default %u)\n"
			"  --serve-ms MS  time each start serves before it exits (default %u)\n"
			"  --keep-files   keep the hugepage files at the end (by default they\n"
			"                 are removed, which gives the hugepages back)\n"
			"\n"
			"EAL options are those of any rtemem program (listed below). Unless\n"
			"they are given, fast_restart adds --huge-unlink=never,\n"
			"--file-prefix %s, and -m with the pools' size plus %u MB.\n",
			prgname, FR_DEFAULT_SIZE_MB, FR_MIN_SIZE_MB,
			FR_DEFAULT_RESTARTS, FR_DEFAULT_SERVE_MS,
			FR_DEFAULT_PREFIX, FR_HEADROOM_MB);
}

/* Parse a decimal number from @p min to @p max given to option @p opt. */
static int
parse_number(const char *opt, const char *s, uint64_t min, uint64_t max,
		uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (s == NULL) {
		fprintf(stderr, "fast_restart: %s needs a value\n", opt);
		return -1;
	}
	errno = 0;
	x = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 || x < min ||
			x > max) {
		fprintf(stderr,
				"fast_restart: %s takes a number from %" PRIu64
				" to %" PRIu64 ", not '%s'\n",
				opt, min, max, s);
		return -1;
	}
	*v = x;
	return 0;
}

/*
 * If argv[*i] is --@p name (or --@p name=VALUE), move *i past it and set
 * *value: the text after '=', else the next argument for an option that
 * takes a value, else NULL.
 */
static bool
option_is(int argc, char **argv, int *i, const char *name, bool takes_value,
		const char **value)
{
	const char *arg = argv[*i];
	size_t len = strlen(name);

	if (strncmp(arg, "--", 2) != 0 || strncmp(arg + 2, name, len) != 0 ||
			(arg[2 + len] != '\0' && arg[2 + len] != '='))
		return false;
	(*i)++;
	*value = NULL;
	if (arg[2 + len] == '=')
		*value = arg + 3 + len;
	else if (takes_value && *i < argc)
		*value = argv[(*i)++];
	return true;
}

/* A switch: no value allowed. */
static int
parse_switch(const char *opt, const char *value, bool *flag)
{
	if (value != NULL) {
		fprintf(stderr, "fast_restart: %s takes no value\n", opt);
		return -1;
	}
	*flag = true;
	return 0;
}

/* One application option at argv[*i]. @return 0, or -1 after a message. */
static int
parse_one(int argc, char **argv, int *i, struct fr_options *o)
{
	const char *v;
	uint64_t n;

	if (option_is(argc, argv, i, "size", true, &v))
		return parse_number("--size", v, FR_MIN_SIZE_MB, FR_MAX_SIZE_MB,
				&o->size_mb);
	if (option_is(argc, argv, i, "restarts", true, &v)) {
		if (parse_number("--restarts", v, 0, FR_MAX_RESTARTS, &n) < 0)
			return -1;
		o->restarts = (unsigned int)n;
		return 0;
	}
	if (option_is(argc, argv, i, "serve-ms", true, &v)) {
		if (parse_number("--serve-ms", v, 0, FR_MAX_SERVE_MS, &n) < 0)
			return -1;
		o->serve_ms = (unsigned int)n;
		return 0;
	}
	if (option_is(argc, argv, i, "keep-files", false, &v))
		return parse_switch("--keep-files", v, &o->keep_files);
	if (option_is(argc, argv, i, "help", false, &v))
		return parse_switch("--help", v, &o->help);
	fprintf(stderr, "fast_restart: unknown application option '%s' (see --help)\n",
			argv[*i]);
	return -1;
}

int
fr_options_parse(int argc, char **argv, struct fr_options *o)
{
	int i = 0;

	o->size_mb = FR_DEFAULT_SIZE_MB;
	o->restarts = FR_DEFAULT_RESTARTS;
	o->serve_ms = FR_DEFAULT_SERVE_MS;
	o->keep_files = false;
	o->help = false;
	while (i < argc)
		if (parse_one(argc, argv, &i, o) < 0)
			return -1;
	return 0;
}

bool
fr_is_app_option(const char *arg)
{
	static const char *const names[] = { "--size", "--restarts",
		"--serve-ms", "--keep-files" };
	unsigned int k;
	size_t len;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		len = strlen(names[k]);
		if (strncmp(arg, names[k], len) == 0 &&
				(arg[len] == '\0' || arg[len] == '='))
			return true;
	}
	return false;
}

int
main(int argc, char **argv)
{
	const char *role = getenv(FR_ENV_ROLE);

	if (role == NULL)
		return fr_launch(argc, argv);
	return fr_child(role, argc, argv);
}
