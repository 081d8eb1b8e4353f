/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Hugepage files across real processes: for each backing and --huge-unlink
 * mode, which files exist and are locked while a child runs, after it
 * exits cleanly and after it is killed; what a restart with
 * --huge-unlink=never maps again and marks dirty; a second process on a
 * live prefix. Each case runs in its own hugetlbfs scratch directory with
 * its own file prefix, and removes both.
 *
 * A run maps HF_PAGES pages of the scratch directory's size (-m), or two
 * of 1 GB or larger (CI runs this test on 1 GB pages too).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include "test.h"

#define HF_MAX_PAGES 64
#define HF_PAGES 4 /* pages of a run: 8 MB of 2 MB pages */
#define HF_PAGES_LARGE 2 /* with pages of 1 GB or more */

/* ---- child side ---- */

/* The byte a filled page holds: differs per page, never 0. */
static uint8_t
hf_pattern(unsigned int n)
{
	return (uint8_t)(n % 251 + 1);
}

struct hf_walk {
	unsigned int n; /* pages seen */
	bool fill; /* write the pattern */
	bool check; /* verify dirty pages hold it and clean ones are zero */
	unsigned int bad; /* pages whose content is wrong */
};

/* Pages belong to the heap, which poisons free memory in ASan builds. */
static int __rte_no_asan
hf_walk_cb(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	struct hf_walk *w = arg;
	/* Not the first bytes: the heap puts a header at the start of the
	 * memory mapped at init. */
	volatile uint8_t *p = RTE_PTR_ADD(ms->addr, ms->len / 2);
	uint8_t want = hf_pattern(w->n);
	uint8_t got0 = p[0], got1 = p[ms->len / 2 - 1];

	RTE_SET_USED(msl);
	printf("seg %u flags 0x%x iova_is_va %d\n", w->n, ms->flags,
			ms->iova == (rte_iova_t)(uintptr_t)ms->addr);
	if (w->check) {
		uint8_t exp = (ms->flags & RTE_MEMSEG_FLAG_DIRTY) ? want : 0;

		if (got0 != exp || got1 != exp) {
			printf("seg %u content 0x%x 0x%x, expected 0x%x\n",
					w->n, got0, got1, exp);
			w->bad++;
		}
	}
	if (w->fill) {
		p[0] = want;
		p[ms->len / 2 - 1] = want;
	}
	w->n++;
	return 0;
}

/*
 * App args: any of "fill", "check", "hold". Prints one line per page;
 * with hold, waits for SIGUSR1 after being ready, then exits cleanly.
 */
static int
hf_child_pages(int argc, char **argv)
{
	struct hf_walk w = { 0 };
	bool hold = false;
	int i;

	for (i = 1; i < argc; i++) {
		w.fill |= strcmp(argv[i], "fill") == 0;
		w.check |= strcmp(argv[i], "check") == 0;
		hold |= strcmp(argv[i], "hold") == 0;
	}
	rte_memseg_walk(hf_walk_cb, &w);
	printf("pages %u bad %u\n", w.n, w.bad);
	fflush(stdout);
	if (hold)
		test_child_ready_hold();
	return w.bad == 0 ? 0 : 1;
}
REGISTER_CHILD_ACTION(hf_pages, hf_child_pages)

/* ---- parent side ---- */

/* A case's directory, prefix and common arguments. */
struct hf_case {
	char dir[PATH_MAX];
	char prefix[64];
	char huge_dir_arg[PATH_MAX + 16];
	char prefix_arg[96];
	unsigned int pages; /* -m of its runs, in pages */
	char mem[24]; /* the -m value */
	uint64_t page_sz;
};

/* Runs of @p c map @p pages pages from now on. */
static int
hf_case_pages(struct hf_case *c, unsigned int pages)
{
	c->pages = pages;
	return test_huge_mem_arg(pages, c->mem, sizeof(c->mem));
}

static int
hf_case_open(struct hf_case *c, const char *name)
{
	c->page_sz = test_huge_page_size();
	if (c->page_sz == 0 ||
			hf_case_pages(c,
					c->page_sz >= RTE_PGSIZE_1G ?
							HF_PAGES_LARGE :
							HF_PAGES) < 0 ||
			test_scratch_dir(name, c->dir, sizeof(c->dir)) < 0)
		return -1;
	snprintf(c->prefix, sizeof(c->prefix), "hf%s", name);
	snprintf(c->huge_dir_arg, sizeof(c->huge_dir_arg), "--huge-dir=%s",
			c->dir);
	snprintf(c->prefix_arg, sizeof(c->prefix_arg), "--file-prefix=%s",
			c->prefix);
	return 0;
}

