/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The memory API and the page allocator inside one process: walks,
 * lookups, IOVA, descriptors, events, validators, and a failed allocation
 * that must leave nothing behind (run in a child per backing).
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_eal_memconfig.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include "eal_memalloc.h"
#include "eal_memseg_list.h"
#include "eal_sys.h"
#include "linux/eal_os.h"
#include "test.h"

#define PG RTE_PGSIZE_2M
/* Pages of the hugetlb cgroup the exhaustion tests run in: their own
 * limit, independent of what the rest of the machine uses. */
#define CG_PAGES 4

static int
alloc_pages(struct rte_memseg **ms, int n, bool exact)
{
	int ret;

	rte_mcfg_mem_write_lock();
	ret = eal_memalloc_alloc_seg_bulk(ms, n, PG, 0, exact);
	rte_mcfg_mem_write_unlock();
	return ret;
}

static int
free_pages(struct rte_memseg **ms, int n)
{
	int ret;

	rte_mcfg_mem_write_lock();
	ret = eal_memalloc_free_seg_bulk(ms, n);
	rte_mcfg_mem_write_unlock();
	return ret;
}

static int
count_seg(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	RTE_SET_USED(msl);
	RTE_SET_USED(ms);
	(*(int *)arg)++;
	return 0;
}

struct runs {
	int n;
	size_t len[8];
};

static int
count_run(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		size_t len, void *arg)
{
	struct runs *r = arg;

	RTE_SET_USED(msl);
	RTE_SET_USED(ms);
	if (r->n < 8)
		r->len[r->n] = len;
	r->n++;
	return 0;
}

static int
check_list(const struct rte_memseg_list *msl, void *arg)
{
	int *bad = arg;

	if (msl->page_sz != PG || msl->socket_id != 0 ||
			msl->len != (size_t)msl->n_segs * msl->page_sz ||
			msl->base_va == NULL ||
			((uintptr_t)msl->base_va & (PG - 1)) != 0)
		(*bad)++;
	return 0;
}

static int
test_mem_empty_at_start(void)
{
	int n = 0, bad = 0, ret;

	TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), 0,
			"no -m: nothing should be mapped");
	rte_memseg_walk(count_seg, &n);
	TEST_ASSERT_EQUAL(n, 0, "walk saw %d pages", n);
	ret = rte_memseg_list_walk(check_list, &bad);
	TEST_ASSERT_EQUAL(ret, 0, "list walk returned %d", ret);
	TEST_ASSERT_EQUAL(bad, 0, "%d lists malformed", bad);
	return TEST_SUCCESS;
}

static int
stop_at_second(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	RTE_SET_USED(msl);
	RTE_SET_USED(ms);
	return ++(*(int *)arg) == 2 ? 1 : 0;
}

static int
fail_at_first(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	RTE_SET_USED(msl);
	RTE_SET_USED(ms);
	RTE_SET_USED(arg);
	return -1;
}

static int
check_walks(struct rte_memseg **ms)
{
	struct runs r = { 0 };
	int n = 0;

	TEST_ASSERT_EQUAL(rte_memseg_walk(count_seg, &n), 0, "walk");
	TEST_ASSERT_EQUAL(n, 4, "walk saw %d pages", n);
	TEST_ASSERT_EQUAL(rte_memseg_contig_walk(count_run, &r), 0, "walk");
	TEST_ASSERT_EQUAL(r.n, 1, "%d runs, expected 1", r.n);
	TEST_ASSERT_EQUAL(r.len[0], 4 * PG, "run of %zu bytes", r.len[0]);
	n = 0;
	TEST_ASSERT_EQUAL(rte_memseg_walk(stop_at_second, &n), 1, "stop");
	TEST_ASSERT_EQUAL(n, 2, "stopped after %d", n);
	TEST_ASSERT_EQUAL(rte_memseg_walk(fail_at_first, NULL), -1, "fail");
	TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), 4 * PG, "physmem");
	TEST_ASSERT(ms[1]->addr == RTE_PTR_ADD(ms[0]->addr, PG),
			"exact pages are not contiguous");
	return TEST_SUCCESS;
}

static int
check_lookups(struct rte_memseg **ms)
{
	void *va = RTE_PTR_ADD(ms[1]->addr, 100);
	struct rte_memseg_list *msl = rte_mem_virt2memseg_list(va);
	int local = 0;

	TEST_ASSERT_NOT_NULL(msl, "virt2memseg_list");
	TEST_ASSERT(rte_mem_virt2memseg(va, NULL) == ms[1], "virt2memseg");
	TEST_ASSERT(rte_mem_virt2memseg(va, msl) == ms[1], "with msl");
	TEST_ASSERT_NULL(rte_mem_virt2memseg(&local, NULL), "stack address");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_NULL(rte_mem_virt2memseg(RTE_PTR_ADD(ms[3]->addr, PG), msl),
			"unmapped slot");
	TEST_ASSERT_EQUAL(rte_mem_virt2iova(va), ms[1]->iova + 100, "iova");
	TEST_ASSERT(rte_mem_iova2virt(ms[1]->iova + 100) == va, "iova2virt");
	if (rte_eal_iova_mode() == RTE_IOVA_PA) {
		TEST_ASSERT_EQUAL(rte_eal_using_phys_addrs(), 1, "phys");
		TEST_ASSERT_EQUAL(rte_mem_virt2phy(va), ms[1]->iova + 100,
				"pagemap and memseg disagree");
		TEST_ASSERT_EQUAL(ms[1]->iova % PG, 0, "PA not page aligned");
	} else {
		TEST_ASSERT_EQUAL(ms[1]->iova,
				(rte_iova_t)(uintptr_t)ms[1]->addr,
				"VA mode iova");
	}
	return TEST_SUCCESS;
}

