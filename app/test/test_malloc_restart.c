/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rte_zmalloc() returns zeroed memory across real restarts, in every
 * backing and mode, when the previous run filled its memory and was killed.
 *
 * Per backing (file per page, --single-file-segments, --legacy-mem,
 * --in-memory, --no-huge), each in its own hugetlbfs scratch directory and
 * file prefix, and with --huge-unlink=never where that is allowed:
 *
 *  fresh    no file of the prefix exists;
 *  full     a "malloc_fill" child used more memory than the check needs,
 *           filled it with MR_FILL and was killed;
 *  partial  the killed child used about half of it (and, for a file per
 *           page, some of its files are deleted too);
 *  existing a last run without --huge-unlink=never, which must remove the
 *           previous files, map clean pages, and leave nothing behind.
 *
 * After each, a "zmalloc_check" child zero-allocates the same mix of sizes
 * through every zeroing call, checks every byte, reports the clear
 * counters and the dirty pages, then frees, fills, frees and
 * zero-allocates again inside the same process. The parent asserts what
 * is exact for the state: no dirty page and nothing cleared on fresh
 * memory; all pages dirty and exactly the requested bytes cleared on fully
 * reused memory; some pages dirty on partly reused memory.
 *
 * --in-memory and --no-huge keep no files (and refuse --huge-unlink=never),
 * so there the restarts must find clean memory, and reuse happens only
 * inside the check child.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>

#include "malloc_check.h"
#include "test.h"

#define MR_FILL 0xA5 /* what the killed run leaves in its memory */
#define MR_REFILL 0x5A /* what the check child writes before freeing */
#define MR_BLOCK (1u << 20) /* the big blocks: 1 MiB each on small pages */
#define MR_BLOCKS_PER_PAGE 32 /* on larger pages: 1/32 of a page */
#define MR_MZ_LEN (4u << 20) /* the memzone (a block in the check) */
#define MR_MAX_BLOCKS 64 /* most 1 MiB blocks in one run */

/* The small sizes of the mix, odd ones included. */
static const size_t mr_small[] = { 1, 64, 200, 1000, 4096, 65535, 300000 };

#define MR_N_SMALL RTE_DIM(mr_small)
#define MR_MAX_ITEMS (MR_N_SMALL + 1 + MR_MAX_BLOCKS)

/*
 * The size of the big blocks on pages of @p page_sz bytes: scaled with
 * the page, so that a mix spans several pages of any size (CI runs this
 * test on 1 GB pages too).
 */
static size_t
mr_block_size(uint64_t page_sz)
{
	return RTE_MAX((size_t)MR_BLOCK,
			(size_t)(page_sz / MR_BLOCKS_PER_PAGE));
}

static int
mr_list_page_size(const struct rte_memseg_list *msl, void *arg)
{
	*(uint64_t *)arg = msl->page_sz;
	return 1;
}

/* In a child: the block size for the pages of its memory. */
static size_t
mr_child_block_size(void)
{
	uint64_t page_sz = 0;

	rte_memseg_list_walk(mr_list_page_size, &page_sz);
	return mr_block_size(page_sz);
}

/*
 * Item @p i of a mix with blocks of @p block bytes: the small sizes, the
 * memzone, then the blocks.
 */
static size_t
mr_item_size(size_t block, unsigned int i)
{
	if (i < MR_N_SMALL)
		return mr_small[i];
	if (i == MR_N_SMALL)
		return MR_MZ_LEN;
	return block;
}

/* @return the number of blocks in app args "N", or -1. */
static int
mr_parse_blocks(int argc, char **argv)
{
	char *end;
	long n;

	if (argc < 2)
		return -1;
	n = strtol(argv[1], &end, 10);
	if (*end != '\0' || n < 0 || n > MR_MAX_BLOCKS)
		return -1;
	return (int)n;
}

/* ---- child side: the run that fills and is killed ---- */

/*
 * App args: the number of big blocks. Allocates the mix with rte_malloc
 * (the memzone as a memzone), fills it with MR_FILL, prints "filled N",
 * says ready and waits to be killed.
 */
