/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rte_malloc and friends on the running EAL: argument checks, alignment,
 * zeroing, realloc, misuse, exact statistics, the clear-once counters on a
 * clean (hugepage) and a dirty (external) heap, external heaps, sockets,
 * IOVAs, dumps, a seeded multi-thread stress, lcore caches taken by other
 * lcores, and many large allocations.
 *
 * Every case starts from the heap state the previous one left (normally
 * empty, since each frees what it took) and compares the statistics of
 * the main lcore's socket before and after. Random cases print their seed;
 * RTEMEM_TEST_SEED=N repeats a run.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_random.h>

#include "malloc_check.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_queue.h"
#include "malloc_slab.h"
#include "malloc_state.h"
#include "test.h"

#define MAIN_SOCKET 0 /* the only NUMA node here; -l default */
#define EMPTY_SOCKET 31 /* a valid node id with no memory */
#define EXT_PAGE 4096 /* page size of the external heaps' memory */
/*
 * A block above slab sizes: an element with a header of its own; below
 * a sixteenth of a 2 MB page, carved from the top of free memory as
 * small requests are.
 */
#define ELEM_SIZE (MALLOC_SLAB_MAX_DATA + MALLOC_SLAB_MAX_DATA / 2)

/* Fail the calling case when a helper check failed (it printed why). */
#define CHECK(call) \
	do { \
		if ((call) != TEST_SUCCESS) { \
			TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
			return TEST_FAILED; \
		} \
	} while (0)

/* ---- helpers ---- */

static uint64_t
seed_random(const char *what)
{
	const char *env = getenv("RTEMEM_TEST_SEED");
	uint64_t seed;

	seed = env != NULL ? strtoull(env, NULL, 0) : rte_rdtsc();
	printf("%s: seed %" PRIu64 " (RTEMEM_TEST_SEED=%" PRIu64
	       " repeats it)\n",
			what, seed, seed);
	rte_srand(seed);
	return seed;
}

/* A size in [1, max], log-uniform: small sizes as often as large ones. */
static size_t
rand_size(size_t max)
{
	unsigned int bits = (unsigned int)rte_rand_max(
			(uint64_t)(63 - __builtin_clzll(max)) + 1);

	return 1 + (size_t)rte_rand_max(RTE_MIN((size_t)1 << bits, max));
}

/* @return the index of the first byte of @p p not equal to @p v, or n. */
static size_t
first_not(const void *p, size_t n, uint8_t v)
{
	const uint8_t *b = p;
	uint64_t word = v * UINT64_C(0x0101010101010101), w;
	size_t i = 0;

	for (; i < n && ((uintptr_t)(b + i) & 7) != 0; i++)
		if (b[i] != v)
			return i;
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		if (w != word)
			break;
	}
	for (; i < n; i++)
		if (b[i] != v)
			return i;
	return n;
}

/* A position-dependent pattern, so that moved content is caught too. */
static void
fill_seq(void *p, size_t n, uint8_t salt)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 31 + salt);
}

static size_t
check_seq(const void *p, size_t n, uint8_t salt)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != (uint8_t)(i * 31 + salt))
			return i;
	return n;
}

/* 0: rte_malloc, 1: rte_zmalloc, 2: rte_calloc (zeroed for 1 and 2). */
static void *
alloc_kind(unsigned int kind, size_t size, unsigned int align, int socket)
{
	if (kind == 0)
		return rte_malloc_socket(NULL, size, align, socket);
	if (kind == 1)
		return rte_zmalloc_socket(NULL, size, align, socket);
	return rte_calloc_socket(NULL, size, 1, align, socket);
}

static const char *const kind_name[] = { "malloc", "zmalloc", "calloc" };

static int
heap_ok(void)
{
	char err[256] = "";
	int ret = malloc_heap_check_all(true, err, sizeof(err));

	TEST_ASSERT_SUCCESS(ret, "heap check: %s", err);
	return TEST_SUCCESS;
}

/* Read the stats of @p socket and check that the sizes add up. */
static int
stats_get(int socket, struct rte_malloc_socket_stats *s)
{
	memset(s, 0, sizeof(*s));
	TEST_ASSERT_SUCCESS(rte_malloc_get_socket_stats(socket, s),
			"no stats for socket %d", socket);
	TEST_ASSERT_EQUAL(s->heap_allocsz_bytes + s->heap_freesz_bytes,
			s->heap_totalsz_bytes,
			"socket %d: alloc %zu + free %zu != total %zu", socket,
			s->heap_allocsz_bytes, s->heap_freesz_bytes,
			s->heap_totalsz_bytes);
	return TEST_SUCCESS;
}

/* The heap's shape in @p a and @p b is the same (counters aside). */
static int
stats_same_shape(const struct rte_malloc_socket_stats *a,
		const struct rte_malloc_socket_stats *b, const char *what)
{
	TEST_ASSERT_EQUAL(a->heap_totalsz_bytes, b->heap_totalsz_bytes,
			"%s: total %zu -> %zu", what, a->heap_totalsz_bytes,
			b->heap_totalsz_bytes);
	TEST_ASSERT_EQUAL(a->heap_allocsz_bytes, b->heap_allocsz_bytes,
			"%s: allocated %zu -> %zu", what, a->heap_allocsz_bytes,
			b->heap_allocsz_bytes);
	TEST_ASSERT_EQUAL(a->heap_freesz_bytes, b->heap_freesz_bytes,
			"%s: free %zu -> %zu", what, a->heap_freesz_bytes,
			b->heap_freesz_bytes);
	TEST_ASSERT_EQUAL(a->alloc_count, b->alloc_count,
			"%s: alloc_count %u -> %u", what, a->alloc_count,
			b->alloc_count);
	TEST_ASSERT_EQUAL(a->free_count, b->free_count,
			"%s: free_count %u -> %u", what, a->free_count,
			b->free_count);
	TEST_ASSERT_EQUAL(a->greatest_free_size, b->greatest_free_size,
			"%s: greatest free %zu -> %zu", what,
			a->greatest_free_size, b->greatest_free_size);
	return TEST_SUCCESS;
}

/* Nothing at all changed on @p socket since @p before, and the heap is ok. */
static int
stats_unchanged(int socket, const struct rte_malloc_socket_stats *before,
		const char *what)
{
	struct rte_malloc_socket_stats now;

	CHECK(stats_get(socket, &now));
	CHECK(stats_same_shape(before, &now, what));
	TEST_ASSERT_EQUAL(before->heap_cleared_on_free_bytes,
			now.heap_cleared_on_free_bytes, "%s: cleared on free",
			what);
	TEST_ASSERT_EQUAL(before->heap_cleared_on_zmalloc_bytes,
			now.heap_cleared_on_zmalloc_bytes,
			"%s: cleared on zmalloc", what);
	return heap_ok();
}

/* @return the usable size of @p p, or 0 if it is not an allocation. */
static size_t
usable_size(const void *p)
{
	size_t n = 0;

	if (rte_malloc_validate(p, &n) != 0)
		return 0;
	return n;
}

/* An address range, for overlap checks. */
struct range {
	uintptr_t start, end;
};

static int
range_cmp(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort @p r and check that no two of the @p n ranges overlap. */
static int
ranges_disjoint(struct range *r, size_t n)
{
	size_t i;

	qsort(r, n, sizeof(*r), range_cmp);
	for (i = 1; i < n; i++)
		TEST_ASSERT(r[i - 1].end <= r[i].start,
				"[%#" PRIxPTR ", %#" PRIxPTR
				") overlaps [%#" PRIxPTR ", %#" PRIxPTR ")",
				r[i - 1].start, r[i - 1].end, r[i].start,
				r[i].end);
	return TEST_SUCCESS;
}

/* ---- arguments ---- */

static int
test_malloc_bad_params(void)
{
	static const unsigned int bad_align[] = { 3, 17, 100, 65 };
	struct rte_malloc_socket_stats s0, s1;
	size_t usable = 1;
	unsigned int i, k;
	char *p;

	CHECK(stats_get(MAIN_SOCKET, &s0));
	for (k = 0; k < 3; k++) {
		TEST_ASSERT_NULL(alloc_kind(k, 0, 0, MAIN_SOCKET),
				"%s of 0 bytes", kind_name[k]);
		for (i = 0; i < RTE_DIM(bad_align); i++)
			TEST_ASSERT_NULL(alloc_kind(k, 64, bad_align[i],
							 SOCKET_ID_ANY),
					"%s with align %u", kind_name[k],
					bad_align[i]);
	}
	TEST_ASSERT_NULL(rte_malloc(NULL, 0, 0), "malloc(0)");
	TEST_ASSERT_NULL(rte_malloc(NULL, 64, 3), "malloc align 3");
	TEST_ASSERT_NULL(rte_zmalloc(NULL, 0, 0), "zmalloc(0)");
	TEST_ASSERT_NULL(rte_calloc(NULL, 0, 8, 0), "calloc(0, 8)");
	TEST_ASSERT_NULL(rte_calloc(NULL, 8, 0, 0), "calloc(8, 0)");
	/* sizes whose rounding up to a cache line would wrap */
	TEST_ASSERT_NULL(rte_malloc(NULL, SIZE_MAX, 0), "SIZE_MAX");
	TEST_ASSERT_NULL(rte_malloc(NULL, SIZE_MAX - 63, 0), "SIZE_MAX - 63");
	TEST_ASSERT_NULL(rte_zmalloc(NULL, SIZE_MAX - 100, 64), "zmalloc");
	/* products that overflow: to 0, and to 2 bytes */
	TEST_ASSERT_NULL(rte_calloc(NULL, SIZE_MAX / 2 + 1, 2, 0), "2^63 * 2");
	TEST_ASSERT_NULL(rte_calloc(NULL, SIZE_MAX / 2 + 2, 2, 0),
			"(2^63 + 1) * 2 wraps to 2");
	TEST_ASSERT_NULL(rte_calloc(NULL, 2, SIZE_MAX / 2 + 2, 0),
			"2 * (2^63 + 1) wraps to 2");
	TEST_ASSERT_NULL(rte_calloc_socket(NULL, SIZE_MAX / 2 + 2, 2, 0,
					 MAIN_SOCKET),
			"calloc_socket overflow");
	rte_free(NULL);
	TEST_ASSERT_EQUAL(rte_malloc_validate(NULL, &usable), -1, "NULL");
	TEST_ASSERT_NULL(rte_realloc(NULL, 0, 0), "realloc(NULL, 0)");
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "after refused calls"));

	/* realloc(NULL, n) allocates; refused reallocs keep ptr */
	p = rte_realloc(NULL, 100, 0);
	TEST_ASSERT_NOT_NULL(p, "realloc(NULL, 100)");
	TEST_ASSERT_EQUAL((uintptr_t)p % RTE_CACHE_LINE_SIZE, 0, "%p", p);
	TEST_ASSERT(usable_size(p) >= 100, "usable %zu", usable_size(p));
	fill_seq(p, 100, 7);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count + 1, "alloc_count");
	for (i = 0; i < RTE_DIM(bad_align); i++)
		TEST_ASSERT_NULL(rte_realloc(p, 200, bad_align[i]),
				"realloc align %u", bad_align[i]);
	TEST_ASSERT_NULL(rte_realloc(p, SIZE_MAX - 63, 0), "realloc huge");
	TEST_ASSERT_SUCCESS(rte_malloc_validate(p, &usable), "ptr lost");
	TEST_ASSERT_EQUAL(check_seq(p, 100, 7), 100, "content changed");
	CHECK(stats_unchanged(MAIN_SOCKET, &s1, "refused reallocs"));
	/* As DPDK: size 0 keeps a block, at the same place, with its start. */
	TEST_ASSERT(rte_realloc(p, 0, 0) == p, "realloc to 0 moved or freed");
	TEST_ASSERT_EQUAL(check_seq(p, 1, 7), 1, "first byte changed");
	TEST_ASSERT_SUCCESS(rte_malloc_validate(p, NULL), "realloc to 0 freed");
	rte_free(p);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "after free"));
	return heap_ok();
}

/* ---- alignment ---- */

static int
test_malloc_align_default(void)
{
	static const size_t sizes[] = { 1, 7, 63, 64, 65, 127, 1000, 4095, 4097,
		65537, 1 << 20 };
	size_t i, n;
	unsigned int k;
	char *p;

	for (i = 0; i < RTE_DIM(sizes); i++) {
		for (k = 0; k < 3; k++) {
			p = alloc_kind(k, sizes[i], 0, SOCKET_ID_ANY);
			TEST_ASSERT_NOT_NULL(
					p, "%s(%zu)", kind_name[k], sizes[i]);
			TEST_ASSERT_EQUAL((uintptr_t)p % 64, 0,
					"%s(%zu) gave %p", kind_name[k],
					sizes[i], p);
			n = usable_size(p);
			TEST_ASSERT(n >= sizes[i], "usable %zu < %zu", n,
					sizes[i]);
			memset(p, 0xee, sizes[i]);
			rte_free(p);
		}
	}
	return heap_ok();
}

#define ALIGN_SHIFT_MAX 21 /* up to 2 MiB */
#define ALIGN_PER_SHIFT 4 /* allocations per alignment */
#define ALIGN_N ((ALIGN_SHIFT_MAX + 1) * ALIGN_PER_SHIFT)

/*
 * Every power of two from 1 to 2 MiB, with random sizes, all three
 * allocators: aligned, usable as large as asked, zero where promised,
 * writable without touching a neighbour, usable ranges disjoint. (Only
 * the requested bytes are written: ASan builds poison the rest.)
 */
static int
test_malloc_align_pow2(void)
{
	struct rte_malloc_socket_stats s0, s1;
	struct range r[ALIGN_N];
	size_t size, usable, off, len[ALIGN_N];
	char *ptr[ALIGN_N];
	unsigned int shift, j, k, n = 0;

	CHECK(stats_get(MAIN_SOCKET, &s0));
	seed_random("align");
	for (shift = 0; shift <= ALIGN_SHIFT_MAX; shift++) {
		for (j = 0; j < ALIGN_PER_SHIFT; j++, n++) {
			size = rand_size(64 * 1024);
			k = n % 3;
			ptr[n] = alloc_kind(
					k, size, 1u << shift, SOCKET_ID_ANY);
			TEST_ASSERT_NOT_NULL(ptr[n], "%s(%zu, align 2^%u)",
					kind_name[k], size, shift);
			TEST_ASSERT_EQUAL(
					(uintptr_t)ptr[n] & ((1u << shift) - 1),
					0, "%p not aligned to 2^%u", ptr[n],
					shift);
			TEST_ASSERT_SUCCESS(
					rte_malloc_validate(ptr[n], &usable),
					"validate %p", ptr[n]);
			TEST_ASSERT(usable >= size, "usable %zu < %zu", usable,
					size);
			if (k != 0) {
				off = first_not(ptr[n], size, 0);
				TEST_ASSERT_EQUAL(off, size,
						"%s(%zu) byte %zu not zero",
						kind_name[k], size, off);
			}
			memset(ptr[n], n + 1, size);
			len[n] = size;
			r[n].start = (uintptr_t)ptr[n];
			r[n].end = r[n].start + usable;
		}
	}
	CHECK(ranges_disjoint(r, n));
	CHECK(heap_ok());
	for (j = 0; j < n; j++) {
		off = first_not(ptr[j], len[j], j + 1);
		TEST_ASSERT_EQUAL(off, len[j],
				"allocation %u overwritten at %zu", j, off);
		rte_free(ptr[j]);
	}
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "after freeing all"));
	return heap_ok();
}

/* ---- zeroing ---- */

#define ZERO_ROUNDS 400
#define ZERO_MAX_SIZE (4 * RTE_MB)

/*
 * Fill, free, then zmalloc or calloc the same size and alignment: the
 * memory (usually the same bytes) reads as zero.
 */
static int
test_zmalloc_after_free(void)
{
	unsigned int i, align, reused = 0;
	size_t size, off;
	char *p, *q;

	seed_random("zero");
	for (i = 0; i < ZERO_ROUNDS; i++) {
		size = rand_size(ZERO_MAX_SIZE);
		align = rte_rand_max(2) ? 0 : 1u << rte_rand_max(13);
		p = rte_malloc(NULL, size, align);
		TEST_ASSERT_NOT_NULL(p, "malloc(%zu, %u)", size, align);
		memset(p, 1 + i % 255, size);
		rte_free(p);
		if (i & 1)
			q = rte_zmalloc(NULL, size, align);
		else
			q = rte_calloc(NULL, size, 1, align);
		TEST_ASSERT_NOT_NULL(
				q, "round %u: zeroed alloc of %zu", i, size);
		reused += q == p;
		off = first_not(q, size, 0);
		TEST_ASSERT_EQUAL(off, size,
				"round %u: %zu bytes at %p (was %p), byte %zu "
				"is 0x%02x",
				i, size, q, p, off, q[off]);
		rte_free(q);
	}
	printf("zeroed allocations at the freed address: %u of %u\n", reused,
			ZERO_ROUNDS);
	TEST_ASSERT(reused > 0, "never got the freed memory back");
	return heap_ok();
}

/* ---- realloc ---- */

/*
 * What freeing @p elem bytes of clean memory (@p n asked, neighbours busy)
 * cleared: the data, and at most a header more. Debug builds poison freed
 * memory instead, which leaves it dirty and uncleared.
 */
static int
check_clean_free(uint64_t d, size_t elem, size_t n)
{
#ifdef RTE_MALLOC_DEBUG
	RTE_SET_USED(elem);
	RTE_SET_USED(n);
	TEST_ASSERT_EQUAL(d, 0, "poisoned memory cleared (%" PRIu64 ")", d);
#else
	TEST_ASSERT(d >= n && d >= elem - MALLOC_ELEM_OVERHEAD,
			"cleared %" PRIu64 " < data %zu", d,
			elem - MALLOC_ELEM_OVERHEAD);
	TEST_ASSERT(d <= elem + MALLOC_ELEM_OVERHEAD,
			"cleared %" PRIu64 " > element %zu + a header", d,
			elem);
#endif
	return TEST_SUCCESS;
}

/*
 * What zmalloc(@p n) cleared (@p zm) after that free, from the freed block
 * if @p same: nothing, as it is clean. In debug builds the freed block is
 * poisoned, so reusing it clears exactly n (and another block nothing).
 */
static int
check_clean_reuse(uint64_t zm, bool same, size_t n)
{
#ifdef RTE_MALLOC_DEBUG
	TEST_ASSERT_EQUAL(zm, same ? n : 0,
			"zmalloc(%zu) %s the poisoned block cleared %" PRIu64,
			n, same ? "reusing" : "not reusing", zm);
#else
	RTE_SET_USED(n);
	TEST_ASSERT_EQUAL(zm, 0,
			"zmalloc(%zu) after a clearing free (%s block) cleared "
			"again: %" PRIu64,
			n, same ? "same" : "other", zm);
#endif
	return TEST_SUCCESS;
}

static int
test_realloc_content(void)
{
	struct rte_malloc_socket_stats s0, s1;
	char *p, *q;

	CHECK(stats_get(MAIN_SOCKET, &s0));
	p = rte_malloc(NULL, 1000, 0);
	TEST_ASSERT_NOT_NULL(p, "malloc");
	fill_seq(p, 1000, 1);
	q = rte_realloc(p, 5000, 0);
	TEST_ASSERT_NOT_NULL(q, "grow to 5000");
	TEST_ASSERT_EQUAL(check_seq(q, 1000, 1), 1000, "grow lost content");
	fill_seq(q, 5000, 2);
	p = rte_realloc(q, 300, 0);
	TEST_ASSERT(p == q, "shrink moved %p -> %p", q, p);
	TEST_ASSERT_EQUAL(check_seq(p, 300, 2), 300, "shrink lost content");
	q = rte_realloc(p, 3 * RTE_MB, 0);
	TEST_ASSERT_NOT_NULL(q, "grow to 3 MiB");
	TEST_ASSERT_EQUAL(check_seq(q, 300, 2), 300, "grow lost content");
	fill_seq(q, 3 * RTE_MB, 3);
	p = rte_realloc(q, 100, 0);
	TEST_ASSERT(p == q, "shrink moved %p -> %p", q, p);
	TEST_ASSERT_EQUAL(check_seq(p, 100, 3), 100, "shrink lost content");
	TEST_ASSERT(usable_size(p) >= 100 && usable_size(p) < RTE_MB,
			"usable %zu after shrinking to 100", usable_size(p));
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count + 1, "alloc_count");
	CHECK(heap_ok());
	rte_free(p);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "after free"));
	return heap_ok();
}

