/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The allocator table: for each call and size, allocate up to max_runs
 * blocks (or until memory runs out), write them all, free them all, and
 * time each phase as a whole. Each phase is timed as one loop, so the
 * clock's own cost is spread over thousands of calls.
 *
 * The bytes the allocator cleared come from the heap's statistics summed
 * over the NUMA nodes (mperf_heap_totals()), read before and after each
 * phase.
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_config.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "malloc_perf_table.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define GIB ((size_t)1 << 30)

/* What the rows write into each block: not zero, so that a clean heap has
 * something to clear when the block comes back.
 */
#define MPERF_FILL 0xa5

const size_t mperf_sizes[] = {
	64,
	128,
	KIB,
	4 * KIB,
	64 * KIB,
	MIB,
	2 * MIB,
	4 * MIB,
	16 * MIB,
	GIB,
};
const unsigned int mperf_n_sizes = RTE_DIM(mperf_sizes);

/*
 * The C library's rows stop at this many bytes in all: hugepage memory is
 * reserved apart from the rest, and as many blocks as the heap got could
 * take more than the machine has left.
 */
#define MPERF_LIBC_MAX GIB

/* Blocks of @p size for the C library's row, after @p heap_runs. */
static unsigned int
mperf_libc_runs(unsigned int heap_runs, size_t size)
{
	size_t fit = size >= MPERF_LIBC_MAX ? 1 : MPERF_LIBC_MAX / size;

	return fit < heap_runs ? (unsigned int)fit : heap_runs;
}

/* One block, whichever call made it. */
struct mperf_block {
	void *addr;
	const struct rte_memzone *mz;
};

static double
mperf_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

void
mperf_config_default(struct mperf_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->max_runs = 10000;
	cfg->memset_len = GIB;
	cfg->memset_reps = 20;
}

const char *
mperf_api_name(enum mperf_api api)
{
	switch (api) {
	case MPERF_MALLOC:
		return "rte_malloc";
	case MPERF_ZMALLOC:
		return "rte_zmalloc";
	case MPERF_MEMZONE:
		return "rte_memzone_reserve";
	case MPERF_LIBC:
		return "malloc (libc)";
	default:
		return "?";
	}
}

int
mperf_memset_reference(
		const struct mperf_config *cfg, struct mperf_memset_ref *ref)
{
	size_t len = cfg->memset_len;
	double t0, t1;
	unsigned int i;
	void *buf;

	memset(ref, 0, sizeof(*ref));
	while ((buf = rte_malloc(NULL, len, 0)) == NULL && len > MIB)
		len /= 2;
	if (buf == NULL)
		return -1;
	/* The first pass is not timed: it takes the memory into the caches
	 * and TLB the way an application's first use would.
	 */
	memset(buf, 0, len);
	t0 = mperf_now_us();
	for (i = 0; i < cfg->memset_reps; i++)
		memset(buf, (int)i, len);
	t1 = mperf_now_us();
	rte_free(buf);

	ref->len = len;
	ref->reps = cfg->memset_reps;
	if (t1 > t0 && ref->reps > 0) {
		double us_per_byte = (t1 - t0) / ((double)len * ref->reps);

		ref->us_per_mib = us_per_byte * MIB;
		ref->gib_per_s = 1e6 / (us_per_byte * GIB);
	}
	return 0;
}

int
mperf_heap_totals(struct mperf_heap_totals *t)
{
	unsigned int i, n = rte_socket_count();

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		struct rte_malloc_socket_stats st;

		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) <
				0)
			return -1;
		t->alloc_count += st.alloc_count;
		t->cleared_on_zmalloc += st.heap_cleared_on_zmalloc_bytes;
		t->cleared_on_free += st.heap_cleared_on_free_bytes;
	}
	return 0;
}

static bool
mperf_alloc_one(enum mperf_api api, size_t size, unsigned int idx,
		struct mperf_block *b)
{
	char name[RTE_MEMZONE_NAMESIZE];

	b->mz = NULL;
	switch (api) {
	case MPERF_MALLOC:
		b->addr = rte_malloc(NULL, size, 0);
		break;
	case MPERF_ZMALLOC:
		b->addr = rte_zmalloc(NULL, size, 0);
		break;
	case MPERF_LIBC:
		b->addr = malloc(size);
		break;
	default:
		snprintf(name, sizeof(name), "mperf_%u", idx);
		/* Big pages when there are some, any page size otherwise. */
		b->mz = rte_memzone_reserve(name, size, SOCKET_ID_ANY,
				RTE_MEMZONE_1GB | RTE_MEMZONE_SIZE_HINT_ONLY);
		b->addr = b->mz != NULL ? b->mz->addr : NULL;
		break;
	}
	return b->addr != NULL;
}

