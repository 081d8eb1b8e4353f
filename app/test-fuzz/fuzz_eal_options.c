/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * libFuzzer target for the EAL option parser: the input is a command line
 * whose arguments are separated by NUL bytes. The parser and the rules
 * between options must never crash, leak, hang or read out of bounds
 * (ASan and UBSan watch), and must keep their contract:
 * - the return value is -EINVAL, with a message, or the count of
 *   arguments consumed, at most argc - 1;
 * - every message is one non-empty line that fits its buffer;
 * - resolving twice gives the same options (eal_options.h says so).
 * A broken contract aborts, which libFuzzer reports as a crash.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eal_options.h"

#define FUZZ_MAX_ARGS 64
#define FUZZ_CPUS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_fail(const char *what, const char *err)
{
	fprintf(stderr, "contract broken: %s (message \"%s\")\n", what, err);
	abort();
}

static void
fuzz_check_message(const char *err, size_t len)
{
	size_t n = strnlen(err, len);

	if (n == 0 || n == len)
		fuzz_fail("empty or unterminated message", "");
	if (strchr(err, '\n') != NULL)
		fuzz_fail("message of more than one line", err);
}

/* Split @p buf (NUL-ended pieces) into argv after a program name. */
static int
fuzz_argv(char *buf, size_t size, char **argv)
{
	int argc = 0;
	size_t i = 0;

	argv[argc++] = (char *)"fuzz";
	while (i < size && argc < FUZZ_MAX_ARGS) {
		argv[argc++] = &buf[i];
		i += strlen(&buf[i]) + 1;
	}
	argv[argc] = NULL;
	return argc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const bool cpus[FUZZ_CPUS] = { true, true, false, true };
	struct eal_options opts, again;
	char *argv[FUZZ_MAX_ARGS + 1];
	char err[256], err2[256];
	char *buf = malloc(size + 1);
	bool unknown;
	int argc, ret;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argc = fuzz_argv(buf, size, argv);
	eal_options_defaults(&opts);
	err[0] = '\0';
	ret = eal_options_parse(argc, argv, &opts, err, sizeof(err), &unknown);
	if (ret == -EINVAL) {
		fuzz_check_message(err, sizeof(err));
	} else if (ret < 0 || ret > argc - 1) {
		fuzz_fail("parse returned an impossible count", err);
	} else {
		ret = eal_options_resolve(
				&opts, cpus, FUZZ_CPUS, err, sizeof(err));
		if (ret != 0 && ret != -EINVAL)
			fuzz_fail("resolve returned neither 0 nor -EINVAL",
					err);
		if (ret == -EINVAL)
			fuzz_check_message(err, sizeof(err));
		if (ret == 0) {
			memcpy(&again, &opts, sizeof(again));
			if (eal_options_resolve(&again, cpus, FUZZ_CPUS, err2,
					    sizeof(err2)) != 0 ||
					memcmp(&again, &opts, sizeof(opts)) !=
							0)
				fuzz_fail("resolving twice differs", err2);
		}
	}
	free(buf);
	return 0;
}
