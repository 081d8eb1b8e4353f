/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The EAL options that shape how heaps grow and shrink, each in a child
 * process of its own: --socket-limit (growth refused past the limit) and
 * --match-allocations (pages go back only as the block they came in),
 * and external heaps under --no-huge; --malloc-retain and --malloc-decay
 * (free pages kept for reuse, given back by rte_malloc_heap_trim() or by
 * an idle heap itself); and one case that needs a heap as fresh as a new
 * process has.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "malloc_check.h"
#include "malloc_slab.h"
#include "malloc_state.h"
#include "test.h"

#define MB (1UL << 20)

static size_t
mo_heap_total(void)
{
	struct rte_malloc_socket_stats s;

	if (rte_malloc_get_socket_stats(0, &s) < 0)
		return SIZE_MAX;
	return s.heap_totalsz_bytes;
}

/* Child with --socket-limit=16: returns the number of the failed step. */
static int
mo_child_socket_limit(int argc, char **argv)
{
	void *a, *b;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	/* 8 MB and a header take 5 pages: 10 MB. */
	a = rte_malloc(NULL, 8 * MB, 0);
	if (a == NULL || mo_heap_total() != 10 * MB)
		return 1;
	/* 5 more pages would be 20 MB. */
	b = rte_malloc(NULL, 8 * MB, 0);
	if (b != NULL || rte_errno != ENOMEM)
		return 2;
	if (mo_heap_total() != 10 * MB)
		return 3;
	rte_free(a);
	if (mo_heap_total() != 0)
		return 4;
	/* 7 pages, 14 MB: within the limit once the first are back. */
	b = rte_malloc(NULL, 12 * MB, 0);
	if (b == NULL)
		return 5;
	rte_free(b);
	return 0;
}
REGISTER_CHILD_ACTION(mo_socket_limit, mo_child_socket_limit)

/*
 * Child: a 3 MB block grows the heap by 4 MB; a 512 KB block is then
 * carved from the rest. Freeing the 3 MB block gives a page back unless
 * --match-allocations holds the block until all of it is free.
 * argv[1]: the total expected after that free, in MB.
 */
static int
mo_child_match(int argc, char **argv)
{
	size_t want = argc > 1 ? strtoul(argv[1], NULL, 0) * MB : 0;
	void *a, *b;

	a = rte_malloc(NULL, 3 * MB, 0);
	if (a == NULL || mo_heap_total() != 4 * MB)
		return 1;
	b = rte_malloc(NULL, MB / 2, 0);
	if (b == NULL || mo_heap_total() != 4 * MB)
		return 2;
	rte_free(a);
	if (mo_heap_total() != want)
		return 3;
	rte_free(b);
	if (mo_heap_total() != 0)
		return 4;
	return 0;
}
REGISTER_CHILD_ACTION(mo_match, mo_child_match)

/*
 * Child with --no-huge: a NUMA node means any node, but an external
 * heap's socket id still picks that heap.
 */
static int
mo_child_nohuge_external(int argc, char **argv)
{
	const size_t len = 4 * MB;
	uintptr_t lo, hi;
	void *va, *p, *q;
	int socket;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (va == MAP_FAILED)
		return 1;
	if (rte_malloc_heap_create("mo_ext") < 0 ||
			rte_malloc_heap_memory_add("mo_ext", va, len, NULL,
					len / 4096, 4096) < 0)
		return 2;
	socket = rte_malloc_heap_get_socket("mo_ext");
	lo = (uintptr_t)va;
	hi = lo + len;
	p = rte_malloc_socket(NULL, 1000, 0, socket);
	if (p == NULL || (uintptr_t)p < lo || (uintptr_t)p + 1000 > hi)
		return 3;
	q = rte_malloc_socket(NULL, 1000, 0, 0);
	if (q == NULL || ((uintptr_t)q >= lo && (uintptr_t)q < hi))
		return 4;
	rte_free(q);
	rte_free(p);
	if (rte_malloc_heap_memory_remove("mo_ext", va, len) < 0 ||
			rte_malloc_heap_destroy("mo_ext") < 0)
		return 5;
	munmap(va, len);
	return 0;
}
REGISTER_CHILD_ACTION(mo_nohuge_external, mo_child_nohuge_external)

