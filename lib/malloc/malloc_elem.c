/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Element headers: creation, split and join. Free lists, clearing and
 * locking belong to the heap (malloc_heap.c); these functions only keep
 * headers and neighbour links right, under the heap's lock.
 */

#include <string.h>

#include "malloc_asan.h"
#include "malloc_elem.h"

void
malloc_elem_init(struct malloc_elem *e, size_t size, uint8_t msl_idx,
		uint8_t heap_idx, enum malloc_elem_state state, bool dirty)
{
	malloc_asan_unpoison(e, MALLOC_ELEM_HEADER_LEN);
	e->prev = NULL;
	e->next = NULL;
	e->free_prev = NULL;
	e->free_next = NULL;
	e->size = size;
	e->orig_elem = e;
	e->orig_size = size;
#ifdef RTE_MALLOC_DEBUG
	e->cookie = MALLOC_HEADER_COOKIE;
	memset(e->reserved, 0, sizeof(e->reserved));
#endif
	e->t.pad = 0;
	e->t.msl_idx = msl_idx;
	e->t.heap_idx = heap_idx;
	e->t.flags = dirty ? ELEM_FLAG_DIRTY : 0;
	e->t.state = (uint8_t)state;
}

struct malloc_elem *
malloc_elem_split(struct malloc_elem *e, void *at, enum malloc_elem_state state)
{
	struct malloc_elem *n = at;
	size_t low = RTE_PTR_DIFF(at, e);

	malloc_elem_init(n, e->size - low, e->t.msl_idx, e->t.heap_idx, state,
			malloc_elem_is_dirty(e));
	n->orig_elem = e->orig_elem;
	n->orig_size = e->orig_size;
	n->prev = e;
	n->next = e->next;
	if (e->next != NULL)
		e->next->prev = n;
	e->next = n;
	e->size = low;
	return n;
}

bool
malloc_elem_can_join_next(const struct malloc_elem *e, bool match)
{
	const struct malloc_elem *n = e->next;

	if (n == NULL || e->t.state != ELEM_FREE || n->t.state != ELEM_FREE)
		return false;
	return !match || n->orig_elem == e->orig_elem;
}

void
malloc_elem_join_next(struct malloc_elem *e)
{
	struct malloc_elem *n = e->next;

	e->size += n->size;
	e->t.flags |= n->t.flags & ELEM_FLAG_DIRTY;
	e->next = n->next;
	if (n->next != NULL)
		n->next->prev = e;
}
