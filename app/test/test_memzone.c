/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Memzones on the running EAL: reserve, look up, walk, dump and free;
 * every error with its exact rte_errno; a full table; alignment, bounds,
 * IOVA contiguity and page size flags; the biggest-block reservation of
 * len 0; memory that is not cleared; many zones looked up in random order;
 * and lcores reserving and freeing at the same time.
 *
 * Every zone a case makes is named "mz_test..." (or "mz_fill_..." for the
 * full table) and freed by the case. A teardown after each case frees and
 * counts whatever a case left; the last case fails if anything was.
 * Random choices come from a fixed seed, printed at the start.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_random.h>

#include "malloc_check.h"
#include "malloc_elem.h"
#include "test.h"

#define MZ_SEED UINT64_C(0x6d656d7a6f6e6531)
#define CL RTE_CACHE_LINE_SIZE

/* Return TEST_FAILED from the caller when a check helper failed. */
#define CHECK(call) \
	do { \
		if ((call) != TEST_SUCCESS) \
			return TEST_FAILED; \
	} while (0)

/* Assert that @p expr gives no zone and sets rte_errno to @p err. */
#define ASSERT_MZ_FAILS(expr, err, what) \
	do { \
		const struct rte_memzone *mz_ = NULL; \
		rte_errno = 0; \
		mz_ = (expr); \
		TEST_ASSERT(mz_ == NULL, "%s: reserved at %p", what, \
				mz_ != NULL ? mz_->addr : NULL); \
		TEST_ASSERT_EQUAL(rte_errno, err, \
				"%s: rte_errno %d (%s), expected %d (%s)", \
				what, rte_errno, strerror(rte_errno), err, \
				strerror(err)); \
	} while (0)

static unsigned int mz_start_count; /* zones before the suite ran */
static unsigned int mz_leaked; /* test zones the teardowns had to free */