/*
 * Child on a fresh heap: a 64 KB block is carved from the top of the
 * first page, so it ends a run; shrinking it in place frees a tail that
 * has no neighbour to join. Growth links new pages to the element the
 * run-end array names, so the tail must be named there.
 */
static int
mo_child_shrink_end(int argc, char **argv)
{
	char err[256];
	void *p;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	p = rte_malloc(NULL, 64 * 1024, 0);
	if (p == NULL)
		return 1;
	if (rte_realloc(p, 1024, 0) != p)
		return 2;
	if (malloc_heap_check_all(false, err, sizeof(err)) < 0) {
		printf("%s\n", err);
		return 3;
	}
	rte_free(p);
	if (malloc_heap_check_all(false, err, sizeof(err)) < 0) {
		printf("%s\n", err);
		return 4;
	}
	return 0;
}
REGISTER_CHILD_ACTION(mo_shrink_end, mo_child_shrink_end)

/* Own hugetlb memory of this process, in MB, or -1. */
static long
mo_own_mb(void)
{
	long kb = test_own_hugetlb_kb();

	return kb < 0 ? -1 : kb >> 10;
}

/*
 * Child with --malloc-retain=64 and a decay of an hour: a freed block's
 * pages stay and serve the next block without growth, until
 * rte_malloc_heap_trim() gives them back. Returns the failed step.
 */
static int
mo_child_retain(int argc, char **argv)
{
	long base = mo_own_mb();
	int64_t given;
	uint8_t *a;
	size_t i;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	/* 16 MB and a header: 9 pages. */
	a = rte_malloc(NULL, 16 * MB, 0);
	if (a == NULL || mo_heap_total() != 18 * MB || mo_own_mb() != base + 18)
		return 1;
	memset(a, 0xab, 16 * MB);
	rte_free(a);
	if (mo_heap_total() != 18 * MB || mo_own_mb() != base + 18)
		return 2;
	/* The kept pages serve again; a clean heap cleared them on free. */
	a = rte_zmalloc(NULL, 16 * MB, 0);
	if (a == NULL || mo_heap_total() != 18 * MB)
		return 3;
	for (i = 0; i < 16 * MB; i++)
		if (a[i] != 0)
			return 4;
	rte_free(a);
	given = rte_malloc_heap_trim(SOCKET_ID_ANY);
	if (given != (int64_t)(18 * MB) || mo_heap_total() != 0 ||
			mo_own_mb() != base)
		return 5;
	if (rte_malloc_heap_trim(SOCKET_ID_ANY) != 0)
		return 6;
	if (rte_malloc_heap_trim(99) != -1 || rte_errno != EINVAL)
		return 7;
	return 0;
}
REGISTER_CHILD_ACTION(mo_retain, mo_child_retain)

/* Bytes cleared on free in heap 0 so far, or UINT64_MAX. */
static uint64_t
mo_cleared_on_free(void)
{
	struct rte_malloc_socket_stats s;

	if (rte_malloc_get_socket_stats(0, &s) < 0)
		return UINT64_MAX;
	return s.heap_cleared_on_free_bytes;
}

#define MO_TABLE_BLOCKS 5000
#define MO_TABLE_SIZE (64 * 1024)

/*
 * Child with the default --malloc-retain and a decay of an hour: a
 * table of 5000 64 KB blocks (320 MB, malloc_perf_autotest's shape, more
 * than a quarter of the default) is freed and allocated again without a
 * page going back or coming, and without clearing anything, until
 * rte_malloc_heap_trim() gives every page back. Statistics are read only
 * while the blocks are allocated: reading them drains the caches.
 */
