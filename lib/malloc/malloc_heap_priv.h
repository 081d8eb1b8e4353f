/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_HEAP_PRIV_H_
#define _MALLOC_HEAP_PRIV_H_

/*
 * What the files of the heap share, and nothing above the heap uses:
 * malloc_heap.c (elements, free lists, allocation and free),
 * malloc_heap_grow.c, malloc_heap_release.c, malloc_heap_drain.c and
 * malloc_heap_rebuild.c. Callers hold the heap's lock.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "malloc_heap.h"

#define MALLOC_HEAP_MAX_RELEASE 8 /* page ranges given back by one free */

/* A range of whole pages going back to lib/eal: [start, end). */
struct malloc_heap_range {
	uintptr_t start;
	uintptr_t end;
};

/* The memseg list of element @p e. */
static inline struct rte_memseg_list *
malloc_heap_msl(struct rte_mem_config *mcfg, const struct malloc_elem *e)
{
	return &mcfg->memsegs[e->t.msl_idx];
}

/* Bytes of free element that surely hold @p req wherever it is aligned. */
static inline size_t
malloc_heap_need(const struct malloc_req *req)
{
	return MALLOC_ELEM_OVERHEAD + req->size +
			(req->align - RTE_CACHE_LINE_SIZE);
}

/* Record @p e in its list's run-end array if it ends on a page boundary. */
void malloc_heap_note_end(struct rte_mem_config *mcfg, struct malloc_elem *e);

/* Put free element @p e on the free list of its size and page size. */
void malloc_heap_insert_free(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_elem *e);

/* Take free element @p e off its free list. */
void malloc_heap_remove_free(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_elem *e);

/* Clear [start, end) outside the ranges going back to the kernel. */
uint64_t malloc_heap_clear_range(uintptr_t start, uintptr_t end,
		const struct malloc_heap_range *rel, unsigned int n_rel);

/* @return true if the page of slot @p idx may be given back. */
bool malloc_heap_page_freeable(struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx);

/* @return true if @p heap gives pages back to lib/eal at all. */
bool malloc_heap_shrinks(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap);

/*
 * The pages a free would give back, unless the heap keeps them for reuse
 * (malloc_trim.h): then none. Kept pages are free memory like any other,
 * cleared by the free if the element is clean.
 */
unsigned int malloc_heap_plan_free(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, const struct malloc_elem *e,
		uintptr_t wlo, uintptr_t whi, struct malloc_heap_range *rel);

/*
 * Cut the ranges @p rel out of free element @p e (off the lists), give
 * them back, and put the pieces left on the free lists.
 */
void malloc_heap_release(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, const struct malloc_heap_range *rel,
		unsigned int n_rel);

/*
 * The highest page boundary in [d, d + len) where IOVAs are not
 * contiguous, or 0 if they are.
 */
uintptr_t malloc_heap_iova_break(struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, uintptr_t d, size_t len);

/*
 * Give back the whole free pages of free element @p e: pages grown for a
 * request that still did not fit.
 */
void malloc_heap_trim_elem(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_elem *e);

/*
 * Give back the whole free pages beside @p e, just carved from grown
 * memory. Growth maps pages for the whole request, without counting the
 * free memory it joins, so the rest may hold a page nothing uses.
 */
void malloc_heap_trim_around(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_elem *e);

/*
 * Grow @p heap by enough pages for @p req.
 *
 * @return the free element now holding them, or NULL.
 */
struct malloc_elem *malloc_heap_grow(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, const struct malloc_req *req);

#endif /* _MALLOC_HEAP_PRIV_H_ */