/*
 * Allocate two blocks of @p size next to each other: @p lo below @p hi,
 * with lo's element (header included) @p lo_elem bytes, hi's @p hi_elem.
 */
static int
alloc_adjacent(size_t size, char **lo, char **hi, size_t *lo_elem,
		size_t *hi_elem)
{
	struct rte_malloc_socket_stats s0, s1, s2;
	char *a, *b;
	size_t ea, eb;

	CHECK(stats_get(MAIN_SOCKET, &s0));
	a = rte_malloc(NULL, size, 0);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	b = rte_malloc(NULL, size, 0);
	CHECK(stats_get(MAIN_SOCKET, &s2));
	TEST_ASSERT(a != NULL && b != NULL, "malloc(%zu)", size);
	ea = s1.heap_allocsz_bytes - s0.heap_allocsz_bytes;
	eb = s2.heap_allocsz_bytes - s1.heap_allocsz_bytes;
	*lo = a < b ? a : b;
	*hi = a < b ? b : a;
	*lo_elem = a < b ? ea : eb;
	*hi_elem = a < b ? eb : ea;
	TEST_ASSERT_EQUAL((size_t)(*hi - *lo), *lo_elem,
			"two allocations from an idle heap are not neighbours: "
			"%p (element %zu) and %p",
			*lo, *lo_elem, *hi);
	return TEST_SUCCESS;
}

/* The element after is free: realloc grows in place. */
static int
test_realloc_in_place(void)
{
	struct rte_malloc_socket_stats s0, s1;
	size_t lo_elem, hi_elem, want;
	char *lo, *hi, *r;

	CHECK(stats_get(MAIN_SOCKET, &s0));
	CHECK(alloc_adjacent(ELEM_SIZE, &lo, &hi, &lo_elem, &hi_elem));
	fill_seq(lo, 4096, 9);
	rte_free(hi);
	want = usable_size(lo) + hi_elem / 2;
	r = rte_realloc(lo, want, 0);
	TEST_ASSERT(r == lo, "grow into the free neighbour moved %p -> %p", lo,
			r);
	TEST_ASSERT_EQUAL(check_seq(r, 4096, 9), 4096, "content lost");
	TEST_ASSERT(usable_size(r) >= want, "usable %zu < %zu", usable_size(r),
			want);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count + 1, "alloc_count");
	TEST_ASSERT(s1.heap_allocsz_bytes > s0.heap_allocsz_bytes + lo_elem,
			"allocated bytes did not grow");
	CHECK(heap_ok());
	rte_free(r);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "after free"));
	return heap_ok();
}

/* The element after is busy: realloc moves, keeps content, frees the old. */
static int
test_realloc_move(void)
{
	struct rte_malloc_socket_stats s0, s1, s2;
	size_t lo_elem, hi_elem, want;
	char *lo, *hi, *r;

	CHECK(stats_get(MAIN_SOCKET, &s0));
	CHECK(alloc_adjacent(ELEM_SIZE, &lo, &hi, &lo_elem, &hi_elem));
	fill_seq(lo, 4096, 11);
	fill_seq(hi, 4096, 12);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	want = 4 * usable_size(lo);
	r = rte_realloc(lo, want, 0);
	TEST_ASSERT_NOT_NULL(r, "realloc to %zu", want);
	TEST_ASSERT(r != lo, "grew in place over a busy neighbour");
	TEST_ASSERT_EQUAL(check_seq(r, 4096, 11), 4096, "content lost");
	TEST_ASSERT_EQUAL(check_seq(hi, 4096, 12), 4096, "neighbour changed");
	TEST_ASSERT_EQUAL(rte_malloc_validate(lo, NULL), -1,
			"old block still allocated");
	CHECK(stats_get(MAIN_SOCKET, &s2));
	TEST_ASSERT_EQUAL(s2.alloc_count, s1.alloc_count,
			"alloc_count %u -> %u", s1.alloc_count, s2.alloc_count);
	CHECK(heap_ok());
	rte_free(r);
	rte_free(hi);
	CHECK(stats_get(MAIN_SOCKET, &s2));
	CHECK(stats_same_shape(&s0, &s2, "after free"));
	return heap_ok();
}

static int
test_realloc_align(void)
{
	static const unsigned int shifts[] = { 12, 16, 21 };
	char *p, *q;
	unsigned int i;
	size_t size = 1000;

	p = rte_malloc(NULL, size, 64);
	TEST_ASSERT_NOT_NULL(p, "malloc");
	fill_seq(p, size, 21);
	for (i = 0; i < RTE_DIM(shifts); i++) {
		q = rte_realloc(p, size + 1000 * i, 1u << shifts[i]);
		TEST_ASSERT_NOT_NULL(q, "realloc to align 2^%u", shifts[i]);
		TEST_ASSERT_EQUAL((uintptr_t)q & ((1u << shifts[i]) - 1), 0,
				"%p not aligned to 2^%u", q, shifts[i]);
		TEST_ASSERT_EQUAL(check_seq(q, size, 21), size,
				"content lost at align 2^%u", shifts[i]);
		p = q;
	}
	rte_free(p);
	return heap_ok();
}

/*
 * Shrinking in place frees the tail: in a clean heap the tail is cleared
 * like any freed memory (poisoned in debug builds), so a zmalloc served
 * from it needs no clearing, and the heap check finds it zero.
 */
static int
test_realloc_shrink_clears(void)
{
	struct rte_malloc_socket_stats s0, s1, s2;
	/* Elements, above slab sizes. */
	const size_t big = ELEM_SIZE, small = 1000,
		     zn = MALLOC_SLAB_MAX_DATA + 1024;
	char *pin1, *p, *pin2, *q, *z;
	size_t tail;
	uint64_t d;
	bool in_tail;

	pin1 = rte_malloc(NULL, 64, 0);
	p = rte_malloc(NULL, big, 0);
	pin2 = rte_malloc(NULL, 64, 0);
	TEST_ASSERT(pin1 != NULL && p != NULL && pin2 != NULL, "malloc");
	memset(p, 0xa5, big);
	CHECK(stats_get(MAIN_SOCKET, &s0));
	q = rte_realloc(p, small, 0);
	TEST_ASSERT(q == p, "shrink moved %p -> %p", p, q);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	tail = s0.heap_allocsz_bytes - s1.heap_allocsz_bytes;
	d = s1.heap_cleared_on_free_bytes - s0.heap_cleared_on_free_bytes;
	printf("shrinking %zu to %zu freed %zu bytes, cleared %" PRIu64 "\n",
			big, small, tail, d);
	TEST_ASSERT(tail >= big - RTE_CACHE_LINE_ROUNDUP(small) -
							MALLOC_ELEM_OVERHEAD,
			"shrink gave back only %zu bytes", tail);
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count, "alloc_count");
	CHECK(check_clean_free(d, tail, 0));
	CHECK(heap_ok());
	z = rte_zmalloc(NULL, zn, 0);
	TEST_ASSERT_NOT_NULL(z, "zmalloc");
	TEST_ASSERT_EQUAL(first_not(z, zn, 0), zn, "zmalloc not zero");
	in_tail = z > q && z < q + big;
	CHECK(stats_get(MAIN_SOCKET, &s2));
	CHECK(check_clean_reuse(s2.heap_cleared_on_zmalloc_bytes -
					s1.heap_cleared_on_zmalloc_bytes,
			in_tail, zn));
	TEST_ASSERT_EQUAL(first_not(q, small, 0xa5), small, "content lost");
	rte_free(z);
	rte_free(q);
	rte_free(pin2);
	rte_free(pin1);
	return heap_ok();
}

/* ---- misuse ---- */

/*
 * Each bad free leaves every statistic alone and the heap whole. The
 * blocks freed twice lie between live ones, so their pages stay mapped.
 */
static int
test_free_bad_pointers(void)
{
	struct rte_malloc_socket_stats s0, s1;
	char *pin1, *victim, *pin2, *p, *g;
	int local = 0;

	g = malloc(256);
	TEST_ASSERT_NOT_NULL(g, "glibc malloc");
	pin1 = rte_malloc(NULL, 64, 0);
	victim = rte_malloc(NULL, ELEM_SIZE, 0);
	pin2 = rte_malloc(NULL, 64, 0);
	p = rte_malloc(NULL, ELEM_SIZE, 0);
	TEST_ASSERT(pin1 && victim && pin2 && p, "rte_malloc");
	memset(p, 0x5a, 4096);
	CHECK(stats_get(MAIN_SOCKET, &s0));
	CHECK(heap_ok());

	rte_free(&local);
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "free of a stack address"));
	rte_free(g);
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "free of a glibc pointer"));
	rte_free(p + 64);
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "free of heap ptr + 64"));
	rte_free(p + 1);
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "free of heap ptr + 1"));
	TEST_ASSERT_NULL(rte_realloc(&local, 100, 0), "realloc of the stack");
	TEST_ASSERT_NULL(rte_realloc(p + 64, 100, 0), "realloc of ptr + 64");
	TEST_ASSERT_EQUAL(rte_malloc_validate(p + 64, NULL), -1, "ptr + 64");
	TEST_ASSERT_EQUAL(rte_malloc_validate(g, NULL), -1, "glibc pointer");
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "realloc of bad pointers"));
	TEST_ASSERT_SUCCESS(rte_malloc_validate(p, NULL), "p lost");
	TEST_ASSERT_EQUAL(first_not(p, 4096, 0x5a), 4096, "p changed");

	rte_free(victim);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count - 1, "first free");
	rte_free(victim);
	CHECK(stats_unchanged(MAIN_SOCKET, &s1, "double free"));

	free(g);
	rte_free(p);
	rte_free(pin2);
	rte_free(pin1);
	return heap_ok();
}

/*
 * A copy of a busy header inside a block, with no links and a size past
 * the end of its memseg list, is no allocation: freeing its data changes
 * nothing, whichever check sees it first (the lcore cache's quick one,
 * which has the list after a small free, or the long one).
 */
static int
test_free_forged_header(void)
{
	struct rte_malloc_socket_stats s0;
	struct malloc_elem *f;
	char *small, *p;

	small = rte_malloc(NULL, 64, 0);
	p = rte_malloc(NULL, ELEM_SIZE, 0);
	TEST_ASSERT(small != NULL && p != NULL, "rte_malloc");
	rte_free(small);
	f = (struct malloc_elem *)(void *)(p + 1024);
	memcpy(f, malloc_elem_from_data(p), sizeof(*f));
	f->prev = NULL;
	f->next = NULL;
	f->size = (size_t)1 << 46;
	CHECK(stats_get(MAIN_SOCKET, &s0));
	rte_free(malloc_elem_data(f));
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "free of a forged header"));
	TEST_ASSERT_SUCCESS(rte_malloc_validate(p, NULL), "p lost");
	rte_free(p);
	return heap_ok();
}

static int alloc_in_order(
		char **p, size_t (*size)(unsigned int i), unsigned int n);

static size_t
elem_size(unsigned int i)
{
	RTE_SET_USED(i);
	return ELEM_SIZE;
}

/*
 * A block freed twice after its first free joined it into the free memory
 * below: its header is data of a free element now (poisoned for ASan), and
 * the second free and validate must refuse it and change nothing, in the
 * ASan build too.
 */
static int
test_free_twice_joined(void)
{
	struct rte_malloc_socket_stats s0;
	char *b[2], *pin, *q;

	CHECK(alloc_in_order(b, elem_size, 2));
	pin = b[0];
	q = b[1];
	TEST_ASSERT(malloc_elem_from_data(q)->prev != NULL &&
					malloc_elem_from_data(q)->prev->t.state ==
							ELEM_FREE,
			"q is not carved from the top of free memory below pin");
	rte_free(q);
	CHECK(stats_get(MAIN_SOCKET, &s0));
	rte_free(q);
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "second free"));
	TEST_ASSERT_EQUAL(rte_malloc_validate(q, NULL), -1, "freed q");
	rte_free(pin);
	return heap_ok();
}

/*
 * For a child's last step: @return 0 if the heap checker passes, or
 * @p step after printing what it found.
 */
static int
child_heap_ok(int step)
{
	char err[256] = "";

	if (malloc_heap_check_all(true, err, sizeof(err)) == 0)
		return 0;
	printf("heap check: %s\n", err);
	return step;
}

/*
 * Child: free a block twice after its pages went back to the kernel; the
 * second free must notice the memory is gone instead of reading it.
 */
static int
malloc_child_free_unmapped(int argc, char **argv)
{
	struct rte_malloc_socket_stats s0, s1, s2;
	char *big;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (rte_malloc_get_socket_stats(MAIN_SOCKET, &s0) != 0)
		return 1;
	big = rte_malloc(NULL, 6 * RTE_MB, 0);
	if (big == NULL)
		return 2;
	rte_free(big);
	rte_malloc_get_socket_stats(MAIN_SOCKET, &s1);
	printf("heap total %zu -> %zu after free\n", s0.heap_totalsz_bytes,
			s1.heap_totalsz_bytes);
	if (s1.heap_totalsz_bytes != s0.heap_totalsz_bytes ||
			rte_mem_virt2memseg(big, NULL) != NULL)
		return 3; /* the pages should have been returned */
	rte_free(big);
	rte_malloc_get_socket_stats(MAIN_SOCKET, &s2);
	if (memcmp(&s1, &s2, sizeof(s1)) != 0)
		return 4;
	return child_heap_ok(5);
}
REGISTER_CHILD_ACTION(malloc_free_unmapped, malloc_child_free_unmapped)

/*
 * Run child action @p action in a fresh EAL with file prefix and scratch
 * directory @p name and EAL options @p extra (up to 4, NULL-terminated;
 * NULL: none, and the heap grows on demand). The children check when
 * pages go back: they give them back at once (--malloc-retain=0), unless
 * @p extra sets --malloc-retain itself.
 */
static int
run_heap_child_with(
		const char *action, const char *name, const char *const *extra)
{
	char dir[PATH_MAX], dir_arg[PATH_MAX + 16], prefix[64];
	const char *args[8] = { dir_arg, prefix, "--malloc-retain=0", NULL };
	struct test_child_result res;
	const char *const *e;
	unsigned int n = 3;

	for (e = extra; e != NULL && *e != NULL; e++)
		if (strncmp(*e, "--malloc-retain", 15) == 0)
			n = 2;
	int ret;

	while (extra != NULL && *extra != NULL && n < RTE_DIM(args) - 1)
		args[n++] = *extra++;
	args[n] = NULL;
	if (test_scratch_dir(name, dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s", name);
	ret = test_child_run(action, args, &res);
	if (test_scratch_dir_remove(dir) < 0)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(ret, "child did not run");
	TEST_ASSERT(res.exit_code == 0 && res.signal == 0,
			"child: step %d, signal %d: %s", res.exit_code,
			res.signal, res.output);
	return TEST_SUCCESS;
}

static int
run_heap_child(const char *action, const char *name)
{
	return run_heap_child_with(action, name, NULL);
}

static int
test_free_unmapped(void)
{
	return run_heap_child("malloc_free_unmapped", "malloc_unmapped");
}

/* ---- small frees wait on a queue or in an lcore cache ---- */

/* Above what slabs serve, the bottom of a size class (malloc_queue.h). */
#define QUEUED_SIZE (MALLOC_SLAB_MAX_DATA + MALLOC_SLAB_MAX_DATA / 4)

struct plain_thread {
	int (*fn)(void);
	int ret;
};

static void *
plain_thread_main(void *arg)
{
	struct plain_thread *t = arg;

	t->ret = t->fn();
	return NULL;
}

/*
 * Run @p fn on a thread without an lcore id, whose small frees go to the
 * heap queue rather than an lcore cache.
 */
static int
on_plain_thread(int (*fn)(void))
{
	struct plain_thread t = { .fn = fn, .ret = TEST_FAILED };
	pthread_t th;

	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, plain_thread_main, &t),
			"pthread_create");
	pthread_join(th, NULL);
	return t.ret;
}

/* @return true if small frees on an lcore may go to its cache. */
static bool
caches_on(void)
{
	return malloc_state_of(malloc_mcfg_get())->caches_on != 0;
}

/* @return true if small allocations of lcores come from slabs. */
static bool
slabs_on(void)
{
	return malloc_state_of(malloc_mcfg_get())->slabs_on != 0;
}

/* @return true if @p a and @p b are on the same page of @p page_sz. */
static bool
same_page(const void *a, const void *b, size_t page_sz)
{
	return (uintptr_t)a / page_sz == (uintptr_t)b / page_sz;
}

/*
 * @return true if an lcore's cache takes small block @p data, between
 * busy or waiting neighbours: if it and its neighbours' headers lie on
 * one page, which is all the cache reads. Otherwise it is queued.
 */
static bool
cache_takes(const void *data)
{
	const struct malloc_elem *e = malloc_elem_from_data(data);
	size_t pg = rte_mem_virt2memseg_list(data)->page_sz;

	return caches_on() && same_page(e, RTE_PTR_ADD(e, e->size - 1), pg) &&
			(e->prev == NULL || same_page(e->prev, e, pg)) &&
			(e->next == NULL || same_page(e->next, e, pg));
}

/* The state of small block @p data once the calling thread frees it. */
static uint8_t
waiting_state(const void *data)
{
	return rte_lcore_id() != LCORE_ID_ANY && cache_takes(data) ?
			ELEM_CACHED :
			ELEM_QUEUED;
}

struct plain_alloc {
	char **p;
	size_t (*size)(unsigned int i);
	unsigned int n;
	int ret;
};

static void *
plain_alloc_main(void *arg)
{
	struct plain_alloc *a = arg;
	unsigned int i;

	a->ret = 0;
	for (i = 0; i < a->n && a->ret == 0; i++) {
		a->p[i] = rte_malloc(NULL, a->size(i), 0);
		if (a->p[i] == NULL)
			a->ret = -1;
	}
	return NULL;
}

/* @return true if blocks @p p[0] .. @p p[n - 1] touch, @p p[0] on top. */
static bool
blocks_touch(char **p, unsigned int n)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (malloc_elem_end(malloc_elem_from_data(p[i])) !=
				malloc_elem_from_data(p[i - 1]))
			return false;
	return true;
}

/* Tries of alloc_in_order(), each filling the free gap the last ended in. */
#define IN_ORDER_TRIES 8

/*
 * Allocate @p n blocks, @p p[i] of size(i) bytes, in turn on a thread
 * without an lcore id, so that each is carved right below the one
 * before. (An lcore's allocations may come out of its cache, in any
 * order.) The first blocks go to the smallest free element they fit in,
 * which may be too small for the rest (the gap beside a slab), or the
 * heap grows in the middle of a try: such a try stays allocated,
 * plugging the gap, until a try lies in one piece; then the plugs are
 * freed and the heap trimmed, so that they neither wait in a queue or
 * cache nor keep pages. @return TEST_SUCCESS if all
 * were allocated and they touch, @p p[0] on top.
 */