static int
check_fd(struct rte_memseg **ms)
{
	size_t off = 1;
	struct stat st;
	int fd;

	fd = rte_memseg_get_fd(ms[2]);
	TEST_ASSERT(fd >= 0, "get_fd: %s", rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_memseg_get_fd_offset(ms[2], &off), "offset");
	TEST_ASSERT_EQUAL(off, 0, "file per page: offset %zu", off);
	off = 1;
	TEST_ASSERT_SUCCESS(rte_memseg_get_fd_offset_thread_unsafe(ms[2], &off),
			"offset, thread unsafe: as the locked call, 0");
	TEST_ASSERT_EQUAL(off, 0, "thread unsafe: offset %zu", off);
	TEST_ASSERT_EQUAL(rte_memseg_get_fd_thread_unsafe(ms[2]), fd,
			"thread unsafe: another descriptor");
	TEST_ASSERT_SUCCESS(fstat(fd, &st), "fstat");
	TEST_ASSERT_EQUAL((size_t)st.st_size, PG, "file size %zu",
			(size_t)st.st_size);
	TEST_ASSERT_EQUAL(rte_memseg_get_fd(NULL), -1, "NULL memseg");
	return TEST_SUCCESS;
}

static int
check_dump_and_lock(struct rte_memseg **ms)
{
	char *buf = NULL, want[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	rte_dump_physmem_layout(f);
	fclose(f);
	snprintf(want, sizeof(want), "  run: va %p len 0x800000 (4 pages)",
			ms[0]->addr);
	if (strstr(buf, "list: page 2048 kB, socket 0") == NULL ||
			strstr(buf, want) == NULL) {
		printf("dump lacks \"%s\":\n%s", want, buf);
		free(buf);
		return TEST_FAILED;
	}
	free(buf);
	TEST_ASSERT_SUCCESS(rte_mem_lock_page(RTE_PTR_ADD(ms[3]->addr, 5)),
			"lock page: %s", rte_strerror(rte_errno));
	return TEST_SUCCESS;
}

/*
 * With IOVA as PA, a new page's physical address is looked up only when
 * asked for: the page a lookup asks about, then every page a walk hands
 * out, each what pagemap says. As VA, the IOVA is the address at once.
 */
static int
check_iova_deferred(struct rte_memseg **ms)
{
	void *va = RTE_PTR_ADD(ms[2]->addr, 5);
	int n = 0, i;

	if (rte_eal_iova_mode() == RTE_IOVA_VA) {
		for (i = 0; i < 4; i++)
			TEST_ASSERT_EQUAL(ms[i]->iova,
					(rte_iova_t)(uintptr_t)ms[i]->addr,
					"VA mode iova of page %d", i);
		return TEST_SUCCESS;
	}
	for (i = 0; i < 4; i++)
		TEST_ASSERT_EQUAL(ms[i]->iova, EAL_IOVA_UNRESOLVED,
				"page %d: IOVA 0x%" PRIx64 " looked up at once",
				i, ms[i]->iova);
	TEST_ASSERT_EQUAL(rte_mem_virt2iova(va), rte_mem_virt2phy(va),
			"virt2iova and pagemap disagree");
	for (i = 0; i < 4; i++)
		TEST_ASSERT(i == 2 ? ms[i]->iova == rte_mem_virt2phy(ms[i]->addr) :
				     ms[i]->iova == EAL_IOVA_UNRESOLVED,
				"page %d: IOVA 0x%" PRIx64 " after one lookup",
				i, ms[i]->iova);
	TEST_ASSERT_EQUAL(rte_memseg_walk(count_seg, &n), 0, "walk");
	for (i = 0; i < 4; i++)
		TEST_ASSERT(ms[i]->iova == rte_mem_virt2phy(ms[i]->addr) &&
						ms[i]->iova % PG == 0,
				"page %d: IOVA 0x%" PRIx64 " after a walk", i,
				ms[i]->iova);
	return TEST_SUCCESS;
}

static int
test_mem_alloc_lookup(void)
{
	struct rte_memseg *ms[4];
	const char *dir = test_huge_dir();
	int ret, i;

	if (dir == NULL)
		return test_skip_hugepages("no --huge-dir for this run");
	ret = alloc_pages(ms, 4, true);
	TEST_ASSERT_EQUAL(ret, 4, "alloc: %d", ret);
	for (i = 0; i < 4; i++)
		TEST_ASSERT_EQUAL(ms[i]->flags, 0, "fresh page flags 0x%x",
				ms[i]->flags);
	TEST_ASSERT_EQUAL(test_dir_count(dir, "map_"), 4, "page files");
	ret = check_iova_deferred(ms);
	if (ret == TEST_SUCCESS)
		ret = check_walks(ms);
	if (ret == TEST_SUCCESS)
		ret = check_lookups(ms);
	if (ret == TEST_SUCCESS)
		ret = check_fd(ms);
	if (ret == TEST_SUCCESS)
		ret = check_dump_and_lock(ms);
	TEST_ASSERT_SUCCESS(free_pages(ms, 4), "free");
	TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), 0, "physmem after free");
	TEST_ASSERT_EQUAL(test_dir_count(dir, "map_"), 0,
			"files left after free");
	return ret;
}

