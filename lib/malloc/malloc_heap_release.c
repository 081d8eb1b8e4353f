/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Giving a heap's pages back to lib/eal (malloc_heap_priv.h): which whole
 * pages of a free element may go (the memory layer shrinks, no one pins
 * them, the heap does not keep them), cutting them out of the element,
 * and the trims that give back every kept page at once.
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

bool
malloc_heap_page_freeable(struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx)
{
	return !(eal_msl_seg(mcfg, msl, idx)->flags &
			RTE_MEMSEG_FLAG_DO_NOT_FREE);
}

bool
malloc_heap_shrinks(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap)
{
	return !heap->external && !mcfg->legacy_mem && eal_memalloc_can_grow();
}

bool
malloc_heap_page_may_go(struct rte_mem_config *mcfg,
		const struct malloc_heap *heap, const struct malloc_elem *e)
{
	const struct rte_memseg_list *msl = malloc_heap_msl(mcfg, e);
	const void *data = RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN);

	return malloc_heap_shrinks(mcfg, heap) &&
			!malloc_page_return(mcfg)->keeps_pages &&
			malloc_heap_page_freeable(
					mcfg, msl, eal_msl_addr_idx(msl, data));
}

/*
 * The whole pages of free element @p e that may go back to lib/eal, as
 * ranges leaving pieces of e that are empty or at least a minimal
 * element. Only pages near [@p wlo, @p whi), the memory just freed, are
 * looked at: the rest of e was free before, and its pages were weighed
 * then. Looking at all of them would make a free next to a large free
 * element (such as the pages pinned by -m) cost a check per page.
 */
static unsigned int
heap_plan_release_pages(struct rte_mem_config *mcfg,
		const struct malloc_heap *heap, const struct malloc_elem *e,
		uintptr_t wlo, uintptr_t whi, struct malloc_heap_range *rel)
{
	const struct rte_memseg_list *msl = malloc_heap_msl(mcfg, e);
	uintptr_t s = (uintptr_t)e, end = (uintptr_t)malloc_elem_end(e);
	uintptr_t pg = msl->page_sz, lo, hi, a;
	unsigned int n = 0;

	if (!malloc_heap_shrinks(mcfg, heap))
		return 0;
	if (mcfg->match_allocations &&
			(e->orig_elem != e || e->size != e->orig_size))
		return 0;
	lo = RTE_ALIGN_CEIL(s, pg);
	hi = RTE_ALIGN_FLOOR(end, pg);
	if (lo > s && lo - s < MALLOC_ELEM_MIN_LEN)
		lo += pg;
	if (hi < end && end - hi < MALLOC_ELEM_MIN_LEN)
		hi -= pg;
	/* A page next to the freed memory may have been kept only because
	 * the piece beside it was too small to be an element. */
	wlo = RTE_ALIGN_FLOOR(wlo, pg);
	whi = RTE_ALIGN_CEIL(whi, pg);
	if (wlo > s + pg)
		lo = RTE_MAX(lo, wlo - pg);
	if (whi + pg < end)
		hi = RTE_MIN(hi, whi + pg);
	for (a = lo; a < hi && n < MALLOC_HEAP_MAX_RELEASE;) {
		unsigned int idx = eal_msl_addr_idx(msl, (void *)a);
		uintptr_t b = a;

		while (b < hi && malloc_heap_page_freeable(mcfg, msl, idx)) {
			b += pg;
			idx++;
		}
		if (b > a) {
			rel[n].start = a;
			rel[n++].end = b;
		}
		a = b + pg;
	}
	return n;
}

static inline unsigned int
heap_plan_release(struct rte_mem_config *mcfg, const struct malloc_heap *heap,
		const struct malloc_elem *e, uintptr_t wlo, uintptr_t whi,
		struct malloc_heap_range *rel)
{
	/* Most frees: no whole page inside, nothing to ask lib/eal. */
	if (e->size < malloc_heap_msl(mcfg, e)->page_sz)
		return 0;
	return heap_plan_release_pages(mcfg, heap, e, wlo, whi, rel);
}

unsigned int
malloc_heap_plan_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_elem *e, uintptr_t wlo, uintptr_t whi,
		struct malloc_heap_range *rel)
{
	unsigned int n = heap_plan_release(mcfg, heap, e, wlo, whi, rel);

	return n != 0 && malloc_trim_keep(mcfg, heap) ? 0 : n;
}