static int
alloc_in_order(char **p, size_t (*size)(unsigned int i), unsigned int n)
{
	struct plain_alloc a = { .size = size, .n = n, .ret = -1 };
	char *plugs[IN_ORDER_TRIES][n];
	unsigned int t, k, i;
	pthread_t th;
	bool touch = false;

	memset(plugs, 0, sizeof(plugs));
	for (t = 0; t < IN_ORDER_TRIES && !touch; t++) {
		a.p = plugs[t];
		a.ret = -1;
		if (pthread_create(&th, NULL, plain_alloc_main, &a) != 0)
			break;
		pthread_join(th, NULL);
		if (a.ret != 0)
			break;
		touch = blocks_touch(plugs[t], n);
	}
	/* The run is the last try: every earlier one, or all, go. */
	if (touch)
		memcpy(p, plugs[t - 1], n * sizeof(*p));
	for (k = 0; k < IN_ORDER_TRIES; k++)
		for (i = 0; i < n && (!touch || k + 1 < t); i++)
			rte_free(plugs[k][i]);
	TEST_ASSERT(rte_malloc_heap_trim(SOCKET_ID_ANY) >= 0, "trim");
	TEST_ASSERT(touch, "%u tries of %u blocks, none in one piece (%s)", t,
			n, a.ret != 0 ? "an allocation failed" : "gaps");
	return TEST_SUCCESS;
}

static size_t
queued_size(unsigned int i)
{
	RTE_SET_USED(i);
	return QUEUED_SIZE;
}

/*
 * Three blocks carved one below the other, @p b[0] on top. @return
 * TEST_SUCCESS if they touch, so that freeing the middle one queues it.
 */
static int
queue_blocks(char *b[3])
{
	return alloc_in_order(b, queued_size, 3);
}

/*
 * A small free between busy neighbours waits, on the heap's queue or in
 * the lcore's cache: it is no allocation any more (validate and a second
 * free refuse it), the checker counts it, the next allocation of its size
 * gets it back, rte_zmalloc() clears exactly the bytes it hands out, and
 * the statistics show the heap as if every free were done.
 */
static int
free_waiting(void)
{
	struct rte_malloc_socket_stats s0, s1, s2;
	char *b[3], *p;
	uint8_t want;

	CHECK(stats_get(MAIN_SOCKET, &s0));
	CHECK(queue_blocks(b));
	memset(b[1], 0xa5, QUEUED_SIZE);
	want = waiting_state(b[1]);
	rte_free(b[1]);
	TEST_ASSERT_EQUAL(malloc_elem_from_data(b[1])->t.state, want,
			"the free did not wait");
	TEST_ASSERT_EQUAL(rte_malloc_validate(b[1], NULL), -1,
			"a queued block validates");
	rte_free(b[1]);
	CHECK(heap_ok());
	p = rte_malloc(NULL, QUEUED_SIZE, 0);
	TEST_ASSERT(p == b[1], "the queued block %p was not reused: %p", b[1],
			p);
	TEST_ASSERT_EQUAL(usable_size(p), RTE_CACHE_LINE_ROUNDUP(QUEUED_SIZE),
			"usable size");
	memset(p, 0x5a, QUEUED_SIZE);

	CHECK(stats_get(MAIN_SOCKET, &s1));
	rte_free(p);
	p = rte_zmalloc(NULL, QUEUED_SIZE, 0);
	TEST_ASSERT(p == b[1], "rte_zmalloc did not reuse %p: %p", b[1], p);
	TEST_ASSERT_EQUAL(first_not(p, QUEUED_SIZE, 0), QUEUED_SIZE,
			"rte_zmalloc of a queued block is not zero");
	CHECK(stats_get(MAIN_SOCKET, &s2));
	TEST_ASSERT_EQUAL(s2.heap_cleared_on_zmalloc_bytes -
					s1.heap_cleared_on_zmalloc_bytes,
			(uint64_t)QUEUED_SIZE, "cleared on zmalloc");
	TEST_ASSERT_EQUAL(s2.heap_cleared_on_free_bytes,
			s1.heap_cleared_on_free_bytes, "cleared on free");
	CHECK(stats_same_shape(&s1, &s2, "free and zmalloc of a queued block"));

	/* Statistics drain the queue: the heap looks freed at once. */
	rte_free(p);
	CHECK(stats_get(MAIN_SOCKET, &s2));
	TEST_ASSERT_EQUAL(s2.alloc_count, s1.alloc_count - 1, "alloc_count");
	TEST_ASSERT_EQUAL(s2.heap_allocsz_bytes,
			s1.heap_allocsz_bytes - MALLOC_ELEM_OVERHEAD -
					RTE_CACHE_LINE_ROUNDUP(QUEUED_SIZE),
			"allocated bytes");
	rte_free(b[0]);
	rte_free(b[2]);
	CHECK(stats_get(MAIN_SOCKET, &s2));
	CHECK(stats_same_shape(&s0, &s2, "all freed"));
	return heap_ok();
}

static int
test_free_queued(void)
{
	return on_plain_thread(free_waiting);
}

static int
test_free_cached(void)
{
	return free_waiting();
}

/*
 * Child, growing heap: a queued or cached block must not keep a page
 * from going back. Once its neighbours are freed, the queue (and the
 * cache) is drained and the page is returned, with no statistics call to
 * drain it.
 */
static int
queue_release(void)
{
	uint64_t before = rte_eal_get_physmem_size();
	char *b[3];

	if (queue_blocks(b) != TEST_SUCCESS)
		return 1;
	if (rte_eal_get_physmem_size() == before)
		return 2; /* the heap should have grown */
	rte_free(b[1]);
	rte_free(b[0]);
	if (rte_eal_get_physmem_size() == before)
		return 3; /* b[2] still holds the page */
	rte_free(b[2]);
	printf("mapped %" PRIu64 " -> %" PRIu64 " bytes\n", before,
			rte_eal_get_physmem_size());
	if (rte_eal_get_physmem_size() != before)
		return 4;
	return child_heap_ok(5);
}

/* Once with the lcore's cache, once with the heap queue. */
static int
malloc_child_queue_release(int argc, char **argv)
{
	int ret;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	ret = queue_release();
	return ret != 0 ? ret : 10 * on_plain_thread(queue_release);
}
REGISTER_CHILD_ACTION(malloc_queue_release, malloc_child_queue_release)

static int
test_free_queued_release(void)
{
	return run_heap_child("malloc_queue_release", "malloc_queue");
}

/* ---- spares an lcore's allocations carve for its cache ---- */

#ifdef RTE_MALLOC_DEBUG
#define TEST_MALLOC_DEBUG 1
#else
#define TEST_MALLOC_DEBUG 0
#endif

#define SPARE_BLOCKS 20 /* allocations that leave spares in the cache */
/*
 * The bottom of a size class (malloc_queue.h) that batches carve spares
 * for: a slab size, so spares are tested where slabs are off.
 */
#define SPARE_SIZE 1280

static int
ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

static struct malloc_cache *
my_cache(void)
{
	return &malloc_state_of(malloc_mcfg_get())->caches[rte_lcore_id()];
}

/*
 * Whether a cache carves spares for SPARE_SIZE blocks: not where slabs
 * serve them (every size a batch of MALLOC_CACHE_FILL_BYTES has room
 * for); the spare cases run in the builds without slabs
 * (-Dmalloc_debug=true).
 */
static bool
spares_carved(void)
{
	RTE_BUILD_BUG_ON(SPARE_SIZE > MALLOC_SLAB_MAX_DATA);
	if (!caches_on()) {
		printf("caches off: no spares\n");
		return false;
	}
	if (slabs_on()) {
		printf("slabs serve %u byte blocks: no spares\n", SPARE_SIZE);
		return false;
	}
	return true;
}

/* Spares (carved, never handed out) in the calling lcore's cache. */
static unsigned int
cache_spares(void)
{
	const struct malloc_cache *c = my_cache();
	const struct malloc_elem *e;
	unsigned int k, n = 0;

	for (k = 0; k < MALLOC_QUEUE_CLASSES; k++)
		for (e = c->head[k]; e != NULL; e = e->free_next)
			n += (e->t.flags & ELEM_FLAG_SPARE) != 0;
	return n;
}

/*
 * Child, fresh (clean) growing heap, main lcore. A run of small
 * rte_zmalloc() calls carves spares into the cache; the blocks are zero,
 * and those served from spares of clean memory are not cleared again.
 * Freeing every block, with no statistics call, gives the pages back
 * although spares were left in the cache. Spares drained into a clean
 * heap clear only the headers that become data. A block allocated and
 * freed in turn next to free memory carves no spares.
 */
static int
spares_child(void)
{
	uint64_t before = rte_eal_get_physmem_size();
	struct malloc_heap *heap = malloc_heap_of_socket(
			malloc_state_of(malloc_mcfg_get()),
			(int)rte_socket_id());
	uint64_t cleared = heap->cleared_on_zmalloc;
	char *p[SPARE_BLOCKS], *keep, *q;
	struct rte_malloc_socket_stats st;
	unsigned int i, left;

	for (i = 0; i < SPARE_BLOCKS; i++) {
		p[i] = rte_zmalloc(NULL, SPARE_SIZE, 0);
		if (p[i] == NULL)
			return 1;
		if (first_not(p[i], SPARE_SIZE, 0) != SPARE_SIZE)
			return 2;
		if (rte_malloc_validate(p[i], NULL) != 0)
			return 3;
	}
	left = cache_spares();
	printf("%u blocks, %u spares left, %" PRIu64 " bytes cleared\n",
			SPARE_BLOCKS, left, heap->cleared_on_zmalloc - cleared);
	if (left == 0)
		return 4;
#ifndef RTE_MALLOC_DEBUG
	/* Debug builds poison spares: then they are cleared. */
	if (heap->cleared_on_zmalloc != cleared)
		return 5;
#endif
	for (i = 0; i < SPARE_BLOCKS; i++) {
		memset(p[i], 0xa5, SPARE_SIZE);
		rte_free(p[i]);
	}
	if (rte_eal_get_physmem_size() != before)
		return 6; /* spares kept a page */
	/* Drained, clean spares clear only the headers that become data. */
	for (i = 0; i < SPARE_BLOCKS; i++)
		if ((p[i] = rte_malloc(NULL, SPARE_SIZE, 0)) == NULL)
			return 12;
	left = cache_spares();
	cleared = heap->cleared_on_free;
	/*
	 * Two to count the headers below; debug builds, which do not count
	 * them, fit fewer spares in a batch with their trailers.
	 */
	if (left < (TEST_MALLOC_DEBUG ? 1u : 2u) ||
			rte_malloc_get_socket_stats(rte_socket_id(), &st) < 0)
		return 13;
#ifndef RTE_MALLOC_DEBUG
	if (heap->cleared_on_free - cleared !=
			(left - 1) * MALLOC_ELEM_HEADER_LEN) {
		printf("%u spares drained: %" PRIu64 " bytes cleared\n", left,
				heap->cleared_on_free - cleared);
		return 14;
	}
#endif
	for (i = 0; i < SPARE_BLOCKS; i++)
		rte_free(p[i]);
	if (rte_eal_get_physmem_size() != before)
		return 15;
	keep = rte_malloc(NULL, ELEM_SIZE, 0);
	if (keep == NULL)
		return 7;
	for (i = 0; i < 50; i++) {
		q = rte_malloc(NULL, SPARE_SIZE, 0);
		if (q == NULL)
			return 8;
		/* Only the first may still carve: the frees before it were
		 * cached. */
		if (i > 0 && my_cache()->size != 0)
			return 9;
		rte_free(q);
	}
	rte_free(keep);
	if (rte_eal_get_physmem_size() != before)
		return 10;
	return child_heap_ok(11);
}

static int
malloc_child_spares(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return spares_child();
}
REGISTER_CHILD_ACTION(malloc_spares, malloc_child_spares)

static int
test_cache_spares_release(void)
{
	if (!spares_carved())
		return TEST_SKIPPED;
	return run_heap_child("malloc_spares", "malloc_spares");
}

/*
 * In the running heap, main lcore: small allocations carve spares, which
 * never overlap a live block and never show in the statistics: they are
 * drained, and alloc_count counts exactly the blocks handed out.
 */
static int
test_cache_spares(void)
{
	enum {
		N = 300
	};
	struct rte_malloc_socket_stats s0, s1;
	char *p[N], *sorted[N];
	unsigned int i, spares = 0;

	if (!spares_carved())
		return TEST_SKIPPED;
	CHECK(stats_get(MAIN_SOCKET, &s0));
	for (i = 0; i < N; i++) {
		size_t len = SPARE_SIZE * (1 + i % 3);

		p[i] = rte_malloc(NULL, len, 0);
		TEST_ASSERT_NOT_NULL(p[i], "block %u", i);
		memset(p[i], (int)(i + 1), len);
		spares = RTE_MAX(spares, cache_spares());
	}
	printf("%u blocks, up to %u spares in the cache\n", N, spares);
	TEST_ASSERT(spares > 0, "no spares carved");
	for (i = 0; i < N; i++) {
		size_t len = SPARE_SIZE * (1 + i % 3);

		TEST_ASSERT_EQUAL(first_not(p[i], len, (uint8_t)(i + 1)), len,
				"block %u overwritten", i);
		TEST_ASSERT_SUCCESS(
				rte_malloc_validate(p[i], NULL), "block %u", i);
	}
	memcpy(sorted, p, sizeof(p));
	qsort(sorted, N, sizeof(sorted[0]), ptr_cmp);
	for (i = 1; i < N; i++)
		TEST_ASSERT(malloc_elem_end(malloc_elem_from_data(
					    sorted[i - 1])) <=
						(void *)malloc_elem_from_data(
								sorted[i]),
				"blocks overlap");
	CHECK(heap_ok());
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count + N, "alloc_count");
	TEST_ASSERT_EQUAL(cache_spares(), 0, "statistics left spares");
	for (i = 0; i < N; i++)
		rte_free(p[i]);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "all freed"));
	return heap_ok();
}

#define RUN_SMALL 6 /* queued blocks on each side of a large one */
#define RUN_LARGE (QUEUED_SIZE + QUEUED_SIZE / 4) /* a size of its own */

static size_t
run_size(unsigned int i)
{
	return i == RUN_SMALL + 1 ? RUN_LARGE : QUEUED_SIZE;
}

/*
 * A run of waiting blocks (queued or cached) with a freed large one
 * inside, between two busy blocks, joins into a single free element when
 * the queue drains. Each
 * byte is cleared once: in a clean heap, exactly the run's bytes after
 * its first header (the blocks' contents and the headers that became
 * data); nothing where the blocks came dirty or were poisoned.
 */
static int
free_waiting_run(void)
{
	/* b[0] and b[n - 1] stay busy; the large block is in the middle. */
	const unsigned int n = 2 * RUN_SMALL + 3, big = RUN_SMALL + 1;
	const unsigned int order[] = { 4, 1, 6, 2, 5, 3, 8, 13, 10, 12, 9, 11 };
	struct rte_malloc_socket_stats s0, s1;
	uint64_t d, want = 0;
	bool clean = true;
	size_t run;
	char *b[n];
	unsigned int i;

	RTE_BUILD_BUG_ON(RTE_DIM(order) != 2 * RUN_SMALL);
	CHECK(alloc_in_order(b, run_size, n));
	for (i = 0; i < n; i++) {
		if (i > 0 && i < n - 1)
			clean = clean &&
					!malloc_elem_is_dirty(
							malloc_elem_from_data(
									b[i]));
		memset(b[i], 0xa5, i == big ? RUN_LARGE : QUEUED_SIZE);
	}
	run = RTE_PTR_DIFF(malloc_elem_from_data(b[0]),
			malloc_elem_from_data(b[n - 2]));
#ifndef RTE_MALLOC_DEBUG
	if (clean)
		want = run - MALLOC_ELEM_HEADER_LEN;
#endif
	CHECK(stats_get(MAIN_SOCKET, &s0));
	for (i = 0; i < RTE_DIM(order); i++) {
		uint8_t w = waiting_state(b[order[i]]);

		rte_free(b[order[i]]);
		TEST_ASSERT_EQUAL(malloc_elem_from_data(b[order[i]])->t.state,
				w,
				"block %u between busy or waiting ones did not wait",
				order[i]);
	}
	CHECK(heap_ok());
	/* Freed at once; it may drain the queue if its page could go back. */
	rte_free(b[big]);
	CHECK(heap_ok());
	CHECK(stats_get(MAIN_SOCKET, &s1));
	d = s1.heap_cleared_on_free_bytes - s0.heap_cleared_on_free_bytes;
	printf("run of %u blocks, %zu bytes (%s): cleared %" PRIu64 "\n", n - 2,
			run, clean ? "clean" : "dirty", d);
	TEST_ASSERT_EQUAL(d, want, "cleared %" PRIu64 " bytes, not %" PRIu64, d,
			want);
	TEST_ASSERT_EQUAL(s1.free_count, s0.free_count + 1,
			"the run is not one free element");
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count - (n - 2),
			"alloc_count");
	TEST_ASSERT_EQUAL(s1.heap_freesz_bytes - s0.heap_freesz_bytes, run,
			"free bytes");
	TEST_ASSERT_EQUAL(malloc_elem_from_data(b[n - 2])->t.state, ELEM_FREE,
			"the run's first element is not free");
	TEST_ASSERT_EQUAL(malloc_elem_from_data(b[n - 2])->size, run,
			"the run's element has %zu bytes, not %zu",
			malloc_elem_from_data(b[n - 2])->size, run);
	rte_free(b[0]);
	rte_free(b[n - 1]);
	return heap_ok();
}

static int
test_free_queued_run(void)
{
	return on_plain_thread(free_waiting_run);
}

static int
test_free_cached_run(void)
{
	return free_waiting_run();
}

/*
 * Child, growing heap: growth maps pages for the whole request without
 * counting the free memory it joins; a whole page the allocation does
 * not reach must go back at once, not wait for a free beside it.
 */
static int
malloc_child_grow_trim(int argc, char **argv)
{
	uint64_t before = rte_eal_get_physmem_size(), pg, want;
	uintptr_t base;
	char *a, *b;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	a = rte_malloc(NULL, 1000, 0);
	if (a == NULL)
		return 1;
	pg = rte_mem_virt2memseg_list(a)->page_sz;
	rte_free(a);
	a = rte_malloc(NULL, pg / 2, 0);
	/* Not enough free memory left for a page: the heap grows by two. */
	b = rte_malloc(NULL, pg, 0);
	if (a == NULL || b == NULL)
		return 2;
	base = RTE_ALIGN_FLOOR((uintptr_t)RTE_MIN(a, b), pg);
	want = RTE_ALIGN_CEIL((uintptr_t)RTE_MAX(a, b) + pg - base, pg);
	printf("mapped %" PRIu64 " bytes for blocks up to %" PRIu64 "\n",
			rte_eal_get_physmem_size() - before, want);
	if (rte_eal_get_physmem_size() - before != want)
		return 3;
	rte_free(b);
	rte_free(a);
	return rte_eal_get_physmem_size() == before ? 0 : 4;
}
REGISTER_CHILD_ACTION(malloc_grow_trim, malloc_child_grow_trim)

static int
test_grow_trim(void)
{
	return run_heap_child("malloc_grow_trim", "malloc_grow_trim");
}

/* ---- statistics ---- */

#define STATS_ALLOCS 48

/*
 * Sizes add up after every step, each allocation adds its element to the
 * allocated bytes and each free takes exactly that back, the heap grows
 * only when nothing fits and by whole pages, and in the end it is what it
 * was.
 */