static void
count_cb(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

static unsigned int
mz_count(void)
{
	unsigned int n = 0;

	rte_memzone_walk(count_cb, &n);
	return n;
}

static bool
is_test_name(const char *name)
{
	return strncmp(name, "mz_test", 7) == 0 ||
			strncmp(name, "mz_fill_", 8) == 0;
}

/* Zones collected by a walk (which must not free them itself). */
struct mz_set {
	const struct rte_memzone *mz[RTE_MAX_MEMZONE];
	unsigned int n;
};

static struct mz_set leftovers;

static void
collect_test_cb(const struct rte_memzone *mz, void *arg)
{
	struct mz_set *s = arg;

	if (is_test_name(mz->name) && s->n < RTE_MAX_MEMZONE)
		s->mz[s->n++] = mz;
}

static void
mz_case_teardown(void)
{
	unsigned int i;

	leftovers.n = 0;
	rte_memzone_walk(collect_test_cb, &leftovers);
	for (i = 0; i < leftovers.n; i++)
		rte_memzone_free(leftovers.mz[i]);
	if (leftovers.n > 0)
		printf("teardown: freed %u zones the case left\n", leftovers.n);
	mz_leaked += leftovers.n;
}

static int
heap_ok(void)
{
	char err[256] = "";

	TEST_ASSERT_SUCCESS(malloc_heap_check_all(true, err, sizeof(err)),
			"heap check: %s", err);
	return TEST_SUCCESS;
}

/*
 * What every reserved zone must satisfy: its name, length (unless
 * @p len is 0), flags, alignment of address and IOVA, an IOVA that
 * agrees with the memseg, page size and node of its memseg list, and
 * memory that can be written from start to end.
 */
static int
zone_check(const struct rte_memzone *mz, const char *name, size_t len,
		uint64_t align, unsigned int flags)
{
	const struct rte_memseg_list *msl;
	uint8_t *p;

	TEST_ASSERT_NOT_NULL(mz, "%s not reserved: %s", name,
			rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(strcmp(mz->name, name), 0, "name '%s', not '%s'",
			mz->name, name);
	/* As DPDK: the length reserved, in whole cache lines. */
	if (len != 0)
		TEST_ASSERT_EQUAL(mz->len, RTE_CACHE_LINE_ROUNDUP(len),
				"%s: len %zu, asked %zu", name, mz->len, len);
	TEST_ASSERT(mz->len > 0, "%s: len 0", name);
	TEST_ASSERT_EQUAL(mz->flags, flags, "%s: flags 0x%x, asked 0x%x", name,
			mz->flags, flags);
	TEST_ASSERT(mz->addr_64 % align == 0,
			"%s: addr %p not %" PRIu64 "-aligned", name, mz->addr,
			align);
	TEST_ASSERT(mz->iova % align == 0,
			"%s: iova 0x%" PRIx64 " not %" PRIu64 "-aligned", name,
			mz->iova, align);
	TEST_ASSERT_EQUAL(mz->iova, rte_mem_virt2iova(mz->addr),
			"%s: iova 0x%" PRIx64 ", memseg says 0x%" PRIx64, name,
			mz->iova, rte_mem_virt2iova(mz->addr));
	msl = rte_mem_virt2memseg_list(mz->addr);
	TEST_ASSERT_NOT_NULL(msl, "%s: %p in no memseg list", name, mz->addr);
	TEST_ASSERT_EQUAL(mz->hugepage_sz, msl->page_sz,
			"%s: hugepage_sz %" PRIu64 ", its list's %" PRIu64,
			name, mz->hugepage_sz, msl->page_sz);
	TEST_ASSERT_EQUAL(mz->socket_id, msl->socket_id,
			"%s: socket %d, its list's %d", name, mz->socket_id,
			msl->socket_id);
	p = mz->addr;
	memset(p, 0x5a, mz->len);
	TEST_ASSERT(p[0] == 0x5a && p[mz->len - 1] == 0x5a,
			"%s: memory not writable", name);
	return TEST_SUCCESS;
}

static int
cmp_addr(const void *a, const void *b)
{
	const struct rte_memzone *x = *(const struct rte_memzone *const *)a;
	const struct rte_memzone *y = *(const struct rte_memzone *const *)b;

	return x->addr_64 < y->addr_64 ? -1 : x->addr_64 > y->addr_64;
}

/* No two zones of @p mz share a byte or a descriptor. */
static int
zones_disjoint(const struct rte_memzone *const *mz, unsigned int n)
{
	const struct rte_memzone **s;
	unsigned int i, bad = n;

	s = malloc((n + 1) * sizeof(*s));
	TEST_ASSERT_NOT_NULL(s, "out of memory");
	memcpy(s, mz, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_addr);
	for (i = 1; i < n && bad == n; i++)
		if (s[i - 1] == s[i] ||
				s[i - 1]->addr_64 + s[i - 1]->len >
						s[i]->addr_64)
			bad = i;
	if (bad != n)
		printf("%s [%p, +%zu) and %s [%p, +%zu) overlap\n",
				s[bad - 1]->name, s[bad - 1]->addr,
				s[bad - 1]->len, s[bad]->name, s[bad]->addr,
				s[bad]->len);
	free(s);
	TEST_ASSERT_EQUAL(bad, n, "zones overlap");
	return TEST_SUCCESS;
}

static int
free_all(const struct rte_memzone *const *mz, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(rte_memzone_free(mz[i]), "free %s",
				mz[i]->name);
	return TEST_SUCCESS;
}

static int
test_memzone_basic(void)
{
	const struct rte_memzone *mz[3];
	unsigned int before = mz_count(), i;

	mz[0] = rte_memzone_reserve("mz_test_any", 100, SOCKET_ID_ANY, 0);
	CHECK(zone_check(mz[0], "mz_test_any", 100, CL, 0));
	mz[1] = rte_memzone_reserve("mz_test_s0", 1000, 0, 0);
	CHECK(zone_check(mz[1], "mz_test_s0", 1000, CL, 0));
	TEST_ASSERT_EQUAL(mz[1]->socket_id, 0, "asked socket 0, got %d",
			mz[1]->socket_id);
	mz[2] = rte_memzone_reserve("mz_test_1k", 1024, SOCKET_ID_ANY, 0);
	CHECK(zone_check(mz[2], "mz_test_1k", 1024, CL, 0));
	CHECK(zones_disjoint(mz, 3));
	TEST_ASSERT_EQUAL(mz_count(), before + 3, "walk count");
	for (i = 0; i < 3; i++)
		TEST_ASSERT(rte_memzone_lookup(mz[i]->name) == mz[i],
				"lookup of %s: another pointer", mz[i]->name);
	CHECK(free_all(mz, 3));
	TEST_ASSERT_EQUAL(mz_count(), before, "walk count after free");
	return heap_ok();
}

static int
test_memzone_names(void)
{
	char n31[RTE_MEMZONE_NAMESIZE], n32[RTE_MEMZONE_NAMESIZE + 1];
	const struct rte_memzone *dup, *mz;

	ASSERT_MZ_FAILS(rte_memzone_lookup("mz_test_nobody"), ENOENT,
			"lookup of an unknown name");
	dup = rte_memzone_reserve("mz_test_dup", 64, SOCKET_ID_ANY, 0);
	CHECK(zone_check(dup, "mz_test_dup", 64, CL, 0));
	ASSERT_MZ_FAILS(rte_memzone_reserve(
					"mz_test_dup", 128, SOCKET_ID_ANY, 0),
			EEXIST, "duplicate");
	ASSERT_MZ_FAILS(rte_memzone_reserve_aligned("mz_test_dup", 64,
					SOCKET_ID_ANY, 0, 4096),
			EEXIST, "duplicate, aligned");
	TEST_ASSERT(rte_memzone_lookup("mz_test_dup") == dup && dup->len == 64,
			"the duplicate changed the original");

	memset(n31, 'x', sizeof(n31));
	memcpy(n31, "mz_test_", 8);
	n31[31] = '\0';
	memcpy(n32, n31, 31);
	n32[31] = 'y';
	n32[32] = '\0';
	mz = rte_memzone_reserve(n31, 64, SOCKET_ID_ANY, 0);
	CHECK(zone_check(mz, n31, 64, CL, 0));
	TEST_ASSERT(rte_memzone_lookup(n31) == mz, "lookup of 31 chars");
	ASSERT_MZ_FAILS(rte_memzone_reserve(n32, 64, SOCKET_ID_ANY, 0),
			ENAMETOOLONG, "32-char name");
	/* n32 starts with n31: a truncating lookup would find it */
	ASSERT_MZ_FAILS(rte_memzone_lookup(n32), ENOENT, "lookup of 32 chars");

	ASSERT_MZ_FAILS(rte_memzone_reserve(NULL, 64, SOCKET_ID_ANY, 0), EINVAL,
			"NULL name");
	ASSERT_MZ_FAILS(rte_memzone_reserve_aligned(
					NULL, 64, SOCKET_ID_ANY, 0, 64),
			EINVAL, "NULL name, aligned");
	ASSERT_MZ_FAILS(rte_memzone_reserve_bounded(
					NULL, 64, SOCKET_ID_ANY, 0, 64, 4096),
			EINVAL, "NULL name, bounded");

	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free 31 chars");
	TEST_ASSERT_SUCCESS(rte_memzone_free(dup), "free dup");
	ASSERT_MZ_FAILS(rte_memzone_lookup("mz_test_dup"), ENOENT,
			"lookup after free");
	ASSERT_MZ_FAILS(rte_memzone_lookup(n31), ENOENT,
			"lookup of 31 chars after free");
	return heap_ok();
}

/*
 * rte_free(), rte_realloc() and rte_malloc_validate() refuse a memzone's
 * memory: its data stays, the zone stays, and later allocations do not
 * land inside it. Sizes small enough for the lcore caches and larger.
 */
static int
mz_heap_api_refused(size_t len)
{
	const struct rte_memzone *mz;
	uint8_t *p[64];
	unsigned int i;

	mz = rte_memzone_reserve("mz_test_rtefree", len, SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(mz, "reserve %zu", len);
	memset(mz->addr, 0x77, mz->len);
	rte_free(mz->addr);
	rte_free(mz->addr);
	TEST_ASSERT_NULL(rte_realloc(mz->addr, len * 2, 0), "realloc");
	TEST_ASSERT_EQUAL(rte_malloc_validate(mz->addr, NULL), -1, "validate");
	for (i = 0; i < RTE_DIM(p); i++) {
		p[i] = rte_malloc(NULL, len, 0);
		TEST_ASSERT_NOT_NULL(p[i], "malloc %u", i);
		TEST_ASSERT(p[i] + len <= (uint8_t *)mz->addr ||
						p[i] >= (uint8_t *)mz->addr + mz->len,
				"allocation %p inside the memzone at %p", p[i],
				mz->addr);
		memset(p[i], 0x11, len);
	}
	TEST_ASSERT(((uint8_t *)mz->addr)[0] == 0x77 &&
					((uint8_t *)mz->addr)[mz->len - 1] ==
							0x77,
			"the memzone's data changed");
	TEST_ASSERT(rte_memzone_lookup("mz_test_rtefree") == mz, "lookup");
	for (i = 0; i < RTE_DIM(p); i++)
		rte_free(p[i]);
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "memzone free");
	return heap_ok();
}

static int
test_memzone_rte_free(void)
{
	TEST_ASSERT_SUCCESS(mz_heap_api_refused(64), "64 bytes");
	TEST_ASSERT_SUCCESS(mz_heap_api_refused(1000), "1000 bytes");
	TEST_ASSERT_SUCCESS(mz_heap_api_refused(1 << 20), "1 MB");
	return TEST_SUCCESS;
}

static int
test_memzone_free_errors(void)
{
	struct rte_memzone copy, zero;
	const struct rte_memzone *mz;
	unsigned int before = mz_count();

	TEST_ASSERT_EQUAL(rte_memzone_free(NULL), -EINVAL, "free(NULL)");
	mz = rte_memzone_reserve("mz_test_free", 4096, SOCKET_ID_ANY, 0);
	CHECK(zone_check(mz, "mz_test_free", 4096, CL, 0));
	/* A copy of a live zone, outside the table. */
	memcpy(&copy, mz, sizeof(copy));
	TEST_ASSERT_EQUAL(rte_memzone_free(&copy), -EINVAL,
			"free of a copy on the stack");
	memset(&zero, 0, sizeof(zero));
	TEST_ASSERT_EQUAL(rte_memzone_free(&zero), -EINVAL,
			"free of a zeroed struct on the stack");
	/* Inside the table but not at a descriptor's start. */
	TEST_ASSERT_EQUAL(
			rte_memzone_free((const struct rte_memzone
							*)((uintptr_t)mz + 8)),
			-EINVAL, "free of a pointer into a descriptor");
	TEST_ASSERT(rte_memzone_lookup("mz_test_free") == mz && mz->len == 4096,
			"a bogus free changed the zone");
	TEST_ASSERT_EQUAL(mz_count(), before + 1, "walk count");

	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free");
	ASSERT_MZ_FAILS(rte_memzone_lookup("mz_test_free"), ENOENT,
			"lookup after free");
	TEST_ASSERT_EQUAL(rte_memzone_free(mz), -EINVAL, "double free");
	TEST_ASSERT_EQUAL(mz_count(), before, "walk count after free");
	return heap_ok();
}

/* What a walk saw of the "mz_test_walk_N" zones. */
struct walk_seen {
	unsigned int total;
	unsigned int times[3];
};

static void
walk_cb(const struct rte_memzone *mz, void *arg)
{
	struct walk_seen *w = arg;
	unsigned int i;

	w->total++;
	if (sscanf(mz->name, "mz_test_walk_%u", &i) == 1 && i < 3)
		w->times[i]++;
}

static int
dump_names(const char *const names[], unsigned int n, bool present)
{
	char *buf = NULL;
	size_t len = 0;
	unsigned int i, bad = n;
	FILE *f = open_memstream(&buf, &len);

	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	rte_memzone_dump(f);
	fclose(f);
	for (i = 0; i < n && bad == n; i++)
		if ((strstr(buf, names[i]) != NULL) != present)
			bad = i;
	if (bad != n)
		printf("dump %s %s:\n%s", present ? "lacks" : "still has",
				names[bad], buf);
	free(buf);
	TEST_ASSERT_EQUAL(bad, n, "dump");
	return TEST_SUCCESS;
}

static int
test_memzone_walk_dump(void)
{
	static const char *const names[] = { "mz_test_walk_0", "mz_test_walk_1",
		"mz_test_walk_2" };
	struct rte_malloc_socket_stats st0, st1;
	const struct rte_memzone *mz[3];
	struct walk_seen w = { 0 };
	unsigned int before = mz_count(), i;

	TEST_ASSERT_SUCCESS(rte_malloc_get_socket_stats(0, &st0), "stats");
	for (i = 0; i < 3; i++) {
		mz[i] = rte_memzone_reserve(names[i], 200 * (i + 1), 0, 0);
		CHECK(zone_check(mz[i], names[i], 200 * (i + 1), CL, 0));
	}
	TEST_ASSERT_SUCCESS(rte_malloc_get_socket_stats(0, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.alloc_count, st0.alloc_count + 3,
			"alloc_count %u -> %u for 3 zones", st0.alloc_count,
			st1.alloc_count);
	rte_memzone_walk(walk_cb, &w);
	TEST_ASSERT_EQUAL(w.total, before + 3, "walk saw %u zones, not %u",
			w.total, before + 3);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(w.times[i], 1, "walk saw %s %u times",
				names[i], w.times[i]);
	CHECK(dump_names(names, 3, true));
	CHECK(free_all(mz, 3));
	CHECK(dump_names(names, 3, false));
	TEST_ASSERT_SUCCESS(rte_malloc_get_socket_stats(0, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.alloc_count, st0.alloc_count,
			"alloc_count after free");
	TEST_ASSERT_EQUAL(mz_count(), before, "walk count after free");
	return TEST_SUCCESS;
}

static struct mz_set fill;

static int
fill_reuse_slot(unsigned int mid)
{
	const struct rte_memzone *freed = fill.mz[mid], *mz;
	char name[RTE_MEMZONE_NAMESIZE];

	snprintf(name, sizeof(name), "mz_fill_%u", mid);
	TEST_ASSERT_SUCCESS(rte_memzone_free(freed), "free %s", name);
	fill.mz[mid] = fill.mz[--fill.n];
	ASSERT_MZ_FAILS(rte_memzone_lookup(name), ENOENT, "freed zone");
	mz = rte_memzone_reserve("mz_fill_again", 1, SOCKET_ID_ANY, 0);
	CHECK(zone_check(mz, "mz_fill_again", 1, CL, 0));
	TEST_ASSERT(mz == freed, "the only free slot is %p, got %p",
			(const void *)freed, (const void *)mz);
	fill.mz[fill.n++] = mz;
	TEST_ASSERT(rte_memzone_lookup("mz_fill_again") == mz, "lookup");
	TEST_ASSERT_EQUAL(mz_count(), RTE_MAX_MEMZONE, "walk count");
	ASSERT_MZ_FAILS(rte_memzone_reserve(
					"mz_fill_more", 1, SOCKET_ID_ANY, 0),
			ENOSPC, "table full again");
	return TEST_SUCCESS;
}

static int
test_memzone_fill_table(void)
{
	unsigned int start = mz_count(), i;
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	int ret;

	fill.n = 0;
	rte_errno = 0;
	for (;;) {
		snprintf(name, sizeof(name), "mz_fill_%u", fill.n);
		mz = rte_memzone_reserve(name, 1, SOCKET_ID_ANY, 0);
		if (mz == NULL || fill.n == RTE_MAX_MEMZONE)
			break;
		fill.mz[fill.n++] = mz;
	}
	TEST_ASSERT_NULL(mz, "more than RTE_MAX_MEMZONE zones");
	TEST_ASSERT_EQUAL(fill.n, RTE_MAX_MEMZONE - start,
			"%u zones fit next to %u, expected %u", fill.n, start,
			RTE_MAX_MEMZONE - start);
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "rte_errno %d (%s) when full",
			rte_errno, strerror(rte_errno));
	for (i = 0; i < fill.n; i++) {
		snprintf(name, sizeof(name), "mz_fill_%u", i);
		TEST_ASSERT(rte_memzone_lookup(name) == fill.mz[i],
				"lookup of %s", name);
		TEST_ASSERT(fill.mz[i]->len == CL &&
						fill.mz[i]->addr_64 % CL == 0,
				"%s: len %zu addr %p", name, fill.mz[i]->len,
				fill.mz[i]->addr);
	}
	CHECK(zones_disjoint(fill.mz, fill.n));
	ret = fill_reuse_slot(fill.n / 2);
	CHECK(free_all(fill.mz, fill.n));
	fill.n = 0;
	CHECK(ret);
	TEST_ASSERT_EQUAL(mz_count(), start, "walk count after freeing all");
	return heap_ok();
}

static int
test_memzone_too_big(void)
{
	uint64_t mem = rte_eal_get_physmem_size();
	unsigned int before = mz_count();

	/* As DPDK: EINVAL when the length cannot round up to a line. */
	ASSERT_MZ_FAILS(rte_memzone_reserve("mz_test_big", (size_t)-1,
					SOCKET_ID_ANY, 0),
			EINVAL, "len SIZE_MAX");
	ASSERT_MZ_FAILS(rte_memzone_reserve("mz_test_big", (size_t)-1 - 62,
					SOCKET_ID_ANY, 0),
			EINVAL, "len SIZE_MAX - 62");
	ASSERT_MZ_FAILS(rte_memzone_reserve("mz_test_big", (size_t)-1 - 63,
					SOCKET_ID_ANY, 0),
			ENOMEM, "len SIZE_MAX - 63");
	ASSERT_MZ_FAILS(rte_memzone_reserve_aligned("mz_test_big",
					(size_t)-1 - 4095, SOCKET_ID_ANY, 0,
					4096),
			ENOMEM, "len SIZE_MAX - 4095, aligned");
	ASSERT_MZ_FAILS(rte_memzone_reserve("mz_test_big", (size_t)512 << 30,
					SOCKET_ID_ANY, 0),
			ENOMEM, "len 512 GiB");
	ASSERT_MZ_FAILS(rte_memzone_reserve(
					"mz_test_big", (size_t)512 << 30, 0, 0),
			ENOMEM, "len 512 GiB on socket 0");
	TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), mem,
			"failed reservations left %" PRIu64 " bytes mapped",
			rte_eal_get_physmem_size() - mem);
	TEST_ASSERT_EQUAL(mz_count(), before, "walk count");
	return heap_ok();
}

static int
has_page_size(const struct rte_memseg_list *msl, void *arg)
{
	return msl->page_sz == *(const uint64_t *)arg ? 1 : 0;
}

static bool
page_size_known(uint64_t sz)
{
	return rte_memseg_list_walk(has_page_size, &sz) == 1;
}

static int
reserve_check_free(const char *name, unsigned int flags, uint64_t page_sz)
{
	const struct rte_memzone *mz;

	mz = rte_memzone_reserve(name, 4096, SOCKET_ID_ANY, flags);
	CHECK(zone_check(mz, name, 4096, CL, flags));
	TEST_ASSERT_EQUAL(mz->hugepage_sz, page_sz,
			"%s: page size %" PRIu64 ", expected %" PRIu64, name,
			mz->hugepage_sz, page_sz);
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free %s", name);
	return TEST_SUCCESS;
}

/* The page size flags, and the only page size a run has. */
static const struct {
	unsigned int flag;
	uint64_t page_sz;
	const char *name;
} mz_page_flags[] = {
	{ RTE_MEMZONE_2MB, RTE_PGSIZE_2M, "mz_test_2m" },
	{ RTE_MEMZONE_1GB, RTE_PGSIZE_1G, "mz_test_1g" },
};

/*
 * Each page size flag gives a zone on that size if the run has it, else
 * fails, or with RTE_MEMZONE_SIZE_HINT_ONLY falls back to the run's size.
 * The run has one page size: that of its --huge-dir (2 MB, or 1 GB in
 * CI's second run).
 */
static int
test_memzone_flags(void)
{
	uint64_t run_sz = test_huge_page_size();
	const struct rte_memzone *mz;
	unsigned int i, flag;

	if (run_sz == 0 || !page_size_known(run_sz))
		return test_skip_hugepages(
				"no hugetlbfs page size for the run");
	for (i = 0; i < RTE_DIM(mz_page_flags); i++) {
		flag = mz_page_flags[i].flag;
		if (mz_page_flags[i].page_sz == run_sz) {
			CHECK(reserve_check_free(
					mz_page_flags[i].name, flag, run_sz));
			continue;
		}
		TEST_ASSERT(!page_size_known(mz_page_flags[i].page_sz),
				"a page size besides the run's");
		ASSERT_MZ_FAILS(rte_memzone_reserve(mz_page_flags[i].name, 4096,
						SOCKET_ID_ANY, flag),
				ENOMEM, "page size flag without those pages");
		CHECK(reserve_check_free(mz_page_flags[i].name,
				flag | RTE_MEMZONE_SIZE_HINT_ONLY, run_sz));
	}
	ASSERT_MZ_FAILS(rte_memzone_reserve("mz_test_flag", 4096, SOCKET_ID_ANY,
					0x80000000u),
			EINVAL, "unknown flag bit");
	ASSERT_MZ_FAILS(rte_memzone_reserve("mz_test_sock", 4096, 1000, 0),
			EINVAL, "socket 1000");
	ASSERT_MZ_FAILS(rte_memzone_reserve("mz_test_sock", 4096, -5, 0),
			EINVAL, "socket -5");
	mz = rte_memzone_lookup("mz_test_sock");
	TEST_ASSERT_NULL(mz, "a failed reservation left its name");
	return heap_ok();
}

#define AL_SIZES 4

static int
test_memzone_aligned(void)
{
	static const size_t sizes[AL_SIZES] = { 1, 100, 4096, 65536 + 7 };
	static const struct rte_memzone *mz[18 * AL_SIZES];
	char name[RTE_MEMZONE_NAMESIZE];
	unsigned int n = 0, s;
	uint64_t align;

	for (align = 32; align <= RTE_PGSIZE_2M; align <<= 1)
		for (s = 0; s < AL_SIZES; s++) {
			snprintf(name, sizeof(name),
					"mz_test_al_%" PRIu64 "_%u", align, s);
			mz[n] = rte_memzone_reserve_aligned(name, sizes[s],
					SOCKET_ID_ANY, 0, (unsigned int)align);
			CHECK(zone_check(mz[n], name, sizes[s],
					RTE_MAX(align, (uint64_t)CL), 0));
			n++;
		}
	mz[n] = rte_memzone_reserve_aligned(
			"mz_test_al_0", 100, SOCKET_ID_ANY, 0, 0);
	CHECK(zone_check(mz[n], "mz_test_al_0", 100, CL, 0));
	n++;
	CHECK(zones_disjoint(mz, n));
	CHECK(free_all(mz, n));
	ASSERT_MZ_FAILS(rte_memzone_reserve_aligned("mz_test_al_bad", 100,
					SOCKET_ID_ANY, 0, 100),
			EINVAL, "align 100");
	ASSERT_MZ_FAILS(rte_memzone_reserve_aligned("mz_test_al_bad", 100,
					SOCKET_ID_ANY, 0, 3),
			EINVAL, "align 3");
	return heap_ok();
}

#define BD_PER_BOUND 8

/* [start, start + len) stays within one multiple of @p bound. */
static bool
within_bound(uint64_t start, size_t len, uint64_t bound)
{
	return start / bound == (start + len - 1) / bound;
}

static int
test_memzone_bounded(void)
{
	static const struct rte_memzone *mz[16 * BD_PER_BOUND];
	char name[RTE_MEMZONE_NAMESIZE];
	unsigned int n = 0, i;
	uint64_t bound;
	size_t len;

	for (bound = 64; bound <= RTE_PGSIZE_2M; bound <<= 1)
		for (i = 0; i < BD_PER_BOUND; i++) {
			len = i == 0 ? bound : 1 + rte_rand_max(bound);
			snprintf(name, sizeof(name),
					"mz_test_bd_%" PRIu64 "_%u", bound, i);
			mz[n] = rte_memzone_reserve_bounded(name, len,
					SOCKET_ID_ANY, 0, 0,
					(unsigned int)bound);
			CHECK(zone_check(mz[n], name, len, CL, 0));
			TEST_ASSERT(within_bound(mz[n]->addr_64, len, bound),
					"%s: [%p, +%zu) crosses a multiple of %" PRIu64,
					name, mz[n]->addr, len, bound);
			TEST_ASSERT(within_bound(mz[n]->iova, len, bound),
					"%s: iova [0x%" PRIx64 ", +%zu) crosses"
					" a multiple of %" PRIu64,
					name, mz[n]->iova, len, bound);
			n++;
		}
	CHECK(zones_disjoint(mz, n));
	CHECK(free_all(mz, n));
	mz[0] = rte_memzone_reserve_bounded(
			"mz_test_bd_0", 5000, SOCKET_ID_ANY, 0, 0, 0);
	CHECK(zone_check(mz[0], "mz_test_bd_0", 5000, CL, 0));
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz[0]), "free");
	ASSERT_MZ_FAILS(rte_memzone_reserve_bounded("mz_test_bd_bad", 64,
					SOCKET_ID_ANY, 0, 0, 1000),
			EINVAL, "bound 1000");
	ASSERT_MZ_FAILS(rte_memzone_reserve_bounded("mz_test_bd_bad", 4097,
					SOCKET_ID_ANY, 0, 0, 4096),
			EINVAL, "len 4097 > bound 4096");
	ASSERT_MZ_FAILS(rte_memzone_reserve_bounded("mz_test_bd_bad", 65,
					SOCKET_ID_ANY, 0, 0, 64),
			EINVAL, "len 65 > bound 64");
	return heap_ok();
}

