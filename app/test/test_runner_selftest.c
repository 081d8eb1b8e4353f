/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Tests of rtemem-test itself: argument scanning, child processes (exit
 * codes, signals, ready handshake, output capture, timeout), the suite
 * runner, the verdicts and exit codes, the hugepage skip helper and the
 * scratch directories.
 * Whatever prints a failure verdict runs in a child, so that this test's
 * own log only shows failures of its own.
 */

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

/* EAL arguments of the children: no hugepages, no runtime files. */
static const char *const child_eal_args[] = { "--no-huge", "--no-shconf",
	"--file-prefix=runner_child", NULL };

/* ---- child actions ---- */

static int
child_exit7(int argc __rte_unused, char **argv __rte_unused)
{
	printf("runner child: exit 7\n");
	return 7;
}
REGISTER_CHILD_ACTION(runner_exit7, child_exit7)

static int
child_wait_ready(int argc __rte_unused, char **argv __rte_unused)
{
	printf("runner child: waiting\n");
	test_child_ready();
	for (;;)
		pause();
	return 0;
}
REGISTER_CHILD_ACTION(runner_wait, child_wait_ready)

/* Never ready, never done: only the timeout ends it. */
static int
child_hang(int argc __rte_unused, char **argv __rte_unused)
{
	printf("runner child: hanging\n");
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}
REGISTER_CHILD_ACTION(runner_hang, child_hang)

static int
child_chatty(int argc __rte_unused, char **argv __rte_unused)
{
	int i;

	printf("runner child: BEGIN\n");
	for (i = 0; i < 20000; i++)
		putchar('x');
	printf("\nEND\n");
	return 0;
}
REGISTER_CHILD_ACTION(runner_chatty, child_chatty)

/* Print the arguments the action got, one per line. */
static int
child_echo_args(int argc, char **argv)
{
	int i;

	printf("argc=%d\n", argc);
	for (i = 1; i < argc; i++)
		printf("arg%d=%s\n", i, argv[i]);
	return 0;
}
REGISTER_CHILD_ACTION(runner_echo_args, child_echo_args)

/* ---- a suite with one case of each outcome, run in a child ---- */

static int
case_pass(void)
{
	return TEST_SUCCESS;
}

static int
case_skip(void)
{
	return TEST_SKIPPED;
}

static int
case_fail(void)
{
	TEST_ASSERT_EQUAL(1, 2, "one is not two");
	return TEST_SUCCESS;
}

static int
case_setup_fails(void)
{
	return TEST_FAILED;
}

static void
case_teardown(void)
{
	printf("teardown ran\n");
}

static int
case_after_bad_setup(void)
{
	printf("case after bad setup ran\n");
	return TEST_SUCCESS;
}

static struct unit_test_suite mixed_suite = {
	.suite_name = "runner mixed suite",
	.unit_test_cases = { TEST_CASE(case_pass), TEST_CASE(case_skip),
			TEST_CASE(case_fail),
			{ NULL, NULL, case_pass, "case_disabled", false },
			TEST_CASE_ST(case_setup_fails, case_teardown,
					case_after_bad_setup),
			TEST_CASES_END() }
};

static struct unit_test_suite skipped_suite = {
	.suite_name = "runner skipped suite",
	.unit_test_cases = { TEST_CASE(case_skip),
			{ NULL, NULL, case_pass, "case_disabled", false },
			TEST_CASES_END() }
};

static int
child_suites(int argc __rte_unused, char **argv __rte_unused)
{
	int mixed = unit_test_suite_runner(&mixed_suite);
	int skipped = unit_test_suite_runner(&skipped_suite);

	printf("mixed=%d skipped=%d\n", mixed, skipped);
	return 0;
}
REGISTER_CHILD_ACTION(runner_suites, child_suites)

/* ---- named tests, run by the verdict children ---- */

static int
dummy_ok(void)
{
	return TEST_SUCCESS;
}
REGISTER_TEST_COMMAND(runner_dummy_ok, dummy_ok)

static int
dummy_skip(void)
{
	return TEST_SKIPPED;
}
REGISTER_TEST_COMMAND(runner_dummy_skip, dummy_skip)

static int
dummy_fail(void)
{
	return 3; /* any value but 0 and 77 is a failure */
}
REGISTER_TEST_COMMAND(runner_dummy_fail, dummy_fail)