static int
test_stats_exact(void)
{
	struct rte_malloc_socket_stats s0, prev, cur;
	size_t elem[STATS_ALLOCS], size, need, fit, pg, grew;
	char *p[STATS_ALLOCS];
	const struct rte_memzone *mz;
	unsigned int i, j, k, order[STATS_ALLOCS];
	int cls;

	seed_random("stats");
	CHECK(stats_get(MAIN_SOCKET, &s0));
	cur = s0;
	for (i = 0; i < STATS_ALLOCS; i++) {
		prev = cur;
		/* Elements: sizes above what slabs serve. */
		size = rte_rand_max(8) == 0 ?
				RTE_MB + rte_rand_max(3 * RTE_MB) :
				MALLOC_SLAB_MAX_DATA + rand_size(RTE_MB);
		p[i] = rte_malloc_socket(NULL, size, 0, MAIN_SOCKET);
		TEST_ASSERT_NOT_NULL(p[i], "malloc(%zu)", size);
		CHECK(stats_get(MAIN_SOCKET, &cur));
		TEST_ASSERT_EQUAL(cur.alloc_count, prev.alloc_count + 1,
				"alloc_count");
		elem[i] = cur.heap_allocsz_bytes - prev.heap_allocsz_bytes;
		need = RTE_CACHE_LINE_ROUNDUP(size) + MALLOC_ELEM_OVERHEAD;
		TEST_ASSERT(elem[i] >= need, "malloc(%zu) counted %zu < %zu",
				size, elem[i], need);
		grew = cur.heap_totalsz_bytes - prev.heap_totalsz_bytes;
		pg = rte_mem_virt2memseg_list(p[i])->page_sz;
		TEST_ASSERT_EQUAL(grew % pg, 0, "heap grew by %zu", grew);
		/* A miss of the lcore cache takes its whole size class. */
		cls = malloc_queue_class_for(RTE_CACHE_LINE_ROUNDUP(size));
		fit = cls < 0 ? need :
				malloc_queue_class_data(cls) +
						MALLOC_ELEM_OVERHEAD;
		TEST_ASSERT(grew == 0 || prev.greatest_free_size < fit,
				"grew by %zu with a free block of %zu for %zu",
				grew, prev.greatest_free_size, fit);
		memset(p[i], 0x77, size);
	}
	/* realloc: one element swapped for another, the count unchanged */
	prev = cur;
	p[0] = rte_realloc(p[0], 2 * RTE_MB + 1, 0);
	TEST_ASSERT_NOT_NULL(p[0], "realloc");
	CHECK(stats_get(MAIN_SOCKET, &cur));
	TEST_ASSERT_EQUAL(cur.alloc_count, prev.alloc_count, "realloc count");
	elem[0] += cur.heap_allocsz_bytes - prev.heap_allocsz_bytes;
	/* a memzone counts as an allocation */
	prev = cur;
	mz = rte_memzone_reserve("malloc_stats_mz", 4096, MAIN_SOCKET, 0);
	TEST_ASSERT_NOT_NULL(mz, "memzone: %s", rte_strerror(rte_errno));
	CHECK(stats_get(MAIN_SOCKET, &cur));
	TEST_ASSERT_EQUAL(cur.alloc_count, prev.alloc_count + 1, "memzone");
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "memzone free");
	CHECK(stats_get(MAIN_SOCKET, &cur));
	CHECK(stats_same_shape(&prev, &cur, "memzone reserve and free"));

	for (i = 0; i < STATS_ALLOCS; i++)
		order[i] = i;
	for (i = STATS_ALLOCS - 1; i > 0; i--) {
		j = (unsigned int)rte_rand_max(i + 1);
		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	for (i = 0; i < STATS_ALLOCS; i++) {
		prev = cur;
		rte_free(p[order[i]]);
		CHECK(stats_get(MAIN_SOCKET, &cur));
		TEST_ASSERT_EQUAL(cur.alloc_count + 1, prev.alloc_count,
				"alloc_count after free");
		TEST_ASSERT_EQUAL(prev.heap_allocsz_bytes -
						cur.heap_allocsz_bytes,
				elem[order[i]], "free took back %zu, not %zu",
				prev.heap_allocsz_bytes -
						cur.heap_allocsz_bytes,
				elem[order[i]]);
		TEST_ASSERT_EQUAL((prev.heap_totalsz_bytes -
						  cur.heap_totalsz_bytes) %
						RTE_PGSIZE_2M,
				0, "heap shrank by part of a page");
	}
	CHECK(stats_same_shape(&s0, &cur, "after freeing all"));
	return heap_ok();
}

/* ---- clear once ---- */

static int
count_dirty(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	if (!msl->external && (ms->flags & RTE_MEMSEG_FLAG_DIRTY))
		(*(int *)arg)++;
	return 0;
}

/*
 * The main heap sits on fresh hugepages: zmalloc clears nothing, free
 * clears what it frees (once), and the memory then reads as zero.
 */
static int
test_clear_once_clean(void)
{
	struct rte_malloc_socket_stats s0, s1, before, after;
	const size_t n = MALLOC_SLAB_MAX_DATA + 10000; /* an element */
	char *pin1, *pin2, *pin3, *z, *c, *p, *z2;
	size_t elem, off;
	uint64_t d;
	int dirty = 0;

	rte_memseg_walk(count_dirty, &dirty);
	if (dirty != 0) {
		printf("%d dirty pages in the main heap (reused files)\n",
				dirty);
		return test_skip_hugepages(
				"the clean-heap rules need a fresh heap");
	}
	pin1 = rte_malloc(NULL, 64, 0);
	TEST_ASSERT_NOT_NULL(pin1, "pin");
	CHECK(stats_get(MAIN_SOCKET, &s0));
	z = rte_zmalloc(NULL, n, 0);
	c = rte_calloc(NULL, n / 8, 8, 0);
	TEST_ASSERT(z != NULL && c != NULL, "zmalloc, calloc");
	TEST_ASSERT_EQUAL(first_not(z, n, 0), n, "zmalloc not zero");
	TEST_ASSERT_EQUAL(first_not(c, n, 0), n, "calloc not zero");
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.heap_cleared_on_zmalloc_bytes,
			s0.heap_cleared_on_zmalloc_bytes,
			"zmalloc from a clean heap cleared %" PRIu64 " bytes",
			s1.heap_cleared_on_zmalloc_bytes -
					s0.heap_cleared_on_zmalloc_bytes);
	TEST_ASSERT_EQUAL(s1.heap_cleared_on_free_bytes,
			s0.heap_cleared_on_free_bytes, "nothing freed yet");

	/* p between two live blocks: its pages cannot go back */
	pin2 = rte_malloc(NULL, 64, 0);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	p = rte_malloc(NULL, n, 0);
	CHECK(stats_get(MAIN_SOCKET, &before));
	elem = before.heap_allocsz_bytes - s1.heap_allocsz_bytes;
	pin3 = rte_malloc(NULL, 64, 0);
	TEST_ASSERT(pin2 != NULL && p != NULL && pin3 != NULL, "malloc");
	CHECK(stats_get(MAIN_SOCKET, &before));
	memset(p, 0xa5, n);
	rte_free(p);
	CHECK(stats_get(MAIN_SOCKET, &after));
	TEST_ASSERT_EQUAL(after.heap_totalsz_bytes, before.heap_totalsz_bytes,
			"free of %zu bytes between live blocks gave pages back",
			n);
	d = after.heap_cleared_on_free_bytes -
			before.heap_cleared_on_free_bytes;
	printf("free of a %zu-byte element (%zu asked) cleared %" PRIu64
	       " bytes\n",
			elem, n, d);
	CHECK(check_clean_free(d, elem, n));
	TEST_ASSERT_EQUAL(after.heap_cleared_on_zmalloc_bytes,
			before.heap_cleared_on_zmalloc_bytes, "free zmalloc'd");
	CHECK(heap_ok());

	z2 = rte_zmalloc(NULL, n, 0);
	TEST_ASSERT_NOT_NULL(z2, "zmalloc");
	off = first_not(z2, n, 0);
	TEST_ASSERT_EQUAL(off, n, "zmalloc after free: byte %zu (%s)", off,
			z2 == p ? "same block" : "other block");
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(check_clean_reuse(s1.heap_cleared_on_zmalloc_bytes -
					s0.heap_cleared_on_zmalloc_bytes,
			z2 == p, n));
	rte_free(z2);
	rte_free(c);
	rte_free(z);
	rte_free(pin3);
	rte_free(pin2);
	rte_free(pin1);
	CHECK(stats_get(MAIN_SOCKET, &s0));
	TEST_ASSERT_EQUAL(s0.heap_cleared_on_zmalloc_bytes,
			s1.heap_cleared_on_zmalloc_bytes,
			"free counted as zmalloc");
	return heap_ok();
}

/* An external heap over anonymous memory the test maps and fills. */
struct ext_heap {
	const char *name;
	void *va;
	size_t len;
	int socket;
};

static int
ext_heap_setup(struct ext_heap *h, const char *name, size_t len,
		rte_iova_t *iova)
{
	h->name = name;
	h->len = len;
	h->va = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(h->va != MAP_FAILED, "mmap %zu", len);
	memset(h->va, 0xa5, len);
	TEST_ASSERT_SUCCESS(rte_malloc_heap_create(name), "create %s: %s", name,
			rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_malloc_heap_memory_add(name, h->va, len, iova,
					    len / EXT_PAGE, EXT_PAGE),
			"memory_add: %s", rte_strerror(rte_errno));
	h->socket = rte_malloc_heap_get_socket(name);
	TEST_ASSERT(h->socket >= 256, "socket id %d", h->socket);
	return TEST_SUCCESS;
}

static int
ext_heap_teardown(struct ext_heap *h)
{
	TEST_ASSERT_SUCCESS(
			rte_malloc_heap_memory_remove(h->name, h->va, h->len),
			"memory_remove: %s", rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_malloc_heap_destroy(h->name), "destroy: %s",
			rte_strerror(rte_errno));
	munmap(h->va, h->len);
	return TEST_SUCCESS;
}

static bool
ext_heap_has(const struct ext_heap *h, const void *p, size_t n)
{
	return (uintptr_t)p >= (uintptr_t)h->va &&
			(uintptr_t)p + n <= (uintptr_t)h->va + h->len;
}

/*
 * zmalloc of @p num * @p size bytes from the dirty heap @p h clears
 * exactly that many; freed back into the dirty rest, nothing is cleared.
 */
static int
dirty_zmalloc_free(const struct ext_heap *h, size_t num, size_t size,
		unsigned int align)
{
	struct rte_malloc_socket_stats s0, s1, s2;
	const size_t n = num * size;
	char *z;

	CHECK(stats_get(h->socket, &s0));
	if (num == 1)
		z = rte_zmalloc_socket(NULL, n, align, h->socket);
	else
		z = rte_calloc_socket(NULL, num, size, align, h->socket);
	TEST_ASSERT_NOT_NULL(z, "zeroed alloc of %zu", n);
	CHECK(stats_get(h->socket, &s1));
	TEST_ASSERT(ext_heap_has(h, z, n), "%p outside the heap", z);
	TEST_ASSERT_EQUAL((uintptr_t)z & (RTE_MAX(align, 1u) - 1), 0, "align");
	TEST_ASSERT_EQUAL(first_not(z, n, 0), n, "not zero");
	TEST_ASSERT_EQUAL(s1.heap_cleared_on_zmalloc_bytes -
					s0.heap_cleared_on_zmalloc_bytes,
			n, "zmalloc(%zu) of dirty memory cleared %" PRIu64, n,
			s1.heap_cleared_on_zmalloc_bytes -
					s0.heap_cleared_on_zmalloc_bytes);
	TEST_ASSERT_EQUAL(s1.heap_cleared_on_free_bytes,
			s0.heap_cleared_on_free_bytes, "cleared on free");
	memset(z, 0x3c, n);
	rte_free(z);
	CHECK(stats_get(h->socket, &s2));
	TEST_ASSERT_EQUAL(s2.heap_cleared_on_free_bytes,
			s1.heap_cleared_on_free_bytes,
			"free into dirty memory cleared %" PRIu64 " bytes",
			s2.heap_cleared_on_free_bytes -
					s1.heap_cleared_on_free_bytes);
	TEST_ASSERT_EQUAL(s2.heap_cleared_on_zmalloc_bytes,
			s1.heap_cleared_on_zmalloc_bytes, "cleared on zmalloc");
	CHECK(stats_same_shape(&s0, &s2, "zmalloc and free"));
	return TEST_SUCCESS;
}

/*
 * In a dirty heap, a block freed between two busy ones joins nothing; it
 * came from dirty memory, so it stays dirty and nothing is cleared. A
 * zmalloc served from it, or from the dirty rest, clears its size.
 */
static int
dirty_isolated_free(const struct ext_heap *h)
{
	struct rte_malloc_socket_stats s[4];
	const size_t n = 1000;
	char *p[3], *lo, *mid, *hi, *z;
	size_t e[3], e_mid;
	uint64_t d;
	int i;

	CHECK(stats_get(h->socket, &s[0]));
	for (i = 0; i < 3; i++) {
		p[i] = rte_malloc_socket(NULL, n, 0, h->socket);
		TEST_ASSERT_NOT_NULL(p[i], "malloc");
		CHECK(stats_get(h->socket, &s[i + 1]));
		e[i] = s[i + 1].heap_allocsz_bytes - s[i].heap_allocsz_bytes;
	}
	/* p[1] must lie between the other two, touching both */
	lo = p[0] < p[2] ? p[0] : p[2];
	hi = p[0] < p[2] ? p[2] : p[0];
	mid = p[1];
	e_mid = e[1];
	TEST_ASSERT(lo < mid && mid < hi && (size_t)(hi - mid) == e_mid &&
					(size_t)(mid - lo) ==
							e[lo == p[0] ? 0 : 2],
			"three allocations in a row are not neighbours: %p %p %p",
			p[0], p[1], p[2]);
	memset(mid, 0x77, n);
	CHECK(stats_get(h->socket, &s[0]));
	rte_free(mid);
	CHECK(stats_get(h->socket, &s[1]));
	d = s[1].heap_cleared_on_free_bytes - s[0].heap_cleared_on_free_bytes;
	printf("dirty heap: isolated free of a %zu-byte element cleared %" PRIu64
	       " bytes\n",
			e_mid, d);
	TEST_ASSERT_EQUAL(d, 0,
			"free of memory carved from dirty memory "
			"cleared %" PRIu64 " bytes",
			d);
	CHECK(heap_ok());
	z = rte_zmalloc_socket(NULL, n, 0, h->socket);
	TEST_ASSERT_NOT_NULL(z, "zmalloc");
	TEST_ASSERT_EQUAL(first_not(z, n, 0), n, "zmalloc not zero");
	CHECK(stats_get(h->socket, &s[2]));
	d = s[2].heap_cleared_on_zmalloc_bytes -
			s[1].heap_cleared_on_zmalloc_bytes;
	printf("zmalloc(%zu) %s the freed block: cleared %" PRIu64 "\n", n,
			z == mid ? "reused" : "did not reuse", d);
	TEST_ASSERT_EQUAL(d, n,
			"zmalloc(%zu) from dirty memory cleared %" PRIu64, n,
			d);
	rte_free(z);
	rte_free(p[0]);
	rte_free(p[2]);
	return TEST_SUCCESS;
}

#define DIRTY_LEN (4 * RTE_MB)

static int
test_clear_once_dirty(void)
{
	struct rte_malloc_socket_stats s0, s1;
	struct ext_heap h;
	char *m;

	CHECK(ext_heap_setup(&h, "malloc_dirty", DIRTY_LEN, NULL));
	CHECK(stats_get(h.socket, &s0));
	TEST_ASSERT_EQUAL(s0.heap_totalsz_bytes, DIRTY_LEN, "total");
	TEST_ASSERT(s0.alloc_count == 0 && s0.free_count == 1,
			"%u allocated, %u free elements", s0.alloc_count,
			s0.free_count);
	TEST_ASSERT(s0.heap_cleared_on_free_bytes == 0 &&
					s0.heap_cleared_on_zmalloc_bytes == 0,
			"a new heap has cleared bytes");
	CHECK(dirty_zmalloc_free(&h, 1, 10001, 0));
	CHECK(dirty_zmalloc_free(&h, 7, 999, 64));
	CHECK(dirty_zmalloc_free(&h, 1, 5000, 4096));
	CHECK(dirty_zmalloc_free(&h, 1, 3 * RTE_MB, 0));
	/* plain malloc clears nothing: memory_add did not clear either */
	CHECK(stats_get(h.socket, &s0));
	m = rte_malloc_socket(NULL, DIRTY_LEN / 2, 0, h.socket);
	TEST_ASSERT_NOT_NULL(m, "malloc half the heap");
	TEST_ASSERT(first_not(m, DIRTY_LEN / 2, 0) < DIRTY_LEN / 2,
			"2 MiB of dirty memory reads as zero");
	TEST_ASSERT_EQUAL(rte_malloc_virt2iova(m), RTE_BAD_IOVA,
			"memory added without IOVAs");
	rte_free(m);
	CHECK(stats_get(h.socket, &s1));
	TEST_ASSERT(s1.heap_cleared_on_free_bytes == s0.heap_cleared_on_free_bytes &&
					s1.heap_cleared_on_zmalloc_bytes ==
							s0.heap_cleared_on_zmalloc_bytes,
			"malloc and free of dirty memory cleared some");
	CHECK(dirty_isolated_free(&h));
	CHECK(stats_get(h.socket, &s0));
	TEST_ASSERT_EQUAL(s0.alloc_count, 0, "alloc_count after free");
	TEST_ASSERT_EQUAL(s0.heap_freesz_bytes, DIRTY_LEN, "free bytes");
	CHECK(heap_ok());
	return ext_heap_teardown(&h);
}

/* ---- external heaps ---- */

static int
expect_errno(int ret, int err, const char *what)
{
	TEST_ASSERT_EQUAL(ret, -1, "%s returned %d", what, ret);
	TEST_ASSERT_EQUAL(rte_errno, err, "%s: rte_errno %d (%s), not %d", what,
			rte_errno, rte_strerror(rte_errno), err);
	return TEST_SUCCESS;
}

static int
test_ext_heap_create_errors(void)
{
	char name[RTE_HEAP_NAME_MAX_LEN + 1];

	CHECK(expect_errno(rte_malloc_heap_create(NULL), EINVAL, "NULL"));
	CHECK(expect_errno(rte_malloc_heap_create(""), EINVAL, "empty"));
	memset(name, 'n', RTE_HEAP_NAME_MAX_LEN);
	name[RTE_HEAP_NAME_MAX_LEN] = '\0';
	CHECK(expect_errno(rte_malloc_heap_create(name), EINVAL, "32 chars"));
	name[RTE_HEAP_NAME_MAX_LEN - 1] = '\0';
	TEST_ASSERT_SUCCESS(rte_malloc_heap_create(name), "31 chars: %s",
			rte_strerror(rte_errno));
	CHECK(expect_errno(rte_malloc_heap_create(name), EEXIST, "twice"));
	TEST_ASSERT_SUCCESS(rte_malloc_heap_destroy(name), "destroy: %s",
			rte_strerror(rte_errno));
	CHECK(expect_errno(rte_malloc_heap_destroy(name), ENOENT, "again"));
	CHECK(expect_errno(rte_malloc_heap_destroy(NULL), EINVAL, "NULL"));
	CHECK(expect_errno(
			rte_malloc_heap_destroy("malloc_nosuch"), ENOENT, "?"));
	CHECK(expect_errno(rte_malloc_heap_get_socket(NULL), EINVAL, "NULL"));
	CHECK(expect_errno(rte_malloc_heap_get_socket("malloc_nosuch"), ENOENT,
			"get_socket of an unknown heap"));
	TEST_ASSERT_EQUAL(rte_malloc_heap_socket_is_external(MAIN_SOCKET), 0,
			"socket 0");
	CHECK(expect_errno(rte_malloc_heap_socket_is_external(12345), EINVAL,
			"bogus socket"));
	return TEST_SUCCESS;
}

#define EXT_LEN (2 * RTE_MB)