static int
mo_child_default_table(int argc, char **argv)
{
	static char *t[MO_TABLE_BLOCKS];
	long base = mo_own_mb(), used = 0;
	uint64_t cleared = 0;
	unsigned int i, round;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < MO_TABLE_BLOCKS; i++) {
			t[i] = rte_malloc(NULL, MO_TABLE_SIZE, 0);
			if (t[i] == NULL)
				return 1;
			t[i][0] = 1;
		}
		if (round == 0) {
			used = mo_own_mb();
			cleared = mo_cleared_on_free();
			if (used < base + 320 || cleared == UINT64_MAX)
				return 2;
		} else if (mo_own_mb() != used ||
				mo_cleared_on_free() != cleared) {
			return 3;
		}
		for (i = 0; i < MO_TABLE_BLOCKS; i++)
			rte_free(t[i]);
		if (mo_own_mb() != used)
			return 4;
	}
	if (rte_malloc_heap_trim(SOCKET_ID_ANY) < 320 * (int64_t)MB ||
			mo_own_mb() != base)
		return 5;
	return 0;
}
REGISTER_CHILD_ACTION(mo_default_table, mo_child_default_table)

/*
 * Child with --malloc-retain=4: of 18 MB freed, pages go back but for
 * what keeps the heap's free memory within 4 MB.
 */
static int
mo_child_retain_limit(int argc, char **argv)
{
	void *a;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	a = rte_malloc(NULL, 16 * MB, 0);
	if (a == NULL || mo_heap_total() != 18 * MB)
		return 1;
	rte_free(a);
	if (mo_heap_total() > 4 * MB)
		return 2;
	return 0;
}
REGISTER_CHILD_ACTION(mo_retain_limit, mo_child_retain_limit)

/*
 * Child with --malloc-decay=1500: the pages of a freed block stay, then
 * an idle heap gives them back by itself (the trim thread), within a
 * generous 20 s.
 */
static int
mo_child_decay(int argc, char **argv)
{
	long base = mo_own_mb();
	unsigned int waited;
	void *a;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	a = rte_malloc(NULL, 16 * MB, 0);
	if (a == NULL)
		return 1;
	rte_free(a);
	/* Well within the decay time: still kept. */
	if (mo_own_mb() != base + 18)
		return 2;
	for (waited = 0; waited < 20000 && mo_own_mb() != base; waited += 20)
		usleep(20000);
	if (mo_own_mb() != base || mo_heap_total() != 0)
		return 3;
	printf("idle heap gave its pages back after %u ms\n", waited);
	return 0;
}
REGISTER_CHILD_ACTION(mo_decay, mo_child_decay)

/*
 * Child with --malloc-decay=300: the pages of a freed 64 MB block stay
 * while the lcore works, allocating and freeing a 128 KB block every
 * millisecond (through its cache, which counts its work; slab objects'
 * fast paths count nothing), but not for long: what no allocation needed
 * for a decay time goes back although the heap is never idle. The page
 * of the small block stays: no idle trim drained the cache.
 */
static int
mo_child_unused(int argc, char **argv)
{
	long base = mo_own_mb();
	unsigned int waited;
	void *a, *b;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	a = rte_malloc(NULL, 64 * MB, 0);
	if (a == NULL)
		return 1;
	rte_free(a);
	if (mo_own_mb() != base + 66)
		return 2;
	for (waited = 0; waited < 10000; waited++) {
		b = rte_malloc(NULL, 128 * 1024, 0);
		if (b == NULL)
			return 3;
		rte_free(b);
		if (waited % 16 == 0 && mo_own_mb() <= base + 2)
			break;
		usleep(1000);
	}
	if (mo_own_mb() != base + 2)
		return 4;
	printf("a heap at work gave back what it did not use within %u ms\n",
			waited);
	return 0;
}
REGISTER_CHILD_ACTION(mo_unused, mo_child_unused)

#define MO_REMOTE_OBJS 20000 /* about 3 MB of slab objects */

static void *mo_objs[MO_REMOTE_OBJS];

/* Free the first *@p arg objects (MO_REMOTE_OBJS if NULL). */
static int
mo_free_objs(void *arg)
{
	unsigned int i, n = arg != NULL ? *(unsigned int *)arg : MO_REMOTE_OBJS;

	for (i = 0; i < n; i++)
		rte_free(mo_objs[i]);
	return 0;
}

/*
 * Allocate the first *@p arg objects (MO_REMOTE_OBJS if NULL): two
 * classes, each object next to the one allocated before.
 */