/* Remove everything a case left (after its checks) and its directory. */
static int
hf_case_close(struct hf_case *c)
{
	test_dir_clear(c->dir);
	return test_scratch_dir_remove(c->dir);
}

/* What a directory holds. */
struct hf_files {
	unsigned int n_map; /* <prefix>map_* files */
	unsigned int n_map_locked; /* of which locked by someone */
	bool lock_file; /* <prefix>.lock exists */
	bool lock_held; /* and is held */
	bool layout_file; /* <prefix>.layout-* exists (--huge-unlink=never) */
	unsigned int n_other; /* anything else */
	char names[1024]; /* map file names, space separated */
};

static bool
hf_is_locked(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	bool locked;

	if (fd < 0)
		return false;
	locked = flock(fd, LOCK_EX | LOCK_NB) != 0;
	close(fd);
	return locked;
}

static void
hf_scan(const struct hf_case *c, struct hf_files *f)
{
	char map_pfx[80], lock_name[80], layout_name[80];
	DIR *d = opendir(c->dir);
	struct dirent *de;

	memset(f, 0, sizeof(*f));
	snprintf(map_pfx, sizeof(map_pfx), "%smap_", c->prefix);
	snprintf(lock_name, sizeof(lock_name), "%s.lock", c->prefix);
	snprintf(layout_name, sizeof(layout_name), "%s.layout-", c->prefix);
	while (d != NULL && (de = readdir(d)) != NULL) {
		bool locked;

		if (de->d_name[0] == '.')
			continue;
		locked = hf_is_locked(dirfd(d), de->d_name);
		if (strncmp(de->d_name, map_pfx, strlen(map_pfx)) == 0) {
			f->n_map++;
			f->n_map_locked += locked;
			strncat(f->names, de->d_name,
					sizeof(f->names) - strlen(f->names) -
							2);
			strcat(f->names, " ");
		} else if (strcmp(de->d_name, lock_name) == 0) {
			f->lock_file = true;
			f->lock_held = locked;
		} else if (strncmp(de->d_name, layout_name,
					   strlen(layout_name)) == 0) {
			f->layout_file = true;
		} else {
			f->n_other++;
		}
	}
	if (d != NULL)
		closedir(d);
}

/* Build "EAL args -- app args" for a case; @p extra ends with NULL. */
static void
hf_args(const struct hf_case *c, const char **args, size_t max,
		const char *const *eal_extra, const char *const *app)
{
	size_t n = 0;

	args[n++] = c->huge_dir_arg;
	args[n++] = c->prefix_arg;
	args[n++] = "-m";
	args[n++] = c->mem;
	while (*eal_extra != NULL && n < max - 3)
		args[n++] = *eal_extra++;
	args[n++] = "--";
	while (app != NULL && *app != NULL && n < max - 1)
		args[n++] = *app++;
	args[n] = NULL;
}

/* Per page, the flags a child printed, in walk order. */
static int
hf_parse_flags(const char *out, unsigned int *flags, unsigned int max)
{
	const char *p = out;
	unsigned int i, f, n = 0;
	int iova_va;

	while ((p = strstr(p, "seg ")) != NULL) {
		if (sscanf(p, "seg %u flags 0x%x iova_is_va %d", &i, &f,
				    &iova_va) == 3 &&
				i == n && n < max)
			flags[n++] = f;
		p += 4;
	}
	return (int)n;
}

static int
hf_run(const struct hf_case *c, const char *const *eal, const char *const *app,
		struct test_child_result *res)
{
	const char *args[32];

	hf_args(c, args, RTE_DIM(args), eal, app);
	return test_child_run("hf_pages", args, res);
}

static pid_t
hf_start(const struct hf_case *c, const char *const *eal,
		struct test_child_result *res)
{
	static const char *const hold[] = { "hold", NULL };
	const char *args[32];

	hf_args(c, args, RTE_DIM(args), eal, hold);
	return test_child_start("hf_pages", args, res);
}

#define HF_ALL UINT_MAX /* as many page files as the run has pages */

/* What a directory should hold at one point of a lifecycle. */
struct hf_expect {
	unsigned int n_map; /* page files; HF_ALL: one per page of the run */
	bool map_locked; /* all of them locked (else none) */
	bool lock_file; /* the prefix lock file exists */
	bool lock_held; /* and is held */
};

