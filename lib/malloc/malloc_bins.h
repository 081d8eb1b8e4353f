/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_BINS_H_
#define _MALLOC_BINS_H_

/*
 * Free lists of one page size in one heap: a two-level segregated fit.
 * Sizes are split into power-of-two ranges, each cut into
 * MALLOC_BINS_SL_COUNT equal classes; a bitmap per level says which lists
 * are non-empty. Finding a free element that surely fits a size is two
 * bit scans, whatever the number of free or busy elements.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "malloc_elem.h"

#define MALLOC_BINS_SL_BITS 4
#define MALLOC_BINS_SL_COUNT (1 << MALLOC_BINS_SL_BITS)
/* Sizes below this are cut linearly, in cache lines. */
#define MALLOC_BINS_LINEAR (1UL << (MALLOC_BINS_SL_BITS + 6))
#define MALLOC_BINS_FL_COUNT 40 /* up to 2^48 bytes */

struct malloc_bins {
	uint64_t page_sz; /* page size of the memory in these lists */
	uint64_t fl_map; /* bit f: some list of range f is non-empty */
	uint16_t sl_map[MALLOC_BINS_FL_COUNT]; /* bit s: list (f, s) */
	struct malloc_elem *head[MALLOC_BINS_FL_COUNT][MALLOC_BINS_SL_COUNT];
};

/* Add free element @p e to its list. */
void malloc_bins_insert(struct malloc_bins *b, struct malloc_elem *e);

/* Take free element @p e off its list. */
void malloc_bins_remove(struct malloc_bins *b, struct malloc_elem *e);

/*
 * A free element of at least @p size bytes, from the smallest class that
 * guarantees it, or NULL.
 */
struct malloc_elem *malloc_bins_find(const struct malloc_bins *b, size_t size);

/*
 * Walk the free elements that may hold @p size bytes, smallest class
 * first: @p e NULL gives the first, then pass the previous one. For
 * requests the guaranteed class cannot serve (alignment, bound, IOVA).
 */
struct malloc_elem *malloc_bins_next(const struct malloc_bins *b, size_t size,
		const struct malloc_elem *e);

/* The largest free element, or NULL. */
struct malloc_elem *malloc_bins_largest(const struct malloc_bins *b);

#endif /* _MALLOC_BINS_H_ */
