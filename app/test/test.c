/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * main() of rtemem-test, in one of two modes.
 *
 * Runner: "rtemem-test [EAL args] [-- NAME...]" runs the named tests, else
 * those in $RTEMEM_TEST, else those typed at the RTE>> prompt. With
 * $RTEMEM_TEST_HUGE_ROOT (a hugetlbfs mount) and no --huge-dir, each run
 * gets its own hugetlbfs directory, named after its --file-prefix, and the
 * run fails if files are left in it after rte_eal_cleanup().
 *
 * Child ($RTEMEM_TEST_CHILD set, see test_child_run()): init, run the
 * named action with the application arguments, clean up, exit with the
 * action's value. A child never reads the prompt.
 */

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "test.h"
#include "test_seccomp.h"

/*
 * Run as the user of $RTEMEM_TEST_CHILD_UID (group the same number), for
 * tests of what another user may do. @return 0, or -1 after saying why.
 */
static int
child_switch_user(void)
{
	const char *s = getenv("RTEMEM_TEST_CHILD_UID");
	unsigned long uid;

	if (s == NULL)
		return 0;
	uid = strtoul(s, NULL, 10);
	if (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 ||
			setuid((uid_t)uid) != 0) {
		printf("cannot become uid %lu: %s\n", uid, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Take the range "ADDR:LEN" of $RTEMEM_TEST_CHILD_OCCUPY (hexadecimal)
 * before rte_eal_init(), as a library or a stack could: for tests of a
 * secondary that finds its primary's addresses taken.
 * @return 0, or -1 after saying why.
 */
static int
child_occupy(void)
{
	const char *s = getenv("RTEMEM_TEST_CHILD_OCCUPY");
	unsigned long long addr, len;
	void *p;

	if (s == NULL)
		return 0;
	if (sscanf(s, "%llx:%llx", &addr, &len) != 2) {
		printf("bad RTEMEM_TEST_CHILD_OCCUPY '%s'\n", s);
		return -1;
	}
	p = mmap((void *)(uintptr_t)addr, (size_t)len, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
			0);
	if (p != (void *)(uintptr_t)addr) {
		printf("cannot occupy %s: %s\n", s, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * With $RTEMEM_TEST_CHILD_NO_MREMAP_FIXED, mremap(MREMAP_FIXED) fails
 * with EINVAL from now on, as it does for hugetlb mappings before Linux
 * 5.16: for tests of what rtemem does on such a kernel. @return 0, or -1
 * after saying why.
 */
static int
child_no_mremap_fixed(void)
{
	if (getenv("RTEMEM_TEST_CHILD_NO_MREMAP_FIXED") == NULL ||
			test_refuse_mremap_fixed(0, EINVAL) == 0)
		return 0;
	printf("cannot refuse mremap(MREMAP_FIXED): %s\n", strerror(errno));
	return -1;
}

static int
child_main(const char *name, int argc, char **argv)
{
	const struct test_child_action *action = NULL;
	int ret, rc = 0;

	test_env_set_args(argc, argv);
	test_env_take_ready_fd();
	if (child_switch_user() < 0 || child_occupy() < 0 ||
			child_no_mremap_fixed() < 0)
		return TEST_CHILD_INIT_FAILED;
	if (name[0] != '\0') {
		action = test_child_action_find(name);
		if (action == NULL) {
			printf("unknown child action '%s'\n", name);
			return TEST_CHILD_NO_ACTION;
		}
	}
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("child %s: rte_eal_init failed: %s\n",
				name[0] != '\0' ? name : "(init only)",
				rte_strerror(rte_errno));
		return TEST_CHILD_INIT_FAILED;
	}
	if (action != NULL)
		rc = action->func(argc - ret, argv + ret);
	if (rte_eal_cleanup() < 0) {
		printf("child %s: rte_eal_cleanup failed: %s\n", name,
				rte_strerror(rte_errno));
		if (rc == 0)
			rc = 1;
	}
	fflush(NULL);
	return rc;
}

/*
 * Copy argv for rte_eal_init(), adding "--huge-dir $RTEMEM_TEST_HUGE_ROOT/
 * <prefix>" (created here, path in @p dir) when the root is set and neither
 * --huge-dir nor --no-huge is given. @p dir is left empty otherwise.
 *
 * @return the new argv, or NULL after printing why.
 */
static char **
runner_eal_args(int argc, char **argv, char *dir, size_t len, int *eal_argc)
{
	const char *root = getenv("RTEMEM_TEST_HUGE_ROOT");
	const char *prefix;
	char **v;
	int i, n = 0, ret;

	dir[0] = '\0';
	v = calloc((size_t)argc + 3, sizeof(*v));
	if (v == NULL) {
		printf("rtemem-test: out of memory\n");
		return NULL;
	}
	v[n++] = argv[0];
	if (root != NULL && root[0] != '\0' &&
			test_args_find(argc, argv, "--huge-dir") == NULL &&
			!test_args_has(argc, argv, "--no-huge")) {
		prefix = test_args_find(argc, argv, "--file-prefix");
		ret = snprintf(dir, len, "%s/%s", root,
				prefix != NULL ? prefix : "rte");
		if (ret < 0 || (size_t)ret >= len ||
				(mkdir(dir, 0700) < 0 && errno != EEXIST)) {
			printf("rtemem-test: cannot create %s: %s\n", dir,
					ret < 0 || (size_t)ret >= len ?
							"name too long" :
							strerror(errno));
			free(v);
			return NULL;
		}
		v[n++] = (char *)"--huge-dir";
		v[n++] = dir;
	}
	for (i = 1; i < argc; i++)
		v[n++] = argv[i];
	*eal_argc = n;
	return v;
}

/* Run the tests of argv[1..] (application args), $RTEMEM_TEST or stdin. */
static void
runner_run_tests(int argc, char **argv, struct test_tally *tally)
{
	const char *env = getenv("RTEMEM_TEST");
	char *names;
	int i;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			test_run_one(argv[i], tally);
	} else if (env != NULL) {
		names = strdup(env);
		if (names == NULL) {
			printf("rtemem-test: out of memory\n");
			tally->failed++;
			return;
		}
		test_run_list(names, tally);
		free(names);
	} else {
		test_run_prompt(stdin, tally);
	}
}

static int
runner_main(int argc, char **argv)
{
	struct test_tally tally = { .last = TEST_SUCCESS };
	char huge_dir[PATH_MAX];
	char **eal_argv;
	int eal_argc, ret, rc;

	eal_argv = runner_eal_args(
			argc, argv, huge_dir, sizeof(huge_dir), &eal_argc);
	if (eal_argv == NULL)
		return 1;
	test_env_set_args(eal_argc, eal_argv);
	ret = rte_eal_init(eal_argc, eal_argv);
	if (ret < 0) {
		printf("rtemem-test: rte_eal_init failed: %s\n",
				rte_strerror(rte_errno));
		rc = 1;
	} else {
		runner_run_tests(eal_argc - ret, eal_argv + ret, &tally);
		rc = test_tally_exit_code(&tally);
		if (rte_eal_cleanup() < 0) {
			printf("rtemem-test: rte_eal_cleanup failed: %s\n",
					rte_strerror(rte_errno));
			rc = 1;
		}
	}
	/* Files left here are pages a test or the EAL forgot to release. */
	if (huge_dir[0] != '\0' && test_scratch_dir_remove(huge_dir) < 0)
		rc = 1;
	free(eal_argv);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *child = getenv("RTEMEM_TEST_CHILD");

	/* Keep output in order with children's and across crashes. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (child != NULL)
		return child_main(child, argc, argv);
	return runner_main(argc, argv);
}