static int
test_ext_heap_memory_errors(void)
{
	const size_t npg = EXT_LEN / EXT_PAGE;
	struct rte_malloc_socket_stats st;
	static rte_iova_t iova[EXT_LEN / EXT_PAGE];
	const char *nm = "malloc_ext";
	char *va, *p;
	int sock;

	va = mmap(NULL, EXT_LEN, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(va != MAP_FAILED, "mmap");
	TEST_ASSERT_SUCCESS(rte_malloc_heap_create(nm), "create");
	CHECK(expect_errno(rte_malloc_heap_memory_add("malloc_nosuch", va,
					   EXT_LEN, NULL, npg, EXT_PAGE),
			ENOENT, "unknown heap"));
	CHECK(expect_errno(rte_malloc_heap_memory_add(nm, va + 64, EXT_LEN,
					   NULL, npg, EXT_PAGE),
			EINVAL, "misaligned va"));
	CHECK(expect_errno(rte_malloc_heap_memory_add(nm, va, EXT_LEN - 64,
					   NULL, npg, EXT_PAGE),
			EINVAL, "misaligned len"));
	CHECK(expect_errno(rte_malloc_heap_memory_add(nm, va, EXT_LEN, iova,
					   npg - 1, EXT_PAGE),
			EINVAL, "n_pages mismatch"));
	CHECK(expect_errno(rte_malloc_heap_memory_add(nm, va, EXT_LEN, NULL,
					   npg / 3, 3 * EXT_PAGE),
			EINVAL, "page size not a power of two"));
	CHECK(expect_errno(rte_malloc_heap_memory_add(nm, NULL, EXT_LEN, NULL,
					   npg, EXT_PAGE),
			EINVAL, "NULL va"));
	TEST_ASSERT_SUCCESS(rte_malloc_heap_memory_add(nm, va, EXT_LEN, NULL,
					    npg, EXT_PAGE),
			"memory_add: %s", rte_strerror(rte_errno));
	CHECK(expect_errno(rte_malloc_heap_memory_add(nm, va, EXT_LEN, NULL,
					   npg, EXT_PAGE),
			EEXIST, "added twice"));
	CHECK(expect_errno(rte_malloc_heap_destroy(nm), EBUSY, "with memory"));
	sock = rte_malloc_heap_get_socket(nm);
	TEST_ASSERT_EQUAL(rte_malloc_heap_socket_is_external(sock), 1, "ext");
	p = rte_malloc_socket(NULL, 1000, 0, sock);
	TEST_ASSERT_NOT_NULL(p, "malloc from the heap");
	TEST_ASSERT(p >= va && p + 1000 <= va + EXT_LEN, "%p outside", p);
	TEST_ASSERT_NULL(rte_malloc_socket(NULL, EXT_LEN, 0, sock),
			"more than the heap has");
	CHECK(expect_errno(rte_malloc_heap_memory_remove(nm, va, EXT_LEN),
			EBUSY, "remove while allocated"));
	rte_free(p);
	CHECK(expect_errno(rte_malloc_heap_memory_remove(
					   nm, va + EXT_PAGE, EXT_PAGE),
			ENOENT, "remove part of the memory"));
	TEST_ASSERT_SUCCESS(rte_malloc_heap_memory_remove(nm, va, EXT_LEN),
			"remove: %s", rte_strerror(rte_errno));
	CHECK(expect_errno(rte_malloc_heap_memory_remove(nm, va, EXT_LEN),
			ENOENT, "removed twice"));
	TEST_ASSERT_SUCCESS(rte_malloc_heap_destroy(nm), "destroy: %s",
			rte_strerror(rte_errno));
	CHECK(expect_errno(rte_malloc_heap_socket_is_external(sock), EINVAL,
			"socket of a destroyed heap"));
	TEST_ASSERT_EQUAL(rte_malloc_get_socket_stats(sock, &st), -1, "stats");
	TEST_ASSERT_NULL(rte_malloc_socket(NULL, 64, 0, sock), "malloc");
	/* the name is free again */
	TEST_ASSERT_SUCCESS(rte_malloc_heap_create(nm), "create again: %s",
			rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_malloc_heap_destroy(nm), "destroy");
	munmap(va, EXT_LEN);
	return heap_ok();
}

#define EXT_ALLOCS 64

/* External memory has no file rtemem knows: no descriptor for it. */
static int
ext_heap_no_fd(const struct ext_heap *h)
{
	const struct rte_memseg *ms = rte_mem_virt2memseg(h->va, NULL);
	size_t off = 7;

	TEST_ASSERT_NOT_NULL(ms, "no memseg for external memory");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_memseg_get_fd(ms), -1, "get_fd");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "get_fd errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_memseg_get_fd_offset(ms, &off), -1, "offset");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "offset errno %d", rte_errno);
	TEST_ASSERT_EQUAL(off, 7, "offset written on failure");
	return TEST_SUCCESS;
}

/* Allocations lie inside the memory; IOVAs follow the page array. */
static int
test_ext_heap_alloc_iova(void)
{
	static rte_iova_t iova[EXT_LEN / EXT_PAGE];
	struct range r[EXT_ALLOCS];
	char *p[EXT_ALLOCS];
	struct ext_heap h;
	size_t i, size, off, pg, k;
	rte_iova_t got, want;

	/* not contiguous, descending: page i at 0x40000000 + (N - i) * 64K */
	for (i = 0; i < RTE_DIM(iova); i++)
		iova[i] = 0x40000000 + (RTE_DIM(iova) - i) * 0x10000;
	CHECK(ext_heap_setup(&h, "malloc_iova", EXT_LEN, iova));
	CHECK(ext_heap_no_fd(&h));
	seed_random("ext heap");
	for (i = 0; i < EXT_ALLOCS; i++) {
		size = rand_size(16 * 1024);
		p[i] = alloc_kind(i % 3, size, 0, h.socket);
		TEST_ASSERT_NOT_NULL(p[i], "alloc %zu of %zu", i, size);
		TEST_ASSERT(ext_heap_has(&h, p[i], size), "%p outside", p[i]);
		memset(p[i], (int)i, size);
		r[i].start = (uintptr_t)p[i];
		r[i].end = r[i].start + size;
		for (k = 0; k < size; k += 1 + size / 4) {
			off = (size_t)(p[i] + k - (char *)h.va);
			pg = off / EXT_PAGE;
			want = iova[pg] + off % EXT_PAGE;
			got = rte_malloc_virt2iova(p[i] + k);
			TEST_ASSERT_EQUAL(got, want,
					"virt2iova(%p) = %#" PRIx64
					", want %#" PRIx64,
					p[i] + k, got, want);
		}
	}
	CHECK(ranges_disjoint(r, EXT_ALLOCS));
	CHECK(heap_ok());
	for (i = 0; i < EXT_ALLOCS; i++)
		rte_free(p[i]);
	return ext_heap_teardown(&h);
}

/* Small allocations that, carved from the top, fill one page exactly. */
#define EXT_RUN_END_ALLOCS \
	(EXT_PAGE / (MALLOC_ELEM_OVERHEAD + RTE_CACHE_LINE_SIZE))

/*
 * A free element cut down to end on a page boundary must be in the
 * run-end array: carving small blocks from the top of the memory moves
 * the free element's end down one page after EXT_RUN_END_ALLOCS of them.
 */
static int
test_ext_heap_run_end(void)
{
	void *p[EXT_RUN_END_ALLOCS];
	const struct malloc_elem *e;
	struct ext_heap h;
	unsigned int i, n;
	int ret = TEST_FAILED;

	CHECK(ext_heap_setup(&h, "malloc_run_end", EXT_LEN, NULL));
	for (n = 0; n < RTE_DIM(p); n++) {
		p[n] = rte_malloc_socket(
				NULL, RTE_CACHE_LINE_SIZE, 0, h.socket);
		if (p[n] == NULL)
			break;
	}
	/* The last block starts a page: the free memory below ends there. */
	e = n == RTE_DIM(p) ? malloc_elem_from_data(p[n - 1]) : NULL;
	if (e == NULL)
		printf("allocation %u of %zu failed\n", n, RTE_DIM(p));
	else if (RTE_PTR_DIFF(e, h.va) != EXT_LEN - EXT_PAGE)
		printf("last block at %p, not a page below the top\n", e);
	else
		ret = heap_ok();
	/* Torn down in any case, so that later checks do not see it. */
	for (i = 0; i < n; i++)
		rte_free(p[i]);
	CHECK(ext_heap_teardown(&h));
	return ret;
}

/* ---- sockets and IOVAs ---- */

static int
test_malloc_sockets(void)
{
	const struct rte_memseg *ms;
	char *p, *a, *q;

	p = rte_malloc_socket(NULL, 100, 0, MAIN_SOCKET);
	TEST_ASSERT_NOT_NULL(p, "socket 0");
	ms = rte_mem_virt2memseg(p, NULL);
	TEST_ASSERT(ms != NULL && ms->socket_id == MAIN_SOCKET, "page socket");
	a = rte_malloc_socket(NULL, 100, 0, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(a, "SOCKET_ID_ANY");
	ms = rte_mem_virt2memseg(a, NULL);
	TEST_ASSERT(ms != NULL && ms->socket_id == (int)rte_socket_id(),
			"SOCKET_ID_ANY not on the caller's node");
	TEST_ASSERT_NULL(rte_malloc_socket(NULL, 100, 0, EMPTY_SOCKET),
			"socket with no memory");
	TEST_ASSERT_NULL(rte_zmalloc_socket(NULL, 100, 0, EMPTY_SOCKET), "z");
	TEST_ASSERT_NULL(rte_calloc_socket(NULL, 1, 100, 0, EMPTY_SOCKET), "c");
	TEST_ASSERT_NULL(rte_malloc_socket(NULL, 100, 0, RTE_MAX_NUMA_NODES),
			"socket past the last node");
	TEST_ASSERT_NULL(rte_malloc_socket(NULL, 100, 0, -7), "socket -7");
	fill_seq(p, 100, 5);
	TEST_ASSERT_NULL(rte_realloc_socket(p, 50, 0, EMPTY_SOCKET),
			"realloc to a socket with no memory");
	TEST_ASSERT_EQUAL(check_seq(p, 100, 5), 100, "content lost");
	q = rte_realloc_socket(p, 5000, 0, MAIN_SOCKET);
	TEST_ASSERT_NOT_NULL(q, "realloc on socket 0");
	TEST_ASSERT_EQUAL(check_seq(q, 100, 5), 100, "content lost");
	TEST_ASSERT_EQUAL(rte_mem_virt2memseg(q, NULL)->socket_id, MAIN_SOCKET,
			"socket");
	rte_free(q);
	rte_free(a);
	return heap_ok();
}

static int
test_malloc_iova(void)
{
	rte_iova_t iova;
	int local;
	char *p, *g;

	p = rte_malloc(NULL, 3 * RTE_MB, 0);
	g = malloc(64);
	TEST_ASSERT(p != NULL && g != NULL, "malloc");
	iova = rte_malloc_virt2iova(p);
	TEST_ASSERT_NOT_EQUAL(iova, RTE_BAD_IOVA, "heap memory has no IOVA");
	TEST_ASSERT_EQUAL(iova, rte_mem_virt2iova(p), "virt2iova disagree");
	TEST_ASSERT_EQUAL(rte_malloc_virt2iova(p + 2 * RTE_MB + 77),
			rte_mem_virt2iova(p + 2 * RTE_MB + 77), "second page");
	TEST_ASSERT_EQUAL(rte_malloc_virt2iova(&local), RTE_BAD_IOVA, "stack");
	TEST_ASSERT_EQUAL(rte_malloc_virt2iova(g), RTE_BAD_IOVA, "glibc");
	free(g);
	rte_free(p);
	return TEST_SUCCESS;
}

/* ---- the log line of a failed allocation ---- */

/* Run one failing allocation with MALLOC at DEBUG; check its line. */
static int
fail_log_check(size_t size, unsigned int align, int socket, const char *want)
{
	uint32_t level = (uint32_t)rte_log_get_level(RTE_LOGTYPE_MALLOC);
	uint32_t global = rte_log_get_global_level();
	FILE *old = rte_log_get_stream();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	void *p;

	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	rte_openlog_stream(f);
	rte_log_set_global_level(RTE_LOG_DEBUG);
	rte_log_set_level(RTE_LOGTYPE_MALLOC, RTE_LOG_DEBUG);
	p = rte_malloc_socket(NULL, size, align, socket);
	rte_log_set_level(RTE_LOGTYPE_MALLOC, level);
	rte_log_set_global_level(global);
	rte_openlog_stream(old);
	fclose(f);
	rte_free(p);
	TEST_ASSERT(p == NULL, "%zu bytes on socket %d allocated", size,
			socket);
	TEST_ASSERT(buf != NULL && strstr(buf, want) != NULL,
			"log \"%s\", expected \"%s\"", buf ? buf : "", want);
	TEST_ASSERT(strchr(buf, '\n') == buf + strlen(buf) - 1,
			"more than one line: \"%s\"", buf);
	free(buf);
	return TEST_SUCCESS;
}

static int
test_malloc_fail_log(void)
{
	TEST_ASSERT_SUCCESS(
			fail_log_check(0, 0, SOCKET_ID_ANY,
					"MALLOC: allocation of 0 bytes (align "
					"0) on socket -1 failed: size 0\n"),
			"size 0");
	TEST_ASSERT_SUCCESS(fail_log_check(64, 3, SOCKET_ID_ANY,
					    "failed: alignment not a power of "
					    "two\n"),
			"align 3");
	TEST_ASSERT_SUCCESS(
			fail_log_check(64, 0, 20,
					"allocation of 64 bytes (align 0) on "
					"socket 20 failed: no heap has this "
					"socket id\n"),
			"socket 20");
	TEST_ASSERT_SUCCESS(
			fail_log_check((size_t)1 << 44, 0, SOCKET_ID_ANY,
					"failed: it needs more pages than one "
					"memseg list holds\n"),
			"16 TiB");
	return TEST_SUCCESS;
}

/* ---- dumps ---- */

/* Run @p fn into a string; the caller frees it. */
static char *
dump_to_string(void (*fn)(FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	fn(f);
	fclose(f);
	return buf;
}

static void
dump_stats(FILE *f)
{
	rte_malloc_dump_stats(f, NULL);
}

/*
 * The stats dump names every heap with its socket and its figures; the
 * heap dump lists each heap's elements, the live allocation among them.
 */
static int
test_malloc_dump(void)
{
	struct rte_malloc_socket_stats s0;
	char *stats, *heaps, want[160];
	struct ext_heap h;
	char *p;
	int ret = TEST_SUCCESS;

	/* Not a slab object: the dump lists it as an element. */
	p = rte_malloc(NULL, MALLOC_SLAB_MAX_DATA + 1, 0);
	TEST_ASSERT_NOT_NULL(p, "malloc");
	CHECK(ext_heap_setup(&h, "malloc_dump", EXT_LEN, NULL));
	CHECK(stats_get(MAIN_SOCKET, &s0));
	stats = dump_to_string(dump_stats);
	heaps = dump_to_string(rte_malloc_dump_heaps);
	TEST_ASSERT(stats != NULL && heaps != NULL, "open_memstream");
	printf("%s", stats);
	if (strstr(stats, ": socket_0, socket 0\n") == NULL)
		ret = TEST_FAILED;
	snprintf(want, sizeof(want), "\ttotal %zu, free %zu, allocated %zu",
			s0.heap_totalsz_bytes, s0.heap_freesz_bytes,
			s0.heap_allocsz_bytes);
	if (strstr(stats, want) == NULL)
		ret = TEST_FAILED;
	snprintf(want, sizeof(want), ": malloc_dump, socket %d\n\ttotal %zu",
			h.socket, (size_t)EXT_LEN);
	if (strstr(stats, want) == NULL)
		ret = TEST_FAILED;
	snprintf(want, sizeof(want), "Heap malloc_dump (socket %d): %zu bytes",
			h.socket, (size_t)EXT_LEN);
	if (strstr(heaps, want) == NULL ||
			strstr(heaps, "Heap socket_0") == NULL)
		ret = TEST_FAILED;
	snprintf(want, sizeof(want), "elem %p: BUSY",
			(void *)(p - MALLOC_ELEM_HEADER_LEN));
	if (strstr(heaps, want) == NULL)
		ret = TEST_FAILED;
	if (ret != TEST_SUCCESS)
		printf("last expected \"%s\"; heap dump:\n%s", want, heaps);
	free(stats);
	free(heaps);
	rte_free(p);
	TEST_ASSERT_SUCCESS(ret, "dump lacks a heap or an element");
	return ext_heap_teardown(&h);
}

/* ---- multi-thread stress ---- */

#define STRESS_ROUNDS 20000
#define STRESS_LIVE 256
#define STRESS_MAX (256 * 1024)
#define STRESS_BIG_MAX (4 * RTE_MB)

struct stress_obj {
	char *p;
	size_t size;
	uint8_t tag; /* every byte of p[0, size) */
};

/* One lcore's share, written only by that lcore. */
struct stress_lcore {
	struct stress_obj obj[STRESS_LIVE];
	unsigned int live;
	unsigned int tags; /* tags handed out */
	unsigned long ops[5]; /* malloc, zmalloc, calloc, realloc, free */
	bool done; /* ran every round and freed everything */
	char err[200]; /* the first failure */
} __rte_cache_aligned;

static int
stress_fail(struct stress_lcore *st, unsigned int round, const char *what,
		const void *p, size_t size)
{
	if (st->err[0] != '\0')
		return -1; /* keep the first failure */
	snprintf(st->err, sizeof(st->err),
			"lcore %u round %u: %s (%p, %zu bytes)", rte_lcore_id(),
			round, what, p, size);
	return -1;
}

static size_t
stress_size(void)
{
	if (rte_rand_max(128) == 0)
		return 1 + rte_rand_max(STRESS_BIG_MAX);
	return rand_size(STRESS_MAX);
}

static unsigned int
stress_align(void)
{
	return rte_rand_max(2) ? 0 : 1u << rte_rand_max(13);
}

static uint8_t
stress_tag(struct stress_lcore *st)
{
	return (uint8_t)(1 + (rte_lcore_id() * 97 + st->tags++) % 255);
}

/* Check a fresh block and give it its tag. */
static int
stress_take(struct stress_lcore *st, unsigned int round, struct stress_obj *o,
		size_t size, unsigned int align)
{
	size_t usable;

	if (o->p == NULL)
		return stress_fail(st, round, "allocation failed", NULL, size);
	if (align != 0 && ((uintptr_t)o->p & (align - 1)) != 0)
		return stress_fail(st, round, "misaligned", o->p, align);
	if (rte_malloc_validate(o->p, &usable) != 0 || usable < size)
		return stress_fail(st, round, "validate", o->p, size);
	o->size = size;
	o->tag = stress_tag(st);
	memset(o->p, o->tag, size);
	return 0;
}

static int
stress_alloc(struct stress_lcore *st, unsigned int round)
{
	struct stress_obj *o = &st->obj[st->live];
	unsigned int kind = (unsigned int)rte_rand_max(3);
	unsigned int align = stress_align();
	size_t size = stress_size();

	o->p = alloc_kind(kind, size, align, SOCKET_ID_ANY);
	if (o->p != NULL && kind != 0 && first_not(o->p, size, 0) != size)
		return stress_fail(
				st, round, "zeroed memory is not", o->p, size);
	if (stress_take(st, round, o, size, align) != 0)
		return -1;
	st->ops[kind]++;
	st->live++;
	return 0;
}

static int
stress_realloc(struct stress_lcore *st, unsigned int round, unsigned int i)
{
	struct stress_obj *o = &st->obj[i];
	unsigned int align = stress_align();
	size_t size = stress_size(), keep = RTE_MIN(size, o->size);
	char *old = o->p;

	if (first_not(o->p, o->size, o->tag) != o->size)
		return stress_fail(st, round, "overwritten", o->p, o->size);
	o->p = rte_realloc(o->p, size, align);
	if (o->p == NULL) {
		o->p = old; /* still ours: freed at the end */
		return stress_fail(st, round, "realloc failed", old, size);
	}
	if (first_not(o->p, keep, o->tag) != keep)
		return stress_fail(
				st, round, "realloc lost content", o->p, keep);
	st->ops[3]++;
	return stress_take(st, round, o, size, align);
}

static int
stress_free(struct stress_lcore *st, unsigned int round, unsigned int i)
{
	struct stress_obj *o = &st->obj[i];

	if (first_not(o->p, o->size, o->tag) != o->size)
		return stress_fail(st, round, "overwritten", o->p, o->size);
	rte_free(o->p);
	*o = st->obj[--st->live];
	st->ops[4]++;
	return 0;
}

static int
stress_lcore(void *arg)
{
	struct stress_lcore *st = &((struct stress_lcore *)arg)[rte_lcore_id()];
	unsigned int round, op, i;
	int ret = 0;

	for (round = 0; round < STRESS_ROUNDS && ret == 0; round++) {
		op = (unsigned int)rte_rand_max(100);
		i = (unsigned int)rte_rand_max(RTE_MAX(st->live, 1u));
		if (st->live == 0 || (st->live < STRESS_LIVE && op < 50))
			ret = stress_alloc(st, round);
		else if (op < 80)
			ret = stress_free(st, round, i);
		else
			ret = stress_realloc(st, round, i);
	}
	while (st->live > 0) {
		if (stress_free(st, round, st->live - 1) != 0) {
			rte_free(st->obj[st->live - 1].p);
			st->live--;
		}
	}
	st->done = ret == 0 && st->err[0] == '\0';
	return ret;
}

static int
test_malloc_stress_mt(void)
{
	struct rte_malloc_socket_stats s0, s1;
	struct stress_lcore *st;
	unsigned int lc, n = 0;
	unsigned long ops[5] = { 0 };
	int ret, i, failed = 0;

	st = calloc(RTE_MAX_LCORE, sizeof(*st));
	TEST_ASSERT_NOT_NULL(st, "calloc");
	CHECK(stats_get(MAIN_SOCKET, &s0));
	seed_random("stress");
	if (rte_lcore_count() < 2)
		printf("one lcore: the stress runs without concurrency\n");
	ret = rte_eal_mp_remote_launch(stress_lcore, st, CALL_MAIN);
	TEST_ASSERT_SUCCESS(ret, "launch: %d", ret);
	rte_eal_mp_wait_lcore();
	RTE_LCORE_FOREACH (lc) {
		n++;
		for (i = 0; i < 5; i++)
			ops[i] += st[lc].ops[i];
		if (!st[lc].done) {
			printf("%s\n",
					st[lc].err[0] ? st[lc].err :
							"lcore did not finish");
			failed++;
		}
	}
	free(st);
	printf("stress on %u lcores: %lu malloc, %lu zmalloc, %lu calloc, "
	       "%lu realloc, %lu free\n",
			n, ops[0], ops[1], ops[2], ops[3], ops[4]);
	TEST_ASSERT_EQUAL(failed, 0, "%d lcores failed", failed);
	CHECK(heap_ok());
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "after the stress"));
	return TEST_SUCCESS;
}