/* Hand pages [a, b) of list @p msl back to lib/eal. */
static int
heap_unmap(struct rte_mem_config *mcfg, struct rte_memseg_list *msl,
		uintptr_t a, uintptr_t b)
{
	unsigned int idx = eal_msl_addr_idx(msl, (void *)a);
	int n = (int)((b - a) / msl->page_sz), i, ret;
	struct rte_memseg **ms = malloc(sizeof(*ms) * (size_t)n);

	if (ms == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ms[i] = eal_msl_seg(mcfg, msl, idx + (unsigned int)i);
	malloc_asan_unpoison((void *)a, b - a);
	rte_mcfg_mem_write_lock();
	ret = eal_memalloc_free_seg_bulk(ms, n);
	rte_mcfg_mem_write_unlock();
	free(ms);
	return ret;
}

void
malloc_heap_release(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, const struct malloc_heap_range *rel,
		unsigned int n_rel)
{
	struct rte_memseg_list *msl = malloc_heap_msl(mcfg, e);
	unsigned int msl_idx = e->t.msl_idx, i;
	struct malloc_elem *cur = e, *r, *tail;

	for (i = 0; i < n_rel && cur != NULL; i++) {
		r = cur;
		if ((uintptr_t)cur < rel[i].start) {
			r = malloc_elem_split(
					cur, (void *)rel[i].start, ELEM_FREE);
			malloc_heap_insert_free(mcfg, heap, cur);
			malloc_heap_note_end(mcfg, cur);
		}
		tail = NULL;
		if ((uintptr_t)malloc_elem_end(r) > rel[i].end)
			tail = malloc_elem_split(
					r, (void *)rel[i].end, ELEM_FREE);
		if (r->prev != NULL)
			r->prev->next = NULL;
		if (r->next != NULL)
			r->next->prev = NULL;
		heap->total_size -= r->size;
		heap->free_size -= r->size;
		malloc_heap_note_low(heap);
		if (heap_unmap(mcfg, msl, rel[i].start, rel[i].end) < 0) {
			RTE_LOG(ERR, MALLOC,
					"cannot give back pages at %p, keeping them\n",
					(void *)rel[i].start);
			malloc_heap_add_memory(mcfg, heap, msl_idx,
					(void *)rel[i].start,
					rel[i].end - rel[i].start, true);
		}
		cur = tail;
	}
	if (cur != NULL) {
		/* The run-end entry still names the element before release. */
		malloc_heap_insert_free(mcfg, heap, cur);
		malloc_heap_note_end(mcfg, cur);
	}
}

void
malloc_heap_trim_elem(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	struct malloc_heap_range rel[MALLOC_HEAP_MAX_RELEASE];
	unsigned int n_rel = heap_plan_release(mcfg, heap, e, (uintptr_t)e,
			(uintptr_t)malloc_elem_end(e), rel);

	if (n_rel == 0)
		return;
	malloc_heap_remove_free(mcfg, heap, e);
	malloc_heap_release(mcfg, heap, e, rel, n_rel);
}

/* Free elements with a whole page, collected by one pass of a trim. */
#define HEAP_TRIM_BATCH 64

/*
 * Walk the free elements of @p b that hold a whole page that may go
 * back: into @p v (if not NULL) up to HEAP_TRIM_BATCH of them, where the
 * walk stops; their bytes of such pages added to *@p bytes (if not NULL).
 * The lists are only read. @return the elements put in @p v.
 */
static unsigned int
heap_scan(struct rte_mem_config *mcfg, const struct malloc_heap *heap,
		const struct malloc_bins *b, struct malloc_elem **v,
		size_t *bytes)
{
	struct malloc_heap_range rel[MALLOC_HEAP_MAX_RELEASE];
	unsigned int f, s, k, n_rel, n = 0;
	struct malloc_elem *e;

	malloc_bins_class(b->page_sz, &f, &s);
	for (; f < MALLOC_BINS_FL_COUNT; f++, s = 0) {
		for (; s < MALLOC_BINS_SL_COUNT; s++) {
			for (e = b->head[f][s]; e != NULL; e = e->free_next) {
				n_rel = heap_plan_release(mcfg, heap, e,
						(uintptr_t)e,
						(uintptr_t)malloc_elem_end(e),
						rel);
				for (k = 0; bytes != NULL && k < n_rel; k++)
					*bytes += rel[k].end - rel[k].start;
				if (n_rel == 0 || v == NULL)
					continue;
				v[n++] = e;
				if (n == HEAP_TRIM_BATCH)
					return n;
			}
		}
	}
	return n;
}

size_t
malloc_heap_trim(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	struct malloc_elem *v[HEAP_TRIM_BATCH];
	size_t before = heap->total_size;
	unsigned int i, j, n;

	if (!malloc_heap_shrinks(mcfg, heap))
		return 0;
	/*
	 * Before the drain: memory an lcore puts in its cache after the
	 * drain looked marks the heap again (malloc_trim_touch()), and the
	 * trim thread comes back for it.
	 */
	__atomic_store_n(&heap->keeping, 0, __ATOMIC_SEQ_CST);
	malloc_queue_drain(mcfg, heap);
	for (i = 0; i < heap->n_bins; i++) {
		/* A pass changes the lists: collect again until none is left. */
		while ((n = heap_scan(mcfg, heap, &heap->bins[i], v, NULL)) >
				0) {
			size_t total = heap->total_size;

			for (j = 0; j < n; j++)
				malloc_heap_trim_elem(mcfg, heap, v[j]);
			if (heap->total_size == total)
				break; /* lib/eal refused: do not spin */
		}
	}
	malloc_heap_low_reset(heap);
	return before - heap->total_size;
}

void
malloc_heap_low_reset(struct malloc_heap *heap)
{
	heap->free_low = heap->free_size;
	heap->low_ns = malloc_trim_now_ns();
}

/*
 * Give back the whole pages of free element @p e within its last
 * @p want bytes.
 */
static void
heap_trim_elem_top(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, size_t want)
{
	struct malloc_heap_range rel[MALLOC_HEAP_MAX_RELEASE];
	uintptr_t end = (uintptr_t)malloc_elem_end(e);
	uintptr_t pg = malloc_heap_msl(mcfg, e)->page_sz;
	uintptr_t lo = end - RTE_MIN(want, end - (uintptr_t)e);
	unsigned int n_rel;

	/* The plan takes a page below its window too: not one more. */
	lo = RTE_ALIGN_CEIL(lo, pg) + pg;
	n_rel = heap_plan_release(mcfg, heap, e, lo, end, rel);

	if (n_rel == 0)
		return;
	malloc_heap_remove_free(mcfg, heap, e);
	malloc_heap_release(mcfg, heap, e, rel, n_rel);
}

size_t
malloc_heap_trim_unused(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	struct malloc_elem *v[HEAP_TRIM_BATCH];
	size_t before = heap->total_size, want = 0, total, can_go = 0, kept;
	unsigned int i, j, n;

	/*
	 * A heap whose free memory ran out since the last call (a table
	 * freed and taken again) has nothing to give: no walk of its lists
	 * under the lock.
	 */
	if (heap->free_low == 0) {
		malloc_heap_low_reset(heap);
		return 0;
	}
	/*
	 * Free memory that cannot go (pinned pages, pieces of pages) stayed
	 * free too: only what stayed free beyond it goes.
	 */
	for (i = 0; i < heap->n_bins; i++)
		heap_scan(mcfg, heap, &heap->bins[i], NULL, &can_go);
	kept = heap->free_size - RTE_MIN(can_go, heap->free_size);
	if (heap->free_low > kept)
		want = heap->free_low - kept;
	for (i = 0; i < heap->n_bins && want > 0; i++) {
		while (want > before - heap->total_size &&
				(n = heap_scan(mcfg, heap, &heap->bins[i], v,
						 NULL)) > 0) {
			total = heap->total_size;
			for (j = 0; j < n; j++) {
				if (before - heap->total_size >= want)
					break;
				heap_trim_elem_top(mcfg, heap, v[j],
						want - (before - heap->total_size));
			}
			if (heap->total_size == total)
				break; /* lib/eal refused: do not spin */
		}
	}
	malloc_heap_low_reset(heap);
	return before - heap->total_size;
}

void
malloc_heap_trim_around(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	if (e->next != NULL && e->next->t.state == ELEM_FREE)
		malloc_heap_trim_elem(mcfg, heap, e->next);
	if (e->prev != NULL && e->prev->t.state == ELEM_FREE)
		malloc_heap_trim_elem(mcfg, heap, e->prev);
}