/* rte_mem_virt2iova() at every 4 KiB of @p mz and at its last byte. */
static int
contig_offsets(const struct rte_memzone *mz)
{
	rte_iova_t iova;
	size_t off;

	for (off = 0; off <= mz->len; off += 4096) {
		if (off == mz->len)
			off = mz->len - 1;
		iova = rte_mem_virt2iova(RTE_PTR_ADD(mz->addr, off));
		TEST_ASSERT_EQUAL(iova, mz->iova + off,
				"%s: iova at +%zu is 0x%" PRIx64
				", expected 0x%" PRIx64,
				mz->name, off, iova, mz->iova + off);
	}
	return TEST_SUCCESS;
}

/*
 * IOVA-contiguous zones of 4 KiB to 8 MiB. With IOVA as PA, a zone over
 * more than one 2 MB page needs pages the kernel happened to give out
 * physically in order; without them ENOMEM is the right answer (said,
 * and checked to map nothing). Zones within a page must always work.
 */
static int
contig_zones(void)
{
	static const size_t sizes[] = { 4096, 65536, (1 << 20) + 4096,
		RTE_PGSIZE_2M, 2 * RTE_PGSIZE_2M, 4 * RTE_PGSIZE_2M };
	const unsigned int flags = RTE_MEMZONE_IOVA_CONTIG;
	bool pa = rte_eal_iova_mode() == RTE_IOVA_PA;
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	uint64_t mem;
	unsigned int i;

	for (i = 0; i < RTE_DIM(sizes); i++) {
		snprintf(name, sizeof(name), "mz_test_contig_%zu", sizes[i]);
		mem = rte_eal_get_physmem_size();
		rte_errno = 0;
		mz = rte_memzone_reserve(name, sizes[i], SOCKET_ID_ANY, flags);
		if (mz == NULL && pa && sizes[i] >= RTE_PGSIZE_2M) {
			TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "%s: rte_errno %d",
					name, rte_errno);
			TEST_ASSERT_EQUAL(rte_eal_get_physmem_size(), mem,
					"%s: the failure left pages mapped",
					name);
			printf("IOVA as PA: no %zu IOVA-contiguous bytes (ENOMEM)\n",
					sizes[i]);
			continue;
		}
		CHECK(zone_check(mz, name, sizes[i], CL, flags));
		CHECK(contig_offsets(mz));
		TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free %s", name);
	}
	return heap_ok();
}