static int
mperf_free_one(enum mperf_api api, const struct mperf_block *b)
{
	if (b->mz != NULL)
		return rte_memzone_free(b->mz);
	if (api == MPERF_LIBC)
		free(b->addr);
	else
		rte_free(b->addr);
	return 0;
}

/* Measure one row into @p row; row->runs is 0 if nothing fit. */
static int
mperf_row_measure(enum mperf_api api, size_t size, unsigned int max_runs,
		struct mperf_block *blocks, struct mperf_row *row)
{
	struct mperf_heap_totals h0, h1, h2;
	double t0, t1, t2, t3;
	unsigned int i, n = 0;
	int rc = 0;

	memset(row, 0, sizeof(*row));
	row->api = api;
	row->size = size;
	if (mperf_heap_totals(&h0) < 0)
		return -1;
	t0 = mperf_now_us();
	while (n < max_runs && mperf_alloc_one(api, size, n, &blocks[n]))
		n++;
	t1 = mperf_now_us();
	for (i = 0; i < n; i++)
		memset(blocks[i].addr, MPERF_FILL, size);
	t2 = mperf_now_us();
	if (mperf_heap_totals(&h1) < 0)
		rc = -1;
	for (i = 0; i < n; i++)
		if (mperf_free_one(api, &blocks[i]) < 0)
			rc = -1;
	t3 = mperf_now_us();
	if (rc == 0 && mperf_heap_totals(&h2) < 0)
		rc = -1;
	if (rc < 0 || n == 0)
		return rc;

	row->runs = n;
	row->alloc_us = (t1 - t0) / n;
	row->memset_us = (t2 - t1) / n;
	row->free_us = (t3 - t2) / n;
	row->cleared_alloc = (double)(h1.cleared_on_zmalloc -
					     h0.cleared_on_zmalloc) /
			n;
	row->cleared_free = (double)(h2.cleared_on_free - h1.cleared_on_free) /
			n;
	return 0;
}

int
mperf_run(const struct mperf_config *cfg, mperf_row_cb *cb, void *arg)
{
	unsigned int max_runs = cfg->max_runs;
	unsigned int malloc_runs[RTE_DIM(mperf_sizes)] = { 0 };
	struct mperf_block *blocks;
	unsigned int api, s;
	int rc = 0;

	if (max_runs < (unsigned int)RTE_MAX_MEMZONE)
		max_runs = RTE_MAX_MEMZONE;
	blocks = calloc(max_runs, sizeof(*blocks));
	if (blocks == NULL)
		return -1;
	for (api = 0; api < MPERF_API_COUNT && rc == 0; api++) {
		/* One memzone slot stays free for the application's own. */
		unsigned int runs;

		runs = api == MPERF_MEMZONE ?
				RTE_MIN(cfg->max_runs, RTE_MAX_MEMZONE - 1U) :
				cfg->max_runs;

		for (s = 0; s < mperf_n_sizes && rc == 0; s++) {
			size_t size = mperf_sizes[s];
			struct mperf_row row;

			if (cfg->max_size != 0 && size > cfg->max_size)
				break;
			if (api == MPERF_LIBC)
				runs = mperf_libc_runs(malloc_runs[s], size);
			if (runs == 0)
				continue;
			if (cfg->progress != NULL)
				fprintf(cfg->progress,
						"malloc_perf: %s %zu B...\n",
						mperf_api_name(api), size);
			rc = mperf_row_measure(api, size, runs, blocks, &row);
			if (api == MPERF_MALLOC)
				malloc_runs[s] = row.runs;
			if (rc == 0 && row.runs > 0)
				cb(&row, arg);
		}
	}
	free(blocks);
	return rc;
}

void
mperf_print_memset(FILE *f, const struct mperf_memset_ref *ref)
{
	fprintf(f, "memset reference: %.2f GiB/s, %.2f us/MiB (%u x %zu MiB)\n",
			ref->gib_per_s, ref->us_per_mib, ref->reps,
			ref->len / MIB);
}

void
mperf_print_header(FILE *f)
{
	fprintf(f, "%-19s %10s %5s %11s %11s %11s %11s %12s\n", "API",
			"Size(B)", "Runs", "Alloc(us)", "Free(us)", "Total(us)",
			"memset(us)", "Cleared(B)");
}

void
mperf_print_row(FILE *f, const struct mperf_row *row)
{
	fprintf(f, "%-19s %10zu %5u %11.2f %11.2f %11.2f %11.2f %12.0f\n",
			mperf_api_name(row->api), row->size, row->runs,
			row->alloc_us, row->free_us,
			row->alloc_us + row->free_us, row->memset_us,
			row->cleared_alloc + row->cleared_free);
}