struct events_seen {
	int alloc, free;
	const void *addr;
	size_t len;
};

static void
event_cb(enum rte_mem_event type, const void *addr, size_t len, void *arg)
{
	struct events_seen *e = arg;

	if (type == RTE_MEM_EVENT_ALLOC)
		e->alloc++;
	else
		e->free++;
	e->addr = addr;
	e->len = len;
}

static int
test_mem_events(void)
{
	struct events_seen e = { 0 };
	struct rte_memseg *ms[2];

	TEST_ASSERT_SUCCESS(rte_mem_event_callback_register("t", event_cb, &e),
			"register");
	TEST_ASSERT_EQUAL(rte_mem_event_callback_register("t", event_cb, &e),
			-1, "duplicate");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "errno %d", rte_errno);
	TEST_ASSERT_EQUAL(alloc_pages(ms, 2, true), 2, "alloc");
	TEST_ASSERT_EQUAL(e.alloc, 1, "alloc events %d", e.alloc);
	TEST_ASSERT(e.addr == ms[0]->addr && e.len == 2 * PG, "alloc range");
	TEST_ASSERT_SUCCESS(free_pages(ms, 2), "free");
	TEST_ASSERT_EQUAL(e.free, 1, "free events %d", e.free);
	TEST_ASSERT_SUCCESS(rte_mem_event_callback_unregister("t", &e),
			"unregister");
	TEST_ASSERT_EQUAL(rte_mem_event_callback_unregister("t", &e), -1,
			"second unregister");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "errno %d", rte_errno);
	return TEST_SUCCESS;
}

static int validator_calls;

static int
refuse(int socket_id, size_t cur_limit, size_t new_len)
{
	RTE_SET_USED(socket_id);
	RTE_SET_USED(cur_limit);
	RTE_SET_USED(new_len);
	validator_calls++;
	return -1;
}

static int
test_mem_validator(void)
{
	struct rte_memseg *ms[4];

	validator_calls = 0;
	TEST_ASSERT_SUCCESS(rte_mem_alloc_validator_register(
					    "lim", refuse, 0, 3 * PG),
			"register");
	TEST_ASSERT_EQUAL(alloc_pages(ms, 3, true), 3, "within the limit");
	TEST_ASSERT_EQUAL(validator_calls, 0, "asked within the limit");
	TEST_ASSERT_EQUAL(alloc_pages(&ms[3], 1, true), -EPERM, "over it");
	TEST_ASSERT_EQUAL(validator_calls, 1, "not asked");
	TEST_ASSERT_SUCCESS(rte_mem_alloc_validator_unregister("lim", 0),
			"unregister");
	TEST_ASSERT_EQUAL(alloc_pages(&ms[3], 1, true), 1, "no limit now");
	TEST_ASSERT_SUCCESS(free_pages(ms, 4), "free");
	TEST_ASSERT_EQUAL(rte_mem_alloc_validator_register("x", NULL, 0, 0), -1,
			"NULL callback");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	return TEST_SUCCESS;
}

static int
test_mem_free_errors(void)
{
	struct rte_memseg *ms[1], fake;

	memset(&fake, 0, sizeof(fake));
	fake.addr = &fake;
	TEST_ASSERT_EQUAL(free_pages((struct rte_memseg *[]){ &fake }, 1),
			-EINVAL, "freeing a stranger");
	TEST_ASSERT_EQUAL(alloc_pages(ms, 1, true), 1, "alloc");
	ms[0]->flags |= RTE_MEMSEG_FLAG_DO_NOT_FREE;
	TEST_ASSERT_EQUAL(free_pages(ms, 1), -EPERM, "freeing a pinned page");
	TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), PG, "page lost");
	ms[0]->flags &= ~RTE_MEMSEG_FLAG_DO_NOT_FREE;
	TEST_ASSERT_SUCCESS(free_pages(ms, 1), "free");
	return TEST_SUCCESS;
}

/*
 * Child, in a cgroup that allows CG_PAGES pages: a non-exact request for
 * more gets every page it may have, as DPDK's does, rather than nothing,
 * and gives them all back.
 */
