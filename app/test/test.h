/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _TEST_H_
#define _TEST_H_

/*
 * The autotest framework of rtemem-test: assertions, unit-test suites,
 * registration of named tests, and child processes for restart, crash and
 * option tests.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <rte_common.h>

#define TEST_SUCCESS 0
#define TEST_FAILED -1
#define TEST_SKIPPED 77

#define TEST_TRACE_FAILURE(file, line, func) \
	printf("  failed at %s:%d (%s)\n", file, line, func)

#define TEST_ASSERT(cond, msg, ...) \
	do { \
		if (!(cond)) { \
			printf("TestCase %s() line %d failed: " msg "\n", \
					__func__, __LINE__, ##__VA_ARGS__); \
			TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
			return TEST_FAILED; \
		} \
	} while (0)

#define TEST_ASSERT_EQUAL(a, b, msg, ...) \
	TEST_ASSERT((a) == (b), msg, ##__VA_ARGS__)
#define TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) \
	TEST_ASSERT((a) != (b), msg, ##__VA_ARGS__)
#define TEST_ASSERT_SUCCESS(val, msg, ...) \
	TEST_ASSERT((val) == 0, msg, ##__VA_ARGS__)
#define TEST_ASSERT_FAIL(val, msg, ...) \
	TEST_ASSERT((val) != 0, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NULL(val, msg, ...) \
	TEST_ASSERT((val) == NULL, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NOT_NULL(val, msg, ...) \
	TEST_ASSERT((val) != NULL, msg, ##__VA_ARGS__)
/* Assert that string @p s contains @p sub. */
#define TEST_ASSERT_STR_CONTAINS(s, sub, msg, ...) \
	TEST_ASSERT(strstr((s), (sub)) != NULL, msg " (\"%s\" not in \"%s\")", \
			##__VA_ARGS__, (sub), (s))

/* One case of a suite. */
struct unit_test_case {
	int (*setup)(void); /* may be NULL */
	void (*teardown)(void); /* may be NULL */
	int (*testcase)(void); /* TEST_SUCCESS, TEST_FAILED or TEST_SKIPPED */
	const char *name;
	bool enabled;
};

#define TEST_CASE(fn) \
	{ \
		NULL, NULL, fn, #fn, true \
	}
#define TEST_CASE_ST(setup, teardown, fn) \
	{ \
		setup, teardown, fn, #fn, true \
	}
#define TEST_CASES_END() \
	{ \
		NULL, NULL, NULL, NULL, false \
	}

/* A named list of cases, with a setup and teardown around all of them. */
struct unit_test_suite {
	const char *suite_name;
	int (*setup)(void);
	void (*teardown)(void);
	struct unit_test_case unit_test_cases[];
};

/*
 * Run every case of @p suite, print one line per case and a summary.
 *
 * A case whose setup returns TEST_SKIPPED is skipped; one whose setup fails
 * is failed, and then its teardown is not run.
 *
 * @return TEST_SUCCESS if none failed and at least one passed, TEST_SKIPPED
 *   if the suite setup skipped or every case was skipped (or disabled),
 *   else TEST_FAILED.
 */
int unit_test_suite_runner(struct unit_test_suite *suite);

typedef int(test_callback)(void);

/* A named test, registered by a constructor. */
struct test_command {
	TAILQ_ENTRY(test_command) next;
	const char *command; /* name typed at the prompt */
	test_callback *callback;
};

void add_test_command(struct test_command *t);

#define REGISTER_TEST_COMMAND(cmd, func) \
	static struct test_command test_struct_##cmd = { \
		.command = RTE_STR(cmd), \
		.callback = func, \
	}; \
	RTE_INIT(test_register_##cmd) \
	{ \
		add_test_command(&test_struct_##cmd); \
	}

/*
 * Suite tags, read by app/test/suites.py from the sources to build the
 * meson suites (the macro itself ignores them). @p no_huge is NOHUGE_OK
 * (the test also runs with --no-huge) or NOHUGE_SKIP; @p asan is ASAN_OK
 * (it runs in the ASan build) or ASAN_SKIP. Write the invocation with
 * literal arguments: the scanner does not expand macros.
 */
#define REGISTER_FAST_TEST(cmd, no_huge, asan, func) \
	REGISTER_TEST_COMMAND(cmd, func)
#define REGISTER_PERF_TEST(cmd, func) REGISTER_TEST_COMMAND(cmd, func)

/* ---- child processes ---- */

/*
 * A function a child process runs after its own rte_eal_init(), chosen by
 * name: the parent runs "rtemem-test <EAL args>" with RTEMEM_TEST_CHILD set
 * to the action's name. The child's exit status is the action's return
 * value (0-255); an EAL init failure exits with 100.
 */
struct test_child_action {
	TAILQ_ENTRY(test_child_action) next;
	const char *name;
	/* argv[0] is the program name, then the app args after the EAL ones */
	int (*func)(int argc, char **argv);
};

void add_test_child_action(struct test_child_action *a);

#define REGISTER_CHILD_ACTION(name_, func_) \
	static struct test_child_action test_child_##name_ = { \
		.name = RTE_STR(name_), \
		.func = func_, \
	}; \
	RTE_INIT(test_register_child_##name_) \
	{ \
		add_test_child_action(&test_child_##name_); \
	}

/* Exit status of a child whose rte_eal_init() failed. */
#define TEST_CHILD_INIT_FAILED 100
/* Exit status of a child asked for an action nobody registered. */
#define TEST_CHILD_NO_ACTION 101
/*
 * Seconds a child may run (from start to exit, or from start to ready)
 * before it is killed and reported as failed; the environment variable
 * RTEMEM_TEST_CHILD_TIMEOUT overrides it.
 */
#define TEST_CHILD_TIMEOUT_S 60

/* What a finished child did. */
struct test_child_result {
	int exit_code; /* exit status, or -1 if killed */
	int signal; /* terminating signal, or 0 */
	char output[8192]; /* what it wrote to stdout and stderr, NUL-ended */
};

/*
 * Run this program again as a child with @p args (EAL arguments, then
 * optionally "--" and application arguments; NULL-terminated) and wait.
 * The child gets RTEMEM_TEST_CHILD=@p action (NULL: only init, cleanup
 * and exit 0). Output is captured in @p res; when it overflows, the last
 * bytes are kept.
 *
 * @return 0 if the child ran (see @p res), -1 if it could not be started
 *   or was killed for running past the timeout (@p res then says so).
 */
int test_child_run(const char *action, const char *const args[],
		struct test_child_result *res);

/*
 * Start a child as test_child_run() does but do not wait: the action is
 * expected to call test_child_ready() when it reaches the point the parent
 * waits for (for example, all memory mapped).
 *
 * @return the child's pid once it called test_child_ready(), or -1 if it
 *   could not start or exited first (then @p res tells why).
 */
pid_t test_child_start(const char *action, const char *const args[],
		struct test_child_result *res);

/*
 * Start a child as test_child_run() does and return at once, without
 * waiting for anything: for tests that kill it at a chosen instant with
 * test_child_finish().
 *
 * @return the child's pid, or -1 (then @p res says why).
 */
pid_t test_child_spawn(const char *action, const char *const args[],
		struct test_child_result *res);

/* In a child: tell the parent waiting in test_child_start() we are ready. */
void test_child_ready(void);

/*
 * In a child: test_child_ready(), then wait until the parent sends
 * SIGUSR1 (test_child_finish(pid, SIGUSR1, ...)), and return.
 */
void test_child_ready_hold(void);

/*
 * Wait for a child started by test_child_start(), after sending it
 * @p signal unless it is 0, and collect its result: all its output, from
 * its start on.
 *
 * @return 0, or -1 if @p pid is not a started child or the child ran past
 *   the timeout (then it was killed).
 */
int test_child_finish(pid_t pid, int signal, struct test_child_result *res);

/* ---- environment of the test run ---- */

/*
 * The --file-prefix and --huge-dir this test run was given (the meson
 * suites give each test its own), for building child command lines.
 * NULL when not given.
 */
const char *test_file_prefix(void);
const char *test_huge_dir(void);

/*
 * A hugetlbfs directory for a test's own use: a new, empty directory next
 * to the run's --huge-dir (or under $RTEMEM_TEST_HUGE_ROOT), named after
 * @p name. Removed by test_scratch_dir_remove(), which fails if files are
 * left in it.
 *
 * @return 0 with the path in @p path, or -1 (no hugetlbfs available: the
 *   caller skips, printing why).
 */
int test_scratch_dir(const char *name, char *path, size_t len);
int test_scratch_dir_remove(const char *path);

/* A hugetlb cgroup (v1) a test made, and the mount it made for it. */
struct test_hugetlb_cg {
	char mnt[64]; /* where the hugetlb hierarchy is mounted */
	char dir[128]; /* the test's cgroup inside it */
};

/*
 * Make a cgroup allowed @p bytes of hugepages of @p page_sz (2 MB or
 * 1 GB), charged when a page is allocated (at fault time) and, with
 * @p reservations, also when a shared mapping reserves it (at mmap
 * time). Root only.
 *
 * @return 0, or -1 (the caller skips, printing why).
 */
int test_hugetlb_cg_create(struct test_hugetlb_cg *cg, uint64_t page_sz,
		uint64_t bytes, bool reservations);

/*
 * The value of @p cg's file hugetlb.<size>.@p name for pages of
 * @p page_sz (a usage, in bytes), or UINT64_MAX if it cannot be read.
 */
uint64_t test_hugetlb_cg_read(const struct test_hugetlb_cg *cg,
		uint64_t page_sz, const char *name);

/* Move this process (and the children it starts from now) into @p cg. */
void test_hugetlb_cg_enter(const struct test_hugetlb_cg *cg);

/* Move this process back out, and remove the cgroup and its mount. */
void test_hugetlb_cg_destroy(struct test_hugetlb_cg *cg);

/*
 * The page size, in bytes, of the hugetlbfs where test_scratch_dir()
 * makes directories, or 0 if there is none. Tests that run on any page
 * size (CI runs some on 1 GB pages) size what they map in these pages.
 */
uint64_t test_huge_page_size(void);

/*
 * Write the -m value (MB) for @p pages pages of test_huge_page_size()
 * into @p buf. @return 0, or -1 without hugetlbfs or if it does not fit.
 */
int test_huge_mem_arg(unsigned int pages, char *buf, size_t len);

/*
 * Free 2 MB hugepages according to the kernel, or -1 if unreadable. Other
 * processes change it at any time: use it only to decide whether a test
 * can run, never to check an outcome (see test_own_hugetlb_kb()).
 */
long test_free_hugepages_2m(void);

/*
 * Hugepage memory this process maps, in kB (HugetlbPages of
 * /proc/self/status), or -1: what a test checks its own rollbacks with.
 */
long test_own_hugetlb_kb(void);

/*
 * Entries of @p dir (but . and ..) whose names contain @p sub, or all with
 * NULL. @return the count, or -1 if @p dir is unreadable.
 */
int test_dir_count(const char *dir, const char *sub);

/* Remove every file in @p dir (not the directory). */
void test_dir_clear(const char *dir);

/*
 * Skip a hugepage test with a printed reason. CI sets RTEMEM_TEST_NO_SKIP,
 * which turns every such skip into a failure.
 */
int test_skip_hugepages(const char *why);

/* ---- the runner's own plumbing (test.c, commands.c, process.c) ---- */

/* What a sequence of tests did, for the exit code. */
struct test_tally {
	unsigned int run; /* tests run, unknown names included */
	unsigned int failed; /* tests failed, unknown names included */
	int last; /* result of the last one: TEST_SUCCESS/FAILED/SKIPPED */
};

/* Run the test @p name, print its verdict and count it in @p tally. */
void test_run_one(const char *name, struct test_tally *tally);
/* Run the whitespace-separated test names in @p names (modified). */
void test_run_list(char *names, struct test_tally *tally);
/* Prompt "RTE>>" and run each name read from @p in until EOF or "quit". */
void test_run_prompt(FILE *in, struct test_tally *tally);
/* @return 0 (all passed), 77 (last skipped, none failed) or 1. */
int test_tally_exit_code(const struct test_tally *tally);

/* @return the child action called @p name, or NULL. */
const struct test_child_action *test_child_action_find(const char *name);

/*
 * @return the value of EAL option @p opt ("--file-prefix") in argv[1..]
 *   before any "--", as "--opt V" or "--opt=V"; the last one wins. NULL
 *   when absent or given without a value.
 */
const char *test_args_find(int argc, char *const argv[], const char *opt);
/* @return true if switch @p opt is in argv[1..] before any "--". */
bool test_args_has(int argc, char *const argv[], const char *opt);

/*
 * Remember the program name and the EAL arguments as main passes them to
 * rte_eal_init() (for test_file_prefix(), test_huge_dir(), children).
 * The strings must outlive the run.
 */
void test_env_set_args(int argc, char *const argv[]);
/* In a child: take the ready descriptor the parent passed, if any. */
void test_env_take_ready_fd(void);

#endif /* _TEST_H_ */