/* Run the names in argv[1..]; exit with the runner's exit code. */
static int
child_tally(int argc, char **argv)
{
	struct test_tally tally = { .last = TEST_SUCCESS };
	int i;

	for (i = 1; i < argc; i++)
		test_run_one(argv[i], &tally);
	return test_tally_exit_code(&tally);
}
REGISTER_CHILD_ACTION(runner_tally, child_tally)

/* Feed the prompt a script; exit with the runner's exit code. */
static int
child_prompt(int argc __rte_unused, char **argv __rte_unused)
{
	static char script[] =
			"runner_dummy_ok\n\n  runner_dummy_skip runner_dummy_ok \n"
			" quit \nrunner_dummy_fail\n";
	struct test_tally tally = { .last = TEST_SUCCESS };
	FILE *in = fmemopen(script, strlen(script), "r");

	if (in == NULL)
		return 99;
	test_run_prompt(in, &tally);
	fclose(in);
	printf("\nrun=%u failed=%u\n", tally.run, tally.failed);
	return test_tally_exit_code(&tally);
}
REGISTER_CHILD_ACTION(runner_prompt, child_prompt)

/* ---- the cases of runner_autotest ---- */

static int
test_args_scan(void)
{
	char *const argv[] = {
		"prog",
		"--file-prefix",
		"a",
		"--huge-dir=/x",
		"--file-prefix=b",
		"--huge-directory=/no",
		"--no-huge",
		"--",
		"--huge-dir",
		"/after",
		"--no-shconf",
	};
	char *const dangling[] = { "prog", "--huge-dir" };
	const int argc = (int)RTE_DIM(argv);

	TEST_ASSERT_EQUAL(strcmp(test_args_find(argc, argv, "--file-prefix"),
					  "b"),
			0, "the last --file-prefix must win");
	TEST_ASSERT_EQUAL(
			strcmp(test_args_find(argc, argv, "--huge-dir"), "/x"),
			0, "--huge-dir=V form, nothing after --");
	TEST_ASSERT_NULL(test_args_find(argc, argv, "--in-memory"),
			"absent option found");
	TEST_ASSERT_NULL(test_args_find(2, dangling, "--huge-dir"),
			"option without a value has none");
	TEST_ASSERT(test_args_has(argc, argv, "--no-huge"), "switch missed");
	TEST_ASSERT(!test_args_has(argc, argv, "--no-shconf"),
			"switch after -- must not count");
	TEST_ASSERT(!test_args_has(argc, argv, "--huge"),
			"prefix of an option must not count");
	return TEST_SUCCESS;
}