static int
mr_child_fill(int argc, char **argv)
{
	const struct rte_memzone *mz;
	int blocks = mr_parse_blocks(argc, argv);
	size_t block = mr_child_block_size(), filled = 0;
	unsigned int i, n;
	void *p;

	if (blocks < 0) {
		printf("malloc_fill: bad arguments\n");
		return 1;
	}
	n = MR_N_SMALL + 1 + (unsigned int)blocks;
	for (i = 0; i < n; i++) {
		if (i == MR_N_SMALL) {
			mz = rte_memzone_reserve(
					"mr_fill", MR_MZ_LEN, SOCKET_ID_ANY, 0);
			p = mz != NULL ? mz->addr : NULL;
		} else {
			p = rte_malloc(NULL, mr_item_size(block, i), 0);
		}
		if (p == NULL) {
			printf("malloc_fill: item %u of %zu bytes failed\n", i,
					mr_item_size(block, i));
			return 1;
		}
		memset(p, MR_FILL, mr_item_size(block, i));
		filled += mr_item_size(block, i);
	}
	printf("filled %zu\n", filled);
	test_child_ready();
	for (;;)
		pause();
}
REGISTER_CHILD_ACTION(malloc_fill, mr_child_fill)

/* ---- child side: the run that checks ---- */

/* The zeroing calls, used in turn. */
enum mr_kind {
	MR_ZMALLOC,
	MR_CALLOC,
	MR_ZMALLOC_SOCKET,
	MR_ZMALLOC_ALIGN,
	MR_N_KINDS,
};

static const char *const mr_kind_name[] = { "rte_zmalloc", "rte_calloc",
	"rte_zmalloc_socket", "rte_zmalloc(align 4096)" };

static void *
mr_zalloc(enum mr_kind kind, size_t size)
{
	switch (kind) {
	case MR_CALLOC:
		if (size % 4096 == 0)
			return rte_calloc(NULL, size / 4096, 4096, 0);
		return rte_calloc(NULL, size, 1, 0);
	case MR_ZMALLOC_SOCKET:
		return rte_zmalloc_socket(NULL, size, 0, SOCKET_ID_ANY);
	case MR_ZMALLOC_ALIGN:
		return rte_zmalloc(NULL, size, 4096);
	default:
		return rte_zmalloc(NULL, size, 0);
	}
}

/* @return the offset of the first non-zero byte of @p p, or SIZE_MAX. */
static size_t
mr_first_nonzero(const void *p, size_t size)
{
	const uint64_t *w = p;
	const uint8_t *b = p;
	size_t i, n = size / sizeof(*w);

	for (i = 0; i < n; i++)
		if (w[i] != 0)
			break;
	for (i *= sizeof(*w); i < size; i++)
		if (b[i] != 0)
			return i;
	return SIZE_MAX;
}

/* The clear counters, summed over the NUMA nodes' heaps. */
struct mr_counters {
	uint64_t zc; /* bytes cleared by rte_zmalloc */
	uint64_t cf; /* bytes cleared by rte_free */
};

static void
mr_counters_read(struct mr_counters *c)
{
	struct rte_malloc_socket_stats st;
	unsigned int i;
	int socket;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < rte_socket_count(); i++) {
		socket = rte_socket_id_by_idx(i);
		if (socket < 0 || rte_malloc_get_socket_stats(socket, &st) < 0)
			continue;
		c->zc += st.heap_cleared_on_zmalloc_bytes;
		c->cf += st.heap_cleared_on_free_bytes;
	}
}

struct mr_segs {
	unsigned int n; /* mapped pages */
	unsigned int dirty; /* of which RTE_MEMSEG_FLAG_DIRTY */
};

static int
mr_seg_count(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	struct mr_segs *s = arg;

	RTE_SET_USED(msl);
	s->n++;
	s->dirty += (ms->flags & RTE_MEMSEG_FLAG_DIRTY) != 0;
	return 0;
}

/* The items of one round of the mix. */
struct mr_round {
	void *p[MR_MAX_ITEMS];
	unsigned int n; /* items */
	size_t block; /* the size of the big ones */
	uint64_t bytes; /* sum of their sizes */
};

/* Zero-allocate the mix, item i with kind i % MR_N_KINDS. */
static int
mr_round_zalloc(struct mr_round *r)
{
	unsigned int i;

	r->bytes = 0;
	for (i = 0; i < r->n; i++) {
		r->p[i] = mr_zalloc((enum mr_kind)(i % MR_N_KINDS),
				mr_item_size(r->block, i));
		if (r->p[i] == NULL) {
			printf("zmalloc_check: %s of %zu bytes (item %u) "
			       "failed\n",
					mr_kind_name[i % MR_N_KINDS],
					mr_item_size(r->block, i), i);
			return -1;
		}
		r->bytes += mr_item_size(r->block, i);
	}
	return 0;
}

