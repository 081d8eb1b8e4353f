/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The children of the launcher: one start of the application, and the
 * clean-up run.
 *
 * A start: rte_eal_init(); the pools, half of --size from rte_zmalloc()
 * and half as memzones, in blocks of at most 64 MB (the tables and
 * packet buffer pools of a packet application); every byte of the
 * rte_zmalloc() blocks is checked to be zero just before it is written
 * with a pattern, and the memzones are written too, so that every page
 * holds data for the next start; a sleep (serving); then
 * rte_eal_cleanup() without freeing anything, and the report to the
 * launcher. With --huge-unlink=never the files, and the data, stay.
 *
 * The clean-up run initializes the EAL in the default --huge-unlink mode
 * ("existing") with no memory: init removes the files of the prefix that
 * no live process holds, cleanup the few it mapped itself, so none is
 * left.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>

#include "fast_restart.h"

#define BLOCK_MAX_MB 64 /* size of a pool block, unless there are many */
#define BLOCKS_MAX 256 /* blocks of each kind */
#define CHECK_STEP (1U << 20) /* bytes checked, then written, at a time */

/* The pools of one start. */
struct pools {
	void *zm[BLOCKS_MAX]; /* rte_zmalloc() blocks */
	size_t zm_len[BLOCKS_MAX]; /* their lengths in bytes */
	unsigned int n_zm; /* blocks allocated */
	const struct rte_memzone *mz[BLOCKS_MAX]; /* memzones */
	unsigned int n_mz; /* memzones reserved */
};

/* Pages mapped, and how many of them are dirty. */
struct page_tally {
	uint64_t mapped; /* bytes of pages mapped */
	uint64_t dirty; /* of which RTE_MEMSEG_FLAG_DIRTY */
};

static int
tally_page(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	struct page_tally *t = arg;

	(void)msl;
	t->mapped += ms->len;
	if (ms->flags & RTE_MEMSEG_FLAG_DIRTY)
		t->dirty += ms->len;
	return 0;
}

static void
pages_tally(uint64_t *mapped, uint64_t *dirty)
{
	struct page_tally t = { 0, 0 };

	rte_memseg_walk(tally_page, &t);
	*mapped = t.mapped;
	*dirty = t.dirty;
}

/* Bytes rte_zmalloc() cleared so far, summed over the NUMA nodes' heaps. */
static uint64_t
heap_cleared(void)
{
	struct rte_malloc_socket_stats s;
	unsigned int i;
	uint64_t sum = 0;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &s) ==
				0)
			sum += s.heap_cleared_on_zmalloc_bytes;
	return sum;
}

/* Split @p mb into @p n blocks: @return the MB of block @p i. */
static uint64_t
block_mb(uint64_t mb, unsigned int n, unsigned int i)
{
	return mb * (i + 1) / n - mb * i / n;
}

static unsigned int
block_count(uint64_t mb)
{
	uint64_t n = (mb + BLOCK_MAX_MB - 1) / BLOCK_MAX_MB;

	return n > BLOCKS_MAX ? BLOCKS_MAX : (unsigned int)n;
}

/* Allocate the pools: @p size_mb, half from rte_zmalloc(), half memzones. */
static int
pools_alloc(struct pools *p, uint64_t size_mb, unsigned int start)
{
	uint64_t zm_mb = size_mb / 2, mz_mb = size_mb - zm_mb;
	unsigned int n_zm = block_count(zm_mb), n_mz = block_count(mz_mb);
	char name[RTE_MEMZONE_NAMESIZE];
	size_t len;

	for (p->n_zm = 0; p->n_zm < n_zm; p->n_zm++) {
		len = block_mb(zm_mb, n_zm, p->n_zm) * FR_MB;
		p->zm[p->n_zm] = rte_zmalloc("fast_restart", len, 0);
		if (p->zm[p->n_zm] == NULL) {
			fprintf(stderr, "fast_restart: start %u: rte_zmalloc() of block %u (%zu MB) failed: %s\n",
					start, p->n_zm, len >> 20,
					rte_strerror(rte_errno));
			return -1;
		}
		p->zm_len[p->n_zm] = len;
	}
	for (p->n_mz = 0; p->n_mz < n_mz; p->n_mz++) {
		len = block_mb(mz_mb, n_mz, p->n_mz) * FR_MB;
		snprintf(name, sizeof(name), "fast_restart_%u", p->n_mz);
		p->mz[p->n_mz] = rte_memzone_reserve(
				name, len, SOCKET_ID_ANY, 0);
		if (p->mz[p->n_mz] == NULL) {
			fprintf(stderr, "fast_restart: start %u: rte_memzone_reserve() of %s (%zu MB) failed: %s\n",
					start, name, len >> 20,
					rte_strerror(rte_errno));
			return -1;
		}
	}
	return 0;
}

/* @return the offset of the first non-zero byte of @p p, or @p len. */
static size_t
first_nonzero(const uint8_t *p, size_t len)
{
	const uint64_t *w;
	size_t off = 0, i;
	uint64_t acc;

	/* p is cache-line aligned: scan 256 bytes at a time, as words. */
	for (; off + 256 <= len; off += 256) {
		w = (const uint64_t *)(const void *)(p + off);
		acc = 0;
		for (i = 0; i < 256 / sizeof(*w); i++)
			acc |= w[i];
		if (acc != 0)
			break;
	}
	for (; off < len; off++)
		if (p[off] != 0)
			return off;
	return len;
}

