/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Crash at any instant: a child that starts, allocates, fills, grows and
 * shrinks its heap, reserves memzones and exits is killed with SIGKILL
 * at a random instant, in every memory mode, again and again. After each
 * kill a new process of the same prefix must start, get zeroed memory
 * from rte_zmalloc() and exit cleanly; at the end a default-mode start
 * must find and remove every file the prefix left, so no hugepage stays
 * held (counted by the prefix's own files, not by the machine's free
 * count); and the files of another prefix in the same directory are
 * never touched.
 *
 * The kill instant is uniform over the length of an unkilled run in the
 * same mode, measured first, so kills land in cold and warm starts, heap
 * growth and shrink, rte_zmalloc() on dirty memory and exit alike.
 * RTEMEM_CRASH_ITERATIONS (default 24) and RTEMEM_CRASH_SEED choose the
 * run; a failure prints the seed and iteration that reproduce it.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_random.h>

#include "test.h"

#define CRASH_PREFIX "crash"
#define CRASH_OTHER "crashother" /* the neighbour prefix's files */
#define CRASH_OTHER_FILES 3
#define CRASH_ITERATIONS 24
#define CRASH_SEED 0x5eed
#define CRASH_BLOCKS 64

/* ---- child side ---- */

/* @return the index of a non-zero byte of @p p, or -1. */
static long __rte_no_asan
nonzero_at(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != 0)
			return (long)i;
	return -1;
}

/* Zeroed memory, checked, then filled: what the next run must not see. */
static int
crash_zmalloc_fill(uint8_t **slot, size_t len)
{
	long at;

	*slot = rte_zmalloc(NULL, len, 0);
	if (*slot == NULL)
		return 0; /* out of memory is not this test's failure */
	at = nonzero_at(*slot, len);
	if (at >= 0) {
		printf("NONZERO: byte %ld of a %zu-byte rte_zmalloc is 0x%x\n",
				at, len, (*slot)[at]);
		return -1;
	}
	memset(*slot, 0xc3, len);
	return 0;
}

/*
 * argv[1]: a seed; argv[2]: "work" for the whole workload, "check" for a
 * quick start, zeroed-memory check and exit.
 */
static int
crash_child(int argc, char **argv)
{
	uint8_t *blocks[CRASH_BLOCKS] = { NULL };
	const struct rte_memzone *mz;
	uint64_t r;
	unsigned int i, rounds;
	char name[32];

	if (argc < 3)
		return 2;
	rte_srand(strtoull(argv[1], NULL, 0));
	rounds = strcmp(argv[2], "work") == 0 ? 6 : 1;
	while (rounds-- > 0) {
		for (i = 0; i < CRASH_BLOCKS; i++) {
			r = rte_rand();
			/* 64 B to 1 MB, and now and then 16 MB: growth. */
			if (crash_zmalloc_fill(&blocks[i],
					    r % 16 == 0 ? (16 << 20) :
							  64 + r % (1 << 20)) <
					0)
				return 3;
		}
		snprintf(name, sizeof(name), "crash_mz_%u", rounds);
		mz = rte_memzone_reserve(name, 1 << 20, SOCKET_ID_ANY, 0);
		/* Free the large blocks and half the rest: the heap shrinks
		 * and the next round takes dirty memory. */
		for (i = 0; i < CRASH_BLOCKS; i++) {
			if (blocks[i] != NULL && (i % 2 == 0 || i % 16 == 0)) {
				rte_free(blocks[i]);
				blocks[i] = NULL;
			}
		}
		rte_memzone_free(mz);
	}
	printf("crash child done\n");
	return 0;
}

REGISTER_CHILD_ACTION(crash_work, crash_child)

/* ---- parent side ---- */

struct crash_mode {
	const char *name;
	const char *opts[3];
};

static const struct crash_mode crash_modes[] = {
	{ "file per page", { NULL } },
	{ "single file", { "--single-file-segments", NULL } },
	{ "never", { "--huge-unlink=never", NULL } },
	{ "never, single file",
			{ "--huge-unlink=never", "--single-file-segments",
					NULL } },
	{ "legacy", { "--legacy-mem", NULL } },
	{ "in-memory", { "--in-memory", NULL } },
};

static char dir[PATH_MAX];
static struct stat other_st[CRASH_OTHER_FILES];

static void
other_path(char *buf, size_t len, unsigned int i)
{
	snprintf(buf, len, "%s/" CRASH_OTHER "map_%u", dir, i);
}

/* Another prefix's files, as a process of it would have left them. */
static int
other_make(void)
{
	char path[PATH_MAX + 32];
	unsigned int i;
	int fd;

	for (i = 0; i < CRASH_OTHER_FILES; i++) {
		other_path(path, sizeof(path), i);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
		TEST_ASSERT(fd >= 0, "%s: %s", path, strerror(errno));
		TEST_ASSERT_SUCCESS(ftruncate(fd, 2 << 20), "ftruncate");
		TEST_ASSERT_SUCCESS(fstat(fd, &other_st[i]), "fstat");
		close(fd);
	}
	return TEST_SUCCESS;
}

static int
other_check(void)
{
	char path[PATH_MAX + 32];
	struct stat st;
	unsigned int i;

	for (i = 0; i < CRASH_OTHER_FILES; i++) {
		other_path(path, sizeof(path), i);
		TEST_ASSERT(stat(path, &st) == 0 &&
						st.st_ino == other_st[i].st_ino &&
						st.st_size == other_st[i].st_size &&
						st.st_blocks == 0 &&
						st.st_mtime == other_st[i].st_mtime,
				"another prefix's file %s was touched", path);
	}
	return TEST_SUCCESS;
}