static int
hf_check(const struct hf_case *c, const struct hf_expect *e, const char *when)
{
	unsigned int n_map = e->n_map == HF_ALL ? c->pages : e->n_map;
	struct hf_files f;

	hf_scan(c, &f);
	TEST_ASSERT_EQUAL(f.n_map, n_map, "%s: %u page files (%s), expected %u",
			when, f.n_map, f.names, n_map);
	TEST_ASSERT_EQUAL(f.n_map_locked, e->map_locked ? n_map : 0,
			"%s: %u of %u page files locked", when, f.n_map_locked,
			f.n_map);
	TEST_ASSERT_EQUAL(f.lock_file, e->lock_file, "%s: prefix lock file %s",
			when, f.lock_file ? "present" : "missing");
	TEST_ASSERT_EQUAL(f.lock_held, e->lock_held, "%s: prefix lock %s", when,
			f.lock_held ? "held" : "free");
	TEST_ASSERT_EQUAL(f.n_other, 0, "%s: unexpected files", when);
	return TEST_SUCCESS;
}

/* One backing and mode: its files during a run and after each ending. */
struct hf_lifecycle {
	const char *name;
	const char *eal[6]; /* extra EAL args, NULL-terminated */
	struct hf_expect during, after_exit, after_kill, after_restart;
};

static int
hf_lifecycle_run(const struct hf_lifecycle *lc)
{
	struct test_child_result res;
	struct hf_case c;
	pid_t pid;

	if (hf_case_open(&c, lc->name) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	pid = hf_start(&c, lc->eal, &res);
	TEST_ASSERT(pid > 0, "%s: child did not start: %s", lc->name,
			res.output);
	if (hf_check(&c, &lc->during, "during the run") < 0)
		goto fail_kill;
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGUSR1, &res), "finish");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: clean exit failed: %s",
			lc->name, res.output);
	if (hf_check(&c, &lc->after_exit, "after a clean exit") < 0)
		goto fail;
	pid = hf_start(&c, lc->eal, &res);
	TEST_ASSERT(pid > 0, "%s: second child: %s", lc->name, res.output);
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGKILL, &res), "kill");
	TEST_ASSERT_EQUAL(res.signal, SIGKILL, "child not killed");
	if (hf_check(&c, &lc->after_kill, "after SIGKILL") < 0)
		goto fail;
	TEST_ASSERT_SUCCESS(hf_run(&c, lc->eal, NULL, &res), "restart");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: restart failed: %s", lc->name,
			res.output);
	if (hf_check(&c, &lc->after_restart, "after a restart") < 0)
		goto fail;
	TEST_ASSERT_SUCCESS(hf_case_close(&c), "scratch dir not clean");
	return TEST_SUCCESS;
fail_kill:
	test_child_finish(pid, SIGKILL, &res);
fail:
	hf_case_close(&c);
	return TEST_FAILED;
}

#define HF_NONE \
	{ \
		0, false, false, false \
	}
#define HF_HELD(n) \
	{ \
		n, true, true, true \
	}
#define HF_LEFT(n) \
	{ \
		n, false, false, false \
	}
#define HF_CRASHED(n) \
	{ \
		n, false, true, false \
	}

static const struct hf_lifecycle hf_lifecycles[] = {
	{ "page_existing", { NULL }, HF_HELD(HF_ALL), HF_NONE,
			HF_CRASHED(HF_ALL), HF_NONE },
	{ "page_always", { "--huge-unlink=always", NULL }, HF_HELD(0), HF_NONE,
			HF_CRASHED(0), HF_NONE },
	{ "page_never", { "--huge-unlink=never", NULL }, HF_HELD(HF_ALL),
			HF_LEFT(HF_ALL), HF_CRASHED(HF_ALL), HF_LEFT(HF_ALL) },
	{ "single_existing", { "--single-file-segments", NULL }, HF_HELD(1),
			HF_NONE, HF_CRASHED(1), HF_NONE },
	{ "single_never",
			{ "--single-file-segments", "--huge-unlink=never",
					NULL },
			HF_HELD(1), HF_LEFT(1), HF_CRASHED(1), HF_LEFT(1) },
	{ "legacy_existing", { "--legacy-mem", NULL }, HF_HELD(HF_ALL), HF_NONE,
			HF_CRASHED(HF_ALL), HF_NONE },
	{ "legacy_never", { "--legacy-mem", "--huge-unlink=never", NULL },
			HF_HELD(HF_ALL), HF_LEFT(HF_ALL), HF_CRASHED(HF_ALL),
			HF_LEFT(HF_ALL) },
	{ "in_memory", { "--in-memory", NULL }, HF_NONE, HF_NONE, HF_NONE,
			HF_NONE },
	{ "no_huge", { "--no-huge", NULL }, HF_NONE, HF_NONE, HF_NONE,
			HF_NONE },
};