/* @return the number of items holding a non-zero byte (each reported). */
static unsigned int
mr_round_check_zero(const struct mr_round *r, const char *when)
{
	unsigned int i, bad = 0;
	size_t off;

	for (i = 0; i < r->n; i++) {
		off = mr_first_nonzero(r->p[i], mr_item_size(r->block, i));
		if (off == SIZE_MAX)
			continue;
		printf("zmalloc_check: %s: %s item %u (%zu bytes at %p): "
		       "byte %zu is 0x%02x\n",
				when, mr_kind_name[i % MR_N_KINDS], i,
				mr_item_size(r->block, i), r->p[i], off,
				((const uint8_t *)r->p[i])[off]);
		bad++;
	}
	return bad;
}

static void
mr_round_free(struct mr_round *r)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		rte_free(r->p[i]);
		r->p[i] = NULL;
	}
}

static int
mr_heap_check(const char *when)
{
	char err[256];

	if (malloc_heap_check_all(true, err, sizeof(err)) == 0)
		return 0;
	printf("zmalloc_check: %s: heap check: %s\n", when, err);
	return -1;
}

/*
 * The restart itself: zero-allocate the mix on the memory as found, check
 * it, report "check: segs S dirty D zc Z zc_delta ZD want W cf C".
 */
static int
mr_check_restart(struct mr_round *r, unsigned int *bad)
{
	struct mr_counters c0, c1;
	struct mr_segs segs = { 0 };

	mr_counters_read(&c0);
	if (mr_round_zalloc(r) < 0)
		return -1;
	mr_counters_read(&c1);
	rte_memseg_walk(mr_seg_count, &segs);
	*bad += mr_round_check_zero(r, "after restart");
	printf("check: segs %u dirty %u zc %" PRIu64 " zc_delta %" PRIu64
	       " want %" PRIu64 " cf %" PRIu64 "\n",
			segs.n, segs.dirty, c1.zc, c1.zc - c0.zc, r->bytes,
			c1.cf);
	if (mr_heap_check("after restart") < 0)
		return -1;
	mr_round_free(r);
	return 0;
}

/*
 * Reuse inside the process: allocate the mix, fill it, free it and
 * zero-allocate it again; report "phase2: zc_delta ZD cf_delta CD freed F"
 * (cleared by the zero allocations, cleared by the frees, bytes freed).
 */
static int
mr_check_reuse(struct mr_round *r, unsigned int *bad)
{
	struct mr_counters c0, c1, c2;
	uint64_t freed = 0;
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		r->p[i] = rte_malloc(NULL, mr_item_size(r->block, i), 0);
		if (r->p[i] == NULL) {
			printf("zmalloc_check: rte_malloc of %zu failed\n",
					mr_item_size(r->block, i));
			return -1;
		}
		memset(r->p[i], MR_REFILL, mr_item_size(r->block, i));
		freed += mr_item_size(r->block, i);
	}
	mr_counters_read(&c0);
	mr_round_free(r);
	mr_counters_read(&c1);
	if (mr_round_zalloc(r) < 0)
		return -1;
	mr_counters_read(&c2);
	*bad += mr_round_check_zero(r, "after reuse");
	printf("phase2: zc_delta %" PRIu64 " cf_delta %" PRIu64
	       " freed %" PRIu64 "\n",
			c2.zc - c1.zc, c1.cf - c0.cf, freed);
	if (mr_heap_check("after reuse") < 0)
		return -1;
	mr_round_free(r);
	return 0;
}

/*
 * App args: the number of big blocks. Exit 0 if every zero-allocated
 * byte was zero, 2 if some were not, 1 on any other failure.
 */
static int
mr_child_check(int argc, char **argv)
{
	static struct mr_round r;
	int blocks = mr_parse_blocks(argc, argv);
	unsigned int bad = 0;

	if (blocks < 0) {
		printf("zmalloc_check: bad arguments\n");
		return 1;
	}
	r.n = MR_N_SMALL + 1 + (unsigned int)blocks;
	r.block = mr_child_block_size();
	if (mr_check_restart(&r, &bad) < 0 || mr_check_reuse(&r, &bad) < 0) {
		mr_round_free(&r);
		return 1;
	}
	printf("zmalloc_check: %u items with non-zero bytes\n", bad);
	return bad == 0 ? 0 : 2;
}
REGISTER_CHILD_ACTION(zmalloc_check, mr_child_check)

