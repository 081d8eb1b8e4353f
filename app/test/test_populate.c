/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --populate-threads in child processes, one file per page: a cold start
 * whose pages several threads allocate gets every page, zeroed, in its
 * slot, with one file each; a warm restart on threads finds the data of
 * the last run in every page; running out of pages on threads (a mount
 * of the test's own with size=) fails cleanly and leaves neither file nor
 * page behind. Each case has its own file prefix and directory.
 */

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include "test.h"

#define PT_PAGES 32 /* pages of a run: 4 per thread at least */
#define PT_MOUNT_PAGES 16 /* what the mount of the failure case holds */

/* ---- child side ---- */

struct pt_walk {
	unsigned int n, dirty, bad, misplaced;
	bool fill;
	uintptr_t next; /* where the next page should be */
};

/* The byte page @p n holds after a fill: never 0. */
static uint8_t
pt_pattern(unsigned int n)
{
	return (uint8_t)(n % 251 + 1);
}

/* Pages belong to the heap, which poisons free memory in ASan builds. */
static int __rte_no_asan
pt_walk_cb(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	struct pt_walk *w = arg;
	volatile uint8_t *p = RTE_PTR_ADD(ms->addr, ms->len / 2);
	uint8_t want = (ms->flags & RTE_MEMSEG_FLAG_DIRTY) ? pt_pattern(w->n) :
							     0;

	RTE_SET_USED(msl);
	/* One run from -m: the pages follow each other. */
	if (w->n > 0 && (uintptr_t)ms->addr != w->next)
		w->misplaced++;
	w->next = (uintptr_t)ms->addr + ms->len;
	if (p[0] != want || p[ms->len / 2 - 1] != want)
		w->bad++;
	w->dirty += (ms->flags & RTE_MEMSEG_FLAG_DIRTY) != 0;
	if (w->fill) {
		p[0] = pt_pattern(w->n);
		p[ms->len / 2 - 1] = pt_pattern(w->n);
	}
	w->n++;
	return 0;
}

/* App arg "fill": write each page's pattern. Prints what it found. */
static int
pt_child_pages(int argc, char **argv)
{
	struct pt_walk w = { .fill = argc > 1 && strcmp(argv[1], "fill") == 0 };

	rte_memseg_walk(pt_walk_cb, &w);
	printf("pages %u dirty %u bad %u misplaced %u\n", w.n, w.dirty, w.bad,
			w.misplaced);
	return w.bad == 0 && w.misplaced == 0 ? 0 : 1;
}
REGISTER_CHILD_ACTION(populate_pages, pt_child_pages)

/* ---- parent side ---- */

/* Run populate_pages; its "pages N dirty D" line must be as given. */
static int
pt_expect(const char *dir, const char *mem, const char *threads, bool split,
		bool fill, unsigned int dirty)
{
	char dir_arg[PATH_MAX + 16], want[64];
	const char *args[] = { dir_arg, "--file-prefix=populate", "-m", mem,
		threads, "--huge-unlink=never", "--log-level=info", "--",
		fill ? "fill" : "check", NULL };
	struct test_child_result res;

	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	TEST_ASSERT_SUCCESS(
			test_child_run("populate_pages", args, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: exit %d: %s", threads,
			res.exit_code, res.output);
	snprintf(want, sizeof(want), "pages %u dirty %u bad 0", PT_PAGES,
			dirty);
	TEST_ASSERT_STR_CONTAINS(res.output, want, "pages");
	/* With more than one thread, a run this long is split. */
	TEST_ASSERT_EQUAL(strstr(res.output, " threads: done") != NULL, split,
			"%s: split %d: %s", threads, split, res.output);
	TEST_ASSERT_EQUAL(test_dir_count(dir, "populatemap_"), PT_PAGES,
			"page files");
	return TEST_SUCCESS;
}

/*
 * A cold start on threads, then a warm restart on threads, the run split
 * if @p split.
 */
static int
pt_cold_warm(const char *threads, bool split)
{
	char dir[PATH_MAX], mem[24];
	int ret;

	if (test_huge_page_size() > RTE_PGSIZE_2M)
		return test_skip_hugepages("needs 2 MB pages: 32 larger ones "
					   "are more than a test may take");
	if (test_huge_mem_arg(PT_PAGES, mem, sizeof(mem)) < 0 ||
			test_scratch_dir("populate", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	ret = pt_expect(dir, mem, threads, split, true, 0);
	if (ret == TEST_SUCCESS)
		ret = pt_expect(dir, mem, threads, split, false, PT_PAGES);
	test_dir_clear(dir);
	if (test_scratch_dir_remove(dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

static int
test_populate_two(void)
{
	return pt_cold_warm("--populate-threads=2", true);
}

/* auto: as many threads as CPUs this process may use (one node here). */
static int
test_populate_auto(void)
{
	cpu_set_t set;

	TEST_ASSERT_SUCCESS(sched_getaffinity(0, sizeof(set), &set),
			"sched_getaffinity");
	return pt_cold_warm("--populate-threads=auto", CPU_COUNT(&set) > 1);
}

/*
 * Out of pages on threads: a mount of PT_MOUNT_PAGES 2 MB pages for a
 * start that wants PT_PAGES. Init fails with the mount's message; no
 * file is left and every page of the mount is free.
 */
static int
test_populate_out_of_pages(void)
{
	char tmp[] = "/tmp/rtemem-populate-XXXXXX";
	char dir_arg[64], opts[64], want[64];
	const char *args[] = { dir_arg, "--file-prefix=popfail", "-m", "64",
		"--populate-threads=2", NULL, NULL };
	struct test_child_result res;
	struct statfs sfs;
	int ret = TEST_SUCCESS;
	unsigned int mode;

	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: cannot mount a hugetlbfs of its own");
	TEST_ASSERT_NOT_NULL(mkdtemp(tmp), "mkdtemp");
	snprintf(opts, sizeof(opts), "pagesize=2M,size=%uM",
			PT_MOUNT_PAGES * 2);
	if (mount("nodev", tmp, "hugetlbfs", 0, opts) != 0) {
		rmdir(tmp);
		return test_skip_hugepages("cannot mount a 2 MB hugetlbfs");
	}
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", tmp);
	snprintf(want, sizeof(want), "is mounted with size= for %u pages",
			PT_MOUNT_PAGES);
	for (mode = 0; mode < 2 && ret == TEST_SUCCESS; mode++) {
		args[5] = mode == 0 ? NULL : "--huge-unlink=never";
		if (test_child_run(NULL, args, &res) != 0 ||
				res.exit_code != TEST_CHILD_INIT_FAILED ||
				strstr(res.output, want) == NULL ||
				test_dir_count(tmp, "popfailmap_") != 0 ||
				statfs(tmp, &sfs) != 0 ||
				sfs.f_bfree != sfs.f_blocks) {
			printf("mode %u: exit %d, %d files left, %lu of %lu "
			       "pages free: %s\n",
					mode, res.exit_code,
					test_dir_count(tmp, "popfailmap_"),
					(unsigned long)sfs.f_bfree,
					(unsigned long)sfs.f_blocks,
					res.output);
			ret = TEST_FAILED;
		}
	}
	test_dir_clear(tmp);
	umount(tmp);
	rmdir(tmp);
	return ret;
}

static struct unit_test_suite populate_suite = {
	.suite_name = "pages populated on several threads",
	.unit_test_cases = {
		TEST_CASE(test_populate_two),
		TEST_CASE(test_populate_auto),
		TEST_CASE(test_populate_out_of_pages),
		TEST_CASES_END(),
	},
};

static int
test_populate(void)
{
	return unit_test_suite_runner(&populate_suite);
}

REGISTER_FAST_TEST(populate_autotest, NOHUGE_SKIP, ASAN_OK, test_populate);
