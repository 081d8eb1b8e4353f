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

/*
 * The class (f, s) of a size. Sizes of at least MALLOC_BINS_LINEAR with
 * top bit b are in range f = b - SL_BITS - 5, class s = the SL_BITS bits
 * below the top one; smaller sizes are f = 0, s = n / 64. Inline, like
 * insert and remove: every allocation and free runs them.
 */
static inline void
malloc_bins_class(size_t n, unsigned int *f, unsigned int *s)
{
	unsigned int b;

	if (n < MALLOC_BINS_LINEAR) {
		*f = 0;
		*s = (unsigned int)(n >> 6);
		return;
	}
	b = 63 - (unsigned int)__builtin_clzl(n);
	*f = b - MALLOC_BINS_SL_BITS - 5;
	*s = (unsigned int)(n >> (b - MALLOC_BINS_SL_BITS)) &
			(MALLOC_BINS_SL_COUNT - 1);
	if (*f >= MALLOC_BINS_FL_COUNT) {
		*f = MALLOC_BINS_FL_COUNT - 1;
		*s = MALLOC_BINS_SL_COUNT - 1;
	}
}

/* Add free element @p e to the list of class (f, s). */
static inline void
malloc_bins_push(struct malloc_bins *b, struct malloc_elem *e, unsigned int f,
		unsigned int s)
{
	e->free_prev = NULL;
	e->free_next = b->head[f][s];
	if (e->free_next != NULL)
		e->free_next->free_prev = e;
	b->head[f][s] = e;
	b->sl_map[f] |= (uint16_t)(1U << s);
	b->fl_map |= 1ULL << f;
}

/* Take free element @p e off the list of class (f, s). */
static inline void
malloc_bins_unlink(struct malloc_bins *b, struct malloc_elem *e, unsigned int f,
		unsigned int s)
{
	if (e->free_prev != NULL)
		e->free_prev->free_next = e->free_next;
	else
		b->head[f][s] = e->free_next;
	if (e->free_next != NULL)
		e->free_next->free_prev = e->free_prev;
	e->free_prev = NULL;
	e->free_next = NULL;
	if (b->head[f][s] == NULL) {
		b->sl_map[f] &= (uint16_t) ~(1U << s);
		if (b->sl_map[f] == 0)
			b->fl_map &= ~(1ULL << f);
	}
}

/* Add free element @p e to its list. */
static inline void
malloc_bins_insert(struct malloc_bins *b, struct malloc_elem *e)
{
	unsigned int f, s;

	malloc_bins_class(e->size, &f, &s);
	malloc_bins_push(b, e, f, s);
}

/* Take free element @p e off its list. */
static inline void
malloc_bins_remove(struct malloc_bins *b, struct malloc_elem *e)
{
	unsigned int f, s;

	malloc_bins_class(e->size, &f, &s);
	malloc_bins_unlink(b, e, f, s);
}

/*
 * Free element @p e, on its list, changed size from @p old_size: move it
 * to its new list, if its class changed. Carving from the top of a big
 * element mostly leaves it in its class.
 */
static inline void
malloc_bins_resized(
		struct malloc_bins *b, struct malloc_elem *e, size_t old_size)
{
	unsigned int f0, s0, f, s;

	malloc_bins_class(old_size, &f0, &s0);
	malloc_bins_class(e->size, &f, &s);
	if (f == f0 && s == s0)
		return;
	malloc_bins_unlink(b, e, f0, s0);
	malloc_bins_push(b, e, f, s);
}

/*
 * Element @p n takes the place of free element @p e on the list of the
 * class of @p size (e's size there), and e leaves it. The caller then
 * calls malloc_bins_resized() with @p size if n's size differs.
 */
static inline void
malloc_bins_swap(struct malloc_bins *b, struct malloc_elem *e,
		struct malloc_elem *n, size_t size)
{
	unsigned int f, s;

	n->free_prev = e->free_prev;
	n->free_next = e->free_next;
	if (n->free_prev != NULL) {
		n->free_prev->free_next = n;
	} else {
		malloc_bins_class(size, &f, &s);
		b->head[f][s] = n;
	}
	if (n->free_next != NULL)
		n->free_next->free_prev = n;
	e->free_prev = NULL;
	e->free_next = NULL;
}

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
