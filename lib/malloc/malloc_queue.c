/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Queues of small frees (malloc_queue.h): one stack per size and heap,
 * linked through the elements' free list links, so that the element
 * freed last, still warm in the cache, is handed out first. A drain
 * walks them forward and drops them whole; the back links, which only
 * the heap checker still reads, were for a drain that took elements out
 * of the middle one at a time.
 */

#include <string.h>

#include <rte_common.h>

#include "malloc_asan.h"
#include "malloc_heap.h"
#include "malloc_lcore.h"
#include "malloc_queue.h"

bool
malloc_queue_push(struct malloc_heap *heap, struct malloc_elem *e)
{
	int c = malloc_queue_class(e->size);

	/*
	 * Aligned allocations have a pad, which the queue would hand on. An
	 * element next to free memory is freed at once: queued, it would
	 * keep that memory from being joined, perhaps a whole page from
	 * going back.
	 */
	if (c < 0 || e->t.pad != 0 || heap->external ||
			heap->queued_size + e->size > MALLOC_QUEUE_MAX_BYTES ||
			(e->prev != NULL && e->prev->t.state == ELEM_FREE) ||
			(e->next != NULL && e->next->t.state == ELEM_FREE))
		return false;
	/* Freed memory is poisoned at once. */
	malloc_elem_poison_waiting(e);
	e->t.state = ELEM_QUEUED;
	e->free_prev = NULL;
	e->free_next = heap->queue[c];
	if (e->free_next != NULL)
		e->free_next->free_prev = e;
	heap->queue[c] = e;
	heap->queued_size += e->size;
	heap->queued_count++;
	return true;
}

struct malloc_elem *
malloc_queue_pop(struct malloc_heap *heap, const struct malloc_req *req,
		bool *dirty)
{
	struct malloc_elem *e;
	int c;

	/* Any data address of a queued element has cache-line alignment. */
	if (heap->queued_count == 0 || req->align > RTE_CACHE_LINE_SIZE ||
			req->bound != 0 || req->contig || req->page_sz != NULL)
		return NULL;
	c = malloc_queue_class_for(req->size);
	if (c < 0 || heap->queue[c] == NULL)
		return NULL;
	e = heap->queue[c];
	heap->queue[c] = e->free_next;
	if (e->free_next != NULL)
		e->free_next->free_prev = NULL;
	e->free_next = NULL;
	heap->queued_size -= e->size;
	heap->queued_count--;
	*dirty = malloc_elem_take_waiting(e);
	e->t.state = ELEM_BUSY;
	malloc_asan_unpoison(
			RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN), req->user_size);
	return e;
}

bool
malloc_queue_pending(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap)
{
	return heap->queued_count != 0 || malloc_lcore_pending(mcfg, heap);
}

void
malloc_queue_drain(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	struct malloc_lcore_drain d = { 0 };
	struct malloc_elem *runs = NULL;
	int c;

	malloc_lcore_drain_begin(mcfg, heap, &d, &runs);
	for (c = 0; c < MALLOC_QUEUE_CLASSES; c++) {
		if (heap->queue[c] == NULL)
			continue;
		malloc_heap_drain_list(
				mcfg, heap, heap->queue[c], d.cached, &runs);
		heap->queue[c] = NULL;
	}
	heap->queued_size = 0;
	heap->queued_count = 0;
	/* Every list is walked: the runs may now be cleared and unmapped. */
	malloc_heap_drain_runs(mcfg, heap, runs);
	malloc_lcore_drain_end(mcfg, heap, &d);
}