static int
test_child_exit_code(void)
{
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(
			test_child_run("runner_exit7", child_eal_args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 7, "exit code %d, output: %s",
			res.exit_code, res.output);
	TEST_ASSERT_EQUAL(res.signal, 0, "signal %d", res.signal);
	TEST_ASSERT_STR_CONTAINS(res.output, "runner child: exit 7\n",
			"output not captured");
	return TEST_SUCCESS;
}

static int
test_child_app_args(void)
{
	static const char *const args[] = { "--no-huge", "--no-shconf",
		"--file-prefix=runner_child", "--", "one", "--two", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("runner_echo_args", args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit code %d, output: %s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "argc=3\narg1=one\narg2=--two\n",
			"the action must get argv[0] and the app args only");
	return TEST_SUCCESS;
}

static int
test_child_unknown_action(void)
{
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("runner_no_such_action",
					    child_eal_args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_NO_ACTION,
			"exit code %d, output: %s", res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"unknown child action 'runner_no_such_action'\n",
			"no clear message");
	return TEST_SUCCESS;
}

static int
test_child_init_only(void)
{
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run(NULL, child_eal_args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit code %d, output: %s",
			res.exit_code, res.output);
	return TEST_SUCCESS;
}

static int
test_child_killed(void)
{
	struct test_child_result res;
	pid_t pid;

	pid = test_child_start("runner_wait", child_eal_args, &res);
	TEST_ASSERT(pid > 0, "child not ready: exit %d signal %d, output: %s",
			res.exit_code, res.signal, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "runner child: waiting\n",
			"output before ready not captured");
	TEST_ASSERT_SUCCESS(
			test_child_finish(pid, SIGKILL, &res), "finish failed");
	TEST_ASSERT_EQUAL(res.signal, SIGKILL, "signal %d", res.signal);
	TEST_ASSERT_EQUAL(res.exit_code, -1, "exit code %d", res.exit_code);
	TEST_ASSERT_STR_CONTAINS(res.output, "runner child: waiting\n",
			"finish lost the output");
	TEST_ASSERT_EQUAL(test_child_finish(pid, SIGKILL, &res), -1,
			"finishing a finished child must fail");
	return TEST_SUCCESS;
}

static int
test_child_exits_before_ready(void)
{
	struct test_child_result res;

	TEST_ASSERT_EQUAL(
			test_child_start("runner_exit7", child_eal_args, &res),
			-1, "a child that exits is never ready");
	TEST_ASSERT_EQUAL(res.exit_code, 7, "exit code %d, output: %s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "runner child: exit 7\n",
			"output not captured");
	return TEST_SUCCESS;
}

static int
test_child_output_overflow(void)
{
	const char *end = "x\nEND\n";
	struct test_child_result res;
	size_t len;

	TEST_ASSERT_SUCCESS(
			test_child_run("runner_chatty", child_eal_args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit code %d", res.exit_code);
	len = strlen(res.output);
	TEST_ASSERT_EQUAL(len, sizeof(res.output) - 1, "kept %zu bytes", len);
	TEST_ASSERT_EQUAL(strcmp(res.output + len - strlen(end), end), 0,
			"the last bytes must be kept");
	TEST_ASSERT_NULL(strstr(res.output, "BEGIN"),
			"the first bytes must be dropped");
	return TEST_SUCCESS;
}

/* Set or unset (@p val NULL) an environment variable. */
static void
env_put(const char *name, const char *val)
{
	if (val != NULL)
		setenv(name, val, 1);
	else
		unsetenv(name);
}

static int
test_child_timeout(void)
{
	const char *var = "RTEMEM_TEST_CHILD_TIMEOUT";
	char *saved = getenv(var) != NULL ? strdup(getenv(var)) : NULL;
	struct test_child_result res;
	int ret;

	setenv(var, "1", 1);
	ret = test_child_run("runner_hang", child_eal_args, &res);
	env_put(var, saved);
	free(saved);
	TEST_ASSERT_EQUAL(ret, -1, "a hung child must fail");
	TEST_ASSERT_EQUAL(res.signal, SIGKILL, "signal %d", res.signal);
	TEST_ASSERT_STR_CONTAINS(res.output, "runner child: hanging\n",
			"output not captured");
	TEST_ASSERT_STR_CONTAINS(res.output,
			"ran past the 1 s timeout: killed\n",
			"no timeout message");
	return TEST_SUCCESS;
}

static int
test_suite_runner(void)
{
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(
			test_child_run("runner_suites", child_eal_args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit code %d, output: %s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			" + TestCase [ 1] : case_pass succeeded\n"
			" + TestCase [ 2] : case_skip skipped\n",
			"pass, skip");
	TEST_ASSERT_STR_CONTAINS(res.output, "TestCase case_fail() line ",
			"assertion message");
	TEST_ASSERT_STR_CONTAINS(
			res.output, "one is not two\n", "assertion text");
	TEST_ASSERT_STR_CONTAINS(res.output,
			" + TestCase [ 3] : case_fail failed\n"
			" + TestCase [ 4] : case_disabled skipped\n",
			"fail, disabled");
	TEST_ASSERT_STR_CONTAINS(res.output,
			"  setup of case_after_bad_setup failed\n"
			" + TestCase [ 5] : case_after_bad_setup failed\n",
			"failed setup");
	TEST_ASSERT_NULL(strstr(res.output, "ran\n"),
			"neither the case nor the teardown may run after a bad setup");
	TEST_ASSERT_STR_CONTAINS(res.output,
			" + Suite runner mixed suite: 5 cases, 1 passed, 2 failed, "
			"2 skipped\n",
			"summary");
	TEST_ASSERT_STR_CONTAINS(
			res.output, "mixed=-1 skipped=77\n", "suite results");
	return TEST_SUCCESS;
}

static int
test_verdicts(void)
{
	static const char *const args[] = { "--no-huge", "--no-shconf",
		"--file-prefix=runner_child", "--", "runner_dummy_ok",
		"runner_no_such_test", "runner_dummy_fail", "runner_dummy_skip",
		NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("runner_tally", args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 1, "exit code %d, output: %s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"Test OK\nunknown test 'runner_no_such_test'\n"
			"Test Failed\nTest Skipped\n",
			"verdicts");
	return TEST_SUCCESS;
}

static int
test_prompt(void)
{
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(
			test_child_run("runner_prompt", child_eal_args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit code %d, output: %s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"RTE>>Test OK\nRTE>>RTE>>Test Skipped\nTest OK\nRTE>>\n"
			"run=3 failed=0\n",
			"prompt, blank line, two names, quit");
	return TEST_SUCCESS;
}

static int
test_last_skip_exit_code(void)
{
	static const char *const args[] = { "--no-huge", "--no-shconf",
		"--file-prefix=runner_child", "--", "runner_dummy_ok",
		"runner_dummy_skip", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("runner_tally", args, &res),
			"child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, TEST_SKIPPED,
			"exit code %d, output: %s", res.exit_code, res.output);
	return TEST_SUCCESS;
}

static int
test_skip_helper(void)
{
	const char *var = "RTEMEM_TEST_NO_SKIP";
	char *saved = getenv(var) != NULL ? strdup(getenv(var)) : NULL;
	int skipped, failed;

	unsetenv(var);
	skipped = test_skip_hugepages("runner selftest, not a real skip");
	setenv(var, "1", 1);
	failed = test_skip_hugepages("runner selftest, not a real failure");
	env_put(var, saved);
	free(saved);
	TEST_ASSERT_EQUAL(skipped, TEST_SKIPPED, "got %d", skipped);
	TEST_ASSERT_EQUAL(failed, TEST_FAILED, "got %d", failed);
	return TEST_SUCCESS;
}

static int
test_scratch(void)
{
	const char *prefix = test_file_prefix();
	char path[PATH_MAX], file[PATH_MAX + 16], want[64];
	struct stat st;
	int fd;

	if (test_scratch_dir("runner_scratch", path, sizeof(path)) < 0)
		return test_skip_hugepages(
				"no hugetlbfs: set "
				"RTEMEM_TEST_HUGE_ROOT or give --huge-dir");
	snprintf(want, sizeof(want), "/%s-runner_scratch",
			prefix != NULL ? prefix : "rte");
	TEST_ASSERT_EQUAL(strcmp(path + strlen(path) - strlen(want), want), 0,
			"scratch dir %s not named after prefix and name", path);
	TEST_ASSERT(stat(path, &st) == 0 && S_ISDIR(st.st_mode),
			"%s not created", path);
	snprintf(file, sizeof(file), "%s/leftover", path);
	fd = open(file, O_CREAT | O_RDWR, 0600);
	TEST_ASSERT(fd >= 0, "cannot create %s", file);
	close(fd);
	TEST_ASSERT_EQUAL(test_scratch_dir_remove(path), -1,
			"a left file must fail the removal");
	TEST_ASSERT(stat(path, &st) < 0, "%s must be removed anyway", path);
	TEST_ASSERT_SUCCESS(
			test_scratch_dir("runner_scratch", path, sizeof(path)),
			"second creation failed");
	TEST_ASSERT_SUCCESS(test_scratch_dir_remove(path),
			"an empty scratch dir must be removed cleanly");
	return TEST_SUCCESS;
}

static struct unit_test_suite runner_suite = {
	.suite_name = "rtemem-test runner",
	.unit_test_cases = { TEST_CASE(test_args_scan),
			TEST_CASE(test_child_exit_code),
			TEST_CASE(test_child_app_args),
			TEST_CASE(test_child_unknown_action),
			TEST_CASE(test_child_init_only),
			TEST_CASE(test_child_killed),
			TEST_CASE(test_child_exits_before_ready),
			TEST_CASE(test_child_output_overflow),
			TEST_CASE(test_child_timeout),
			TEST_CASE(test_suite_runner), TEST_CASE(test_verdicts),
			TEST_CASE(test_prompt),
			TEST_CASE(test_last_skip_exit_code),
			TEST_CASE(test_skip_helper), TEST_CASE(test_scratch),
			TEST_CASES_END() }
};

static int
test_runner(void)
{
	return unit_test_suite_runner(&runner_suite);
}

REGISTER_FAST_TEST(runner_autotest, NOHUGE_OK, ASAN_OK, test_runner)