/* A worker allocating and freeing one small block until told to stop. */
struct churn {
	volatile bool stop;
	unsigned long ops;
};

static int
churn_lcore(void *arg)
{
	struct churn *c = arg;
	void *x;

	while (!c->stop) {
		x = rte_malloc(NULL, 64, 0);
		rte_free(x);
		c->ops++;
	}
	return 0;
}

#define RACE_SECONDS 0.3
#define RACE_FREES 20000

/*
 * A live block stays valid while another lcore carves and frees its
 * neighbour: checking a pointer must not see the neighbour half-changed.
 * First rte_malloc_validate() of a fixed block, then rte_free() of blocks
 * next to the worker's, which must all be taken back (no leak).
 */
static int
test_malloc_validate_race(void)
{
	struct churn c = { .stop = false, .ops = 0 };
	struct rte_malloc_socket_stats s0, s1;
	unsigned long n = 0, bad = 0, i;
	unsigned int worker;
	size_t usable = 0;
	int log_level;
	uint64_t end;
	char *p, *q;

	if (rte_lcore_count() < 2) {
		printf("one lcore: nothing can race\n");
		return TEST_SKIPPED;
	}
	worker = rte_get_next_lcore(-1, 1, 0);
	p = rte_malloc(NULL, ELEM_SIZE, 0);
	TEST_ASSERT_NOT_NULL(p, "malloc");
	CHECK(stats_get(MAIN_SOCKET, &s0));
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(churn_lcore, &c, worker),
			"launch");
	end = rte_rdtsc() + (uint64_t)(RACE_SECONDS * rte_get_tsc_hz());
	while (rte_rdtsc() < end) {
		if (rte_malloc_validate(p, &usable) != 0 || usable < 4096)
			bad++;
		n++;
	}
	/* each refused free logs an error: keep the output short */
	log_level = rte_log_get_level(RTE_LOGTYPE_MALLOC);
	rte_log_set_level(RTE_LOGTYPE_MALLOC, RTE_LOG_CRIT);
	for (i = 0; i < RACE_FREES; i++) {
		q = rte_malloc(NULL, ELEM_SIZE, 0);
		if (q != NULL)
			rte_free(q);
	}
	c.stop = true;
	rte_eal_wait_lcore(worker);
	rte_log_set_level(RTE_LOGTYPE_MALLOC, (uint32_t)log_level);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	printf("%lu checks of a live block, %lu refused; %d of %d frees "
	       "refused; the worker did %lu malloc+free\n",
			n, bad, (int)(s1.alloc_count - s0.alloc_count),
			RACE_FREES, c.ops);
	TEST_ASSERT(c.ops > 0, "the worker did not run");
	TEST_ASSERT_EQUAL(bad, 0, "a live block was refused %lu times", bad);
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count,
			"%u blocks leaked: rte_free refused them",
			s1.alloc_count - s0.alloc_count);
	rte_free(p);
	return heap_ok();
}

/* ---- lcore caches taken by another thread ---- */

#define CACHE_BLOCKS 16 /* freed by a worker, between two kept busy */

/*
 * The first worker lcore in *@p worker, or TEST_SKIPPED after printing
 * why no other lcore's cache can take part, then @p what.
 */
static int
cache_worker(const char *what, unsigned int *worker)
{
	if (rte_lcore_count() < 2 || !caches_on()) {
		printf("%s: %s\n", caches_on() ? "one lcore" : "caches off",
				what);
		return TEST_SKIPPED;
	}
	*worker = rte_get_next_lcore(-1, 1, 0);
	return TEST_SUCCESS;
}

struct cache_fill {
	char *p[CACHE_BLOCKS + 2];
};

static size_t
cache_fill_size(unsigned int i)
{
	return MALLOC_SLAB_MAX_DATA + 64 * (1 + i % 4);
}

/* Write the blocks, then free all but the first and the last. */
static int
cache_fill_lcore(void *arg)
{
	struct cache_fill *f = arg;
	unsigned int i;

	for (i = 0; i < RTE_DIM(f->p); i++)
		memset(f->p[i], 0xa5, cache_fill_size(i));
	for (i = 1; i <= CACHE_BLOCKS; i++)
		rte_free(f->p[i]);
	return 0;
}

/*
 * Small blocks a worker lcore frees wait in its cache while it is idle.
 * The main lcore's statistics take them from it: the figures are exact,
 * and the worker's cache works again afterwards. A block whose neighbour
 * header lies on another page is queued instead.
 */
static int
test_cache_drained_by_other(void)
{
	struct rte_malloc_socket_stats s0, s1;
	unsigned int worker, i, round, cached, queued;
	struct cache_fill f;

	if (cache_worker("no other lcore's cache", &worker) != TEST_SUCCESS)
		return TEST_SKIPPED;
	CHECK(stats_get(MAIN_SOCKET, &s0));
	for (round = 0; round < 2; round++) {
		CHECK(alloc_in_order(f.p, cache_fill_size, RTE_DIM(f.p)));
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(cache_fill_lcore, &f,
						    worker),
				"launch");
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
		cached = queued = 0;
		for (i = 1; i <= CACHE_BLOCKS; i++) {
			uint8_t st = malloc_elem_from_data(f.p[i])->t.state;
			uint8_t want = cache_takes(f.p[i]) ? ELEM_CACHED :
							     ELEM_QUEUED;

			TEST_ASSERT_EQUAL(st, want, "round %u: block %u", round,
					i);
			cached += st == ELEM_CACHED;
			queued += st == ELEM_QUEUED;
		}
		printf("round %u: %u frees cached, %u queued\n", round, cached,
				queued);
		CHECK(heap_ok());
		CHECK(stats_get(MAIN_SOCKET, &s1));
		TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count + 2,
				"round %u: alloc_count", round);
		rte_free(f.p[0]);
		rte_free(f.p[CACHE_BLOCKS + 1]);
	}
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "all freed"));
	return heap_ok();
}

/* What a registered thread saw of its 1 KB blocks. */
struct reg_cache {
	unsigned int id; /* its lcore id once registered */
	uint8_t state; /* state of the middle block once freed */
	uint8_t state_after; /* the same, after rte_thread_unregister() */
	char *p[3]; /* the blocks, by address; p[1] freed */
};

/*
 * Three blocks of QUEUED_SIZE in @p p, by address, and the middle one
 * freed: @return its state then, or 0 if an allocation failed.
 */
static uint8_t
reg_cache_free_middle(char *p[3])
{
	unsigned int i, j;

	for (i = 0; i < 3; i++)
		p[i] = rte_malloc(NULL, QUEUED_SIZE, 0);
	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			if (p[j] < p[i]) {
				char *t = p[i];

				p[i] = p[j];
				p[j] = t;
			}
	if (p[0] == NULL || p[1] == NULL || p[2] == NULL)
		return 0;
	rte_free(p[1]);
	return malloc_elem_from_data(p[1])->t.state;
}

static void *
reg_cache_main(void *arg)
{
	struct reg_cache *r = arg;
	char *q[3];

	r->id = rte_thread_register() == 0 ? rte_lcore_id() : LCORE_ID_ANY;
	r->state = reg_cache_free_middle(r->p);
	rte_thread_unregister();
	/* The lcore's cache, which it kept, is no longer its own. */
	r->state_after = reg_cache_free_middle(q);
	rte_free(q[0]);
	rte_free(q[2]);
	return NULL;
}

/*
 * A thread that is no lcore gets a cache once it registers an lcore id:
 * a block above slab sizes it frees between two busy ones waits there,
 * where an unregistered thread's would go to the heap's queue, as it
 * does again once the thread unregisters. Its cached block stays for the
 * id's next thread; a drain (the statistics) frees it.
 */
static int
test_cache_registered_thread(void)
{
	struct rte_malloc_socket_stats s0, s1;
	struct reg_cache r;
	pthread_t th;

	memset(&r, 0, sizeof(r));
	CHECK(stats_get(MAIN_SOCKET, &s0));
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, reg_cache_main, &r),
			"pthread_create");
	pthread_join(th, NULL);
	TEST_ASSERT(r.id < RTE_MAX_LCORE, "the thread got no lcore id");
	TEST_ASSERT(r.p[0] != NULL && r.p[1] != NULL && r.p[2] != NULL,
			"allocation failed");
	TEST_ASSERT_EQUAL(r.state, ELEM_CACHED,
			"a registered thread's free was not cached (state %u)",
			r.state);
	TEST_ASSERT_EQUAL(r.state_after, ELEM_QUEUED,
			"an unregistered thread's free was not queued (state %u)",
			r.state_after);
	rte_free(r.p[0]);
	rte_free(r.p[2]);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count,
			"alloc_count %u -> %u", s0.alloc_count, s1.alloc_count);
	return heap_ok();
}

/* Bind the worker's cache to the heap: one small block through it. */
static int
cache_bind_lcore(void *arg)
{
	RTE_SET_USED(arg);
	rte_free(rte_malloc(NULL, 64, 0));
	return 0;
}

/*
 * Blocks of mixed sizes, side by side, wait in the main lcore's cache
 * while a worker's cache is bound to the heap but empty. A drain then
 * takes only the main lcore's cache, and must join the blocks of every
 * size into one free element, as if each had been freed at once.
 */
static int
test_cache_drain_own_mixed(void)
{
	struct rte_malloc_socket_stats s0, s1;
	struct malloc_elem *e, *end;
	unsigned int worker, i, cached = 0;
	struct cache_fill f;

	if (cache_worker("no other lcore's cache", &worker) != TEST_SUCCESS)
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(
			rte_eal_remote_launch(cache_bind_lcore, NULL, worker),
			"launch");
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	/* Empties the worker's cache, which stays bound. */
	CHECK(stats_get(MAIN_SOCKET, &s0));
	CHECK(alloc_in_order(f.p, cache_fill_size, RTE_DIM(f.p)));
	for (i = 1; i <= CACHE_BLOCKS; i++) {
		rte_free(f.p[i]);
		cached += malloc_elem_from_data(f.p[i])->t.state == ELEM_CACHED;
	}
	printf("%u of %u frees cached\n", cached, CACHE_BLOCKS);
	TEST_ASSERT(cached > CACHE_BLOCKS / 2, "too few frees cached");
	CHECK(stats_get(MAIN_SOCKET, &s1));
	TEST_ASSERT_EQUAL(s1.alloc_count, s0.alloc_count + 2, "alloc_count");
	/* alloc_in_order() goes down: the run ends at block 0. */
	e = malloc_elem_from_data(f.p[CACHE_BLOCKS]);
	end = malloc_elem_from_data(f.p[0]);
	TEST_ASSERT_EQUAL(e->t.state, ELEM_FREE, "the run is not free");
	TEST_ASSERT_EQUAL(e->size, RTE_PTR_DIFF(end, e),
			"the run is not one element");
	CHECK(heap_ok());
	rte_free(f.p[0]);
	rte_free(f.p[CACHE_BLOCKS + 1]);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "all freed"));
	return heap_ok();
}

#define CHURN_SLOTS 8

/* A worker churning small blocks, checking each before its free. */
struct cache_churn {
	volatile bool stop;
	unsigned long ops;
	unsigned long bad;
};

static int
cache_churn_lcore(void *arg)
{
	struct cache_churn *c = arg;
	char *p[CHURN_SLOTS] = { NULL };
	size_t len[CHURN_SLOTS] = { 0 };
	unsigned int i = 0;

	while (!c->stop) {
		i = (i + 5) % CHURN_SLOTS;
		if (p[i] != NULL) {
			if (first_not(p[i], len[i], (uint8_t)(i + 1)) != len[i])
				c->bad++;
			rte_free(p[i]);
		}
		len[i] = 64 * (1 + c->ops % 16);
		p[i] = rte_malloc(NULL, len[i], 0);
		if (p[i] == NULL) {
			c->bad++;
			continue;
		}
		memset(p[i], (int)(i + 1), len[i]);
		c->ops++;
	}
	for (i = 0; i < CHURN_SLOTS; i++)
		rte_free(p[i]);
	return 0;
}

/*
 * The main lcore drains the heap (statistics, the checker) again and
 * again while a worker allocates and frees small blocks through its
 * cache: no block is handed out twice or lost, and the heap stays whole.
 */
static int
test_cache_drain_race(void)
{
	struct cache_churn c = { .stop = false, .ops = 0, .bad = 0 };
	struct rte_malloc_socket_stats s0, s1;
	unsigned long drains = 0;
	unsigned int worker;
	uint64_t end;
	int ret = TEST_SUCCESS;

	if (cache_worker("nothing can race", &worker) != TEST_SUCCESS)
		return TEST_SKIPPED;
	CHECK(stats_get(MAIN_SOCKET, &s0));
	TEST_ASSERT_SUCCESS(
			rte_eal_remote_launch(cache_churn_lcore, &c, worker),
			"launch");
	end = rte_rdtsc() + (uint64_t)(RACE_SECONDS * rte_get_tsc_hz());
	while (rte_rdtsc() < end && ret == TEST_SUCCESS) {
		ret = stats_get(MAIN_SOCKET, &s1);
		if (ret == TEST_SUCCESS && drains % 16 == 0)
			ret = heap_ok();
		drains++;
	}
	c.stop = true;
	rte_eal_wait_lcore(worker);
	printf("%lu drains while the worker did %lu malloc+free, %lu bad\n",
			drains, c.ops, c.bad);
	TEST_ASSERT_SUCCESS(ret, "drain %lu failed", drains);
	TEST_ASSERT(c.ops > 0, "the worker did not run");
	TEST_ASSERT_EQUAL(c.bad, 0, "%lu blocks lost or overwritten", c.bad);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "all freed"));
	return heap_ok();
}

/* ---- many large allocations ---- */

/* About 400 MB, so that the test leaves room for other hugepage users. */
#define MANY_SMALL 900 /* of 64 KiB */
#define MANY_LARGE 300 /* of 1 MiB, interleaved: 3 small then 1 large */
#define MANY_EXTRA 150 /* 1 MiB more after freeing every other */
#define MANY_TOTAL (MANY_SMALL + MANY_LARGE + MANY_EXTRA)
#define MANY_PAGES 260 /* 2 MB pages needed, with margin */

static void
stamp(char *p, size_t len, uint64_t v)
{
	memcpy(p, &v, 8);
	memcpy(p + len - 8, &v, 8);
}

static bool
stamp_ok(const char *p, size_t len, uint64_t v)
{
	uint64_t a, b;

	memcpy(&a, p, 8);
	memcpy(&b, p + len - 8, 8);
	return a == v && b == v;
}

static int
many_check(char **p, const size_t *len, unsigned int n)
{
	struct range *r = calloc(n, sizeof(*r));
	unsigned int i, live = 0;
	int ret;

	TEST_ASSERT_NOT_NULL(r, "calloc");
	for (i = 0; i < n; i++) {
		if (p[i] == NULL)
			continue;
		if (!stamp_ok(p[i], len[i], i)) {
			free(r);
			TEST_ASSERT(false, "block %u at %p overwritten", i,
					p[i]);
		}
		r[live].start = (uintptr_t)p[i];
		r[live++].end = (uintptr_t)p[i] + len[i];
	}
	ret = ranges_disjoint(r, live);
	free(r);
	return ret;
}

static double
secs_since(uint64_t *t)
{
	uint64_t now = rte_rdtsc();
	double s = (double)(now - *t) / rte_get_tsc_hz();

	*t = now;
	return s;
}

static int
test_malloc_many_large(void)
{
	struct rte_malloc_socket_stats s0, s1;
	long free_pages = test_free_hugepages_2m();
	double t_alloc, t_half, t_extra;
	char **p;
	size_t *len;
	unsigned int i, n = 0;
	uint64_t t;

	if (free_pages < MANY_PAGES)
		return test_skip_hugepages(
				"fewer than 260 free 2 MB pages on the machine");
	p = calloc(MANY_TOTAL, sizeof(*p));
	len = calloc(MANY_TOTAL, sizeof(*len));
	TEST_ASSERT(p != NULL && len != NULL, "calloc");
	CHECK(stats_get(MAIN_SOCKET, &s0));
	t = rte_rdtsc();
	/* S S S L L S S S: freeing every other frees half of each size */
	for (i = 0; i < MANY_SMALL + MANY_LARGE; i++, n++) {
		len[n] = i % 8 == 3 || i % 8 == 4 ? RTE_MB : 64 * 1024;
		p[n] = rte_malloc(NULL, len[n], 0);
		TEST_ASSERT_NOT_NULL(p[n], "block %u of %zu", n, len[n]);
		stamp(p[n], len[n], n);
	}
	t_alloc = secs_since(&t);
	CHECK(many_check(p, len, n));
	secs_since(&t);
	for (i = 1; i < n; i += 2) {
		rte_free(p[i]);
		p[i] = NULL;
	}
	t_half = secs_since(&t);
	for (i = 0; i < MANY_EXTRA; i++, n++) {
		len[n] = RTE_MB;
		p[n] = rte_malloc(NULL, len[n], 0);
		TEST_ASSERT_NOT_NULL(p[n], "extra block %u", i);
		stamp(p[n], len[n], n);
	}
	t_extra = secs_since(&t);
	CHECK(many_check(p, len, n));
	CHECK(stats_get(MAIN_SOCKET, &s1));
	printf("heap of %zu MiB, %u live blocks\n", s1.heap_totalsz_bytes >> 20,
			s1.alloc_count);
	CHECK(heap_ok());
	secs_since(&t);
	for (i = 0; i < n; i++)
		rte_free(p[i]);
	printf("%u blocks: %.2f s, freeing half %.2f s, %u more %.2f s, "
	       "freeing all %.2f s\n",
			MANY_SMALL + MANY_LARGE, t_alloc, t_half, MANY_EXTRA,
			t_extra, secs_since(&t));
	free(p);
	free(len);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	CHECK(stats_same_shape(&s0, &s1, "after freeing all"));
	return heap_ok();
}

