/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Entries with a prefix's names that are not its files: a FIFO, a
 * directory, another user's files, a file of ours that
 * others may read, a FIFO as the prefix lock; in a shared directory
 * (another user's, mode 1777) and in the user's own. The process must
 * start without blocking, never map, truncate or remove what is not its
 * own (except stale entries of its own directory), and still get all its
 * memory. Also a run as another user, and two primaries started at the
 * same instant on one prefix. Each case uses its own scratch directory on
 * hugetlbfs and prefix "hostile", and removes both.
 */

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_malloc.h>

#include "test.h"

#define HOSTILE_PREFIX "hostile"
#define HOSTILE_NOBODY 65534
#define HOSTILE_MB "8" /* 4 pages of 2 MB: page slots 0 to 3 */
#define SZ_2M (2UL << 20)

/* ---- child side ---- */

/* Whether /proc/self/maps maps a file named @p name. */
static bool
maps_name(const char *name)
{
	char line[512], want[128];
	size_t n, w;
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");

	if (f == NULL)
		return true;
	w = (size_t)snprintf(want, sizeof(want), "/%s\n", name);
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		n = strlen(line);
		found = n >= w && strcmp(line + n - w, want) == 0;
	}
	fclose(f);
	return found;
}

/*
 * argv[1..]: names that must not be mapped. Allocate 8 MB more (zeroed)
 * and fill them, as an application would.
 */
static int __rte_no_asan
hostile_child_use(int argc, char **argv)
{
	size_t len = 8 << 20, i;
	uint8_t *p = rte_zmalloc(NULL, len, 0);
	int rc = 0;

	if (p == NULL) {
		printf("rte_zmalloc of 8 MB failed\n");
		return 1;
	}
	for (i = 0; i < len; i++) {
		if (p[i] != 0) {
			printf("byte %zu is 0x%x, not 0\n", i, p[i]);
			rc = 1;
			break;
		}
	}
	memset(p, 0x5a, len);
	rte_free(p);
	for (i = 1; i < (size_t)argc; i++) {
		if (maps_name(argv[i])) {
			printf("%s is mapped\n", argv[i]);
			rc = 1;
		}
	}
	return rc;
}

REGISTER_CHILD_ACTION(hostile_use, hostile_child_use)

/* Keep the EAL up a while, so that a racing second start finds it. */
static int
hostile_child_hold(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	usleep(300 * 1000);
	return 0;
}

REGISTER_CHILD_ACTION(hostile_hold, hostile_child_hold)

/* ---- parent side ---- */

static char dir[PATH_MAX];