/* ---- parent side ---- */

/* One backing and mode. */
struct mr_backing {
	const char *name; /* of the scratch dir; prefix "mr<name>" */
	const char *eal[4]; /* EAL options of every run, NULL-terminated */
	bool no_huge; /* its pages are not those of the hugetlbfs */
	unsigned int mem; /* -m of the check and full runs in blocks, or 0 */
	unsigned int half_mem; /* -m of the partial fill run, or 0 */
	bool never; /* runs add --huge-unlink=never */
	bool keeps_memory; /* freed pages are never given back */
	bool delete_files; /* partial state also deletes page files */
	unsigned int blocks; /* big blocks of the check */
	unsigned int full_blocks; /* of the full fill run: more */
	unsigned int half_blocks; /* of the partial fill run: about half */
};

static const struct mr_backing mr_backings[] = {
	{
			.name = "page",
			.eal = { NULL },
			.never = true,
			.delete_files = true,
			.blocks = 48,
			.full_blocks = 56,
			/* More than a page of 32 blocks: files to delete. */
			.half_blocks = 36,
	},
	{
			.name = "single",
			.eal = { "--single-file-segments", NULL },
			.never = true,
			.blocks = 48,
			.full_blocks = 56,
			.half_blocks = 20,
	},
	{
			.name = "legacy",
			.eal = { "--legacy-mem", NULL },
			.mem = 64,
			.half_mem = 32,
			.never = true,
			.keeps_memory = true,
			.blocks = 32,
			.full_blocks = 40,
			.half_blocks = 12,
	},
	{
			.name = "inmem",
			.eal = { "--in-memory", NULL },
			.blocks = 48,
			.full_blocks = 56,
			.half_blocks = 20,
	},
	{
			.name = "nohuge",
			.eal = { "--no-huge", NULL },
			.no_huge = true,
			.mem = 64,
			.half_mem = 32,
			.keeps_memory = true,
			.blocks = 32,
			.full_blocks = 40,
			.half_blocks = 12,
	},
};

/* A backing's directory and prefix. */
struct mr_case {
	const struct mr_backing *bk;
	size_t block; /* the size of the big blocks of its runs */
	char dir[PATH_MAX];
	char prefix[64];
	char huge_dir_arg[PATH_MAX + 16];
	char prefix_arg[96];
};

/* One child run: its arguments. */
struct mr_run {
	const char *args[16];
	char blocks[16];
	char mem[24];
};

/*
 * Build the arguments of a run with @p blocks, -m @p mem blocks (none
 * with 0), @p never.
 */
static void
mr_run_args(struct mr_run *run, const struct mr_case *c, unsigned int blocks,
		unsigned int mem, bool never)
{
	const char *const *e;
	size_t n = 0;

	run->args[n++] = c->huge_dir_arg;
	run->args[n++] = c->prefix_arg;
	if (mem != 0) {
		snprintf(run->mem, sizeof(run->mem), "%zu",
				(c->block >> 20) * mem);
		run->args[n++] = "-m";
		run->args[n++] = run->mem;
	}
	for (e = c->bk->eal; *e != NULL; e++)
		run->args[n++] = *e;
	if (never)
		run->args[n++] = "--huge-unlink=never";
	snprintf(run->blocks, sizeof(run->blocks), "%u", blocks);
	run->args[n++] = "--";
	run->args[n++] = run->blocks;
	run->args[n] = NULL;
}

/* What a check run reported. */
struct mr_report {
	unsigned int segs, dirty; /* pages mapped at the peak, dirty ones */
	uint64_t zc; /* cleared_on_zmalloc since start, after the restart */
	uint64_t zc_delta; /* cleared by the zero allocations of the restart */
	uint64_t want; /* bytes those zero allocations asked for */
	uint64_t cf; /* cleared_on_free since start, after the restart */
	uint64_t p2_zc; /* reuse: cleared by the zero allocations */
	uint64_t p2_cf; /* reuse: cleared by the frees */
	uint64_t p2_freed; /* reuse: bytes freed */
};

