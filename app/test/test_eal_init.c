/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rte_eal_init() and rte_eal_cleanup() as an application sees them, in
 * child processes: the one line a failed init prints and its rte_errno,
 * --help, the count of arguments consumed, a second init, and that a
 * failed init leaves no file and no page behind.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "test.h"

/* Child: print what the application sees after init. */
static int
init_child_args(int argc, char **argv)
{
	int i;

	printf("argc %d", argc);
	for (i = 0; i < argc; i++)
		printf(" [%s]", i == 0 ? "prog" : argv[i]);
	printf("\n");
	return 0;
}
REGISTER_CHILD_ACTION(init_args, init_child_args)

/* Child: a second init and a second cleanup must fail with EALREADY. */
static int
init_child_twice(int argc, char **argv)
{
	char *args[] = { argv[0], NULL };

	RTE_SET_USED(argc);
	if (rte_eal_init(1, args) != -1 || rte_errno != EALREADY)
		return 1;
	if (rte_eal_cleanup() != 0)
		return 2;
	if (rte_eal_cleanup() != -1 || rte_errno != EALREADY)
		return 3;
	/* Initialize again so that the runner's own cleanup succeeds. */
	if (rte_eal_init(1, args) < 0)
		return 4;
	return 0;
}
REGISTER_CHILD_ACTION(init_twice, init_child_twice)

/* One failing command line and what it must print. */
struct init_fail {
	const char *args[6]; /* EAL args after --huge-dir/--file-prefix */
	const char *line; /* the EAL line, exactly, or a distinctive part */
	const char *errno_text; /* rte_strerror of the expected rte_errno */
	bool usage; /* the usage text is printed too */
};

static const struct init_fail init_fails[] = {
	{ { "--foo", NULL }, "EAL: unknown option '--foo'\n",
			"Invalid argument", true },
	{ { "--in-memory", "--huge-unlink=never", NULL },
			"EAL: options --in-memory and --huge-unlink=never cannot be used together: in-memory mode has no hugepage files to reuse\n",
			"Invalid argument", false },
	{ { "--no-huge", "--huge-unlink", NULL },
			"EAL: options --no-huge and --huge-unlink=always cannot be used together: without hugepages there are no hugepage files\n",
			"Invalid argument", false },
	{ { "--huge-unlink=bogus", NULL },
			"EAL: invalid value 'bogus' for --huge-unlink: expected existing, always or never\n",
			"Invalid argument", false },
	{ { "-m", "100000", NULL },
			"EAL: not enough hugepages on node 0: -m asks for 100000 MB",
			"Cannot allocate memory", false },
	{ { "--huge-unlink", "never", NULL },
			"EAL: option --huge-unlink takes its value after '=': write --huge-unlink=never",
			"Invalid argument", false },
	{ { "--socket-limit=1K", NULL },
			"EAL: --socket-limit: the limit 1 KB on NUMA node 0 is below one 2048 kB hugepage, so the heap could never grow: give at least 2048K, or 0 for no limit\n",
			"Invalid argument", false },
	{ { "--socket-mem=0,0,0,0,0,0,0,64", NULL },
			"EAL: --socket-mem asks for 64 MB on NUMA node 7, which this machine does not have",
			"Invalid argument", false },
	{ { "--file-prefix=a/b", NULL },
			"EAL: invalid value 'a/b' for --file-prefix: the character '/' is not allowed",
			"Invalid argument", false },
};

