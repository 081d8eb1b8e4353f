/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/* rte_str_to_size() reads sizes as DPDK does. */

#include <inttypes.h>
#include <stdint.h>

#include <rte_common.h>

#include "test.h"

struct size_case {
	const char *str;
	uint64_t want;
};

static const struct size_case size_cases[] = {
	/* DPDK 22.11's own cases (test_malloc.c). */
	{ "5G", 5ULL << 30 },
	{ "0x20g", 0x20ULL << 30 },
	{ "10M", 10ULL << 20 },
	{ "050m", 050ULL << 20 },
	{ "8K", 8ULL << 10 },
	{ "15k", 15ULL << 10 },
	{ "0200", 0200 },
	{ "0x103", 0x103 },
	{ "432", 432 },
	{ "-1", 0 },
	{ "  -2", 0 },
	{ "  -3MB", 0 },
	{ "18446744073709551616", 0 },
	/* Spaces, the larger suffixes, and what follows a suffix. */
	{ "  7m", 7ULL << 20 },
	{ "1 G", 1ULL << 30 },
	{ "2t", 2ULL << 40 },
	{ "3P", 3ULL << 50 },
	{ "4e", 4ULL << 60 },
	{ "3MB", 3ULL << 20 },
	{ "12x", 12 },
	{ "0", 0 },
	{ "", 0 },
	{ "G", 0 },
	{ "08", 0 },
	/* Too big once multiplied: 0, where DPDK truncates. */
	{ "16E", 0 },
	{ "0x40000000000000k", 0 },
	{ "0x3fffffffffffffk", 0x3fffffffffffffULL << 10 },
};

static int
test_str_to_size_cases(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(size_cases); i++)
		TEST_ASSERT_EQUAL(rte_str_to_size(size_cases[i].str),
				size_cases[i].want,
				"rte_str_to_size(\"%s\") is %" PRIu64
				", not %" PRIu64,
				size_cases[i].str,
				rte_str_to_size(size_cases[i].str),
				size_cases[i].want);
	TEST_ASSERT_EQUAL(rte_str_to_size(NULL), 0, "NULL");
	return TEST_SUCCESS;
}

static struct unit_test_suite string_suite = {
	.suite_name = "string",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_str_to_size_cases),
		TEST_CASES_END(),
	},
};

static int
test_string(void)
{
	return unit_test_suite_runner(&string_suite);
}

REGISTER_FAST_TEST(string_autotest, NOHUGE_OK, ASAN_OK, test_string);