/*
 * Check that rte_zmalloc() block @p b is zero, a step at a time, writing
 * @p pattern over each step once checked. The first non-zero byte found
 * is described on stderr.
 *
 * @return the bytes of the steps that were not all zero.
 */
static uint64_t
zm_check_and_write(const struct pools *p, unsigned int b, uint8_t pattern,
		unsigned int start, bool *told)
{
	uint8_t *base = p->zm[b];
	size_t len = p->zm_len[b], off, step, bad;
	uint64_t not_zero = 0;

	for (off = 0; off < len; off += step) {
		step = len - off < CHECK_STEP ? len - off : CHECK_STEP;
		bad = first_nonzero(base + off, step);
		if (bad < step) {
			not_zero += step;
			if (!*told)
				fprintf(stderr, "fast_restart: start %u: rte_zmalloc() returned memory that is not zero: block %u (%zu MB at %p), byte %zu holds 0x%02x\n",
						start, b, len >> 20,
						(void *)base, off + bad,
						base[off + bad]);
			*told = true;
		}
		memset(base + off, pattern, step);
	}
	return not_zero;
}

/*
 * Write a pattern into all the pools, checking the rte_zmalloc() memory
 * is zero first (memzones are never cleared: they may hold old data).
 *
 * @return 0, or -1 if some rte_zmalloc() memory was not zero.
 */
static int
pools_check_and_write(const struct pools *p, unsigned int start)
{
	uint8_t pattern = (uint8_t)(0xa0 | (start & 0xf));
	uint64_t not_zero = 0, total = 0;
	bool told = false;
	unsigned int b;

	for (b = 0; b < p->n_zm; b++) {
		not_zero += zm_check_and_write(p, b, pattern, start, &told);
		total += p->zm_len[b];
	}
	for (b = 0; b < p->n_mz; b++)
		memset(p->mz[b]->addr, pattern, p->mz[b]->len);
	if (not_zero == 0)
		return 0;
	fprintf(stderr,
			"fast_restart: start %u: %" PRIu64 " MB of the %" PRIu64
			" MB from rte_zmalloc() held data: the heap did not clear dirty memory\n",
			start, not_zero >> 20, total >> 20);
	return -1;
}

static void
serve(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void
report_send(int fd, const struct fr_report *r)
{
	if (write(fd, r, sizeof(*r)) != (ssize_t)sizeof(*r))
		fprintf(stderr, "fast_restart: start %u: cannot report: %s\n",
				r->start, strerror(errno));
	close(fd);
}

/* After rte_eal_init(): the pools, the check, serving. @return status */
static int
start_run(struct fr_report *r, const struct fr_options *o)
{
	struct pools *p = calloc(1, sizeof(*p));
	uint64_t cleared_before;
	int status = 0;

	if (p == NULL) {
		fprintf(stderr, "fast_restart: start %u: out of memory\n",
				r->start);
		return EXIT_FAILURE;
	}
	pages_tally(&r->mapped_init, &r->dirty_init);
	cleared_before = heap_cleared();
	if (pools_alloc(p, o->size_mb, r->start) < 0) {
		free(p);
		return EXIT_FAILURE;
	}
	r->t_pools = fr_now_ns();
	if (pools_check_and_write(p, r->start) < 0)
		status = FR_EXIT_NOT_ZERO;
	r->t_touched = fr_now_ns();
	serve(o->serve_ms);
	pages_tally(&r->mapped, &r->dirty);
	r->cleared = heap_cleared() - cleared_before;
	/* The pools are not freed: the process is about to go away. */
	free(p);
	return status;
}

/* Start number @p start, reporting to @p fd. @return exit status */
static int
start_main(unsigned int start, int fd, int argc, char **argv)
{
	struct fr_report r = { .magic = FR_REPORT_MAGIC, .start = start };
	struct fr_options o;
	int n, status;

	n = rte_eal_init(argc, argv);
	r.t_init = fr_now_ns();
	if (n < 0) {
		fprintf(stderr, "fast_restart: start %u: rte_eal_init() failed: %s\n",
				start, rte_strerror(rte_errno));
		close(fd);
		return EXIT_FAILURE;
	}
	if (fr_options_parse(argc - n - 1, argv + n + 1, &o) < 0) {
		rte_eal_cleanup();
		close(fd);
		return EXIT_FAILURE;
	}
	status = start_run(&r, &o);
	rte_eal_cleanup();
	r.t_exit = fr_now_ns();
	if (status != EXIT_FAILURE)
		report_send(fd, &r);
	else
		close(fd);
	return status;
}

/* The clean-up run: EAL init and cleanup in the default mode. */
static int
clean_main(int argc, char **argv)
{
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "fast_restart: cannot remove the hugepage files: rte_eal_init() failed: %s\n",
				rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	rte_eal_cleanup();
	return EXIT_SUCCESS;
}

int
fr_child(const char *role, int argc, char **argv)
{
	unsigned int start;
	int fd;

	if (strcmp(role, "clean") == 0)
		return clean_main(argc, argv);
	if (sscanf(role, "start,%u,%d", &start, &fd) != 2 || fd < 0) {
		fprintf(stderr, "fast_restart: bad %s='%s'\n", FR_ENV_ROLE,
				role);
		return EXIT_FAILURE;
	}
	return start_main(start, fd, argc, argv);
}