/* ---- slabs: allocations of up to MALLOC_SLAB_MAX_DATA bytes ---- */

#define SLAB_OBJS 3000 /* 64 B objects: a few slabs */

/* The slab holding live object @p p, or NULL. */
static const struct malloc_slab *
slab_of(const void *p)
{
	bool live = false;
	const struct malloc_slab *s = malloc_slab_of(
			malloc_mcfg_get(), p, &live);

	return live ? s : NULL;
}

/*
 * Slabs serve lcores' small allocations unless a block needs its own
 * header: cookies in debug builds, or --match-allocations.
 */
static int
test_slab_enabled(void)
{
	const struct rte_mem_config *mcfg = malloc_mcfg_get();
	bool want = caches_on() && MALLOC_ELEM_TRAILER_LEN == 0 &&
			!mcfg->match_allocations;
	char *p;

	TEST_ASSERT_EQUAL(slabs_on(), want, "slabs %s", want ? "off" : "on");
	p = rte_malloc(NULL, 64, 0);
	TEST_ASSERT_NOT_NULL(p, "malloc");
	TEST_ASSERT_EQUAL(slab_of(p) != NULL, want, "64 B %s a slab",
			want ? "not from" : "from");
	rte_free(p);
	if (!want)
		printf("slabs off: %s\n",
				MALLOC_ELEM_TRAILER_LEN != 0 ?
						"debug build" :
						"no caches or matched");
	return heap_ok();
}

/* The size class slabs should serve @p size and @p align with, or -1. */
static int
slab_class_of(size_t size, unsigned int align)
{
	int cls = 0;

	if (size > MALLOC_SLAB_MAX_DATA || align > 64)
		return -1;
	while (((size_t)64 << cls) < size)
		cls++;
	return cls;
}

/* The heap dump shows the slab of object @p p as such, after its header. */
static int
slab_dumped(const void *p)
{
	const struct malloc_slab *s = slab_of(p);
	char *heaps = dump_to_string(rte_malloc_dump_heaps);
	char elem[64], line[128];
	const char *at;
	bool ok;

	TEST_ASSERT_NOT_NULL(heaps, "open_memstream");
	snprintf(elem, sizeof(elem), "elem %p: BUSY",
			(const void *)malloc_elem_from_data(s));
	snprintf(line, sizeof(line),
			"\n      slab of lcore %u: %u objects of %zu bytes",
			rte_lcore_id(), s->n_objs - s->first,
			malloc_slab_obj_size(s));
	at = strstr(heaps, elem);
	if (at != NULL)
		at = strchr(at, '\n');
	ok = at != NULL && strncmp(at, line, strlen(line)) == 0;
	if (!ok)
		printf("expected \"%s%s\"; heap dump:\n%s", elem, line, heaps);
	free(heaps);
	TEST_ASSERT(ok, "slab %p not in the dump", (const void *)s);
	return TEST_SUCCESS;
}

/*
 * The length of object @p i of test_slab_objects(): every 16th up to
 * 64 KB, any class, the others up to 4 KB, so that a few MB do.
 */
static size_t
slab_objects_len(unsigned int i)
{
	return 1 + (i * 37) % (i % 16 == 0 ? MALLOC_SLAB_MAX_DATA : 4096);
}

/*
 * Objects of slab sizes are packed by class, not below any live object,
 * and have the IOVA of their memory.
 */
static int
test_slab_objects(void)
{
	static const size_t sizes[] = { 1, 63, 64, 65, 128, 200, 256, 257, 512,
		513, 1000, 1024, 1025, 4096, 4097, 10000, 32768, 65535, 65536,
		65537 };
	static const unsigned int aligns[] = { 0, 8, 64, 128 };
	struct rte_malloc_socket_stats s0, cur;
	char *p[SLAB_OBJS], *sorted[SLAB_OBJS];
	unsigned int i, k;
	size_t usable;

	if (!slabs_on())
		return TEST_SKIPPED;
	CHECK(stats_get(MAIN_SOCKET, &s0));
	for (i = 0; i < RTE_DIM(sizes); i++) {
		for (k = 0; k < RTE_DIM(aligns); k++) {
			int cls = slab_class_of(sizes[i], aligns[k]);
			char *q = rte_malloc(NULL, sizes[i], aligns[k]);

			TEST_ASSERT_NOT_NULL(q, "malloc(%zu, %u)", sizes[i],
					aligns[k]);
			TEST_ASSERT_EQUAL(slab_of(q) != NULL, cls >= 0,
					"malloc(%zu, %u) %s a slab", sizes[i],
					aligns[k], cls >= 0 ? "not in" : "in");
			TEST_ASSERT_SUCCESS(rte_malloc_validate(q, &usable),
					"validate");
			if (cls >= 0) {
				TEST_ASSERT_EQUAL(usable, (size_t)64 << cls,
						"usable size of %zu B",
						sizes[i]);
				TEST_ASSERT_EQUAL((uintptr_t)q % usable, 0,
						"object %p misaligned", q);
			}
			TEST_ASSERT_EQUAL(rte_malloc_virt2iova(q),
					rte_mem_virt2iova(q), "iova of %p", q);
			rte_free(q);
		}
	}
	for (i = 0; i < SLAB_OBJS; i++) {
		size_t len = slab_objects_len(i);

		p[i] = rte_malloc(NULL, len, 0);
		TEST_ASSERT(p[i] != NULL && slab_of(p[i]) != NULL,
				"object %u of %zu B", i, len);
		fill_seq(p[i], len, (uint8_t)i);
	}
	CHECK(slab_dumped(p[0]));
	memcpy(sorted, p, sizeof(p));
	qsort(sorted, SLAB_OBJS, sizeof(sorted[0]), ptr_cmp);
	for (i = 1; i < SLAB_OBJS; i++)
		TEST_ASSERT(sorted[i - 1] + malloc_slab_obj_size(slab_of(sorted[i - 1])) <=
						sorted[i],
				"objects %p and %p overlap", sorted[i - 1],
				sorted[i]);
	for (i = 0; i < SLAB_OBJS; i++) {
		size_t len = slab_objects_len(i);

		TEST_ASSERT_EQUAL(check_seq(p[i], len, (uint8_t)i), len,
				"object %u overwritten", i);
		rte_free(p[i]);
	}
	/* Slabs given back to a clean heap clear what they used. */
	CHECK(stats_get(MAIN_SOCKET, &cur));
	CHECK(stats_same_shape(&s0, &cur, "objects freed"));
	return heap_ok();
}

/*
 * A slab is a busy element, but statistics count its objects: each
 * allocation in it moves exactly its object size from free to allocated
 * bytes and counts once; freeing all gives the heap its shape back.
 */
static int
test_slab_stats(void)
{
	enum {
		N = 100
	};
	struct rte_malloc_socket_stats s0, prev, cur;
	unsigned int cls, i;
	char *p[N];

	if (!slabs_on())
		return TEST_SKIPPED;
	CHECK(stats_get(MAIN_SOCKET, &s0));
	for (cls = 0; cls < MALLOC_SLAB_CLASSES; cls++) {
		size_t obj = (size_t)64 << cls;

		CHECK(stats_get(MAIN_SOCKET, &prev));
		for (i = 0; i < N; i++) {
			p[i] = rte_malloc(NULL, obj - 1, 0);
			TEST_ASSERT_NOT_NULL(p[i], "malloc(%zu)", obj - 1);
			CHECK(stats_get(MAIN_SOCKET, &cur));
			TEST_ASSERT_EQUAL(cur.alloc_count, prev.alloc_count + 1,
					"alloc_count");
			/* The first, and one after a full slab, take a new one. */
			if (i > 0 && slab_of(p[i]) == slab_of(p[i - 1])) {
				TEST_ASSERT_EQUAL(cur.heap_allocsz_bytes,
						prev.heap_allocsz_bytes + obj,
						"object %u of %zu B: allocated "
						"%zu -> %zu",
						i, obj, prev.heap_allocsz_bytes,
						cur.heap_allocsz_bytes);
				TEST_ASSERT_EQUAL(cur.heap_totalsz_bytes,
						prev.heap_totalsz_bytes,
						"total");
			}
			prev = cur;
		}
		for (i = N; i-- > 1;) {
			/* The last object of a slab may take it back. */
			bool emptied = slab_of(p[i]) != slab_of(p[i - 1]);
			size_t want = prev.heap_freesz_bytes + obj;

			rte_free(p[i]);
			CHECK(stats_get(MAIN_SOCKET, &cur));
			TEST_ASSERT_EQUAL(cur.alloc_count + 1, prev.alloc_count,
					"count after free");
			TEST_ASSERT(emptied || cur.heap_freesz_bytes == want,
					"free bytes after free");
			prev = cur;
		}
		rte_free(p[0]);
	}
	CHECK(stats_get(MAIN_SOCKET, &cur));
	CHECK(stats_same_shape(&s0, &cur, "slabs freed"));
	return heap_ok();
}

/*
 * A slab that filled up serves again as soon as one of its objects is
 * freed: the object freed is the next one handed out.
 */
static int
test_slab_refill(void)
{
	enum {
		N = 2 * (MALLOC_SLAB_LEN / 64)
	};
	static char *p[N];
	const struct malloc_slab *first;
	unsigned int n = 0, i;
	char *q;

	if (!slabs_on())
		return TEST_SKIPPED;
	p[n] = rte_malloc(NULL, 64, 0);
	TEST_ASSERT_NOT_NULL(p[n], "malloc");
	first = slab_of(p[n++]);
	TEST_ASSERT_NOT_NULL(first, "not an object");
	do {
		p[n] = rte_malloc(NULL, 64, 0);
		TEST_ASSERT_NOT_NULL(p[n], "malloc %u", n);
	} while (slab_of(p[n++]) == first && n < N);
	TEST_ASSERT(slab_of(p[n - 1]) != first, "the slab never filled");
	rte_free(p[0]);
	q = rte_malloc(NULL, 64, 0);
	TEST_ASSERT(q == p[0], "%p handed out, not %p of the full slab",
			(void *)q, (void *)p[0]);
	for (i = 0; i < n; i++)
		rte_free(p[i]);
	return heap_ok();
}

/*
 * Freed objects are reused at once; rte_zmalloc() clears a reused one,
 * exactly its requested bytes, and nothing on free.
 */
static int
test_slab_zmalloc(void)
{
	struct rte_malloc_socket_stats s1, s2;
	char *keep, *p, *q;
	unsigned int cls;

	if (!slabs_on())
		return TEST_SKIPPED;
	for (cls = 0; cls < MALLOC_SLAB_CLASSES; cls++) {
		size_t len = ((size_t)64 << cls) - 3;

		keep = rte_malloc(NULL, len, 0);
		p = rte_malloc(NULL, len, 0);
		TEST_ASSERT(keep != NULL && p != NULL, "malloc");
		memset(p, 0xa5, len);
		CHECK(stats_get(MAIN_SOCKET, &s1));
		rte_free(p);
		q = rte_zmalloc(NULL, len, 0);
		TEST_ASSERT(q == p, "freed object %p not reused: %p", p, q);
		TEST_ASSERT_EQUAL(first_not(q, len, 0), len, "not zero");
		CHECK(stats_get(MAIN_SOCKET, &s2));
		TEST_ASSERT_EQUAL(s2.heap_cleared_on_zmalloc_bytes -
						s1.heap_cleared_on_zmalloc_bytes,
				(uint64_t)len, "cleared on zmalloc");
		TEST_ASSERT_EQUAL(s2.heap_cleared_on_free_bytes,
				s1.heap_cleared_on_free_bytes,
				"cleared on free");
		rte_free(q);
		rte_free(keep);
	}
	return heap_ok();
}

/*
 * rte_realloc() of an object stays in place while its class holds the
 * size and alignment, and moves with the contents otherwise.
 */
static int
test_slab_realloc(void)
{
	char *p, *q;

	if (!slabs_on())
		return TEST_SKIPPED;
	p = rte_malloc(NULL, 10, 0);
	TEST_ASSERT_NOT_NULL(p, "malloc");
	fill_seq(p, 10, 1);
	TEST_ASSERT(rte_realloc(p, 64, 0) == p, "64 B not in place");
	TEST_ASSERT(rte_realloc(p, 5, 64) == p, "shrink not in place");
	fill_seq(p, 64, 2);
	q = rte_realloc(p, 65, 0);
	TEST_ASSERT(q != NULL && q != p && slab_of(q) != NULL,
			"65 B: %p from %p", q, p);
	TEST_ASSERT_EQUAL(check_seq(q, 64, 2), 64, "contents lost");
	TEST_ASSERT_EQUAL(rte_malloc_validate(p, NULL), -1, "old one live");
	p = rte_realloc(q, 128, 0);
	TEST_ASSERT(p == q, "128 B not in place");
	fill_seq(p, 128, 3);
	q = rte_realloc(p, 200, 128);
	TEST_ASSERT(q != NULL && (uintptr_t)q % 128 == 0 && slab_of(q) == NULL,
			"align 128: %p", q);
	TEST_ASSERT_EQUAL(check_seq(q, 128, 3), 128, "contents lost");
	fill_seq(q, 100, 4);
	/* An element stays one: it holds 256 B. */
	p = rte_realloc(q, 256, 0);
	TEST_ASSERT(p == q, "element of 256 B moved");
	TEST_ASSERT_EQUAL(check_seq(p, 100, 4), 100, "contents lost");
	rte_free(p);
	p = rte_malloc(NULL, 256, 0);
	TEST_ASSERT(p != NULL && slab_of(p) != NULL, "256 B");
	fill_seq(p, 256, 5);
	/* Into a large slab's class, then above every class. */
	q = rte_realloc(p, 5000, 0);
	TEST_ASSERT(q != NULL && slab_of(q) != NULL &&
					malloc_slab_len(slab_of(q)) ==
							MALLOC_SLAB_LARGE_LEN,
			"5000 B: %p", q);
	TEST_ASSERT_EQUAL(check_seq(q, 256, 5), 256, "contents lost");
	TEST_ASSERT_EQUAL(rte_malloc_validate(p, NULL), -1, "old one live");
	fill_seq(q, 5000, 6);
	p = rte_realloc(q, MALLOC_SLAB_MAX_DATA + 1, 0);
	TEST_ASSERT(p != NULL && slab_of(p) == NULL, "%u B: %p",
			MALLOC_SLAB_MAX_DATA + 1, p);
	TEST_ASSERT_EQUAL(check_seq(p, 5000, 6), 5000, "contents lost");
	TEST_ASSERT_EQUAL(rte_malloc_validate(q, NULL), -1, "old one live");
	rte_free(p);
	return heap_ok();
}

/* Run @p fn(@p arg) on the first worker lcore and wait for it. */
static int
on_worker(int (*fn)(void *), void *arg, const char *what)
{
	unsigned int worker;
	int ret = cache_worker(what, &worker);

	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(fn, arg, worker), "launch");
	return rte_eal_wait_lcore(worker);
}

struct slab_objs {
	char **p;
	unsigned int n;
	size_t len;
};

static int
slab_alloc_all(void *arg)
{
	struct slab_objs *o = arg;
	unsigned int i;

	for (i = 0; i < o->n; i++) {
		o->p[i] = rte_malloc(NULL, o->len, 0);
		if (o->p[i] == NULL)
			return -1;
		memset(o->p[i], 0xa5, o->len);
	}
	return 0;
}

static int
slab_free_all(void *arg)
{
	struct slab_objs *o = arg;
	unsigned int i;

	for (i = 0; i < o->n; i++)
		rte_free(o->p[i]);
	return 0;
}

/*
 * Objects freed by another lcore than their slab's owner are no longer
 * live, are counted freed at once, and their slabs go back to the heap;
 * both ways round.
 */
static int
test_slab_remote_free(void)
{
	/* A small slab's class and a large one's, a few slabs of each. */
	static const struct {
		size_t len;
		unsigned int n;
	} cases[] = { { 64, SLAB_OBJS }, { 16384, 200 } };
	static char *p[SLAB_OBJS];
	struct slab_objs o = { .p = p };
	struct rte_malloc_socket_stats s0, cur;
	unsigned int i, k, way;
	int ret;

	if (!slabs_on())
		return TEST_SKIPPED;
	CHECK(stats_get(MAIN_SOCKET, &s0));
	for (k = 0; k < RTE_DIM(cases) * 2; k++) {
		o.len = cases[k / 2].len;
		o.n = cases[k / 2].n;
		way = k % 2;
		if (way == 0)
			ret = slab_alloc_all(&o);
		else
			ret = on_worker(slab_alloc_all, &o, "remote frees");
		if (ret == TEST_SKIPPED)
			return ret;
		TEST_ASSERT_SUCCESS(ret, "allocation");
		CHECK(stats_get(MAIN_SOCKET, &cur));
		TEST_ASSERT_EQUAL(cur.alloc_count, s0.alloc_count + o.n,
				"alloc_count");
		if (way == 0)
			ret = on_worker(slab_free_all, &o, "remote frees");
		else
			ret = slab_free_all(&o);
		TEST_ASSERT_SUCCESS(ret, "free");
		for (i = 0; i < o.n; i++)
			TEST_ASSERT_EQUAL(rte_malloc_validate(p[i], NULL), -1,
					"object %u still live", i);
		CHECK(stats_get(MAIN_SOCKET, &cur));
		CHECK(stats_same_shape(&s0, &cur, "freed by another lcore"));
	}
	return heap_ok();
}

#define SLAB_RING 256 /* objects in flight from producer to consumer */
#define SLAB_PASSED 200000 /* objects passed in all */

struct slab_ring {
	char *slot[SLAB_RING];
	uint64_t head; /* written by the producer */
	uint64_t tail; /* written by the consumer */
	int err;
};

