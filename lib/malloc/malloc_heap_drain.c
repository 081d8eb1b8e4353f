/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Draining queued and cached frees into a heap (malloc_heap.h): elements
 * are taken in address order and freed as runs of neighbours, so that a
 * run joins and clears once, and its whole pages go back in one call.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal_memconfig.h>
#include <rte_log.h>

#include "eal_memalloc.h"
#include "eal_memseg_list.h"
#include "malloc_asan.h"
#include "malloc_heap.h"
#include "malloc_heap_priv.h"
#include "malloc_trim.h"

/*
 * A drain (malloc_queue_drain()) joins in two steps. First it marks each
 * run of freed elements around a waiting one: every element is taken
 * off its list and counted as freed, but left as it is in memory, since
 * the queues and cache stacks being walked go through them. Then it
 * makes each run one free element, clears it and gives its pages back.
 * Each element is touched once per step, without a call: a drain after
 * a table of small frees joins thousands of them.
 */

/*
 * @return true if @p b, next to @p a in a run being marked, is freed and
 * joins it; a cached element only if @p cached (the drain has its cache).
 */
static inline bool
heap_drain_joins(const struct malloc_elem *a, const struct malloc_elem *b,
		bool match, bool cached)
{
	uint8_t s = b->t.state;

	return (s == ELEM_FREE || s == ELEM_QUEUED ||
			       (cached && s == ELEM_CACHED)) &&
			(!match || a->orig_elem == b->orig_elem);
}

/*
 * Walks along a run chase pointers through more headers than the cache
 * holds: fetch a header a few elements ahead in direction @p dir (1 up,
 * -1 down), guessing the elements there are of @p e's size, as they are
 * after a table of frees.
 */
static inline void
heap_drain_prefetch(const struct malloc_elem *e, int dir)
{
	__builtin_prefetch((const char *)e + dir * 8 * (intptr_t)e->size);
}

/* Mark @p e as part of a run; *@p n and *@p bytes count waiting ones. */
static inline void
heap_drain_take(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, unsigned int *n, size_t *bytes)
{
	if (e->t.state == ELEM_FREE) {
		malloc_heap_remove_free(mcfg, heap, e);
		e->t.state = ELEM_RUN_FREE;
	} else {
		(*n)++;
		*bytes += e->size;
		e->t.state = ELEM_RUN_WAITING;
	}
}

void
malloc_heap_drain_list(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *list, bool cached,
		struct malloc_elem **runs)
{
	bool match = mcfg->match_allocations != 0;
	struct malloc_elem *q, *next, *e;
	unsigned int n = 0;
	size_t bytes = 0;

	for (q = list; q != NULL; q = next) {
		next = q->free_next;
		/* Elements an earlier run took are marked already. */
		if (q->t.state == ELEM_RUN_WAITING)
			continue;
		heap_drain_take(mcfg, heap, q, &n, &bytes);
		for (e = q; e->next != NULL &&
				heap_drain_joins(e, e->next, match, cached);) {
			e = e->next;
			heap_drain_prefetch(e, 1);
			heap_drain_take(mcfg, heap, e, &n, &bytes);
		}
		for (e = q; e->prev != NULL &&
				heap_drain_joins(e, e->prev, match, cached);) {
			e = e->prev;
			heap_drain_prefetch(e, -1);
			heap_drain_take(mcfg, heap, e, &n, &bytes);
			/*
			 * A stack of frees made in address order goes down
			 * the run: skip what the walk takes as it goes, not
			 * in a second pass.
			 */
			if (e == next)
				next = e->free_next;
		}
		/* e is the run's first: the list of runs goes through it. */
		e->free_prev = *runs;
		*runs = e;
	}
	heap->alloc_count -= n;
	heap->free_size += bytes;
}

/* @return true if @p e, in a marked run, held a user's bytes. */
static inline bool
heap_run_used(const struct malloc_elem *e)
{
	return e->t.state == ELEM_RUN_WAITING &&
			(e->t.flags & ELEM_FLAG_SPARE) == 0;
}

