/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The registry of named tests and child actions, the prompt, and the
 * unit-test suite runner.
 *
 * Both registries are lists filled by constructors (REGISTER_*_TEST and
 * REGISTER_CHILD_ACTION) before main() runs and only read afterwards, so
 * they need no lock; they are the only mutable globals here.
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "test.h"

static TAILQ_HEAD(, test_command) test_commands = TAILQ_HEAD_INITIALIZER(
		test_commands);
static TAILQ_HEAD(, test_child_action)
		test_child_actions = TAILQ_HEAD_INITIALIZER(test_child_actions);

void
add_test_command(struct test_command *t)
{
	TAILQ_INSERT_TAIL(&test_commands, t, next);
}

void
add_test_child_action(struct test_child_action *a)
{
	TAILQ_INSERT_TAIL(&test_child_actions, a, next);
}

static struct test_command *
test_command_find(const char *name)
{
	struct test_command *t;

	TAILQ_FOREACH (t, &test_commands, next)
		if (strcmp(t->command, name) == 0)
			return t;
	return NULL;
}

const struct test_child_action *
test_child_action_find(const char *name)
{
	struct test_child_action *a;

	TAILQ_FOREACH (a, &test_child_actions, next)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

void
test_run_one(const char *name, struct test_tally *tally)
{
	struct test_command *t = test_command_find(name);
	int ret;

	tally->run++;
	if (t == NULL) {
		printf("unknown test '%s'\n", name);
		tally->failed++;
		tally->last = TEST_FAILED;
		fflush(stdout);
		return;
	}
	ret = t->callback();
	if (ret == TEST_SUCCESS) {
		printf("Test OK\n");
	} else if (ret == TEST_SKIPPED) {
		printf("Test Skipped\n");
	} else {
		printf("Test Failed\n");
		ret = TEST_FAILED;
		tally->failed++;
	}
	tally->last = ret;
	fflush(stdout);
}

void
test_run_list(char *names, struct test_tally *tally)
{
	char *save = NULL;
	char *name;

	for (name = strtok_r(names, " \t\r\n", &save); name != NULL;
			name = strtok_r(NULL, " \t\r\n", &save))
		test_run_one(name, tally);
}

/* @return true if @p line holds the single word "quit". */
static bool
line_is_quit(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (strncmp(line, "quit", 4) != 0)
		return false;
	line += 4;
	while (isspace((unsigned char)*line))
		line++;
	return *line == '\0';
}

void
test_run_prompt(FILE *in, struct test_tally *tally)
{
	char *line = NULL;
	size_t cap = 0;

	for (;;) {
		printf("RTE>>");
		fflush(stdout);
		if (getline(&line, &cap, in) < 0) {
			printf("\n");
			break;
		}
		if (line_is_quit(line))
			break;
		test_run_list(line, tally);
	}
	free(line);
}

int
test_tally_exit_code(const struct test_tally *tally)
{
	if (tally->failed > 0)
		return 1;
	if (tally->run > 0 && tally->last == TEST_SKIPPED)
		return TEST_SKIPPED;
	return 0;
}

/* Counts of one suite run. */
struct suite_counts {
	unsigned int total; /* cases listed */
	unsigned int passed;
	unsigned int failed;
	unsigned int skipped; /* skipped or disabled */
};

/* Run one case with its setup and teardown. @return its verdict. */
static int
suite_run_case(const struct unit_test_case *tc)
{
	int ret;

	if (!tc->enabled)
		return TEST_SKIPPED;
	if (tc->setup != NULL) {
		ret = tc->setup();
		if (ret == TEST_SKIPPED)
			return TEST_SKIPPED;
		if (ret != TEST_SUCCESS) {
			printf("  setup of %s failed\n", tc->name);
			return TEST_FAILED;
		}
	}
	ret = tc->testcase();
	if (tc->teardown != NULL)
		tc->teardown();
	if (ret != TEST_SUCCESS && ret != TEST_SKIPPED)
		ret = TEST_FAILED;
	return ret;
}

static void
suite_print_summary(const struct unit_test_suite *suite,
		const struct suite_counts *c)
{
	printf(" + ------------------------------------------------------- +\n");
	printf(" + Suite %s: %u cases, %u passed, %u failed, %u skipped\n",
			suite->suite_name, c->total, c->passed, c->failed,
			c->skipped);
	printf(" + ------------------------------------------------------- +\n");
	fflush(stdout);
}

int
unit_test_suite_runner(struct unit_test_suite *suite)
{
	const struct unit_test_case *tc;
	struct suite_counts c = { 0 };
	const char *verdict;
	int ret;

	printf(" + ------------------------------------------------------- +\n");
	printf(" + Test Suite : %s\n", suite->suite_name);
	if (suite->setup != NULL) {
		ret = suite->setup();
		if (ret == TEST_SKIPPED) {
			printf(" + Suite %s skipped by its setup\n",
					suite->suite_name);
			return TEST_SKIPPED;
		}
		if (ret != TEST_SUCCESS) {
			printf(" + Suite %s setup failed\n", suite->suite_name);
			return TEST_FAILED;
		}
	}
	for (tc = suite->unit_test_cases; tc->testcase != NULL; tc++) {
		c.total++;
		ret = suite_run_case(tc);
		if (ret == TEST_SUCCESS) {
			c.passed++;
			verdict = "succeeded";
		} else if (ret == TEST_SKIPPED) {
			c.skipped++;
			verdict = "skipped";
		} else {
			c.failed++;
			verdict = "failed";
		}
		printf(" + TestCase [%2u] : %s %s\n", c.total, tc->name,
				verdict);
		fflush(stdout);
	}
	if (suite->teardown != NULL)
		suite->teardown();
	suite_print_summary(suite, &c);
	if (c.failed > 0)
		return TEST_FAILED;
	return c.passed > 0 ? TEST_SUCCESS : TEST_SKIPPED;
}
