/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Two-level segregated free lists (malloc_bins.h): the searches. A list
 * holds elements of one class (malloc_bins_class()), in no order.
 */

#include "malloc_bins.h"

/* The first non-empty class at or after (f, s), or false. */
static bool
bins_first_from(const struct malloc_bins *b, unsigned int *f, unsigned int *s)
{
	uint32_t sl;
	uint64_t fl;

	if (*f >= MALLOC_BINS_FL_COUNT)
		return false;
	sl = b->sl_map[*f] & (~0U << *s);
	if (sl != 0) {
		*s = (unsigned int)__builtin_ctz(sl);
		return true;
	}
	if (*f + 1 >= 64)
		return false;
	fl = b->fl_map & (~0ULL << (*f + 1));
	if (fl == 0)
		return false;
	*f = (unsigned int)__builtin_ctzll(fl);
	*s = (unsigned int)__builtin_ctz(b->sl_map[*f]);
	return true;
}

struct malloc_elem *
malloc_bins_find(const struct malloc_bins *b, size_t size)
{
	unsigned int f, s;

	/* Round up to the next class start: every member then fits. */
	if (size >= MALLOC_BINS_LINEAR) {
		unsigned int top = 63 - (unsigned int)__builtin_clzl(size);
		size_t step = 1UL << (top - MALLOC_BINS_SL_BITS);

		if (size > SIZE_MAX - step)
			return NULL;
		size += step - 1;
		malloc_bins_class(size, &f, &s);
		/* A rounded size past the last class fits nothing. */
		if (f == MALLOC_BINS_FL_COUNT - 1 &&
				s == MALLOC_BINS_SL_COUNT - 1)
			return NULL;
	} else {
		malloc_bins_class(size + 63, &f, &s);
	}
	if (!bins_first_from(b, &f, &s))
		return NULL;
	return b->head[f][s];
}

struct malloc_elem *
malloc_bins_next(const struct malloc_bins *b, size_t size,
		const struct malloc_elem *e)
{
	unsigned int f, s;

	if (e != NULL) {
		if (e->free_next != NULL)
			return e->free_next;
		malloc_bins_class(e->size, &f, &s);
		if (++s == MALLOC_BINS_SL_COUNT) {
			s = 0;
			f++;
		}
	} else {
		malloc_bins_class(size, &f, &s);
	}
	if (!bins_first_from(b, &f, &s))
		return NULL;
	return b->head[f][s];
}

struct malloc_elem *
malloc_bins_largest(const struct malloc_bins *b)
{
	const struct malloc_elem *e, *best = NULL;
	unsigned int f, s;

	if (b->fl_map == 0)
		return NULL;
	f = 63 - (unsigned int)__builtin_clzll(b->fl_map);
	s = 31 - (unsigned int)__builtin_clz(b->sl_map[f]);
	for (e = b->head[f][s]; e != NULL; e = e->free_next)
		if (best == NULL || e->size > best->size)
			best = e;
	return (struct malloc_elem *)(uintptr_t)best;
}