static int
mo_alloc_objs(void *arg)
{
	unsigned int i, n = arg != NULL ? *(unsigned int *)arg : MO_REMOTE_OBJS;

	for (i = 0; i < n; i++) {
		mo_objs[i] = rte_malloc(
				NULL, i < MO_REMOTE_OBJS / 2 ? 64 : 256, 0);
		if (mo_objs[i] == NULL)
			return -1;
		memset(mo_objs[i], 0x5a, 64);
	}
	return 0;
}

/*
 * Child with two lcores and --malloc-decay=1500. The main lcore frees a
 * few of a worker's slab objects, holding them back: the statistics,
 * read at once by the main lcore, count none of them. Then a worker
 * frees the main lcore's objects: none is live after its free, and with
 * both lcores idle the heap gives every page back by itself, the
 * objects the worker still holds too.
 */
static int
mo_child_remote_decay(int argc, char **argv)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), i, waited, few = 10;
	struct rte_malloc_socket_stats s0, s;
	long base = mo_own_mb();

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (worker >= RTE_MAX_LCORE || rte_malloc_get_socket_stats(0, &s0) < 0)
		return 1;
	/* The main lcore's cache gets its heap (its frees hold from then). */
	rte_free(rte_malloc(NULL, 4096, 0));
	/* Fewer than a chain holds, of one slab: none is handed over. */
	if (rte_eal_remote_launch(mo_alloc_objs, &few, worker) != 0 ||
			rte_eal_wait_lcore(worker) != 0)
		return 7;
	mo_free_objs(&few);
	if (rte_malloc_get_socket_stats(0, &s) < 0 ||
			s.alloc_count != s0.alloc_count)
		return 8;
	if (mo_alloc_objs(NULL) != 0)
		return 2;
	if (rte_eal_remote_launch(mo_free_objs, NULL, worker) != 0 ||
			rte_eal_wait_lcore(worker) != 0)
		return 3;
	for (i = 0; i < MO_REMOTE_OBJS; i++)
		if (rte_malloc_validate(mo_objs[i], NULL) != -1)
			return 4;
	for (waited = 0; waited < 20000 && mo_own_mb() != base; waited += 20)
		usleep(20000);
	if (mo_own_mb() != base || mo_heap_total() != 0)
		return 5;
	if (rte_malloc_get_socket_stats(0, &s) < 0 ||
			s.alloc_count != s0.alloc_count)
		return 6;
	printf("idle heap gave the pages of remote frees back after %u ms\n",
			waited);
	return 0;
}
REGISTER_CHILD_ACTION(mo_remote_decay, mo_child_remote_decay)

#define MO_HELD_OBJS 3000 /* 64 B objects of the main lcore: 3 slabs */
#define MO_HELD_FREES 100 /* freed by the worker: more than it holds */
#define MO_HELD_AGAIN 1500 /* allocated again: more than a slab holds */

static char *mo_held[MO_HELD_OBJS];

/*
 * Worker: allocate once, so that its cache has the heap and holds frees
 * back, then free the first MO_HELD_FREES of mo_held, the last first.
 */
static int
mo_free_backwards(void *arg)
{
	unsigned int i;

	RTE_SET_USED(arg);
	rte_free(rte_malloc(NULL, 64, 0));
	for (i = MO_HELD_FREES; i-- > 0;)
		rte_free(mo_held[i]);
	return 0;
}

static int
mo_ptr_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return (x > y) - (x < y);
}

/* Free 64 B object @p p if every byte holds @p v. @return whether. */
static bool
mo_free_filled(char *p, int v)
{
	unsigned int k;

	for (k = 0; k < 64; k++)
		if (p[k] != (char)v)
			return false;
	rte_free(p);
	return true;
}

/*
 * Objects of slab @p s that other threads freed and the owner has not
 * collected, and (*@p counted) how many of them are counted. The slab's
 * metadata is poisoned in ASan builds.
 */
static unsigned int __rte_no_asan
mo_marked(const struct malloc_slab *s, uint32_t *counted)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->n_objs; i++)
		n += s->state[i] == MALLOC_SLAB_OBJ_REMOTE;
	*counted = __atomic_load_n(&s->remote_n, __ATOMIC_ACQUIRE);
	return n;
}