static int
mem_child_non_exact(int argc, char **argv)
{
	long before = test_own_hugetlb_kb(), held;
	struct rte_memseg *ms[CG_PAGES * 4];
	int ret;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	ret = alloc_pages(ms, (int)RTE_DIM(ms), false);
	/* The count this test's checks rely on sees the pages. */
	held = test_own_hugetlb_kb();
	printf("asked for %zu pages with %d allowed: got %d, own hugepage "
	       "memory %ld kB -> %ld kB\n",
			RTE_DIM(ms), CG_PAGES, ret, before, held);
	if (ret > 0)
		free_pages(ms, ret);
	printf("after the free: %ld kB\n", test_own_hugetlb_kb());
	return ret == CG_PAGES && held == before + CG_PAGES * (long)(PG >> 10) &&
					test_own_hugetlb_kb() == before ?
			0 :
			1;
}
REGISTER_CHILD_ACTION(mem_non_exact, mem_child_non_exact)

/* NULL or the same page twice in one bulk free: an error, no crash. */
static int
test_mem_free_misuse(void)
{
	struct rte_memseg *ms[2], *twice[2];

	TEST_ASSERT_EQUAL(alloc_pages(ms, 2, true), 2, "alloc");
	twice[0] = NULL;
	twice[1] = ms[1];
	TEST_ASSERT_EQUAL(free_pages(twice, 2), -EINVAL, "NULL page");
	TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), 2 * PG, "freed anyway");
	twice[0] = ms[0];
	twice[1] = ms[0];
	TEST_ASSERT_EQUAL(free_pages(twice, 2), -EINVAL, "page given twice");
	TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), PG, "one page left");
	TEST_ASSERT_SUCCESS(free_pages(&ms[1], 1), "free the other");
	return TEST_SUCCESS;
}

/* Child (--legacy-mem): memory never changes, so events are refused. */
static int
mem_child_legacy_events(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (rte_mem_event_callback_register("x", event_cb, NULL) != -1 ||
			rte_errno != ENOTSUP)
		return 1;
	if (rte_mem_alloc_validator_register("x", refuse, 0, 0) != -1 ||
			rte_errno != ENOTSUP)
		return 2;
	return 0;
}
REGISTER_CHILD_ACTION(mem_legacy_events, mem_child_legacy_events)

static int
test_mem_legacy_events(void)
{
	static const char *const args[] = { "--no-huge", "-m", "4", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("mem_legacy_events", args, &res),
			"child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "step %d: %s", res.exit_code,
			res.output);
	return TEST_SUCCESS;
}

/*
 * 0 if every byte of [start, end) is mapped (reserved) in this process,
 * else the bytes from the first hole to @p end.
 */
static uint64_t
maps_uncovered(uintptr_t start, uintptr_t end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	uintptr_t covered_to = start, s, e;
	char line[512];

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx", &s, &e) != 2 || e <= covered_to)
			continue;
		if (s > covered_to)
			break; /* the maps are sorted: a hole */
		covered_to = e;
		if (covered_to >= end)
			break;
	}
	if (f != NULL)
		fclose(f);
	return covered_to >= end ? 0 : end - covered_to;
}

static int
list_holes(const struct rte_memseg_list *msl, void *arg)
{
	uintptr_t base = (uintptr_t)msl->base_va;

	*(uint64_t *)arg += maps_uncovered(base, base + msl->len);
	return 0;
}

/*
 * Child, in a cgroup that allows CG_PAGES pages: ask for more, all at
 * once; the failure must leave no page mapped (counted in this process
 * only), no file, and every list's address range still reserved.
 */
static int
mem_child_exhaust(int argc, char **argv)
{
	const char *dir = test_huge_dir();
	long before = test_own_hugetlb_kb();
	int files = dir != NULL ? test_dir_count(dir, "map_") : 0;
	struct rte_memseg *ms[CG_PAGES * 4];
	uint64_t holes = 0;
	int ret;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	ret = alloc_pages(ms, (int)RTE_DIM(ms), true);
	printf("alloc of %zu pages: %d\n", RTE_DIM(ms), ret);
	printf("own hugepage memory %ld kB -> %ld kB, physmem %" PRIu64
	       ", files %d -> %d\n",
			before, test_own_hugetlb_kb(),
			rte_eal_get_physmem_size(), files,
			dir != NULL ? test_dir_count(dir, "map_") : 0);
	rte_memseg_list_walk(list_holes, &holes);
	printf("list bytes from the first unreserved one: %" PRIu64 "\n",
			holes);
	if (ret != -ENOMEM || test_own_hugetlb_kb() != before || holes != 0 ||
			rte_eal_get_physmem_size() != 0 ||
			(dir != NULL && test_dir_count(dir, "map_") != files))
		return 1;
	return 0;
}
REGISTER_CHILD_ACTION(mem_exhaust, mem_child_exhaust)

/*
 * Run a child inside a cgroup allowed only CG_PAGES hugepages: child
 * @p action (NULL: only init) with -m @p mb.
 */
static int
cg_run(const char *name, const char *action, const char *mb,
		const char *mode_arg, struct test_child_result *res, char *dir,
		size_t len)
{
	char dir_arg[PATH_MAX + 16], pfx[64], m_arg[32];
	const char *args[8];
	struct test_hugetlb_cg cg;
	int n = 0, ret;

	if (test_scratch_dir(name, dir, len) < 0)
		return -1;
	if (test_hugetlb_cg_create(&cg, PG, (uint64_t)CG_PAGES * PG, false) <
			0) {
		test_scratch_dir_remove(dir);
		return -2;
	}
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	snprintf(pfx, sizeof(pfx), "--file-prefix=%s", name);
	snprintf(m_arg, sizeof(m_arg), "-m%s", mb);
	args[n++] = dir_arg;
	args[n++] = pfx;
	args[n++] = m_arg;
	if (mode_arg != NULL)
		args[n++] = mode_arg;
	args[n] = NULL;
	test_hugetlb_cg_enter(&cg);
	ret = test_child_run(action, args, res);
	test_hugetlb_cg_destroy(&cg);
	return ret;
}