static int
test_hf_lifecycles(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(hf_lifecycles); i++) {
		printf("lifecycle %s\n", hf_lifecycles[i].name);
		if (hf_lifecycle_run(&hf_lifecycles[i]) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/* Pages 0 to @p n - 1: a mask of page indices, for hf_expect_flags(). */
#define HF_FIRST(n) ((UINT64_C(1) << (n)) - 1)

/*
 * Run a child and check the flags of its c->pages pages, in walk order:
 * page i is dirty when bit i of @p dirty is set, and never freed.
 */
static int
hf_expect_flags(const struct hf_case *c, const char *const *eal,
		const char *const *app, uint64_t dirty)
{
	unsigned int flags[HF_MAX_PAGES], i, want;
	struct test_child_result res;
	int got;

	TEST_ASSERT_SUCCESS(hf_run(c, eal, app, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "child failed: %s", res.output);
	got = hf_parse_flags(res.output, flags, HF_MAX_PAGES);
	TEST_ASSERT_EQUAL(got, (int)c->pages, "%d pages, expected %u: %s", got,
			c->pages, res.output);
	for (i = 0; i < c->pages; i++) {
		want = RTE_MEMSEG_FLAG_DO_NOT_FREE;
		if (dirty & (UINT64_C(1) << i))
			want |= RTE_MEMSEG_FLAG_DIRTY;
		TEST_ASSERT_EQUAL(flags[i], want,
				"page %u flags 0x%x, expected 0x%x: %s", i,
				flags[i], want, res.output);
	}
	return TEST_SUCCESS;
}

/*
 * The files of a run on node 0 are <prefix>map_0 to _n-1, one per page,
 * as in DPDK on a machine with one node and one page size.
 */
static int
hf_expect_names(const struct hf_case *c)
{
	char path[PATH_MAX * 2];
	unsigned int i;

	for (i = 0; i < c->pages; i++) {
		snprintf(path, sizeof(path), "%s/%smap_%u", c->dir, c->prefix,
				i);
		TEST_ASSERT_SUCCESS(access(path, F_OK), "no %s", path);
	}
	return TEST_SUCCESS;
}

static const char *const hf_fill[] = { "fill", NULL };
static const char *const hf_check_fill[] = { "check", "fill", NULL };

/*
 * A file per page, --huge-unlink=never: the first run's pages are clean,
 * the restart's all dirty and holding the first run's data; after one
 * file is deleted, exactly that page comes back clean and zeroed.
 */
static int
test_hf_never_restart(void)
{
	static const char *const eal[] = { "--huge-unlink=never", NULL };
	char path[PATH_MAX * 2];
	struct hf_case c;
	int ret;

	if (hf_case_open(&c, "never_restart") < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	ret = hf_expect_flags(&c, eal, hf_fill, 0);
	if (ret == TEST_SUCCESS)
		ret = hf_expect_names(&c);
	if (ret == TEST_SUCCESS)
		ret = hf_expect_flags(
				&c, eal, hf_check_fill, HF_FIRST(c.pages));
	snprintf(path, sizeof(path), "%s/%smap_1", c.dir, c.prefix);
	if (ret == TEST_SUCCESS && unlink(path) != 0)
		ret = TEST_FAILED;
	if (ret == TEST_SUCCESS)
		ret = hf_expect_flags(&c, eal, hf_check_fill,
				HF_FIRST(c.pages) & ~UINT64_C(2));
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * A single file per list, --huge-unlink=never: what lies inside the file
 * as found is dirty, what the restart adds beyond it (as many pages
 * again) is clean.
 */
static int
test_hf_never_single_grow(void)
{
	static const char *const eal[] = { "--single-file-segments",
		"--huge-unlink=never", NULL };
	struct hf_case c;
	unsigned int n;
	int ret;

	if (hf_case_open(&c, "never_single") < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	n = c.pages;
	ret = hf_expect_flags(&c, eal, hf_fill, 0);
	if (ret == TEST_SUCCESS)
		ret = hf_case_pages(&c, 2 * n) == 0 ? TEST_SUCCESS :
						      TEST_FAILED;
	if (ret == TEST_SUCCESS)
		ret = hf_expect_flags(&c, eal, hf_check_fill, HF_FIRST(n));
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * Both layouts name their files <prefix>map_<n>: after a change of
 * layout on a prefix kept with --huge-unlink=never, the other layout's
 * files are removed, not taken for files of this one, and all the memory
 * comes back clean; then back again.
 */
static int
test_hf_never_layout_switch(void)
{
	static const char *const page[] = { "--huge-unlink=never", NULL };
	static const char *const single[] = { "--single-file-segments",
		"--huge-unlink=never", NULL };
	struct hf_case c;
	int ret;

	if (hf_case_open(&c, "never_layout") < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	ret = hf_expect_flags(&c, page, hf_fill, 0);
	if (ret == TEST_SUCCESS)
		ret = hf_expect_names(&c);
	if (ret == TEST_SUCCESS)
		ret = hf_expect_flags(&c, single, hf_check_fill, 0);
	if (ret == TEST_SUCCESS && test_dir_count(c.dir, "map_") != 1)
		ret = TEST_FAILED;
	if (ret == TEST_SUCCESS)
		ret = hf_expect_flags(&c, page, hf_check_fill, 0);
	if (ret == TEST_SUCCESS &&
			test_dir_count(c.dir, "map_") != (int)c.pages)
		ret = TEST_FAILED;
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

/* --legacy-mem with --huge-unlink=never marks reused pages too. */
static int
test_hf_never_legacy(void)
{
	static const char *const eal[] = { "--legacy-mem",
		"--huge-unlink=never", NULL };
	struct hf_case c;
	int ret;

	if (hf_case_open(&c, "never_legacy") < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	ret = hf_expect_flags(&c, eal, hf_fill, 0);
	if (ret == TEST_SUCCESS)
		ret = hf_expect_flags(
				&c, eal, hf_check_fill, HF_FIRST(c.pages));
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

/* Existing mode never reuses: a restart after a crash maps clean pages. */
static int
test_hf_existing_no_reuse(void)
{
	static const char *const eal[] = { NULL };
	struct test_child_result res;
	struct hf_case c;
	pid_t pid;
	int ret;

	if (hf_case_open(&c, "no_reuse") < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	pid = hf_start(&c, eal, &res);
	TEST_ASSERT(pid > 0, "child did not start: %s", res.output);
	test_child_finish(pid, SIGKILL, &res);
	ret = hf_expect_flags(&c, eal, hf_check_fill, 0);
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

/* A second process on a live prefix fails, naming the prefix. */
static int
test_hf_second_primary(void)
{
	static const char *const eal[] = { NULL };
	struct test_child_result res, res2;
	char want[128];
	struct hf_case c;
	pid_t pid;
	int ret = TEST_SUCCESS;

	if (hf_case_open(&c, "second") < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	pid = hf_start(&c, eal, &res);
	TEST_ASSERT(pid > 0, "first child did not start: %s", res.output);
	hf_run(&c, eal, NULL, &res2);
	test_child_finish(pid, SIGUSR1, &res);
	snprintf(want, sizeof(want),
			"file prefix '%s' is in use by another process",
			c.prefix);
	if (res2.exit_code != TEST_CHILD_INIT_FAILED ||
			strstr(res2.output, want) == NULL) {
		printf("second primary: exit %d, output: %s\n", res2.exit_code,
				res2.output);
		ret = TEST_FAILED;
	}
	if (res.exit_code != 0) {
		printf("first primary failed: %s\n", res.output);
		ret = TEST_FAILED;
	}
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * A page file that another process holds locked is neither mapped, nor
 * truncated, nor removed, whatever the mode: init fails and names it.
 * When it is the @p last page of the run, the pages before it were
 * mapped (into a hole, by a process with one thread, if the run is long
 * enough: eal_os_single_thread()): they are undone, their new files
 * removed, and the rest of the run is reserved address space again,
 * found free (nothing is "taken").
 */
static int
hf_held_case(const char *name, const char *const *eal, bool last)
{
	struct test_child_result res;
	char path[PATH_MAX * 2], want[PATH_MAX * 2 + 32];
	struct hf_files files;
	struct hf_case c;
	off_t len;
	int fd, ret = TEST_SUCCESS;

	if (hf_case_open(&c, name) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	len = (off_t)c.page_sz;
	snprintf(path, sizeof(path), "%s/%smap_%u", c.dir, c.prefix,
			last ? c.pages - 1 : 0);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	if (fd < 0 || ftruncate(fd, len) != 0 || flock(fd, LOCK_SH) != 0)
		ret = TEST_FAILED;
	snprintf(want, sizeof(want), "%s is in use by another process", path);
	if (ret == TEST_SUCCESS)
		hf_run(&c, eal, NULL, &res);
	hf_scan(&c, &files);
	/* The run of the last page went into a hole when long enough. */
	if (ret == TEST_SUCCESS && last &&
			(strstr(res.output, "pages into a hole at") != NULL) !=
					(c.pages >= 4)) {
		printf("%s: %u pages, hole %s: %s\n", name, c.pages,
				c.pages >= 4 ? "expected" : "not expected",
				res.output);
		ret = TEST_FAILED;
	}
	if (ret == TEST_SUCCESS &&
			(res.exit_code != TEST_CHILD_INIT_FAILED ||
					strstr(res.output, want) == NULL ||
					strstr(res.output, "taken") != NULL ||
					access(path, F_OK) != 0 ||
					lseek(fd, 0, SEEK_END) != len ||
					files.n_map != 1)) {
		printf("%s: exit %d, file %s, size %ld, page files: %s: %s\n",
				name, res.exit_code,
				access(path, F_OK) == 0 ? "kept" : "removed",
				(long)lseek(fd, 0, SEEK_END), files.names,
				res.output);
		ret = TEST_FAILED;
	}
	if (fd >= 0)
		close(fd);
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

static int
test_hf_file_held_elsewhere(void)
{
	static const char *const page_never[] = { "--huge-unlink=never", NULL };
	static const char *const page_existing[] = { NULL };
	static const char *const last_never[] = { "--huge-unlink=never",
		"--log-level=debug", NULL };
	static const char *const last_existing[] = { "--log-level=debug",
		NULL };
	static const char *const page_always[] = { "--huge-unlink=always",
		NULL };
	static const char *const single_existing[] = { "--single-file-segments",
		NULL };
	static const char *const single_never[] = { "--single-file-segments",
		"--huge-unlink=never", NULL };
	int ret = hf_held_case("held_never", page_never, false);

	if (ret == TEST_SUCCESS)
		ret = hf_held_case("held_existing", page_existing, false);
	if (ret == TEST_SUCCESS)
		ret = hf_held_case("held_always", page_always, false);
	if (ret == TEST_SUCCESS)
		ret = hf_held_case("held_single", single_existing, false);
	if (ret == TEST_SUCCESS)
		ret = hf_held_case("held_single_never", single_never, false);
	/* The last page of a run: the others were mapped before it. */
	if (ret == TEST_SUCCESS)
		ret = hf_held_case("held_last_never", last_never, true);
	if (ret == TEST_SUCCESS)
		ret = hf_held_case("held_last_existing", last_existing, true);
	return ret;
}

/* Another prefix's files in the same directory are never touched. */
static int
test_hf_other_prefix_kept(void)
{
	static const char *const eal[] = { NULL };
	struct test_child_result res;
	char path[PATH_MAX * 2];
	struct hf_case c;
	int fd, ret = TEST_SUCCESS;

	if (hf_case_open(&c, "other") < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	snprintf(path, sizeof(path), "%s/someoneelsemap_0", c.dir);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	if (fd >= 0)
		close(fd);
	hf_run(&c, eal, NULL, &res);
	if (res.exit_code != 0 || access(path, F_OK) != 0) {
		printf("exit %d, other prefix's file %s: %s\n", res.exit_code,
				access(path, F_OK) == 0 ? "kept" : "removed",
				res.output);
		ret = TEST_FAILED;
	}
	unlink(path);
	if (hf_case_close(&c) < 0)
		ret = TEST_FAILED;
	return ret;
}

static struct unit_test_suite hugefiles_suite = {
	.suite_name = "hugepage files across processes",
	.unit_test_cases = {
		TEST_CASE(test_hf_lifecycles),
		TEST_CASE(test_hf_never_restart),
		TEST_CASE(test_hf_never_single_grow),
		TEST_CASE(test_hf_never_layout_switch),
		TEST_CASE(test_hf_never_legacy),
		TEST_CASE(test_hf_existing_no_reuse),
		TEST_CASE(test_hf_second_primary),
		TEST_CASE(test_hf_file_held_elsewhere),
		TEST_CASE(test_hf_other_prefix_kept),
		TEST_CASES_END(),
	},
};

static int
test_hugefiles(void)
{
	return unit_test_suite_runner(&hugefiles_suite);
}

REGISTER_FAST_TEST(hugefiles_autotest, NOHUGE_SKIP, ASAN_OK, test_hugefiles);