static int
mr_report_parse(const char *out, struct mr_report *r)
{
	const char *p = strstr(out, "check: segs ");
	const char *q = strstr(out, "phase2: ");

	if (p == NULL || q == NULL)
		return -1;
	if (sscanf(p,
			    "check: segs %u dirty %u zc %" SCNu64
			    " zc_delta %" SCNu64 " want %" SCNu64
			    " cf %" SCNu64,
			    &r->segs, &r->dirty, &r->zc, &r->zc_delta, &r->want,
			    &r->cf) != 6)
		return -1;
	if (sscanf(q,
			    "phase2: zc_delta %" SCNu64 " cf_delta %" SCNu64
			    " freed %" SCNu64,
			    &r->p2_zc, &r->p2_cf, &r->p2_freed) != 3)
		return -1;
	return 0;
}

/* What the restart finds. */
enum mr_dirty {
	MR_DIRTY_NONE, /* no file reused: clean pages, nothing cleared */
	MR_DIRTY_ALL, /* every page reused: all dirty, all requested cleared */
	MR_DIRTY_SOME, /* some pages reused */
};

static const char *const mr_dirty_name[] = { "none", "all", "some" };

static int
mr_expect_restart(const struct mr_report *r, enum mr_dirty dirty)
{
	switch (dirty) {
	case MR_DIRTY_NONE:
		TEST_ASSERT_EQUAL(r->dirty, 0, "%u dirty pages", r->dirty);
		TEST_ASSERT_EQUAL(
				r->zc, 0, "cleared_on_zmalloc %" PRIu64, r->zc);
		break;
	case MR_DIRTY_ALL:
		TEST_ASSERT(r->segs > 0 && r->dirty == r->segs,
				"%u of %u pages dirty, expected all", r->dirty,
				r->segs);
		TEST_ASSERT_EQUAL(r->zc_delta, r->want,
				"zmalloc cleared %" PRIu64
				" bytes, expected the %" PRIu64 " requested",
				r->zc_delta, r->want);
		break;
	case MR_DIRTY_SOME:
		TEST_ASSERT(r->dirty > 0 && r->dirty < r->segs,
				"%u of %u pages dirty, expected some", r->dirty,
				r->segs);
		TEST_ASSERT(r->zc_delta > 0 && r->zc_delta <= r->want,
				"zmalloc cleared %" PRIu64
				" bytes, expected 1 to %" PRIu64,
				r->zc_delta, r->want);
		break;
	}
	return TEST_SUCCESS;
}

/*
 * Reuse inside the check child. Where no page is dirty and freed pages
 * cannot come back dirty (not --huge-unlink=never, or memory is never
 * given back), zero allocations clear nothing; where memory is also never
 * given back, each free clears at least what it frees.
 */
static int
mr_expect_reuse(const struct mr_report *r, const struct mr_backing *bk,
		enum mr_dirty dirty, bool never)
{
	if (dirty != MR_DIRTY_NONE)
		return TEST_SUCCESS;
#ifdef RTE_MALLOC_DEBUG
	/* Debug builds poison what is freed: it is dirty, and rte_zmalloc()
	 * clears it; the check child still verified every byte. */
	RTE_SET_USED(r);
	RTE_SET_USED(bk);
	RTE_SET_USED(never);
	return TEST_SUCCESS;
#endif
	if (!never || bk->keeps_memory)
		TEST_ASSERT_EQUAL(r->p2_zc, 0,
				"reuse: zmalloc cleared %" PRIu64
				" bytes of clean memory",
				r->p2_zc);
	if (bk->keeps_memory)
		TEST_ASSERT(r->p2_cf >= r->p2_freed,
				"reuse: free cleared %" PRIu64
				" bytes, less than the %" PRIu64 " freed",
				r->p2_cf, r->p2_freed);
	return TEST_SUCCESS;
}

/* A sanitizer report that did not stop the child (UBSan) still fails. */
static bool
mr_has_sanitizer_report(const char *out)
{
	return strstr(out, "runtime error:") != NULL ||
			strstr(out, "Sanitizer") != NULL;
}