/* Child (--iova-mode=va): every size must work. */
static int
mz_child_contig_va(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (rte_eal_iova_mode() != RTE_IOVA_VA) {
		printf("IOVA mode %d, not VA\n", rte_eal_iova_mode());
		return 2;
	}
	return contig_zones() == TEST_SUCCESS ? 0 : 1;
}
REGISTER_CHILD_ACTION(mz_contig_va, mz_child_contig_va)

static int
test_memzone_iova_contig(void)
{
	char dir[PATH_MAX], dir_arg[PATH_MAX + 16];
	const char *args[] = { dir_arg, "--file-prefix=mz_contig_va",
		"--iova-mode=va", NULL };
	struct test_child_result res;
	int ret;

	printf("IOVA mode of this run: %s\n",
			rte_eal_iova_mode() == RTE_IOVA_PA ? "PA" : "VA");
	CHECK(contig_zones());
	if (test_scratch_dir("mz_contig_va", dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	ret = test_child_run("mz_contig_va", args, &res);
	if (test_scratch_dir_remove(dir) < 0)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(ret, "child did not run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "child with --iova-mode=va: %s",
			res.output);
	return TEST_SUCCESS;
}

static int
len0_reserve(int socket)
{
	struct rte_malloc_socket_stats st;
	const struct rte_memzone *mz;
	size_t want;

	TEST_ASSERT_SUCCESS(rte_malloc_get_socket_stats(socket, &st), "stats");
	TEST_ASSERT(st.greatest_free_size > MALLOC_ELEM_OVERHEAD + CL,
			"greatest free %zu", st.greatest_free_size);
	want = RTE_ALIGN_FLOOR(st.greatest_free_size - MALLOC_ELEM_OVERHEAD,
			(size_t)CL);
	mz = rte_memzone_reserve("mz_test_len0", 0, socket, 0);
	CHECK(zone_check(mz, "mz_test_len0", want, CL, 0));
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free");

	TEST_ASSERT_SUCCESS(rte_malloc_get_socket_stats(socket, &st), "stats");
	mz = rte_memzone_reserve_aligned("mz_test_len0_al", 0, socket, 0, 4096);
	CHECK(zone_check(mz, "mz_test_len0_al", 0, 4096, 0));
	TEST_ASSERT(mz->len <= st.greatest_free_size - MALLOC_ELEM_OVERHEAD,
			"len %zu from a greatest free block of %zu", mz->len,
			st.greatest_free_size);
	printf("len 0: %zu bytes, aligned to 4096: %zu bytes\n", want, mz->len);
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free");
	return TEST_SUCCESS;
}

static int
test_memzone_len0(void)
{
	int socket = (int)rte_socket_id(), ret;
	void *anchor;

	/* The heap grows on demand: make sure it holds a free block. */
	anchor = rte_malloc_socket(NULL, 64, 0, socket);
	TEST_ASSERT_NOT_NULL(anchor, "rte_malloc_socket");
	ret = len0_reserve(socket);
	rte_free(anchor);
	CHECK(ret);
	return heap_ok();
}

#define NC_LEN (256 * 1024)

static int
test_memzone_not_cleared(void)
{
	int socket = (int)rte_socket_id(), ret = TEST_SUCCESS;
	const struct rte_memzone *mz;
	uint8_t *z;
	void *anchor;
	size_t i;

	/* Keep the page mapped, so the freed zone goes back to the heap. */
	anchor = rte_malloc_socket(NULL, 64, 0, socket);
	TEST_ASSERT_NOT_NULL(anchor, "rte_malloc_socket");
	mz = rte_memzone_reserve("mz_test_nc_a", NC_LEN, socket, 0);
	if (zone_check(mz, "mz_test_nc_a", NC_LEN, CL, 0) == TEST_SUCCESS) {
		memset(mz->addr, 0xa5, NC_LEN);
		rte_memzone_free(mz);
		ret = heap_ok();
	} else {
		ret = TEST_FAILED;
	}
	if (ret == TEST_SUCCESS) {
		/* Its memory may hold anything: only write it. */
		mz = rte_memzone_reserve("mz_test_nc_b", NC_LEN, socket, 0);
		ret = zone_check(mz, "mz_test_nc_b", NC_LEN, CL, 0);
		if (mz != NULL)
			rte_memzone_free(mz);
	}
	z = rte_zmalloc_socket(NULL, NC_LEN, 0, socket);
	for (i = 0; z != NULL && i < NC_LEN && z[i] == 0; i++)
		;
	rte_free(z);
	rte_free(anchor);
	CHECK(ret);
	TEST_ASSERT_NOT_NULL(z, "rte_zmalloc_socket");
	TEST_ASSERT_EQUAL(i, NC_LEN, "zmalloc after a zone: byte %zu not 0", i);
	return heap_ok();
}

#define LK_N 2000

static const struct rte_memzone *lk_mz[LK_N];
static unsigned int lk_order[LK_N];

static void
shuffle(unsigned int *a, unsigned int n)
{
	unsigned int i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (unsigned int)rte_rand_max(i + 1);
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

static int
lookup_pass(unsigned int pass)
{
	char name[RTE_MEMZONE_NAMESIZE];
	unsigned int i, k;

	for (i = 0; i < LK_N; i++) {
		snprintf(name, sizeof(name), "mz_test_lk_%u", i);
		lk_mz[i] = rte_memzone_reserve(
				name, 1 + (i + pass) % 300, SOCKET_ID_ANY, 0);
		TEST_ASSERT_NOT_NULL(lk_mz[i], "reserve %s: %s", name,
				rte_strerror(rte_errno));
		lk_order[i] = i;
	}
	shuffle(lk_order, LK_N);
	for (k = 0; k < LK_N; k++) {
		i = lk_order[k];
		snprintf(name, sizeof(name), "mz_test_lk_%u", i);
		TEST_ASSERT(rte_memzone_lookup(name) == lk_mz[i],
				"pass %u: lookup of %s", pass, name);
	}
	for (i = LK_N; i < LK_N + 200; i++) {
		snprintf(name, sizeof(name), "mz_test_lk_%u", i);
		ASSERT_MZ_FAILS(rte_memzone_lookup(name), ENOENT, name);
	}
	shuffle(lk_order, LK_N);
	for (k = 0; k < LK_N; k++) {
		i = lk_order[k];
		snprintf(name, sizeof(name), "mz_test_lk_%u", i);
		TEST_ASSERT_SUCCESS(
				rte_memzone_free(lk_mz[i]), "free %s", name);
		ASSERT_MZ_FAILS(rte_memzone_lookup(name), ENOENT, name);
		i = lk_order[(k + 1) % LK_N];
		snprintf(name, sizeof(name), "mz_test_lk_%u", i);
		TEST_ASSERT(k == LK_N - 1 ||
						rte_memzone_lookup(name) ==
								lk_mz[i],
				"pass %u: lookup of %s after freeing others",
				pass, name);
	}
	return TEST_SUCCESS;
}

/* Two passes: the second reuses the names (and slots) the first freed. */
static int
test_memzone_many_lookups(void)
{
	unsigned int before = mz_count();

	CHECK(lookup_pass(0));
	TEST_ASSERT_EQUAL(mz_count(), before, "walk count after pass 0");
	CHECK(lookup_pass(1));
	TEST_ASSERT_EQUAL(mz_count(), before, "walk count after pass 1");
	return heap_ok();
}

#define MT_ROUNDS 2000
#define MT_LIVE 16

/* One lcore's share of the concurrent case. */
struct mt_state {
	const struct rte_memzone *live[MT_LIVE]; /* its zones, by slot */
	uint64_t tag[MT_LIVE]; /* the word each zone is filled with */
	uint64_t rng; /* xorshift state */
	int ret; /* TEST_SUCCESS once all rounds passed */
	int ran; /* 1 once it started */
};

static struct mt_state mt[RTE_MAX_LCORE];

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
tag_fill(const struct rte_memzone *mz, uint64_t tag)
{
	uint64_t *w = mz->addr;
	size_t i;

	for (i = 0; i < mz->len / 8; i++)
		w[i] = tag;
}

static bool
tag_intact(const struct rte_memzone *mz, uint64_t tag)
{
	const uint64_t *w = mz->addr;
	size_t i;

	for (i = 0; i < mz->len / 8; i++)
		if (w[i] != tag)
			return false;
	return true;
}

static int
mt_round(struct mt_state *st, unsigned int lcore, unsigned int round)
{
	unsigned int slot = round % MT_LIVE, align;
	const struct rte_memzone *old = st->live[slot], *mz;
	char name[RTE_MEMZONE_NAMESIZE];
	uint64_t r = xorshift(&st->rng);
	size_t len = 8 + (size_t)(r % 4089);

	if (old != NULL) {
		TEST_ASSERT(tag_intact(old, st->tag[slot]),
				"lcore %u: %s overwritten", lcore, old->name);
		TEST_ASSERT(rte_memzone_lookup(old->name) == old,
				"lcore %u: lookup of %s", lcore, old->name);
		TEST_ASSERT_SUCCESS(
				rte_memzone_free(old), "lcore %u: free", lcore);
		st->live[slot] = NULL;
	}
	align = (r >> 32) % 4 == 0 ? 4096 : 0;
	snprintf(name, sizeof(name), "mz_test_mt_%u_%u", lcore, round);
	mz = rte_memzone_reserve_aligned(name, len, SOCKET_ID_ANY, 0, align);
	TEST_ASSERT_NOT_NULL(mz, "lcore %u: reserve %s: %s", lcore, name,
			rte_strerror(rte_errno));
	TEST_ASSERT(mz->len == RTE_CACHE_LINE_ROUNDUP(len) &&
					strcmp(mz->name, name) == 0 &&
					mz->addr_64 % RTE_MAX(align, (unsigned int)CL) ==
							0,
			"lcore %u: %s has len %zu addr %p", lcore, mz->name,
			mz->len, mz->addr);
	st->live[slot] = mz;
	st->tag[slot] = ((uint64_t)lcore << 32) | round;
	tag_fill(mz, st->tag[slot]);
	return TEST_SUCCESS;
}

static int
mt_worker(void *arg)
{
	unsigned int lcore = rte_lcore_id(), r;
	struct mt_state *st = &mt[lcore];

	RTE_SET_USED(arg);
	st->ran = 1;
	st->rng = MZ_SEED ^
			((uint64_t)(lcore + 1) * UINT64_C(0x9e3779b97f4a7c15));
	st->ret = TEST_FAILED;
	for (r = 0; r < MT_ROUNDS; r++)
		if (mt_round(st, lcore, r) != TEST_SUCCESS)
			return -1;
	st->ret = TEST_SUCCESS;
	return 0;
}

static int
test_memzone_threads(void)
{
	static const struct rte_memzone *all[RTE_MAX_LCORE * MT_LIVE];
	unsigned int before = mz_count(), n = 0, id, s;

	if (rte_lcore_count() < 2) {
		printf("one lcore only: run with -l listing two CPUs\n");
		return TEST_SKIPPED;
	}
	memset(mt, 0, sizeof(mt));
	TEST_ASSERT_SUCCESS(
			rte_eal_mp_remote_launch(mt_worker, NULL, CALL_MAIN),
			"launch");
	rte_eal_mp_wait_lcore();
	RTE_LCORE_FOREACH (id) {
		TEST_ASSERT(mt[id].ran, "lcore %u did not run", id);
		TEST_ASSERT_EQUAL(mt[id].ret, TEST_SUCCESS, "lcore %u failed",
				id);
		for (s = 0; s < MT_LIVE; s++) {
			TEST_ASSERT(tag_intact(mt[id].live[s], mt[id].tag[s]),
					"%s overwritten", mt[id].live[s]->name);
			all[n++] = mt[id].live[s];
		}
	}
	printf("%u lcores x %u rounds, %u zones live at the end\n",
			rte_lcore_count(), MT_ROUNDS, n);
	TEST_ASSERT_EQUAL(mz_count(), before + n, "walk count");
	CHECK(zones_disjoint(all, n));
	CHECK(free_all(all, n));
	TEST_ASSERT_EQUAL(mz_count(), before, "walk count after free");
	return heap_ok();
}

static int
test_memzone_nothing_left(void)
{
	leftovers.n = 0;
	rte_memzone_walk(collect_test_cb, &leftovers);
	TEST_ASSERT_EQUAL(leftovers.n, 0, "%u test zones left, first %s",
			leftovers.n,
			leftovers.n > 0 ? leftovers.mz[0]->name : "");
	TEST_ASSERT_EQUAL(mz_leaked, 0,
			"the cases left %u zones for the teardowns", mz_leaked);
	TEST_ASSERT_EQUAL(mz_count(), mz_start_count,
			"%u zones, %u before the suite", mz_count(),
			mz_start_count);
	return heap_ok();
}

static int
mz_suite_setup(void)
{
	mz_start_count = mz_count();
	mz_leaked = 0;
	rte_srand(MZ_SEED);
	printf("memzone suite: seed 0x%" PRIx64 ", %u zones before\n", MZ_SEED,
			mz_start_count);
	return TEST_SUCCESS;
}

#define MZ_CASE(fn) TEST_CASE_ST(NULL, mz_case_teardown, fn)

static struct unit_test_suite memzone_suite = {
	.suite_name = "memzone",
	.setup = mz_suite_setup,
	.teardown = NULL,
	.unit_test_cases = {
		MZ_CASE(test_memzone_basic),
		MZ_CASE(test_memzone_names),
		MZ_CASE(test_memzone_free_errors),
		MZ_CASE(test_memzone_rte_free),
		MZ_CASE(test_memzone_walk_dump),
		MZ_CASE(test_memzone_fill_table),
		MZ_CASE(test_memzone_too_big),
		MZ_CASE(test_memzone_flags),
		MZ_CASE(test_memzone_aligned),
		MZ_CASE(test_memzone_bounded),
		MZ_CASE(test_memzone_iova_contig),
		MZ_CASE(test_memzone_len0),
		MZ_CASE(test_memzone_not_cleared),
		MZ_CASE(test_memzone_many_lookups),
		MZ_CASE(test_memzone_threads),
		TEST_CASE(test_memzone_nothing_left),
		TEST_CASES_END(),
	},
};

static int
test_memzone(void)
{
	if (!rte_eal_has_hugepages())
		return test_skip_hugepages("EAL runs without hugepages");
	return unit_test_suite_runner(&memzone_suite);
}

REGISTER_FAST_TEST(memzone_autotest, NOHUGE_SKIP, ASAN_OK, test_memzone);
