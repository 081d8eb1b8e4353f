/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The installed rte_test.h: each RTE_TEST_ASSERT* returns -1 from the
 * calling function exactly when its condition is false, and reports the
 * place through RTE_TEST_TRACE_FAILURE.
 */

#include <stddef.h>

static int traced_line;

#define RTE_TEST_TRACE_FAILURE(_file, _line, _func) (traced_line = (_line))
#include <rte_test.h>

#include "test.h"

static int
check_all(int a, int b, int zero, int nonzero, void *null, void *ptr)
{
	RTE_TEST_ASSERT(a == a, "plain");
	RTE_TEST_ASSERT_EQUAL(a, a, "equal");
	RTE_TEST_ASSERT_NOT_EQUAL(a, b, "not equal");
	RTE_TEST_ASSERT_SUCCESS(zero, "success");
	RTE_TEST_ASSERT_FAIL(nonzero, "fail");
	RTE_TEST_ASSERT_NULL(null, "null");
	RTE_TEST_ASSERT_NOT_NULL(ptr, "not null %d", 1);
	return 0;
}

static int
fails_at_equal(int a, int b)
{
	RTE_TEST_ASSERT_EQUAL(a, b, "%d and %d differ", a, b);
	return 0;
}

static int
fails_at_not_null(void *p)
{
	RTE_TEST_ASSERT_NOT_NULL(p, "NULL given");
	return 0;
}

static int
test_rte_test(void)
{
	int x = 0;

	traced_line = 0;
	TEST_ASSERT_EQUAL(check_all(1, 2, 0, 3, NULL, &x), 0,
			"every condition holds");
	TEST_ASSERT_EQUAL(traced_line, 0, "no failure traced");
	TEST_ASSERT_EQUAL(fails_at_equal(1, 2), -1, "1 == 2 fails");
	TEST_ASSERT(traced_line > 0, "the failure was traced");
	TEST_ASSERT_EQUAL(check_all(1, 1, 0, 3, NULL, &x), -1, "1 != 1 fails");
	TEST_ASSERT_EQUAL(check_all(1, 2, 5, 3, NULL, &x), -1, "5 == 0 fails");
	TEST_ASSERT_EQUAL(check_all(1, 2, 0, 0, NULL, &x), -1, "0 != 0 fails");
	TEST_ASSERT_EQUAL(check_all(1, 2, 0, 3, &x, &x), -1, "NULL check");
	TEST_ASSERT_EQUAL(fails_at_not_null(NULL), -1, "NOT_NULL check");
	/* Arguments with operators of lower precedence than ==. */
	TEST_ASSERT_EQUAL(fails_at_equal(1 | 2, 3), 0, "1 | 2 == 3");
	return TEST_SUCCESS;
}

REGISTER_FAST_TEST(rte_test_autotest, NOHUGE_OK, ASAN_OK, test_rte_test);