/* Run the check child and assert what the state makes exact. */
static int
mr_check(const struct mr_case *c, const char *state, enum mr_dirty dirty,
		bool never)
{
	struct test_child_result res;
	struct mr_report r;
	struct mr_run run;

	mr_run_args(&run, c, c->bk->blocks, c->bk->mem, never);
	TEST_ASSERT_SUCCESS(test_child_run("zmalloc_check", run.args, &res),
			"%s/%s: check child did not run: %s", c->bk->name,
			state, res.output);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s/%s: check exit %d: %s",
			c->bk->name, state, res.exit_code, res.output);
	TEST_ASSERT(!mr_has_sanitizer_report(res.output),
			"%s/%s: sanitizer report: %s", c->bk->name, state,
			res.output);
	TEST_ASSERT_SUCCESS(mr_report_parse(res.output, &r),
			"%s/%s: no report in: %s", c->bk->name, state,
			res.output);
	printf("  %s/%s: pages %u dirty %u; zmalloc cleared %" PRIu64
	       " of %" PRIu64 "; reuse: zmalloc cleared %" PRIu64
	       ", free cleared %" PRIu64 " of %" PRIu64 " freed\n",
			c->bk->name, state, r.segs, r.dirty, r.zc_delta, r.want,
			r.p2_zc, r.p2_cf, r.p2_freed);
	if (mr_expect_restart(&r, dirty) != TEST_SUCCESS ||
			mr_expect_reuse(&r, c->bk, dirty, never) !=
					TEST_SUCCESS) {
		printf("%s/%s: expected dirty %s; child output:\n%s\n",
				c->bk->name, state, mr_dirty_name[dirty],
				res.output);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/* Start a fill child, let it fill, kill it; @p filled: bytes it filled. */
static int
mr_fill_and_kill(const struct mr_case *c, unsigned int blocks, unsigned int mem,
		uint64_t *filled)
{
	struct test_child_result res;
	struct mr_run run;
	const char *p;
	pid_t pid;

	mr_run_args(&run, c, blocks, mem, c->bk->never);
	pid = test_child_start("malloc_fill", run.args, &res);
	TEST_ASSERT(pid > 0, "%s: fill child did not start (exit %d): %s",
			c->bk->name, res.exit_code, res.output);
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGKILL, &res),
			"%s: fill child not finished", c->bk->name);
	TEST_ASSERT_EQUAL(res.signal, SIGKILL, "%s: fill child: exit %d: %s",
			c->bk->name, res.exit_code, res.output);
	TEST_ASSERT(!mr_has_sanitizer_report(res.output),
			"%s: fill child: sanitizer report: %s", c->bk->name,
			res.output);
	p = strstr(res.output, "filled ");
	TEST_ASSERT(p != NULL && sscanf(p, "filled %" SCNu64, filled) == 1,
			"%s: fill child did not say what it filled: %s",
			c->bk->name, res.output);
	return TEST_SUCCESS;
}

/* @return the index N of a "<prefix>map_N" file name, or -1. */
static long
mr_map_index(const struct mr_case *c, const char *name)
{
	size_t len = strlen(c->prefix);
	char *end;
	long n;

	if (strncmp(name, c->prefix, len) != 0 ||
			strncmp(name + len, "map_", 4) != 0)
		return -1;
	n = strtol(name + len + 4, &end, 10);
	return *end == '\0' && n >= 0 ? n : -1;
}

/* @return the number of MR_FILL bytes in @p fd, or -1. */
static int64_t
mr_fd_count_fill(int fd, uint8_t *buf, size_t len)
{
	int64_t count = 0;
	ssize_t got, i;

	while ((got = read(fd, buf, len)) > 0)
		for (i = 0; i < got; i++)
			count += buf[i] == MR_FILL;
	return got < 0 ? -1 : count;
}

/* @return the number of MR_FILL bytes in the case's page files, or -1. */
static int64_t
mr_count_fill(const struct mr_case *c)
{
	const size_t len = 2u << 20;
	uint8_t *buf = malloc(len);
	DIR *d = opendir(c->dir);
	int64_t count = 0, n;
	struct dirent *de;
	int fd;

	while (buf != NULL && d != NULL && count >= 0 &&
			(de = readdir(d)) != NULL) {
		if (mr_map_index(c, de->d_name) < 0)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : mr_fd_count_fill(fd, buf, len);
		if (fd >= 0)
			close(fd);
		count = n < 0 ? -1 : count + n;
	}
	if (d != NULL)
		closedir(d);
	free(buf);
	return buf == NULL || d == NULL ? -1 : count;
}

/* Delete the page files N with N % 3 == 1. @return how many, or -1. */
static int
mr_delete_some_files(const struct mr_case *c, int *kept)
{
	DIR *d = opendir(c->dir);
	struct dirent *de;
	int deleted = 0;
	long n;

	*kept = 0;
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		n = mr_map_index(c, de->d_name);
		if (n < 0)
			continue;
		if (n % 3 != 1) {
			(*kept)++;
		} else if (unlinkat(dirfd(d), de->d_name, 0) == 0) {
			deleted++;
		} else {
			deleted = -1;
			break;
		}
	}
	closedir(d);
	return deleted;
}