/*
 * Child with two lcores, pages kept: the worker frees objects of the
 * main lcore's first slab, the last first, and counts them for the owner
 * 64 at a time: 64 counted, 36 marked and held back. The owner, out of
 * objects, collects as many as are counted, the first marked ones by
 * address (the 36 held and 28 counted): every object it hands out is
 * another, none is written over, and once the statistics have the
 * worker's held ones counted they are back where they started.
 */
static int
mo_child_remote_held(int argc, char **argv)
{
	static char *q[MO_HELD_AGAIN], *all[MO_HELD_OBJS + MO_HELD_AGAIN];
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), i, n = 0;
	struct rte_malloc_socket_stats s0, s;
	const struct malloc_slab *slab;
	uint32_t counted;
	bool live;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (worker >= RTE_MAX_LCORE || rte_malloc_get_socket_stats(0, &s0) < 0)
		return 1;
	for (i = 0; i < MO_HELD_OBJS; i++) {
		mo_held[i] = rte_malloc(NULL, 64, 0);
		if (mo_held[i] == NULL)
			return 2;
		memset(mo_held[i], 0xa5, 64);
	}
	slab = malloc_slab_of(malloc_mcfg_get(), mo_held[0], &live);
	if (slab == NULL ||
			slab !=
					malloc_slab_of(malloc_mcfg_get(),
							mo_held[MO_HELD_FREES -
									1],
							&live))
		return 3;
	if (rte_eal_remote_launch(mo_free_backwards, NULL, worker) != 0 ||
			rte_eal_wait_lcore(worker) != 0)
		return 4;
	if (mo_marked(slab, &counted) != MO_HELD_FREES ||
			counted != MALLOC_SLAB_HELD)
		return 5;
	for (i = 0; i < MO_HELD_AGAIN; i++) {
		q[i] = rte_malloc(NULL, 64, 0);
		if (q[i] == NULL)
			return 6;
		memset(q[i], (int)(i % 251) + 1, 64);
		all[n++] = q[i];
	}
	if (mo_marked(slab, &counted) != MO_HELD_FREES - MALLOC_SLAB_HELD ||
			counted != 0)
		return 7;
	for (i = MO_HELD_FREES; i < MO_HELD_OBJS; i++)
		all[n++] = mo_held[i];
	qsort(all, n, sizeof(all[0]), mo_ptr_cmp);
	for (i = 1; i < n; i++)
		if (all[i - 1] + 64 > all[i])
			return 8;
	for (i = 0; i < MO_HELD_AGAIN; i++)
		if (!mo_free_filled(q[i], (int)(i % 251) + 1))
			return 9;
	for (i = MO_HELD_FREES; i < MO_HELD_OBJS; i++)
		if (!mo_free_filled(mo_held[i], 0xa5))
			return 9;
	if (rte_malloc_get_socket_stats(0, &s) < 0 ||
			s.alloc_count != s0.alloc_count)
		return 10;
	return 0;
}
REGISTER_CHILD_ACTION(mo_remote_held, mo_child_remote_held)

/*
 * Run @p action with the EAL options @p opts (NULL-ended, up to 4) in a
 * scratch dir, then "--" and @p app_arg; 0 if it exits 0.
 */
