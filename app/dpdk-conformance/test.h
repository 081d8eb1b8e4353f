/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _CONFORMANCE_TEST_H_
#define _CONFORMANCE_TEST_H_

/*
 * What DPDK's app/test sources expect from their test.h, for the memory
 * tests compiled against rtemem: result codes, the TEST_ASSERT* names of
 * rte_test.h and command registration. Commands register themselves from
 * constructors, as in DPDK, and runner.c runs them by name.
 */

#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>

void conformance_trace_failure(const char *file, int line, const char *func);

#define RTE_TEST_TRACE_FAILURE(_file, _line, _func) \
	conformance_trace_failure(_file, _line, _func)
#include <rte_test.h>

#define TEST_SUCCESS EXIT_SUCCESS
#define TEST_FAILED -1
#define TEST_SKIPPED 77

#define TEST_ASSERT RTE_TEST_ASSERT
#define TEST_ASSERT_EQUAL RTE_TEST_ASSERT_EQUAL
#define TEST_ASSERT_NOT_EQUAL RTE_TEST_ASSERT_NOT_EQUAL
#define TEST_ASSERT_SUCCESS RTE_TEST_ASSERT_SUCCESS
#define TEST_ASSERT_FAIL RTE_TEST_ASSERT_FAIL
#define TEST_ASSERT_NULL RTE_TEST_ASSERT_NULL
#define TEST_ASSERT_NOT_NULL RTE_TEST_ASSERT_NOT_NULL

/* argv[0] of the runner: the tests start copies of it. */
extern const char *prgname;

struct conformance_command {
	const char *name;
	int (*fn)(void);
	struct conformance_command *next;
};

void conformance_register(struct conformance_command *cmd);

#define REGISTER_TEST_COMMAND(cmd, func) \
	static struct conformance_command conformance_cmd_##cmd = { \
		.name = RTE_STR(cmd), \
		.fn = func, \
	}; \
	RTE_INIT(conformance_init_##cmd) \
	{ \
		conformance_register(&conformance_cmd_##cmd); \
	}

/*
 * One step of a DPDK test that runs its steps in sequence and stops at
 * the first failure, registered as "AUTOTEST:FUNCTION" so that each step
 * passes or fails on its own (cases_*.c).
 */
#define CONFORMANCE_CASE(autotest, func) \
	static struct conformance_command conformance_case_##func = { \
		.name = RTE_STR(autotest) ":" RTE_STR(func), \
		.fn = func, \
	}; \
	RTE_INIT(conformance_init_case_##func) \
	{ \
		conformance_register(&conformance_case_##func); \
	}

/*
 * Run @p fn on every worker lcore at once and wait for all, as DPDK's
 * test_malloc() does; @return -1 if one failed or if there is no worker
 * (the step would not run at all).
 */
int conformance_on_workers(int (*fn)(void *));

/* A step that DPDK runs on every worker lcore. */
#define CONFORMANCE_WORKER_CASE(autotest, func) \
	static int conformance_workers_##func(void) \
	{ \
		return conformance_on_workers(func); \
	} \
	static struct conformance_command conformance_case_##func = { \
		.name = RTE_STR(autotest) ":" RTE_STR(func), \
		.fn = conformance_workers_##func, \
	}; \
	RTE_INIT(conformance_init_case_##func) \
	{ \
		conformance_register(&conformance_case_##func); \
	}

#endif /* _CONFORMANCE_TEST_H_ */