static int
mr_state_fresh(struct mr_case *c)
{
	test_dir_clear(c->dir);
	return mr_check(c, "fresh", MR_DIRTY_NONE, c->bk->never);
}

static int
mr_state_full(struct mr_case *c)
{
	uint64_t filled;
	int64_t found;

	test_dir_clear(c->dir);
	if (mr_fill_and_kill(c, c->bk->full_blocks, c->bk->mem, &filled) !=
			TEST_SUCCESS)
		return TEST_FAILED;
	if (c->bk->never) {
		/* The restart really finds the data: the test can fail. */
		found = mr_count_fill(c);
		TEST_ASSERT(found >= (int64_t)filled,
				"%s/full: %" PRId64 " bytes 0x%x in the files, "
				"expected at least the %" PRIu64 " filled",
				c->bk->name, found, MR_FILL, filled);
	}
	return mr_check(c, "full", c->bk->never ? MR_DIRTY_ALL : MR_DIRTY_NONE,
			c->bk->never);
}

static int
mr_state_partial(struct mr_case *c)
{
	unsigned int mem = c->bk->half_mem != 0 ? c->bk->half_mem : c->bk->mem;
	int deleted, kept;
	uint64_t filled;
	int64_t found;

	test_dir_clear(c->dir);
	if (mr_fill_and_kill(c, c->bk->half_blocks, mem, &filled) !=
			TEST_SUCCESS)
		return TEST_FAILED;
	if (c->bk->delete_files) {
		deleted = mr_delete_some_files(c, &kept);
		TEST_ASSERT(deleted > 0 && kept > 0,
				"%s/partial: deleted %d page files, kept %d",
				c->bk->name, deleted, kept);
	}
	if (c->bk->never) {
		found = mr_count_fill(c);
		TEST_ASSERT(found > 0, "%s/partial: no byte 0x%x in the files",
				c->bk->name, MR_FILL);
	}
	return mr_check(c, "partial",
			c->bk->never ? MR_DIRTY_SOME : MR_DIRTY_NONE,
			c->bk->never);
}

/*
 * Last run in the default mode: it must drop the previous files, find
 * clean memory and, on exit, leave nothing in the directory.
 */
static int
mr_state_existing(struct mr_case *c)
{
	if (mr_check(c, "existing", MR_DIRTY_NONE, false) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(test_dir_count(c->dir, NULL), 0,
			"%s: %d files left after a clean exit", c->bk->name,
			test_dir_count(c->dir, NULL));
	return TEST_SUCCESS;
}

static int
mr_backing_run(const struct mr_backing *bk)
{
	struct mr_case c = { .bk = bk };
	uint64_t page_sz = test_huge_page_size();
	int ret;

	if (page_sz == 0 ||
			test_scratch_dir(bk->name, c.dir, sizeof(c.dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	c.block = mr_block_size(bk->no_huge ? RTE_PGSIZE_4K : page_sz);
	snprintf(c.prefix, sizeof(c.prefix), "mr%s", bk->name);
	snprintf(c.huge_dir_arg, sizeof(c.huge_dir_arg), "--huge-dir=%s",
			c.dir);
	snprintf(c.prefix_arg, sizeof(c.prefix_arg), "--file-prefix=%s",
			c.prefix);
	printf("backing %s, blocks of %zu kB\n", bk->name, c.block >> 10);
	ret = mr_state_fresh(&c);
	if (ret == TEST_SUCCESS)
		ret = mr_state_full(&c);
	if (ret == TEST_SUCCESS)
		ret = mr_state_partial(&c);
	if (ret == TEST_SUCCESS)
		ret = mr_state_existing(&c);
	else
		test_dir_clear(c.dir);
	if (test_scratch_dir_remove(c.dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

static int
test_malloc_restart(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(mr_backings); i++) {
		ret = mr_backing_run(&mr_backings[i]);
		if (ret != TEST_SUCCESS)
			return ret;
	}
	return TEST_SUCCESS;
}

REGISTER_FAST_TEST(malloc_restart_autotest, NOHUGE_SKIP, ASAN_OK,
		test_malloc_restart);
