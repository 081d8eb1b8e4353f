/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_PERF_TABLE_H_
#define _MALLOC_PERF_TABLE_H_

/**
 * @file
 * The allocator table shared by malloc_perf_autotest (rtemem-test) and
 * rtemem-malloc-perf: a memset reference, then for rte_malloc, rte_zmalloc
 * and rte_memzone_reserve and each size, allocate up to a number of blocks
 * (or until memory runs out), write every block, then free them all.
 *
 * Call it after rte_eal_init(), from one thread.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The allocation calls the table measures. */
enum mperf_api {
	MPERF_MALLOC, /**< rte_malloc(), freed by rte_free() */
	MPERF_ZMALLOC, /**< rte_zmalloc(), freed by rte_free() */
	MPERF_MEMZONE, /**< rte_memzone_reserve(), freed by rte_memzone_free() */
	/**
	 * The C library's malloc() and free(), for reference, with as many
	 * blocks as rte_malloc got, up to 1 GiB in all (it does not run out
	 * of hugepages, but of the machine's memory). It clears nothing
	 * rtemem can count: its cleared fields are 0.
	 */
	MPERF_LIBC,
	MPERF_API_COUNT
};

/** One row of the table: one call and one size. Times are per block. */
struct mperf_row {
	enum mperf_api api;
	size_t size; /**< bytes requested per block */
	unsigned int runs; /**< blocks allocated (fewer if memory ran out) */
	double alloc_us; /**< allocation time per block */
	double free_us; /**< free time per block */
	double memset_us; /**< time to write one block, measured */
	double cleared_alloc; /**< bytes the allocator cleared per allocation */
	double cleared_free; /**< bytes the allocator cleared per free */
};

/** What to measure. Start from mperf_config_default(). */
struct mperf_config {
	size_t max_size; /**< skip sizes above this (0: no limit) */
	unsigned int max_runs; /**< blocks per row at most (10000) */
	size_t memset_len; /**< memset reference buffer (1 GiB) */
	unsigned int memset_reps; /**< memset reference repetitions (20) */
	FILE *progress; /**< a line per row while running, or NULL */
};

/** The memset reference: how fast this machine writes memory. */
struct mperf_memset_ref {
	size_t len; /**< bytes per memset (less than asked if short) */
	unsigned int reps; /**< memsets timed */
	double gib_per_s; /**< bandwidth */
	double us_per_mib; /**< the same, as time per MiB */
};

/** The heap statistics the table uses, summed over the NUMA nodes. */
struct mperf_heap_totals {
	uint64_t alloc_count; /**< busy blocks */
	uint64_t cleared_on_zmalloc; /**< bytes rte_zmalloc() cleared */
	uint64_t cleared_on_free; /**< bytes rte_free() cleared */
};

/**
 * Sum the heap statistics of every NUMA node.
 *
 * @return
 *   0, or -1 if a node's statistics could not be read.
 */
int mperf_heap_totals(struct mperf_heap_totals *t);

/** Called once per measured row, in table order. */
typedef void(mperf_row_cb)(const struct mperf_row *row, void *arg);

/** The sizes of the table, in bytes, ascending. */
extern const size_t mperf_sizes[];
/** Number of entries in mperf_sizes. */
extern const unsigned int mperf_n_sizes;

/**
 * Fill a configuration with the defaults of malloc_perf_autotest:
 * every size, 10000 runs, 20 memsets of 1 GiB, no progress.
 */
void mperf_config_default(struct mperf_config *cfg);

/**
 * Measure the memset reference on heap memory (rte_malloc). If
 * cfg->memset_len cannot be allocated, halves it down to 1 MiB.
 *
 * @return
 *   0 on success, -1 if not even 1 MiB could be allocated.
 */
int mperf_memset_reference(
		const struct mperf_config *cfg, struct mperf_memset_ref *ref);

/**
 * Measure every row: each API, then each size up to cfg->max_size.
 * A size of which not even one block can be allocated gives no row.
 *
 * @return
 *   0 on success, -1 if a freed block could not be freed or the heap
 *   statistics could not be read (the table is then incomplete).
 */
int mperf_run(const struct mperf_config *cfg, mperf_row_cb *cb, void *arg);

/** Name of an API as printed in the table ("rte_malloc", ...). */
const char *mperf_api_name(enum mperf_api api);

/** Print the memset reference line. */
void mperf_print_memset(FILE *f, const struct mperf_memset_ref *ref);

/** Print the column headings of the table. */
void mperf_print_header(FILE *f);

/** Print one row, aligned under mperf_print_header(). */
void mperf_print_row(FILE *f, const struct mperf_row *row);

#endif /* _MALLOC_PERF_TABLE_H_ */