static int
mo_run_opts(const char *name, const char *action, const char *const *opts,
		const char *app_arg)
{
	struct test_child_result res;
	char dir[256], dir_arg[300], prefix_arg[64];
	const char *args[10];
	int n = 0, ret;

	if (test_scratch_dir(name, dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs for a scratch dir");
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=mo%s", name);
	args[n++] = dir_arg;
	args[n++] = prefix_arg;
	while (*opts != NULL && n < 6)
		args[n++] = *opts++;
	args[n++] = "--";
	args[n++] = app_arg;
	args[n] = NULL;
	ret = test_child_run(action, args, &res);
	test_dir_clear(dir);
	TEST_ASSERT_SUCCESS(test_scratch_dir_remove(dir), "scratch dir");
	TEST_ASSERT_SUCCESS(ret, "child did not run: %s", res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s %s: step %d failed: %s", action,
			args[2], res.exit_code, res.output);
	return TEST_SUCCESS;
}

/*
 * Run @p action with @p opt (or none). The children count the pages a
 * free gives back, so those that may keep pages (not
 * --match-allocations or --no-huge) give them back at once.
 */
static int
mo_run(const char *name, const char *action, const char *opt,
		const char *app_arg)
{
	const char *opts[3] = { NULL };
	int n = 0;

	if (opt != NULL)
		opts[n++] = opt;
	if (opt == NULL || strcmp(opt, "--socket-limit=16") == 0)
		opts[n++] = "--malloc-retain=0";
	return mo_run_opts(name, action, opts, app_arg);
}

static int
test_mo_socket_limit(void)
{
	return mo_run("limit", "mo_socket_limit", "--socket-limit=16", "0");
}

static int
test_mo_match(void)
{
	return mo_run("match", "mo_match", "--match-allocations", "4");
}

static int
test_mo_no_match(void)
{
	return mo_run("nomatch", "mo_match", NULL, "2");
}

static int
test_mo_nohuge_external(void)
{
	return mo_run("nohugeext", "mo_nohuge_external", "--no-huge", "0");
}

static int
test_mo_shrink_end(void)
{
	return mo_run("shrinkend", "mo_shrink_end", NULL, "0");
}

static int
test_mo_retain(void)
{
	static const char *const opts[] = { "--malloc-retain=64",
		"--malloc-decay=3600000", NULL };

	return mo_run_opts("retain", "mo_retain", opts, "0");
}

static int
test_mo_retain_limit(void)
{
	static const char *const opts[] = { "--malloc-retain=4", NULL };

	return mo_run_opts("retainlimit", "mo_retain_limit", opts, "0");
}

static int
test_mo_default_table(void)
{
	static const char *const opts[] = { "--malloc-decay=3600000", NULL };

	return mo_run_opts("defaulttable", "mo_default_table", opts, "0");
}

static int
test_mo_decay(void)
{
	static const char *const opts[] = { "--malloc-decay=1500", NULL };

	return mo_run_opts("decay", "mo_decay", opts, "0");
}

static int
test_mo_unused(void)
{
	static const char *const opts[] = { "--malloc-decay=300", NULL };

	return mo_run_opts("unused", "mo_unused", opts, "0");
}

static int
test_mo_remote_decay(void)
{
	static const char *const opts[] = { "--lcores=0@0,1@0",
		"--malloc-decay=1500", NULL };

	return mo_run_opts("remotedecay", "mo_remote_decay", opts, "0");
}

static int
test_mo_remote_held(void)
{
	static const char *const opts[] = { "--lcores=0@0,1@0",
		"--malloc-decay=3600000", NULL };

	/* Blocks with cookies (-Dmalloc_debug) need headers: no slabs. */
	if (!malloc_state_of(malloc_mcfg_get())->slabs_on) {
		printf("no slabs in this build: nothing to test\n");
		return TEST_SKIPPED;
	}

	return mo_run_opts("remoteheld", "mo_remote_held", opts, "0");
}

static struct unit_test_suite mo_suite = {
	.suite_name = "heap options",
	.unit_test_cases = {
		TEST_CASE(test_mo_socket_limit),
		TEST_CASE(test_mo_match),
		TEST_CASE(test_mo_no_match),
		TEST_CASE(test_mo_nohuge_external),
		TEST_CASE(test_mo_shrink_end),
		TEST_CASE(test_mo_retain),
		TEST_CASE(test_mo_retain_limit),
		TEST_CASE(test_mo_default_table),
		TEST_CASE(test_mo_decay),
		TEST_CASE(test_mo_unused),
		TEST_CASE(test_mo_remote_decay),
		TEST_CASE(test_mo_remote_held),
		TEST_CASES_END(),
	},
};

static int
test_malloc_options(void)
{
	return unit_test_suite_runner(&mo_suite);
}

REGISTER_FAST_TEST(malloc_options_autotest, NOHUGE_SKIP, ASAN_OK,
		test_malloc_options);