/*
 * Clear what a run joined into clean element @p e was not known to hold as
 * zero: the waiting elements' bytes (their users wrote them; spares held
 * none) and the headers that became data. The first element was
 * @p first_size bytes, and held a user's bytes if @p first_used; the
 * others' headers are still intact. Adjacent pieces are cleared together.
 */
static uint64_t
heap_run_clear(struct malloc_elem *e, size_t first_size, bool first_used,
		const struct malloc_heap_range *rel, unsigned int n_rel)
{
	uintptr_t p = (uintptr_t)e + first_size;
	uintptr_t end = (uintptr_t)malloc_elem_end(e);
	uintptr_t cs = (uintptr_t)e + MALLOC_ELEM_HEADER_LEN, ce = cs;
	uint64_t done = 0;

	if (first_used)
		ce = p;
	while (p < end) {
		const struct malloc_elem *n = (const void *)p;
		size_t len = heap_run_used(n) ? n->size :
						MALLOC_ELEM_HEADER_LEN;

		if (p != ce) {
			if (ce > cs)
				done += malloc_heap_clear_range(
						cs, ce, rel, n_rel);
			cs = p;
		}
		ce = p + len;
		p += n->size;
	}
	if (ce > cs)
		done += malloc_heap_clear_range(cs, ce, rel, n_rel);
	return done;
}

/* @return true if @p e is the next element of the run of @p first. */
static inline bool
heap_run_member(const struct malloc_elem *first, const struct malloc_elem *e,
		bool match)
{
	return (e->t.state == ELEM_RUN_FREE ||
			       e->t.state == ELEM_RUN_WAITING) &&
			(!match || e->orig_elem == first->orig_elem);
}

/* Make the run marked from @p first one free element, and free it. */
static void
heap_drain_run(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *first)
{
	bool match = mcfg->match_allocations != 0;
	struct malloc_elem *last = first, *n;
	struct malloc_heap_range rel[MALLOC_HEAP_MAX_RELEASE];
	uintptr_t wlo = UINTPTR_MAX, whi = 0;
	uint8_t flags = first->t.flags;
	bool first_used = heap_run_used(first);
	size_t first_size = first->size;
	unsigned int n_rel;

	if (first->t.state == ELEM_RUN_WAITING) {
		wlo = (uintptr_t)first;
		whi = (uintptr_t)malloc_elem_end(first);
	}
	while ((n = last->next) != NULL && heap_run_member(first, n, match)) {
		heap_drain_prefetch(n, 1);
		flags |= n->t.flags;
		/* The walk goes up: the first waiting one is the lowest. */
		if (n->t.state == ELEM_RUN_WAITING) {
			wlo = RTE_MIN(wlo, (uintptr_t)n);
			whi = (uintptr_t)malloc_elem_end(n);
		}
		last = n;
	}
	flags &= ELEM_FLAG_DIRTY;
#ifdef RTE_MALLOC_DEBUG
	/* The waiting elements were poisoned when they were freed. */
	flags |= ELEM_FLAG_DIRTY;
#endif
	first->size = RTE_PTR_DIFF(malloc_elem_end(last), first);
	first->next = last->next;
	if (last->next != NULL)
		last->next->prev = first;
	first->t.flags = flags;
	first->t.state = ELEM_FREE;
	first->t.pad = 0;
	n_rel = malloc_heap_plan_free(mcfg, heap, first, wlo, whi, rel);
	if (!malloc_elem_is_dirty(first))
		heap->cleared_on_free += heap_run_clear(
				first, first_size, first_used, rel, n_rel);
	malloc_asan_poison(RTE_PTR_ADD(first, MALLOC_ELEM_HEADER_LEN),
			first->size - MALLOC_ELEM_HEADER_LEN);
	if (first != last)
		malloc_heap_note_end(mcfg, first);
	if (n_rel != 0)
		malloc_heap_release(mcfg, heap, first, rel, n_rel);
	else
		malloc_heap_insert_free(mcfg, heap, first);
}

void
malloc_heap_drain_runs(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *runs)
{
	struct malloc_elem *first;

	while (runs != NULL) {
		first = runs;
		runs = first->free_prev;
		heap_drain_run(mcfg, heap, first);
	}
}
