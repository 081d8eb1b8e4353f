/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The runtime directory and the process types, across real processes: a
 * primary makes its prefix's directory (mode 0700) and holds the lock of
 * its config file while it runs, which rte_eal_primary_proc_alive() sees
 * from another process, and the file holds its memory config, which
 * another process can map; it removes both at exit; --no-shconf makes none;
 * --proc-type=secondary with --no-huge is refused, and so is attaching
 * to a --no-huge primary (test_multiprocess.c attaches with hugepages);
 * auto is the primary when none runs; a
 * directory that is not the user's alone is refused; another user gets
 * one under $XDG_RUNTIME_DIR or /tmp/rtemem-UID. The children run with
 * --no-huge: the runtime directory does not depend on the memory.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_eal.h>

#include "eal_memcfg.h"
#include "test.h"

#define RT_PREFIX "rtdir"

/* ---- child side ---- */

/* Print the runtime directory; with "hold", wait for SIGUSR1 when ready. */
static int
runtime_child(int argc, char **argv)
{
	printf("runtime dir [%s] alive %d\n", rte_eal_get_runtime_dir(),
			rte_eal_primary_proc_alive(NULL));
	fflush(stdout);
	if (argc > 1 && strcmp(argv[1], "hold") == 0)
		test_child_ready_hold();
	return 0;
}

REGISTER_CHILD_ACTION(runtime_print, runtime_child)

/* ---- parent side ---- */

static void
rt_dir(char *buf, size_t len, const char *base)
{
	if (base != NULL)
		snprintf(buf, len, "%s/" RT_PREFIX, base);
	else
		snprintf(buf, len, "/var/run/rtemem/" RT_PREFIX);
}

static int
rt_run(const char *const *extra, struct test_child_result *res)
{
	const char *args[12] = { "--no-huge", "-m", "8",
		("--file-prefix=" RT_PREFIX) };
	unsigned int n = 4, i;

	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	return test_child_run("runtime_print", args, res);
}

/*
 * The config file holds the primary's memory config, readable by another
 * process of the user: built, ready, of @p pid, the file's size.
 */
static int
rt_config_check(const char *path, pid_t pid)
{
	const struct rte_mem_config *mcfg;
	struct stat st;
	int fd = open(path, O_RDONLY);

	TEST_ASSERT(fd >= 0, "open: %s", strerror(errno));
	TEST_ASSERT(fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0600,
			"mode %o", (unsigned int)st.st_mode);
	mcfg = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	TEST_ASSERT(mcfg != MAP_FAILED, "mmap: %s", strerror(errno));
	if (mcfg->magic != EAL_MCFG_MAGIC ||
			mcfg->version != EAL_MCFG_VERSION ||
			mcfg->size != (uint64_t)st.st_size ||
			mcfg->primary_pid != pid || mcfg->ready != 1) {
		printf("config: magic %#x version %u size %" PRIu64
		       " of %lld, pid %d, ready %u\n",
				mcfg->magic, mcfg->version, mcfg->size,
				(long long)st.st_size, mcfg->primary_pid,
				mcfg->ready);
		munmap((void *)(uintptr_t)mcfg, (size_t)st.st_size);
		return TEST_FAILED;
	}
	munmap((void *)(uintptr_t)mcfg, (size_t)st.st_size);
	return TEST_SUCCESS;
}

/* A primary holds its directory; another process sees it alive. */
static int
test_runtime_primary(void)
{
	static const char *const args[] = { "--no-huge", "-m", "8",
		"--file-prefix=" RT_PREFIX, "--", "hold", NULL };
	static const char *const second[] = { "--proc-type=secondary", NULL };
	static const char *const autom[] = { "--proc-type=auto", NULL };
	char dir[PATH_MAX], config[PATH_MAX + 16], want[PATH_MAX + 32];
	struct test_child_result res;
	struct stat st;
	pid_t pid;

	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: /var/run/rtemem is root's");
	rt_dir(dir, sizeof(dir), NULL);
	snprintf(config, sizeof(config), "%s/config", dir);
	pid = test_child_start("runtime_print", args, &res);
	TEST_ASSERT(pid > 0, "primary did not start: %s", res.output);
	snprintf(want, sizeof(want), "runtime dir [%s] alive 1\n", dir);
	TEST_ASSERT_STR_CONTAINS(res.output, want, "the primary's view");
	TEST_ASSERT(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
					(st.st_mode & 0777) == 0700 &&
					st.st_uid == 0,
			"%s: mode %o", dir, (unsigned int)st.st_mode);
	TEST_ASSERT_EQUAL(rte_eal_primary_proc_alive(config), 1,
			"the primary is not seen alive");
	if (rt_config_check(config, pid) != TEST_SUCCESS) {
		test_child_finish(pid, SIGUSR1, &res);
		return TEST_FAILED;
	}
	TEST_ASSERT_SUCCESS(rt_run(NULL, &res), "second primary");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED,
			"a second primary ran: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"file prefix 'rtdir' is in use by another process",
			"second primary");
	TEST_ASSERT_SUCCESS(rt_run(second, &res), "secondary");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "secondary");
	TEST_ASSERT_STR_CONTAINS(res.output,
			"options --proc-type=secondary and --no-huge cannot be "
			"used together",
			"secondary");
	TEST_ASSERT_SUCCESS(rt_run(autom, &res), "auto");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "auto");
	TEST_ASSERT_STR_CONTAINS(res.output,
			"the primary process of this file prefix runs with "
			"--no-huge",
			"auto");
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGUSR1, &res), "finish");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "primary: %s", res.output);
	TEST_ASSERT(lstat(dir, &st) != 0 && errno == ENOENT, "%s left behind",
			dir);
	TEST_ASSERT_EQUAL(rte_eal_primary_proc_alive(config), 0,
			"seen alive after its exit");
	return TEST_SUCCESS;
}

