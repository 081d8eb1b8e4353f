/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * startup_perf_autotest: how long a whole process takes, from fork+exec to
 * exit, to initialize rtemem with a given amount of memory in each mode,
 * next to the kernel's floor for the same files (a child mapping them with
 * nothing but open, ftruncate and mmap). Prints a table; asserts nothing
 * about time.
 *
 * Sizes come from RTEMEM_PERF_SIZES_MB (default "256 1024"), repetitions
 * from RTEMEM_PERF_REPS (default 5).
 */

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>

#include "test.h"

#define SP_MAX_REPS 32
#define SP_PAGE RTE_PGSIZE_2M

static double
sp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Child: the kernel's floor. Map argv[1] MB of files in --huge-dir, one
 * per page or one for all (argv[2]: "page" or "single"), with nothing but
 * open, ftruncate and mmap.
 */
static int
sp_child_floor(int argc, char **argv)
{
	const char *dir = test_huge_dir();
	size_t n, i, len;
	char path[PATH_MAX];
	char *va;
	int fd;

	if (argc < 3 || dir == NULL)
		return 2;
	n = strtoul(argv[1], NULL, 10) / 2;
	len = n * SP_PAGE;
	va = mmap(NULL, len, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (va == MAP_FAILED)
		return 3;
	for (i = 0; i < n; i++) {
		bool single = strcmp(argv[2], "single") == 0;

		if (single && i > 0)
			break;
		snprintf(path, sizeof(path), "%s/floormap_%zu", dir, i);
		fd = open(path, O_CREAT | O_RDWR, 0600);
		if (fd < 0 || ftruncate(fd, single ? len : SP_PAGE) != 0)
			return 4;
		if (mmap(va + i * SP_PAGE, single ? len : SP_PAGE,
				    PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd,
				    0) == MAP_FAILED)
			return 5;
		close(fd);
	}
	return 0;
}
REGISTER_CHILD_ACTION(sp_floor, sp_child_floor)

extern char **environ;

/*
 * Run this program as a child with @p args and wait, timing nothing but
 * posix_spawn to waitpid: the runner's child helpers poll, which would
 * add their tick to short runs. Output goes to /dev/null.
 *
 * @return the exit status, or -1.
 */
static int
sp_spawn(const char *action, const char *const *args, double *ms)
{
	char env_child[64], *argv[24], *envp[256];
	posix_spawn_file_actions_t fa;
	unsigned int i, n = 0;
	int status = -1;
	double t0;
	pid_t pid;

	argv[n++] = (char *)"/proc/self/exe";
	for (i = 0; args[i] != NULL && n < RTE_DIM(argv) - 1; i++)
		argv[n++] = (char *)(uintptr_t)args[i];
	argv[n] = NULL;
	snprintf(env_child, sizeof(env_child), "RTEMEM_TEST_CHILD=%s", action);
	n = 0;
	envp[n++] = env_child;
	for (i = 0; environ[i] != NULL && n < RTE_DIM(envp) - 1; i++)
		if (strncmp(environ[i], "RTEMEM_TEST_", 12) != 0)
			envp[n++] = environ[i];
	envp[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	t0 = sp_now_ms();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, envp) == 0 &&
			waitpid(pid, &status, 0) == pid)
		*ms = sp_now_ms() - t0;
	posix_spawn_file_actions_destroy(&fa);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* One case of the table. */
struct sp_case {
	const char *name;
	const char *eal[4]; /* extra EAL args */
	bool warm; /* run once untimed first, so files exist */
	bool keep; /* files are kept between runs (never / floor) */
	const char *floor; /* floor child layout, or NULL for rtemem */
};

static const struct sp_case sp_cases[] = {
	{ "existing (default), cold", { NULL }, false, false, NULL },
	{ "always, cold", { "--huge-unlink=always", NULL }, false, false,
			NULL },
	{ "never, warm", { "--huge-unlink=never", NULL }, true, true, NULL },
	{ "never + single file, warm",
			{ "--huge-unlink=never", "--single-file-segments",
					NULL },
			true, true, NULL },
	{ "legacy, cold", { "--legacy-mem", NULL }, false, false, NULL },
	{ "floor: file per page, cold", { NULL }, false, false, "page" },
	{ "floor: file per page, warm", { NULL }, true, true, "page" },
	{ "floor: one file, warm", { NULL }, true, true, "single" },
};

/* Run one child of a case; @return its wall time in ms, or -1. */
static double
sp_run_once(const struct sp_case *c, const char *dir, unsigned int mb)
{
	char dir_arg[PATH_MAX + 16], m_arg[32], mb_arg[32];
	struct test_child_result res;
	const char *args[16];
	unsigned int n = 0, i;
	double t = 0;

	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	snprintf(m_arg, sizeof(m_arg), "-m%u", mb);
	snprintf(mb_arg, sizeof(mb_arg), "%u", mb);
	args[n++] = dir_arg;
	args[n++] = "--file-prefix=sp";
	args[n++] = "-l0";
	if (c->floor == NULL)
		args[n++] = m_arg;
	for (i = 0; c->eal[i] != NULL; i++)
		args[n++] = c->eal[i];
	if (c->floor != NULL) {
		args[n++] = "--in-memory";
		args[n++] = "--";
		args[n++] = mb_arg;
		args[n++] = c->floor;
	}
	args[n] = NULL;
	if (sp_spawn(c->floor ? "sp_floor" : "", args, &t) == 0)
		return t;
	/* Run it again through the runner to show what went wrong. */
	test_child_run(c->floor ? "sp_floor" : "", args, &res);
	printf("%s, %u MB: child failed (%d): %s\n", c->name, mb, res.exit_code,
			res.output);
	return -1;
}

static int
sp_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
sp_case_run(const struct sp_case *c, const char *dir, unsigned int mb,
		unsigned int reps)
{
	double t[SP_MAX_REPS];
	unsigned int i;

	test_dir_clear(dir);
	if (c->warm && sp_run_once(c, dir, mb) < 0)
		return -1;
	for (i = 0; i < reps; i++) {
		if (!c->keep)
			test_dir_clear(dir);
		t[i] = sp_run_once(c, dir, mb);
		if (t[i] < 0)
			return -1;
	}
	qsort(t, reps, sizeof(t[0]), sp_cmp);
	printf("%-30s %7u %9.1f %9.1f %9.1f\n", c->name, mb, t[reps / 2], t[0],
			t[reps - 1]);
	fflush(stdout);
	test_dir_clear(dir);
	return 0;
}

static unsigned int
sp_env_uint(const char *name, unsigned int def, unsigned int max)
{
	const char *v = getenv(name);
	unsigned long n = v != NULL ? strtoul(v, NULL, 10) : def;

	return n == 0 || n > max ? def : (unsigned int)n;
}

static int
test_startup_perf(void)
{
	const char *sizes = getenv("RTEMEM_PERF_SIZES_MB");
	unsigned int reps = sp_env_uint("RTEMEM_PERF_REPS", 5, SP_MAX_REPS);
	char dir[PATH_MAX], list[256], *tok, *save;
	unsigned int i;
	int ret = TEST_SUCCESS;

	if (test_scratch_dir("startup", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	snprintf(list, sizeof(list), "%s", sizes != NULL ? sizes : "256 1024");
	printf("whole process, fork+exec to exit, ms (%u runs)\n", reps);
	printf("%-30s %7s %9s %9s %9s\n", "case", "MB", "median", "min", "max");
	sp_case_run(&(struct sp_case){ "no memory (no -m)", { NULL }, false,
				    false, NULL },
			dir, 0, reps);
	for (tok = strtok_r(list, " ,", &save); tok != NULL;
			tok = strtok_r(NULL, " ,", &save)) {
		for (i = 0; i < RTE_DIM(sp_cases) && ret == TEST_SUCCESS; i++)
			if (sp_case_run(&sp_cases[i], dir,
					    (unsigned int)atoi(tok), reps) < 0)
				ret = TEST_FAILED;
	}
	if (test_scratch_dir_remove(dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

REGISTER_PERF_TEST(startup_perf_autotest, test_startup_perf);