static int
init_fail_run(const struct init_fail *f, const char *dir_arg, const char *dir)
{
	const char *args[10];
	struct test_child_result res;
	char want_errno[128];
	unsigned int n = 0, i;

	args[n++] = dir_arg;
	args[n++] = "--file-prefix=initfail";
	for (i = 0; f->args[i] != NULL; i++)
		args[n++] = f->args[i];
	args[n] = NULL;
	TEST_ASSERT_SUCCESS(test_child_run(NULL, args, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED,
			"%s: exit %d: %s", f->args[0], res.exit_code,
			res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, f->line, "%s", f->args[0]);
	snprintf(want_errno, sizeof(want_errno), "rte_eal_init failed: %s",
			f->errno_text);
	TEST_ASSERT_STR_CONTAINS(res.output, want_errno, "%s", f->args[0]);
	TEST_ASSERT_EQUAL(strstr(res.output, "Usage:") != NULL, f->usage,
			"%s: usage text %s", f->args[0],
			f->usage ? "missing" : "printed");
	TEST_ASSERT_EQUAL(test_dir_count(dir, NULL), 0, "%s: files left",
			f->args[0]);
	return TEST_SUCCESS;
}

static int
test_init_failures(void)
{
	char dir[PATH_MAX], dir_arg[PATH_MAX + 16];
	unsigned int i;
	int ret = TEST_SUCCESS;

	if (test_scratch_dir("initfail", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	for (i = 0; i < RTE_DIM(init_fails) && ret == TEST_SUCCESS; i++)
		ret = init_fail_run(&init_fails[i], dir_arg, dir);
	if (test_scratch_dir_remove(dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

static int
test_init_huge_dir(void)
{
	static const char *const missing[] = { "--huge-dir=/nonexistent/rtemem",
		NULL };
	static const char *const not_huge[] = { "--huge-dir=/tmp", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run(NULL, missing, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "exit");
	TEST_ASSERT_STR_CONTAINS(res.output,
			"EAL: --huge-dir /nonexistent/rtemem: no such directory\n",
			"missing dir");
	TEST_ASSERT_SUCCESS(test_child_run(NULL, not_huge, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "exit");
	TEST_ASSERT_STR_CONTAINS(res.output,
			"EAL: --huge-dir /tmp is not a hugetlbfs mount",
			"not hugetlbfs");
	return TEST_SUCCESS;
}

/*
 * Out of pages because of a mount's size=, not the pool: the message says
 * so, and the failed start leaves no file of its own, also in the modes
 * that keep files. The mount is the test's own, of 2 pages, under /tmp.
 */
static int
mount_size_run(const char *dir, const char *mode, const char *layout)
{
	char dir_arg[64];
	const char *args[] = { dir_arg, "--file-prefix=mountsize", "-m", "8",
		mode, layout, NULL };
	struct test_child_result res;
	struct statfs sfs;

	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	TEST_ASSERT_SUCCESS(test_child_run(NULL, args, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "exit %d: %s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"is mounted with size= for 2 pages", "mount limit");
	TEST_ASSERT_STR_CONTAINS(
			res.output, "more needed: remount it", "what to do");
	TEST_ASSERT_EQUAL(test_dir_count(dir, "mountsizemap_"), 0,
			"%s: the failed start left its files",
			mode ? mode : "");
	TEST_ASSERT(statfs(dir, &sfs) == 0 && sfs.f_bfree == sfs.f_blocks,
			"%s: pages of the mount still held", mode ? mode : "");
	return TEST_SUCCESS;
}

static int
test_init_mount_size(void)
{
	char dir[] = "/tmp/rtemem-size-XXXXXX";
	int ret;

	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: cannot mount a hugetlbfs of its own");
	TEST_ASSERT_NOT_NULL(mkdtemp(dir), "mkdtemp");
	if (mount("nodev", dir, "hugetlbfs", 0, "pagesize=2M,size=4M") != 0) {
		rmdir(dir);
		return test_skip_hugepages("cannot mount a 2 MB hugetlbfs");
	}
	ret = mount_size_run(dir, NULL, NULL);
	if (ret == TEST_SUCCESS)
		ret = mount_size_run(dir, "--huge-unlink=never", NULL);
	if (ret == TEST_SUCCESS)
		ret = mount_size_run(dir, "--huge-unlink=never",
				"--single-file-segments");
	test_dir_clear(dir);
	umount(dir);
	rmdir(dir);
	return ret;
}

static int
test_init_help(void)
{
	static const char *const help[] = { "--help", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run(NULL, help, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "--help exit %d", res.exit_code);
	TEST_ASSERT_STR_CONTAINS(res.output, "Usage:", "usage");
	TEST_ASSERT_STR_CONTAINS(res.output,
			"--huge-unlink[=existing|always|never]", "option list");
	return TEST_SUCCESS;
}

static int
test_init_args(void)
{
	static const char *const with_sep[] = { "--no-huge", "-m", "4", "--",
		"a", "--b", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(
			test_child_run("init_args", with_sep, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit %d: %s", res.exit_code,
			res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "argc 3 [prog] [a] [--b]\n",
			"application arguments");
	return TEST_SUCCESS;
}

static int
test_init_twice(void)
{
	static const char *const args[] = { "--no-huge", "-m", "4", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("init_twice", args, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "step %d failed: %s", res.exit_code,
			res.output);
	return TEST_SUCCESS;
}

static struct unit_test_suite eal_init_suite = {
	.suite_name = "rte_eal_init in child processes",
	.unit_test_cases = {
		TEST_CASE(test_init_failures),
		TEST_CASE(test_init_huge_dir),
		TEST_CASE(test_init_mount_size),
		TEST_CASE(test_init_help),
		TEST_CASE(test_init_args),
		TEST_CASE(test_init_twice),
		TEST_CASES_END(),
	},
};

static int
test_eal_init(void)
{
	return unit_test_suite_runner(&eal_init_suite);
}

REGISTER_FAST_TEST(eal_init_autotest, NOHUGE_SKIP, ASAN_OK, test_eal_init);
