/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_TEST_H_
#define _RTE_TEST_H_

/**
 * @file
 * Assertions for test functions, as DPDK's rte_test.h has them.
 *
 * Each macro checks a condition inside a function that returns int; when
 * the condition is false it logs "Test assert FUNCTION line N failed:
 * MESSAGE" at ERR level (log type EAL), calls RTE_TEST_TRACE_FAILURE, and
 * makes the function return -1. A test program may define
 * RTE_TEST_TRACE_FAILURE(file, line, func) before including this header
 * to record where a test failed; by default it does nothing.
 */

#include <rte_log.h>

#ifndef RTE_TEST_TRACE_FAILURE
/** Called with the place of each failed assertion; nothing by default. */
#define RTE_TEST_TRACE_FAILURE(_file, _line, _func)
#endif

/**
 * Return -1 from the calling function, with a log line made of @p msg
 * and its arguments, unless @p cond is true.
 */
#define RTE_TEST_ASSERT(cond, msg, ...) \
	do { \
		if (!(cond)) { \
			RTE_LOG(ERR, EAL, \
					"Test assert %s line %d failed: " msg \
					"\n", \
					__func__, __LINE__, ##__VA_ARGS__); \
			RTE_TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
			return -1; \
		} \
	} while (0)

/** Fail unless @p a equals @p b. */
#define RTE_TEST_ASSERT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT((a) == (b), msg, ##__VA_ARGS__)

/** Fail if @p a equals @p b. */
#define RTE_TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT((a) != (b), msg, ##__VA_ARGS__)

/** Fail unless @p val is 0 (a call that succeeded). */
#define RTE_TEST_ASSERT_SUCCESS(val, msg, ...) \
	RTE_TEST_ASSERT((val) == 0, msg, ##__VA_ARGS__)

/** Fail if @p val is 0 (a call that should have failed). */
#define RTE_TEST_ASSERT_FAIL(val, msg, ...) \
	RTE_TEST_ASSERT((val) != 0, msg, ##__VA_ARGS__)

/** Fail unless @p val is NULL. */
#define RTE_TEST_ASSERT_NULL(val, msg, ...) \
	RTE_TEST_ASSERT((val) == NULL, msg, ##__VA_ARGS__)

/** Fail if @p val is NULL. */
#define RTE_TEST_ASSERT_NOT_NULL(val, msg, ...) \
	RTE_TEST_ASSERT((val) != NULL, msg, ##__VA_ARGS__)

#endif /* _RTE_TEST_H_ */