/*
 * A child in the cgroup: -m @p mb at start must fail with a clean error;
 * or, with @p action, the child's run-time allocations must do as it
 * checks. Either way no file is left: the pages the child had are gone
 * with it, whatever other processes do with the pool meanwhile.
 */
static int
cg_case(const char *name, const char *action, const char *mb,
		const char *mode_arg)
{
	struct test_child_result res;
	char dir[PATH_MAX];
	int ret, files;

	ret = cg_run(name, action, mb, mode_arg, &res, dir, sizeof(dir));
	if (ret == -1)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	if (ret == -2)
		return test_skip_hugepages("cannot create a hugetlb cgroup");
	files = test_dir_count(dir, "map_");
	printf("%s (-m %s %s): exit %d signal %d, %d files left\n%s", name, mb,
			mode_arg ? mode_arg : "", res.exit_code, res.signal,
			files, res.output);
	if (test_scratch_dir_remove(dir) < 0)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(ret, "child did not run");
	TEST_ASSERT_EQUAL(
			res.signal, 0, "child killed by signal %d", res.signal);
	if (action != NULL)
		TEST_ASSERT_EQUAL(res.exit_code, 0, "%s failed", action);
	else
		TEST_ASSERT_STR_CONTAINS(
				res.output, "cannot map", "no clean error");
	TEST_ASSERT_EQUAL(files, 0, "files left behind");
	return TEST_SUCCESS;
}

/*
 * A hugetlb cgroup limit enforced at fault time: the case where DPDK
 * relies on catching SIGBUS. Here the mapping fails with an error, at
 * start and at run time, in every backing, and leaves nothing behind; a
 * non-exact request gets every page the limit allows. The limit is the
 * test's own, so other processes using hugepages change nothing.
 */
static int
test_mem_cgroup_limit(void)
{
	static const struct {
		const char *name, *action, *mb, *mode;
	} cases[] = {
		{ "cg_page", NULL, "16", NULL },
		{ "cg_single", NULL, "16", "--single-file-segments" },
		{ "cg_memfd", NULL, "16", "--in-memory" },
		{ "cg_legacy", NULL, "16", "--legacy-mem" },
		{ "cg_runtime_page", "mem_exhaust", "0", NULL },
		{ "cg_runtime_single", "mem_exhaust", "0",
				"--single-file-segments" },
		{ "cg_runtime_never", "mem_exhaust", "0",
				"--huge-unlink=never" },
		{ "cg_runtime_memfd", "mem_exhaust", "0", "--in-memory" },
		{ "cg_non_exact", "mem_non_exact", "0", NULL },
	};
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(cases); i++) {
		ret = cg_case(cases[i].name, cases[i].action, cases[i].mb,
				cases[i].mode);
		if (ret != TEST_SUCCESS)
			return ret;
	}
	return TEST_SUCCESS;
}

static int
first_list(const struct rte_memseg_list *msl, void *arg)
{
	*(const struct rte_memseg_list **)arg = msl;
	return 1;
}

/*
 * Child: the options that shape memory, as init applied them. Prints the
 * first list's address, whether IOVAs are VAs, and how far pages could
 * be mapped (one at a time, up to 8).
 */
static int
mem_child_shape(int argc, char **argv)
{
	const struct rte_memseg_list *msl = NULL;
	struct rte_memseg *ms[8];
	int got = 0;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	rte_memseg_list_walk(first_list, &msl);
	while (got < 8 && alloc_pages(&ms[got], 1, true) == 1)
		got++;
	printf("base %p iova_is_va %d mapped %d errno_eperm %d\n",
			msl != NULL ? msl->base_va : NULL,
			got > 0 && ms[0]->iova == (rte_iova_t)(uintptr_t)ms[0]->addr,
			got, got < 8 && alloc_pages(&ms[0], 1, true) == -EPERM);
	if (got > 0)
		free_pages(ms, got);
	return 0;
}
REGISTER_CHILD_ACTION(mem_shape, mem_child_shape)