static void
entry_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static int
hostile_setup(void)
{
	if (test_scratch_dir("hostile", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs for a scratch dir");
	return TEST_SUCCESS;
}

static void
hostile_teardown(void)
{
	char cmd[PATH_MAX + 32];

	/* The entries were made by the test, some of them directories. */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/*", dir);
	if (system(cmd) != 0)
		printf("cannot empty %s\n", dir);
	chmod(dir, 0755);
	if (test_scratch_dir_remove(dir) < 0)
		printf("cannot remove %s\n", dir);
}

/* Make @p dir another user's shared directory, as /dev/hugepages 1777. */
static int
make_shared(void)
{
	TEST_ASSERT_SUCCESS(chown(dir, HOSTILE_NOBODY, HOSTILE_NOBODY),
			"chown %s: %s", dir, strerror(errno));
	TEST_ASSERT_SUCCESS(chmod(dir, 01777), "chmod: %s", strerror(errno));
	return TEST_SUCCESS;
}

/* A page-sized file on hugetlbfs, with no page allocated. */
static int
make_file(const char *name, uid_t uid, mode_t mode)
{
	char path[PATH_MAX + 64];
	int fd;

	entry_path(path, sizeof(path), name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, mode);
	TEST_ASSERT(fd >= 0, "%s: %s", path, strerror(errno));
	TEST_ASSERT_SUCCESS(ftruncate(fd, SZ_2M), "ftruncate");
	close(fd);
	TEST_ASSERT_SUCCESS(chown(path, uid, uid), "chown");
	TEST_ASSERT_SUCCESS(chmod(path, mode), "chmod");
	return TEST_SUCCESS;
}

/*
 * The entries of slots 0 to 3: a FIFO, a directory, and another user's
 * files, private and open to all. (hugetlbfs has no symbolic links.)
 */
static int
make_entries(void)
{
	char path[PATH_MAX + 64];

	entry_path(path, sizeof(path), HOSTILE_PREFIX "map_0");
	TEST_ASSERT_SUCCESS(mkfifo(path, 0600), "mkfifo: %s", strerror(errno));
	entry_path(path, sizeof(path), HOSTILE_PREFIX "map_1");
	TEST_ASSERT_SUCCESS(mkdir(path, 0700), "mkdir");
	TEST_ASSERT_SUCCESS(
			make_file(HOSTILE_PREFIX "map_2", HOSTILE_NOBODY, 0600),
			"private file");
	return make_file(HOSTILE_PREFIX "map_3", HOSTILE_NOBODY, 0666);
}

/* Another user's file of slot @p id, as made, never touched. */
static int
check_foreign_file(unsigned int id, mode_t mode)
{
	char path[PATH_MAX + 64], name[64];
	struct stat st;

	snprintf(name, sizeof(name), HOSTILE_PREFIX "map_%u", id);
	entry_path(path, sizeof(path), name);
	TEST_ASSERT(lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
					st.st_uid == HOSTILE_NOBODY &&
					(st.st_mode & 07777) == mode &&
					st.st_size == (off_t)SZ_2M &&
					st.st_blocks == 0,
			"%s: uid %u mode %o size %jd blocks %jd", name,
			(unsigned int)st.st_uid, (unsigned int)st.st_mode,
			(intmax_t)st.st_size, (intmax_t)st.st_blocks);
	return TEST_SUCCESS;
}

/* Each entry of make_entries() is still there, untouched. */
static int
check_entries(void)
{
	char path[PATH_MAX + 64];
	struct stat st;

	entry_path(path, sizeof(path), HOSTILE_PREFIX "map_0");
	TEST_ASSERT(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode), "FIFO");
	entry_path(path, sizeof(path), HOSTILE_PREFIX "map_1");
	TEST_ASSERT(lstat(path, &st) == 0 && S_ISDIR(st.st_mode), "dir");
	TEST_ASSERT_SUCCESS(check_foreign_file(2, 0600), "private file");
	TEST_ASSERT_SUCCESS(check_foreign_file(3, 0666), "file open to all");
	return TEST_SUCCESS;
}

/* What the last run_use() printed. */
static struct test_child_result use_res;

/*
 * Run the child "hostile_use" with EAL option @p opt (or none), as user
 * @p uid (or this one); it must succeed without mapping the entries of
 * the first @p foreign slots.
 */
static int
run_use(const char *opt, const char *uid, unsigned int foreign)
{
	static const char *const names[] = { HOSTILE_PREFIX "map_0",
		HOSTILE_PREFIX "map_1", HOSTILE_PREFIX "map_2",
		HOSTILE_PREFIX "map_3" };
	char dir_arg[PATH_MAX + 16];
	const char *args[12] = { dir_arg, "--file-prefix=" HOSTILE_PREFIX, "-m",
		HOSTILE_MB };
	struct test_child_result *res = &use_res;
	unsigned int n = 4, i;

	if (opt != NULL)
		args[n++] = opt;
	args[n++] = "--";
	for (i = 0; i < foreign && i < RTE_DIM(names); i++)
		args[n++] = names[i];
	args[n] = NULL;
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	if (uid != NULL)
		setenv("RTEMEM_TEST_CHILD_UID", uid, 1);
	TEST_ASSERT_SUCCESS(test_child_run("hostile_use", args, res), "run");
	unsetenv("RTEMEM_TEST_CHILD_UID");
	TEST_ASSERT_EQUAL(res->exit_code, 0, "%s: exit %d signal %d:\n%s",
			opt != NULL ? opt : "default mode", res->exit_code,
			res->signal, res->output);
	return TEST_SUCCESS;
}

/* Files of the prefix, by name; the test's own entries included. */
static int
count_files(void)
{
	return test_dir_count(dir, HOSTILE_PREFIX "map_");
}

/* Beyond slots 0 to 3, every file is a page file of ours. */
static int
check_kept_files(void)
{
	char path[PATH_MAX + 64], name[64];
	struct stat st;
	int n = count_files(), found = 0;
	unsigned int id;

	for (id = 4; id < 64; id++) {
		snprintf(name, sizeof(name), HOSTILE_PREFIX "map_%u", id);
		entry_path(path, sizeof(path), name);
		if (lstat(path, &st) != 0)
			continue;
		found++;
		TEST_ASSERT(S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
						(st.st_mode & 0777) == 0600,
				"%s: mode %o uid %u", name,
				(unsigned int)st.st_mode,
				(unsigned int)st.st_uid);
	}
	TEST_ASSERT(found > 0 && found == n - 4, "%d kept, %d files", found, n);
	return TEST_SUCCESS;
}

static int
test_hostile_shared_dir(void)
{
	TEST_ASSERT_SUCCESS(make_shared(), "shared");
	TEST_ASSERT_SUCCESS(make_entries(), "entries");
	TEST_ASSERT_SUCCESS(run_use(NULL, NULL, 4), "default mode");
	TEST_ASSERT_SUCCESS(check_entries(), "after the default mode");
	TEST_ASSERT_EQUAL(count_files(), 4, "files left by the default mode");
	TEST_ASSERT_SUCCESS(run_use("--huge-unlink=always", NULL, 4), "always");
	TEST_ASSERT_SUCCESS(check_entries(), "after --huge-unlink=always");
	TEST_ASSERT_SUCCESS(
			run_use("--single-file-segments", NULL, 4), "single");
	TEST_ASSERT_SUCCESS(check_entries(), "after --single-file-segments");
	TEST_ASSERT_EQUAL(count_files(), 4, "files left by single files");
	TEST_ASSERT_SUCCESS(run_use("--huge-unlink=never", NULL, 4), "never");
	TEST_ASSERT_SUCCESS(check_entries(), "after --huge-unlink=never");
	TEST_ASSERT_SUCCESS(check_kept_files(), "kept by never");
	TEST_ASSERT_SUCCESS(run_use("--huge-unlink=never", NULL, 4), "warm");
	TEST_ASSERT_SUCCESS(check_entries(), "after a warm restart");
	TEST_ASSERT_SUCCESS(check_kept_files(), "kept by a warm restart");
	return TEST_SUCCESS;
}

/* In the user's own directory, the default mode removes stale entries. */
static int
test_hostile_own_dir(void)
{
	TEST_ASSERT_SUCCESS(make_entries(), "entries");
	TEST_ASSERT_SUCCESS(run_use(NULL, NULL, 0), "default mode");
	TEST_ASSERT_EQUAL(count_files(), 0, "stale entries left");
	return TEST_SUCCESS;
}

/* A file of ours that others may read is never reused: it is replaced. */
static int
test_hostile_exposed_file(void)
{
	char path[PATH_MAX + 64];
	struct stat st;

	TEST_ASSERT_SUCCESS(make_file(HOSTILE_PREFIX "map_0", geteuid(), 0644),
			"file");
	TEST_ASSERT_SUCCESS(run_use("--huge-unlink=never", NULL, 0), "never");
	entry_path(path, sizeof(path), HOSTILE_PREFIX "map_0");
	TEST_ASSERT(strstr(use_res.output, path) != NULL,
			"warning without %s: %s", path, use_res.output);
	TEST_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600,
			"mode %o", (unsigned int)(st.st_mode & 0777));
	test_dir_clear(dir);
	return TEST_SUCCESS;
}

/* The prefix lock must be a file of ours: a FIFO fails at once. */
static int
test_hostile_lock_fifo(void)
{
	char path[PATH_MAX + 64], dir_arg[PATH_MAX + 16];
	const char *args[] = { dir_arg, "--file-prefix=" HOSTILE_PREFIX, NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(make_shared(), "shared");
	entry_path(path, sizeof(path), HOSTILE_PREFIX ".lock");
	TEST_ASSERT_SUCCESS(mkfifo(path, 0666), "mkfifo");
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	TEST_ASSERT_SUCCESS(test_child_run(NULL, args, &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "exit %d: %s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"hostile.lock is a FIFO, not a lock file of yours",
			"message");
	TEST_ASSERT_SUCCESS(unlink(path), "unlink");
	return TEST_SUCCESS;
}

/*
 * As another user (uid 65534): in a directory it owns, root's stale files
 * of its prefix are removed; in root's shared directory they stay and
 * their slots come from anonymous memory. Needs root to switch users.
 */
static int
test_hostile_other_user(void)
{
	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: cannot run a child as another user");
	TEST_ASSERT_SUCCESS(
			chown(dir, HOSTILE_NOBODY, HOSTILE_NOBODY), "chown");
	TEST_ASSERT_SUCCESS(make_file(HOSTILE_PREFIX "map_0", 0, 0600), "f0");
	TEST_ASSERT_SUCCESS(make_file(HOSTILE_PREFIX "map_1", 0, 0600), "f1");
	TEST_ASSERT_SUCCESS(run_use(NULL, "65534", 0), "in its own directory");
	TEST_ASSERT_EQUAL(count_files(), 0, "root's stale files left");

	TEST_ASSERT_SUCCESS(chown(dir, 0, 0), "chown");
	TEST_ASSERT_SUCCESS(chmod(dir, 01777), "chmod");
	TEST_ASSERT_SUCCESS(make_file(HOSTILE_PREFIX "map_0", 0, 0600), "f0");
	TEST_ASSERT_SUCCESS(make_file(HOSTILE_PREFIX "map_1", 0, 0644), "f1");
	TEST_ASSERT_SUCCESS(run_use(NULL, "65534", 2), "in root's directory");
	TEST_ASSERT_EQUAL(count_files(), 2, "root's files removed");
	test_dir_clear(dir);
	return TEST_SUCCESS;
}

/* Start @p n copies at one instant; @return how many started. */
static int
race_starts(unsigned int n, int *started)
{
	char dir_arg[PATH_MAX + 16],
			child_var[] = "RTEMEM_TEST_CHILD=hostile_hold";
	char *args[] = { (char *)"rtemem-test", dir_arg,
		(char *)"--file-prefix=" HOSTILE_PREFIX, (char *)"-m",
		(char *)"4", NULL };
	char *envp[] = { child_var, NULL };
	pid_t pids[4];
	int go[2], status;
	unsigned int i;
	char c;

	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	TEST_ASSERT_SUCCESS(pipe(go), "pipe");
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		TEST_ASSERT(pids[i] >= 0, "fork");
		if (pids[i] == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(127);
			execve("/proc/self/exe", args, envp);
			_exit(127);
		}
	}
	close(go[0]);
	TEST_ASSERT(write(go[1], "xxxx", n) == (ssize_t)n, "go");
	close(go[1]);
	*started = 0;
	for (i = 0; i < n; i++) {
		TEST_ASSERT(waitpid(pids[i], &status, 0) == pids[i], "wait");
		TEST_ASSERT(WIFEXITED(status), "child %u died", i);
		TEST_ASSERT(WEXITSTATUS(status) == 0 ||
						WEXITSTATUS(status) ==
								TEST_CHILD_INIT_FAILED,
				"child %u exit %d", i, WEXITSTATUS(status));
		*started += WEXITSTATUS(status) == 0;
	}
	return TEST_SUCCESS;
}

/* Two primaries on one prefix, started together: exactly one runs. */
static int
test_hostile_two_primaries(void)
{
	unsigned int round;
	int started;

	for (round = 0; round < 5; round++) {
		TEST_ASSERT_SUCCESS(
				race_starts(2, &started), "round %u", round);
		TEST_ASSERT_EQUAL(started, 1, "round %u: %d started", round,
				started);
		TEST_ASSERT_EQUAL(count_files(), 0, "round %u: files left",
				round);
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite hostile_suite = {
	.suite_name = "hostile files",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(hostile_setup, hostile_teardown,
				test_hostile_shared_dir),
		TEST_CASE_ST(hostile_setup, hostile_teardown,
				test_hostile_own_dir),
		TEST_CASE_ST(hostile_setup, hostile_teardown,
				test_hostile_exposed_file),
		TEST_CASE_ST(hostile_setup, hostile_teardown,
				test_hostile_lock_fifo),
		TEST_CASE_ST(hostile_setup, hostile_teardown,
				test_hostile_other_user),
		TEST_CASE_ST(hostile_setup, hostile_teardown,
				test_hostile_two_primaries),
		TEST_CASES_END(),
	},
};

static int
test_hostile_files(void)
{
	return unit_test_suite_runner(&hostile_suite);
}

REGISTER_FAST_TEST(hostile_files_autotest, NOHUGE_SKIP, ASAN_OK,
		test_hostile_files);