/* The arguments of a child in @p m, with application @p args. */
static void
crash_args(const char **args, const struct crash_mode *m, char *dir_arg,
		size_t len, char *seed, const char *what)
{
	unsigned int n = 0, i;

	snprintf(dir_arg, len, "--huge-dir=%s", dir);
	args[n++] = dir_arg;
	args[n++] = "--file-prefix=" CRASH_PREFIX;
	args[n++] = "-m";
	args[n++] = "64";
	for (i = 0; m->opts[i] != NULL; i++)
		args[n++] = m->opts[i];
	args[n++] = "--";
	args[n++] = seed;
	args[n++] = what;
	args[n] = NULL;
}

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* An unkilled run of the workload in @p m: @return its length in ms. */
static int
crash_measure(const struct crash_mode *m, double *ms)
{
	char dir_arg[PATH_MAX + 16], seed[32] = "1";
	const char *args[16];
	struct test_child_result res;
	double t0 = now_ms();

	crash_args(args, m, dir_arg, sizeof(dir_arg), seed, "work");
	TEST_ASSERT_SUCCESS(test_child_run("crash_work", args, &res), "run");
	*ms = now_ms() - t0;
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: exit %d:\n%s", m->name,
			res.exit_code, res.output);
	return TEST_SUCCESS;
}

/*
 * One iteration: the workload killed after @p delay_us, then a check run
 * that must start, find zeroed memory and exit cleanly.
 */
static int
crash_once(const struct crash_mode *m, uint64_t seed, unsigned int delay_us)
{
	char dir_arg[PATH_MAX + 16], seed_s[32];
	const char *args[16];
	struct test_child_result res;
	pid_t pid;

	snprintf(seed_s, sizeof(seed_s), "0x%" PRIx64, seed);
	crash_args(args, m, dir_arg, sizeof(dir_arg), seed_s, "work");
	pid = test_child_spawn("crash_work", args, &res);
	TEST_ASSERT(pid > 0, "spawn");
	usleep(delay_us);
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGKILL, &res), "finish");
	/* Killed, or done before the kill: never another end. */
	TEST_ASSERT(res.signal == SIGKILL || res.exit_code == 0,
			"workload exit %d signal %d:\n%s", res.exit_code,
			res.signal, res.output);
	crash_args(args, m, dir_arg, sizeof(dir_arg), seed_s, "check");
	TEST_ASSERT_SUCCESS(test_child_run("crash_work", args, &res), "check");
	TEST_ASSERT_EQUAL(res.exit_code, 0,
			"the start after the kill: exit %d signal %d:\n%s",
			res.exit_code, res.signal, res.output);
	return other_check();
}

static unsigned int
env_uint(const char *name, unsigned int dflt)
{
	const char *s = getenv(name);

	return s != NULL ? (unsigned int)strtoul(s, NULL, 0) : dflt;
}

/* The last start, in the default mode, removes whatever the kills left. */
static int
crash_final_cleanup(void)
{
	char dir_arg[PATH_MAX + 16];
	const char *args[] = { dir_arg, "--file-prefix=" CRASH_PREFIX, NULL };
	struct test_child_result res;

	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	TEST_ASSERT_SUCCESS(test_child_run(NULL, args, &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit %d:\n%s", res.exit_code,
			res.output);
	TEST_ASSERT_EQUAL(test_dir_count(dir, CRASH_PREFIX "map_"), 0,
			"files of the prefix left: their pages stay held");
	return other_check();
}

static int
test_crash_any_instant(void)
{
	unsigned int iters = env_uint(
			"RTEMEM_CRASH_ITERATIONS", CRASH_ITERATIONS);
	uint64_t seed = env_uint("RTEMEM_CRASH_SEED", CRASH_SEED), r;
	double len_ms[RTE_DIM(crash_modes)];
	unsigned int i, k, delay_us;
	int ret = TEST_SUCCESS;

	if (test_scratch_dir("crash", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	printf("crash: seed 0x%" PRIx64 ", %u iterations\n", seed, iters);
	ret = other_make();
	for (k = 0; ret == TEST_SUCCESS && k < RTE_DIM(crash_modes); k++) {
		ret = crash_measure(&crash_modes[k], &len_ms[k]);
		printf("crash: an unkilled run in mode %s takes %.0f ms\n",
				crash_modes[k].name, len_ms[k]);
	}
	rte_srand(seed);
	for (i = 0; ret == TEST_SUCCESS && i < iters; i++) {
		k = i % RTE_DIM(crash_modes);
		r = rte_rand();
		delay_us = (unsigned int)(r % (uint64_t)(len_ms[k] * 1000 + 1));
		ret = crash_once(&crash_modes[k], r, delay_us);
		if (ret != TEST_SUCCESS)
			printf("crash: failed at iteration %u (mode %s, kill "
			       "after %u us): rerun with "
			       "RTEMEM_CRASH_SEED=0x%" PRIx64 "\n",
					i, crash_modes[k].name, delay_us, seed);
	}
	if (ret == TEST_SUCCESS)
		ret = crash_final_cleanup();
	test_dir_clear(dir);
	if (test_scratch_dir_remove(dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

static struct unit_test_suite crash_suite = {
	.suite_name = "crash at any instant",
	.unit_test_cases = {
		TEST_CASE(test_crash_any_instant),
		TEST_CASES_END(),
	},
};

static int
test_crash(void)
{
	return unit_test_suite_runner(&crash_suite);
}

REGISTER_FAST_TEST(crash_autotest, NOHUGE_SKIP, ASAN_OK, test_crash);