/* Consumer: check and free every object the producer passes. */
static int
slab_consume(void *arg)
{
	struct slab_ring *r = arg;
	uint64_t t;

	for (t = 0; t < SLAB_PASSED; t++) {
		char *obj;

		while (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == t)
			rte_pause();
		obj = r->slot[t % SLAB_RING];
		if (check_seq(obj, 48, (uint8_t)t) != 48)
			r->err = 1;
		rte_free(obj);
		__atomic_store_n(&r->tail, t + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/*
 * One lcore allocates, another frees, all the time: the owner takes back
 * what the other freed while it keeps freeing. No object is handed out
 * twice or lost, and the heap ends as it started.
 */
static int
test_slab_producer_consumer(void)
{
	static struct slab_ring r;
	struct rte_malloc_socket_stats s0, cur;
	unsigned int worker;
	uint64_t h;
	int ret;

	if (!slabs_on())
		return TEST_SKIPPED;
	ret = cache_worker("producer and consumer", &worker);
	if (ret != TEST_SUCCESS)
		return ret;
	memset(&r, 0, sizeof(r));
	CHECK(stats_get(MAIN_SOCKET, &s0));
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(slab_consume, &r, worker),
			"launch");
	for (h = 0; h < SLAB_PASSED; h++) {
		char *obj = rte_malloc(NULL, 48, 0);

		if (obj == NULL)
			break;
		fill_seq(obj, 48, (uint8_t)h);
		while (h - __atomic_load_n(&r.tail, __ATOMIC_ACQUIRE) ==
				SLAB_RING)
			rte_pause();
		r.slot[h % SLAB_RING] = obj;
		__atomic_store_n(&r.head, h + 1, __ATOMIC_RELEASE);
	}
	TEST_ASSERT_EQUAL(h, SLAB_PASSED, "allocation %" PRIu64 " failed", h);
	rte_eal_wait_lcore(worker);
	TEST_ASSERT_EQUAL(r.err, 0, "an object was overwritten");
	CHECK(stats_get(MAIN_SOCKET, &cur));
	CHECK(stats_same_shape(&s0, &cur, "all passed and freed"));
	return heap_ok();
}

static int
slab_free_twice(void *arg)
{
	rte_free(arg);
	rte_free(arg);
	return 0;
}

/*
 * Frees of what is not a live object change nothing: the slab's
 * metadata, a pointer inside an object, a second free by the owner or by
 * another lcore; validate and realloc refuse them.
 */
static int
test_slab_bad_frees(void)
{
	struct rte_malloc_socket_stats s0, s1;
	char *keep, *base, *p, *q;
	int ret;

	if (!slabs_on())
		return TEST_SKIPPED;
	keep = rte_malloc(NULL, 64, 0);
	TEST_ASSERT_NOT_NULL(keep, "malloc");
	base = (char *)((uintptr_t)keep & ~(MALLOC_SLAB_LEN - 1));
	fill_seq(keep, 64, 9);
	CHECK(stats_get(MAIN_SOCKET, &s0));
	rte_free(base);
	rte_free(base + 64);
	rte_free(keep + 1);
	rte_free(keep + 32);
	TEST_ASSERT_EQUAL(rte_malloc_validate(base, NULL), -1, "metadata");
	TEST_ASSERT_EQUAL(rte_malloc_validate(keep + 8, NULL), -1, "inside");
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_realloc(keep + 8, 10, 0), "realloc inside");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "realloc errno");
	CHECK(stats_unchanged(MAIN_SOCKET, &s0, "bad frees"));
	TEST_ASSERT_EQUAL(check_seq(keep, 64, 9), 64, "object changed");

	p = rte_malloc(NULL, 64, 0);
	TEST_ASSERT_NOT_NULL(p, "malloc");
	rte_free(p);
	CHECK(stats_get(MAIN_SOCKET, &s1));
	rte_free(p);
	CHECK(stats_unchanged(MAIN_SOCKET, &s1, "double free"));
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_realloc(p, 10, 0), "realloc of a freed object");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "realloc errno");
	p = rte_malloc(NULL, 64, 0);
	q = rte_malloc(NULL, 64, 0);
	TEST_ASSERT(p != NULL && q != NULL && p != q, "handed out twice: %p",
			p);
	rte_free(q);

	ret = on_worker(slab_free_twice, p, "double free by another lcore");
	if (ret == TEST_SKIPPED) {
		rte_free(p);
		rte_free(keep);
		return ret;
	}
	CHECK(stats_unchanged(
			MAIN_SOCKET, &s0, "double free by another lcore"));
	p = rte_malloc(NULL, 64, 0);
	q = rte_malloc(NULL, 64, 0);
	TEST_ASSERT(p != NULL && q != NULL && p != q, "handed out twice: %p",
			p);
	rte_free(p);
	rte_free(q);
	rte_free(keep);
	return heap_ok();
}

/*
 * Child, after slab_pages_child(): an emptied slab next to busy blocks
 * only stays for the next object, but it does not keep its page once
 * they are freed.
 */
static int
slab_kept_child(uint64_t before)
{
	const struct malloc_elem *e;
	char *a, *o, *b;

	a = rte_malloc(NULL, 512 * 1024, 0);
	o = rte_malloc(NULL, 64, 0);
	b = rte_malloc(NULL, 512 * 1024, 0);
	if (a == NULL || o == NULL || b == NULL || slab_of(o) == NULL)
		return 12;
	e = malloc_elem_from_data(slab_of(o));
	/* Carved from the top of the memory: no element above. */
	if (e->prev == NULL || e->prev->t.state != ELEM_BUSY ||
			(e->next != NULL && e->next->t.state != ELEM_BUSY)) {
		printf("slab %p not between busy blocks\n", (const void *)e);
		return 13;
	}
	rte_free(o);
	if (e->t.state != ELEM_BUSY)
		return 14; /* given back at once */
	rte_free(a);
	rte_free(b);
	if (rte_eal_get_physmem_size() != before)
		return 15;
	return child_heap_ok(16);
}

static void *
slab_free_all_main(void *arg)
{
	slab_free_all(arg);
	return NULL;
}

/*
 * Child, fresh growing heap: objects of all classes, many pages of them,
 * freed by a thread without an lcore then by their owner, give every page back with
 * no statistics call; rte_zmalloc() then gets zeros, cleared by nobody,
 * and a free into a slab given back changes nothing.
 */
static int
slab_pages_child(void)
{
	enum {
		N = 30000
	};
	static char *p[N];
	uint64_t before = rte_eal_get_physmem_size();
	struct malloc_heap *heap = malloc_heap_of_socket(
			malloc_state_of(malloc_mcfg_get()),
			(int)rte_socket_id());
	struct slab_objs o = { .p = p, .n = N };
	struct rte_malloc_socket_stats s0, s1;
	unsigned int i, way;
	pthread_t th;
	uint64_t zc;

	for (way = 0; way < 2; way++) {
		for (i = 0; i < N; i++) {
			size_t len = (size_t)64 << (i % 3);

			p[i] = rte_malloc(NULL, len, 0);
			if (p[i] == NULL || slab_of(p[i]) == NULL)
				return 1;
			memset(p[i], 0xa5, len);
		}
		if (rte_eal_get_physmem_size() <= before + 2 * RTE_MB)
			return 2;
		if (way == 0) {
			if (pthread_create(&th, NULL, slab_free_all_main, &o))
				return 3;
			pthread_join(th, NULL);
		} else {
			slab_free_all(&o);
		}
		printf("way %u: %" PRIu64 " -> %" PRIu64 " bytes mapped\n", way,
				before, rte_eal_get_physmem_size());
		if (rte_eal_get_physmem_size() != before)
			return 4 + (int)way;
	}
	zc = heap->cleared_on_zmalloc;
	for (i = 0; i < N; i++) {
		size_t len = (size_t)64 << (i % 3);

		p[i] = rte_zmalloc(NULL, len, 0);
		if (p[i] == NULL || first_not(p[i], len, 0) != len)
			return 6;
	}
	if (heap->cleared_on_zmalloc != zc)
		return 7;
	slab_free_all(&o);
	if (rte_eal_get_physmem_size() != before)
		return 8;
	/* Frees into the slabs given back, still mapped or not. */
	if (rte_malloc_get_socket_stats(MAIN_SOCKET, &s0) != 0)
		return 9;
	rte_free(p[0]);
	rte_free(p[N - 1]);
	if (rte_malloc_get_socket_stats(MAIN_SOCKET, &s1) != 0 ||
			memcmp(&s0, &s1, sizeof(s0)) != 0)
		return 10;
	return slab_kept_child(before);
}

static int
malloc_child_slab_pages(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return slab_pages_child();
}
REGISTER_CHILD_ACTION(malloc_slab_pages, malloc_child_slab_pages)

static int
test_slab_pages_back(void)
{
	if (!slabs_on())
		return TEST_SKIPPED;
	return run_heap_child("malloc_slab_pages", "malloc_slab_pages");
}

/*
 * Slabs of one class the keep test fills, more than a cache keeps with
 * --malloc-retain=0.
 */
#define SLAB_KEEP_FILL (MALLOC_SLAB_KEEP_MIN + 4)

/*
 * The slabs that lcore @p lcore's cache owns, all classes: what the keep
 * budget counts. The keep child makes slabs of class 0 only.
 */
static unsigned int
slab_count(unsigned int lcore)
{
	const struct malloc_cache *c =
			&malloc_state_of(malloc_mcfg_get())->caches[lcore];

	return __atomic_load_n(&c->slab_total, __ATOMIC_RELAXED);
}

/*
 * Child with -m: on pages that stay mapped, a cache keeps its emptied
 * slabs up to MALLOC_SLAB_KEEP_MIN (--malloc-retain=0 gives caches their
 * least) and serves the next objects from them
 * without making any; a drain (a statistics call here) gives them back.
 */
static int
slab_keep_child(void)
{
	enum {
		N = SLAB_KEEP_FILL * (MALLOC_SLAB_LEN / 64)
	};
	static char *p[N];
	struct rte_malloc_socket_stats s;
	unsigned int lcore = rte_lcore_id(), i, n = 0, made, objs;

	if (malloc_state_of(malloc_mcfg_get())->slab_keep !=
			MALLOC_SLAB_KEEP_MIN)
		return 9;
	for (i = 0; i < N; i++) {
		p[i] = rte_malloc(NULL, 64, 0);
		if (p[i] == NULL || slab_of(p[i]) == NULL)
			return 1;
	}
	objs = slab_of(p[0])->n_objs - slab_of(p[0])->first;
	made = slab_count(lcore);
	if (made < SLAB_KEEP_FILL ||
			made !=
					malloc_state_of(malloc_mcfg_get())
							->caches[lcore]
							.slab_n[0])
		return 2;
	for (i = 0; i < N; i++)
		rte_free(p[i]);
	printf("%u slabs made, %u kept\n", made, slab_count(lcore));
	if (slab_count(lcore) != MALLOC_SLAB_KEEP_MIN)
		return 3;
	/* The kept slabs serve all they hold; the next object needs one. */
	for (i = 0; i < N && slab_count(lcore) == MALLOC_SLAB_KEEP_MIN; i++) {
		p[i] = rte_malloc(NULL, 64, 0);
		if (p[i] == NULL)
			return 4;
		n = i + 1;
	}
	printf("%u objects from them, %u each\n", n - 1, objs);
	if (n != MALLOC_SLAB_KEEP_MIN * objs + 1)
		return 5;
	for (i = 0; i < n; i++)
		rte_free(p[i]);
	if (slab_count(lcore) == 0 ||
			rte_malloc_get_socket_stats(MAIN_SOCKET, &s) != 0)
		return 6;
	if (slab_count(lcore) != 0 || s.alloc_count != 0)
		return 7;
	return child_heap_ok(8);
}

static int
malloc_child_slab_keep(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return slab_keep_child();
}
REGISTER_CHILD_ACTION(malloc_slab_keep, malloc_child_slab_keep)

static int
test_slab_keep(void)
{
	static const char *const pinned[] = { "-m", "64", NULL };

	if (!slabs_on())
		return TEST_SKIPPED;
	return run_heap_child_with(
			"malloc_slab_keep", "malloc_slab_keep", pinned);
}

/*
 * Child without hugepages, its memory placed 12 KB past a 64 KB boundary:
 * blocks in the 64 KB below a slab are not in the slab, so freeing them
 * works. A slab's marks once counted their spans from the start of the
 * memory, and took such blocks for objects.
 */
static int
slab_span_child(void)
{
	enum {
		N = 64
	};
	char *b[N], *o = rte_malloc(NULL, 64, 0);
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(o);
	struct rte_malloc_socket_stats s0, s1;
	const struct malloc_slab *slab;
	unsigned int i, below = 0;

	if (o == NULL || msl == NULL || (slab = slab_of(o)) == NULL)
		return 1;
	if ((uintptr_t)msl->base_va % MALLOC_SLAB_LEN == 0)
		return 2; /* --base-virtaddr was not followed */
	if (rte_malloc_get_socket_stats(MAIN_SOCKET, &s0) != 0)
		return 3;
	for (i = 0; i < N; i++) {
		/* Elements: slabs serve no alignment above 64. */
		b[i] = rte_malloc(NULL, 8192, 128);
		if (b[i] == NULL)
			return 4;
		below += (uintptr_t)b[i] < (uintptr_t)slab &&
				(uintptr_t)slab - (uintptr_t)b[i] <
						MALLOC_SLAB_LEN;
	}
	printf("%u of %u blocks in the 64 KB below the slab\n", below, N);
	if (below == 0)
		return 5;
	for (i = 0; i < N; i++)
		rte_free(b[i]);
	if (rte_malloc_get_socket_stats(MAIN_SOCKET, &s1) != 0 ||
			s1.alloc_count != s0.alloc_count)
		return 6;
	rte_free(o);
	return child_heap_ok(7);
}

static int
malloc_child_slab_span(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return slab_span_child();
}
REGISTER_CHILD_ACTION(malloc_slab_span, malloc_child_slab_span)

static int
test_slab_span(void)
{
	static const char *const nohuge[] = { "--no-huge", "-m", "16",
		"--base-virtaddr=0x200000003000", NULL };

	if (!slabs_on())
		return TEST_SKIPPED;
	return run_heap_child_with(
			"malloc_slab_span", "malloc_slab_span", nohuge);
}

/*
 * Child with -m: a slab emptied on pages that stay mapped waits on its
 * cache's idle list, and an object of another class of its kind takes
 * it, laid out anew: rte_zmalloc() clears what the last class wrote, and
 * giving the slab back clears what either class wrote. Run with empty
 * slabs kept (the default) and not (--malloc-retain=0): kept, the
 * owner's inline free leaves the slab on its class's list, where the
 * other class finds it all the same.
 */
static int
slab_idle_child(void)
{
	enum {
		N = 124 /* two large slabs of 16 KB objects */
	};
	static char *p[N];
	const struct malloc_cache *c = &malloc_state_of(malloc_mcfg_get())
							->caches[rte_lcore_id()];
	const unsigned int large = MALLOC_SLAB_KIND_LARGE -
			MALLOC_SLAB_KIND_SMALL;
	const struct malloc_slab *idle, *second;
	struct rte_malloc_socket_stats st;
	unsigned int i;
	char *z;

	for (i = 0; i < N; i++) {
		p[i] = rte_malloc(NULL, 16384, 0);
		if (p[i] == NULL || slab_of(p[i]) == NULL)
			return 1;
		memset(p[i], 0xa5, 16384);
	}
	second = slab_of(p[N - 1]);
	if (slab_of(p[0]) == second)
		return 2;
	for (i = 0; i < N; i++)
		rte_free(p[i]);
	/*
	 * The first slab, full, became its class's current one again when
	 * its first object was freed; the second then emptied behind it.
	 */
	idle = c->idle[large];
	if ((idle != NULL && (idle != second || idle->next != NULL)) ||
			c->slabs[second->cls] == second)
		return 3;
	z = rte_zmalloc(NULL, 65536, 0);
	if (z == NULL || slab_of(z) != second || c->idle[large] != NULL)
		return 4;
	if (first_not(z, 65536, 0) != 65536)
		return 5;
	memset(z, 0x5a, 65536);
	rte_free(z);
	/* A drain gives both slabs back: the heap check finds zeros. */
	if (rte_malloc_get_socket_stats(MAIN_SOCKET, &st) != 0 ||
			st.alloc_count != 0 || c->slab_total != 0)
		return 6;
	return child_heap_ok(7);
}

static int
malloc_child_slab_idle(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return slab_idle_child();
}
REGISTER_CHILD_ACTION(malloc_slab_idle, malloc_child_slab_idle)

static int
test_slab_idle(void)
{
	static const char *const pinned[] = { "-m", "64", NULL };
	static const char *const kept[] = { "-m", "64", "--malloc-retain=64M",
		NULL };

	if (!slabs_on())
		return TEST_SKIPPED;
	CHECK(run_heap_child_with(
			"malloc_slab_idle", "malloc_slab_idle", pinned));
	return run_heap_child_with(
			"malloc_slab_idle", "malloc_slab_idle_kept", kept);
}

/*
 * Child, fresh growing heap: slabs made one after the other tile the
 * memory. Their elements start at their aligned address, header
 * included; with the data aligned instead, the header took the end of
 * the length below and every two slabs left a gap of almost one.
 */
static int
slab_tile_child(void)
{
	enum {
		N = 16 /* slabs of each kind */
	};
	static const size_t lens[] = { 4096, 65536 };
	static char *p[N * 16];
	unsigned int k, i, n;

	for (k = 0; k < RTE_DIM(lens); k++) {
		size_t len = lens[k];
		const struct malloc_slab *s;
		uintptr_t lo = UINTPTR_MAX, hi = 0, start;
		size_t slab_len = 0;

		for (n = 0; n < N * 16; n++) {
			p[n] = rte_malloc(NULL, len, 0);
			s = p[n] == NULL ? NULL : slab_of(p[n]);
			if (s == NULL)
				return 1 + 10 * (int)k;
			slab_len = malloc_slab_len(s);
			start = (uintptr_t)malloc_elem_from_data(s);
			if (start % slab_len != 0)
				return 2 + 10 * (int)k;
			lo = RTE_MIN(lo, start);
			hi = RTE_MAX(hi, start + slab_len);
			/* N slabs full: the objects a slab holds, times N. */
			if (n + 1 == N * (slab_len / len - 1))
				break;
		}
		printf("%u slabs of %zu B objects span %zu KB\n", N, len,
				(size_t)(hi - lo) / 1024);
		/* A hole start-up left may take one; the rest touch. */
		if (hi - lo > (N + 1) * slab_len)
			return 3 + 10 * (int)k;
		for (i = 0; i <= n && i < N * 16; i++)
			rte_free(p[i]);
	}
	return child_heap_ok(30);
}

static int
malloc_child_slab_tile(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return slab_tile_child();
}
REGISTER_CHILD_ACTION(malloc_slab_tile, malloc_child_slab_tile)

static int
test_slab_tile(void)
{
	if (!slabs_on())
		return TEST_SKIPPED;
	return run_heap_child("malloc_slab_tile", "malloc_slab_tile");
}

static struct unit_test_suite malloc_suite = {
	.suite_name = "rte_malloc",
	.unit_test_cases = {
		TEST_CASE(test_malloc_bad_params),
		TEST_CASE(test_malloc_align_default),
		TEST_CASE(test_malloc_align_pow2),
		TEST_CASE(test_zmalloc_after_free),
		TEST_CASE(test_realloc_content),
		TEST_CASE(test_realloc_in_place),
		TEST_CASE(test_realloc_move),
		TEST_CASE(test_realloc_align),
		TEST_CASE(test_realloc_shrink_clears),
		TEST_CASE(test_free_bad_pointers),
		TEST_CASE(test_free_forged_header),
		TEST_CASE(test_free_twice_joined),
		TEST_CASE(test_free_unmapped),
		TEST_CASE(test_free_queued),
		TEST_CASE(test_free_queued_release),
		TEST_CASE(test_cache_spares),
		TEST_CASE(test_cache_spares_release),
		TEST_CASE(test_free_queued_run),
		TEST_CASE(test_free_cached),
		TEST_CASE(test_free_cached_run),
		TEST_CASE(test_cache_drained_by_other),
		TEST_CASE(test_cache_drain_own_mixed),
		TEST_CASE(test_cache_registered_thread),
		TEST_CASE(test_cache_drain_race),
		TEST_CASE(test_grow_trim),
		TEST_CASE(test_stats_exact),
		TEST_CASE(test_clear_once_clean),
		TEST_CASE(test_clear_once_dirty),
		TEST_CASE(test_ext_heap_create_errors),
		TEST_CASE(test_ext_heap_memory_errors),
		TEST_CASE(test_ext_heap_alloc_iova),
		TEST_CASE(test_ext_heap_run_end),
		TEST_CASE(test_malloc_sockets),
		TEST_CASE(test_malloc_iova),
		TEST_CASE(test_malloc_fail_log),
		TEST_CASE(test_malloc_dump),
		TEST_CASE(test_malloc_stress_mt),
		TEST_CASE(test_malloc_validate_race),
		TEST_CASE(test_malloc_many_large),
		TEST_CASE(test_slab_enabled),
		TEST_CASE(test_slab_objects),
		TEST_CASE(test_slab_stats),
		TEST_CASE(test_slab_refill),
		TEST_CASE(test_slab_zmalloc),
		TEST_CASE(test_slab_realloc),
		TEST_CASE(test_slab_remote_free),
		TEST_CASE(test_slab_producer_consumer),
		TEST_CASE(test_slab_bad_frees),
		TEST_CASE(test_slab_pages_back),
		TEST_CASE(test_slab_keep),
		TEST_CASE(test_slab_span),
		TEST_CASE(test_slab_tile),
		TEST_CASE(test_slab_idle),
		TEST_CASES_END(),
	},
};

static int
test_malloc(void)
{
	if (!rte_eal_has_hugepages())
		return test_skip_hugepages("EAL runs without hugepages");
	return unit_test_suite_runner(&malloc_suite);
}

REGISTER_FAST_TEST(malloc_autotest, NOHUGE_SKIP, ASAN_OK, test_malloc);