/* Without a primary: secondary fails, auto is the primary. */
static int
test_runtime_no_primary(void)
{
	static const char *const second[] = { "--proc-type=secondary", NULL };
	static const char *const autom[] = { "--proc-type=auto", NULL };
	static const char *const noshconf[] = { "--no-shconf", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(rt_run(second, &res), "secondary");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED,
			"a secondary without primary ran: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"options --proc-type=secondary and --no-huge",
			"secondary");
	TEST_ASSERT_SUCCESS(rt_run(autom, &res), "auto");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "auto: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "alive 1", "auto is the primary");
	TEST_ASSERT_SUCCESS(rt_run(noshconf, &res), "no-shconf");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "no-shconf: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "runtime dir [] alive 0",
			"--no-shconf makes no runtime directory");
	return TEST_SUCCESS;
}

/* A directory that is not the user's alone is refused, not used. */
static int
test_runtime_hostile_dir(void)
{
	char dir[PATH_MAX];
	struct test_child_result res;
	int ret = TEST_SUCCESS;

	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: /var/run/rtemem is root's");
	rt_dir(dir, sizeof(dir), NULL);
	mkdir("/var/run/rtemem", 0700);
	TEST_ASSERT_SUCCESS(mkdir(dir, 0755), "mkdir %s", dir);
	if (rt_run(NULL, &res) != 0 ||
			res.exit_code != TEST_CHILD_INIT_FAILED ||
			strstr(res.output, "is not yours alone") == NULL) {
		printf("mode 0755 accepted: %s", res.output);
		ret = TEST_FAILED;
	}
	if (ret == TEST_SUCCESS && chmod(dir, 0700) == 0 &&
			chown(dir, 65534, 65534) == 0 &&
			(rt_run(NULL, &res) != 0 ||
					res.exit_code !=
							TEST_CHILD_INIT_FAILED ||
					strstr(res.output, "owner uid 65534") ==
							NULL)) {
		printf("another user's directory accepted: %s", res.output);
		ret = TEST_FAILED;
	}
	rmdir(dir);
	return ret;
}

/* Another user: under $XDG_RUNTIME_DIR, else /tmp/rtemem-UID. */
static int
test_runtime_other_user(void)
{
	char xdg[] = "/tmp/rtemem-xdg-XXXXXX", dir[PATH_MAX + 16];
	char want[PATH_MAX + 64];
	struct test_child_result res;
	int ret;

	if (geteuid() != 0)
		return test_skip_hugepages("not root: cannot run another user");
	TEST_ASSERT_NOT_NULL(mkdtemp(xdg), "mkdtemp");
	TEST_ASSERT_SUCCESS(chown(xdg, 65534, 65534), "chown");
	setenv("RTEMEM_TEST_CHILD_UID", "65534", 1);
	setenv("XDG_RUNTIME_DIR", xdg, 1);
	ret = rt_run(NULL, &res);
	unsetenv("XDG_RUNTIME_DIR");
	snprintf(want, sizeof(want), "runtime dir [%s/rtemem/" RT_PREFIX "]",
			xdg);
	if (ret == 0 &&
			(res.exit_code != 0 ||
					strstr(res.output, want) == NULL)) {
		printf("under XDG_RUNTIME_DIR: %s", res.output);
		ret = TEST_FAILED;
	}
	if (ret == 0) {
		ret = rt_run(NULL, &res);
		snprintf(want, sizeof(want),
				"runtime dir [/tmp/rtemem-65534/" RT_PREFIX
				"]");
		if (ret == 0 &&
				(res.exit_code != 0 ||
						strstr(res.output, want) ==
								NULL)) {
			printf("without XDG_RUNTIME_DIR: %s", res.output);
			ret = TEST_FAILED;
		}
	}
	unsetenv("RTEMEM_TEST_CHILD_UID");
	snprintf(dir, sizeof(dir), "%s/rtemem", xdg);
	rmdir(dir);
	rmdir(xdg);
	rmdir("/tmp/rtemem-65534");
	return ret == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static struct unit_test_suite runtime_suite = {
	.suite_name = "runtime directory and process types",
	.unit_test_cases = {
		TEST_CASE(test_runtime_primary),
		TEST_CASE(test_runtime_no_primary),
		TEST_CASE(test_runtime_hostile_dir),
		TEST_CASE(test_runtime_other_user),
		TEST_CASES_END(),
	},
};

static int
test_eal_runtime(void)
{
	return unit_test_suite_runner(&runtime_suite);
}

REGISTER_FAST_TEST(eal_runtime_autotest, NOHUGE_OK, ASAN_OK, test_eal_runtime);