static int
shape_run(const char *name, const char *opt, const char *want)
{
	char dir[PATH_MAX], dir_arg[PATH_MAX + 16], pfx[64];
	struct test_child_result res;
	const char *args[] = { dir_arg, pfx, opt, NULL };
	int ret;

	if (test_scratch_dir(name, dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	snprintf(pfx, sizeof(pfx), "--file-prefix=%s", name);
	ret = test_child_run("mem_shape", args, &res);
	if (test_scratch_dir_remove(dir) < 0)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(ret, "child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: %s", opt, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, want, "%s", opt);
	return TEST_SUCCESS;
}

/*
 * --socket-limit refuses growth past it; --iova-mode=va gives VAs as
 * IOVAs; --base-virtaddr places the lists there, aligned up to the page
 * size, or elsewhere with a warning when the range cannot be had.
 */
static int
test_mem_shaping_options(void)
{
	int ret;

	ret = shape_run("shape_limit", "--socket-limit=6",
			"mapped 3 errno_eperm 1");
	if (ret == TEST_SUCCESS)
		ret = shape_run("shape_va", "--iova-mode=va",
				"iova_is_va 1 mapped 8");
	if (ret == TEST_SUCCESS)
		ret = shape_run("shape_base", "--base-virtaddr=0x300000000000",
				"base 0x300000000000 ");
	/* As DPDK: aligned up to the page size, and only a hint. */
	if (ret == TEST_SUCCESS)
		ret = shape_run("shape_base_4k",
				"--base-virtaddr=0x300000001000",
				"base 0x300000200000 ");
	if (ret == TEST_SUCCESS)
		ret = shape_run("shape_base_odd",
				"--base-virtaddr=0x300000000123",
				"base 0x300000200000 ");
	if (ret == TEST_SUCCESS)
		ret = shape_run("shape_base_kernel",
				"--base-virtaddr=0xffff800000000000",
				"kB pages is at 0x");
	return ret;
}

/* Stays until its pipe (@p arg) gives a byte or closes. */
static void *
hole_thread(void *arg)
{
	char c;

	return read(*(int *)arg, &c, 1) < 0 ? arg : NULL;
}

/* Whether a forked child, with one thread, says it is alone. */
static int
hole_child_alone(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(eal_os_single_thread() ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The checks of test_mem_va_hole() on @p base, 4 reserved pages. */
static int
hole_checks(void *base, uint64_t pg, int fd)
{
	void *slot1 = RTE_PTR_ADD(base, pg);
	pthread_t tid;
	int alone, fds[2];

	TEST_ASSERT_SUCCESS(pipe(fds), "pipe");
	if (pthread_create(&tid, NULL, hole_thread, &fds[0]) != 0) {
		close(fds[0]);
		close(fds[1]);
		TEST_ASSERT(false, "thread");
	}
	alone = eal_os_single_thread();
	close(fds[1]);
	pthread_join(tid, NULL);
	close(fds[0]);
	TEST_ASSERT(!alone, "alone beside a second thread");
	TEST_ASSERT_EQUAL(hole_child_alone(), 1,
			"a child of one thread is not alone");
	TEST_ASSERT_SUCCESS(eal_os_va_hole(base, 4 * pg), "hole");
	TEST_ASSERT_SUCCESS(eal_os_map_shared_hole(slot1, pg, fd, 0),
			"map into the hole");
	*(volatile uint64_t *)slot1 = 0x5a5a;
	TEST_ASSERT_EQUAL(eal_os_map_shared_hole(slot1, pg, fd, 0), -EEXIST,
			"a mapped slot taken again");
	TEST_ASSERT_EQUAL(*(volatile uint64_t *)slot1, 0x5a5a,
			"the mapped page changed");
	TEST_ASSERT_SUCCESS(eal_os_va_restore(base, pg), "slot 0 reserved");
	TEST_ASSERT_SUCCESS(
			eal_os_va_restore(RTE_PTR_ADD(base, 2 * pg), 2 * pg),
			"slots 2-3 reserved");
	TEST_ASSERT_EQUAL(eal_os_va_restore(base, 4 * pg), -EEXIST,
			"a reservation over mapped and reserved slots");
	return TEST_SUCCESS;
}

/*
 * A new hugetlbfs file "page" of @p len bytes in scratch directory @p dir,
 * its path in @p path: @return its descriptor, or -1 after saying why.
 */
static int
page_file_open(const char *dir, char *path, size_t path_len, uint64_t len)
{
	int fd;

	snprintf(path, path_len, "%s/page", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && ftruncate(fd, (off_t)len) == 0)
		return fd;
	printf("%s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Remove page_file_open()'s file and its directory: @return @p ret. */
static int
page_file_close(const char *dir, const char *path, int fd, int ret)
{
	if (fd >= 0)
		close(fd);
	unlink(path);
	if (test_scratch_dir_remove(dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * Pages are mapped into a hole only where nothing else can be: the
 * thread count is right (a second thread says "not alone"), a mapping
 * into a slot that holds one fails with EEXIST and leaves it alone, and
 * what stays a hole is reserved again, also around mapped slots.
 */
static int
test_mem_va_hole(void)
{
	uint64_t pg = test_huge_page_size();
	char dir[PATH_MAX], path[PATH_MAX + 16];
	void *base = NULL;
	int fd, ret = TEST_FAILED;

	if (pg == 0 || test_scratch_dir("va_hole", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	fd = page_file_open(dir, path, sizeof(path), pg);
	if (fd >= 0 && eal_os_va_reserve(NULL, 4 * pg, pg, false, &base) == 0)
		ret = hole_checks(base, pg, fd);
	else if (fd >= 0)
		printf("cannot reserve 4 pages\n");
	if (base != NULL)
		eal_os_va_release(base, 4 * pg);
	return page_file_close(dir, path, fd, ret);
}

/* The hugepages file @p fd holds. */
static int64_t
scratch_file_pages(int fd, uint64_t pg)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (int64_t)(st.st_blocks * 512 / pg) : -1;
}

/*
 * Two covered ranges, pages 1 and 3 (half a mapping), page 2 between:
 * what was written is found in each, nothing in the gap.
 */
static int
scratch_checks_two(char *base, uint64_t pg, int fd)
{
	uintptr_t addr = 0;
	struct eal_scratch *s;
	uint64_t len = 0;
	char got;
	int ret;

	s = eal_scratch_open(2 * pg);
	TEST_ASSERT_NOT_NULL(s, "open: %s", strerror(errno));
	ret = eal_scratch_cover(s, (uintptr_t)base + pg, pg, pg);
	if (ret == 0)
		ret = eal_scratch_cover(s, (uintptr_t)base + 3 * pg, pg, pg);
	if (ret < 0) {
		eal_scratch_close(s);
		TEST_ASSERT(false, "cover: %d", ret);
	}
	base[pg + 10] = 3;
	base[3 * pg + 3 * 4096] = 4;
	if (eal_scratch_next(s, &addr, &len) != 1 ||
			addr != (uintptr_t)base + pg || len != 4096)
		ret = -1;
	addr = (uintptr_t)base + 2 * pg;
	if (ret == 0 &&
			(eal_scratch_next(s, &addr, &len) != 1 ||
					addr !=
							(uintptr_t)base +
									3 * pg +
									3 * 4096 ||
					len != 4096))
		ret = -2;
	if (ret == 0 &&
			eal_scratch_read(s, (uintptr_t)base + 2 * pg, &got,
					1) != -EINVAL)
		ret = -3;
	TEST_ASSERT_SUCCESS(eal_scratch_close(s), "close");
	TEST_ASSERT_SUCCESS(ret, "two ranges: %d", ret);
	TEST_ASSERT_EQUAL(scratch_file_pages(fd, pg), 1,
			"pages the file holds: cover or close allocated");
	TEST_ASSERT_EQUAL(base[pg], 0x5a, "the page held is back");
	/* Read last: the read allocates the page in the file. */
	TEST_ASSERT_EQUAL(base[3 * pg + 3 * 4096], 0,
			"a scratch write went through");
	return TEST_SUCCESS;
}

/* The checks of test_mem_scratch() on 4 pages at @p base of file @p fd. */
static int
scratch_checks(char *base, uint64_t pg, int fd)
{
	struct eal_scratch *s;
	uintptr_t addr = 0;
	uint64_t len = 0;
	char got = 0;
	int ret;

	s = eal_scratch_open(4 * pg);
	TEST_ASSERT_NOT_NULL(s, "open: %s", strerror(errno));
	ret = eal_scratch_cover(s, (uintptr_t)base + pg, 3 * pg, pg);
	if (ret == 0)
		ret = eal_scratch_cover(s, (uintptr_t)base, pg, pg) == -EINVAL ?
				0 :
				-1;
	if (ret == 0)
		ret = eal_scratch_cover(s, (uintptr_t)base + 4 * pg, 2 * pg,
				      pg) == -ENOSPC ?
				0 :
				-1;
	if (ret < 0) {
		eal_scratch_close(s);
		TEST_ASSERT(false, "cover: %d", ret);
	}
	/* The page the file holds is aside; the scratch reads as zeros. */
	ret = base[pg] == 0 ? 0 : -1;
	base[pg + 100] = 1;
	base[3 * pg + 8192 + 5] = 2;
	if (ret == 0 &&
			(eal_scratch_next(s, &addr, &len) != 1 ||
					addr != (uintptr_t)base + pg ||
					len != 4096))
		ret = -2;
	addr += len;
	if (ret == 0 &&
			(eal_scratch_next(s, &addr, &len) != 1 ||
					addr != (uintptr_t)base + 3 * pg + 8192 ||
					len != 4096))
		ret = -3;
	if (ret == 0 &&
			(eal_scratch_read(s, addr + 5, &got, 1) != 0 ||
					got != 2))
		ret = -4;
	addr += len;
	if (ret == 0 && eal_scratch_next(s, &addr, &len) != 0)
		ret = -5;
	if (ret == 0 &&
			eal_scratch_read(s, (uintptr_t)base + pg - 1, &got,
					1) != -EINVAL)
		ret = -6;
	TEST_ASSERT_SUCCESS(eal_scratch_close(s), "close");
	TEST_ASSERT_SUCCESS(ret, "scratch seen through the cover: %d", ret);
	TEST_ASSERT_EQUAL(base[pg], 0x5a, "the page held is back");
	TEST_ASSERT_EQUAL(base[pg + 100], 0, "a scratch write went through");
	TEST_ASSERT_EQUAL(scratch_file_pages(fd, pg), 1,
			"pages the file holds: cover or close allocated");
	return scratch_checks_two(base, pg, fd);
}

/*
 * Scratch over hugepage mappings (eal_scratch_cover()): moves them aside
 * with nothing allocated, whether the range is one mapping or several
 * (pages 1-3: a page the file holds, then two it does not, of another
 * mapping), reports what was written in 4 KB pages, in one range or
 * two with a gap, and puts them back as they were.
 */
static int
test_mem_scratch(void)
{
	uint64_t pg = test_huge_page_size();
	char dir[PATH_MAX], path[PATH_MAX + 16];
	char *res = MAP_FAILED, *base, *m;
	int fd, ret = TEST_FAILED;

	if (pg == 0 || test_scratch_dir("scratch", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	fd = page_file_open(dir, path, sizeof(path), 5 * pg);
	if (fd >= 0)
		res = mmap(NULL, 5 * pg, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
				0);
	if (res != MAP_FAILED) {
		base = RTE_PTR_ALIGN_CEIL(res, pg);
		/* Page 1 from file page 4, pages 2-3 from file pages 1-2. */
		m = mmap(base + pg, pg, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_FIXED, fd, (off_t)(4 * pg));
		if (m != MAP_FAILED)
			m = mmap(base + 2 * pg, 2 * pg, PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_FIXED | MAP_NORESERVE,
					fd, (off_t)pg);
		if (m != MAP_FAILED) {
			base[pg] = 0x5a;
			ret = scratch_checks(base, pg, fd);
		} else {
			printf("cannot map the pages: %s\n", strerror(errno));
		}
		munmap(res, 5 * pg);
	}
	return page_file_close(dir, path, fd, ret);
}

/*
 * The checks of test_mem_scratch_large() on @p len bytes at @p base of
 * file @p fd, whose first page holds 0x5a.
 */
static int
scratch_checks_large(char *base, uint64_t len, uint64_t pg, int fd)
{
	struct eal_scratch *s;
	uintptr_t addr = 0;
	uint64_t got = 0;
	int ret;

	s = eal_scratch_open(len);
	TEST_ASSERT_NOT_NULL(s, "open: %s", strerror(errno));
	ret = eal_scratch_cover(s, (uintptr_t)base, len, pg);
	if (ret < 0) {
		eal_scratch_close(s);
		TEST_ASSERT(false, "cover of %" PRIu64 " MB: %s", len >> 20,
				strerror(-ret));
	}
	/* Written in the last piece; a read would put a page in the first. */
	base[len - 1] = 7;
	ret = eal_scratch_next(s, &addr, &got) == 1 &&
					addr == (uintptr_t)base + len - 4096 &&
					got == 4096 ?
			0 :
			-1;
	if (ret == 0 && base[0] != 0)
		ret = -2;
	TEST_ASSERT_SUCCESS(eal_scratch_close(s), "close");
	TEST_ASSERT_SUCCESS(ret, "scratch over the range: %d", ret);
	TEST_ASSERT_EQUAL(base[0], 0x5a, "the page held is back");
	TEST_ASSERT_EQUAL(scratch_file_pages(fd, pg), 1,
			"pages the file holds: cover or close allocated");
	return TEST_SUCCESS;
}

/*
 * Scratch over one mapping of more than 4 GB, which one mremap(2) does not
 * move on Linux 6.18 (ENOMEM): a lazy image restore of 4 GB fell back to
 * filling the pages init wrote, 5 ms of its start. The mapping is
 * MAP_NORESERVE and only its first page is there.
 */
static int
test_mem_scratch_large(void)
{
	uint64_t pg = test_huge_page_size(), len;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	char *res = MAP_FAILED, *base, *m;
	int fd, ret = TEST_FAILED;

	if (pg == 0 || test_scratch_dir("scratch_large", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	len = (UINT64_C(4) << 30) + pg;
	fd = page_file_open(dir, path, sizeof(path), len);
	if (fd >= 0)
		res = mmap(NULL, len + pg, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
				0);
	if (res != MAP_FAILED) {
		base = RTE_PTR_ALIGN_CEIL(res, pg);
		m = mmap(base, len, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, 0);
		if (m != MAP_FAILED) {
			base[0] = 0x5a;
			ret = scratch_checks_large(base, len, pg, fd);
		} else {
			printf("cannot map the file: %s\n", strerror(errno));
		}
		munmap(res, len + pg);
	}
	return page_file_close(dir, path, fd, ret);
}

static struct unit_test_suite memory_suite = {
	.suite_name = "memory API and page allocator",
	.unit_test_cases = {
		TEST_CASE(test_mem_empty_at_start),
		TEST_CASE(test_mem_alloc_lookup),
		TEST_CASE(test_mem_events),
		TEST_CASE(test_mem_validator),
		TEST_CASE(test_mem_free_errors),
		TEST_CASE(test_mem_free_misuse),
		TEST_CASE(test_mem_legacy_events),
		TEST_CASE(test_mem_shaping_options),
		TEST_CASE(test_mem_cgroup_limit),
		TEST_CASE(test_mem_va_hole),
		TEST_CASE(test_mem_scratch),
		TEST_CASE(test_mem_scratch_large),
		TEST_CASES_END(),
	},
};

static int
test_memory(void)
{
	if (!rte_eal_has_hugepages())
		return test_skip_hugepages("EAL runs without hugepages");
	return unit_test_suite_runner(&memory_suite);
}

REGISTER_FAST_TEST(memory_autotest, NOHUGE_SKIP, ASAN_OK, test_memory);
